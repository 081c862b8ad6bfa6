"""Check the schemas against the project's conventions before anything is generated.

Every problem is collected (not just the first), each naming its file and JSON location.
"""

from __future__ import annotations

import json
import keyword
import re
import shutil
import subprocess
import warnings
from collections.abc import Callable, Iterator
from typing import Any, Protocol
from urllib.parse import urljoin

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from .errors import SchemaProblem, pointer
from .families import BASE_CLASSES
from .inventory import DRAFT, EXTENSION, expected_id, ref_target_name
from .load import SchemaFile

# Keywords whose values are data, not subschemas: never look for `$ref`s inside them.
_DATA_KEYWORDS = {"const", "default", "enum", "examples", "discriminator"}
_TOP_LEVEL_KEYS = {"$schema", "$id", "$comment", "description", "$defs"}

Node = tuple[tuple[str | int, ...], dict[str, Any]]


class Memo(Protocol):
    """Where lint remembers checks that passed, by a unit name and the text they depended on."""

    def known(self, unit: str, text: str) -> bool: ...

    def remember(self, unit: str, text: str) -> None: ...


def _subschemas(schema: Any, path: tuple[str | int, ...] = ()) -> Iterator[Node]:
    """Yield every schema object under `schema` with its path, skipping data keywords."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key, value in schema.items():
        if key in _DATA_KEYWORDS:
            continue
        if key in ("properties", "$defs", "patternProperties", "dependentSchemas") and isinstance(value, dict):
            for name, sub in value.items():
                yield from _subschemas(sub, (*path, key, name))
        elif isinstance(value, dict):
            yield from _subschemas(value, (*path, key))
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _subschemas(sub, (*path, key, i))


def build_registry(files: list[SchemaFile]) -> Registry:
    """A registry of the files by `$id`; it never retrieves anything else."""
    resources = [
        (f.contents["$id"], Resource.from_contents(f.contents, default_specification=DRAFT202012))
        for f in files
        if isinstance(f.contents.get("$id"), str)
    ]
    return Registry().with_resources(resources)


def lint(files: list[SchemaFile], memo: Memo | None = None) -> list[SchemaProblem]:
    """Return every convention problem in `files`; an empty list means generation may go on.

    `memo` remembers what depends on one file or one pattern alone (the meta-schema check, the
    ECMAScript compile), so that an edit re-checks only what it touched.
    """
    problems = meta_problems(files, memo)
    if problems:
        return problems  # every other check reads the schemas' shapes: not before they are valid
    patterns_seen: list[tuple[Callable[..., None], tuple[str | int, ...], str]] = []
    registry = build_registry(files)
    ids: dict[str, str] = {}
    type_names: dict[tuple[str, str], str] = {}
    for f in files:
        file = str(f.path)

        def report(path: tuple[str | int, ...], message: str, file: str = file, rule: str = "") -> None:
            problems.append(SchemaProblem(file, pointer(*path), message, rule))

        if f.contents.get("$schema") != DRAFT:
            report(("$schema",), f"must be {DRAFT!r}")
        want_id = expected_id(f.family, f.name)
        if f.contents.get("$id") != want_id:
            report(("$id",), f"must be {want_id!r} (derived from the file's place)")
        elif want_id in ids:
            report(("$id",), f"duplicate $id, also in {ids[want_id]}")
        ids[want_id] = file
        for key in f.contents:
            if key not in _TOP_LEVEL_KEYS:
                report((key,), "a schema file holds named types under $defs only")
        defs = f.contents.get("$defs")
        if not isinstance(defs, dict) or not defs:
            report(("$defs",), "missing or empty: every type is a named $defs entry")
            continue
        for name, schema in defs.items():
            path = ("$defs", name)
            if (f.family, name) in type_names:
                report(path, f"type {f.family}/{name} is also defined in {type_names[(f.family, name)]}")
            type_names[(f.family, name)] = file
            if not name.isidentifier() or not name.isascii() or not name[0].isupper():
                report(path, "type names are CamelCase identifiers", rule="type-name")
            elif name in RESERVED_TYPE_NAMES or name == f"{f.family.capitalize()}Schemas":
                report(
                    path, f"type name {name!r} is reserved by the generated Python or TypeScript code", rule="type-name"
                )
            if not isinstance(schema, dict):
                continue
            if schema.get("title") != name:
                report((*path, "title"), f"must equal the type name {name!r}")
            if not _text(schema.get("description")):
                report((*path, "description"), "every type needs a description")
            for sub_path, sub in _subschemas(schema, path):
                for prop, prop_schema in (sub.get("properties") or {}).items():
                    if isinstance(prop_schema, dict) and not _text(prop_schema.get("description")):
                        report((*sub_path, "properties", prop, "description"), "every property needs a description")
                    if why := reserved_property(prop):
                        report((*sub_path, "properties", prop), why, rule="reserved-property")
                    elif not printable(prop):
                        report((*sub_path, "properties", prop), _UNPRINTABLE, rule="unprintable")
                for key in ("title", "description", "$comment"):
                    if isinstance(sub.get(key), str) and not printable(sub[key]):
                        report((*sub_path, key), _UNPRINTABLE, rule="unprintable")
                if EXTENSION in sub:
                    marker = sub[EXTENSION]
                    if not _text(marker) or not printable(marker):
                        report(
                            (*sub_path, EXTENSION), "an extension marker says why: a non-empty string", rule="extension"
                        )
                    if not (sub_path[-2:-1] == ("properties",) or len(sub_path) == 2):
                        report(
                            (*sub_path, EXTENSION),
                            "mark a named type or a property as an extension, nothing in between",
                            rule="extension",
                        )
                for key in sub.keys() - SUPPORTED_KEYWORDS:
                    report((*sub_path, key), _unsupported(key), rule="unsupported")
                if "not" in sub and sub["not"] != _NO_NEWLINE and not _checked_by_hand(f.family, name, sub_path, sub):
                    report(
                        (*sub_path, "not"),
                        '"not" is supported as the newline guard {"pattern": "\\n"} beside a pattern, or as '
                        '{"properties": {<key>: false, ...}} (at least one key) on a type whose hand-written base '
                        "class checks it (codegen/families.py)",
                        rule="unsupported",
                    )
                if sub_path != path and sub_path[-1] != "not":
                    for key in ("$id", "title"):
                        if key in sub:
                            report((*sub_path, key), f"{key} belongs on a named type only", rule="inline")
                    if "properties" in sub:
                        report(
                            (*sub_path, "properties"),
                            "an object with properties is a named type: move it under $defs and $ref it "
                            "(generators name inline objects after their property, which can shadow a type)",
                            rule="inline",
                        )
                if "const" in sub and not isinstance(sub["const"], str):
                    report(
                        (*sub_path, "const"),
                        "a const is a string (a number or boolean const types differently in each generator)",
                        rule="const-type",
                    )
                if isinstance(sub.get("enum"), list) and not all(isinstance(v, str | None) for v in sub["enum"]):
                    report((*sub_path, "enum"), "enum values are strings or null", rule="const-type")
                if isinstance(sub.get("$ref"), str) and not _REF_FORM.fullmatch(sub["$ref"]):
                    report(
                        (*sub_path, "$ref"),
                        "a $ref is '#/$defs/<Type>' or '<file>.json#/$defs/<Type>', written plainly (no %-escapes)",
                        rule="ref-form",
                    )
                if isinstance(sub.get("pattern"), str):
                    patterns_seen.append((report, (*sub_path, "pattern"), sub["pattern"]))
                    for message in pattern_problems(sub["pattern"], sub.get("not") == _NO_NEWLINE):
                        report((*sub_path, "pattern"), message, rule="pattern-portable")
                if "format" in sub and not _supported_format(sub, sub_path):
                    report(
                        (*sub_path, "format"),
                        'only "format": "date-time" on a property of "type": "string" is supported '
                        "(generated code must check every format jsonschema checks)",
                    )
        resolver = registry.resolver(base_uri=want_id)
        property_names = {
            prop
            for _, sub in _subschemas(f.contents)
            for prop in (sub.get("properties") or {})
            if isinstance(prop, str)
        }
        for sub_path, sub in _subschemas(f.contents):
            ref = sub.get("$ref")
            if isinstance(ref, str) and (module := _other_module(ref)) in property_names:
                report(
                    (*sub_path, "$ref"),
                    f"module {module!r} (from {module}.json) clashes with a property of this file; rename the file",
                )
            if isinstance(ref, str):
                try:
                    resolved = resolver.lookup(ref)
                except Unresolvable:
                    report((*sub_path, "$ref"), f"dangling $ref {ref!r}: no such schema among the local files")
                    continue
                if not urljoin(want_id, ref).startswith(expected_id(f.family, "")) or resolved is None:
                    report((*sub_path, "$ref"), f"$ref {ref!r} leaves the {f.family!r} family")
            if "discriminator" in sub or "oneOf" in sub:
                problems.extend(_check_union(file, sub_path, sub, resolver))
    problems += ref_cycles(files)
    patterns = [pattern for _, _, pattern in patterns_seen]
    known = memo is not None and memo.known("patterns", json.dumps(patterns))
    verdicts = [""] * len(patterns) if known else invalid_patterns(patterns)
    if memo is not None and not any(verdicts):
        memo.remember("patterns", json.dumps(patterns))
    for (report_at, at, _), why in zip(patterns_seen, verdicts, strict=True):
        if why:
            report_at(at, why, rule="pattern-invalid")
    return problems


def _checked_by_hand(family: str, name: str, path: tuple[str | int, ...], schema: dict[str, Any]) -> bool:
    """A type-level "at least one of these keys" rule that the type's hand-written base class enforces."""
    props = schema["not"].get("properties") if isinstance(schema["not"], dict) else None
    return (
        path == ("$defs", name)
        and name in BASE_CLASSES.get(family, {})
        and set(schema["not"]) == {"properties"}
        and isinstance(props, dict)
        and all(v is False for v in props.values())
    )


