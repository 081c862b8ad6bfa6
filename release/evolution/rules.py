"""Rules over the schema text: where two versions of a type differ, and what the edit is called.

Each `Change` names the edit (`property 'x' became required`, `enum value 'y' removed`, ...), the
JSON location inside the type, the direction the edit usually has (a hint, never the verdict:
only a witness payload decides) and values worth trying at that place (`probes`: at a bound, one
inside, one outside). A keyword whose value is not of the kind its rule reads (a string where a
number belongs) falls back to the generic rule (`'x' changed from ... to ...`).

Probes are whole values for the places the witness search walks (the instance, its properties,
array items and additional properties): a change inside a subschema the search does not walk
(`prefixItems`, `contains`, `propertyNames`, `patternProperties`, `dependentSchemas`,
`if`/`then`/`else`) has its probes lifted into the value that holds it (an array, an object under
the condition) or its strings made property names.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from codegen.errors import pointer
from codegen.walk import Walk, keyword

from .values import MAX_SIZE, as_json, code_points, exact, is_count, is_number, items, key, members, same, sample

NARROWED, WIDENED, EITHER = "narrowed", "widened", "either"
SAMPLES: dict[str, Any] = {
    "string": "x",
    "integer": 7,
    "number": 0.5,
    "boolean": True,
    "null": None,
    "array": [],
    "object": {},
}
# keyword -> (direction when its value grows, what it bounds)
_LOWER = {"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
_UPPER = {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
_FLIP = {NARROWED: WIDENED, WIDENED: NARROWED, EITHER: EITHER}
EXTRA = "x_additional"  # a property name no version declares, for additionalProperties
MAX_PROBES = 48  # probes kept per change

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Change:
    """One structural difference inside a type."""

    where: str  # JSON Pointer inside the type's definition
    rule: str
    hint: str  # narrowed | widened | either
    probes: tuple[Any, ...] = ()  # JSON values worth placing at the changed spot
    names: tuple[str, ...] = ()  # property names worth adding or removing
    patterns: tuple[str, ...] = ()  # regular expressions whose matches are worth trying
    name_patterns: tuple[str, ...] = ()  # regular expressions whose matches are worth trying as property names
    kind: str = field(kw_only=True)  # what kind of edit (ids.CHANGES names each): the finding's rule id
    owner: str = ""  # the named type whose definition `where` points into, when not the reporting type


Changes = list[Change] | None  # None: the keyword's values are not of the kind its rule reads


def short(value: Any) -> str:
    """A JSON value as one line of compact text, whole: a rule names its values in full (the report
    wraps a long line, never cuts it), and two union branches alike in their first characters are
    still told apart."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _cap(values: Iterable[Any]) -> tuple[Any, ...]:
    """`values` without repeats (as JSON values), at most MAX_PROBES."""
    out: dict[str, Any] = {}
    for v in values:
        out.setdefault(key(v), v)
        if len(out) == MAX_PROBES:
            break
    return tuple(out.values())


def _types(node: dict[str, Any]) -> set[str] | None:
    t = node.get("type")
    if t is None:
        return set()
    if isinstance(t, str):
        return {t}
    return set(t) if isinstance(t, list) and all(isinstance(x, str) for x in t) else None


def _open(node: dict[str, Any]) -> bool:
    return node.get("additionalProperties", True) is not False


def _union_key(branch: Any) -> str:
    if isinstance(branch, dict) and set(branch) == {"$ref"}:
        return f"branch {branch['$ref']}"
    return "branch " + short(branch)


def _schema(value: Any) -> Any:
    """`{"not": {}}` (how the model keeps a `false` type) as `false`; anything else as it is."""
    return False if isinstance(value, dict) and value == {"not": {}} else value


