"""A hostile schema author: every string a schema can hold, slot by slot, with strings made to break
out of a Python literal, a docstring, a JS string, a comment, a template or a Markdown table.

For each, generation either refuses with one lint line (file, JSON location, rule) or produces a
Python package and an npm package that import, give jsonschema's verdict on payloads that use the
value, and run nothing: a sentinel file that an escaped payload would create never appears.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codegen.cache import CACHE_DIR, Cache
from codegen.generate import build, read_tree, validation_keys, verify, write_tree
from codegen.layout import copy_runtime
from codegen.lint import lint
from codegen.load import load_schemas
from codegen.typescript import node_modules
from tests.codegen_cli import run_codegen, start_from_warm_cache
from tests.node import HERE, run_node, tsc

ROOT = Path(__file__).parent.parent
DRAFT = "https://json-schema.org/draft/2020-12/schema"
SENTINEL = "PWNED-chatschema"

# Strings that close or escape a Python/JS literal, a docstring, a JSDoc comment, a template, a
# Markdown code span or table cell, or that are easy to mangle (backslashes, non-BMP characters).
HOSTILE = [
    'a"""b',
    "a'''b",
    "back\\slash\\",
    "new\nline",
    "*/ closes a comment /*",
    "${x} `${y}`",
    "{{ x }} {% if x %}",
    "`tick` ``two``",
    "😀 smile",
    "</script><script>alert(1)</script>",
    "|pipe| & amp",
    f'text""" + __import__("os").system("touch {SENTINEL}") + """',
    f"text''' + __import__('os').system('touch {SENTINEL}') + '''",
    f"');require('fs').writeFileSync('{SENTINEL}','x');//",
    f'"+require("fs").writeFileSync("{SENTINEL}","x")+"',
]
# Values only (const, enum, default): characters no name or description may hold, but a value may.
HOSTILE_VALUES = [*HOSTILE, "sep\u2028x\u2029y\u0085z", "nul\x00tab\tesc\x1b"]
# Property names that are Python keywords, shadow what generated modules import, or are reserved
# by Pydantic: datamodel-codegen maps them to aliased fields.
ODD_NAMES = [
    "class", "def", "import", "return", "None", "str", "int", "Field", "Literal", "Any", "json", "schema",
    "copy", "dict", "validate", "model_config", "model_dump", "model_fields", "__init__", "__class__",
    "_private", "1abc", "a-b", "delete", "function", "new", "this", "typeof",
]  # fmt: skip


def _escape_regex(text: str) -> str:
    return "".join("\\" + ch if ch in "\\^$.|?*+()[]{}/" else ch for ch in text)


def hostile_family() -> dict[str, Any]:
    """One schema file that puts every hostile string in every slot a valid schema allows."""

    def text(h: str) -> str:  # descriptions must be printable (lint); values need not be
        return h if h.isprintable() else repr(h)

    branches = {
        f"B{i}": {
            "title": f"B{i}",
            "description": f"Branch {text(h)}",
            "type": "object",
            "required": ["kind"],
            "properties": {
                "kind": {"description": f"The tag {text(h)}", "type": "string", "const": h},
                "choice": {"description": text(h), "type": "string", "enum": HOSTILE_VALUES, "default": h},
                "fixed": {"description": text(h), "const": h},
                "pat": {"description": text(h), "type": "string", "pattern": "^" + _escape_regex(h)},
            },
        }
        for i, h in enumerate(HOSTILE_VALUES)
    }
    names = {name: {"description": f"Odd name {name}", "type": "string"} for name in [*HOSTILE, *ODD_NAMES]}
    return {
        "$schema": DRAFT,
        "$id": "https://chatschema.dev/schemas/evil/things.json",
        "description": "A hostile family: " + " ".join(HOSTILE),
        "$defs": {
            "Thing": {
                "title": "Thing",
                "description": "A union over hostile tags: " + " ".join(HOSTILE),
                "type": "object",
                "oneOf": [{"$ref": f"#/$defs/{name}"} for name in branches],
                "discriminator": {"propertyName": "kind"},
            },
            **branches,
            "Names": {
                "title": "Names",
                "description": "Properties with hostile and reserved names.",
                "type": "object",
                "properties": names,
            },
            "Emoji": {
                "title": "Emoji",
                "description": "A non-BMP pattern.",
                "type": "object",
                "properties": {
                    "s": {"description": "Starts with a smile.", "type": "string", "pattern": "^😀"},
                    "not a name": {
                        "description": "Not a Python name, so a functional TypedDict.",
                        "type": "string",
                        "pattern": "^😀",
                    },
                },
            },
        },
    }


