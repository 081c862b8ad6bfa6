"""The one schema walker, driven by the one table of the keywords codegen knows.

Every module that visits subschemas goes through here: lint, the resolved model, the bundle, the
TypeScript and validator inputs, the diff. The table says, per keyword, how its value is walked
and whether lint accepts it; a keyword the table does not name is refused by lint and, in a
schema that lint never saw (an old revision the diff reads), walked as a subschema so that nothing
inside it is missed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Any

from .names import EXTENSION

Path = tuple[str | int, ...]


class Walk(Enum):
    """How a keyword's value is walked."""

    SUBSCHEMA = "one subschema"
    SUBSCHEMAS = "a list of subschemas"
    SUBSCHEMA_MAP = "names -> subschemas"
    DATA = "data, never walked"  # may hold anything, even a "$ref" key that is not a reference
    VALUE = "a plain value"  # a string, number, boolean or list of strings


@dataclass(frozen=True)
class Keyword:
    """What codegen knows about one keyword."""

    walk: Walk
    # accepted by lint: every generator (Pydantic models, TypedDicts, ajv, json-schema-to-typescript)
    # and the conformance harness handle it alike
    supported: bool = True
    # its subschemas apply to the instance itself, not to a part of it: a `$ref` cycle through
    # nothing else never finishes validating
    in_place: bool = False
    # only annotates: validators and the diff's canonical form leave it out
    annotation: bool = False


_S, _L, _M, _D, _V = Walk.SUBSCHEMA, Walk.SUBSCHEMAS, Walk.SUBSCHEMA_MAP, Walk.DATA, Walk.VALUE
_NO = False

KEYWORDS: Mapping[str, Keyword] = MappingProxyType(
    {
        # supported
        "$schema": Keyword(_V),
        "$id": Keyword(_V),
        "$defs": Keyword(_M),
        "$ref": Keyword(_V, in_place=True),
        "$comment": Keyword(_V, annotation=True),
        "title": Keyword(_V, annotation=True),
        "description": Keyword(_V, annotation=True),
        "deprecated": Keyword(_V, annotation=True),
        "default": Keyword(_D, annotation=True),
        "examples": Keyword(_D, annotation=True),
        EXTENSION: Keyword(_V, annotation=True),
        "type": Keyword(_V),
        "const": Keyword(_D),
        "enum": Keyword(_D),
        "format": Keyword(_V),
        "pattern": Keyword(_V),
        "properties": Keyword(_M),
        "required": Keyword(_V),
        "additionalProperties": Keyword(_S),
        "items": Keyword(_S),
        "allOf": Keyword(_L, in_place=True),
        "anyOf": Keyword(_L, in_place=True),
        "oneOf": Keyword(_L, in_place=True),
        "not": Keyword(_S, in_place=True),
        "discriminator": Keyword(_D),  # a hint: {"propertyName": ...}
        # known, walked, and refused by lint (some generator ignores or misreads each)
        "patternProperties": Keyword(_M, _NO),
        "dependentSchemas": Keyword(_M, _NO),
        "prefixItems": Keyword(_L, _NO),
        "if": Keyword(_S, _NO, in_place=True),
        "then": Keyword(_S, _NO, in_place=True),
        "else": Keyword(_S, _NO, in_place=True),
        "readOnly": Keyword(_V, _NO, annotation=True),
        "writeOnly": Keyword(_V, _NO, annotation=True),
    }
)
SUPPORTED_KEYWORDS = frozenset(name for name, k in KEYWORDS.items() if k.supported)
ANNOTATIONS = frozenset(name for name, k in KEYWORDS.items() if k.annotation)
IN_PLACE = frozenset(name for name, k in KEYWORDS.items() if k.in_place)
ALTERNATIVES = frozenset({"anyOf", "oneOf"})
_UNKNOWN = Keyword(Walk.SUBSCHEMA, supported=False)


