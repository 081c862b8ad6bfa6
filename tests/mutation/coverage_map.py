"""Which tests run which lines: collected once per run, then used to pick each mutant's tests.

The tests run once against an unmutated copy of the package under coverage.py, with the test's
node id as coverage's context (plugin.py); this run is the baseline too (baseline.py). Python processes the tests start are measured too
(coverage's .pth hook reads COVERAGE_PROCESS_START, and the config gives them the test's id as
their static context), and so are `multiprocessing` workers. The map keeps, per module, the tests
that ran each line, and each test's duration, so a mutant runs only the tests that reach it,
fastest first.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import coverage
from coverage.exceptions import CoverageWarning

from .baseline import Baseline, read_report, require_passing
from .execute import PYTEST
from .mutants import Mutant

_CONFIG = """\
[run]
data_file = {data}
parallel = true
concurrency = multiprocessing,thread
include = {package}/*
context = ${{MUTATION_CONTEXT}}
"""


@dataclass
class CoverageMap:
    """Per module, line -> the tests that ran it; per test, its duration in seconds; per module, the
    tests that may run it unseen, candidates for each of its mutants (node_coverage.py)."""

    lines: dict[str, dict[int, set[str]]] = field(default_factory=dict)
    durations: dict[str, float] = field(default_factory=dict)
    always: dict[str, set[str]] = field(default_factory=dict)

    def select(self, mutant: Mutant) -> list[str]:
        """The tests that can kill `mutant`, fastest first; [] if none runs its code.

        A mutant evaluated at import time (a module constant, a default, a decorator) can change
        anything the module does, so every test that runs any line of the module is a candidate,
        and so is every other test of their files: a test that only reads a constant runs no line
        of the module (the import happens at collection, which coverage gives to no test).
        """
        by_line = self.lines.get(mutant.module, {})
        lines: Iterable[int] = by_line if mutant.at_import else mutant.lines
        tests: set[str] = set(self.always.get(mutant.module, ()))
        for line in lines:
            tests |= by_line.get(line, set())
        if mutant.at_import:
            files = {test.split("::", 1)[0] for test in tests}
            tests |= {test for test in self.durations if test.split("::", 1)[0] in files}
        return sorted(tests, key=lambda nodeid: (self.durations.get(nodeid, 0.0), nodeid))

    def to_json(self) -> dict[str, object]:
        """The map as JSON data."""
        return {
            "lines": {m: {str(n): sorted(t) for n, t in sorted(by.items())} for m, by in sorted(self.lines.items())},
            "durations": self.durations,
            "always": {m: sorted(t) for m, t in sorted(self.always.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CoverageMap:
        """The map from `to_json`'s data."""
        lines = data["lines"]
        durations = data["durations"]
        assert isinstance(lines, dict) and isinstance(durations, dict)
        always = data.get("always", {})
        assert isinstance(always, dict)
        return cls(
            {m: {int(n): set(t) for n, t in by.items()} for m, by in lines.items()},
            {str(k): float(v) for k, v in durations.items()},
            {m: set(t) for m, t in always.items()},
        )


def from_contexts(
    contexts_by_file: dict[str, dict[int, list[str]]], modules: dict[str, tuple[str, int]], durations: dict[str, float]
) -> CoverageMap:
    """A map from coverage's contexts per line of each measured file.

    `modules` maps each module to (its measured file, the lines the copy adds before the module's
    first line: the generated header). Lines run outside any test (at collection) name no test.
    """
    result = CoverageMap(durations=dict(durations))
    for module, (path, offset) in modules.items():
        by_line: dict[int, set[str]] = {}
        for line, contexts in contexts_by_file.get(path, {}).items():
            tests = {context for context in contexts if context in durations}
            if tests and line > offset:
                by_line[line - offset] = tests
        result.lines[module] = by_line
    return result


def collect(
    package: Path, modules: dict[str, tuple[str, int]], tests: list[str], pytest_args: list[str], root: Path
) -> tuple[CoverageMap, Baseline]:
    """Run `tests` once in `package` (the unmutated copy of the repository): their coverage map, and
    the baseline (each test's outcome). Stops the run (SystemExit) if a test fails."""
    with tempfile.TemporaryDirectory(prefix="chatschema-mutation-coverage-") as tmp:
        config = Path(tmp) / "coveragerc"
        config.write_text(_CONFIG.format(data=Path(tmp) / "data", package=package), encoding="utf-8")
        report = Path(tmp) / "report.json"
        env = {
            **os.environ,
            "PYTHONPATH": str(package),
            "CHATSCHEMA_TS_PACKAGE": str(package / "npm"),
            "COVERAGE_PROCESS_START": str(config),
            "MUTATION_REPORT": str(report),
            "MUTATION_CONTEXTS": "1",
            "MUTATION_CONTEXT": "",
        }
        start = time.perf_counter()
        proc = subprocess.run([*PYTEST, *pytest_args, *tests], cwd=root, env=env, capture_output=True, text=True)
        baseline = read_report(report, time.perf_counter() - start) if report.exists() else None
        require_passing(baseline, proc.returncode, proc.stdout + proc.stderr)
        assert baseline is not None
        contexts = _contexts(config, modules)
    return from_contexts(contexts, modules, baseline.durations), baseline


def _contexts(config: Path, modules: dict[str, tuple[str, int]]) -> dict[str, dict[int, list[str]]]:
    """Every process's coverage data combined: per measured file, line -> the contexts that ran it."""
    combined = coverage.Coverage(config_file=str(config))
    with warnings.catch_warnings():
        # A process a test kills on purpose (Ctrl-C, time-outs) leaves a data file half written.
        warnings.simplefilter("ignore", CoverageWarning)
        combined.combine(keep=False)
    data = combined.get_data()
    return {
        path: {line: list(names) for line, names in data.contexts_by_lineno(path).items()}
        for path, _ in modules.values()
    }
