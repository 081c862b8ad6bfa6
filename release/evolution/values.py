"""JSON values for the rules: equality as JSON means it, and values near what a schema bounds.

JSON has one kind of number (`1` and `1.0` are the same value) and booleans apart from numbers
(`true` is not `1`), unlike Python's `==`. The example values are guesses that a schema accepts
(the witness search checks every candidate against both versions, so a wrong guess costs nothing).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

# One code point outside the Basic Multilingual Plane: two UTF-16 code units, four UTF-8 bytes. A
# string of them is as long as a bound counts only when code points are counted.
EMOJI = "\U0001f600"
MAX_LENGTH = 10_000  # longest string worth a probe
MAX_SIZE = 1_000  # most items or properties worth a probe


def is_number(value: Any) -> bool:
    """Whether `value` is a JSON number (a bool is not)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def is_count(value: Any) -> bool:
    """Whether `value` is a non-negative integer, as a length or count bound must be (`2.0` is one)."""
    return isinstance(value, int | float) and is_number(value) and value >= 0 and value == int(value)


def normal(value: Any) -> Any:
    """`value` with every integral float as an int (recursively), for keys and equality."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {k: normal(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normal(v) for v in value]
    return value


def same(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value (`1` is `1.0`), booleans apart from numbers, objects by keys."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return bool(a == b)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def key(value: Any) -> str:
    """A JSON value as text, equal for equal JSON values (`1` and `1.0` alike)."""
    return json.dumps(normal(value), sort_keys=True, ensure_ascii=False)


def exact(value: Any) -> Fraction:
    """A JSON number as the exact decimal it is written as (`0.1` is 1/10, not the nearest double)."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def as_json(number: Fraction) -> int | float:
    """An exact number as a JSON number (an int when integral)."""
    return int(number) if number.denominator == 1 else float(number)


def code_points(n: int) -> str:
    """A string of `n` code points, each one emoji (see EMOJI)."""
    return EMOJI * n


def _types(schema: Mapping[str, Any]) -> list[str]:
    t = schema.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    for keys, kind in (
        (("properties", "required", "additionalProperties", "minProperties", "patternProperties"), "object"),
        (("items", "prefixItems", "minItems", "contains"), "array"),
        (("minLength", "pattern", "format"), "string"),
        (("minimum", "maximum", "multipleOf", "exclusiveMinimum"), "number"),
    ):
        if any(k in schema for k in keys):
            return [kind]
    return []


def sample(schema: Any, i: int = 0) -> Any:
    """The `i`-th of some values `schema` likely accepts (distinct for distinct `i` where it can be)."""
    if schema is True:
        return i
    if not isinstance(schema, Mapping) or schema.get("not") == {}:
        return None
    if "const" in schema:
        return schema["const"]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum[i % len(enum)]
    types = _types(schema)
    kind = types[0] if types else ""
    if kind == "string":
        text = "abcdefghijklmnopqrstuvwxyz"[i % 26] + (str(i // 26) if i >= 26 else "")
        shortest: Any = schema.get("minLength", 0)
        return text + "a" * (int(shortest) - len(text)) if is_count(shortest) and shortest <= MAX_LENGTH else text
    if kind in ("integer", "number"):
        least: Any = next((schema[k] for k in ("minimum", "exclusiveMinimum") if is_number(schema.get(k))), 0)
        step: Any = schema.get("multipleOf")
        if is_number(step) and step > 0:
            return as_json(exact(step) * (math.ceil(exact(least) / exact(step)) + i + 1))
        return math.floor(least) + 1 + i
    if kind == "boolean":
        return i % 2 == 1
    if kind == "null":
        return None
    if kind == "array":
        return []
    if kind == "object":
        required = schema.get("required")
        props = schema.get("properties")
        props = props if isinstance(props, Mapping) else {}
        names = [n for n in required if isinstance(n, str)] if isinstance(required, list) else []
        return {n: sample(props.get(n, True), i) for n in names}
    return i


def items(schema: Any, n: int) -> list[Any]:
    """`n` items an array under `schema` likely accepts (its `prefixItems`, then its `items`)."""
    if not isinstance(schema, Mapping):
        return list(range(n))
    prefix = schema.get("prefixItems")
    prefix = prefix if isinstance(prefix, list) else []
    rest = schema.get("items", True)
    return [sample(prefix[i], 0) if i < len(prefix) else sample(rest, i) for i in range(n)]


def members(schema: Any, n: int) -> dict[str, Any]:
    """An object of `n` properties `schema` likely accepts: required, then declared, then other names."""
    if not isinstance(schema, Mapping):
        return {f"k{i}": i for i in range(n)}
    props = schema.get("properties")
    props = props if isinstance(props, Mapping) else {}
    required = schema.get("required")
    names = [r for r in required if isinstance(r, str)] if isinstance(required, list) else []
    names += [p for p in props if p not in names]
    if schema.get("additionalProperties") is not False:
        names += [f"k{i}" for i in range(n)]
    other = schema.get("additionalProperties", True)
    return {name: sample(props.get(name, other), i) for i, name in enumerate(names[:n])}
