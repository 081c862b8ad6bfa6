"""The accept list (release/accepted.json): a known break let through with a reason, an entry that
matches nothing or has expired fails the gate, a malformed list is a one-line error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.codegen_cli import run_evolution

from .schemasets import write
from .test_gate import NARROWER, repo

FAST = ("--seconds", "20", "--candidates", "400")
ENTRY = {"rule": "CS211", "type": "evo/T", "reason": "x was always sent; stored data has it"}


def accept(root: Path, *entries: dict[str, Any] | str) -> None:
    path = root / "release" / "accepted.json"
    path.parent.mkdir(exist_ok=True)
    body = entries[0] if len(entries) == 1 and isinstance(entries[0], str) else json.dumps({"accept": list(entries)})
    path.write_text(body, encoding="utf-8")


def test_an_accepted_break_passes_and_is_reported_as_accepted(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, NARROWER)
    assert run_evolution(root, *FAST).returncode == 1
    accept(root, {**ENTRY, "expires": "2999-12-31"})
    proc = run_evolution(root, *FAST, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    [finding] = json.loads(proc.stdout)["findings"]
    assert finding["accepted"] == {"entry": 1, "reason": ENTRY["reason"], "expires": "2999-12-31"}
    assert (finding["fails"], finding["severity"]) == (False, "warning")
    text = run_evolution(root, *FAST).stdout
    assert "  accepted [CS211] evo/T: narrowed: property 'x' became required" in text
    assert " ".join(text.split()).endswith(f"{ENTRY['reason']} (until 2999-12-31)")  # the line wraps


def test_an_entry_for_another_rule_does_not_let_the_break_through(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, NARROWER)
    accept(root, {**ENTRY, "rule": "CS213"})
    proc = run_evolution(root, *FAST)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "diff: 1 finding(s) fail the gate: 1 narrowed (evo/T)",
        "diff: release/accepted.json: entry 1 (CS213 evo/T) matches no finding: remove it",
    ]


def test_an_entry_that_matches_nothing_fails_the_gate(tmp_path: Path) -> None:
    root = repo(tmp_path)  # no change at all
    accept(root, ENTRY, {**ENTRY, "type": "other/T"})  # another family's entry is not this run's to judge
    proc = run_evolution(root, *FAST)
    assert proc.returncode == 1
    assert proc.stderr == "diff: release/accepted.json: entry 1 (CS211 evo/T) matches no finding: remove it\n"


def test_an_expired_entry_fails_and_lets_nothing_through(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, NARROWER)
    accept(root, {**ENTRY, "expires": "2001-02-03"})
    proc = run_evolution(root, *FAST)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "diff: 1 finding(s) fail the gate: 1 narrowed (evo/T)",
        "diff: release/accepted.json: entry 1 (CS211 evo/T) expired on 2001-02-03: fix the break or extend the date",
    ]


def test_a_problem_names_the_line_of_its_entry(tmp_path: Path) -> None:
    root = repo(tmp_path)
    path = root / "release" / "accepted.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"accept": [ENTRY, {**ENTRY, "rule": "CS213"}]}, indent=2), encoding="utf-8")
    data = json.loads(run_evolution(root, *FAST, "--format", "json").stdout)
    assert [(p["line"], p["message"].split(": ", 2)[2]) for p in data["problems"]] == [
        (3, "entry 1 (CS211 evo/T) matches no finding: remove it"),
        (8, "entry 2 (CS213 evo/T) matches no finding: remove it"),
    ]


def test_the_accept_option_names_another_file(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, NARROWER)
    (root / "known.json").write_text(json.dumps({"accept": [ENTRY]}), encoding="utf-8")
    assert run_evolution(root, *FAST, "--accept", "known.json").returncode == 0
    proc = run_evolution(root, *FAST, "--accept", "missing.json")
    assert proc.returncode == 2 and proc.stderr == f"diff: --accept missing.json: no such file under {root}\n"


def test_a_malformed_list_exits_2_with_one_line(tmp_path: Path) -> None:
    root = repo(tmp_path)
    cases: list[tuple[dict[str, Any] | str, str]] = [
        ("[", "diff: release/accepted.json: invalid JSON at line 1 column 2: Expecting value"),
        ("[]", 'diff: release/accepted.json: expected {"accept": [entries]}'),
        ({"rule": "CS999"}, "diff: release/accepted.json: /accept/0/type: a non-empty string is required"),
        ({**ENTRY, "rule": "CS999"}, "diff: release/accepted.json: /accept/0/rule: 'CS999' is not a rule id"),
        ({**ENTRY, "type": "T"}, "diff: release/accepted.json: /accept/0/type: 'T' is not family/Type"),
        ({**ENTRY, "expires": "2027-02-30"}, "diff: release/accepted.json: /accept/0/expires: '2027-02-30' is not"),
        ({**ENTRY, "why": "x"}, "diff: release/accepted.json: /accept/0/why: unknown key"),
    ]
    for body, message in cases:
        accept(root, body)
        proc = run_evolution(root, *FAST)
        assert proc.returncode == 2, (body, proc.stderr)
        assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(message), (body, proc.stderr)
