"""Lint rules over files, named types and each schema object: one function per rule.

Each rule reads the Context and yields problems; codegen/lint.py lists them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from . import walk
from .errors import SchemaProblem
from .lint_context import Context, problem
from .names import DRAFT, EXTENSION, expected_id
from .walk import SUPPORTED_KEYWORDS

_TOP_LEVEL_KEYS = {"$schema", "$id", "$comment", "description", "$defs"}
_REF_FORM = re.compile(r"(?:[a-z][a-z0-9_]*\.json)?#/\$defs/[A-Z][A-Za-z0-9_]*")
_UNPRINTABLE = (
    "holds a character that is not printable (a control character, a line or paragraph separator, "
    "a lone surrogate): generated code cannot carry it as written"
)
# Object.prototype's names: ajv reads `data.constructor` through the prototype chain, so a required
# `constructor` is "present" in every object in Node and a payload Python rejects passes there.
JS_PROTOTYPE_NAMES = frozenset(
    {
        "__proto__", "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
        "toLocaleString", "toString", "valueOf", "__defineGetter__", "__defineSetter__",
        "__lookupGetter__", "__lookupSetter__",
    }
)  # fmt: skip
# Names every generated Python module imports (a type of that name would shadow them), and
# TypeScript's global types (a type of that name would shadow them in its family's .d.ts).
RESERVED_TYPE_NAMES = frozenset(
    {
        "MISSING", "Any", "Annotated", "Integer", "BaseModel", "ConfigDict", "DateTime", "DateTimeStr", "Discriminator",
        "Field", "Literal", "Mapping", "NotRequired", "Required", "SchemaModel", "StringConstraints",
        "TypeAdapter", "TypeAlias", "TypedDict", "TYPEDDICT_CONFIG", "Optional", "Union",
        "Array", "Boolean", "Date", "Error", "Function", "JSON", "Map", "Math", "Number", "Object", "Omit",
        "Partial", "Pick", "Promise", "Readonly", "Record", "RegExp", "Set", "String", "Symbol",
        # the npm package's family modules export these beside the types (`isValid` is a guard's name)
        "PayloadError", "UnknownSchemaError", "Valid", "Violation", "SchemaName", "SchemaType",
    }
)  # fmt: skip


def printable(text: str) -> bool:
    """Whether `text` is printable, newlines and tabs aside (str.isprintable is false for U+2028)."""
    return text.replace("\n", "").replace("\t", "").isprintable()


def reserved_property(name: str) -> str:
    """Why a property name cannot be used as it stands in generated code, or ""."""
    if name == "":
        # datamodel-codegen names it `field_`, and the model then accepts `{"": null}`, which the schema refuses
        return "an empty property name cannot name a field of the generated models"
    if name == "MISSING":
        return "property name 'MISSING' would shadow pydantic's MISSING sentinel in the generated models"
    if name in JS_PROTOTYPE_NAMES:
        return (
            f"property name {name!r} is an Object.prototype member: ajv would find it on every object "
            "through the prototype chain and give other verdicts than Python"
        )
    return ""


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


# --- files -----------------------------------------------------------------------------------------


def file_header(context: Context) -> Iterator[SchemaProblem]:
    """`$schema` is the draft, `$id` follows from the file's place and is unique, nothing but `$defs` holds types."""
    ids: dict[str, str] = {}
    for f in context.files:
        if f.contents.get("$schema") != DRAFT:
            yield problem(f, ("$schema",), f"must be {DRAFT!r}")
        want_id = expected_id(f.family, f.name)
        if f.contents.get("$id") != want_id:
            yield problem(f, ("$id",), f"must be {want_id!r} (derived from the file's place)")
        elif want_id in ids:
            yield problem(f, ("$id",), f"duplicate $id, also in {ids[want_id]}")
        ids[want_id] = str(f.path)
        for key in f.contents:
            if key not in _TOP_LEVEL_KEYS:
                yield problem(f, (key,), "a schema file holds named types under $defs only")
        if f not in context.typed_files:
            yield problem(f, ("$defs",), "missing or empty: every type is a named $defs entry")


# --- named types -----------------------------------------------------------------------------------


