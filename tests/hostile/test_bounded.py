"""Issue 2: cost per message bounded by its size, whatever its number of violations; values shortened."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chatschema import schemas

from .common import BACKENDS, counts, run


def bad_parts(n: int) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "image"}] * n}


def test_violations_capped_with_an_exact_count_of_the_rest() -> None:
    found, omitted = schemas.violations_counted(bad_parts(3000), "docent/ChatMessage")
    assert len(found) == schemas.MAX_VIOLATIONS == 20
    assert omitted == 3000 - 20
    assert all(v.message == "unknown type 'image', expected one of 'text', 'reasoning'" for v in found)
    with pytest.raises(schemas.PayloadError) as caught:
        schemas.validate(bad_parts(3000), "docent/ChatMessage")
    assert caught.value.omitted == 2980 and len(caught.value.violations) == 20
    assert str(caught.value).startswith(
        "payload is not a valid docent/ChatMessage (3000 violations, the first 20 shown)"
    )


def test_few_violations_are_all_listed() -> None:
    found, omitted = schemas.violations_counted(bad_parts(20), "docent/ChatMessage")
    assert (len(found), omitted) == (20, 0)
    found, omitted = schemas.violations_counted(bad_parts(21), "docent/ChatMessage")
    assert (len(found), omitted) == (20, 1)


def _peak(payload: Any, dispatch: bool = True) -> int:
    tracemalloc.start()
    try:
        schemas.violations_counted(payload, "docent/ChatMessage", dispatch=dispatch)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("dispatch", [True, False])
def test_memory_does_not_grow_with_the_number_of_violations(dispatch: bool) -> None:
    # dispatch=False: every union branch explains the payload, and a branch's errors are capped too
    # (uncapped, 5,000 parts took 292 MB)
    small, large = _peak(bad_parts(200), dispatch), _peak(bad_parts(2000), dispatch)
    assert large < small * 2 + 200_000, (small, large)  # not 10x: the violations past 20 are only counted


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_command_s_memory_does_not_grow_with_the_number_of_violations(tmp_path: Path, backend: str) -> None:
    # In the command, not only the API: its hot loop runs without the cycle collector, which must
    # not leave the reference's errors (cyclic: `error.parent`) behind (930 MB for 100,000 parts).
    def peak(n: int) -> int:
        path = tmp_path / f"{n}.jsonl"
        path.write_text(json.dumps(bad_parts(n)) + "\n")
        tracemalloc.start()
        try:
            code, out, err = run(["-s", "docent/ChatMessage", "--backend", backend, str(path)])
            assert code == 1 and counts(err) == (1, 0, 1, 0) and out.endswith(f"and {n - 20:,} more violations\n")
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(500), peak(5000)
    # What grows is the message itself (its line and its parsed value: about 400 bytes a part), not
    # its violations past the first 20: errors left to the cycle collector took about 9,300 a part.
    assert (large - small) / 4500 < 1_000, (small, large)


def test_a_verdict_stops_at_the_first_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    # `is_valid` (and the reference backend's hot loop) need one violation, not all of them.
    import chatschema.schemas as module

    explained: list[object] = []

    def explain(*args: object) -> Iterator[object]:
        explained.append(args)
        return iter(())

    monkeypatch.setattr(module, "_explain", explain)
    assert not schemas.is_valid(bad_parts(5000), "docent/ChatMessage")
    assert not schemas.verdict_validator("docent/ChatMessage").is_valid(bad_parts(5000))
    assert explained == []  # nothing was explained or counted
    errors = list(schemas.verdict_validator("docent/ChatMessage").iter_errors(bad_parts(5000)))
    assert len(errors) == 1  # the content's anyOf: its array branch failed at its first part


def test_untagged_union_violations_are_capped_too() -> None:
    calls = [{"name": 1, "arguments": 2, "tool_call_id": 3}] * 2000
    payload: dict[str, Any] = {"message_type": "tool_call_message", "id": "m", "date": "2024-01-01T00:00:00Z"}
    payload["tool_call"] = {}
    payload["tool_calls"] = calls
    found, omitted = schemas.violations_counted(payload, "letta/LettaMessage")
    assert len(found) <= 20 and omitted > 1000


@pytest.mark.parametrize("backend", BACKENDS)
def test_error_lines_are_short_whatever_the_value(tmp_path: Path, backend: str) -> None:
    long_arguments = {
        "message_type": "tool_call_message",
        "id": "m",
        "date": "2024-01-01T00:00:00Z",
        "tool_call": {"name": "f", "arguments": {"k": "v" * 100_000}, "tool_call_id": "c"},
    }
    array = [{"role": "user", "content": "x" * 1000}] * 100
    path = tmp_path / "long.jsonl"
    lines = [json.dumps(long_arguments), json.dumps({"role": "x" * 100_000}), json.dumps(bad_parts(1000))]
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(["-s", "auto", "--backend", backend, str(path)])
    assert code == 1 and counts(err) == (3, 0, 3, 0)
    for line in out.splitlines():
        assert len(line) < 5000, line[:300]
    first, second, third = out.splitlines()
    assert "$.tool_call.arguments: expected a JSON-encoded string, got an object: {'k': 'vvvv" in first
    assert "..." in first and "(closest of ToolCall, ToolCallDelta: ToolCall)" in first
    assert "unknown role 'xxxx" in second
    assert third.endswith("; and 980 more violations [docent/ChatMessage]")
    whole = tmp_path / "array.json"
    whole.write_text(json.dumps(array))
    code, out, _ = run(["-s", "docent/ChatMessage", "--backend", backend, str(whole)])
    assert code == 1 and len(out) < 400, out
    assert out.rstrip().endswith("is not of type 'object' (a top-level array: --each validates its elements)")


def test_json_format_counts_the_omitted(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text(json.dumps(bad_parts(50)) + "\n")
    _, out, _ = run(["-s", "docent/ChatMessage", "--format", "json", str(path)])
    record = json.loads(out)
    assert len(record["errors"]) == 20 and record["omitted"] == 30


def test_short_repr_is_bounded() -> None:
    deep: Any = "x" * 10_000
    for _ in range(2000):
        deep = {"k": [deep, deep]}
    assert len(schemas.short_repr(deep)) <= 100
    assert len(schemas.short_repr("y" * 1_000_000)) <= 100
    assert schemas.short_repr("short") == "'short'"