def _write_family(root: Path, family: str, files: dict[str, dict[str, Any]]) -> None:
    folder = root / "schemas" / family
    folder.mkdir(parents=True, exist_ok=True)
    for name, doc in files.items():
        (folder / name).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "VERSION").write_text("1.0.0\n", encoding="utf-8")  # every family declares its version


def _codegen(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # run from the scratch repository: a sentinel written relative to the working directory lands there
    return run_codegen(root, *args, cwd=root)


@pytest.fixture(scope="module")
def evil(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository holding only the hostile family (and the runtime), generated once."""
    root = tmp_path_factory.mktemp("evil")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    copy_runtime({"evil"}, root)
    _write_family(root, "evil", {"things.json": hostile_family()})
    proc = _codegen(root, "generate")
    assert proc.returncode == 0, proc.stderr
    return root


def _payloads() -> list[tuple[str, Any]]:
    cases: list[tuple[str, Any]] = []
    for h in HOSTILE_VALUES:
        cases += [
            ("evil/Thing", {"kind": h, "choice": h, "fixed": h, "pat": h + " and more"}),
            ("evil/Thing", {"kind": h, "pat": "x" + h}),  # pattern anchored at the start: invalid
            ("evil/Thing", {"kind": h, "fixed": h + "!"}),  # const: invalid
            ("evil/Thing", {"kind": h, "choice": h + "!"}),  # not an enum value: invalid
            ("evil/Thing", {"kind": h + "!"}),  # unknown tag: invalid
        ]
    names = [*HOSTILE, *ODD_NAMES]
    cases += [
        ("evil/Names", {name: f"value of {name}" for name in names}),
        *[("evil/Names", {name: 5}) for name in names],
        ("evil/Names", {"class_": 5, "field_1abc": 5, "a_b": 5}),  # Python field names are unknown keys
        ("evil/Emoji", {"s": "😀 smile", "not a name": "😀 smile", "other": 1}),
        ("evil/Emoji", {"s": "no smile 😀"}),
        ("evil/Emoji", {"not a name": "no smile 😀"}),
    ]
    return cases


_PYTHON_SIDES = """
import json, sys
from pydantic import TypeAdapter
from chatschema import schemas
import chatschema.evil as models
import chatschema.evil.typeddicts as typeddicts

out = []
for name, payload in json.load(sys.stdin):
    type_name = name.split("/")[1]
    row = {"schema": not schemas.violations(payload, name)}
    for side, tp in (("pydantic", getattr(models, type_name)), ("typeddict", getattr(typeddicts, type_name))):
        adapter = TypeAdapter(tp)
        try:
            parsed = adapter.validate_python(payload)
            row[side] = True
            dumped = adapter.dump_python(parsed, mode="json", by_alias=True, exclude_unset=True)
            row[side + "-roundtrip"] = dumped == payload
        except Exception:
            row[side] = False
    if type_name == "Thing":
        try:
            models.parse_thing_json(json.dumps(payload))
            row["parse_json"] = True
        except ValueError:
            row["parse_json"] = False
    out.append(row)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def python_rows(evil: Path) -> list[dict[str, bool]]:
    """Every side's verdict on every payload, from the generated Python package in its own process."""
    proc = subprocess.run(
        [sys.executable, "-c", _PYTHON_SIDES],
        input=json.dumps(_payloads()),
        env={**os.environ, "PYTHONPATH": str(evil)},
        cwd=evil,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    rows: list[dict[str, bool]] = json.loads(proc.stdout)
    return rows


def test_hostile_strings_generate_a_package_that_agrees_with_jsonschema(
    evil: Path, python_rows: list[dict[str, bool]]
) -> None:
    rows = python_rows
    for (name, payload), row in zip(_payloads(), rows, strict=True):
        verdict = row["schema"]
        assert row["pydantic"] == verdict and row["typeddict"] == verdict, (name, payload, row)
        assert row.get("parse_json", verdict) == verdict, (name, payload, row)
        if verdict:
            assert row["pydantic-roundtrip"] and row["typeddict-roundtrip"], (name, payload, row)
    valid = sum(row["schema"] for row in rows)
    assert 0 < valid < len(rows)  # both verdicts are exercised
    assert not (evil / SENTINEL).exists() and not (ROOT / SENTINEL).exists()


def test_hostile_strings_reach_node_as_values(evil: Path, python_rows: list[dict[str, bool]]) -> None:
    cases = _payloads()
    out = run_node(
        HERE / "entry.cjs",
        {"package": str(evil / "npm"), "cases": [{"schema": s, "payload": p} for s, p in cases]},
    )
    for (name, payload), node, py in zip(cases, out, python_rows, strict=True):
        assert node["valid"] == py["schema"], (name, payload, node)
    assert not (evil / SENTINEL).exists()


def test_hostile_strings_type_check_in_typescript(evil: Path) -> None:
    consumer = evil / "consumer.ts"
    consumer.write_text(
        f'import type {{ evil }} from "{evil / "npm" / "index"}";\n'
        + "".join(
            f"export const v{i}: evil.Thing = {json.dumps({'kind': h}, ensure_ascii=True)};\n"
            for i, h in enumerate(HOSTILE_VALUES)
        ),
        encoding="utf-8",
    )
    # the package's dependencies (ajv, for createAjv's type), found as an installed package would find them
    modules = evil / "node_modules"
    if not modules.exists():
        modules.symlink_to(node_modules(), target_is_directory=True)
    proc = tsc("--strict", "--noEmit", "--target", "es2022", "--module", "commonjs", "consumer.ts", cwd=evil)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hostile_strings_stay_text_in_docs(evil: Path) -> None:
    page = (evil / "generated" / "docs" / "evil.md").read_text(encoding="utf-8")
    prose = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", page)  # code spans show HTML as text anyway
    assert "<script" not in prose and "</script" not in prose
    for line in page.splitlines():
        if line.startswith("| `") and "Odd name" in line:
            # a property row: exactly 8 unescaped cell separators, whatever the name or description holds
            assert line.replace("\\|", "").count("|") == 8, line


def test_hostile_strings_in_python_source_are_literals(evil: Path) -> None:
    init = (evil / "chatschema" / "evil" / "__init__.py").read_text(encoding="utf-8")
    assert "__import__" in init  # the tag is shown in the docstring...
    tree = ast.parse(init)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "__import__"]
    assert calls == []  # ...but never becomes code


# --- what lint refuses ---------------------------------------------------------------------------

BASE = {
    "$schema": DRAFT,
    "$id": "https://chatschema.dev/schemas/evil/things.json",
    "$defs": {
        "Thing": {
            "title": "Thing",
            "description": "A thing.",
            "type": "object",
            "properties": {"x": {"description": "An x.", "type": "string"}},
        }
    },
}


def _variant(change: Any) -> dict[str, dict[str, Any]]:
    doc = json.loads(json.dumps(BASE))
    extra = change(doc) or {}
    return {"things.json": doc, **extra}


def _other(defs: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": DRAFT, "$id": "https://chatschema.dev/schemas/evil/other.json", "$defs": defs}


def _prop(name: str) -> Any:
    return lambda d: d["$defs"]["Thing"]["properties"].update({name: {"description": "p", "type": "string"}})


def _thing(**kw: Any) -> Any:
    return lambda d: d["$defs"]["Thing"].update(kw)


def _x(**kw: Any) -> Any:
    return lambda d: d["$defs"]["Thing"]["properties"]["x"].update(kw)


REFUSED: dict[str, tuple[Any, str, str]] = {
    "property-MISSING": (_prop("MISSING"), "/$defs/Thing/properties/MISSING", "reserved-property"),
    "property-empty": (_prop(""), "/$defs/Thing/properties/", "reserved-property"),
    "property-constructor": (_prop("constructor"), "/$defs/Thing/properties/constructor", "reserved-property"),
    "property-__proto__": (_prop("__proto__"), "/$defs/Thing/properties/__proto__", "reserved-property"),
    "property-toString": (_prop("toString"), "/$defs/Thing/properties/toString", "reserved-property"),
    "property-line-separator": (_prop("a\u2028b"), "/$defs/Thing/properties/a\u2028b", "unprintable"),
    "description-nul": (_x(description="a\x00b"), "/$defs/Thing/properties/x/description", "unprintable"),
    "description-paragraph-separator": (_thing(description="a\u2029b"), "/$defs/Thing/description", "unprintable"),
    "self-ref": (
        lambda d: d["$defs"].update({"Loop": {"title": "Loop", "description": "l", "$ref": "#/$defs/Loop"}}),
        "/$defs/Loop/$ref",
        "ref-cycle",
    ),
    "ref-cycle-across-files": (
        lambda d: (
            d["$defs"].update({"C1": {"title": "C1", "description": "c", "$ref": "other.json#/$defs/C2"}}),
            {
                "other.json": _other(
                    {"C2": {"title": "C2", "description": "c", "allOf": [{"$ref": "things.json#/$defs/C1"}]}}
                )
            },
        )[1],
        "/$defs/C1/$ref",
        "ref-cycle",
    ),
    "dynamic-ref": (_x(**{"$dynamicRef": "#node"}), "/$defs/Thing/properties/x/$dynamicRef", "unsupported"),
    "recursive-ref": (_x(**{"$recursiveRef": "#"}), "/$defs/Thing/properties/x/$recursiveRef", "unsupported"),
    "pattern-not-python": (_x(pattern="\\p{L}"), "/$defs/Thing/properties/x/pattern", "pattern-invalid"),
    "pattern-not-ecmascript": (_x(pattern="(?i)^abc"), "/$defs/Thing/properties/x/pattern", "pattern-invalid"),
    "pattern-broken": (_x(pattern="^(abc"), "/$defs/Thing/properties/x/pattern", "pattern-invalid"),
    # catastrophic backtracking: 28 a's and a '!' took 22 s in python-jsonschema, doubling per character
    "pattern-redos-nested": (_x(pattern="^(a+)+b"), "/$defs/Thing/properties/x/pattern", "pattern-redos"),
    "pattern-redos-overlap": (_x(pattern="^(a|a)*b"), "/$defs/Thing/properties/x/pattern", "pattern-redos"),
    "type-name-Field": (
        lambda d: d["$defs"].update({"Field": {"title": "Field", "description": "f", "type": "string"}}),
        "/$defs/Field",
        "type-name",
    ),
    "type-name-Object": (
        lambda d: d["$defs"].update({"Object": {"title": "Object", "description": "o", "type": "object"}}),
        "/$defs/Object",
        "type-name",
    ),
    "keyword-x-python-type": (_x(**{"x-python-type": "Any"}), "/$defs/Thing/properties/x/x-python-type", "unsupported"),
    "keyword-customTypePath": (_x(customTypePath="this.s"), "/$defs/Thing/properties/x/customTypePath", "unsupported"),
    "keyword-unevaluatedProperties": (
        _x(unevaluatedProperties=False),
        "/$defs/Thing/properties/x/unevaluatedProperties",
        "unsupported",
    ),
    "keyword-dynamicRef": (_x(**{"$dynamicRef": "#a"}), "/$defs/Thing/properties/x/$dynamicRef", "unsupported"),
    "keyword-anchor": (_x(**{"$anchor": "a"}), "/$defs/Thing/properties/x/$anchor", "unsupported"),
    "inline-object": (
        _x(type="object", properties={"q": {"description": "q", "type": "string"}}),
        "/$defs/Thing/properties/x/properties",
        "inline",
    ),
    "inline-title": (_x(title="Record"), "/$defs/Thing/properties/x/title", "inline"),
    "embedded-id": (
        _x(**{"$id": "https://chatschema.dev/schemas/evil/b.json"}),
        "/$defs/Thing/properties/x/$id",
        "inline",
    ),
    "whole-float-step": (_x(multipleOf=2.0), "/$defs/Thing/properties/x/multipleOf", "step-form"),
    "empty-enum": (_x(enum=[]), "/$defs/Thing/properties/x/enum", "empty-enum"),
    "required-prototype-name": (
        _x(type="object", required=["constructor"]),
        "/$defs/Thing/properties/x",
        "reserved-property",
    ),
    "dependent-prototype-name": (
        _x(type="object", dependentRequired={"a": ["toString"]}),
        "/$defs/Thing/properties/x",
        "reserved-property",
    ),
    "object-type": (
        lambda d: d["$defs"].update({"Loose": {"title": "Loose", "description": "l", "properties": {}}}),
        "/$defs/Loose",
        "object-type",
    ),
    "format-email": (_x(type="string", format="email"), "/$defs/Thing/properties/x/format", "format"),
    "pattern-property-dot": (
        _x(patternProperties={"^a.b": {}}),
        "/$defs/Thing/properties/x/patternProperties/^a.b",
        "pattern-portable",
    ),
    "ref-percent-encoded": (
        lambda d: d["$defs"]["Thing"]["properties"].update({"y": {"description": "y", "$ref": "#/$defs/%54hing"}}),
        "/$defs/Thing/properties/y/$ref",
        "ref-form",
    ),
    "pattern-dot": (_x(pattern="^a.b"), "/$defs/Thing/properties/x/pattern", "pattern-portable"),
    "pattern-class-set-operation": (_x(pattern="^[a-c--b]"), "/$defs/Thing/properties/x/pattern", "pattern-portable"),
    "tag-not-a-python-name": (
        lambda d: d["$defs"].update(
            {
                "U": {
                    "title": "U",
                    "description": "u",
                    "type": "object",
                    "oneOf": [{"$ref": "#/$defs/V"}],
                    "discriminator": {"propertyName": "a-b"},
                },
                "V": {
                    "title": "V",
                    "description": "v",
                    "type": "object",
                    "required": ["a-b"],
                    "properties": {"a-b": {"description": "tag", "type": "string", "const": "v"}},
                },
            }
        ),
        "/$defs/U/discriminator/propertyName",
        "tag-name",
    ),
    "type-name-family-map": (
        lambda d: d["$defs"].update({"EvilSchemas": {"title": "EvilSchemas", "description": "e", "type": "object"}}),
        "/$defs/EvilSchemas",
        "type-name",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_lint_refuses_with_file_location_and_rule(tmp_path: Path, case: str) -> None:
    change, location, rule = REFUSED[case]
    _write_family(tmp_path, "evil", _variant(change))
    files, problems = load_schemas(tmp_path)
    lines = [str(p) for p in problems + lint(files)]
    assert any(
        line.startswith("schemas/evil/") and f": {location}: " in line and line.endswith(f"[{rule}]") for line in lines
    ), lines


@pytest.mark.parametrize(
    ("family", "file", "rule"),
    [
        ("index", "things.json", "family-name"),
        ("class", "things.json", "family-name"),
        ("schemas", "things.json", "family-name"),
        ("validate", "things.json", "family-name"),
        ("core", "things.json", "family-name"),  # npm/esm/core.js
        ("stream", "things.json", "family-name"),
        ("evil", "__init__.json", "file-name"),
        ("evil", "class.json", "file-name"),
        ("evil", "_private.json", "file-name"),
    ],
)
def test_names_that_cannot_name_a_module_are_refused(tmp_path: Path, family: str, file: str, rule: str) -> None:
    doc = json.loads(json.dumps(BASE))
    doc["$id"] = f"https://chatschema.dev/schemas/{family}/{file}"
    _write_family(tmp_path, family, {file: doc})
    _, problems = load_schemas(tmp_path)
    assert [(p.file, p.rule) for p in problems] == [(f"schemas/{family}/{file}", rule)], problems


def test_refused_schema_leaves_generated_untouched(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    _write_family(tmp_path, "evil", _variant(lambda d: None))
    assert _codegen(tmp_path, "generate").returncode == 0
    before = read_tree(tmp_path)
    _write_family(tmp_path, "evil", _variant(REFUSED["self-ref"][0]))
    proc = _codegen(tmp_path, "generate")
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[0].startswith("schemas/evil/things.json: /$defs/Loop/$ref: $ref cycle Loop -> Loop")
    assert proc.stderr.splitlines()[0].endswith("[ref-cycle]")
    assert "Traceback" not in proc.stderr
    assert read_tree(tmp_path) == before


# --- a tree that does not work is never written ------------------------------------------------------


def _copy_generated(dest: Path) -> dict[str, bytes]:
    """This checkout's generated files, written under `dest`; returns them as read back."""
    for rel, data in read_tree(ROOT).items():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_bytes(data)
    return read_tree(dest)


def test_a_tree_that_does_not_import_is_not_written(tmp_path: Path) -> None:
    before = _copy_generated(tmp_path)
    broken = dict(before)
    broken["chatschema/swarm/models/agent.py"] = (
        before["chatschema/swarm/models/agent.py"] + b"\nraise TypeError('boom')\n"
    )
    with pytest.raises(RuntimeError) as info:
        write_tree(tmp_path, broken, verify=lambda staging: verify(ROOT, staging))
    assert "chatschema/swarm/models/agent.py:" in str(info.value) and "TypeError: boom" in str(info.value)
    assert read_tree(tmp_path) == before


def test_a_tree_whose_schemas_contradict_the_vectors_is_not_written(tmp_path: Path, codegen_cache: Path) -> None:
    start_from_warm_cache(tmp_path, codegen_cache)  # only the edited family is generated again
    for name in ("schemas", "tests"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    _copy_generated(tmp_path)
    path = tmp_path / "schemas" / "swarm" / "tool.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    tool = "ITool"
    doc["$defs"][tool]["additionalProperties"] = False
    doc["$defs"][tool]["required"] = [*doc["$defs"][tool].get("required", []), "never_sent"]
    doc["$defs"][tool]["properties"]["never_sent"] = {"description": "A key no vector has.", "type": "string"}
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    before = read_tree(tmp_path)
    proc = _codegen(tmp_path, "generate")
    assert proc.returncode == 1, proc.stdout
    assert "the generated package does not work" in proc.stderr
    assert f"  schemas/swarm/examples/{tool}/valid/" in proc.stderr
    assert (
        f"swarm/{tool}: this valid example is invalid under the new schema: $: 'never_sent' is a required property"
        in proc.stderr
    )
    assert "generated files left unchanged" in proc.stderr
    assert read_tree(tmp_path) == before


def test_hand_written_files_are_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "chatschema").mkdir()
    (tmp_path / "chatschema" / "cli.py").write_text("# hand-written\n", encoding="utf-8")
    for rel in ("chatschema/cli.py", "../outside.py", "elsewhere/x.py"):
        with pytest.raises(RuntimeError, match="refusing to"):
            write_tree(tmp_path, {rel: b"# Generated by chatschema codegen\n"})
    assert (tmp_path / "chatschema" / "cli.py").read_text(encoding="utf-8") == "# hand-written\n"


def test_generated_files_no_build_makes_are_removed_and_hand_written_ones_kept(tmp_path: Path) -> None:
    before = _copy_generated(tmp_path)
    (tmp_path / "chatschema" / "cli.py").write_text("# hand-written\n", encoding="utf-8")
    stale = "chatschema/gone/models/x.py"
    (tmp_path / stale).parent.mkdir(parents=True)
    (tmp_path / stale).write_bytes(b"# Generated by chatschema codegen from schemas/gone/: do not edit.\n")
    assert stale in read_tree(tmp_path) and "chatschema/cli.py" not in read_tree(tmp_path)
    write_tree(tmp_path, before)
    assert read_tree(tmp_path) == before
    assert not (tmp_path / "chatschema" / "gone").exists()
    assert (tmp_path / "chatschema" / "cli.py").read_text(encoding="utf-8") == "# hand-written\n"


def test_a_schema_that_is_not_a_schema_gets_lines_not_a_traceback(tmp_path: Path) -> None:
    doc = json.loads(json.dumps(BASE))
    doc["$defs"]["Thing"]["properties"] = [1]
    doc["$defs"]["Other"] = True
    _write_family(tmp_path, "evil", {"things.json": doc})
    files, problems = load_schemas(tmp_path)
    lines = [str(p) for p in problems + lint(files)]
    assert lines and all("not a valid 2020-12 schema" in line for line in lines), lines


def test_what_is_not_a_schema_file_in_a_family_folder_is_refused(tmp_path: Path) -> None:
    _write_family(tmp_path, "evil", _variant(lambda d: None))
    folder = tmp_path / "schemas" / "evil"
    (folder / "sub").mkdir()
    (folder / "sub" / "y.json").write_text("{}")  # datamodel-codegen would read it; lint would not
    (folder / "dir.json").mkdir()
    (folder / "link.json").symlink_to(folder / "things.json")
    os.mkfifo(folder / "fifo.json")  # reading it would block forever
    (folder / "notes.txt").write_text("x")
    (folder / "VERSION").write_text("1.0.0\n")  # the family's version: allowed
    _, problems = load_schemas(tmp_path)
    assert sorted((p.file, p.rule) for p in problems) == [
        (f"schemas/evil/{name}", "stray-file") for name in ("dir.json", "fifo.json", "link.json", "notes.txt", "sub")
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"$defs": {"X": {"maximum": 1e400}}}', "invalid JSON: 1e400 is beyond a double"),
        ('{"$defs": ' + '{"a": ' * 70 + "1" + "}" * 71, "nested deeper than 64 levels"),
    ],
)
def test_numbers_and_nesting_no_reader_agrees_on_are_refused(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "schemas" / "evil").mkdir(parents=True)
    (tmp_path / "schemas" / "evil" / "things.json").write_text(text)
    _, problems = load_schemas(tmp_path)
    assert len(problems) == 1 and message in str(problems[0]), problems


# --- the cache is code: only this user's signed entries are used -----------------------------------


def test_planted_or_tampered_cache_entries_are_rebuilt(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    _write_family(tmp_path, "evil", _variant(lambda d: None))
    cache = Cache(tmp_path / CACHE_DIR, key=b"k" * 32)
    clean = build(tmp_path, cache)
    (entry,) = (tmp_path / CACHE_DIR).glob("py-evil-*.json")
    stored = json.loads(entry.read_text(encoding="utf-8"))
    # another key (a planted entry), a changed file, a path leaving the tree: each is a miss
    other = Cache(tmp_path / CACHE_DIR, key=b"x" * 32)
    assert other.get(entry.name.split("-", 2)[0] + "-evil", entry.stem.rsplit("-", 1)[1]) is None
    tampered = dict(stored["files"])
    model = next(p for p in tampered if p.endswith("models/things.py"))
    tampered[model] += "\nimport os; os.system('touch PWNED')\n"
    entry.write_text(json.dumps({"files": tampered, "hmac": stored["hmac"]}), encoding="utf-8")
    assert build(tmp_path, cache) == clean
    escaping = {**stored["files"], "chatschema/evil/../../../escaped.py": "x = 1\n"}
    unit, key = "py-evil", entry.stem.rsplit("-", 1)[1]
    signed = cache._sign(unit, key, escaping)
    entry.write_text(json.dumps({"files": escaping, "hmac": signed}), encoding="utf-8")
    assert cache.get(unit, key, ("chatschema/evil/", "chatschema/schemas/evil/")) is None
    assert build(tmp_path, cache) == clean
    assert not (tmp_path.parent / "escaped.py").exists() and not (tmp_path / "PWNED").exists()


def test_an_npm_package_that_does_not_load_is_not_written(tmp_path: Path) -> None:
    before = _copy_generated(tmp_path)
    broken = dict(before)
    broken["npm/index.js"] = before["npm/index.js"] + b"\nthrow new Error('boom');\n"
    with pytest.raises(RuntimeError) as info:
        write_tree(tmp_path, broken, verify=lambda staging: verify(ROOT, staging))
    assert "npm/index.js: cannot be loaded: boom" in str(info.value)
    assert read_tree(tmp_path) == before


# --- the largest schema the generator takes --------------------------------------------------------


def _sized_family(properties: int, ring: int, branches: int) -> dict[str, Any]:
    """One type of `properties` properties, a ring of `ring` types, a union of `branches` branches."""
    defs: dict[str, Any] = {
        "Wide": {
            "title": "Wide",
            "description": "Many properties.",
            "type": "object",
            "properties": {f"p{i}": {"description": "A property.", "type": "string"} for i in range(properties)},
        }
    }
    for i in range(ring):
        defs[f"Ring{i}"] = {
            "title": f"Ring{i}",
            "description": "One type of a ring.",
            "type": "object",
            "properties": {"next": {"description": "The next.", "$ref": f"#/$defs/Ring{(i + 1) % ring}"}},
        }
    for i in range(branches):
        defs[f"Branch{i}"] = {
            "title": f"Branch{i}",
            "description": "A branch.",
            "type": "object",
            "properties": {"kind": {"description": "The tag.", "const": f"k{i}"}},
            "required": ["kind"],
        }
    defs["Many"] = {
        "title": "Many",
        "description": "A union of many branches.",
        "type": "object",
        "discriminator": {"propertyName": "kind"},
        "oneOf": [{"$ref": f"#/$defs/Branch{i}"} for i in range(branches)],
    }
    return {"$schema": DRAFT, "$id": "https://chatschema.dev/schemas/evil/things.json", "$defs": defs}


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        (
            (1001, 2, 2),
            "schemas/evil/things.json: /$defs/Wide: 1001 properties; the generator takes at most 1000 [limits]",
        ),
        (
            (1, 101, 2),
            "schemas/evil/things.json: /$defs/Ring0: its $refs lead 101 named types deep; the generator follows at most 100 [limits]",
        ),
        (
            (1, 2, 257),
            "schemas/evil/things.json: /$defs/Many: a union of 257 branches; the generator takes at most 256 [limits]",
        ),
    ],
)
def test_beyond_the_generator_s_limits_is_one_line(tmp_path: Path, sizes: tuple[int, int, int], expected: str) -> None:
    _write_family(tmp_path, "evil", {"things.json": _sized_family(*sizes)})
    files, problems = load_schemas(tmp_path)
    assert [str(p) for p in problems + lint(files)] == [expected]


def test_a_family_at_every_limit_generates(tmp_path: Path) -> None:
    """Inside the limits nothing overflows a stack, in Python or in Node (5,000 properties or a ring of
    300 types once ended in a RangeError of ajv's standalone step, naming no schema)."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    _write_family(tmp_path, "evil", {"things.json": _sized_family(1000, 100, 256)})
    proc = _codegen(tmp_path, "generate", "--no-cache")
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_an_es_module_that_lacks_an_export_is_not_written_when_its_family_is_verified(tmp_path: Path) -> None:
    before = _copy_generated(tmp_path)
    broken = dict(before)
    broken["npm/esm/swarm.js"] = before["npm/esm/swarm.js"].replace(b'export const version = "', b'const version = "')
    with pytest.raises(RuntimeError) as info:
        write_tree(tmp_path, broken, verify=lambda staging: verify(ROOT, staging, families={"swarm"}))
    assert "npm/esm/swarm.js: lacks version of swarm.js" in str(info.value)
    assert read_tree(tmp_path) == before
    # verifying another family leaves swarm's modules alone, as the Python side leaves its imports
    write_tree(tmp_path, broken, verify=lambda staging: verify(ROOT, staging, families={"bridgic"}))
    assert read_tree(tmp_path)["npm/esm/swarm.js"] == broken["npm/esm/swarm.js"]


def test_a_bundle_that_needs_the_schema_files_is_not_written(tmp_path: Path) -> None:
    before = _copy_generated(tmp_path)
    bundle = json.loads(before["npm/schemas/swarm.bundle.json"])
    # resolves only where the files are loaded too: a bundle must stand alone
    bundle["$defs"]["BaseMessageRole"] = {
        "$ref": "https://chatschema.dev/schemas/swarm/message.json#/$defs/BaseMessageRole"
    }
    broken = {**before, "npm/schemas/swarm.bundle.json": (json.dumps(bundle, indent=2) + "\n").encode()}
    with pytest.raises(RuntimeError) as info:
        write_tree(tmp_path, broken, verify=lambda staging: verify(ROOT, staging, families={"swarm"}))
    assert "npm: schemas (bundle): ajv cannot compile them" in str(info.value)
    assert read_tree(tmp_path) == before


def test_what_reads_only_validity_is_proven_again_whenever_the_schemas_validate_differently(tmp_path: Path) -> None:
    """A family whose shipped schemas compiled and gave every example its verdict once is not proven
    so again while they differ only in annotations (a description); any other change is, and that
    proof is what refuses a bundle ajv cannot compile."""
    before = _copy_generated(tmp_path)
    rel = "npm/schemas/swarm.bundle.json"

    def edited(change: Any) -> dict[str, bytes]:
        bundle = json.loads(before[rel])
        change(bundle["$defs"])
        return {**before, rel: (json.dumps(bundle, indent=2) + "\n").encode()}

    described = edited(lambda defs: defs["BaseMessageRole"].update(description="Who wrote it.", title="Role"))
    typed = edited(lambda defs: defs["BaseMessageRole"].update(type=["string", "null"]))
    broken = edited(
        lambda defs: defs.update(
            BaseMessageRole={"$ref": "https://chatschema.dev/schemas/swarm/message.json#/$defs/BaseMessageRole"}
        )
    )
    key = validation_keys(ROOT, before, {"swarm"})
    assert set(key) == {"swarm"}
    assert validation_keys(ROOT, described, {"swarm"}) == key
    assert validation_keys(ROOT, typed, {"swarm"}) != key
    assert validation_keys(ROOT, broken, {"swarm"}) != key
    assert validation_keys(ROOT, broken, {"bridgic"}) == validation_keys(ROOT, before, {"bridgic"})
    # the key stands for the proof: a family given as validated is not compiled (this bundle would fail)
    write_tree(tmp_path, broken, verify=lambda staging: verify(ROOT, staging, families={"swarm"}, validated={"swarm"}))
    assert read_tree(tmp_path)[rel] == broken[rel]
