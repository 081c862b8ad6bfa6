"""The project's own additions to a family (`x-chatschema-extension`), end to end, in a scratch copy.

The README's worked example: an optional `locale` on `docent/UserMessage`, which real Docent does
not have. Marked as an extension, it regenerates, shows in the docs and the TypeScript comments,
and the conformance harness holds real Docent to what it does with any unknown key, so no
allowlist entry is needed. Unmarked, the harness fails and says what to do.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.codegen_cli import start_from_warm_cache

ROOT = Path(__file__).parent.parent
WHY = "Not in Docent 0.1.88: the user's BCP 47 language tag, added by this project."


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, check=False)


def _repo(tmp: Path, marked: bool, cache: Path) -> Path:
    start_from_warm_cache(tmp, cache)  # the families left unchanged are not generated again
    shutil.copytree(ROOT / "schemas", tmp / "schemas")
    shutil.copytree(ROOT / "tests", tmp / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("codegen", "chatschema", "npm", "release"):
        shutil.copytree(ROOT / name, tmp / name, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    (tmp / "codegen" / "node" / "node_modules").symlink_to(ROOT / "codegen" / "node" / "node_modules")
    shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")
    shutil.copy(ROOT / "LICENSE", tmp / "LICENSE")  # the npm package ships it
    path = tmp / "schemas" / "docent" / "message.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    locale: dict[str, object] = {"description": 'The user\'s language, e.g. "en-GB".', "type": "string"}
    if marked:
        locale["x-chatschema-extension"] = WHY
    doc["$defs"]["UserMessage"]["properties"]["locale"] = locale
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    vectors = tmp / "schemas" / "docent" / "examples" / "UserMessage"
    (vectors / "valid" / "locale.json").write_text('{"role": "user", "content": "hi", "locale": "en-GB"}\n')
    (vectors / "invalid" / "locale_not_a_string.json").write_text('{"role": "user", "content": "hi", "locale": 5}\n')
    proc = _run(tmp, "-m", "codegen", "generate")
    assert proc.returncode == 0, proc.stderr
    return tmp


@pytest.fixture(scope="module")
def marked(tmp_path_factory: pytest.TempPathFactory, codegen_cache: Path) -> Path:
    return _repo(tmp_path_factory.mktemp("marked"), marked=True, cache=codegen_cache)


def test_marked_extension_needs_no_allowlist_entry(marked: Path) -> None:
    proc = _run(marked, "-m", "tests.conformance", "--small", "--only", "docent/UserMessage")
    # (a run of one type leaves other types' allowlist entries unhit: only disagreements count here)
    assert ", 0 unexplained" in proc.stdout, proc.stdout[-3000:]


def test_marked_extension_is_in_the_docs_and_typescript(marked: Path) -> None:
    page = (marked / "generated" / "docs" / "docent.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| `locale`"))
    assert "(extension)" in row and WHY in row
    types = (marked / "npm" / "types" / "docent.d.ts").read_text(encoding="utf-8")
    assert f"chatschema extension: {WHY}" in types


def test_unmarked_addition_fails_conformance_and_says_what_to_do(tmp_path: Path, codegen_cache: Path) -> None:
    root = _repo(tmp_path, marked=False, cache=codegen_cache)
    proc = _run(root, "-m", "tests.conformance", "--small", "--only", "docent/UserMessage")
    assert proc.returncode == 1
    assert ", 0 unexplained" not in proc.stdout
    assert "docent/UserMessage [docent accepts, jsonschema rejects]" in proc.stdout
    assert "@$.locale" in proc.stdout  # the same mutations pass in the marked run above
    assert '"x-chatschema-extension": "<why>"' in proc.stdout
