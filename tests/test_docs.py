"""The reference docs (generated/docs/) cover every type, property, union branch and example."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chatschema import schemas
from codegen.load import load_schemas
from codegen.model import build_models

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "generated" / "docs"
FAMILIES = build_models(load_schemas(ROOT)[0])


def section(family: str, type_name: str) -> str:
    page = (DOCS / f"{family}.md").read_text(encoding="utf-8")
    match = re.search(rf"^## {type_name}\n(.*?)(?=^## |\Z)", page, re.M | re.S)
    assert match, f"no section for {family}/{type_name}"
    return match.group(1)


@pytest.mark.parametrize("name", schemas.names())
def test_every_type_has_a_complete_section(name: str) -> None:
    family, type_name = name.split("/")
    fam = FAMILIES[family]
    info = fam.types[type_name]
    text = section(family, type_name)
    assert info.description.split(". ")[0] in text
    if info.kind == "object":
        required = fam.required(type_name)
        for prop in fam.properties(type_name):
            row = next((line for line in text.splitlines() if line.startswith(f"| `{prop}` |")), None)
            assert row is not None, f"{name}: property {prop} missing from the table"
            assert row.split(" | ")[2] == ("yes" if prop in required else "no")
    for branch in info.branches:
        assert f"| `{json.dumps(branch.tag_value)}` | [{branch.type_name}](#{branch.type_name.lower()}) |" in text
    example = re.search(r"Example \(`([^`]+)`\):\n\n```json\n(.*?)\n```", text, re.S)
    if example:
        assert json.loads(example.group(2)) == json.loads((ROOT / example.group(1)).read_text(encoding="utf-8"))
        assert "/valid/" in example.group(1)
        assert schemas.violations(json.loads(example.group(2)), name) == []


def test_index_links_every_type_and_the_readme_links_the_docs() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for name in schemas.names():
        family, type_name = name.split("/")
        assert f"[`{name}`]({family}.md#{type_name.lower()})" in index
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "generated/docs/index.md" in readme