def type_names(context: Context) -> Iterator[SchemaProblem]:
    """type-name: unique in the family, CamelCase, not a name the generated code reserves."""
    seen: dict[tuple[str, str], str] = {}
    for f, name, _ in context.types():
        path = ("$defs", name)
        if (f.family, name) in seen:
            yield problem(f, path, f"type {f.family}/{name} is also defined in {seen[(f.family, name)]}")
        seen[(f.family, name)] = str(f.path)
        if not name.isidentifier() or not name.isascii() or not name[0].isupper():
            yield problem(f, path, "type names are CamelCase identifiers", "type-name")
        elif name in RESERVED_TYPE_NAMES or name == f"{f.family.capitalize()}Schemas":
            yield problem(
                f, path, f"type name {name!r} is reserved by the generated Python or TypeScript code", "type-name"
            )


def type_annotations(context: Context) -> Iterator[SchemaProblem]:
    """A type's title is its name, and it has a description."""
    for f, name, schema in context.types():
        if not isinstance(schema, dict):
            continue
        if schema.get("title") != name:
            yield problem(f, ("$defs", name, "title"), f"must equal the type name {name!r}", "annotations")
        if not _text(schema.get("description")):
            yield problem(f, ("$defs", name, "description"), "every type needs a description", "annotations")


# --- every schema object under a type ----------------------------------------------------------------


def property_names(context: Context) -> Iterator[SchemaProblem]:
    """Every property has a description and a name generated code can carry (reserved-property, unprintable)."""
    for site in context.type_sites:
        for prop, prop_schema in (site.node.get("properties") or {}).items():
            at = (*site.path, "properties", prop)
            if isinstance(prop_schema, dict) and not _text(prop_schema.get("description")):
                yield site.problem((*at, "description"), "every property needs a description", "annotations")
            if why := reserved_property(prop):
                yield site.problem(at, why, "reserved-property")
            elif not printable(prop):
                yield site.problem(at, _UNPRINTABLE, "unprintable")


def printable_text(context: Context) -> Iterator[SchemaProblem]:
    """unprintable: titles, descriptions and comments hold only printable characters."""
    for site in context.type_sites:
        for key in ("title", "description", "$comment"):
            if isinstance(site.node.get(key), str) and not printable(site.node[key]):
                yield site.problem((*site.path, key), _UNPRINTABLE, "unprintable")


def extension_markers(context: Context) -> Iterator[SchemaProblem]:
    """extension: a marker says why, on a named type or a property only."""
    for site in context.type_sites:
        if EXTENSION not in site.node:
            continue
        at = (*site.path, EXTENSION)
        marker = site.node[EXTENSION]
        if not _text(marker) or not printable(marker):
            yield site.problem(at, "an extension marker says why: a non-empty string", "extension")
        if not (site.path[-2:-1] == ("properties",) or len(site.path) == 2):
            yield site.problem(at, "mark a named type or a property as an extension, nothing in between", "extension")


def unsupported(key: str) -> str:
    """Why lint refuses a keyword that codegen/walk.py does not support."""
    if key in ("$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$anchor"):
        return f"{key} is not supported by the code generators"
    return (
        f"keyword {key!r} is not supported: the generated Pydantic models, TypedDicts and ajv agree only on "
        + ", ".join(sorted(SUPPORTED_KEYWORDS - {"$schema", "$id", "$defs", "$comment"}))
    )


def supported_keywords(context: Context) -> Iterator[SchemaProblem]:
    """unsupported: only the keywords codegen/walk.py supports."""
    for site in context.type_sites:
        for key in site.node.keys() - SUPPORTED_KEYWORDS:
            yield site.problem((*site.path, key), unsupported(key), "unsupported")


# Subschemas that only constrain (no generator makes a type of them): an object with `properties`
# may stand there unnamed, as in `"if": {"properties": {"role": {"const": "tool"}}}`.
_UNTYPED_PLACES = frozenset({"not", "if", "then", "else", "contains", "dependentSchemas", "propertyNames"})


def _keywords(path: tuple[str | int, ...]) -> list[str | int]:
    """The keywords along a path below a type (not the property names or indexes between them)."""
    found: list[str | int] = []
    i = 0
    while i < len(path):
        step = path[i]
        found.append(step)
        how = walk.keyword(step).walk if isinstance(step, str) else None
        i += 2 if how in (walk.Walk.SUBSCHEMA_MAP, walk.Walk.SUBSCHEMAS) else 1
    return found


