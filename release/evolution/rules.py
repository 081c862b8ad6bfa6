"""Rules over the schema text: where two versions of a type differ, and what the edit is called.

Each `Change` names the edit (`property 'x' became required`, `enum value 'y' removed`, ...), the
JSON location inside the type, the direction the edit usually has (a hint, never the verdict:
only a witness payload decides) and values worth trying at that place (`probes`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from codegen.errors import pointer
from codegen.walk import Walk, keyword

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


@dataclass(frozen=True)
class Change:
    """One structural difference inside a type."""

    where: str  # JSON Pointer inside the type's definition
    rule: str
    hint: str  # narrowed | widened | either
    probes: tuple[Any, ...] = ()  # JSON values worth placing at the changed spot
    names: tuple[str, ...] = ()  # property names worth adding or removing
    patterns: tuple[str, ...] = ()  # regular expressions whose matches are worth trying


Changes = list[Change] | None  # None: the keyword's values are not of the kind its rule reads


def short(value: Any, limit: int = 60) -> str:
    """A JSON value as short text."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _types(node: dict[str, Any]) -> set[str]:
    t = node.get("type")
    if t is None:
        return set()
    return {t} if isinstance(t, str) else set(t)


def _open(node: dict[str, Any]) -> bool:
    return node.get("additionalProperties", True) is not False


def _length_probes(key: str, *bounds: Any) -> tuple[Any, ...]:
    values: list[Any] = []
    for b in bounds:
        if not isinstance(b, int | float) or isinstance(b, bool):
            continue
        for n in (b - 1, b, b + 1):
            if key.endswith("Length") and isinstance(n, int) and 0 <= n <= 10_000:
                values.append("x" * n)
            elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                values.extend([n, float(n) + 0.5] if isinstance(n, int) else [n])
    return tuple(values)


def _union_key(branch: Any) -> str:
    if isinstance(branch, dict) and set(branch) == {"$ref"}:
        return f"branch {branch['$ref']}"
    return "branch " + short(branch, 40)


def compare(a: Any, b: Any, path: tuple[str | int, ...] = ()) -> list[Change]:
    """Every structural difference between two canonical schemas (see canonical.py)."""
    where = pointer(*path)
    if a == b:
        return []
    if not isinstance(a, dict) or not isinstance(b, dict):
        hint = NARROWED if b is False or a is True else WIDENED if a is False or b is True else EITHER
        return [Change(where, f"schema changed from {short(a)} to {short(b)}", hint)]
    out: list[Change] = []
    for key in sorted(set(a) | set(b), key=str):
        va, vb = a.get(key), b.get(key)
        if va == vb:
            continue
        sub = (*path, key)
        out.extend(_keyword(key, a, b, va, vb, sub))
    return out


def _keyword(
    key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]
) -> list[Change]:
    """The changes of one keyword between two versions of a schema object (`va`, `vb`: its values)."""
    handler = _HANDLERS.get(key)
    changes = handler(key, a, b, va, vb, path) if handler is not None else None
    return changes if changes is not None else _other(key, va, vb, path)


def _type(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]) -> Changes:
    where = pointer(*path)
    ta, tb = _types(a), _types(b)
    out = [Change(where, f"type '{t}' removed", NARROWED, (SAMPLES.get(t),)) for t in sorted(ta - tb) if tb]
    out += [Change(where, f"type '{t}' added", WIDENED, (SAMPLES.get(t),)) for t in sorted(tb - ta) if ta]
    if not ta or not tb:
        hint = NARROWED if not ta else WIDENED
        rule = f"type {'set to' if not ta else 'no longer'} {sorted(ta or tb)}"
        out.append(Change(where, rule, hint, tuple(SAMPLES.values())))
    return out


def _enum(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]) -> Changes:
    if not (isinstance(va, list) and isinstance(vb, list)):
        return None
    where = pointer(*path)
    ka, kb = {short(v, 10**6): v for v in va}, {short(v, 10**6): v for v in vb}
    out = [Change(where, f"enum value {k} removed", NARROWED, (ka[k],)) for k in sorted(ka.keys() - kb.keys())]
    return out + [Change(where, f"enum value {k} added", WIDENED, (kb[k],)) for k in sorted(kb.keys() - ka.keys())]


def _const(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]) -> Changes:
    where = pointer(*path)
    if "const" in a and "const" in b:
        return [Change(where, f"const changed from {short(va)} to {short(vb)}", EITHER, (va, vb))]
    added = "const" in b
    rule = f"const {short(vb if added else va)} {'added' if added else 'removed'}"
    return [Change(where, rule, NARROWED if added else WIDENED, (va if "const" in a else vb, "x_not_the_const"))]


def _required(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]) -> Changes:
    ra, rb = set(va or ()), set(vb or ())
    base = pointer(*path[:-1]) + "/properties/"
    out = [Change(base + n, f"property '{n}' became required", NARROWED, names=(n,)) for n in sorted(rb - ra)]
    return out + [Change(base + n, f"property '{n}' became optional", WIDENED, names=(n,)) for n in sorted(ra - rb)]


