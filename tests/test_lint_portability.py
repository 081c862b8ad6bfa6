"""Lint rules that keep python-jsonschema and ajv in agreement: portable regexes, and
union tags in each branch's own properties (ajv's discriminator does not follow allOf)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codegen.lint import pattern_problems

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("^[0-9]+$", "$ also matches before a trailing newline in Python"),
        ("^[0-9]+(?!\\n)$", "look-around is not supported"),
        ("^\\d{4}", "\\d matches any Unicode digit"),
        ("\\w+", "\\w is Unicode-aware"),
        ("a\\sb", "\\s matches different whitespace"),
        ("\\bword", "\\b differs"),
        ("^x\\Z", "\\Z is Python-only"),
        ("(?P<year>[0-9]{4})", "(?P...) named groups are Python-only"),
    ],
)
def test_non_portable_patterns_are_reported(pattern: str, problem: str) -> None:
    assert any(problem in p for p in pattern_problems(pattern)), pattern_problems(pattern)


@pytest.mark.parametrize("pattern", ["[$]", "a\\$b", "[\\b]", "^[A-Za-z0-9_]+", "\\n", "\\.[0-9]"])
def test_portable_patterns_pass(pattern: str) -> None:
    assert pattern_problems(pattern) == []


def test_dollar_is_portable_when_newlines_are_excluded() -> None:
    assert pattern_problems("^[0-9]{4}$", newline_excluded=True) == []


def _lint_cli(root: Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> str:
    """`python -m codegen --root ROOT lint`'s stderr, once it has failed as it should."""
    proc = subprocess.run(
        [sys.executable, "-m", "codegen", "--root", str(root), "lint"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    return proc.stderr


def _lint_with(tmp_path: Path, family: str, file: str, change: Any) -> str:
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    path = tmp_path / "schemas" / family / file
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return _lint_cli(tmp_path)


def test_pattern_problem_names_file_and_location(tmp_path: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        timestamp = doc["$defs"]["TokenUsage"]["properties"]["timestamp"]
        timestamp["pattern"] = "^\\d{4}-.*$"
        del timestamp["not"]

    err = _lint_with(tmp_path, "bridgic", "message.json", change)
    where = "schemas/bridgic/message.json: /$defs/TokenUsage/properties/timestamp/pattern: "
    assert where + "pattern '^\\\\d{4}-.*$': \\d matches any Unicode digit" in err
    assert where + "pattern '^\\\\d{4}-.*$': $ also matches before a trailing newline" in err


def test_union_tag_only_through_allof_is_reported(tmp_path: Path) -> None:
    def change(doc: dict[str, Any]) -> None:
        branch = doc["$defs"]["DocentAssistantMessage"]
        del branch["properties"]["role"]
        del branch["required"]

    err = _lint_with(tmp_path, "docent", "message.json", change)
    assert (
        "schemas/docent/message.json: /$defs/DocentChatMessage/oneOf/2: branch DocentAssistantMessage must restate "
        "its tag 'role' in its own properties and required"
    ) in err


def test_lint_without_npm_says_so_in_one_line(tmp_path: Path) -> None:
    # a checkout whose Node tooling is not installed, on a machine without npm: the pattern checks
    # cannot run, and lint says why in one line, as generate does (no traceback)
    shutil.copytree(
        ROOT / "codegen", tmp_path / "codegen", ignore=shutil.ignore_patterns("node_modules", "__pycache__")
    )
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    stderr = _lint_cli(tmp_path, cwd=tmp_path, env={"PATH": str(Path(sys.executable).parent), "HOME": str(tmp_path)})
    assert stderr.splitlines() == [
        "codegen: npm not found: install Node.js 20 (with npm) to generate the TypeScript package"
    ]


def test_lint_names_a_file_that_does_not_load_and_nothing_that_refers_to_it(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    (tmp_path / "schemas" / "docent" / "citation.json").write_text("", encoding="utf-8")  # message.json refers to it
    assert _lint_cli(tmp_path).splitlines() == [
        "schemas/docent/citation.json: /: invalid JSON at line 1 column 1: Expecting value"
    ]