def compare(a: Any, b: Any, path: Path = ()) -> list[Change]:
    """Every structural difference between two canonical schemas (see canonical.py); `true` and `{}`
    are the same schema, an absent keyword is the same as its default."""
    a, b = _schema(a), _schema(b)
    if same(a, b):
        return []
    if a is True and isinstance(b, dict):
        return compare({}, b, path)
    if b is True and isinstance(a, dict):
        return compare(a, {}, path)
    if not isinstance(a, dict) or not isinstance(b, dict):
        hint = NARROWED if b is False or a is True else WIDENED if a is False or b is True else EITHER
        probes = _cap([sample(a), sample(a, 1), sample(b), sample(b, 1), *SAMPLES.values()])
        shown = [short(True if x == {} else x) for x in (a, b)]  # {} is true
        return [
            Change(
                pointer(*path), f"schema changed from {shown[0]} to {shown[1]}", hint, probes, kind="schema-replaced"
            )
        ]
    out: list[Change] = []
    for k in sorted(set(a) | set(b), key=str):
        va, vb = a.get(k), b.get(k)
        if same(va, vb):
            continue
        out.extend(_keyword(k, a, b, va, vb, (*path, k)))
    return out


def edges(schema: Any) -> tuple[Any, ...]:
    """Values on both sides of `schema`'s constraints: samples it accepts and the probes of each of
    its keywords as added to `true`."""
    return _cap([sample(schema), sample(schema, 1), *(p for c in compare(True, schema) for p in c.probes)])