def meta_problems(files: list[SchemaFile], memo: Memo | None = None) -> list[SchemaProblem]:
    """Each file checked against the 2020-12 meta-schema (remembered per file text in `memo`)."""
    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    problems: list[SchemaProblem] = []
    for f in files:
        unit = f"meta-{f.family}-{f.path.stem}"
        if memo is not None and memo.known(unit, f.text):
            continue
        errors = list(meta.iter_errors(f.contents))
        problems += [
            SchemaProblem(str(f.path), pointer(*err.absolute_path), f"not a valid 2020-12 schema: {err.message}")
            for err in errors
        ]
        if memo is not None and not errors:
            memo.remember(unit, f.text)
    return problems


# The keywords every generator (Pydantic models, TypedDicts, ajv, json-schema-to-typescript) and
# the conformance harness handle alike; anything else would be checked by some and not others
# (TypedDicts ignore minLength, Pydantic ignores `not`) or steer a generator (`x-python-type`,
# `customTypePath` make datamodel-codegen import any module).
SUPPORTED_KEYWORDS = frozenset(
    {
        "$schema", "$id", "$defs", "$ref", "$comment", "title", "description", "deprecated", "default",
        "examples", "type", "const", "enum", "format", "pattern", "properties", "required",
        "additionalProperties", "items", "allOf", "anyOf", "oneOf", "not", "discriminator", EXTENSION,
    }
)  # fmt: skip
_REF_FORM = re.compile(r"(?:[a-z][a-z0-9_]*\.json)?#/\$defs/[A-Z][A-Za-z0-9_]*")


