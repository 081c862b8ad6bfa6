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


# --- The hand-written docs: README.md and the guides under docs/ -------------------------------------

GUIDES = sorted((ROOT / "docs").rglob("*.md"))
_LINK = re.compile(r"\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")
_FENCED = re.compile(r"^\s*```.*?^\s*```", re.M | re.S)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation but `-` and `_` dropped,
    spaces as `-`, `-1`, `-2`... after repeats."""
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", _FENCED.sub("", page.read_text(encoding="utf-8")), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        if n:
            seen[f"{slug}-{n}"] = 1
    return set(seen)


def links(page: Path) -> list[str]:
    """The targets of a page's Markdown links, outside code blocks and code spans."""
    text = re.sub(r"`[^`\n]*`", "", _FENCED.sub("", page.read_text(encoding="utf-8")))
    return _LINK.findall(text)


@pytest.mark.parametrize("page", [ROOT / "README.md", *GUIDES], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_reach_files_and_headings_in_the_repository(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # a URL: not checked here (the tests run offline)
            continue
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists() or ROOT.resolve() not in (dest, *dest.parents):
            broken.append(f"{target}: no such file in the repository")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.relative_to(ROOT.resolve())}")
    assert broken == [], f"{page.relative_to(ROOT)}: broken links"


def test_every_guide_is_indexed_and_says_what_it_is_for() -> None:
    index = ROOT / "docs" / "README.md"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/README.md" in readme
    indexed = {(index.parent / t.partition("#")[0]).resolve() for t in links(index)}
    for guide in GUIDES:
        if guide != index:
            assert guide.resolve() in indexed, f"docs/README.md does not link {guide.relative_to(ROOT)}"
        lines = [line for line in guide.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert lines[0].startswith("# ") and not lines[1].startswith(("#", "```", "|", "-")), (
            f"{guide.relative_to(ROOT)}: a title, then one line saying what the page is for"
        )
