"""Issue 32 (F10): the witness search of a type has a time budget; past it, the verdict is `unknown`,
taken as breaking, instead of a diff that runs for hours inside a backtracking pattern."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from release.evolution import witness
from release.evolution.engine import UNKNOWN, FamilyReport, TypeReport
from release.evolution.report import render_text
from release.evolution.rules import WIDENED
from release.evolution.witness import Budget, OutOfTime, Witness, time_limit

from .schemasets import diff_types

STR = {"type": "string"}


def _type(pattern: str) -> dict[str, Any]:
    """A file `t.json` defining `T`, an object with a string `s` under `pattern`."""
    return {"t.json": {"T": {"type": "object", "properties": {"s": {**STR, "pattern": pattern}}, "required": ["s"]}}}


def test_the_limit_stops_a_backtracking_regular_expression() -> None:
    started = time.monotonic()
    with pytest.raises(OutOfTime), time_limit(0.2):
        re.search(r"^(a+)+$", "a" * 60 + "!")  # 2**60 steps: it would never end
    assert time.monotonic() - started < 30


class _SlowFinalizer:
    """An object whose finalizer is still running when the time limit expires."""

    def __del__(self) -> None:
        time.sleep(0.5)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_expiry_dropped_in_a_finalizer_comes_again() -> None:
    # Python prints and drops an exception raised in a finalizer: the limit must not end there.
    started = time.monotonic()
    with pytest.raises(OutOfTime), time_limit(0.2):
        _SlowFinalizer()  # collected at once; the expiry lands in its __del__
        while time.monotonic() - started < 10:
            pass
    assert time.monotonic() - started < 5


def test_a_search_past_its_budget_says_unknown_and_breaks_the_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def endless(*args: Any) -> None:
        re.search(r"^(a+)+$", "a" * 60 + "!")  # as a witness candidate under a backtracking pattern

    monkeypatch.setattr(witness, "_search", endless)
    report = diff_types(tmp_path, _type("^a+$"), _type("^(a+)+$"), Budget(seconds=0.3))["T"]
    assert report.verdict == UNKNOWN and report.witnesses == []
    assert report.notes == ["the witness search ran out of its 0.3 s before it could decide"]


def test_a_witness_found_before_the_time_ran_out_stands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def one_then_endless(*args: Any) -> None:
        found = args[-1]
        found[WIDENED] = Witness(WIDENED, {"s": "b"}, "a test", "")
        re.search(r"^(a+)+$", "a" * 60 + "!")

    monkeypatch.setattr(witness, "_search", one_then_endless)
    report = diff_types(tmp_path, _type("^a+$"), _type("^(a|b)+$"), Budget(seconds=0.3))["T"]
    assert report.verdict == WIDENED and [w.direction for w in report.witnesses] == [WIDENED]
    assert report.notes == ["the witness search ran out of its 0.3 s before it could decide"]


def test_unknown_fails_the_gate_unless_left_out_of_it() -> None:
    import datetime

    from release.evolution.findings import collect
    from release.evolution.gate import parse_fail_on, resolve

    family = FamilyReport("evo", "BASE", "1.0.0", "1.0.0", "none", [TypeReport("T", UNKNOWN)], [])
    for fail_on in (None, "unknown", "any", "narrowed,unknown", "widened,unknown"):
        chosen = parse_fail_on([fail_on], "x") if fail_on else None
        [finding] = collect([family], {"evo": resolve(None, chosen, None, None)}, False, [], datetime.date.today())
        assert finding.fails and finding.rule.id == "CS107" and finding.severity == "error"
    for fail_on in ("narrowed", "widened", "api"):
        settings = {"evo": resolve(None, parse_fail_on([fail_on], "x"), None, None)}
        assert not collect([family], settings, False, [], datetime.date.today())[0].fails
    assert "unknown: the witness search ran out of time" in render_text([family])
