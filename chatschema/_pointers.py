"""Where and what of a violation, in ajv's terms: JSON Pointers into the payload and the schema, and
each keyword's `params`, so that Python's violations carry what the npm package's do (`Violation`).

A schema location is a URI fragment into the family's bundle (`generated/schemas/<family>.bundle.json`),
written as ajv writes it: `#/$defs/<Type>/...`, keywords as they are, property names and array
indexes escaped (RFC 6901, then percent-encoded as `encodeURIComponent` does).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import quote

from jsonschema import _utils
from jsonschema.exceptions import ValidationError

# Keywords whose value is data, never a schema: nothing inside them is a schema location.
_DATA = frozenset({"const", "default", "enum", "examples"})
# Keywords whose value maps names to schemas: the names are escaped in a location.
_NAMED = frozenset({"$defs", "properties", "patternProperties", "dependentSchemas"})
_LIMIT = frozenset({"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"})
_COMPARISON = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}
# jsonschema names the bound that failed; ajv names `contains` for all three, with both bounds.
_CONTAINS = frozenset({"contains", "minContains", "maxContains"})


def escape(token: object) -> str:
    """One step of a JSON Pointer (RFC 6901): `~` as `~0`, `/` as `~1`."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(parts: Iterable[object]) -> str:
    """The JSON Pointer of a location in a payload given as keys and indexes: `/content/0/text`."""
    return "".join(f"/{escape(part)}" for part in parts)


def fragment(token: object) -> str:
    """A name or index in a schema location, as ajv's `escapeFragment` writes it."""
    return quote(escape(token), safe="!*'()")


def schema_locations(defs: Iterable[tuple[str, Any]]) -> dict[int, tuple[Any, str]]:
    """`id(schema object) -> (the object, its location)` for every schema object under the named
    types `defs` (`(name, schema)` pairs): where a keyword of it is, is its location + `/keyword`."""
    found: dict[int, tuple[Any, str]] = {}
    for name, schema in defs:
        for node, where in _walk(schema, f"#/$defs/{fragment(name)}"):
            found[id(node)] = (node, where)
    return found


def _walk(node: Any, where: str) -> Iterator[tuple[Any, str]]:
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, f"{where}/{index}")
        return
    if not isinstance(node, dict):
        return
    yield node, where
    for key, value in node.items():
        if key in _DATA:
            continue
        if key in _NAMED and isinstance(value, dict):
            for name, sub in value.items():
                yield from _walk(sub, f"{where}/{key}/{fragment(name)}")
        else:
            yield from _walk(value, f"{where}/{key}")


def ajv_keyword(error: ValidationError) -> str:
    """The keyword a violation names, as ajv does: `contains` for a failed `minContains` or `maxContains`,
    `false schema` for a `false` subschema (jsonschema names none)."""
    if error.validator is None:
        return "false schema"
    name = str(error.validator)
    return "contains" if name in _CONTAINS else name


def missing_property(error: ValidationError) -> str | None:
    """The key a `required` error says is missing (jsonschema words it, one error per key)."""
    required = error.validator_value if isinstance(error.validator_value, list) else []
    instance = error.instance if isinstance(error.instance, dict) else {}
    missing = [key for key in required if isinstance(key, str) and key not in instance]
    if len(missing) == 1:
        return missing[0]
    return next((key for key in missing if error.message == f"{key!r} is a required property"), None)


def params(error: ValidationError) -> dict[str, Any]:
    """ajv's `params` of the error jsonschema gives for one keyword (`{}` where ajv has none)."""
    keyword, value, instance = error.validator, error.validator_value, error.instance
    given: dict[str, Any] | None = getattr(error, "_chatschema_params", None)
    if given is not None:
        return given
    simple = {"type": "type", "enum": "allowedValues", "const": "allowedValue", "pattern": "pattern"}
    if keyword in simple:
        return {simple[str(keyword)]: value}
    if keyword == "format":
        return {"format": value}
    if keyword == "required":
        return {"missingProperty": missing_property(error)}
    if keyword in _LIMIT:
        return {"limit": value}
    if keyword in _COMPARISON:
        return {"comparison": _COMPARISON[str(keyword)], "limit": value}
    if keyword == "multipleOf":
        return {"multipleOf": value}
    if keyword == "additionalProperties" and isinstance(error.schema, dict) and isinstance(instance, dict):
        extra = next(_utils.find_additional_properties(instance, error.schema), None)
        return {"additionalProperty": extra}
    if keyword == "uniqueItems" and isinstance(instance, list):
        return _duplicate(instance)
    if keyword in _CONTAINS and isinstance(error.schema, dict):
        bounds = {"minContains": error.schema.get("minContains", 1)}
        if "maxContains" in error.schema:
            bounds["maxContains"] = error.schema["maxContains"]
        return bounds
    return {}


def _duplicate(items: list[Any]) -> dict[str, int]:
    """The pair ajv names for `uniqueItems`: the last item equal to an earlier one (`i`), and the
    last such earlier one (`j`)."""
    for i in range(len(items) - 1, 0, -1):
        for j in range(i - 1, -1, -1):
            if _utils.equal(items[i], items[j]):
                return {"i": i, "j": j}
    return {}
