"""The suite through every artefact: lint each group alone, generate the accepted ones as one family,
and judge every test's data with each artefact of the generated scratch repository.

Artefacts: `jsonschema` (`chatschema.schemas.violations`, the shipped registry), `fast`
(jsonschema-rs through `chatschema.validate.backends`), `cli` (`chatschema validate` on a JSONL file
per group), `pydantic` and `typeddict` (the generated types through pydantic's TypeAdapter) and
`node` and `node-violations` (the npm package's precompiled validators: `isValid`, which stops at the
first error, and `violations`, which collects them all).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegen.errors import SchemaProblem
from tests.json_schema_suite.generation import Generator, partition
from tests.json_schema_suite.harness import FAMILY, Group, NotRelocatable, SuiteTest, family_defs, lint_problems
from tests.json_schema_suite.harness import payload as wrap
from tests.node import node_env

HERE = Path(__file__).parent
ARTEFACTS = ("jsonschema", "fast", "cli", "pydantic", "typeddict", "node", "node-violations")
# The judge process that gives each artefact's verdicts.
JUDGES = {
    "sides": ("jsonschema", "fast", "pydantic", "typeddict"),
    "cli": ("cli",),
    "node": ("node", "node-violations"),
}
Verdict = bool | str  # true valid, false invalid, or what went wrong instead


@dataclass
class Outcome:
    """What became of every group, and each artefact's verdict on each test of the generated ones."""

    groups: list[Group]
    skipped: dict[int, str] = field(default_factory=dict)  # cannot move into a family file
    refused: dict[int, list[SchemaProblem]] = field(default_factory=dict)  # by lint, alone
    crashed: dict[int, str] = field(default_factory=dict)  # lint raised instead of answering
    failed: dict[int, str] = field(default_factory=dict)  # accepted by lint, generation failed
    generated: list[int] = field(default_factory=list)
    cases: list[tuple[Group, SuiteTest]] = field(default_factory=list)
    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)  # artefact -> why its judge gave no verdicts


def classify(groups: list[Group], scratch: Path) -> tuple[Outcome, dict[int, dict[str, Any]]]:
    """Move each group into a family of its own and lint it there; returns the outcome so far and
    the named types of each group lint accepts."""
    outcome, accepted = Outcome(groups), {}
    for group in groups:
        try:
            defs = family_defs(group)
        except NotRelocatable as why:
            outcome.skipped[group.number] = str(why)
            continue
        try:
            problems = lint_problems(scratch / group.type_name, defs)
        except Exception as exc:  # a traceback is an answer lint must not give: recorded, shown by a test
            outcome.crashed[group.number] = f"{type(exc).__name__}: {exc}"
            continue
        if problems:
            outcome.refused[group.number] = problems
        else:
            accepted[group.number] = defs
    return outcome, accepted


def judge(root: Path, cases: list[tuple[Group, SuiteTest]]) -> tuple[dict[str, list[Verdict]], dict[str, str]]:
    """Every artefact's verdict on every case: three processes at once (the Python sides, the
    command, Node), each judging every payload; and why a judge that failed gave none."""
    named = [[f"{FAMILY}/{g.type_name}", wrap(t.data)] for g, t in cases]
    env = {**os.environ, "PYTHONPATH": str(root)}
    script = str(HERE / "judge_python.py")
    node = shutil.which("node") or "node"
    jobs = {
        "sides": ([sys.executable, script, "sides"], named, env),
        "cli": ([sys.executable, script, "cli"], _jsonl_files(root, cases), env),
        "node": ([node, str(HERE / "judge_node.cjs")], {"package": str(root / "npm"), "cases": named}, node_env()),
    }
    verdicts: dict[str, list[Verdict]] = {}
    broken: dict[str, str] = {}
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = {what: pool.submit(_run, what, *job, root) for what, job in jobs.items()}
        for what, future in futures.items():
            try:
                result = future.result()
            except RuntimeError as exc:  # one judge's failure must not hide the others' verdicts
                broken.update(dict.fromkeys(JUDGES[what], str(exc)))
                continue
            # the command answers per file: flattened, its verdicts follow the cases' order too
            verdicts.update({"cli": [v for per_file in result for v in per_file]} if what == "cli" else result)
    return verdicts, broken


def _jsonl_files(root: Path, cases: list[tuple[Group, SuiteTest]]) -> list[list[Any]]:
    """One JSONL file per group, a payload a line; returns `[schema name, path, lines]` per file."""
    folder = root / "payloads"
    folder.mkdir(exist_ok=True)
    by_group: dict[int, list[str]] = {}
    groups: dict[int, Group] = {}
    for g, t in cases:
        by_group.setdefault(g.number, []).append(json.dumps(wrap(t.data), ensure_ascii=False))
        groups[g.number] = g
    runs: list[list[Any]] = []
    for number, lines in by_group.items():
        path = folder / f"{groups[number].type_name}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        runs.append([f"{FAMILY}/{groups[number].type_name}", str(path), len(lines)])
    return runs


def _run(what: str, argv: list[str], data: Any, env: dict[str, str], cwd: Path) -> Any:
    """One judge process: JSON in on stdin, JSON out on stdout; a judge that fails is an error."""
    proc = subprocess.run(
        argv, input=json.dumps(data), capture_output=True, text=True, env=env, cwd=cwd, timeout=300, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the {what} judge failed (exit status {proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)


def run_suite(groups: list[Group], scratch: Path) -> Outcome:
    """Lint, generate and judge every group; `scratch` is an empty folder to work in."""
    outcome, accepted = classify(groups, scratch / "lint")
    gen = Generator(scratch, accepted)
    outcome.generated, outcome.failed = partition(gen)
    chosen = set(outcome.generated)
    outcome.cases = [(g, t) for g in groups if g.number in chosen for t in g.tests]
    if outcome.cases:
        outcome.verdicts, outcome.broken = judge(gen.root, outcome.cases)
    return outcome
