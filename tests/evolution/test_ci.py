"""The schema-evolution gate where it runs unattended (docs/evolution.md, "In CI and pre-commit"): the
repository's pre-commit hook (.pre-commit-config.yaml), run by pre-commit itself, and the GitHub Actions
workflow taken from the docs, its `run:` steps run in order. Both on a copy of this checkout (committed:
HEAD is the checkout as it is), both installing requirements/evolution.txt into an environment of their
own, so this needs PyPI access (and Node.js, as the suite does)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # pre-commit's dependency; its stubs are not pinned

from tests.checkout_copy import copy_checkout

from .test_formats import sarif_validator
from .workflow_commands import parse

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "evolution.md"
CONFIG = ROOT / ".pre-commit-config.yaml"
HOOK = "schema-evolution-gate"
# swarm/IToolRequest: no other type reaches it, so its search is short.
TOOL = "schemas/swarm/tool.json"
NAME = '"description": "Name of the tool to run.", "type": "string"'
NARROWED = NAME + ', "minLength": 1'
DESCRIBED = NAME.replace("to run.", "to run (a registered tool).")
FAILURE = "diff: 1 finding(s) fail the gate: 1 narrowed (swarm/IToolRequest)"
BASE_SHA = "${{ github.event.pull_request.base.sha }}"
_FENCE = re.compile(r"^```yaml\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def doc_yaml(key: str) -> dict[Any, Any]:
    """The YAML block of docs/evolution.md that has `key` at its top level."""
    blocks = [yaml.safe_load(body) for body in _FENCE.findall(DOC.read_text(encoding="utf-8"))]
    [found] = [b for b in blocks if isinstance(b, dict) and key in b]
    return found


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` as a throwaway identity; its stdout."""
    ident = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    done = subprocess.run(["git", "-C", str(repo), *ident, *args], capture_output=True, text=True, check=True)
    return done.stdout


def checkout(dest: Path) -> Path:
    """A git repository holding this checkout's files (uncommitted edits too) as its one commit."""
    copy_checkout(dest)
    tooling = ROOT / "codegen" / "node" / "node_modules"
    if tooling.is_dir():  # the pinned Node tooling of the in-memory build, not installed again
        (dest / "codegen" / "node" / "node_modules").symlink_to(tooling, target_is_directory=True)
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "base")
    return dest


def edit(repo: Path, old: str, new: str) -> None:
    """Replace the one occurrence of `old` in the swarm tool schema."""
    path = repo / TOOL
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(repo: Path, needle: str) -> int:
    """The 1-based line of the swarm tool schema that holds `needle`."""
    rows = (repo / TOOL).read_text(encoding="utf-8").splitlines()
    return next(i for i, row in enumerate(rows, 1) if needle in row)


def pins(name: str) -> list[str]:
    """The requirement lines of requirements/<name>, `-r` files followed, comments dropped."""
    out: list[str] = []
    for raw in (ROOT / "requirements" / name).read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("-r "):
            out += pins(line[3:].strip())
        elif line:
            out.append(line)
    return out


def the_hook() -> dict[str, Any]:
    """The gate's hook in the committed .pre-commit-config.yaml."""
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    [hook] = [h for repo in config["repos"] for h in repo["hooks"] if h["id"] == HOOK]
    return dict(hook)


def test_the_hook_is_the_docs_and_installs_the_gate_s_pins() -> None:
    assert doc_yaml("repos") == yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    hook = the_hook()
    assert [r["repo"] for r in doc_yaml("repos")["repos"]] == ["local"]
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert hook["entry"].split() == ["python", "-m", "release.evolution", "HEAD"]
    assert hook["additional_dependencies"] == pins("evolution.txt")
    files = re.compile(hook["files"])
    assert files.search("schemas/docent/parts.json") and files.search("schemas/letta/compatibility.json")
    assert files.search("release/accepted.json")
    assert not files.search("chatschema/docent/models/parts.py") and not files.search("docs/schemas/x.md")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    return checkout(tmp_path / "repo")


