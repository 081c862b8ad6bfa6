"""What Letta stream reassembly says about the frames around the messages: where gaps are, which
duplicate is dropped, why a stream is truncated, which runs mix, and that no fragment skips its check."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime
from typing import Any

import pytest

from chatschema.letta.stream import SeqGap, StreamError, reassemble, reassemble_resumed, reassemble_sse
from tests.test_letta_stream import STOP, frame

USAGE = {"message_type": "usage_statistics", "completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}


def _ping(seq: int) -> dict[str, Any]:
    return {"id": "p", "date": "2025-10-01T12:30:45+00:00", "message_type": "ping", "seq_id": seq}


def _sse(frames: list[dict[str, Any]]) -> str:
    return "".join(f"data: {json.dumps(f)}\n\n" for f in frames)


def _contents(result: Any) -> list[Any]:
    return [m.model_dump(mode="json")["content"] for m in result.messages]


# ---- seq_id gaps: where they are, and what they are ---------------------------------------------


def test_a_gap_between_two_messages_names_the_message_on_each_side() -> None:
    """A gap after the first message's only frame names that message before it (and the next after)."""
    frames = [
        frame("assistant_message", "a-1", 1, content="x"),
        frame("assistant_message", "b-2", 3, content="y"),
        STOP,
    ]
    result = reassemble(frames, gaps="report")
    assert _contents(result) == ["x", "y"]
    assert result.gaps == [SeqGap(2, 2, 0, 1)]


def test_a_gap_before_the_first_message_frame_has_no_message_before_it() -> None:
    """Only a ping comes before the gap: there is no message before it, the first message is after it."""
    frames = [_ping(1), frame("assistant_message", "a-1", 3, content="x"), STOP]
    result = reassemble(frames, gaps="report")
    assert _contents(result) == ["x"]
    assert result.gaps == [SeqGap(2, 2, None, 0)]


def test_a_gap_after_the_last_message_frame_has_no_message_after_it() -> None:
    """A gap after the last message frame that the unnumbered stop frame cannot explain is reported
    with that message before it and none after it."""
    frames = [frame("assistant_message", "a-1", 1, content="x"), _ping(5), STOP]
    result = reassemble(frames, gaps="report")
    assert _contents(result) == ["x"]
    assert result.gaps == [SeqGap(2, 4, 0, None)]


def test_a_reported_gap_is_an_immutable_hashable_value() -> None:
    """SeqGap is a frozen value: it cannot be changed after the fact, and can go in a set or be a key."""
    frames = [
        frame("assistant_message", "a-1", 1, content="x"),
        frame("assistant_message", "b-2", 3, content="y"),
        STOP,
    ]
    (gap,) = reassemble(frames, gaps="report").gaps
    assert {gap: "hole"} == {SeqGap(2, 2, 0, 1): "hole"}
    with pytest.raises(FrozenInstanceError):
        gap.first = 7  # type: ignore[misc]
    assert gap.first == 2


# ---- the stop reason and the frames around it ---------------------------------------------------


def test_a_message_frame_numbered_as_the_stop_reason_is_not_after_it() -> None:
    """Only a message frame whose seq_id is above the stop reason's is after it: one with the same
    number is kept and merged."""
    frames = [
        frame("assistant_message", "a-1", 1, content="x"),
        {**STOP, "seq_id": 2},
        frame("assistant_message", "a-1", 2, content="y"),
    ]
    result = reassemble(frames)
    assert _contents(result) == ["xy"]
    assert result.dropped == []


def test_a_second_stop_reason_is_dropped_saying_which_one_was_kept() -> None:
    frames = [frame("assistant_message", "a-1", None, content="x"), STOP, {**STOP, "stop_reason": "max_steps"}]
    result = reassemble(frames)
    assert result.stop_reason is not None and result.stop_reason.stop_reason == "end_turn"
    (dropped,) = result.dropped
    assert (dropped.index, dropped.reason) == (2, "duplicate_stop_reason")
    assert dropped.detail == "frame 2: a second stop_reason ('end_turn' kept)"