def _keyword(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> list[Change]:
    """The changes of one keyword between two versions of a schema object (`va`, `vb`: its values)."""
    handler = _HANDLERS.get(key)
    changes = handler(key, a, b, va, vb, path) if handler is not None else None
    return changes if changes is not None else _other(key, va, vb, path)


def _lift(
    changes: list[Change],
    probe: Callable[[Any], list[Any]] | None = None,
    keep: bool = True,
    prefix: str = "",
    names: tuple[str, ...] = (),
    name_patterns: tuple[str, ...] = (),
) -> list[Change]:
    """`changes` with each probe also (or, without `keep`, only) as the values `probe` makes of it, the
    rule prefixed, and `names` and `name_patterns` added."""
    out = []
    for c in changes:
        probes = c.probes
        if probe is not None:
            lifted = [v for p in c.probes for v in probe(p)]
            probes = _cap([*c.probes, *lifted] if keep else lifted)
        out.append(
            replace(
                c,
                rule=prefix + c.rule,
                probes=probes,
                names=(*c.names, *names),
                name_patterns=(*c.name_patterns, *name_patterns),
            )
        )
    return out


def _type(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    where = pointer(*path)
    ta, tb = _types(a), _types(b)
    if ta is None or tb is None:
        return None
    out = [
        Change(where, f"type '{t}' removed", NARROWED, (SAMPLES.get(t),), kind="json-type-removed")
        for t in sorted(ta - tb)
        if tb
    ]
    out += [
        Change(where, f"type '{t}' added", WIDENED, (SAMPLES.get(t),), kind="json-type-added")
        for t in sorted(tb - ta)
        if ta
    ]
    if not ta or not tb:
        hint = NARROWED if not ta else WIDENED
        rule = f"type {'set to' if not ta else 'no longer'} {sorted(ta or tb)}"
        out.append(
            Change(where, rule, hint, tuple(SAMPLES.values()), kind="json-type-set" if not ta else "json-type-unset")
        )
    return out


def _enum(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    where = pointer(*path)
    if va is None or vb is None:
        values = vb if va is None else va
        if not isinstance(values, list):
            return None
        return [_added_or_removed(where, key, va, vb, probes=_cap([*values, "x_not_in_enum"]))]
    if not (isinstance(va, list) and isinstance(vb, list)):
        return None
    ka, kb = {_key_text(v): v for v in va}, {_key_text(v): v for v in vb}
    out = [
        Change(where, f"enum value {k} removed", NARROWED, (ka[k],), kind="enum-value-removed")
        for k in sorted(ka.keys() - kb.keys())
    ]
    return out + [
        Change(where, f"enum value {k} added", WIDENED, (kb[k],), kind="enum-value-added")
        for k in sorted(kb.keys() - ka.keys())
    ]


def _key_text(value: Any) -> str:
    """A JSON value as it is named in a rule: equal JSON values (`1`, `1.0`) alike."""
    return short(json.loads(key(value)))


def _const(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    where = pointer(*path)
    if "const" in a and "const" in b:
        return [Change(where, f"const changed from {short(va)} to {short(vb)}", EITHER, (va, vb), kind="const-changed")]
    added = "const" in b
    rule = f"const {short(vb if added else va)} {'added' if added else 'removed'}"
    probes = (va if "const" in a else vb, "x_not_the_const")
    return [
        Change(where, rule, NARROWED if added else WIDENED, probes, kind="const-added" if added else "const-removed")
    ]


def _names(value: Any) -> set[str] | None:
    """A list of property names as a set (None for anything else)."""
    if value is None:
        return set()
    return set(value) if isinstance(value, list) and all(isinstance(n, str) for n in value) else None


def _required(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    ra, rb = _names(va), _names(vb)
    if ra is None or rb is None:
        return None
    base = pointer(*path[:-1]) + "/properties/"
    out = [
        Change(base + n, f"property '{n}' became required", NARROWED, names=(n,), kind="property-became-required")
        for n in sorted(rb - ra)
    ]
    return out + [
        Change(base + n, f"property '{n}' became optional", WIDENED, names=(n,), kind="property-became-optional")
        for n in sorted(ra - rb)
    ]


def _properties(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    if not (isinstance(va or {}, dict) and isinstance(vb or {}, dict)):
        return None
    pa, pb = va or {}, vb or {}
    pattern = key == "patternProperties"
    label = "pattern property" if pattern else "property"
    kind = "pattern-property" if pattern else "property"

    def at(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(names, name patterns) for a property or pattern property."""
        return ((), (name,)) if pattern else ((name,), ())

    out = []
    for name in sorted(pa.keys() - pb.keys()):
        hint = WIDENED if _open(b) else NARROWED
        rule, (names, patterns) = f"{label} '{name}' removed", at(name)
        found = edges(pa[name])
        out.append(
            Change(pointer(*path, name), rule, hint, found, names, name_patterns=patterns, kind=f"{kind}-removed")
        )
    for name in sorted(pb.keys() - pa.keys()):
        hint = NARROWED if _open(a) else WIDENED
        rule, (names, patterns) = f"{label} '{name}' added", at(name)
        found = edges(pb[name])
        out.append(Change(pointer(*path, name), rule, hint, found, names, name_patterns=patterns, kind=f"{kind}-added"))
    for name in sorted(pa.keys() & pb.keys()):
        names, patterns = at(name)
        out.extend(_lift(compare(pa[name], pb[name], (*path, name)), names=names, name_patterns=patterns))
    return out


def _additional(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    if not all(v is None or isinstance(v, bool | dict) for v in (va, vb)):
        return None
    xa, xb = _schema(True if va is None else va), _schema(True if vb is None else vb)
    declared = {n for node in (a, b) if isinstance(node.get("properties"), dict) for n in node["properties"]}
    extra = next(f"{EXTRA}{i or ''}" for i in range(len(declared) + 1) if f"{EXTRA}{i or ''}" not in declared)
    if (xa is False) != (xb is False):
        closed = xb is False
        rule = "additionalProperties " + ("closed (false)" if closed else "opened")
        accepted = edges(xa if closed else xb)
        kind = "additional-properties-" + ("closed" if closed else "opened")
        return [Change(pointer(*path), rule, NARROWED if closed else WIDENED, accepted, names=(extra,), kind=kind)]
    return _lift(compare(xa, xb, path), prefix="additionalProperties: ", names=(extra,))


def _alternatives(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    if not (isinstance(va or [], list) and isinstance(vb or [], list)):
        return None
    return _unions(key, va or [], vb or [], path)


def _all_of(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    if not (isinstance(va or [], list) and isinstance(vb or [], list)):
        return None
    where = pointer(*path)
    ka = {_union_key(x): (i, x) for i, x in enumerate(va or [])}
    kb = {_union_key(x): (i, x) for i, x in enumerate(vb or [])}
    gone, new = sorted(ka.keys() - kb.keys()), sorted(kb.keys() - ka.keys())
    if len(gone) == len(new) == 1 and not (_is_ref(ka[gone[0]][1]) and _is_ref(kb[new[0]][1])):
        return compare(ka[gone[0]][1], kb[new[0]][1], (*path, kb[new[0]][0]))  # one part edited in place
    out = [
        Change(
            where,
            f"allOf part {k.removeprefix('branch ')} removed",
            WIDENED,
            edges(ka[k][1]),
            kind="allof-part-removed",
        )
        for k in gone
    ]
    return out + [
        Change(
            where, f"allOf part {k.removeprefix('branch ')} added", NARROWED, edges(kb[k][1]), kind="allof-part-added"
        )
        for k in new
    ]


def _is_ref(node: Any) -> bool:
    return isinstance(node, dict) and set(node) == {"$ref"}


def _not(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    return [
        replace(c, rule=f"inside not: {c.rule}", hint=_FLIP[c.hint])
        for c in compare(va if va is not None else False, vb if vb is not None else False, path)
    ]


def _string_rule(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    if not all(v is None or isinstance(v, str) for v in (va, vb)):
        return None
    where = pointer(*path)
    pats = tuple(p for p in (va, vb) if isinstance(p, str)) if key == "pattern" else ()
    if va is None or vb is None:
        return [_added_or_removed(where, key, va, vb, patterns=pats)]
    return [
        Change(where, f"{key} changed from {short(va)} to {short(vb)}", EITHER, patterns=pats, kind=f"{key}-changed")
    ]


def _bounded(key: str, va: Any, vb: Any, path: Path, probes: Iterable[Any]) -> list[Change]:
    """A bound added, removed, raised or lowered (see _LOWER, _UPPER), with `probes` near it."""
    where = pointer(*path)
    found = _cap(probes)
    if va is None or vb is None:
        return [_added_or_removed(where, key, va, vb, probes=found)]
    grew = vb > va
    hint = (NARROWED if grew else WIDENED) if key in _LOWER else (WIDENED if grew else NARROWED)
    return [Change(where, f"{key} changed from {short(va)} to {short(vb)}", hint, found, kind="bound-changed")]


def _near(*bounds: Any, limit: int = MAX_SIZE) -> list[int]:
    """The counts one below, at and one above each bound (within 0..limit)."""
    return [int(n) for v in bounds if v is not None for n in (v - 1, v, v + 1) if 0 <= n <= limit]


def _length(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """minLength, maxLength: code points counted (the probes are emoji, two UTF-16 units each)."""
    if not all(v is None or is_count(v) for v in (va, vb)):
        return None
    return _bounded(key, va, vb, path, (code_points(n) for n in _near(va, vb, limit=10_000)))


def _number(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """minimum, maximum, exclusiveMinimum, exclusiveMaximum."""
    if not all(v is None or is_number(v) for v in (va, vb)):
        return None
    bounds = [exact(v) for v in (va, vb) if v is not None]
    near = [v + d for v in bounds for d in (Fraction(-1), Fraction(-1, 2), Fraction(0), Fraction(1, 2), Fraction(1))]
    middle = [(bounds[0] + bounds[1]) / 2] if len(bounds) == 2 else []
    return _bounded(key, va, vb, path, (as_json(v) for v in [*near, *middle]))


def _item_count(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """minItems, maxItems: arrays of each version's items, one short of, at and one past each bound."""
    if not all(v is None or is_count(v) for v in (va, vb)):
        return None
    return _bounded(key, va, vb, path, (items(node, n) for n in _near(va, vb) for node in (a, b)))


def _property_count(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """minProperties, maxProperties: objects of each version's properties near each bound."""
    if not all(v is None or is_count(v) for v in (va, vb)):
        return None
    return _bounded(key, va, vb, path, (members(node, n) for n in _near(va, vb) for node in (a, b)))


def _contains_count(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """minContains, maxContains: arrays of items matching each version's `contains`, near each bound."""
    if not all(v is None or is_count(v) for v in (va, vb)):
        return None
    probes = ([sample(node.get("contains", True), i) for i in range(n)] for n in _near(va, vb) for node in (a, b))
    return _bounded(key, va, vb, path, probes)


def _multiple_of(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """multipleOf: a multiple of the new step is one of the old step when the new is a multiple of the
    old (2 -> 4 narrows), and the reverse (4 -> 2 widens); neither (2 -> 3) changes both ways."""
    if not all(v is None or (is_number(v) and v > 0) for v in (va, vb)):
        return None
    where = pointer(*path)
    steps = [exact(v) for v in (va, vb) if v is not None]
    probes = _cap(as_json(s * k) for s in steps for k in (Fraction(1), Fraction(2), Fraction(3, 2), Fraction(1, 2)))
    if va is None or vb is None:
        return [_added_or_removed(where, key, va, vb, probes=probes)]
    ratio = exact(vb) / exact(va)
    hint = NARROWED if ratio.denominator == 1 else WIDENED if ratio.numerator == 1 else EITHER
    return [
        Change(where, f"multipleOf changed from {short(va)} to {short(vb)}", hint, probes, kind="multiple-of-changed")
    ]


def _unique(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """uniqueItems: duplicates as JSON sees them (`[1, 1.0]`, equal objects) are the probes."""
    if not all(v is None or isinstance(v, bool) for v in (va, vb)):
        return None
    if bool(va) == bool(vb):
        return []
    twins = [[x, x] for node in (a, b) for x in (sample(node.get("items", True)), sample(node.get("items", True), 1))]
    probes = _cap([[1, 1.0], [{"k": 1}, {"k": 1.0}], *twins, ["x", "x"], [{}, {}], [[], []]])
    hint = NARROWED if vb else WIDENED
    return [
        Change(
            pointer(*path), f"uniqueItems became {'true' if vb else 'false'}", hint, probes, kind="unique-items-changed"
        )
    ]


def _prefix(node: dict[str, Any]) -> list[Any] | None:
    value = node.get("prefixItems")
    return [] if value is None else value if isinstance(value, list) else None


def _prefix_items(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """prefixItems: items added or removed at the end, and each item's own changes (lifted into arrays)."""
    la, lb = _prefix(a), _prefix(b)
    if la is None or lb is None:
        return None
    out: list[Change] = []
    for i in range(min(len(la), len(lb))):

        def lift(p: Any, i: int = i) -> list[Any]:
            """A probe of item `i` as that item of an array (after each version's earlier items)."""
            return [[*items(a, i), p], [*items(b, i), p]]

        out += _lift(compare(la[i], lb[i], (*path, i)), lift, keep=False, prefix=f"prefixItems item {i}: ")
    for i in range(len(la), len(lb)):  # added: the item was under the old `items` (open unless false)
        hint = NARROWED if a.get("items", True) is not False else WIDENED
        probes = [[*items(a, i), e] for e in edges(lb[i])] + [items(a, i + 1), items(b, i + 1)]
        out.append(
            Change(pointer(*path, i), f"prefixItems item {i} added", hint, _cap(probes), kind="prefix-item-added")
        )
    for i in range(len(lb), len(la)):
        hint = WIDENED if b.get("items", True) is not False else NARROWED
        probes = [[*items(b, i), e] for e in edges(la[i])] + [items(a, i + 1), items(b, i + 1)]
        out.append(
            Change(pointer(*path, i), f"prefixItems item {i} removed", hint, _cap(probes), kind="prefix-item-removed")
        )
    return out


def _items(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """items (after prefixItems): its changes, probes also as the first such item of an array."""
    if not all(v is None or isinstance(v, bool | dict) for v in (va, vb)):
        return None

    def lift(p: Any) -> list[Any]:
        """A probe of an item as the first item after each version's `prefixItems`."""
        return [[*items(a, len(_prefix(a) or [])), p], [*items(b, len(_prefix(b) or [])), p]]

    return _lift(compare(True if va is None else va, True if vb is None else vb, path), lift)


def _contains(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """contains: added narrows (an array with no such item is refused, `[]` too), removed widens."""
    if not all(v is None or isinstance(v, bool | dict) for v in (va, vb)):
        return None
    if va is None or vb is None:
        probes = _cap([[], *([e] for e in edges(vb if va is None else va)), items(a, 1), items(b, 1)])
        return [_added_or_removed(pointer(*path), key, va, vb, probes=probes)]
    return _lift(compare(va, vb, path), lambda p: [[p]], prefix="contains: ")


def _property_names(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """propertyNames: its changes, with their string probes tried as property names."""
    if not all(v is None or isinstance(v, bool | dict) for v in (va, vb)):
        return None
    out = []
    for c in compare(True if va is None else va, True if vb is None else vb, path):
        names = tuple(p for p in c.probes if isinstance(p, str))
        out.append(
            replace(
                c,
                rule=f"propertyNames: {c.rule}",
                probes=(),
                names=(*c.names, *names),
                name_patterns=(*c.name_patterns, *c.patterns),
                patterns=(),
            )
        )
    return out


def _dependent_required(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """dependentRequired: each (present property -> required property) pair added or removed."""
    da, db = va or {}, vb or {}
    if not (isinstance(da, dict) and isinstance(db, dict)):
        return None
    sa, sb = {t: _names(d) for t, d in da.items()}, {t: _names(d) for t, d in db.items()}
    if any(s is None for s in (*sa.values(), *sb.values())):
        return None
    out = []
    for trigger in sorted(sa.keys() | sb.keys()):
        before, after = sa.get(trigger) or set(), sb.get(trigger) or set()
        kept = sorted(before & after)  # present in the probes: both versions require them
        probes = _cap({n: sample(_property(node, n), i) for n in [trigger, *kept]} for node in (a, b) for i in (0, 1))
        for dep in sorted(after - before):
            rule = f"dependentRequired '{trigger}' -> '{dep}' added ('{dep}' required when '{trigger}' is present)"
            out.append(
                Change(pointer(*path, trigger), rule, NARROWED, probes, (trigger, dep), kind="dependent-required-added")
            )
        for dep in sorted(before - after):
            rule = f"dependentRequired '{trigger}' -> '{dep}' removed"
            out.append(
                Change(
                    pointer(*path, trigger), rule, WIDENED, probes, (trigger, dep), kind="dependent-required-removed"
                )
            )
    return out


def _property(node: dict[str, Any], name: str) -> Any:
    """The schema of property `name` in `node` (true when it declares none)."""
    props = node.get("properties")
    return props.get(name, True) if isinstance(props, dict) else True


def _under(changes: list[Change], contexts: list[dict[str, Any]], prefix: str) -> list[Change]:
    """Changes of a subschema that applies to an object only under a condition: each probe also
    merged into (or, for a property's probe, set in) objects that meet or miss the condition."""
    out = []
    for c in changes:
        values: list[Any] = list(contexts)
        for ctx in contexts:
            values += [{**ctx, **p} for p in c.probes if isinstance(p, dict)]
            values += [{**ctx, n: p} for n in c.names for p in c.probes]
        out.append(replace(c, rule=prefix + c.rule, probes=_cap([*c.probes, *values])))
    return out


def _dependent_schemas(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """dependentSchemas: each property's schema added, removed or changed (applies when it is present)."""
    da, db = va or {}, vb or {}
    if not (isinstance(da, dict) and isinstance(db, dict)):
        return None
    if not all(isinstance(s, bool | dict) for s in (*da.values(), *db.values())):
        return None
    out = []
    for trigger in sorted(da.keys() | db.keys()):
        sub = compare(da.get(trigger, True), db.get(trigger, True), (*path, trigger))
        contexts = [{trigger: sample(_property(node, trigger), i)} for node in (a, b) for i in (0, 1)]
        out += _lift(_under(sub, contexts, f"when '{trigger}' is present: "), names=(trigger,))
    return out


def contexts(condition: Any) -> list[dict[str, Any]]:
    """Objects on both sides of an `if`: its sample, and that sample with each edge probe set."""
    base = sample(condition)
    base = base if isinstance(base, dict) else {}
    out: list[Any] = [base, {}]
    for c in compare(True, condition):
        out += [{**base, n: p} for n in c.names for p in c.probes[:3]]
    return [v for v in _cap(out) if isinstance(v, dict)][:6]


def _conditional(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """if/then/else: `then` applies where `if` holds, `else` where it does not; neither without `if`."""
    ia, ib = a.get("if"), b.get("if")
    if not all(v is None or isinstance(v, bool | dict) for v in (ia, ib, va, vb)):
        return None
    if key != "if":
        if ia is None and ib is None:
            return [
                Change(pointer(*path), f"{key} changed (no effect without if)", EITHER, kind="conditional-without-if")
            ]
        if ia is None or ib is None or not same(ia, ib):
            return []  # told with the if
        return _under(compare(_or_true(va), _or_true(vb), path), contexts(ia), f"{key}: ")
    where = pointer(*path[:-1])
    probes = _cap(v for node in (a, b) for v in _conditional_probes(node))
    if ia is None or ib is None:
        added = ia is None
        rule = f"if/then/else {'added' if added else 'removed'}: if {short(ib if added else ia)}"
        kind = "conditional-added" if added else "conditional-removed"
        return [Change(where, rule, NARROWED if added else WIDENED, probes, kind=kind)]
    out = _lift(compare(ia, ib, path), prefix="if: ")
    out = [replace(c, hint=EITHER, probes=_cap([*c.probes, *probes])) for c in out]
    for part in ("then", "else"):
        if not same(a.get(part), b.get(part)):
            sub = compare(_or_true(a.get(part)), _or_true(b.get(part)), (*path[:-1], part))
            out += [replace(c, hint=EITHER) for c in _under(sub, contexts(ia) + contexts(ib), f"{part}: ")]
    return out


def _or_true(value: Any) -> Any:
    return True if value is None else value


def _conditional_probes(node: dict[str, Any]) -> list[Any]:
    """Objects that meet or miss `node`'s `if`, with `then` and `else` probes set."""
    if "if" not in node:
        return []
    found = contexts(node["if"])
    for part in ("then", "else"):
        found += [p for c in _under(compare(True, node.get(part, True)), found[:4], "") for p in c.probes]
    return found


def _local_defs(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    """A type's own `$defs`: each definition added, removed or changed."""
    da, db = va or {}, vb or {}
    if not (isinstance(da, dict) and isinstance(db, dict)):
        return None
    out = [
        Change(pointer(*path, n), f"local definition '{n}' removed", EITHER, kind="local-definition-removed")
        for n in sorted(da.keys() - db.keys())
    ]
    out += [
        Change(pointer(*path, n), f"local definition '{n}' added", EITHER, kind="local-definition-added")
        for n in sorted(db.keys() - da.keys())
    ]
    for name in sorted(da.keys() & db.keys()):
        out += _lift(compare(da[name], db[name], (*path, name)), prefix=f"local definition '{name}': ")
    return out


def _ref(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: Path) -> Changes:
    where = pointer(*path)
    if va is None or vb is None:
        hint = NARROWED if va is None else WIDENED
        return [
            Change(
                where,
                f"reference to {vb or va} {'added' if va is None else 'removed'}",
                hint,
                kind=f"reference-{'added' if va is None else 'removed'}",
            )
        ]
    return [Change(where, f"reference changed from {va} to {vb}", EITHER, kind="reference-changed")]


def _other(key: str, va: Any, vb: Any, path: Path) -> list[Change]:
    """Any other keyword: subschemas compared in turn (as the keyword table walks them), values as values."""
    where = pointer(*path)
    how = keyword(key).walk
    walked = how not in (Walk.DATA, Walk.VALUE)
    if how is Walk.SUBSCHEMA_MAP and isinstance(va, dict) and isinstance(vb, dict):
        gone = [
            Change(pointer(*path, n), f"'{key}' entry '{n}' removed", EITHER, kind="map-entry-removed")
            for n in sorted(va.keys() - vb.keys())
        ]
        new = [
            Change(pointer(*path, n), f"'{key}' entry '{n}' added", EITHER, kind="map-entry-added")
            for n in sorted(vb.keys() - va.keys())
        ]
        return gone + new + [c for n in sorted(va.keys() & vb.keys()) for c in compare(va[n], vb[n], (*path, n))]
    if walked and isinstance(va, dict) and isinstance(vb, dict):
        return compare(va, vb, path)
    if va is None or vb is None:
        hint = NARROWED if va is None else WIDENED
        return [
            Change(
                where,
                f"keyword '{key}' {'added' if va is None else 'removed'}",
                hint,
                kind=f"keyword-{'added' if va is None else 'removed'}",
            )
        ]
    if walked and isinstance(va, list) and isinstance(vb, list) and len(va) == len(vb):
        return [c for i, (x, y) in enumerate(zip(va, vb, strict=True)) for c in compare(x, y, (*path, i))]
    return [Change(where, f"'{key}' changed from {short(va)} to {short(vb)}", EITHER, kind="keyword-changed")]


_HANDLERS: dict[str, Callable[..., Changes]] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    "required": _required,
    "properties": _properties,
    "patternProperties": _properties,
    "additionalProperties": _additional,
    "propertyNames": _property_names,
    "dependentRequired": _dependent_required,
    "dependentSchemas": _dependent_schemas,
    "minProperties": _property_count,
    "maxProperties": _property_count,
    "anyOf": _alternatives,
    "oneOf": _alternatives,
    "allOf": _all_of,
    "not": _not,
    "if": _conditional,
    "then": _conditional,
    "else": _conditional,
    "pattern": _string_rule,
    "format": _string_rule,
    "minLength": _length,
    "maxLength": _length,
    "minimum": _number,
    "maximum": _number,
    "exclusiveMinimum": _number,
    "exclusiveMaximum": _number,
    "multipleOf": _multiple_of,
    "items": _items,
    "prefixItems": _prefix_items,
    "contains": _contains,
    "minItems": _item_count,
    "maxItems": _item_count,
    "uniqueItems": _unique,
    "minContains": _contains_count,
    "maxContains": _contains_count,
    "$defs": _local_defs,
    "$ref": _ref,
}


def _added_or_removed(
    where: str, key: str, va: Any, vb: Any, probes: tuple[Any, ...] = (), patterns: tuple[str, ...] = ()
) -> Change:
    """A constraint that one side has and the other lacks: adding one narrows, removing one widens."""
    added = va is None
    return Change(
        where,
        f"{key} {short(vb if added else va)} {'added' if added else 'removed'}",
        NARROWED if added else WIDENED,
        probes,
        patterns=patterns,
        kind="constraint-added" if added else "constraint-removed",
    )


def _unions(key: str, va: list[Any], vb: list[Any], path: Path) -> list[Change]:
    where = pointer(*path)
    ka = {_union_key(x): (i, x) for i, x in enumerate(va)}
    kb = {_union_key(x): (i, x) for i, x in enumerate(vb)}
    gone, new = sorted(ka.keys() - kb.keys()), sorted(kb.keys() - ka.keys())
    if len(gone) == len(new) == 1:  # one branch edited in place
        (_, x), (j, y) = ka[gone[0]], kb[new[0]]
        if not (_is_ref(x) and _is_ref(y)):
            return compare(x, y, (*path, j))
    label = "union" if key == "oneOf" else "anyOf"
    out = [Change(where, f"{label} {k} removed", NARROWED, edges(ka[k][1]), kind="union-branch-removed") for k in gone]
    return out + [Change(where, f"{label} {k} added", WIDENED, edges(kb[k][1]), kind="union-branch-added") for k in new]
