"""Every shell command in README.md and docs/ (every page, at any depth) runs as written (tests/doc_commands.py says how
blocks are marked), so the docs cannot drift from the code. Commands run from the checkout root
with the test environment's `bin/` first on PATH (where `chatschema` is installed)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from chatschema.samples import DIRECTORY
from tests.doc_commands import Block, MarkerError, in_order, shell_blocks

ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Named by their path in the checkout: README.md and docs/README.md share a file name.
BLOCKS = [block for doc in DOCUMENTS for block in shell_blocks(doc, doc.relative_to(ROOT).as_posix())]


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_command_block(block: Block) -> None:
    if block.skip:
        pytest.skip(f"{block.id}: {block.skip}")
    assert block.commands, f"{block.id}: an empty shell block"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    stdout: list[str] = []
    for command in block.commands:
        proc = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, check=False
        )
        assert proc.returncode == block.exit_code, (
            f"{block.id}: `{command}` exited {proc.returncode}, the docs say {block.exit_code}\n{proc.stdout}{proc.stderr}"
        )
        stdout += proc.stdout.replace(str(DIRECTORY), ".../chatschema/samples").splitlines()
    if block.output is not None:
        assert stdout, f"{block.id}: an output block, but the commands print nothing"
        assert in_order(stdout, block.output) == [], f"{block.id}: the output shown is not what the commands print"


def test_the_user_quick_start_runs() -> None:
    quick = [b for b in BLOCKS if b.path == ROOT / "README.md" and "chatschema samples --validate" in b.commands]
    assert quick and not quick[0].skip and quick[0].output is not None


def test_every_page_is_collected() -> None:
    """Every Markdown page under docs/ is read for blocks, and the README and the guides have some."""
    pages = {p for p in (ROOT / "docs").rglob("*") if p.suffix.lower() in {".md", ".markdown"}}
    assert pages <= set(DOCUMENTS), f"pages the doc test does not read: {sorted(map(str, pages - set(DOCUMENTS)))}"
    read = {b.path for b in BLOCKS}
    assert ROOT / "README.md" in read and any(ROOT / "docs" in path.parents for path in read)
    assert len({b.id for b in BLOCKS}) == len(BLOCKS)


def test_markers(tmp_path: Path) -> None:
    doc = tmp_path / "guide.md"
    doc.write_text(
        "Intro.\n\n<!-- doc-test: skip: needs the network -->\n```sh\npip install x  # comment\n```\n\n"
        "<!-- doc-test: exit 1 -->\n```console\n$ false\n# a comment\n\n$ exit 1\n```\n"
        "<!-- doc-test: output -->\n```\nshown\n```\n\n```python\nprint(1)\n```\n\n```bash\ntrue\n```\n",
        encoding="utf-8",
    )
    skip, fail, plain = shell_blocks(doc)
    assert (skip.skip, skip.commands, skip.line, skip.id) == (
        "needs the network",
        ["pip install x  # comment"],
        4,
        "guide.md:4",
    )
    assert shell_blocks(doc, "docs/guide.md")[0].id == "docs/guide.md:4"
    assert (fail.exit_code, fail.commands, fail.output) == (1, ["false", "exit 1"], ["shown"])
    assert (plain.skip, plain.exit_code, plain.commands, plain.output) == ("", 0, ["true"], None)
    doc.write_text("<!-- doc-test: sometimes -->\n```sh\ntrue\n```\n", encoding="utf-8")
    with pytest.raises(MarkerError, match=re.escape("guide.md:1: unknown doc-test marker 'sometimes'")):
        shell_blocks(doc)
    doc.write_text("<!-- doc-test: exit 2 -->\n```json\n{}\n```\n", encoding="utf-8")
    with pytest.raises(MarkerError, match="marker on a json block"):
        shell_blocks(doc)


def test_in_order() -> None:
    assert in_order(["a", "c"], ["a", "b", "c"]) == []
    assert in_order(["c", "a"], ["a", "b", "c"]) == ["a"]
    assert in_order(["x"], ["a"]) == ["x"]