def _properties(
    key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]
) -> Changes:
    if not (isinstance(va or {}, dict) and isinstance(vb or {}, dict)):
        return None
    pa, pb = va or {}, vb or {}
    label = "property" if key == "properties" else "pattern property"
    out = []
    for name in sorted(pa.keys() - pb.keys()):
        hint = WIDENED if _open(b) else NARROWED
        out.append(Change(pointer(*path, name), f"{label} '{name}' removed", hint, names=(name,)))
    for name in sorted(pb.keys() - pa.keys()):
        hint = NARROWED if _open(a) else WIDENED
        out.append(Change(pointer(*path, name), f"{label} '{name}' added", hint, names=(name,)))
    for name in sorted(pa.keys() & pb.keys()):
        out.extend(compare(pa[name], pb[name], (*path, name)))
    return out


def _additional(
    key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]
) -> Changes:
    if (va is False) == (vb is False):
        return None
    closed = vb is False
    rule = "additionalProperties " + ("closed (false)" if closed else "opened")
    return [Change(pointer(*path), rule, NARROWED if closed else WIDENED)]


def _alternatives(
    key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]
) -> Changes:
    if not (isinstance(va or [], list) and isinstance(vb or [], list)):
        return None
    return _unions(key, va or [], vb or [], path)


def _all_of(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]) -> Changes:
    if not (isinstance(va or [], list) and isinstance(vb or [], list)):
        return None
    where = pointer(*path)
    ka = {_union_key(x): x for x in va or []}
    kb = {_union_key(x): x for x in vb or []}
    out = [
        Change(where, f"allOf part {k.removeprefix('branch ')} removed", WIDENED) for k in sorted(ka.keys() - kb.keys())
    ]
    return out + [
        Change(where, f"allOf part {k.removeprefix('branch ')} added", NARROWED) for k in sorted(kb.keys() - ka.keys())
    ]


def _not(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]) -> Changes:
    return [
        Change(c.where, f"inside not: {c.rule}", _FLIP[c.hint], c.probes, c.names, c.patterns)
        for c in compare(va if va is not None else False, vb if vb is not None else False, path)
    ]


def _string_rule(
    key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]
) -> Changes:
    where = pointer(*path)
    pats = tuple(p for p in (va, vb) if isinstance(p, str)) if key == "pattern" else ()
    if va is None or vb is None:
        return [_added_or_removed(where, key, va, vb, patterns=pats)]
    return [Change(where, f"{key} changed from {short(va)} to {short(vb)}", EITHER, patterns=pats)]


def _bound(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]) -> Changes:
    where = pointer(*path)
    probes = _length_probes(key, va, vb)
    if va is None or vb is None:
        return [_added_or_removed(where, key, va, vb, probes=probes)]
    grew = vb > va
    hint = (NARROWED if grew else WIDENED) if key in _LOWER else (WIDENED if grew else NARROWED)
    return [Change(where, f"{key} changed from {short(va)} to {short(vb)}", hint, probes)]


def _ref(key: str, a: dict[str, Any], b: dict[str, Any], va: Any, vb: Any, path: tuple[str | int, ...]) -> Changes:
    where = pointer(*path)
    if va is None or vb is None:
        hint = NARROWED if va is None else WIDENED
        return [Change(where, f"reference to {vb or va} {'added' if va is None else 'removed'}", hint)]
    return [Change(where, f"reference changed from {va} to {vb}", EITHER)]


def _other(key: str, va: Any, vb: Any, path: tuple[str | int, ...]) -> list[Change]:
    """Any other keyword: subschemas compared in turn (as the keyword table walks them), values as values."""
    where = pointer(*path)
    walked = keyword(key).walk not in (Walk.DATA, Walk.VALUE)
    if walked and isinstance(va, dict) and isinstance(vb, dict):
        return compare(va, vb, path)
    if va is None or vb is None:
        hint = NARROWED if va is None else WIDENED
        return [Change(where, f"keyword '{key}' {'added' if va is None else 'removed'}", hint)]
    if walked and isinstance(va, list) and isinstance(vb, list) and len(va) == len(vb):
        return [c for i, (x, y) in enumerate(zip(va, vb, strict=True)) for c in compare(x, y, (*path, i))]
    return [Change(where, f"'{key}' changed from {short(va)} to {short(vb)}", EITHER)]


_HANDLERS: dict[str, Callable[..., Changes]] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    "required": _required,
    "properties": _properties,
    "patternProperties": _properties,
    "additionalProperties": _additional,
    "anyOf": _alternatives,
    "oneOf": _alternatives,
    "allOf": _all_of,
    "not": _not,
    "pattern": _string_rule,
    "format": _string_rule,
    "$ref": _ref,
    **{bound: _bound for bound in _LOWER | _UPPER},
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
    )


def _unions(key: str, va: list[Any], vb: list[Any], path: tuple[str | int, ...]) -> list[Change]:
    where = pointer(*path)
    ka = {_union_key(x): (i, x) for i, x in enumerate(va)}
    kb = {_union_key(x): (i, x) for i, x in enumerate(vb)}
    gone, new = sorted(ka.keys() - kb.keys()), sorted(kb.keys() - ka.keys())
    if len(gone) == len(new) == 1:  # one branch edited in place
        (_, x), (j, y) = ka[gone[0]], kb[new[0]]
        if not (isinstance(x, dict) and set(x) == {"$ref"} and isinstance(y, dict) and set(y) == {"$ref"}):
            return compare(x, y, (*path, j))
    label = "union" if key == "oneOf" else "anyOf"
    out = [Change(where, f"{label} {k} removed", NARROWED) for k in gone]
    return out + [Change(where, f"{label} {k} added", WIDENED) for k in new]