def _unsupported(key: str) -> str:
    if key in ("$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$anchor"):
        return f"{key} is not supported by the code generators"
    return (
        f"keyword {key!r} is not supported: the generated Pydantic models, TypedDicts and ajv agree only on "
        + ", ".join(sorted(SUPPORTED_KEYWORDS - {"$schema", "$id", "$defs", "$comment"}))
    )


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
        "MISSING", "Any", "Annotated", "BaseModel", "ConfigDict", "DateTime", "DateTimeStr", "Discriminator",
        "Field", "Literal", "Mapping", "NotRequired", "Required", "SchemaModel", "StringConstraints",
        "TypeAdapter", "TypeAlias", "TypedDict", "TYPEDDICT_CONFIG", "Optional", "Union",
        "Array", "Boolean", "Date", "Error", "Function", "JSON", "Map", "Math", "Number", "Object", "Omit",
        "Partial", "Pick", "Promise", "Readonly", "Record", "RegExp", "Set", "String", "Symbol",
        # the npm package's family modules export these beside the types (`isValid` is a guard's name)
        "PayloadError", "UnknownSchemaError", "Valid", "Violation", "SchemaName", "SchemaType",
    }
)  # fmt: skip


def reserved_property(name: str) -> str:
    """Why a property name cannot be used as it stands in generated code, or ""."""
    if name == "MISSING":
        return "property name 'MISSING' would shadow pydantic's MISSING sentinel in the generated models"
    if name in JS_PROTOTYPE_NAMES:
        return (
            f"property name {name!r} is an Object.prototype member: ajv would find it on every object "
            "through the prototype chain and give other verdicts than Python"
        )
    return ""


