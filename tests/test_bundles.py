"""The family bundles and the schema index: self-contained, complete, and the same verdicts as the files.

Node's side (ajv over the bundles) is checked with every vector in tests/test_typescript.py.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from chatschema import schemas
from tests.node import PACKAGE, ajv_verdicts
from tests.vectors import Vector, all_vectors

ROOT = Path(__file__).parent.parent
GENERATED = ROOT / "generated" / "schemas"
INDEX = json.loads((GENERATED / "index.json").read_text(encoding="utf-8"))
VECTORS = all_vectors()


def _load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


@cache
def bundle(family: str) -> dict[str, Any]:
    return _load(GENERATED / f"{family}.bundle.json")


@cache
def bundle_validator(name: str) -> Draft202012Validator:
    """A validator over the bundle alone: no registry, so any reference outside it would fail."""
    family, type_name = name.split("/")
    return Draft202012Validator(
        {**bundle(family), "$ref": f"#/$defs/{type_name}"}, format_checker=schemas.FORMAT_CHECKER
    )


@pytest.mark.parametrize("family", schemas.families())
def test_bundle_is_self_contained(family: str) -> None:
    doc = bundle(family)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert doc["$id"] == f"https://chatschema.dev/schemas/{family}.bundle.json"
    names = {n.split("/")[1] for n in schemas.names() if n.startswith(f"{family}/")}
    assert set(doc["$defs"]) == names
    for ref in schemas.refs(doc):
        assert ref.startswith("#/$defs/"), ref
        assert ref.removeprefix("#/$defs/") in doc["$defs"], ref
    Draft202012Validator.check_schema(doc)


def test_index_lists_every_schema() -> None:
    assert sorted(INDEX["schemas"]) == schemas.names()
    for name, entry in INDEX["schemas"].items():
        family, type_name = name.split("/")
        assert entry["$id"] == schemas.schema_id(name)
        source = _load(ROOT / entry["file"])
        assert type_name in source["$defs"] and entry["$id"].startswith(source["$id"] + "#")
        path, _, pointer = entry["bundle"].partition("#")
        assert pointer == f"/$defs/{type_name}"
        assert type_name in _load(ROOT / "generated" / path)["$defs"]
        assert entry["bundle_id"] == f"{bundle(family)['$id']}#/$defs/{type_name}"
    assert sorted(INDEX["families"]) == schemas.families()


def test_the_npm_package_ships_the_same_bundles_and_index() -> None:
    for path in sorted(GENERATED.glob("*.json")):
        assert (PACKAGE / "schemas" / path.name).read_bytes() == path.read_bytes()


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.id)
def test_bundle_verdict_equals_multi_file_verdict(vector: Vector) -> None:
    payload = vector.load()
    files = schemas.validator(vector.schema_name).is_valid(payload)
    assert bundle_validator(vector.schema_name).is_valid(payload) is files is vector.valid
    node = ajv_verdicts()[vector.id]
    assert node["bundle"] is node["files"], f"{vector.id}: ajv differs between bundle and files"
