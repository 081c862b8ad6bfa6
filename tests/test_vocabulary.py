"""The validation vocabulary, keyword by keyword, in a scratch family that uses every keyword.

One family is generated once; for each keyword, payloads at the bound, inside and outside it (and
the traps: emoji for lengths, 0.3 against 0.1, 1 against 1.0, keys in another order) are judged by
jsonschema with the shipped registry, the Pydantic models, the TypedDict adapters, the fast backend
and the npm package's precompiled validators, which must all agree with the verdict written here.
The generated code is read too: native Pydantic constraints where they say exactly the keyword, a
schema check where they cannot, constraints in docstrings, TypeScript comments and reference docs,
and TypeScript tuples for `prefixItems`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codegen.layout import copy_runtime
from tests.codegen_cli import run_codegen
from tests.node import HERE, run_node

ROOT = Path(__file__).parent.parent
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _prop(**schema: Any) -> dict[str, Any]:
    return {"description": "A value.", **schema}


PROPERTIES: dict[str, Any] = {
    "short": _prop(type="string", minLength=1, maxLength=3),
    "maybe": _prop(type=["string", "null"], minLength=2),
    "untyped": _prop(minLength=2, minimum=5),
    "count": _prop(type="integer", minimum=1, exclusiveMaximum=10, multipleOf=2),
    "price": _prop(type="number", multipleOf=0.01, exclusiveMinimum=0, maximum=1000),
    "step": _prop(type="number", multipleOf=0.1),
    "half": _prop(type="number", multipleOf=0.5),
    "big": _prop(type="integer", maximum=9007199254740993),
    "tags": _prop(type="array", items={"type": "string", "minLength": 1}, minItems=1, maxItems=3, uniqueItems=True),
    "anyset": _prop(type="array", uniqueItems=True),
    "pair": _prop(type="array", prefixItems=[{"type": "string"}, {"type": "integer"}], items=False),
    "ints": _prop(type="array", contains={"type": "integer"}, minContains=2, maxContains=3),
    "scores": _prop(
        type="object",
        additionalProperties={"type": "integer"},
        propertyNames={"pattern": "^[a-z]+$", "not": {"pattern": "\\n"}},
        maxProperties=2,
    ),
    "labels": _prop(type="object", patternProperties={"^x-": {"type": "string"}}, minProperties=1),
    "choice": _prop(enum=[1, "a", {"k": [1]}, None]),
    "fixed": _prop(const={"a": 1, "b": [True]}),
    "anything": True,
    "never": False,
    "children": _prop(type="array", items={"$ref": "#/$defs/Node"}),
}
FAMILY = {
    "$schema": DRAFT,
    "$id": "https://chatschema.dev/schemas/vocab/things.json",
    "description": "Every keyword of the validation vocabulary.",
    "$defs": {
        "Node": {
            "title": "Node",
            "description": "A tree of values.",
            "type": "object",
            "properties": PROPERTIES,
            "dependentRequired": {"short": ["count"]},
            "dependentSchemas": {"price": {"required": ["step"]}},
            "if": {"required": ["half"]},
            "then": {"required": ["big"]},
            "else": {"not": {"required": ["big"]}},
        },
        "Plain": {
            "title": "Plain",
            "description": "Only what Pydantic says natively.",
            "type": "object",
            "properties": {"name": _prop(type="string", minLength=1), "n": _prop(type="integer", maximum=3)},
        },
    },
}
EMOJI = "\U0001f600"
COMBINING = "e\u0301"  # two code points, one glyph

# (payload, valid) under vocab/Node, per keyword
CASES: dict[str, list[tuple[Any, bool]]] = {
    "minLength/maxLength": [
        ({"short": "", "count": 2}, False),
        ({"short": "a", "count": 2}, True),
        ({"short": EMOJI * 3, "count": 2}, True),
        ({"short": EMOJI * 4, "count": 2}, False),
        ({"short": COMBINING, "count": 2}, True),
        ({"short": COMBINING * 2, "count": 2}, False),
        ({"maybe": None}, True),
        ({"maybe": EMOJI}, False),
        ({"maybe": EMOJI * 2}, True),
    ],
    "untyped": [({"untyped": "a"}, False), ({"untyped": 4}, False), ({"untyped": [1]}, True), ({"untyped": 5}, True)],
    "integer bounds and multipleOf": [
        ({"count": 0}, False),
        ({"count": 2}, True),
        ({"count": 2.0}, True),
        ({"count": 3}, False),
        ({"count": 8}, True),
        ({"count": 10}, False),
        ({"count": True}, False),
    ],
    "number bounds and steps": [
        ({"price": 0, "step": 0.5}, False),
        ({"price": 0.07, "step": 0.5}, False),  # 0.07 / 0.01 is 7.000000000000001
        ({"price": 0.5, "step": 0.5}, True),
        ({"price": 1000, "step": 0.5}, True),
        ({"price": 1000.01, "step": 0.5}, False),
        ({"step": 0.3}, False),  # 0.3 / 0.1 is 2.9999999999999996
        ({"step": 0.5}, True),
        ({"half": 1e308, "big": 1}, True),
        ({"half": 0.25, "big": 1}, False),
    ],
    "uniqueItems": [
        ({"tags": ["a", "b"]}, True),
        ({"tags": ["a", "a"]}, False),
        ({"tags": []}, False),
        ({"tags": ["a", "b", "c", "d"]}, False),
        ({"tags": [""]}, False),
        ({"anyset": [1, 1.0]}, False),
        ({"anyset": [1, True]}, True),
        ({"anyset": [{"a": 1, "b": 2}, {"b": 2, "a": 1}]}, False),
        ({"anyset": [[1], [1.0]]}, False),
    ],
    "prefixItems": [
        ({"pair": ["a", 1]}, True),
        ({"pair": ["a"]}, True),
        ({"pair": [1]}, False),
        ({"pair": ["a", 1, 2]}, False),
    ],
    "contains": [
        ({"ints": ["a", 1]}, False),
        ({"ints": [1, "a", 2.0]}, True),
        ({"ints": [1, 2, 3, 4]}, False),
    ],
    "objects": [
        ({"scores": {"ab": 1, "cd": 2.0}}, True),
        ({"scores": {"ab": 1.5}}, False),
        ({"scores": {"Ab": 1}}, False),
        ({"scores": {"a": 1, "b": 2, "c": 3}}, False),
        ({"labels": {}}, False),
        ({"labels": {"x-a": "s", "other": 1}}, True),
        ({"labels": {"x-a": 1}}, False),
    ],
    "const and enum": [
        ({"choice": 1.0}, True),
        ({"choice": True}, False),
        ({"choice": {"k": [1.0]}}, True),
        ({"choice": {"k": [2]}}, False),
        ({"choice": None}, True),
        ({"fixed": {"b": [True], "a": 1.0}}, True),
        ({"fixed": {"a": 1, "b": [1]}}, False),
    ],
    "boolean schemas": [({"anything": {"x": [None]}}, True), ({"never": None}, False)],
    "dependencies and conditionals": [
        ({"short": "ab"}, False),
        ({"price": 1, "step": 0.5}, True),
        ({"price": 1}, False),
        ({"half": 1}, False),
        ({"big": 1}, False),
    ],
    "recursion": [
        ({"children": [{"children": [{"short": "ab", "count": 2}]}]}, True),
        ({"children": [{"children": [{"short": ""}]}]}, False),
    ],
}
PLAIN_CASES: list[tuple[Any, bool]] = [
    ({"name": ""}, False),
    ({"name": EMOJI}, True),
    ({"n": 4}, False),
    ({"n": 3.0}, True),
]


def _all_cases() -> list[tuple[str, Any, bool]]:
    return [("vocab/Node", p, v) for cases in CASES.values() for p, v in cases] + [
        ("vocab/Plain", p, v) for p, v in PLAIN_CASES
    ]


@pytest.fixture(scope="module")
def vocab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository holding only the vocabulary family (and the runtime), generated once."""
    root = tmp_path_factory.mktemp("vocab")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    copy_runtime({"vocab"}, root)
    folder = root / "schemas" / "vocab"
    folder.mkdir(parents=True)
    (folder / "things.json").write_text(json.dumps(FAMILY, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "VERSION").write_text("1.0.0\n", encoding="utf-8")
    proc = run_codegen(root, "generate", cwd=root)
    assert proc.returncode == 0, proc.stderr
    return root


_PYTHON_SIDES = """
import json, sys
from pydantic import TypeAdapter
from chatschema import schemas
from chatschema.validate.backends import fast_is_valid
import chatschema.vocab as models
import chatschema.vocab.typeddicts as typeddicts

out = []
for name, payload in json.load(sys.stdin):
    type_name = name.split("/")[1]
    row = {"jsonschema": not schemas.violations(payload, name), "fast": fast_is_valid(name)(payload)}
    for side, tp in (("pydantic", getattr(models, type_name)), ("typeddict", getattr(typeddicts, type_name))):
        try:
            TypeAdapter(tp).validate_python(payload)
            row[side] = True
        except ValueError:
            row[side] = False
    try:
        getattr(models, type_name).model_validate_json(json.dumps(payload))
        row["pydantic-json"] = True
    except ValueError:
        row["pydantic-json"] = False
    out.append(row)
print(json.dumps(out))
"""


def test_every_python_side_gives_each_keywords_verdict(vocab: Path) -> None:
    cases = _all_cases()
    proc = subprocess.run(
        [sys.executable, "-c", _PYTHON_SIDES],
        input=json.dumps([(name, payload) for name, payload, _ in cases]),
        env={**os.environ, "PYTHONPATH": str(vocab)},
        cwd=vocab,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    wrong = [
        (name, payload, side, got)
        for (name, payload, valid), row in zip(cases, json.loads(proc.stdout), strict=True)
        for side, got in row.items()
        if got != valid
    ]
    assert not wrong, wrong


def test_the_npm_validators_give_each_keywords_verdict(vocab: Path) -> None:
    cases = _all_cases()
    out = run_node(
        HERE / "entry.cjs", {"package": str(vocab / "npm"), "cases": [{"schema": s, "payload": p} for s, p, _ in cases]}
    )
    wrong = [
        (name, payload, node) for (name, payload, valid), node in zip(cases, out, strict=True) if node["valid"] != valid
    ]
    assert not wrong, wrong


def test_pydantic_keeps_native_constraints_and_checks_the_rest(vocab: Path) -> None:
    models = (vocab / "chatschema" / "vocab" / "models" / "things.py").read_text(encoding="utf-8")
    plain = models[models.index("class Plain(") :]
    assert "min_length=1" in plain and "le=3" in plain and "conform(" not in plain
    node = models[models.index("class Node(") : models.index("class Plain(")]
    assert 'conform(data, "vocab/Node")' in node
    assert "count: Integer" in node  # 2.0 is an integer
    typeddicts = (vocab / "chatschema" / "vocab" / "typeddicts" / "things.py").read_text(encoding="utf-8")
    assert typeddicts.count("@conforms_to(") == 2  # TypedDicts carry no constraints of their own


def test_constraints_are_written_where_people_read(vocab: Path) -> None:
    note = "Constraints: minLength 1; maxLength 3."
    models = (vocab / "chatschema" / "vocab" / "models" / "things.py").read_text(encoding="utf-8")
    types = (vocab / "npm" / "types" / "vocab.d.ts").read_text(encoding="utf-8")
    docs = (vocab / "generated" / "docs" / "vocab.md").read_text(encoding="utf-8")
    for text in (models, types, docs):
        assert note in text
        assert "uniqueItems" in text and "multipleOf 0.01" in text
    assert "dependentRequired" in docs  # a type's own constraints, under its description


def test_typescript_says_what_types_can_say(vocab: Path) -> None:
    types = (vocab / "npm" / "types" / "vocab.d.ts").read_text(encoding="utf-8")
    assert "pair?: [] | [string] | [string, number];" in types  # prefixItems, items: false
    assert "never?: never;" in types
    assert '"a"' in types and "null" in types  # enum as a literal union
    assert "[k: string]: number" in types  # a map's index signature
