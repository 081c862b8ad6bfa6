"""The resolved model and the keyword table that every part of codegen reads the schemas through."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codegen import walk
from codegen.load import load_schemas
from codegen.model import build_models

ROOT = Path(__file__).parent.parent
FILES = load_schemas(ROOT)[0]
MODELS = build_models(FILES)


def _raw_refs(node: Any) -> Iterator[str]:
    """Every "$ref" string in a JSON value, data or not (the test's own independent count)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _raw_refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _raw_refs(item)


def test_every_keyword_in_the_schemas_is_in_the_table_and_supported() -> None:
    used = {key for f in FILES for _, node in walk.subschemas(f.contents) for key in node}
    assert used <= walk.SUPPORTED_KEYWORDS, used - walk.SUPPORTED_KEYWORDS
    assert walk.SUPPORTED_KEYWORDS <= set(walk.KEYWORDS)


def test_the_walker_reaches_every_ref_of_the_schemas() -> None:
    for f in FILES:
        walked = [n["$ref"] for _, n in walk.subschemas(f.contents) if isinstance(n.get("$ref"), str)]
        assert sorted(walked) == sorted(_raw_refs(f.contents)), f.path


def test_the_walker_never_enters_data() -> None:
    schema = {"const": {"$ref": "#/$defs/X"}, "default": {"properties": {}}, "properties": {"a": {"$ref": "#/b"}}}
    assert [path for path, _ in walk.subschemas(schema)] == [(), ("properties", "a")]
    assert walk.transform(schema, lambda _, node: {**node, "seen": True})["const"] == {"$ref": "#/$defs/X"}


@pytest.mark.parametrize("family", sorted(MODELS))
def test_the_bundle_is_the_generated_one(family: str) -> None:
    shipped = json.loads((ROOT / "generated" / "schemas" / f"{family}.bundle.json").read_text(encoding="utf-8"))
    assert MODELS[family].bundle_json() == shipped


@pytest.mark.parametrize("family", sorted(MODELS))
def test_union_tags_are_the_branches_consts(family: str) -> None:
    model = MODELS[family]
    for union in model.unions:
        assert union.tag is not None and union.union is not None
        for branch in union.branches:
            tag = model.types[branch.type_name].property(union.tag)
            assert tag is not None and tag.required and tag.const == branch.tag_value
        assert dict(union.union.table) == {b.tag_value: b.type_name for b in union.branches}
        assert len(union.union.table) == len(union.branches)


def test_the_model_is_immutable() -> None:
    t = next(iter(MODELS["letta"].types.values()))
    with pytest.raises(TypeError):
        t.definition["title"] = "changed"  # type: ignore[index]
    with pytest.raises(AttributeError):
        t.name = "changed"  # type: ignore[misc]


def test_inherited_properties_name_their_owner() -> None:
    model = MODELS["letta"]
    for t in model.types.values():
        for p in t.properties:
            assert p.owner == t.name or p.owner in _bases_closure(model, t.name), (t.name, p.name)


def _bases_closure(model: Any, name: str) -> set[str]:
    found: set[str] = set()
    todo = list(model.types[name].bases)
    while todo:
        base = todo.pop()
        if base not in found:
            found.add(base)
            todo += model.types[base].bases
    return found
