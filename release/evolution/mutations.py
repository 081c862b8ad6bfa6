"""Walk a valid instance alongside its schema; derive invalid instances from it (mutations).

`walk` resolves `$ref` (to a `$defs` entry or to the document itself: `$defs`-local recursion),
`allOf`, tagged `oneOf` (by the tag) and `anyOf` (the first branch the value satisfies) and
reports every object and value it meets with the schema that governs it, and every part of the
schema that applies there (`Node.parts`: its `allOf` parts, the `then` or `else` its `if` picks,
the `dependentSchemas` of the keys present). It walks into properties, `patternProperties`,
`additionalProperties` maps, `prefixItems` positions and `items`. The same walk records coverage:
the `$defs` types, union branches and enum values a valid instance exercises.

Each mutation has a rule name (`remove-required`, `wrong-type/string-number`, ...) and the JSON
path it changed. Whether the result is invalid is decided by jsonschema, never assumed: a mutation
the schema still accepts is dropped by the caller, or (in the conformance harness) judged as a
valid case. The validation vocabulary adds boundary cases, most of them meant to probe the valid
side (`keyword_mutations`):

- `bound/<keyword>-below|at|inside|above` for minLength/maxLength (code points), minimum/maximum/
  exclusiveMinimum/exclusiveMaximum (one step of `multipleOf`, 1 for an integer, the next double
  otherwise), minItems/maxItems, minContains/maxContains and minProperties/maxProperties, and
  `bound/<keyword>-at-float` (an integer bound written `5.0`: 1.0 is an integer);
- `length/...`: strings whose length differs when counted in UTF-16 units (an emoji), in
  user-perceived characters or after normalization (a combining mark) rather than in code points;
- `multipleOf/on-step|off-step|float-quotient|huge` (0.3 for 0.1: a multiple in decimal, not in
  binary floating point; 1e308: the quotient overflows), `bigint/...` (beyond 2**53 and 2**64);
- `uniqueItems/duplicate|duplicate-float|duplicate-reordered-object|bool-number-distinct`, and the
  same equality traps for `const` and `enum` (`const/float-twin`, `enum/reordered`, ...);
- `prefixItems/wrong-type|swapped|short|extra`, `contains/none`, `propertyNames/bad-key` and the
  length bounds of a key, `patternProperties/...`, `additionalProperties/new-entry|bad-value`,
  `dependentRequired/missing|trigger-removed`, `dependentSchemas/...`, `if/then-missing`,
  `if/else-violated`, `if/flip-to-else`, ..., `boolean-schema/...` and `untyped/<keyword>` (a value
  of another type, which a keyword of a schema without `type` does not constrain).
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any, TypeGuard

from jsonschema import Draft202012Validator

Key = str | int
# a keyword rule's probe: the rule name, the path below the node it names, the node's new value
Probe = tuple[str, tuple[Key, ...], Any]

# wrong-type replacements, by rule name
REPLACEMENTS: dict[str, Any] = {
    "string-number": "3",
    "string-bool": "true",
    "string": "x",
    "integer": 3,
    "integral-float": 3.0,
    "float": 3.5,
    "bool": True,
    "array": [],
    "object": {},
}
BROKEN_DATE_TIMES = {
    "space-separator": "2024-05-01 12:00:00+00:00",
    "no-offset": "2024-05-01T12:00:00",
    "date-only": "2024-05-01",
    "month-13": "2024-13-01T12:00:00Z",
    "words": "yesterday",
}
EXTRA_KEY = "x_conformance_extra"
EMOJI = "\U0001f600"  # one code point, two UTF-16 units, four UTF-8 bytes
COMBINING = "e\u0301"  # two code points (e, COMBINING ACUTE ACCENT), one character as read, "é" in NFC
# values of every JSON type, tried in this order where a rule needs one a subschema rejects
CANDIDATES: tuple[Any, ...] = ("x", 3, 3.5, True, None, [], {})
ANYTHING = {"any": [1, 2.5, "x", None, True, {"nested": []}]}
BAD_KEYS = ("", "#bad key", "BAD", "0", "x" * 65, EMOJI * 9, "a\nb")
LARGEST = 10_000  # no boundary case is built with more items, characters or keys than this
NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def path_text(keys: tuple[Key, ...]) -> str:
    """A JSON path: `$.messages[0].content`."""
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys)


def location(keys: tuple[Key, ...]) -> str:
    """A path with list indices erased: where in the schema, not where in the instance."""
    return re.sub(r"\[\d+\]", "[]", path_text(keys))


@dataclass
class Node:
    keys: tuple[Key, ...]
    value: Any
    schema: dict[str, Any]  # the governing schema with refs, allOf and unions resolved
    properties: dict[str, Any] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    tag: str | None = None  # the union tag, if this object is a branch of a tagged union
    in_map: bool = False  # a value of an additionalProperties (or patternProperties) map
    via_union: bool = False  # reached through its tagged union (which requires the tag)
    # every schema that applies here, refs resolved: `schema`, its allOf parts, the `then` or
    # `else` its `if` picks for this value, the `dependentSchemas` of the keys present
    parts: list[dict[str, Any]] = field(default_factory=list)
    place: str = ""  # the schema location (`location`, but a prefixItems position keeps its index)
    walker: Walker | None = None  # resolves and judges subschemas of the walked document


@dataclass
class Coverage:
    types: set[str] = field(default_factory=set)
    branches: set[tuple[str, str]] = field(default_factory=set)  # (union type, branch type)
    enums: set[tuple[str, str]] = field(default_factory=set)  # (owner type + location, json value)


def json_key(value: Any) -> str:
    """A key for a JSON value that is the same for equal values: keys sorted, 1.0 written 1."""
    return json.dumps(_canonical(value), sort_keys=True)


def _canonical(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    return value


class Walker:
    """Walks instances of one bundled type (see bundle.py)."""

    def __init__(self, bundled: dict[str, Any], root_name: str, family_defs: dict[str, Any]) -> None:
        self.doc = bundled
        self.family_defs = family_defs
        self.defs: dict[str, Any] = bundled.get("$defs", {})
        self.root_name = root_name
        self._validators: dict[str, Any] = {}
        self._root: Draft202012Validator | None = None

    def _deref(self, schema: Any, cov: Coverage | None) -> tuple[Any, str | None]:
        name = None
        while isinstance(schema, dict) and "$ref" in schema:
            ref = schema["$ref"]
            name = self.root_name if ref == "#" else ref.rsplit("/", 1)[-1]
            if cov is not None:
                cov.types.add(name)
            schema = self.doc if ref == "#" else self.defs[name]
        return schema, name

    def resolve(self, schema: Any) -> Any:
        """`schema` with its `$ref`s followed (a boolean schema as it is)."""
        return self._deref(schema, None)[0]

    def effective(self, schema: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
        """Properties and required keys, including those from `allOf` refs."""
        props: dict[str, Any] = {}
        req: set[str] = set()
        for part in schema.get("allOf", []):
            sub, _ = self._deref(part, None)
            if isinstance(sub, dict):
                p, r = self.effective(sub)
                props.update(p)
                req |= r
        props.update(schema.get("properties", {}))
        req |= set(schema.get("required", []))
        return props, req

    def accepts(self, value: Any, schema: Any) -> bool:
        """Whether `value` satisfies `schema`, a subschema of the walked document (its refs resolve there)."""
        if isinstance(schema, bool):
            return schema
        key = json_key(schema)
        if key not in self._validators:
            if self._root is None:
                self._root = Draft202012Validator(self.doc, format_checker=Draft202012Validator.FORMAT_CHECKER)
            self._validators[key] = self._root.evolve(schema=schema)
        return bool(self._validators[key].is_valid(value))

    def walk(self, value: Any, cov: Coverage | None = None) -> list[Node]:
        """Every value of a valid instance with what governs it, in document order; `cov` records coverage."""
        nodes: list[Node] = []
        if cov is not None:
            cov.types.add(self.root_name)
        self._walk(value, self.doc, (), "$", cov, nodes, None, self.root_name, False)
        return nodes

    def _walk(
        self,
        value: Any,
        schema: Any,
        keys: tuple[Key, ...],
        place: str,
        cov: Coverage | None,
        nodes: list[Node],
        tag: str | None,
        owner: str,
        in_map: bool,
        via_union: bool = False,
    ) -> None:
        schema, name = self._deref(schema, cov)
        if isinstance(schema, bool):  # `true` allows anything (a valid instance never meets `false`)
            if schema:
                nodes.append(Node(keys, value, {}, tag=tag, in_map=in_map, place=place, walker=self))
            return
        owner = name or owner
        if "oneOf" in schema and "discriminator" in schema and isinstance(value, dict):
            tag_name = schema["discriminator"]["propertyName"]
            for branch in schema["oneOf"]:
                target, branch_name = self._deref(branch, None)
                props, _ = self.effective(target)
                if tag_name in value and props.get(tag_name, {}).get("const") == value[tag_name]:
                    if cov is not None:
                        cov.branches.add((owner, branch_name or "?"))
                    self._walk(value, branch, keys, place, cov, nodes, tag_name, owner, in_map, via_union=True)
                    return
            return
        if "anyOf" in schema:
            for branch in schema["anyOf"]:
                if self.accepts(value, branch):
                    self._walk(value, branch, keys, place, cov, nodes, None, owner, in_map)
                    break
        props, req = self.effective(schema)
        parts = self._parts(schema, value)
        props, req = self._conditional(schema, value, props, req)
        if tag is None:
            tag = self._own_tag(owner)
        node = Node(keys, value, schema, props, req, tag, in_map, via_union, parts, place, self)
        nodes.append(node)
        if "enum" in schema and cov is not None:
            cov.enums.add((f"{owner}", json_key(value)))
        self._children(node, cov, nodes, owner)

    def _children(self, node: Node, cov: Coverage | None, nodes: list[Node], owner: str) -> None:
        value, schema, keys, place = node.value, node.schema, node.keys, node.place
        if isinstance(value, dict):
            patterns = schema.get("patternProperties")
            for k, v in value.items():
                matched = [s for p, s in patterns.items() if _search(p, k)] if isinstance(patterns, dict) else []
                if k in node.properties:
                    self._walk(
                        v, node.properties[k], (*keys, k), f"{place}.{k}", cov, nodes, None, f"{owner}.{k}", False
                    )
                elif matched:
                    sub = matched[0] if len(matched) == 1 else {"allOf": matched}
                    self._walk(v, sub, (*keys, k), f"{place}.{k}", cov, nodes, None, f"{owner}.*", True)
                elif isinstance(schema.get("additionalProperties"), dict):
                    extra = schema["additionalProperties"]
                    self._walk(v, extra, (*keys, k), f"{place}.{k}", cov, nodes, None, f"{owner}.*", True)
        elif isinstance(value, list):
            prefix: list[Any] = schema["prefixItems"] if isinstance(schema.get("prefixItems"), list) else []
            for i, item in enumerate(value):
                if i < len(prefix):
                    self._walk(item, prefix[i], (*keys, i), f"{place}[{i}]", cov, nodes, None, f"{owner}[{i}]", False)
                elif isinstance(schema.get("items"), dict):
                    self._walk(item, schema["items"], (*keys, i), f"{place}[]", cov, nodes, None, f"{owner}[]", False)

    def _applying(self, schema: dict[str, Any], value: Any) -> list[Any]:
        """The subschemas of `schema` that apply to `value` here: `then` or `else`, `dependentSchemas`."""
        found: list[Any] = []
        if "if" in schema:
            found.append(schema.get("then" if self.accepts(value, schema["if"]) else "else", True))
        deps = schema.get("dependentSchemas")
        if isinstance(deps, dict) and isinstance(value, dict):
            found += [sub for k, sub in deps.items() if k in value]
        return found

    def _parts(self, schema: dict[str, Any], value: Any) -> list[dict[str, Any]]:
        """`schema` and every subschema that applies in its place (allOf, then/else, dependentSchemas)."""
        parts = [schema]
        for sub in [*schema.get("allOf", []), *self._applying(schema, value)]:
            target = self.resolve(sub)
            if isinstance(target, dict):
                parts += self._parts(target, value)
        return parts

    def _conditional(
        self, schema: dict[str, Any], value: Any, props: dict[str, Any], req: set[str]
    ) -> tuple[dict[str, Any], set[str]]:
        """Properties and required keys with those of the `then`/`else` and `dependentSchemas` that
        apply added; a property declared in several places is walked under all of them."""
        subs = [self.resolve(s) for s in self._applying(schema, value)]
        for part in schema.get("allOf", []):
            target = self.resolve(part)
            if isinstance(target, dict):
                subs += [self.resolve(s) for s in self._applying(target, value)]
        if not any(isinstance(s, dict) for s in subs):
            return props, req
        props, req = dict(props), set(req)
        for sub in (s for s in subs if isinstance(s, dict)):
            more, needed = self.effective(sub)
            more, needed = self._conditional(sub, value, more, needed)
            for k, s in more.items():
                props[k] = {"allOf": [props[k], s]} if k in props else s
            req |= needed
        return props, req

    def _own_tag(self, owner: str) -> str | None:
        """A branch type used on its own (not through its union) still has its union's tag."""
        for union in self.family_defs.values():
            if "discriminator" in union and any(
                b.get("$ref", "").endswith(f"/{owner}") for b in union.get("oneOf", [])
            ):
                tag: str = union["discriminator"]["propertyName"]
                return tag
        return None