def named_inline(context: Context) -> Iterator[SchemaProblem]:
    """inline: `$id`, `title` and `properties` belong on named types (but in a subschema that only
    constrains: `_UNTYPED_PLACES`)."""
    for site in context.type_sites:
        if site.path == site.type_root or _UNTYPED_PLACES.intersection(_keywords(site.path[len(site.type_root) :])):
            continue
        for key in ("$id", "title"):
            if key in site.node:
                yield site.problem((*site.path, key), f"{key} belongs on a named type only", "inline")
        if "properties" in site.node:
            yield site.problem(
                (*site.path, "properties"),
                "an object with properties is a named type: move it under $defs and $ref it "
                "(generators name inline objects after their property, which can shadow a type)",
                "inline",
            )


def whole_steps(context: Context) -> Iterator[SchemaProblem]:
    """step-form: a whole `multipleOf` is written as an integer: Python reads `2.0` as a float step,
    judged by another rule than `2` (and JavaScript cannot tell the two apart)."""
    for site in context.type_sites:
        step = site.node.get("multipleOf")
        if isinstance(step, float) and step.is_integer():
            yield site.problem((*site.path, "multipleOf"), f"write the whole step {step!r} as {int(step)}", "step-form")


def ref_form(context: Context) -> Iterator[SchemaProblem]:
    """ref-form: a `$ref` names a type plainly, in this file or a sibling."""
    for site in context.type_sites:
        if isinstance(site.node.get("$ref"), str) and not _REF_FORM.fullmatch(site.node["$ref"]):
            yield site.problem(
                (*site.path, "$ref"),
                "a $ref is '#/$defs/<Type>' or '<file>.json#/$defs/<Type>', written plainly (no %-escapes)",
                "ref-form",
            )


def formats(context: Context) -> Iterator[SchemaProblem]:
    """format: only `"format": "date-time"`, on a string property."""
    for site in context.type_sites:
        if "format" in site.node and not _supported_format(site.node, site.path):
            yield site.problem(
                (*site.path, "format"),
                'only "format": "date-time" on a property of "type": "string" is supported '
                "(generated code must check every format jsonschema checks)",
                "format",
            )


def object_types(context: Context) -> Iterator[SchemaProblem]:
    """object-type: a named type with `properties` says `"type": "object"`: it becomes a class, whose
    instances are objects, where the schema alone would also accept any other JSON value."""
    for f, name, schema in context.types():
        if isinstance(schema, dict) and "properties" in schema and schema.get("type") != "object":
            yield problem(f, ("$defs", name), 'a type with properties declares "type": "object"', "object-type")


def required_names(context: Context) -> Iterator[SchemaProblem]:
    """reserved-property: a `required` or `dependentRequired` name ajv would find on every object
    (`constructor`, `__proto__`, ...: Object.prototype's), so that the key counts as present in
    Node when it is absent."""
    for site in context.type_sites:
        names = site.node.get("required")
        dependent = site.node.get("dependentRequired")
        found = list(names) if isinstance(names, list) else []
        if isinstance(dependent, dict):
            found += [*dependent, *(n for listed in dependent.values() if isinstance(listed, list) for n in listed)]
        for name in sorted({n for n in found if isinstance(n, str) and n in JS_PROTOTYPE_NAMES}):
            yield site.problem(
                site.path, f"{name!r} is on every object in JavaScript (Object.prototype)", "reserved-property"
            )


def empty_enums(context: Context) -> Iterator[SchemaProblem]:
    """empty-enum: an `enum` with no value (ajv refuses to compile it; `false` says the same)."""
    for site in context.type_sites:
        if isinstance(site.node.get("enum"), list | tuple) and not site.node["enum"]:
            yield site.problem(
                (*site.path, "enum"), 'an empty enum admits nothing: write false or "not": {}', "empty-enum"
            )


def _supported_format(schema: Mapping[str, Any], path: tuple[str | int, ...]) -> bool:
    return schema.get("format") == "date-time" and schema.get("type") == "string" and path[-2:-1] == ("properties",)