def pre_commit(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """`pre-commit run <the gate's hook>` on what is staged in `repo`."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", HOOK],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=900,  # the hook's environment is built on the first run
    )


def test_the_pre_commit_hook(copy: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (copy / "README.md").write_text("edited\n", encoding="utf-8")
    git(copy, "add", "README.md")
    skipped = pre_commit(copy, home)  # no schema staged: the gate does not run
    assert skipped.returncode == 0 and "(no files to check)Skipped" in skipped.stdout, skipped.stdout
    git(copy, "reset", "-q", "--hard")

    edit(copy, NAME, NARROWED)
    git(copy, "add", TOOL)
    failed = pre_commit(copy, home)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "- exit code: 1" in failed.stdout and FAILURE in failed.stdout
    assert "[CS223] minLength 1 added (at /properties/toolName/minLength" in failed.stdout

    edit(copy, NARROWED, DESCRIBED)
    git(copy, "add", TOOL)
    edit(copy, DESCRIBED, DESCRIBED + ', "minLength": 1')  # unstaged: set aside while the hook runs
    passed = pre_commit(copy, home)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout
    assert DESCRIBED + ', "minLength": 1' in (copy / TOOL).read_text(encoding="utf-8")  # put back after
    git(copy, "reset", "-q", "--hard")

    (copy / "schemas" / "swarm" / "compatibility.json").write_text('{"mode": "sideways"}', encoding="utf-8")
    git(copy, "add", "-A")
    error = pre_commit(copy, home)
    assert "- exit code: 2" in error.stdout, error.stdout
    assert "diff: schemas/swarm/compatibility.json: /mode: 'sideways' is not one of" in error.stdout
    git(copy, "reset", "-q", "--hard")


def workflow_steps() -> list[dict[str, Any]]:
    """The steps of the workflow in the docs, its structure checked first."""
    flow = doc_yaml("jobs")
    on = flow["on"] if "on" in flow else flow[True]  # YAML 1.1 reads a bare `on` key as true
    assert on == "pull_request" or "pull_request" in on
    [job] = flow["jobs"].values()
    steps: list[dict[str, Any]] = job["steps"]
    uses = [s.get("uses", "").split("@")[0] for s in steps]
    assert uses[:3] == ["actions/checkout", "actions/setup-python", "actions/setup-node"]
    assert steps[0]["with"]["fetch-depth"] == 0
    assert steps[1]["with"]["python-version"] == "3.11" and steps[2]["with"]["node-version"] == "20"
    assert "github/codeql-action/upload-sarif" in uses and job["permissions"]["security-events"] == "write"
    return steps


def run_step(step: dict[str, Any], repo: Path, base: str, path: str) -> subprocess.CompletedProcess[str]:
    """A `run:` step as the runner does (`bash -e`), with the base commit for its one expression."""
    env = {**os.environ, "PATH": path}
    for name, value in step.get("env", {}).items():
        assert value == BASE_SHA, f"an expression this test does not provide: {value}"
        env[name] = base
    assert "${{" not in step["run"], step["run"]
    return subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=repo, capture_output=True, text=True, check=False, env=env, timeout=900
    )


def run_job(
    steps: list[dict[str, Any]], repo: Path, base: str, path: str
) -> Iterator[tuple[str, subprocess.CompletedProcess[str]]]:
    """Each `run:` step that runs (after a failure, only `success() || failure()` ones) and its result."""
    failed = False
    for step in steps:
        condition = step.get("if", "success()")
        assert condition in ("success()", "success() || failure()"), condition
        if failed and condition == "success()":
            continue
        if "run" in step:
            done = run_step(step, repo, base, path)
            failed = failed or done.returncode != 0
            yield step["name"], done


def test_the_github_actions_workflow(copy: Path, tmp_path: Path) -> None:
    steps = workflow_steps()
    venv = tmp_path / "venv"  # what setup-python gives: a python of its own on PATH
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    path = f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"
    base = git(copy, "rev-parse", "HEAD").strip()
    edit(copy, NAME, NARROWED)
    git(copy, "commit", "-qam", "pull request: toolName non-empty")
    ran = dict(run_job(steps, copy, base, path))
    assert list(ran) == ["Install the gate's requirements", "Schema evolution gate", "SARIF report"]
    install, gate, sarif = ran.values()
    assert install.returncode == 0, install.stdout + install.stderr
    assert gate.returncode == 1 and FAILURE in gate.stderr.splitlines(), gate.stderr
    annotations = [parse(line) for line in gate.stdout.splitlines()]
    assert all(annotations), gate.stdout
    [error] = [a for a in annotations if a and a.level == "error"]
    assert error.props == {
        "file": TOOL,
        "line": str(line_of(copy, NARROWED)),
        "title": "CS223 constraint-added: swarm/IToolRequest",
    }
    assert sarif.returncode == 0, sarif.stderr
    uploaded = next(s["with"]["sarif_file"] for s in steps if "upload-sarif" in s.get("uses", ""))
    log = json.loads((copy / uploaded).read_text(encoding="utf-8"))
    assert not [e.message for e in sarif_validator().iter_errors(log)]
    assert [(r["ruleId"], r["level"]) for r in log["runs"][0]["results"] if r["level"] == "error"] == [
        ("CS223", "error")
    ]

    git(copy, "reset", "-q", "--hard", base)  # a pull request that changes descriptions only passes
    edit(copy, NAME, DESCRIBED)
    git(copy, "commit", "-qam", "pull request: a description")
    [gate_step] = [s for s in steps if s.get("name") == "Schema evolution gate"]
    quiet = run_step(gate_step, copy, base, path)
    assert quiet.returncode == 0, quiet.stdout + quiet.stderr
    assert all(a and a.level != "error" for a in map(parse, quiet.stdout.splitlines())), quiet.stdout