def _search(pattern: str, text: str) -> bool:
    try:
        return re.search(pattern, text) is not None
    except re.error:  # a pattern Python cannot read: matches nothing here
        return False


def replaced(instance: Any, keys: tuple[Key, ...], value: Any) -> Any:
    """A copy of `instance` with the value at `keys` replaced (the root if `keys` is empty)."""
    if not keys:
        return value
    out = copy.deepcopy(instance)
    target = out
    for k in keys[:-1]:
        target = target[k]
    target[keys[-1]] = value
    return out


def without(instance: Any, keys: tuple[Key, ...], names: list[str]) -> Any:
    """A copy of `instance` without the keys `names` of the object at `keys`."""
    out = copy.deepcopy(instance)
    target = out
    for k in keys:
        target = target[k]
    for n in names:
        target.pop(n, None)
    return out


def _put(instance: Any, keys: tuple[Key, ...], value: Any) -> Any:
    """A copy of `instance` with a copy of `value` at `keys`."""
    return replaced(instance, keys, copy.deepcopy(value))


def _nullable(schema: dict[str, Any]) -> bool:
    t = schema.get("type")
    return t == "null" or (isinstance(t, list) and "null" in t) or ("enum" in schema and None in schema["enum"])


@dataclass(frozen=True)
class Mutation:
    rule: str
    keys: tuple[Key, ...]
    build: Callable[[], Any]  # makes the mutated instance (a deep copy): only the chosen ones are built
    place: str | None = None  # the schema location, when list indices do not say it (prefixItems)

    @property
    def where(self) -> str:
        """The JSON path the mutation changed (or the one it names below the value it replaced)."""
        return path_text(self.keys)

    @property
    def location(self) -> str:
        """Where in the schema: the harness applies each rule once per location at least."""
        return self.place if self.place is not None else location(self.keys)