def keyword(name: str) -> Keyword:
    """The table's entry for `name`; an unknown keyword is walked as a subschema."""
    return KEYWORDS.get(name, _UNKNOWN)


def _is_schema(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str)


def children(
    node: Mapping[str, Any], path: Path = (), through: frozenset[str] | None = None
) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    """The immediate schema objects under `node`, each with its path, in key order (booleans,
    which hold nothing, are left out)."""
    for key, value in node.items():
        kw = keyword(key)
        if kw.walk in (Walk.DATA, Walk.VALUE) or (through is not None and key not in through):
            continue
        if kw.walk is Walk.SUBSCHEMA_MAP and _is_schema(value):
            found: Iterator[tuple[Path, Any]] = (((*path, key, name), sub) for name, sub in value.items())
        elif _is_list(value):  # a list where one schema belongs is still walked: lint reports it
            found = (((*path, key, i), sub) for i, sub in enumerate(value))
        else:
            found = iter([((*path, key), value)])
        yield from ((at, sub) for at, sub in found if _is_schema(sub))


def subschemas(
    schema: Any, path: Path = (), through: frozenset[str] | None = None
) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    """Every schema object under `schema` (itself first), depth first, each with its path.

    `through`: only these keywords are followed (IN_PLACE: the subschemas that apply to the same
    instance; ALTERNATIVES: those of which the instance matches one).
    """
    todo: list[tuple[Path, Any]] = [(path, schema)]
    while todo:
        at, node = todo.pop()
        if _is_schema(node):
            yield at, node
            todo.extend(reversed(list(children(node, at, through))))


def map_children(node: Mapping[str, Any], change: Callable[[Path, Any], Any]) -> dict[str, Any]:
    """A copy of `node` whose immediate subschemas are replaced by `change(relative path, subschema)`;
    data and plain values are kept as they are (the same objects)."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        kw = keyword(key)
        if kw.walk in (Walk.DATA, Walk.VALUE):
            out[key] = value
        elif kw.walk is Walk.SUBSCHEMA_MAP and _is_schema(value):
            out[key] = {name: change((key, name), sub) for name, sub in value.items()}
        elif _is_list(value):
            out[key] = [change((key, i), sub) for i, sub in enumerate(value)]
        elif _is_schema(value):
            out[key] = change((key,), value)
        else:
            out[key] = value
    return out


Rebuild = Callable[[Mapping[str, Any], dict[str, Any]], Any]


def transform(schema: Any, rebuild: Rebuild) -> Any:
    """`schema` rebuilt bottom-up: each schema object becomes `rebuild(original, copy)`, where `copy`
    already holds the rebuilt subschemas; booleans and data are kept. The result is plain JSON
    (dicts and lists) whatever the input's mapping type."""
    if not _is_schema(schema):
        return thaw(schema)
    copy = map_children(schema, lambda _, sub: transform(sub, rebuild))
    for key, value in copy.items():
        if keyword(key).walk in (Walk.DATA, Walk.VALUE):
            copy[key] = thaw(value)
    return rebuild(schema, copy)


def refs(schema: Any) -> Iterator[tuple[Path, str]]:
    """Every `$ref` string under `schema` (data skipped), with the path of the schema holding it."""
    for at, node in subschemas(schema):
        if isinstance(node.get("$ref"), str):
            yield at, node["$ref"]


def thaw(value: Any) -> Any:
    """A frozen JSON value (mapping proxies, tuples) as plain dicts and lists, for a tool to read."""
    if isinstance(value, Mapping):
        return {key: thaw(sub) for key, sub in value.items()}
    if _is_list(value):
        return [thaw(sub) for sub in value]
    return value


def freeze(value: Any) -> Any:
    """A JSON value made read-only: mappings become mapping proxies, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(sub) for key, sub in value.items()})
    if _is_list(value):
        return tuple(freeze(sub) for sub in value)
    return value
