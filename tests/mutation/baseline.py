"""The baseline: the selected tests on the unmutated copy, before any mutant.

It records which tests pass; a mutant is killed only when one of those fails with it. A baseline
with a failing test stops the run, naming the tests. The Python modules' baseline is the coverage
run (coverage_map.py); without a coverage map (JavaScript, `--all-tests`) the tests run once plainly.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"


@dataclass(frozen=True)
class Baseline:
    """Each test's outcome and duration on the unmutated copy, and how long the run took."""

    outcomes: dict[str, str]  # node id -> "passed", "failed" or "skipped"
    durations: dict[str, float]
    seconds: float

    @property
    def passed(self) -> frozenset[str]:
        """The tests that passed: the only ones whose failure kills a mutant."""
        return frozenset(t for t, o in self.outcomes.items() if o == PASSED)

    @property
    def failed(self) -> list[str]:
        """The tests that failed without any mutant."""
        return sorted(t for t, o in self.outcomes.items() if o == FAILED)

    def fastest_first(self, tests: set[str] | frozenset[str] | None = None) -> list[str]:
        """`tests` (default: every passing test), fastest first."""
        chosen = self.passed if tests is None else tests
        return sorted(chosen, key=lambda t: (self.durations.get(t, 0.0), t))

    def summary(self) -> str:
        """One line: how many tests passed and were skipped, and the time taken."""
        skipped = sum(o == SKIPPED for o in self.outcomes.values())
        return f"{len(self.passed)} tests passed, {skipped} skipped, {self.seconds:.0f}s"


def read_report(path: Path, seconds: float) -> Baseline:
    """The baseline the plugin wrote to `path` (MUTATION_REPORT)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return Baseline(dict(data["outcomes"]), {str(k): float(v) for k, v in data["durations"].items()}, seconds)


def require_passing(baseline: Baseline | None, code: int, output: str) -> None:
    """Stop the run (SystemExit) if the baseline failed: the failing tests named, or pytest's last lines."""
    failed = baseline.failed if baseline is not None else []
    if code == 0 and not failed:
        return
    if failed:
        shown = "\n".join(f"  {t}" for t in failed[:50]) + (
            f"\n  ... {len(failed) - 50} more" if len(failed) > 50 else ""
        )
        raise SystemExit(f"mutation: {len(failed)} tests fail without any mutant (baseline):\n{shown}")
    tail = "\n".join(output.splitlines()[-30:])
    raise SystemExit(f"mutation: the tests fail without any mutant (baseline, pytest exit {code}):\n{tail}")


def run_plain(cwd: Path, env: dict[str, str], paths: list[str], pytest_args: list[str]) -> Baseline:
    """Run `paths` once in `cwd` with `env` added, no mutant and not under coverage.py; stop if any test fails."""
    from .execute import PYTEST

    with tempfile.TemporaryDirectory(prefix="chatschema-mutation-baseline-") as tmp:
        report = Path(tmp) / "report.json"
        full = {**os.environ, **env, "MUTATION_REPORT": str(report)}
        full.pop("COVERAGE_PROCESS_START", None)
        start = time.perf_counter()
        proc = subprocess.run([*PYTEST, *pytest_args, *paths], cwd=cwd, env=full, capture_output=True, text=True)
        baseline = read_report(report, time.perf_counter() - start) if report.exists() else None
    require_passing(baseline, proc.returncode, proc.stdout + proc.stderr)
    assert baseline is not None
    return baseline