def _at(node: Node, rule: str, keys: tuple[Key, ...], build: Callable[[], Any]) -> Mutation:
    """A mutation at `keys` (the node's or below it), located from the node's schema location."""
    place = node.place + location(keys[len(node.keys) :])[1:] if node.place else None
    return Mutation(rule, keys, build, place)


def mutations(instance: Any, nodes: list[Node]) -> Iterator[Mutation]:
    """Every mutation of a valid instance, in a fixed order."""
    for node in nodes:
        keys, value, schema = node.keys, node.value, node.schema
        at = partial(_at, node)
        if isinstance(value, dict):
            for k in sorted(node.required & set(value)):
                rule = "remove-required"
                if k == node.tag:
                    rule = "remove-union-tag" if node.via_union else "remove-tag"
                yield at(rule, (*keys, k), partial(without, instance, keys, [k]))
            if node.tag and node.tag in value:
                yield at(
                    "unknown-tag", (*keys, node.tag), partial(replaced, instance, (*keys, node.tag), "x_unknown_tag")
                )
            for k, sub in sorted(node.properties.items()):
                if k not in value and isinstance(sub, dict) and not _nullable(sub):
                    yield at("null-for-absent", (*keys, k), partial(replaced, instance, (*keys, k), None))
            extra = {**value, EXTRA_KEY: {"nested": [1, "a", None]}}
            closed = schema.get("additionalProperties") is False
            yield at(
                "unknown-key-closed" if closed else "unknown-key",
                (*keys, EXTRA_KEY),
                partial(replaced, instance, keys, extra),
            )
            negated = schema.get("not", {})
            if (
                isinstance(negated, dict)
                and negated.get("properties")
                and all(v is False for v in negated["properties"].values())
            ):
                yield at("not/all-absent", keys, partial(without, instance, keys, list(negated["properties"])))
        if value is not None and not (isinstance(value, dict) and not keys):
            yield at("null", keys, partial(replaced, instance, keys, None))
        for rule, replacement in REPLACEMENTS.items():
            if replacement != value or type(replacement) is not type(value):
                yield at(f"wrong-type/{rule}", keys, partial(replaced, instance, keys, copy.deepcopy(replacement)))
        if "const" in schema and keys and keys[-1] != node.tag:
            yield at("break-const", keys, partial(replaced, instance, keys, "x_not_the_const"))
        if "enum" in schema:
            yield at("break-enum", keys, partial(replaced, instance, keys, "x_not_in_enum"))
        if schema.get("format") == "date-time":
            for rule, broken in BROKEN_DATE_TIMES.items():
                yield at(f"break-format/{rule}", keys, partial(replaced, instance, keys, broken))
        if isinstance(schema.get("pattern"), str) and isinstance(value, str):
            yield at("break-pattern/trailing-newline", keys, partial(replaced, instance, keys, value + "\n"))
            yield at("break-pattern/prefix", keys, partial(replaced, instance, keys, "x" + value))
        yield from keyword_mutations(instance, node)