def test_a_second_usage_is_dropped_saying_the_first_was_kept() -> None:
    """After the stop reason and the usage, another usage frame is a duplicate (not a second stop reason)."""
    frames = [frame("assistant_message", "a-1", None, content="x"), STOP, USAGE, {**USAGE, "total_tokens": 3}]
    result = reassemble(frames)
    assert result.usage is not None and result.usage.total_tokens == 2
    (dropped,) = result.dropped
    assert (dropped.index, dropped.reason) == (3, "duplicate_usage")
    assert dropped.detail == "frame 3: a second usage_statistics (the first kept)"


# ---- complete streams ---------------------------------------------------------------------------


def test_an_sse_body_without_stop_or_done_says_it_lacks_both() -> None:
    body = _sse([frame("assistant_message", "a-1", None, content="x")])
    with pytest.raises(StreamError, match=r"^stream truncated: it ends without a stop_reason and `data: \[DONE\]`"):
        reassemble_sse(body)


def test_a_resumed_run_must_end_with_done_like_one_sse_body() -> None:
    """`reassemble_resumed` reads SSE bodies: a run that stopped but whose last body never reached
    `data: [DONE]` is truncated, as in `reassemble_sse`."""
    bodies = [_sse([frame("assistant_message", "a-1", 1, content="x")]), _sse([{**STOP, "seq_id": 2}])]
    with pytest.raises(StreamError, match=r"^stream truncated: it ends without `data: \[DONE\]` after its stop_reason"):
        reassemble_resumed(bodies)
    result = reassemble_resumed([bodies[0], bodies[1] + "data: [DONE]\n\n"])
    assert _contents(result) == ["x"] and result.done


# ---- runs ---------------------------------------------------------------------------------------


def test_reassemble_does_not_require_frames_of_one_run() -> None:
    """Only `reassemble_resumed` insists on one `run_id`; `reassemble` and `reassemble_sse` merge
    messages of different runs."""
    frames = [
        {**frame("assistant_message", "a-1", None, content="x"), "run_id": "run-1"},
        {**frame("assistant_message", "b-2", None, content="y"), "run_id": "run-2"},
        STOP,
    ]
    assert _contents(reassemble(frames)) == ["x", "y"]
    assert _contents(reassemble_sse(_sse(frames) + "data: [DONE]\n\n")) == ["x", "y"]
    with pytest.raises(StreamError, match="a frame of run 'run-2' among frames of run 'run-1'"):
        reassemble_resumed([_sse(frames) + "data: [DONE]\n\n"])


# ---- every fragment is validated as if alone ----------------------------------------------------


class _SameInstant:
    """Not a datetime, but says it equals one (as some date-time libraries' objects do)."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __eq__(self, other: object) -> bool:
        return other == self.moment

    __hash__ = None  # type: ignore[assignment]


class _EqualToAll(str):
    """A string that says it equals every value."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__


def test_a_fragment_whose_date_only_compares_equal_to_a_datetime_is_refused() -> None:
    """Fragments like a validated one skip pydantic only if their values are of the same types: a
    `date` that equals the first fragment's aware datetime but is no datetime is still refused."""
    moment = datetime(2025, 10, 1, 12, 30, 45, tzinfo=UTC)
    first = {**frame("assistant_message", "a-1", None, content="x"), "date": moment}
    second = {**first, "content": "y", "date": _SameInstant(moment)}
    assert _contents(reassemble([first, {**first, "content": "y"}, STOP])) == ["xy"]
    with pytest.raises(StreamError, match=r"^frame 1: not a valid letta/LettaStreamingResponse at \$\.date"):
        reassemble([first, second, STOP])


def test_a_fragment_whose_strings_say_they_equal_the_first_one_s_is_still_checked() -> None:
    """A `str` subclass that claims equality with anything does not vouch for itself: the fragment
    is checked, here its invalid date-time found, as when it comes alone. So it is when every string
    of the fragment is one."""
    first = frame("assistant_message", "a-1", None, content="x")
    with_date = {**first, "content": "y", "date": _EqualToAll("not a date")}
    all_claim = {k: _EqualToAll(v) if type(v) is str else v for k, v in with_date.items()}
    all_claim["content"] = "y"
    expected = r"not a valid letta/LettaStreamingResponse at \$\.date: Value error, 'not a date' is not an RFC 3339"
    for second in (with_date, all_claim):
        with pytest.raises(StreamError, match=r"^frame 0: " + expected):
            reassemble([second, STOP])
        with pytest.raises(StreamError, match=r"^frame 1: " + expected):
            reassemble([first, second, STOP])
