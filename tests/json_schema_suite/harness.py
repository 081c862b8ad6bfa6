"""The official JSON-Schema-Test-Suite (draft 2020-12) and our own traps, as one scratch family.

Every test group becomes a named type `G<n>` of the family `suite` (one file, `suite.json`): an
object whose required property `value` holds the group's schema, so a test's data is judged as
`{"value": data}`. A group's own `$defs`, the targets of its `$ref`s and every object with
`properties` below the root are moved to the family's `$defs` as `G<n>V` (the root) or `G<n>D<k>`,
and each `$ref` is rewritten to name its new place: in 2020-12, without `$id` or anchors, a
subschema and a `$ref` to it validate alike (annotations included), so the verdicts are the suite's
(test_relocation_keeps_every_verdict checks it with plain jsonschema).
Titles, descriptions and type names are added where the conventions ask for them: annotations,
which change no verdict.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.errors import SchemaProblem
from codegen.lint import lint
from codegen.load import load_schemas
from codegen.names import DRAFT, expected_id
from codegen.native import OBJECT_KEYWORDS  # vacuous on any other value than an object
from tests.json_schema_suite.fetch import suite_folder

HERE = Path(__file__).parent
TRAPS = HERE / "traps.json"
FAMILY = "suite"
FILE = "suite.json"
# The suite's draft2020-12 files (top level, not optional/) this harness runs, by keyword.
KEYWORD_FILES = (
    "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minItems", "maxItems", "uniqueItems", "prefixItems", "contains", "minContains", "maxContains",
    "minProperties", "maxProperties", "patternProperties", "propertyNames", "additionalProperties",
    "dependentRequired", "dependentSchemas", "if-then-else", "const", "enum", "boolean_schema", "type", "items",
    "properties", "required", "allOf", "anyOf", "oneOf", "not", "ref", "defs", "default", "pattern", "format",
    "infinite-loop-detection",
)  # fmt: skip

# How 2020-12 keywords hold subschemas; any other keyword's value is data.
ONE = frozenset(
    {"additionalProperties", "items", "contains", "propertyNames", "not", "if", "then", "else"}
    | {"unevaluatedItems", "unevaluatedProperties", "contentSchema"}
)
LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
MAP = frozenset({"properties", "patternProperties", "dependentSchemas", "$defs"})
# Keywords whose meaning depends on the document a schema sits in: a group using one cannot move.
PLACE_BOUND = ("$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary")

Location = tuple[str, ...]  # a JSON location, every step as text


@dataclass(frozen=True)
class SuiteTest:
    """One test of a group: data and the verdict the suite expects."""

    description: str
    data: Any
    valid: bool
    # the verdict on the value JavaScript's JSON.parse gives (an integer beyond 2**53 rounded to a
    # double), where that differs: the traps say so per test; the npm validators are held to it
    valid_in_javascript: bool

    def expected(self, artefact: str) -> bool:
        """The verdict `artefact` must give."""
        return self.valid_in_javascript if artefact.startswith("node") else self.valid


@dataclass(frozen=True)
class Group:
    """One test group: a schema and its tests, numbered in load order."""

    number: int
    source: str  # the keyword file's stem, or "traps"
    description: str
    schema: Any
    tests: tuple[SuiteTest, ...]

    @property
    def type_name(self) -> str:
        """The named type of the scratch family that wraps this group's schema."""
        return f"G{self.number}"

    @property
    def label(self) -> str:
        """How failure messages name the group."""
        return f"{self.source}.json / {self.description!r} ({FAMILY}/{self.type_name})"


class NotRelocatable(Exception):
    """A group whose schema cannot move into the family file unchanged; the message says why."""


def missing_files() -> list[str]:
    """The keyword files the downloaded suite lacks (fetch.py)."""
    data = suite_folder()
    return [f"{name}.json" for name in KEYWORD_FILES if not (data / f"{name}.json").is_file()]


def suite_files() -> list[Path]:
    """The keyword files present, in KEYWORD_FILES order, then the traps (which are ours, always there)."""
    data = suite_folder()
    present = [data / f"{name}.json" for name in KEYWORD_FILES if (data / f"{name}.json").is_file()]
    return [*present, TRAPS]


def load_groups() -> list[Group]:
    """Every group of every suite file, numbered from 0 across files."""
    groups: list[Group] = []
    for path in suite_files():
        source = "traps" if path == TRAPS else path.stem
        for raw in json.loads(path.read_text(encoding="utf-8")):
            tests = tuple(
                SuiteTest(t["description"], t["data"], t["valid"], t.get("valid_in_javascript", t["valid"]))
                for t in raw["tests"]
            )
            groups.append(Group(len(groups), source, raw["description"], raw["schema"], tests))
    return groups


def subschemas(schema: Any, path: Location = ()) -> Iterator[tuple[Location, Any]]:
    """Every subschema (booleans too) with its location, the schema itself first, depth first."""
    yield path, schema
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        if key in ONE:
            yield from subschemas(value, (*path, key))
        elif key in LIST and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from subschemas(sub, (*path, key, str(i)))
        elif key in MAP and isinstance(value, dict):
            for name, sub in value.items():
                yield from subschemas(sub, (*path, key, name))


def ref_target(ref: str) -> Location:
    """The location a local `$ref` ("#", "#/$defs/a%25b", "#/properties/x~1y") names."""
    if not ref.startswith("#"):
        raise NotRelocatable(f"$ref {ref!r} leaves the document (a remote or relative reference)")
    fragment = urllib.parse.unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        raise NotRelocatable(f"$ref {ref!r} names an anchor")
    steps = fragment.split("/")[1:] if fragment else []
    return tuple(s.replace("~1", "/").replace("~0", "~") for s in steps)