# --- the validation vocabulary ---------------------------------------------------------------------


def keyword_mutations(instance: Any, node: Node) -> Iterator[Mutation]:
    """The boundary cases and traps of the validation vocabulary at `node`, from every part of its
    schema, in a fixed order; a payload two rules or two parts would make is made once."""
    seen: set[str] = set()
    for part in node.parts or [node.schema]:
        for rules in KEYWORD_RULES:
            for rule, below, value in rules(node, part):
                fingerprint = json.dumps([rule, below, value], default=str)
                if fingerprint in seen:
                    continue
                seen.add(fingerprint)
                keys = (*node.keys, *below)
                build = partial(_put, instance, node.keys, value)
                if rule == "prefixItems/wrong-type" and node.place:  # each position of a tuple has its own schema
                    yield Mutation(rule, keys, build, node.place + path_text(below)[1:])
                else:
                    yield _at(node, rule, keys, build)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _mapping(schema: dict[str, Any], keyword: str) -> dict[str, Any]:
    """The object a keyword holds (`properties`, `patternProperties`, ...), {} if it holds none."""
    found = schema.get(keyword)
    return found if isinstance(found, dict) else {}


def _count(value: Any) -> int | None:
    """A keyword's non-negative integer value (`2.0` is 2), None if it is not one."""
    if _is_number(value) and value >= 0 and float(value).is_integer():
        return int(value)
    return None


def _accepts(node: Node, value: Any, schema: Any) -> bool:
    if node.walker is not None:
        return node.walker.accepts(value, schema)
    return schema if isinstance(schema, bool) else bool(Draft202012Validator(schema).is_valid(value))


def _resolve(node: Node, schema: Any) -> Any:
    return node.walker.resolve(schema) if node.walker is not None else schema


def _first(values: Iterable[Any]) -> tuple[Any, ...]:
    """The first of `values` as a 1-tuple, () if there is none (loop over it: a value may be None)."""
    return next(((v,) for v in values), ())


def _rejected(node: Node, schema: Any, candidates: Iterable[Any]) -> tuple[Any, ...]:
    """The first candidate `schema` rejects, as a 1-tuple; () if it accepts them all."""
    return _first(c for c in candidates if not _accepts(node, c, schema))


def _foreign(value: Any) -> list[Any]:
    """Values of other JSON types than `value`'s."""
    return [c for c in CANDIDATES if _json_type(c) != _json_type(value)]


def _sized(low: str, high: str, lo: int | None, hi: int | None, make: Callable[[int], Any]) -> Iterator[Probe]:
    """`bound/<low>-below|at|inside` and `bound/<high>-above|at|inside`: `make(n)` for the sizes at,
    one inside and one outside each bound (none where `make` returns None)."""
    wanted: list[tuple[str, int]] = []
    if lo is not None:
        wanted += [(f"{low}-below", lo - 1)] if lo > 0 else []
        wanted.append((f"{low}-at", lo))
        wanted += [(f"{low}-inside", lo + 1)] if hi is None or lo < hi else []
    if hi is not None:
        wanted += [(f"{high}-above", hi + 1), (f"{high}-at", hi)]
        wanted += [(f"{high}-inside", hi - 1)] if hi > (lo or 0) else []
    for rule, n in wanted:
        made = make(n) if n <= LARGEST else None
        if made is not None:
            yield f"bound/{rule}", (), made


# strings


