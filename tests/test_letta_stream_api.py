"""`reassemble_sse` and `reassemble` as called with their defaults, and what the result says of each frame."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chatschema.letta import parse_letta_streaming_response
from chatschema.letta.sse import iter_sse_events
from chatschema.letta.stream import StreamError, reassemble, reassemble_sse
from tests.test_letta_stream import STOP, VECTORS, body, delta, frame, load, summary


def _outcome(call: Any) -> dict[str, Any] | str:
    try:
        return summary(call())
    except StreamError as exc:
        return f"StreamError: {exc}"


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_defaults_are_complete_and_not_strict(path: Any) -> None:
    """Called without options, every stream gives what `complete=True, strict=False` gives."""
    text = body(load(path))
    assert _outcome(lambda: reassemble_sse(text)) == _outcome(lambda: reassemble_sse(text, complete=True, strict=False))


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_every_frame_is_accounted_for_at_its_position(path: Any) -> None:
    vector = load(path)
    try:
        result = reassemble_sse(body(vector), **vector["options"])
    except StreamError:
        return
    assert [a.index for a in result.frames] == list(range(len(list(iter_sse_events(body(vector))))))


def test_errors_name_the_event_and_its_line() -> None:
    text = ": keep-alive\n\ndata: [DONE]\n\ndata: 1\n\n"
    result = reassemble_sse(text, complete=False)
    assert [(a.index, a.outcome, a.reason) for a in result.frames] == [(0, "done", None), (1, "dropped", "after_done")]
    assert result.frames[1].detail == "event 1 (line 6): an 'message' event after data: [DONE]"
    first = json.dumps(frame("assistant_message", "a-1", None, content="x"))
    with pytest.raises(StreamError, match=r"^event 1 \(line 4\): event data is JSON but not an object"):
        reassemble_sse(f"data: {first}\n\ndata: 1\n\n")


def test_without_a_stop_reason_reassemble_raises_unless_told_otherwise() -> None:
    frames = [frame("assistant_message", "a-1", None, content="hi")]
    with pytest.raises(StreamError, match="stream truncated"):
        reassemble(frames)
    assert [m.model_dump(mode="json")["content"] for m in reassemble(frames, complete=False).messages] == ["hi"]
    assert [m.model_dump(mode="json")["content"] for m in reassemble([*frames, STOP]).messages] == ["hi"]


def test_model_frames_give_the_messages_dict_frames_give() -> None:
    """A parsed model carries only the keys it was given: reassembly adds none."""
    frames = [
        frame("assistant_message", "a-1", None, content="a"),
        delta("t-2", None, name="f", tool_call_id="c"),
        delta("t-2", None, arguments="{}", tool_call_id="c"),
        STOP,
    ]
    models = [parse_letta_streaming_response(f) for f in frames]

    def dumped(result: Any) -> list[dict[str, Any]]:
        return [m.model_dump(mode="json", exclude_unset=True) for m in result.messages]

    assert dumped(reassemble(models)) == dumped(reassemble(frames))
