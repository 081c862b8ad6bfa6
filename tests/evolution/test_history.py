"""This repository's own schema commits, judged by the evolution diff (`python -m release.evolution`) and checked against what each
commit message says (bounded: the families each message talks about, a small search budget)."""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

import pytest

from release.evolution.engine import ADDED, UNPROVEN, FamilyReport, compare_snapshots
from release.evolution.rules import NARROWED, WIDENED
from release.evolution.source import revision
from release.evolution.witness import Budget

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
    # 2e44b01 "bridgic and agent-swarm-kit families"
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


def test_letta_family_is_added() -> None:
    # 9e7b8b0 "Letta family schemas: ..."
    report = judged("9e7b8b0", "letta")
    assert len(report.types) > 20 and {t.verdict for t in report.types} == {ADDED}


def test_letta_base_without_message_type_widens_only_the_base() -> None:
    # bb36012 "Letta base fields without message_type: TypedDicts cannot narrow an inherited key"
    report = judged("bb36012", "letta")
    verdicts = {t.name: t for t in report.types if t.verdict != "unchanged"}
    base = verdicts.pop("LettaMessageBase")
    assert base.verdict == WIDENED and "message_type" not in base.witnesses[0].payload
    assert any("'message_type'" in c.rule for c in base.changes)
    # every message still requires its own message_type: no payload tells the versions apart
    assert verdicts and {t.verdict for t in verdicts.values()} == {UNPROVEN}


def test_typed_turns_narrow_letta_response() -> None:
    # 36522fb "... letta LettaResponse.turns items typed (LettaTurn)"
    report = judged("36522fb", "letta")
    response = next(t for t in report.types if t.name == "LettaResponse")
    assert response.verdict == NARROWED
    assert any(c.rule == "reference to LettaTurn added" for c in response.changes)
    assert response.witnesses[0].rejected_because.startswith("$.turns[0]:")
    assert next(t for t in report.types if t.name == "LettaTurn").verdict == ADDED


def test_restated_tag_and_portable_pattern_change_nothing() -> None:
    # 68304da "... lint: portable patterns and union tags in a branch's own properties"
    docent = {t.name: t.verdict for t in judged("68304da", "docent").types}
    assert docent["DocentAssistantMessage"] == UNPROVEN and docent["DocentChatMessage"] == UNPROVEN
    bridgic = {t.name: t.verdict for t in judged("68304da", "bridgic").types}
    assert bridgic["TokenUsage"] == UNPROVEN
