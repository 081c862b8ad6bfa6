"""The one schema walker, driven by the one table of the keywords codegen knows.

Every module that visits subschemas goes through here: lint, the resolved model, the bundle, the
TypeScript and validator inputs, the diff. The table says, per keyword, how its value is walked
and whether lint accepts it; a keyword the table does not name is refused by lint and, in a
schema that lint never saw (an old revision the diff reads), walked as a subschema so that nothing
inside it is missed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
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
        # the validation vocabulary: Pydantic constraints where they say exactly the same, and
        # otherwise the generated models check the type against its schema (codegen/native.py)
        "minLength": Keyword(_V),
        "maxLength": Keyword(_V),
        "minimum": Keyword(_V),
        "maximum": Keyword(_V),
        "exclusiveMinimum": Keyword(_V),
        "exclusiveMaximum": Keyword(_V),
        "multipleOf": Keyword(_V),
        "minItems": Keyword(_V),
        "maxItems": Keyword(_V),
        "uniqueItems": Keyword(_V),
        "prefixItems": Keyword(_L),
        "contains": Keyword(_S),
        "minContains": Keyword(_V),
        "maxContains": Keyword(_V),
        "minProperties": Keyword(_V),
        "maxProperties": Keyword(_V),
        "patternProperties": Keyword(_M),
        "propertyNames": Keyword(_S),
        "dependentRequired": Keyword(_D),  # names -> lists of names, never subschemas
        "dependentSchemas": Keyword(_M, in_place=True),
        "if": Keyword(_S, in_place=True),
        "then": Keyword(_S, in_place=True),
        "else": Keyword(_S, in_place=True),
        # known, walked, and refused by lint (some generator ignores or misreads each)
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


# JSON as loaded (dicts, lists) or frozen (mapping proxies, tuples); concrete types, as isinstance
# against the abstract Mapping and Sequence costs more than the rest of a warm build's walking.
_MAPPINGS = (dict, MappingProxyType)
_LISTS = (list, tuple)


def _is_schema(value: Any) -> bool:
    return isinstance(value, _MAPPINGS)


def _is_list(value: Any) -> bool:
    return isinstance(value, _LISTS)


def children(
    node: Mapping[str, Any], path: Path = (), through: frozenset[str] | None = None
) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    """The immediate schema objects under `node`, each with its path, in key order (booleans,
    which hold nothing, are left out)."""
    for key, value in node.items():
        if through is not None and key not in through:
            continue
        how = keyword(key).walk
        if how is Walk.DATA or how is Walk.VALUE:
            continue
        if isinstance(value, _MAPPINGS):
            if how is Walk.SUBSCHEMA_MAP:
                yield from (((*path, key, name), sub) for name, sub in value.items() if isinstance(sub, _MAPPINGS))
            else:
                yield (*path, key), value
        elif isinstance(value, _LISTS):  # a list where one schema belongs is still walked: lint reports it
            yield from (((*path, key, i), sub) for i, sub in enumerate(value) if isinstance(sub, _MAPPINGS))


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


def map_children(
    node: Mapping[str, Any], change: Callable[[Path, Any], Any], through: frozenset[str] | None = None
) -> dict[str, Any]:
    """A copy of `node` whose immediate subschemas (of the `through` keywords only, if given) are
    replaced by `change(relative path, subschema)`; everything else is kept as it is (the same objects)."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        kw = keyword(key)
        if kw.walk in (Walk.DATA, Walk.VALUE) or (through is not None and key not in through):
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


Combine = Callable[[Mapping[str, Any], dict[str, Any]], Any]


def fold(schema: Any, combine: Combine, through: frozenset[str] | None = None) -> Any:
    """`schema` folded bottom-up: each schema object becomes `combine(original, copy)`, where `copy`
    holds the folded subschemas (of the `through` keywords only, if given) and everything else as
    it is; booleans are kept."""
    if not _is_schema(schema):
        return schema
    return combine(schema, map_children(schema, lambda _, sub: fold(sub, combine, through), through))


def transform(schema: Any, rebuild: Combine, through: frozenset[str] | None = None) -> Any:
    """`schema` rebuilt bottom-up by `rebuild(original, copy)` (see `fold`), as plain JSON (dicts and
    lists) whatever the input's mapping type: what an external tool is handed."""

    def plain(original: Mapping[str, Any], copy: dict[str, Any]) -> Any:
        for key, value in copy.items():
            if keyword(key).walk in (Walk.DATA, Walk.VALUE) or (through is not None and key not in through):
                copy[key] = thaw(value)
        return rebuild(original, copy)

    return fold(schema, plain, through) if _is_schema(schema) else thaw(schema)


def thaw(value: Any) -> Any:
    """A frozen JSON value (mapping proxies, tuples) as plain dicts and lists, for a tool to read."""
    if isinstance(value, _MAPPINGS):
        return {key: thaw(sub) for key, sub in value.items()}
    if isinstance(value, _LISTS):
        return [thaw(sub) for sub in value]
    return value


def freeze(value: Any) -> Any:
    """A JSON value made read-only: mappings become mapping proxies, lists tuples."""
    if isinstance(value, _MAPPINGS):
        return MappingProxyType({key: freeze(sub) for key, sub in value.items()})
    if isinstance(value, _LISTS):
        return tuple(freeze(sub) for sub in value)
    return value
