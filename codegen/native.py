"""What the generated Python types say by themselves, and what a generated check must add.

datamodel-codegen turns a schema into Python types; for the validation vocabulary those types are
exact only in a few places (`minLength` on a string is Pydantic's `min_length`, counted in code
points as JSON Schema counts). Everywhere else a Python type would be looser than the schema
(`uniqueItems`, `contains`, `if`/`then`/`else`, ...) or stricter (an `enum` holding `1` as a
`Literal[1]` refuses `1.0`, which JSON Schema counts as equal). So the generator reads a *view* of
each named type: the definition without every keyword it cannot say exactly, which makes the
Python type looser, never stricter. A type whose view lost something is generated with a check
that validates it against its own schema (chatschema._rules), so the model says exactly what the
schema says: native constraints where Pydantic has them, the schema's verdict for the rest.

TypedDicts carry no constraints (the stock template drops them; `pattern` on a property is written
as `StringConstraints` by the project's template), so their view keeps none of the vocabulary, nor
the `pattern` of a named string type (an alias, which the generator writes as a bare `str`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import walk
from .lint_patterns import NO_NEWLINE  # the newline guard beside a pattern, compiled into it

# The validation vocabulary: each keyword is either native (below) or checked.
VOCABULARY = frozenset(
    {
        "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "minItems", "maxItems", "uniqueItems", "prefixItems", "contains", "minContains", "maxContains",
        "minProperties", "maxProperties", "patternProperties", "propertyNames", "dependentRequired",
        "dependentSchemas", "if", "then", "else",
    }
)  # fmt: skip
# Pydantic constraints that mean exactly the keyword, with an integer value, on a value of exactly
# this JSON type (with or without null beside it): str lengths count code points, as JSON Schema
# does, and int bounds compare exactly. Bounds on a number are checked: Pydantic compares an int
# as a float, so 2**60 + 1 passes `maximum: 2**60` there; so is a fractional `multipleOf`
# (Pydantic's float rule is not JSON Schema's).
NATIVE: Mapping[str, frozenset[str]] = {
    "string": frozenset({"minLength", "maxLength"}),
    "integer": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "array": frozenset({"minItems", "maxItems"}),
}
# Keywords that apply to objects, or to arrays, only: datamodel-codegen reads them as making the
# value an object (an array), which refuses every other value a schema without `type` accepts.
OBJECT_KEYWORDS = frozenset(
    {
        "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
        "minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
    }
)  # fmt: skip
ARRAY_KEYWORDS = frozenset(
    {"items", "prefixItems", "contains", "minItems", "maxItems", "uniqueItems", "minContains", "maxContains"}
)


@dataclass(frozen=True)
class View:
    """What one generator reads for a named type, and whether the type needs a schema check."""

    definition: Any  # plain JSON
    checked: bool


def view(definition: Mapping[str, Any] | bool, *, native: bool, hand_checked_not: bool = False) -> View:
    """The definition as a Python generator may read it (see the module docstring).

    `native`: keep the keywords Pydantic constraints say exactly (False for TypedDicts).
    `hand_checked_not`: the type's own `not` is enforced by its hand-written base class.
    """
    plain = walk.thaw(definition)
    if isinstance(plain, bool):
        return View(plain, not plain)
    # a `not` the base class enforces is kept as written, and nothing inside it is a Python type's
    hand_checked = plain.pop("not") if hand_checked_not and "not" in plain else None
    lost: list[str] = []
    out = walk.transform(plain, lambda original, copy: _strip(copy, native, original is plain, lost))
    checked = bool(lost) or refusals(out)
    if hand_checked is not None:
        out["not"] = hand_checked
    return View(out, checked)


def _strip(node: dict[str, Any], native: bool, root: bool, lost: list[str]) -> dict[str, Any]:
    """One schema object without what its generator cannot say; each removal noted in `lost`."""
    _untyped_shapes(node, root, lost)
    keep = _native_here(node) if native else frozenset()
    removed = [k for k in node if k in VOCABULARY and not (k in keep and _integer(node[k]))]
    if root and not native and "pattern" in node:
        removed.append("pattern")
        if node.get("not") == NO_NEWLINE:  # its guard goes with it: the check enforces both
            removed.append("not")
    for key in removed:
        del node[key]
    lost.extend(removed)
    if "prefixItems" in removed and "items" in node:  # `items` then means the items after the tuple
        del node["items"]
    if "patternProperties" in removed and "additionalProperties" in node:  # it then skips pattern keys
        del node["additionalProperties"]
    _values(node, lost)
    if "not" in node and node["not"] != NO_NEWLINE:
        lost.append("not")
        del node["not"]
    _booleans(node, lost)
    _loose(node, root, lost)
    return node


def _untyped_shapes(node: dict[str, Any], root: bool, lost: list[str]) -> None:
    """Object and array keywords on a value that may be of another type: left to the check (a
    named type's own `properties` stay: lint asks it to say `"type": "object"`)."""
    types = node.get("type")
    if isinstance(types, str) or (isinstance(types, list) and len({t for t in types if t != "null"}) == 1):
        return
    for key in [k for k in node if k in OBJECT_KEYWORDS | ARRAY_KEYWORDS and not (root and k == "properties")]:
        lost.append(key)
        del node[key]


def _values(node: dict[str, Any], lost: list[str]) -> None:
    """A `const` or `enum` of other values than strings (and null) is left to the check: Python
    Literals would refuse `1.0` for `1` and accept `True` for `1`."""
    if "const" in node and not isinstance(node["const"], str):
        lost.append("const")
        del node["const"]
    if "enum" in node and not all(isinstance(v, str) or v is None for v in node["enum"]):
        lost.append("enum")
        del node["enum"]


def _booleans(node: dict[str, Any], lost: list[str]) -> None:
    """A boolean subschema in a list (`allOf`, `anyOf`, `oneOf`) as `{}` (the check says the rest),
    and a `false` where it refuses what the Python type would accept."""
    for key, value in node.items():
        if isinstance(value, list) and walk.keyword(key).walk is walk.Walk.SUBSCHEMAS:
            if any(isinstance(sub, bool) for sub in value):
                lost.append(f"{key}: a boolean")
                node[key] = [{} if isinstance(sub, bool) else sub for sub in value]
        elif value is False and _refuses(key):
            lost.append(f"{key}: false")


def _loose(node: dict[str, Any], root: bool, lost: list[str]) -> None:
    """What the Python type says more loosely than the schema, kept for its typing: `required` keys
    that no sibling `properties` declares (without `allOf`, whose bases declare them),
    `additionalProperties` given as a schema beside declared keys (a plain map is a `dict`, exactly;
    beside `allOf` it also applies to the keys the parts declare), and any `allOf` but a named
    type's list of bases (elsewhere datamodel-codegen may merge its parts into a union)."""
    required = node.get("required")
    declared = node.get("properties") or {}
    if isinstance(required, list) and "allOf" not in node and not set(required) <= set(declared):
        lost.append("required")
    if isinstance(node.get("additionalProperties"), dict) and ("properties" in node or "allOf" in node):
        lost.append("additionalProperties")
    parts = node.get("allOf")
    if isinstance(parts, list) and not (root and all(isinstance(p, dict) and set(p) == {"$ref"} for p in parts)):
        lost.append("allOf")


def _native_here(node: Mapping[str, Any]) -> frozenset[str]:
    types = node.get("type")
    named = [types] if isinstance(types, str) else [t for t in types if t != "null"] if isinstance(types, list) else []
    return NATIVE.get(named[0], frozenset()) if len(named) == 1 else frozenset()


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuses(key: str) -> bool:
    """A `false` under this key refuses values the generated type would accept."""
    return key != "additionalProperties" and walk.keyword(key).walk is walk.Walk.SUBSCHEMA


def refusals(definition: Any) -> bool:
    """Whether a map of subschemas (`properties`, ...) holds a `false`: a key that must be absent,
    which the Python type (`Any`) would take. (A `false` in a list is made `{}` by `_booleans`.)"""
    return any(
        value is False
        for _, node in walk.subschemas(definition)
        for key, how in ((k, walk.keyword(k).walk) for k in node)
        if how is walk.Walk.SUBSCHEMA_MAP and isinstance(node[key], Mapping)
        for value in node[key].values()
    )
