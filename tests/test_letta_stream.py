"""Letta stream reassembly: frames in arrival order -> complete messages valid without streaming."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from chatschema import schemas
from chatschema.letta import ToolCallMessage, parse_letta_streaming_response
from chatschema.letta.stream import LettaStream, StreamError, iter_sse, reassemble, reassemble_sse

DATE = "2025-10-01T12:30:45+00:00"
RUN = "run-8a7b6c5d-4e3f-2a1b-0c9d-8e7f6a5b4c3d"


def frame(message_type: str, otid: str, seq: int | None, **fields: Any) -> dict[str, Any]:
    msg_id = "message-" + otid.split("-")[0]
    return {
        "id": msg_id,
        "date": DATE,
        "message_type": message_type,
        "otid": otid,
        "seq_id": seq,
        "run_id": RUN,
        **fields,
    }


def delta(otid: str, seq: int | None, **parts: Any) -> dict[str, Any]:
    return frame("tool_call_message", otid, seq, tool_call=parts, tool_calls=parts)


def background_stream() -> list[dict[str, Any]]:
    """Reasoning, then two parallel tool calls streamed in fragments, as Letta sends them with seq_ids."""
    return [
        frame("reasoning_message", "r-0", 1, reasoning="The user wants the weather; ", source="reasoner_model"),
        frame("reasoning_message", "r-0", 2, reasoning="search.", signature="ErUB"),
        delta("t-1", 3, name="web_search", tool_call_id="call_Qd8"),
        delta("t-1", 4, arguments='{"query": "weath', tool_call_id="call_Qd8"),
        {"id": "message-t", "date": DATE, "message_type": "ping", "seq_id": 5},
        delta("t-1", 6, arguments='er in Paris", "request_heartbeat": true}', tool_call_id="call_Qd8"),
        delta("t-1", 7, name="archival_memory_search", tool_call_id="call_Rt5"),
        delta("t-1", 8, arguments='{"query": ', tool_call_id="call_Rt5"),
        delta("t-1", 9, arguments='"Paris trip"}', tool_call_id="call_Rt5"),
        frame("assistant_message", "a-2", 10, content="Looking "),
        frame("assistant_message", "a-2", 11, content="it up."),
        {"message_type": "stop_reason", "stop_reason": "end_turn"},
        {"message_type": "usage_statistics", "completion_tokens": 152, "prompt_tokens": 4310, "total_tokens": 4462},
    ]


EXPECTED_CALLS = [
    {
        "name": "web_search",
        "arguments": '{"query": "weather in Paris", "request_heartbeat": true}',
        "tool_call_id": "call_Qd8",
    },
    {"name": "archival_memory_search", "arguments": '{"query": "Paris trip"}', "tool_call_id": "call_Rt5"},
]


def check(result: LettaStream) -> None:
    """The expected messages, each valid under the non-streaming schema."""
    kinds = [m.message_type for m in result.messages]
    assert kinds == ["reasoning_message", "tool_call_message", "assistant_message"]
    reasoning, calls, reply = (m.model_dump(mode="json") for m in result.messages)
    assert reasoning["reasoning"] == "The user wants the weather; search." and reasoning["signature"] == "ErUB"
    assert calls["tool_calls"] == EXPECTED_CALLS and calls["tool_call"] == EXPECTED_CALLS[0]
    assert calls["otid"] == "t-1" and calls["seq_id"] == 9
    assert reply["content"] == "Looking it up."
    for m in result.messages:
        schemas.validate(m.model_dump(mode="json"), "letta/LettaMessage")
    assert isinstance(result.messages[1], ToolCallMessage)
    assert result.stop_reason is not None and result.stop_reason.stop_reason == "end_turn"
    assert result.usage is not None and result.usage.total_tokens == 4462
    assert result.last_seq_id == 11


def test_multi_call_stream_reassembles() -> None:
    check(reassemble(background_stream()))


def test_models_are_accepted_as_frames() -> None:
    check(reassemble([parse_letta_streaming_response(f) for f in background_stream()]))


@pytest.mark.parametrize("seed", range(5))
def test_shuffled_seq_ids_are_put_back_in_order(seed: int) -> None:
    frames = background_stream()
    random.Random(seed).shuffle(frames)
    check(reassemble(frames))


def test_duplicated_frames_from_a_retry_are_dropped() -> None:
    frames = background_stream()
    check(reassemble(frames[:6] + frames[2:9] + frames[6:]))


def test_a_reused_seq_id_with_other_content_is_an_error() -> None:
    frames = background_stream()
    forged = delta("t-1", 4, arguments='{"query": "other', tool_call_id="call_Qd8")
    with pytest.raises(StreamError, match=r"frame 13 \(seq_id 4\): differs from frame 3 \(seq_id 4\)"):
        reassemble([*frames, forged])


def test_a_gap_in_seq_ids_is_an_error() -> None:
    frames = background_stream()
    with pytest.raises(StreamError, match=r"gap in seq_id: 5 is followed by 8 \(missing 6\.\.7\)"):
        reassemble(frames[:5] + frames[7:])


def test_a_truncated_stream_is_an_error() -> None:
    frames = background_stream()
    with pytest.raises(StreamError, match="no stop_reason frame"):
        reassemble(frames[:-2])
    with pytest.raises(StreamError, match=r"call call_Qd8: arguments are not complete JSON after reassembly"):
        reassemble(frames[:4], complete=False)


def test_a_frame_of_another_message_is_an_error() -> None:
    frames = background_stream()
    stranger = {**frames[3], "id": "message-other"}
    with pytest.raises(
        StreamError, match=r"frame 3 \(seq_id 4\): does not belong to the message being built \(otid t-1\)"
    ):
        reassemble([*frames[:3], stranger, *frames[4:]])
    interleaved = [*frames[:4], frame("assistant_message", "a-2", 5, content="x"), *frames[5:]]
    with pytest.raises(StreamError, match="which another message interrupted"):
        reassemble(interleaved)


def test_without_seq_ids_a_retried_request_replays_and_the_complete_attempt_wins() -> None:
    plain = [{**f, "seq_id": None} if "seq_id" in f else f for f in background_stream()]
    cut_off = plain[:4]  # the first attempt dies inside the first tool call's arguments
    result = reassemble(cut_off + plain)
    assert [m.model_dump(mode="json")["tool_calls"] for m in result.messages[1:2]] == [EXPECTED_CALLS]
    assert reassemble(plain + plain).messages == reassemble(plain).messages
    assert result.last_seq_id is None


def test_a_complete_non_streamed_tool_call_message_passes_through() -> None:
    complete = frame("tool_call_message", "t-9", None, tool_call=EXPECTED_CALLS[0], tool_calls=EXPECTED_CALLS)
    result = reassemble([complete, {"message_type": "stop_reason", "stop_reason": "end_turn"}])
    assert result.messages[0].model_dump(mode="json")["tool_calls"] == EXPECTED_CALLS


def test_a_fragment_for_an_unknown_call_or_a_renamed_call_is_an_error() -> None:
    orphan = delta("t-1", None, arguments="{}")
    with pytest.raises(StreamError, match="a fragment without tool_call_id before any call started"):
        reassemble([orphan], complete=False)
    renamed = [delta("t-1", None, name="a", tool_call_id="c"), delta("t-1", None, name="b", tool_call_id="c")]
    with pytest.raises(StreamError, match="call c renamed from 'a' to 'b'"):
        reassemble(renamed, complete=False)


def test_error_frames_are_returned_not_raised() -> None:
    error = {
        "message_type": "error_message",
        "run_id": RUN,
        "error_type": "llm_error",
        "message": "boom",
        "detail": None,
        "seq_id": None,
    }
    result = reassemble([error], complete=False)
    assert [e.message for e in result.errors] == ["boom"] and result.messages == []


def sse(frames: list[dict[str, Any]], done: bool = True) -> str:
    body = "".join(f"data: {json.dumps(f)}\n\n" for f in frames)
    return ": keep-alive\n\n" + body + ("data: [DONE]\n\n" if done else "")


def test_sse_text_stream() -> None:
    frames = background_stream()
    check(reassemble_sse(sse(frames)))
    check(reassemble_sse(sse(frames).splitlines(keepends=True)))
    error_event = (
        'event: error\ndata: {"message_type": "error_message", "run_id": "r", "error_type": "x", "message": "m"}\n\n'
    )
    assert len(reassemble_sse(error_event + sse(frames)).errors) == 1


def test_sse_errors() -> None:
    frames = background_stream()
    with pytest.raises(StreamError, match=r"ends without `data: \[DONE\]`"):
        reassemble_sse(sse(frames, done=False))
    with pytest.raises(StreamError, match="line 2: event data is not JSON"):
        list(iter_sse("data: {oops\n\ndata: [DONE]\n"))
    with pytest.raises(StreamError, match="data after"):
        list(iter_sse("data: [DONE]\n\ndata: {}\n\n"))
