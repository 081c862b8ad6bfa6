"""This repository's own schema commits, judged by `codegen diff` and checked against what each
commit message says (bounded: the families each message talks about, a small search budget)."""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

import pytest

from codegen.diff.engine import ADDED, UNPROVEN, FamilyReport, compare_snapshots
from codegen.diff.rules import NARROWED
from codegen.diff.source import revision
from codegen.diff.witness import Budget

ROOT = Path(__file__).resolve().parents[2]
SMALL = Budget(examples=4, candidates=400)


def _has(commit: str) -> bool:
    return subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", commit], capture_output=True).returncode == 0


@cache
def judged(commit: str, family: str) -> FamilyReport:
    [report] = compare_snapshots(ROOT, revision(ROOT, f"{commit}^"), revision(ROOT, commit), [family], SMALL)
    return report


pytestmark = pytest.mark.skipif(not _has("36522fb"), reason="needs the repository's full history")


def test_new_families_are_all_added() -> None:
    # 2e44b01 "bridgic and agent-swarm-kit families (issue 4)"
    for family in ("bridgic", "swarm"):
        report = judged("2e44b01", family)
        assert report.types and {t.verdict for t in report.types} == {ADDED}
        assert report.needed == "minor"


def test_real_dates_only_narrows_the_bridgic_timestamp() -> None:
    # 36522fb "... bridgic timestamp pattern admits only real dates ..."
    report = judged("36522fb", "bridgic")
    usage = next(t for t in report.types if t.name == "TokenUsage")
    assert usage.verdict == NARROWED
    assert any(
        c.rule.startswith("pattern changed") and c.where == "/properties/timestamp/pattern" for c in usage.changes
    )
    [witness] = usage.witnesses
    assert "timestamp" in witness.payload and witness.rejected_because.startswith("$.timestamp:")
    assert report.needed == "major"


def test_portable_pattern_rewrite_accepts_the_same_payloads() -> None:
    # 2bd8d3a "Portable patterns: keep bridgic's $ + not-newline guard": same set, other spelling
    usage = next(t for t in judged("2bd8d3a", "bridgic").types if t.name == "TokenUsage")
    assert usage.verdict == UNPROVEN and usage.witnesses == []
    assert any("pattern changed" in c.rule for c in usage.changes)