def _moved(nodes: dict[Location, Any]) -> list[Location]:
    """The locations that move to the family's `$defs`: `$defs` entries, `$ref` targets and objects
    with `properties` (lint wants those named), in document order; NotRelocatable if one cannot."""
    keep: set[Location] = set()
    for path, node in nodes.items():
        if not isinstance(node, dict):
            continue
        bound = [key for key in PLACE_BOUND if key in node]
        if bound or ("$schema" in node and (path or node["$schema"] != DRAFT)):
            raise NotRelocatable(f"{(bound or ['$schema'])[0]} at {_pointer(path)} ties it to its document")
        if isinstance(node.get("$defs"), dict):
            keep.update((*path, "$defs", name) for name in node["$defs"])
        if "$ref" in node:
            target = ref_target(node["$ref"])
            if target not in nodes:
                raise NotRelocatable(f"$ref {node['$ref']!r} names no subschema (a location that is data)")
            keep.add(target)
        if "properties" in node:
            keep.add(path)
    return [path for path in nodes if path in keep]


def _pointer(path: Location) -> str:
    return "".join("/" + step.replace("~", "~0").replace("/", "~1") for step in path) or "/"


def _described(schema: Any, text: str) -> Any:
    """A dict schema with a description (lint wants one on every property), a boolean as it is."""
    if isinstance(schema, dict) and "description" not in schema:
        return {**schema, "description": text}
    return schema


def _convert(names: dict[Location, str], path: Location, node: Any, named: bool = False) -> Any:
    """`node` (at `path` in the group's schema) with each moved subschema replaced by a `$ref` to its
    new name, `$ref`s renamed, and what only the old place needed (`$defs`, `$schema`, a title) left out."""
    if path in names and not named:
        return {"$ref": f"#/$defs/{names[path]}"}
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        at = (*path, key)
        if key in ("$defs", "$schema", "title"):  # entries moved; the draft is the file's; annotation
            continue
        if key == "$ref":
            out[key] = f"#/$defs/{names[ref_target(value)]}"
        elif key in ONE:
            out[key] = _convert(names, at, value)
        elif key in LIST and isinstance(value, list):
            out[key] = [_convert(names, (*at, str(i)), sub) for i, sub in enumerate(value)]
        elif key in MAP and isinstance(value, dict):
            text = "A property of a test group's schema."
            subs = {name: _convert(names, (*at, name), sub) for name, sub in value.items()}
            out[key] = {n: _described(s, text) for n, s in subs.items()} if key == "properties" else subs
        else:
            out[key] = value
    return out


def family_defs(group: Group) -> dict[str, Any]:
    """The named types a group becomes: `G<n>` (the wrapper) and its moved subschemas."""
    nodes = dict(subschemas(group.schema))
    moved = _moved(nodes)
    stem = group.type_name
    names = {path: f"{stem}V" for path in moved if not path}
    names.update({path: f"{stem}D{k}" for k, path in enumerate(p for p in moved if p)})
    defs: dict[str, Any] = {}
    for path in moved:
        name = names[path]
        converted = _convert(names, path, nodes[path], named=True)
        text = f"Subschema {_pointer(path)} of test group {group.number} ({group.source}.json)."
        defs.update(_named(name, text, converted))
    wrapper = {
        "title": stem,
        "description": f"Test group {group.number} ({group.source}.json): its schema is the value's.",
        "type": "object",
        "properties": {"value": _described(_convert(names, (), group.schema), "The value the test judges.")},
        "required": ["value"],
    }
    return {stem: wrapper, **defs}


def _named(name: str, text: str, schema: Any) -> dict[str, Any]:
    """The named types a moved subschema becomes. One with `properties` and no `type` (which lint asks
    of a class: `"type": "object"`) is split, exactly: S is (object and S) or (not object and S
    without its object keywords, which say nothing of other values)."""
    if not isinstance(schema, dict):
        return {name: schema}
    if "properties" not in schema or "type" in schema:
        return {name: {"title": name, "description": text, **schema}}
    rest = {k: v for k, v in schema.items() if k not in OBJECT_KEYWORDS and k != "description"}
    return {
        name: {
            "title": name,
            "description": text,
            "anyOf": [{"$ref": f"#/$defs/{name}Object"}, {"not": {"type": "object"}, **rest}],
        },
        f"{name}Object": {"title": f"{name}Object", "description": text, "type": "object", **schema},
    }


def payload(data: Any) -> dict[str, Any]:
    """What a test's data is judged as: the value of the wrapper type."""
    return {"value": data}


def write_family(root: Path, defs: dict[str, Any]) -> None:
    """Write the family `suite` (one file and its VERSION) holding `defs` under `root`/schemas."""
    folder = root / "schemas" / FAMILY
    folder.mkdir(parents=True, exist_ok=True)
    doc = {
        "$schema": DRAFT,
        "$id": expected_id(FAMILY, FILE),
        "description": "The JSON-Schema-Test-Suite's groups and the project's traps, one type per group.",
        "$defs": defs,
    }
    (folder / FILE).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "VERSION").write_text("1.0.0\n", encoding="utf-8")


def lint_problems(root: Path, defs: dict[str, Any]) -> list[SchemaProblem]:
    """What loading and lint say of a family holding `defs` alone (written under `root`)."""
    write_family(root, defs)
    files, problems = load_schemas(root)
    return problems or lint(files)