def printable(text: str) -> bool:
    """Whether `text` is printable, newlines and tabs aside (str.isprintable is false for U+2028)."""
    return text.replace("\n", "").replace("\t", "").isprintable()


_ECMASCRIPT_CHECK = """
const patterns = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(patterns.map((p) => {
  try { new RegExp(p, "u"); return ""; } catch (e) { return String(e.message); }
})));
"""


def invalid_patterns(patterns: list[str]) -> list[str]:
    """For each pattern, why Python's `re` or ECMAScript's `RegExp` (with the `u` flag, as ajv
    compiles it) refuses it, or ""."""
    out: list[str] = []
    for pattern in patterns:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)  # `--` in a class: reported by pattern_problems
                re.compile(pattern)
            out.append("")
        except re.error as exc:
            out.append(f"pattern {pattern!r} is not a valid regular expression for Python's re: {exc}")
    if not patterns:
        return out
    node = shutil.which("node")
    if node is None:
        return [why or "cannot check the pattern under ECMAScript: node not found (install Node.js 20)" for why in out]
    proc = subprocess.run(
        [node, "-e", _ECMASCRIPT_CHECK], input=json.dumps(patterns), capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the ECMAScript pattern check failed: {proc.stderr.strip()}")
    verdicts: list[str] = json.loads(proc.stdout)
    return [
        why or (f"pattern {pattern!r} is not a valid ECMAScript regular expression (u flag): {js}" if js else "")
        for pattern, why, js in zip(patterns, out, verdicts, strict=True)
    ]


# Keywords whose subschemas apply to the instance itself: a `$ref` reached only through these
# stays at the same place in the payload. Anything else (properties, items, ...) goes one level down.
_SAME_PLACE = {"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref"}


def _same_place_refs(schema: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if not isinstance(schema, dict):
        return
    if isinstance(schema.get("$ref"), str):
        yield (*path, "$ref"), schema["$ref"]
    for key in _SAME_PLACE & schema.keys():
        value = schema[key]
        if isinstance(value, dict):
            yield from _same_place_refs(value, (*path, key))
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _same_place_refs(sub, (*path, key, i))


def ref_cycles(files: list[SchemaFile]) -> list[SchemaProblem]:
    """`$ref` cycles that never pass through an object's property or an array's item.

    Such a cycle validates nothing and recurses forever: python-jsonschema until RecursionError,
    Node until its stack overflows, while a compiled validator may call everything valid.
    """
    by_name = {(f.family, f.name): f for f in files}
    edges: dict[tuple[str, str, str], list[tuple[tuple[str, str, str], str, tuple[str | int, ...]]]] = {}
    for f in files:
        for name, schema in (f.contents.get("$defs") or {}).items():
            node = (f.family, f.name, name)
            for path, ref in _same_place_refs(schema, ("$defs", name)):
                target_file, _, fragment = ref.partition("#")
                target_name = target_file.rsplit("/", 1)[-1] or f.name
                if fragment.startswith("/$defs/") and (f.family, target_name) in by_name:
                    target = (f.family, target_name, fragment.removeprefix("/$defs/"))
                    edges.setdefault(node, []).append((target, str(f.path), path))
    problems: list[SchemaProblem] = []
    reported: set[frozenset[tuple[str, str, str]]] = set()

    def visit(node: tuple[str, str, str], stack: list[tuple[str, str, str]]) -> None:
        for target, file, path in edges.get(node, []):
            if target in stack:
                cycle = stack[stack.index(target) :]
                if frozenset(cycle) not in reported:
                    reported.add(frozenset(cycle))
                    names = " -> ".join(n for _, _, n in [*cycle, target])
                    problems.append(
                        SchemaProblem(
                            file,
                            pointer(*path),
                            f"$ref cycle {names} never passes through a property or an array item: "
                            "no payload can ever finish validating",
                            "ref-cycle",
                        )
                    )
            elif target not in done:
                visit(target, [*stack, target])
        done.add(node)

    done: set[tuple[str, str, str]] = set()
    for node in sorted(edges):
        if node not in done:
            visit(node, [node])
    return problems


# Escapes whose meaning differs between Python's `re` (Unicode-aware by default) and ECMAScript
# regular expressions as ajv compiles them (`u` flag), or that only one of the two knows.
_PORTABLE_ESCAPES_ONLY = {
    "d": "\\d matches any Unicode digit in Python, only 0-9 in ECMAScript: write [0-9]",
    "D": "\\D differs between Python and ECMAScript (Unicode digits): write [^0-9]",
    "w": "\\w is Unicode-aware in Python, ASCII in ECMAScript: write the class out, e.g. [A-Za-z0-9_]",
    "W": "\\W differs between Python and ECMAScript (Unicode): write the class out",
    "s": "\\s matches different whitespace in Python and ECMAScript: list the characters, e.g. [ \\t\\n\\r]",
    "S": "\\S differs between Python and ECMAScript: list the characters",
    "b": "\\b differs between Python and ECMAScript (Unicode word characters)",
    "B": "\\B differs between Python and ECMAScript (Unicode word characters)",
    "A": "\\A is Python-only: use ^",
    "Z": "\\Z is Python-only",
    "z": "\\z is not a regex escape in Python or ECMAScript",
}
_NO_NEWLINE = {"pattern": "\\n"}
_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")


def pattern_problems(pattern: str, newline_excluded: bool = False) -> list[str]:
    """Why a `pattern` could get different verdicts in python-jsonschema (`re`), ajv (ECMAScript) or
    the generated models (pydantic-core's Rust regex).

    Allowed: a portable subset. No `\\d`, `\\w`, `\\s`, `\\b` (and their negations), no Python-only
    syntax, no look-around (Rust's regex has none). A `$` anchor only where the same schema excludes
    newlines (`"not": {"pattern": "\\n"}`, `newline_excluded`): Python's `$` also matches before a
    trailing newline, ECMAScript's and Rust's do not; without newlines they agree.
    """
    problems: list[str] = []
    if "(?P" in pattern:
        problems.append(f"pattern {pattern!r}: (?P...) named groups are Python-only: use a plain group")
    if any(look in pattern for look in _LOOKAROUND):
        problems.append(f"pattern {pattern!r}: look-around is not supported by pydantic-core's Rust regex")
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if in_class and pattern[i : i + 2] in ("--", "&&", "~~", "||") and pattern[i + 2 : i + 3] != "]":
            problems.append(
                f"pattern {pattern!r}: {pattern[i : i + 2]!r} inside [...] is a set operation in pydantic-core's Rust "
                "regex and literal text elsewhere: escape one of the two characters"
            )
        if not in_class and ch == ".":
            problems.append(
                f"pattern {pattern!r}: . matches \\r and U+2028/U+2029 in Python but not in ECMAScript: "
                "write the class you mean, e.g. [^\\n]"
            )
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt in _PORTABLE_ESCAPES_ONLY and not (in_class and nxt == "b"):
                problems.append(f"pattern {pattern!r}: {_PORTABLE_ESCAPES_ONLY[nxt]}")
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]":
                i += 1  # a leading ] is a literal member
        elif ch == "$" and not newline_excluded:
            problems.append(
                f"pattern {pattern!r}: $ also matches before a trailing newline in Python but not in ECMAScript: "
                'add "not": {"pattern": "\\\\n"} beside the pattern so no string with a newline gets that far'
            )
        i += 1
    return problems


def _other_module(ref: str) -> str | None:
    """The generated module a cross-file `$ref` imports (`tool` for `tool.json#/...`), if any.

    datamodel-codegen renames an imported module whose name equals a field of the importing
    module (`content` -> `content_1`), so such names are refused up front.
    """
    target = ref.split("#", 1)[0]
    if not target:
        return None
    return target.rsplit("/", 1)[-1].removesuffix(".json")


def _supported_format(schema: dict[str, Any], path: tuple[str | int, ...]) -> bool:
    return schema.get("format") == "date-time" and schema.get("type") == "string" and path[-2:-1] == ("properties",)


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _check_union(file: str, path: tuple[str | int, ...], schema: dict[str, Any], resolver: Any) -> list[SchemaProblem]:
    """A union is a `oneOf` of `$ref`s with a discriminator hint; each branch has a unique required const tag."""
    out: list[SchemaProblem] = []

    def report(sub: tuple[str | int, ...], message: str) -> None:
        out.append(SchemaProblem(file, pointer(*path, *sub), message))

    disc = schema.get("discriminator")
    branches = schema.get("oneOf")
    if not isinstance(branches, list):
        report(("discriminator",), "a discriminator hint belongs on a oneOf union")
        return out
    if not isinstance(disc, dict) or not isinstance(disc.get("propertyName"), str):
        report(("oneOf",), 'union without a discriminator hint: add "discriminator": {"propertyName": <tag>}')
        return out
    if "mapping" in disc:
        report(("discriminator", "mapping"), "no mapping: tags come from each branch's const")
    if schema.get("type") != "object":
        report(("type",), 'a tagged union also declares "type": "object"')
    tag = disc["propertyName"]
    if not tag.isidentifier() or keyword.iskeyword(tag) or tag.startswith("_"):
        # Pydantic looks a discriminator up by its Python field name: an aliased tag is read from the wrong key
        report(
            ("discriminator", "propertyName"),
            f"union tag {tag!r} must be a Python name",
        )
        out[-1] = SchemaProblem(out[-1].file, out[-1].pointer, out[-1].message, "tag-name")
    seen: dict[str, int] = {}
    for i, branch in enumerate(branches):
        ref = branch.get("$ref") if isinstance(branch, dict) else None
        if not isinstance(ref, str) or len(branch) != 1:
            report(("oneOf", i), "each union branch is a bare $ref to a named type")
            continue
        try:
            target = resolver.lookup(ref)
        except Unresolvable:
            continue  # reported as a dangling $ref
        props, required = _effective(target.contents, target.resolver)
        const = props.get(tag, {}).get("const") if isinstance(props.get(tag), dict) else None
        name = ref_target_name(ref)
        if not isinstance(const, str) or not const:
            report(("oneOf", i), f"branch {name} needs property {tag!r} with a non-empty string const")
            continue
        if tag not in required:
            report(("oneOf", i), f"branch {name} must list its tag {tag!r} in required")
        own = target.contents if isinstance(target.contents, dict) else {}
        if tag not in (own.get("properties") or {}) or tag not in (own.get("required") or []):
            # ajv's discriminator reads the tag from the branch's own properties and required only.
            report(
                ("oneOf", i),
                f"branch {name} must restate its tag {tag!r} in its own properties and required, "
                "not only through allOf (ajv's discriminator does not follow allOf)",
            )
        if const in seen:
            report(("oneOf", i), f"tag value {tag}={const!r} is used by branches {seen[const]} and {i}")
        seen[const] = i
    return out


def _effective(schema: dict[str, Any], resolver: Any) -> tuple[dict[str, Any], set[str]]:
    """Properties and required keys of a schema, following `allOf` `$ref`s."""
    props: dict[str, Any] = {}
    required: set[str] = set(schema.get("required", []))
    for part in schema.get("allOf", []):
        if isinstance(part, dict) and isinstance(part.get("$ref"), str):
            try:
                target = resolver.lookup(part["$ref"])
            except Unresolvable:
                continue
            p, r = _effective(target.contents, target.resolver)
            props.update(p)
            required |= r
    props.update(schema.get("properties", {}))
    return props, required
