"""The version gate and the command line: `python -m release.evolution release --check-version` in a scratch git
repository (its history is the release history), and on this repository itself."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from codegen.versions import declared_bump, parse_version
from tests.codegen_cli import run_evolution

from .schemasets import write

ROOT = Path(__file__).resolve().parents[2]
STR = {"type": "string", "description": "S."}
V1 = {"a.json": {"T": {"title": "T", "description": "T.", "type": "object", "properties": {"x": STR}}}}
NARROWER = {"a.json": {"T": {**V1["a.json"]["T"], "required": ["x"]}}}
WIDER = {"a.json": {"T": {**V1["a.json"]["T"], "properties": {"x": {"type": ["string", "null"], "description": "S."}}}}}


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def repo(tmp: Path) -> Path:
    root = write(tmp / "repo", V1)
    git(root, "init", "-q", "-b", "main")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first release 1.0.0")
    return root


def commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message)


def test_declared_bumps() -> None:
    assert [declared_bump("1.2.3", v) for v in ("1.2.3", "1.2.4", "1.3.0", "2.0.0", "1.0.0")] == [
        "none",
        "patch",
        "minor",
        "major",
        "none",
    ]
    assert parse_version("1.0.0\n") == (1, 0, 0) and parse_version("1.0") is None and parse_version("01.0.0") is None


def test_narrowing_without_a_major_bump_fails_the_gate(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, NARROWER)  # uncommitted edit, version still 1.0.0
    proc = run_evolution(root, "release", "--check-version")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "schemas/evo/VERSION: 1.0.0 is a none bump from 1.0.0, the changes need major" in proc.stderr
    assert "evo/T: narrowed" in proc.stdout and "property 'x' became required" in proc.stdout
    commit(root, "narrow T, no bump")  # committed: still judged against the release
    assert run_evolution(root, "release", "--check-version").returncode == 1
    write(root, NARROWER, version="1.1.0")
    assert run_evolution(root, "release", "--check-version").returncode == 1  # minor is not enough
    write(root, NARROWER, version="2.0.0")
    proc = run_evolution(root, "release", "--check-version")  # the major bump covers the narrowing
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert run_evolution(root, "release").returncode == 1  # without --check-version it is still breaking
    commit(root, "release 2.0.0")
    assert run_evolution(root, "release", "--check-version").returncode == 0


def test_widening_needs_minor(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, WIDER)
    proc = run_evolution(root, "--check-version", "--format", "json")
    assert proc.returncode == 1  # default --fail-on narrowed passes, the version check does not
    family = json.loads(proc.stdout)["families"][0]
    assert (family["needed_bump"], family["declared_bump"], family["version_ok"]) == ("minor", "none", False)
    [t] = family["types"]
    assert t["verdict"] == "widened" and t["witnesses"][0]["payload"]["x"] is None
    write(root, WIDER, version="1.1.0")
    assert run_evolution(root, "--check-version").returncode == 0
    assert run_evolution(root, "--fail-on", "any").returncode == 1


def test_usage_and_schema_errors_exit_2(tmp_path: Path) -> None:
    root = repo(tmp_path)
    proc = run_evolution(root, "no-such-revision")
    assert proc.returncode == 2 and "no-such-revision" in proc.stderr and "Traceback" not in proc.stderr
    (root / "schemas" / "evo" / "a.json").write_text('{"$defs": {', encoding="utf-8")
    proc = run_evolution(root)
    assert proc.returncode == 2 and "schemas/evo/a.json" in proc.stderr and "Traceback" not in proc.stderr
    assert run_evolution(root, "--family", "nope").returncode == 2


def test_this_repository_passes_its_own_gate() -> None:
    """The suite's gate: every family's version covers its changes since its previous release."""
    proc = run_evolution(ROOT, "release", "--check-version")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shipped = json.loads((ROOT / "generated" / "schemas" / "index.json").read_text(encoding="utf-8"))
    for family, entry in shipped["families"].items():
        assert entry["version"] == (ROOT / "schemas" / family / "VERSION").read_text(encoding="utf-8").strip()


def test_the_same_report_on_every_run(tmp_path: Path) -> None:
    """Seeds are fixed: two runs of the command (two processes, other hash seeds) print the same witnesses."""
    root = repo(tmp_path)
    write(root, {"a.json": {"T": {**WIDER["a.json"]["T"], "required": ["x"]}}})
    first = run_evolution(root, "--format", "json")
    second = run_evolution(root, "--format", "json")
    assert first.returncode == second.returncode == 1
    assert first.stdout == second.stdout and '"witnesses": [' in first.stdout


def test_a_crash_of_the_diff_is_exit_2_never_the_breaking_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from release.evolution import cli

    def crash(*_: object) -> int:
        raise KeyError("boom")

    monkeypatch.setattr(cli, "run_diff", crash)
    assert cli.main(["HEAD"]) == 2
    assert capsys.readouterr().err == "diff: internal error, no verdict: KeyError: 'boom'\n"
