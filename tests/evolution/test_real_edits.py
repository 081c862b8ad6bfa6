"""The evolution gate on edits of the real schemas (the catalogue in real_edits.py): for each edit,
the named type's verdict, the rule id of its finding, whether the gate fails under each
`--mode`, and every witness re-checked with plain jsonschema against each version's own files.

The default suite runs the edits not marked slow (each a second or less); `nox -s
evolution_catalogue` (CHATSCHEMA_REAL_EDITS=all) runs every edit.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from release.evolution.cli import parser
from release.evolution.engine import BOTH, UNCHANGED
from release.evolution.ids import CHANGES
from release.evolution.rules import NARROWED, WIDENED
from release.evolution.run import judge as run_gate

from .real_edits import BACKWARD, EDITS, EVERY, FORWARD, NONE, ROOT, Edit, apply, copy_schemas, judge
from .schemasets import validator_of

FULL = os.environ.get("CHATSCHEMA_REAL_EDITS") == "all"
CHOSEN = [e for e in EDITS if FULL or not e.slow]
FAMILIES = {"bridgic", "docent", "letta", "swarm"}


def test_the_catalogue_spans_every_family_verdict_and_mode() -> None:
    assert len(EDITS) >= 40 and len({e.id for e in EDITS}) == len(EDITS)
    for edits in (EDITS, [e for e in EDITS if not e.slow]):  # the default slice as well as the whole
        assert Counter(e.family for e in edits).keys() == FAMILIES
        assert {e.verdict for e in edits} == {NARROWED, WIDENED, BOTH, UNCHANGED}
        assert {e.fails for e in edits} == {NONE, BACKWARD, FORWARD, EVERY}
    assert min(Counter(e.family for e in EDITS).values()) >= 10
    known = {info.id for info in CHANGES.values()}
    assert {e.rule for e in EDITS if e.rule is not None} <= known
    assert all((e.rule is None) == (e.verdict == UNCHANGED) for e in EDITS)


def test_the_docs_count_the_edits() -> None:
    text = " ".join((ROOT / "docs" / "evolution.md").read_text(encoding="utf-8").split())
    counts = Counter(e.family for e in EDITS)
    assert f"holds the gate to {len(EDITS)} edits" in text
    assert ", ".join(f"{family} {counts[family]}" for family in sorted(FAMILIES)) in text
    assert f"The suite runs the {sum(not e.slow for e in EDITS)} edits not marked slow" in text
    assert f"with the {sum(e.slow for e in EDITS)} whose search" in text


@pytest.mark.parametrize("edit", CHOSEN, ids=[e.id for e in CHOSEN])
def test_real_edit(tmp_path: Path, edit: Edit) -> None:
    judged = judge(edit, tmp_path)
    report = judged.report
    assert report.verdict == edit.verdict, (edit.id, report)
    assert sorted({f.rule.id for f in judged.findings}) == ([edit.rule] if edit.rule else []), judged.findings
    assert {mode for mode, failed in judged.fails.items() if failed} == edit.fails
    assert judged.type_fails == judged.fails  # the named type's own finding is what fails the gate
    if edit.verdict == UNCHANGED:
        assert report.changes == [] and report.witnesses == [] and judged.findings == []
        assert any(note.startswith("description changed") for note in report.notes), report.notes
        return
    # Each finding points at the edited file, on a line of it.
    assert {(f.file, f.line is not None) for f in judged.findings} == {(f"schemas/{edit.file}", True)}
    directions = {NARROWED, WIDENED} if edit.verdict == BOTH else {edit.verdict}
    assert {w.direction for w in report.witnesses} == directions
    before, after = validator_of(judged.old.files, edit.type), validator_of(judged.new.files, edit.type)
    for w in report.witnesses:
        valid = (before.is_valid(w.payload), after.is_valid(w.payload))
        assert valid == (w.direction == NARROWED, w.direction == WIDENED), (w, valid)


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True, capture_output=True
    )


def test_the_command_line_judges_an_edit_as_the_catalogue_does(tmp_path: Path) -> None:
    # The whole path of `python -m release.evolution --family F --mode M --fail-on unknown`, work
    # tree against HEAD, on an edit of a type no other type reaches (so the family compares fast).
    [edit] = [e for e in EDITS if e.id == "swarm-closed"]
    copy_schemas(tmp_path)
    _git(tmp_path, "init", "-q", "-b", "main")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "the real schemas")
    apply(edit, tmp_path)
    for mode in ("backward", "forward"):
        args = parser().parse_args(["--family", edit.family, "--mode", mode, "--fail-on", "unknown"])
        outcome, _ = run_gate(args, tmp_path)
        assert outcome.failed == (mode in edit.fails), mode
        changed = {f.subject: f.rule.id for f in outcome.findings}
        assert changed == {f"{edit.family}/{edit.type}": edit.rule}, changed
