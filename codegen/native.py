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
as `StringConstraints` by the project's template), so their view keeps none of the vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import walk

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
# `not` forms the generated code already enforces without a check: the newline guard beside a
# pattern (compiled into the pattern) and a hand-written base class's "at least one key" rule.
NO_NEWLINE = {"pattern": "\\n"}


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
    lost: list[str] = []

    def rebuild(original: Mapping[str, Any], copy: dict[str, Any]) -> dict[str, Any]:
        root = original is plain and hand_checked_not
        return _strip(copy, native, root, lost)

    out = walk.transform(plain, rebuild)
    rest = {k: v for k, v in out.items() if k != "not"} if hand_checked_not else out
    return View(out, bool(lost) or refusals(rest))


def _strip(node: dict[str, Any], native: bool, root: bool, lost: list[str]) -> dict[str, Any]:
    """One schema object without what its generator cannot say; each removal noted in `lost`."""
    keep = _native_here(node) if native else frozenset()
    removed = [k for k in node if k in VOCABULARY and not (k in keep and _integer(node[k]))]
    for key in removed:
        del node[key]
    lost.extend(removed)
    if "prefixItems" in removed and "items" in node:  # `items` then means the items after the tuple
        del node["items"]
    if "patternProperties" in removed and "additionalProperties" in node:  # it then skips pattern keys
        del node["additionalProperties"]
    if "const" in node and not isinstance(node["const"], str):
        lost.append("const")
        del node["const"]
    if "enum" in node and not all(isinstance(v, str) or v is None for v in node["enum"]):
        lost.append("enum")
        del node["enum"]
    if "not" in node and node["not"] != NO_NEWLINE and not root:
        lost.append("not")
        del node["not"]
    lost.extend(f"{key}: false" for key, value in node.items() if value is False and _refuses(key))
    return node


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
    """Whether any properties map holds a `false` subschema (a key that must not be present)."""
    return any(
        value is False
        for _, node in walk.subschemas(definition)
        for key in ("properties", "patternProperties", "dependentSchemas", "$defs")
        if isinstance(node.get(key), Mapping)
        for value in node[key].values()
    ) or any(
        value is False
        for _, node in walk.subschemas(definition)
        for key in ("prefixItems", "allOf", "anyOf", "oneOf")
        if isinstance(node.get(key), list)
        for value in node[key]
    )
