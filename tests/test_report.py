"""`chatschema validate`'s output, line by line: problem lines, JSONL records, the progress bar."""

from __future__ import annotations

import io
import json
import time

import pytest

from chatschema.validate.report import Reporter, json_record, text_line
from chatschema.validate.run import Problem, Result

INVALID = Problem("café.jsonl", False, 3, "invalid", "docent/ChatMessage", (("$.role", "unknown role 'bot'"),))


def test_text_line_names_the_schema_only_when_asked() -> None:
    assert text_line(INVALID) == "café.jsonl:3: $.role: unknown role 'bot'"
    assert text_line(INVALID, show_schema=True) == "café.jsonl:3: $.role: unknown role 'bot' [docent/ChatMessage]"


def test_a_json_record_keeps_a_utf8_file_name_readable() -> None:
    record = json_record(INVALID)
    assert '"file": "café.jsonl"' in record
    assert json.loads(record)["file"] == "café.jsonl"


def test_no_progress_bar_unless_asked() -> None:
    out, err = io.StringIO(), io.StringIO()
    reporter = Reporter(out, err)
    reporter.add(Result(read=1, invalid=1, size=10, problems=[INVALID]))
    assert out.getvalue() == "café.jsonl:3: $.role: unknown role 'bot'\n"  # no schema unless asked
    assert err.getvalue() == ""


@pytest.mark.parametrize(
    ("expected_size", "bar"),
    [
        (0, "\r2 read, 1 invalid, 0 malformed, "),  # size unknown (stdin): no share
        (20, "\r[##########..........]  50% 2 read, 1 invalid, 0 malformed, "),
        (5, "\r[####################] 100% 2 read, 1 invalid, 0 malformed, "),  # never past 100%
    ],
)
def test_the_progress_bar(expected_size: int, bar: str, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])
    out, err = io.StringIO(), io.StringIO()
    reporter = Reporter(out, err, progress=True)
    if expected_size:
        reporter.expected_size = expected_size
    clock[0] += 2.0
    reporter.add(Result(read=2, valid=1, invalid=1, size=10))
    shown = err.getvalue()
    assert shown == f"{bar}1 msg/s\x1b[K"
    clock[0] += 0.1
    reporter.add(Result(read=1, invalid=1, size=1, problems=[INVALID]))  # a problem line clears the bar
    reporter.add(Result(read=1, invalid=1, size=1, problems=[INVALID]))  # once: not redrawn within 0.2 s
    assert err.getvalue() == shown + "\r\x1b[K"


def test_the_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])
    reporter = Reporter(io.StringIO(), io.StringIO())
    reporter.add(Result(read=3, valid=1, invalid=1, malformed=1))
    assert reporter.summary() == "3 read, 1 valid, 1 invalid, 1 malformed in 0.00s (0 msg/s)"  # the clock did not move
    clock[0] += 0.5
    assert reporter.summary() == "3 read, 1 valid, 1 invalid, 1 malformed in 0.50s (6 msg/s)"