def _resized(text: str, n: int) -> str:
    """`text` cut or padded (with its own characters, else "a") to `n` code points."""
    if len(text) >= n:
        return text[:n]
    fill = text or "a"
    return (text + fill * (n // len(fill) + 1))[:n]


def _ending(text: str, n: int, tail: str) -> str:
    """`n` code points: `text` cut or padded, then `tail`."""
    return _resized(text, max(n - len(tail), 0)) + tail


def string_probes(text: str, schema: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The length bounds of `schema` (in code points) around `text`, and the traps of other counts."""
    lo, hi = _count(schema.get("minLength")), _count(schema.get("maxLength"))
    for rule, _, made in _sized("minLength", "maxLength", lo, hi, partial(_resized, text)):
        yield rule, made
    if lo is not None and lo >= 2:
        # lo - 1 code points, lo UTF-16 units: counted in UTF-16 (JavaScript's length), long enough
        yield "length/emoji-below-min", _ending(text, lo - 1, EMOJI)
        # lo code points, lo - 1 characters as read: counted in graphemes or after NFC, too short
        yield "length/combining-at-min", _ending(text, lo, COMBINING)
    if hi is not None and 1 <= hi <= LARGEST:
        # hi code points, hi + 1 UTF-16 units (and more UTF-8 bytes): valid, whatever else counts
        yield "length/emoji-at-max", _ending(text, hi, EMOJI)
        # hi + 1 code points, hi characters as read: invalid, though it looks short enough
        yield "length/combining-above-max", _ending(text, hi + 1, COMBINING)


def _string_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    if isinstance(node.value, str):
        for rule, text in string_probes(node.value, part):
            yield rule, (), text


# numbers


def _fraction(x: float | int) -> Fraction:
    """The decimal a JSON number is written as (0.1 is one tenth, not the double nearest to it)."""
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def _number(f: Fraction, integral: bool) -> float | int:
    """`f` as a JSON number: an int if it is whole and the operands were ints, else the nearest double."""
    return int(f) if integral and f.denominator == 1 else float(f)


def _types(node: Node) -> set[str]:
    found: set[str] = set()
    for part in node.parts or [node.schema]:
        t = part.get("type")
        found |= {t} if isinstance(t, str) else set(t) if isinstance(t, list) else set()
    return found


def _beside(x: float | int, step: float | int | None, direction: int) -> float | int:
    """The number one `step` from `x` in `direction` (±1); without a step, the next double."""
    if step is None:
        return math.nextafter(float(x), math.inf * direction)
    both_ints = isinstance(x, int) and isinstance(step, int)
    return _number(_fraction(x) + direction * _fraction(step), both_ints)


def _number_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    if not _is_number(node.value):
        return
    steps = [p["multipleOf"] for p in node.parts or [node.schema] if _is_number(p.get("multipleOf"))]
    integer = bool(_types(node)) and _types(node) <= {"integer", "null"}
    step: float | int | None = steps[0] if steps else 1 if integer else None
    for kw, outward in (("minimum", -1), ("exclusiveMinimum", -1), ("maximum", 1), ("exclusiveMaximum", 1)):
        bound = part.get(kw)
        if not _is_number(bound):
            continue
        yield f"bound/{kw}-at", (), bound
        yield f"bound/{kw}-inside", (), _beside(bound, step, -outward)
        if not kw.startswith("exclusive"):
            yield f"bound/{kw}-{'below' if outward < 0 else 'above'}", (), _beside(bound, step, outward)
        if integer and isinstance(bound, int) and abs(bound) <= 2**53:
            yield f"bound/{kw}-at-float", (), float(bound)  # JSON Schema: 5.0 is the integer 5


def _float_quotient(step: float) -> float | None:
    """A decimal multiple of `step` whose quotient in doubles is not whole (0.3 for 0.1), if any."""
    for k in range(1, 200):
        x = float(k * _fraction(step))
        if not (x / step).is_integer():
            return x
    return None


def _multiple_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    value, step = node.value, part.get("multipleOf")
    if not (_is_number(value) and _is_number(step) and step > 0):
        return
    integral = isinstance(value, int) and isinstance(step, int)
    k = round(_fraction(value) / _fraction(step))
    yield "multipleOf/on-step", (), _number(k * _fraction(step), integral)
    yield "multipleOf/off-step", (), _number((k + Fraction(1, 2)) * _fraction(step), integral)
    if isinstance(step, float) and not step.is_integer():
        trap = _float_quotient(step)
        if trap is not None:
            yield "multipleOf/float-quotient", (), trap
    yield "multipleOf/huge", (), 1e308  # the quotient overflows a double for any step below 1


def _big_integer_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    """Integers a double cannot hold (JavaScript's numbers), and one beyond 64 bits."""
    if _is_number(node.value) and any(_is_number(part.get(kw)) for kw in NUMERIC):
        yield "bigint/2^53+1", (), 2**53 + 1
        yield "bigint/-2^53-1", (), -(2**53) - 1
        yield "bigint/2^64+1", (), 2**64 + 1


# arrays


def _distinct(item: Any, i: int) -> Any:
    """A variant of `item` differing from it and from the variants of other `i`: a number moved by
    `i`, a string with `i` appended, the first value of a list or object changed so."""
    if isinstance(item, bool) or item is None:
        return item
    if isinstance(item, int | float):
        return item + i
    if isinstance(item, str):
        return f"{item}{i}"
    if isinstance(item, list):
        return [_distinct(item[0], i), *item[1:]] if item else [i]
    if isinstance(item, dict) and item:
        first = next(iter(item))
        return {**item, first: _distinct(item[first], i)}
    return {"k": i}


def _resized_list(items: list[Any], n: int, unique: bool) -> list[Any] | None:
    """`items` cut or extended (with copies of its items, distinct ones if `unique`) to `n` items."""
    if n <= len(items):
        return items[:n]
    if not items:
        return None
    out = list(items)
    while len(out) < n:
        item = items[len(out) % len(items)]
        out.append(_distinct(item, len(out)) if unique else item)
    return out


def _unique(node: Node) -> bool:
    return any(p.get("uniqueItems") is True for p in node.parts or [node.schema])


def _array_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    if isinstance(node.value, list):
        lo, hi = _count(part.get("minItems")), _count(part.get("maxItems"))
        yield from _sized("minItems", "maxItems", lo, hi, lambda n: _resized_list(node.value, n, _unique(node)))


def numeric_twin(value: Any) -> Any:
    """`value` with every int written as a float and every whole float as an int (equal in JSON
    Schema: 1 and 1.0 are the same number), or None if it holds no such number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return float(value) if abs(value) <= 2**53 else None
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    return _map_twins(value, numeric_twin)


def reordered(value: Any) -> Any:
    """`value` with the keys of every object in reverse order (equal in JSON Schema), or None if no
    object in it has two keys."""
    if isinstance(value, dict):
        inner = {k: reordered(v) for k, v in value.items()}
        if len(value) < 2 and all(v is None for v in inner.values()):
            return None
        return {k: value[k] if inner[k] is None else inner[k] for k in reversed(list(value))}
    return _map_twins(value, reordered) if isinstance(value, list) else None


def bool_number_swapped(value: Any) -> Any:
    """`value` with true/false written 1/0 and 1/0 written true/false (different in JSON Schema,
    equal in Python and JavaScript's loose comparisons), or None if it holds none of them."""
    if isinstance(value, bool):
        return int(value)
    if _is_number(value) and value in (0, 1):
        return value == 1
    return _map_twins(value, bool_number_swapped)


def _map_twins(value: Any, twin: Callable[[Any], Any]) -> Any:
    """A list or object with `twin` applied to each member (kept where it gives None); None if none changed."""
    if isinstance(value, list):
        twins = [twin(v) for v in value]
        return (
            None
            if all(t is None for t in twins)
            else [v if t is None else t for v, t in zip(value, twins, strict=True)]
        )
    if isinstance(value, dict):
        pairs = {k: twin(v) for k, v in value.items()}
        return (
            None
            if all(t is None for t in pairs.values())
            else {k: value[k] if t is None else t for k, t in pairs.items()}
        )
    return None


def _unique_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    items = node.value
    if part.get("uniqueItems") is not True or not isinstance(items, list) or not items:
        return
    end = (len(items),)
    yield "uniqueItems/duplicate", end, [*items, items[0]]
    for rule, twin in (
        ("duplicate-float", numeric_twin),
        ("duplicate-reordered-object", reordered),
        ("bool-number-distinct", bool_number_swapped),  # [1, true] has no duplicate
    ):
        made = next((t for t in map(twin, items) if t is not None), None)
        if made is not None:
            yield f"uniqueItems/{rule}", end, [*items, made]


def _prefix_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    items, prefix = node.value, part.get("prefixItems")
    if not isinstance(items, list) or not isinstance(prefix, list):
        return
    for i in range(min(len(items), len(prefix))):
        for other in _rejected(node, prefix[i], _foreign(items[i])):
            yield "prefixItems/wrong-type", (i,), [*items[:i], other, *items[i + 1 :]]
    if len(items) >= 2 and _json_type(items[0]) != _json_type(items[1]):
        yield "prefixItems/swapped", (0,), [items[1], items[0], *items[2:]]
    if 0 < len(items) <= len(prefix):
        yield "prefixItems/short", (len(items) - 1,), items[:-1]  # a tuple of fewer items
    if items and len(items) >= len(prefix):
        yield "prefixItems/extra", (len(items),), [*items, items[-1]]  # governed by `items`


def _with_hits(items: list[Any], hits: list[int], n: int, unique: bool) -> list[Any] | None:
    """`items` with exactly `n` of the items at `hits` (later ones dropped, or copies appended)."""
    if n <= len(hits):
        dropped = set(hits[n:])
        return [x for i, x in enumerate(items) if i not in dropped]
    if not hits:
        return None
    out = list(items)
    for j in range(n - len(hits)):
        item = items[hits[j % len(hits)]]
        out.append(_distinct(item, len(out)) if unique else item)
    return out


def _contains_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    items = node.value
    if not isinstance(items, list) or "contains" not in part:
        return
    hits = [i for i, item in enumerate(items) if _accepts(node, item, part["contains"])]
    yield "contains/none", (), [x for i, x in enumerate(items) if i not in hits]
    lo = _count(part.get("minContains"))  # (its default, 1, is contains/none)
    hi = _count(part.get("maxContains"))
    yield from _sized("minContains", "maxContains", lo, hi, lambda n: _with_hits(items, hits, n, _unique(node)))


# objects


def fresh_key(taken: Iterable[str], base: str) -> str:
    """`base` with the fewest letters appended that make a key not in `taken`."""
    used = set(taken)
    n = 0
    while True:
        n += 1
        suffix, m = "", n
        while m:
            m, r = divmod(m - 1, 26)
            suffix = chr(ord("a") + r) + suffix
        if base + suffix not in used:
            return base + suffix


def _unknown_keys(node: Node, part: dict[str, Any]) -> list[str]:
    """The keys present that no `properties` or `patternProperties` of `part` names (a map's entries)."""
    patterns = _mapping(part, "patternProperties")
    return [k for k in node.value if k not in node.properties and not any(_search(p, k) for p in patterns)]


def _resized_object(node: Node, part: dict[str, Any], n: int) -> dict[str, Any] | None:
    """The object cut to `n` keys (optional ones dropped first) or extended with copies of its entries."""
    value: dict[str, Any] = node.value
    if n <= len(value):
        order = [k for k in reversed(value) if k not in node.required] + [
            k for k in reversed(value) if k in node.required
        ]
        dropped = set(order[: len(value) - n])
        return {k: v for k, v in value.items() if k not in dropped}
    sources = _unknown_keys(node, part) or list(value)
    if not sources:
        return None
    out = dict(value)
    while len(out) < n:
        source = sources[len(out) % len(sources)]
        out[fresh_key([*out, *node.properties], source)] = value[source]
    return out


def _object_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    if isinstance(node.value, dict):
        lo, hi = _count(part.get("minProperties")), _count(part.get("maxProperties"))
        yield from _sized("minProperties", "maxProperties", lo, hi, partial(_resized_object, node, part))


def _renamed(value: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    return {new if k == old else k: v for k, v in value.items()}


def _property_name_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    value, names = node.value, part.get("propertyNames")
    if not isinstance(value, dict) or names is None:
        return
    unknown = _unknown_keys(node, part)
    sample = value[unknown[0]] if unknown else next(iter(value.values()), None)
    for bad in _rejected(node, names, [k for k in BAD_KEYS if k not in value]):
        yield "propertyNames/bad-key", (), {**value, bad: sample}
    names = _resolve(node, names)
    if isinstance(names, dict) and value:
        key = unknown[0] if unknown else next(iter(value))
        for rule, new in string_probes(key, names):
            if new not in value:
                yield "propertyNames/" + rule.split("/", 1)[1], (), _renamed(value, key, new)


def _pattern_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    value, patterns = node.value, part.get("patternProperties")
    if not isinstance(value, dict) or not isinstance(patterns, dict):
        return
    for pattern, sub in patterns.items():
        key = next((k for k in value if k not in node.properties and _search(pattern, k)), None)
        if key is None:
            continue
        for bad in _rejected(node, sub, _foreign(value[key])):
            yield "patternProperties/bad-value", (key,), {**value, key: bad}
        new = fresh_key([*value, *node.properties], key)
        if _search(pattern, new):
            yield "patternProperties/new-key", (), {**value, new: value[key]}
        others = (f"#{key}", f"_{key}", key.upper(), "0")
        for other in others:
            if other not in value and other not in node.properties and not any(_search(p, other) for p in patterns):
                yield "patternProperties/unmatched-key", (), _renamed(value, key, other)
                break


def _additional_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    value, extra = node.value, part.get("additionalProperties")
    if not isinstance(value, dict) or not isinstance(extra, dict):
        return
    entries = _unknown_keys(node, part)
    new = fresh_key([*value, *node.properties], entries[-1] if entries else "entry")
    if entries:
        yield "additionalProperties/new-entry", (), {**value, new: value[entries[-1]]}
    for bad in _rejected(node, extra, _foreign(value[entries[-1]]) if entries else CANDIDATES):
        yield "additionalProperties/bad-value", (), {**value, new: bad}


def _dropped(value: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in value.items() if k != key}


def _options(node: Node, *schemas: Any) -> list[Any]:
    """Values to try for a property: the consts and enum members of its schemas, then one of each type."""
    found: list[Any] = []
    for schema in map(partial(_resolve, node), schemas):
        if isinstance(schema, dict):
            found += [schema["const"]] if "const" in schema else []
            found += list(schema.get("enum", []))
    return [*found, *CANDIDATES]


def _own_properties(node: Node) -> dict[str, Any]:
    """The properties of the node's schema and its `allOf` parts, without those of a `then`, `else`
    or `dependentSchemas` (a property those narrow is walked under both, see Walker._conditional)."""
    return node.walker.effective(node.schema)[0] if node.walker is not None else node.properties


def _violations(node: Node, sub: Any, missing: str, violated: str, keep: set[str]) -> Iterator[Probe]:
    """`missing`: a key `sub` requires dropped; `violated`: a property set to a value its own schema
    allows but `sub` does not (one per property of `sub`, present or not). Keys in `keep` stay."""
    value, sub = node.value, _resolve(node, sub)
    if not isinstance(sub, dict):
        return
    for k in sub.get("required", []):
        if k in value and k not in keep:
            yield missing, (k,), _dropped(value, k)
            break
    own = _own_properties(node)
    for k, schema in (sub.get("properties") or {}).items():
        base = own.get(k, True)
        if base is schema or k in keep:
            continue
        tried = (c for c in _options(node, base) if not _accepts(node, c, schema) and _accepts(node, c, base))
        for c in _first(tried):
            yield violated, (k,), {**value, k: c}


def _dependent_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    value = node.value
    if not isinstance(value, dict):
        return
    needs = _mapping(part, "dependentRequired")
    for trigger, needed in needs.items():
        if trigger in value:
            present = [k for k in needed if k in value]
            if present:
                yield "dependentRequired/missing", (present[0],), _dropped(value, present[0])
            yield "dependentRequired/trigger-removed", (trigger,), _dropped(value, trigger)
    for trigger, sub in _mapping(part, "dependentSchemas").items():
        if trigger in value:
            yield "dependentSchemas/trigger-removed", (trigger,), _dropped(value, trigger)
            yield from _violations(node, sub, "dependentSchemas/missing", "dependentSchemas/violated", {trigger})


def _conditional_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    value, cond = node.value, _resolve(node, part.get("if"))
    if not isinstance(value, dict) or not isinstance(cond, dict):
        return
    holds = _accepts(node, value, cond)
    branch = "then" if holds else "else"
    asked = set(cond.get("required", [])) | set(cond.get("properties") or {})
    yield from _violations(node, part.get(branch, True), f"if/{branch}-missing", f"if/{branch}-violated", asked)
    flip = f"if/flip-to-{'else' if holds else 'then'}"
    own = _own_properties(node)
    for k, schema in (cond.get("properties") or {}).items():
        base = own.get(k, True)
        for c in _options(node, base, schema):
            trial = {**value, k: c}
            if (k not in value or c != value[k]) and _accepts(node, c, base) and _accepts(node, trial, cond) != holds:
                yield flip, (k,), trial
                break
    for k in cond.get("required", []) if holds else []:
        if k in value and not _accepts(node, _dropped(value, k), cond):
            yield flip, (k,), _dropped(value, k)
            break


def _changed_leaf(value: Any) -> Any:
    """`value` with its first leaf changed (a number plus one, a string extended, a boolean negated)."""
    if isinstance(value, list):
        return [_changed_leaf(value[0]), *value[1:]] if value else [0]
    if isinstance(value, dict):
        first = next(iter(value), None)
        return {**value, first: _changed_leaf(value[first])} if first is not None else {"k": 0}
    if isinstance(value, bool):
        return not value
    if _is_number(value):
        return value + 1
    return f"{value}x" if isinstance(value, str) else 0


def _const_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    value = node.value
    for kw in ("const", "enum"):
        if kw not in part:
            continue
        for rule, twin in (
            ("float-twin", numeric_twin),
            ("reordered", reordered),
            ("bool-number-swap", bool_number_swapped),
        ):
            made = twin(value)
            if made is not None:
                yield f"{kw}/{rule}", (), made
        if isinstance(value, list | dict):
            yield f"{kw}/nested-change", (), _changed_leaf(value)


def _boolean_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    value, props = node.value, part.get("properties")
    if not isinstance(value, dict) or not isinstance(props, dict):
        return
    for k, schema in props.items():
        if schema is False and k not in value:
            yield "boolean-schema/false-present", (k,), {**value, k: None}
        if schema is True:
            yield "boolean-schema/true-anything", (k,), {**value, k: ANYTHING}


def _text(x: float | int) -> str:
    return json.dumps(x)


def _keys(n: int) -> dict[str, int]:
    return {f"k{i}": 0 for i in range(n)}


# Values of other types than the keyword's that it would reject were it applied to them (a length
# taken of an array, a number compared with a string, ...), by keyword: the first the schema
# accepts is the probe (a valid case, unless other keywords reject them all).
FOREIGN: dict[str, Callable[[Any], list[Any]]] = {
    "minLength": lambda n: [[], {}] if _count(n) else [],
    "maxLength": lambda n: [[0] * (n + 1), _keys(n + 1)] if _count(n) is not None and n < LARGEST else [],
    "minItems": lambda n: ["", {}] if _count(n) else [],
    "maxItems": lambda n: ["x" * (n + 1), _keys(n + 1)] if _count(n) is not None and n < LARGEST else [],
    "uniqueItems": lambda u: ["aa", {"a": 1, "b": 1}] if u is True else [],
    "minProperties": lambda n: [[], ""] if _count(n) else [],
    "maxProperties": lambda n: [[0] * (n + 1), "x" * (n + 1)] if _count(n) is not None and n < LARGEST else [],
    "minimum": lambda m: [_text(_beside(m, 1, -1))] if _is_number(m) else [],
    "exclusiveMinimum": lambda m: [_text(m)] if _is_number(m) else [],
    "maximum": lambda m: [_text(_beside(m, 1, 1))] if _is_number(m) else [],
    "exclusiveMaximum": lambda m: [_text(m)] if _is_number(m) else [],
    "multipleOf": lambda d: [_text(_number(_fraction(d) / 2, False))] if _is_number(d) and d > 0 else [],
}


def _untyped_rules(node: Node, part: dict[str, Any]) -> Iterator[Probe]:
    if any(k in p for p in node.parts or [node.schema] for k in ("type", "const", "enum")):
        return
    for kw, make in FOREIGN.items():
        candidates = make(part[kw]) if kw in part else []
        for probe in _first([c for c in candidates if _accepts(node, c, part)] or candidates):
            yield f"untyped/{kw}", (), probe


KEYWORD_RULES: tuple[Callable[[Node, dict[str, Any]], Iterator[Probe]], ...] = (
    _string_rules,
    _number_rules,
    _multiple_rules,
    _big_integer_rules,
    _array_rules,
    _unique_rules,
    _prefix_rules,
    _contains_rules,
    _object_rules,
    _property_name_rules,
    _pattern_rules,
    _additional_rules,
    _dependent_rules,
    _conditional_rules,
    _const_rules,
    _boolean_rules,
    _untyped_rules,
)
