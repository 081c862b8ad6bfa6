"""`reassemble_sse` and `reassemble` as called with their defaults, and what the result says of each frame."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from chatschema.letta import parse_letta_streaming_response
from chatschema.letta.sse import iter_sse_events
from chatschema.letta.stream import StreamError, reassemble, reassemble_sse
from codegen.verify_tree import stream_summary as summary
from tests.test_letta_stream import RUN, STOP, VECTORS, body, delta, frame, load

STOP_SSE = 'data: {"message_type": "stop_reason", "stop_reason": "end_turn"}\n\ndata: [DONE]\n\n'


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


_VALUES: list[Any] = [None, "", "x", 5, True, 1.5, {}, [], "1"]
_OTHER_CALLS: list[Any] = [None, "x", 5, [{"arguments": "a"}], {}, {"other": "x"}, {"arguments": 5}, {"name": "g"}]


Change = Callable[[dict[str, Any]], None]


def _change(rng: random.Random, kind: str) -> Change:
    """One way to change a valid fragment: a key set to another JSON value or type, or removed."""
    text = "content" if kind == "assistant_message" else "reasoning"
    what = rng.randrange(4)
    if what == 0:
        seq = rng.choice([None, True, "1", 1.0, -1])
        return lambda data: data.update(seq_id=seq)
    if what == 1:
        is_err = rng.choice([True, False, 1, 0, 1.0, "yes"])
        return lambda data: data.update(is_err=is_err)
    if kind != "tool_call_message":
        value = rng.choice(_VALUES)
        return lambda data: data.update({text: value}) if value != [] else data.pop(text)
    if what == 2:
        key, value, both = rng.choice(["arguments", "tool_call_id", "name"]), rng.choice(_VALUES), rng.random() < 0.5

        def delta_key(data: dict[str, Any]) -> None:
            data["tool_call"] = {**data["tool_call"], key: value}
            if both:
                data["tool_calls"] = data["tool_call"]

        return delta_key
    field, other = rng.choice(["tool_call", "tool_calls"]), rng.choice(_OTHER_CALLS)
    return lambda data: data.update({field: other})


def _stream(rng: random.Random) -> list[dict[str, Any]]:
    """Fragments of one message, each valid or changed in one of two ways chosen for the stream."""
    kind = rng.choice(["tool_call_message", "assistant_message", "reasoning_message"])
    changes = [_change(rng, kind), _change(rng, kind)]
    numbered = rng.random() < 0.5  # Letta numbers frames only in background streams
    frames = []
    for seq in range(1, rng.randint(2, 12)):
        data = frame(kind, "m-1", seq if numbered else None, is_err=None)
        if kind == "tool_call_message":
            data["tool_call"] = data["tool_calls"] = {"tool_call_id": "c", "arguments": "a"}
        else:
            data["content" if kind == "assistant_message" else "reasoning"] = "piece "
        change = rng.choice([None, *changes])
        if change is not None:
            change(data)
        frames.append(data)
    return frames


def _first_invalid(frames: list[dict[str, Any]]) -> int | None:
    for index, data in enumerate(frames):
        seq = data.get("seq_id")
        if type(seq) is float and seq.is_integer():  # `1.0` is the seq_id 1 in a stream (as in JSON Schema)
            data = {**data, "seq_id": int(seq)}
        try:
            parse_letta_streaming_response(data)
        except ValidationError:
            return index
    return None


@pytest.mark.parametrize("seed", range(200))
def test_every_fragment_is_checked_as_if_validated_alone(seed: int) -> None:
    """Reassembly skips pydantic for fragments like one already validated: it must still refuse
    exactly the first fragment that is not valid on its own, whatever key or type is wrong."""
    frames = _stream(random.Random(seed))
    bad = _first_invalid(frames)
    try:
        reassemble([*frames, STOP], complete=False)
    except StreamError as exc:
        refused = str(exc)
    else:
        refused = ""
    if bad is None:
        assert "not a valid" not in refused, refused
    else:
        assert refused.startswith(f"frame {bad}: not a valid letta/LettaStreamingResponse"), (bad, refused)


def test_a_fragment_like_a_valid_one_but_for_a_value_type_is_refused() -> None:
    """A valid fragment whose deltas are not all strings (null), then one with a number: refused."""
    for first in ({"arguments": None}, {"arguments": None, "tool_call_id": None}):
        frames = [delta("t-1", None, **first), delta("t-1", None, arguments=5), STOP]
        with pytest.raises(StreamError, match=r"^frame 1: not a valid letta/LettaStreamingResponse at \$\.tool_call"):
            reassemble(frames)
    listed = delta("t-1", None, name="f", arguments="a", tool_call_id="c")
    listed["tool_calls"] = [listed["tool_call"]]  # valid: the calls as a list, not the delta again
    with pytest.raises(StreamError, match=r"^frame 1: not a valid letta/LettaStreamingResponse at \$\.tool_calls"):
        reassemble([listed, {**listed, "tool_calls": "x"}, STOP])


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"message_type": "bogus"}, r"\$: Input tag 'bogus' found using 'message_type'"),
        ({"content": "x"}, r"\$: Unable to extract tag using discriminator 'message_type'"),
        ({"message_type": "stop_reason"}, r"\$\.stop_reason: Field required"),
    ],
)
def test_a_frame_of_no_known_type_is_refused_at_its_root(data: dict[str, Any], where: str) -> None:
    with pytest.raises(StreamError, match=rf"^frame 0: not a valid letta/LettaStreamingResponse at {where}"):
        reassemble([data])


def test_a_message_frame_numbered_before_the_stop_is_kept_whenever_it_arrives() -> None:
    """Background streams may deliver frames out of order: the seq_id, not the arrival, says what is after the stop."""
    frames = [
        frame("assistant_message", "a-1", 1, content="x"),
        {**STOP, "seq_id": 3, "run_id": RUN},
        frame("assistant_message", "a-1", 2, content="y"),
    ]
    result = reassemble(frames)
    assert [m.model_dump(mode="json")["content"] for m in result.messages] == ["xy"]
    assert result.dropped == [] and result.last_seq_id == 3


def test_an_error_frame_ends_the_stream_without_a_stop_reason() -> None:
    error = {"message_type": "error_message", "run_id": RUN, "error_type": "llm_error", "message": "m", "seq_id": None}
    result = reassemble([frame("assistant_message", "a-1", None, content="x"), error])
    assert [e.model_dump()["message"] for e in result.errors] == ["m"] and len(result.messages) == 1


@pytest.mark.parametrize(
    ("event", "data", "name"),
    [("error", '{"error": 5}', "LettaSseError"), ("cancelled", '{"message": 5}', "LettaSseCancelled")],
)
def test_an_error_or_cancelled_body_that_is_not_valid_names_its_schema(event: str, data: str, name: str) -> None:
    with pytest.raises(StreamError, match=rf"^event 0 \(line 3\): not a valid letta/{name} at \$\.\w+: "):
        reassemble_sse(f"event: {event}\ndata: {data}\n\n")


@pytest.mark.parametrize(
    ("again", "outcome"),
    [
        ([{"type": "text", "text": "x", "flag": True}], "replay"),
        ([{"type": "text", "text": "y", "flag": True}], "dropped"),  # other text in the list
        ([{"type": "text", "text": "x", "flag": True}] * 2, "dropped"),  # a longer list
        ([{"type": "text", "text": "x"}], "dropped"),  # a key fewer
        ("x", "dropped"),  # a string where the list was
        ([{"type": "text", "text": "x", "flag": 1}], "dropped"),  # 1 is not true in JSON
        ([{"type": "text", "text": "x", "flag": False}], "dropped"),
    ],
)
def test_a_replay_is_compared_value_by_value(again: Any, outcome: str) -> None:
    """Without seq_ids, a message seen again after another one is a retry's replay: it must repeat
    what was merged, lists and the objects in them included, or it is reported as a conflict."""
    first = frame("user_message", "u-1", None, content=[{"type": "text", "text": "x", "flag": True}])
    other = frame("assistant_message", "a-2", None, content="ok")
    result = reassemble([first, other, {**first, "content": again}, STOP], complete=False)
    assert [a.outcome for a in result.frames] == ["message", "message", outcome, "stop_reason"]
    if outcome == "dropped":
        assert result.frames[2].reason == "replay_conflict"


def test_a_replay_that_conflicts_stays_in_conflict_to_its_end() -> None:
    """Once a replayed frame differs from the one merged, the rest of that replay is reported as a
    conflict too, even where it repeats the merged frames again."""
    parts = [frame("assistant_message", "a-1", None, content=text) for text in ("x", "y", "z")]
    other = frame("assistant_message", "a-2", None, content="ok")
    replay = [{**parts[0], "content": "X"}, parts[1], parts[2]]
    result = reassemble([*parts, other, *replay, STOP], complete=False)
    assert [a.outcome for a in result.frames] == [*["message"] * 4, *["dropped"] * 3, "stop_reason"]
    assert [a.reason for a in result.frames[4:7]] == ["replay_conflict"] * 3
    assert [m.model_dump()["content"] for m in result.messages] == ["xyz", "ok"]


@pytest.mark.parametrize("calls", ["x", [5], {"arguments": 5}])
def test_a_fragment_with_a_bad_calls_field_after_plain_ones_is_refused(calls: Any) -> None:
    """The shortcut for fragments like a validated one needs both `tool_call` and `tool_calls` plain:
    a plain `tool_call` beside a `tool_calls` that is not valid is validated, and refused."""
    first = delta("t-1", None, name="f", tool_call_id="c")
    bad = {**delta("t-1", None, arguments="{}", tool_call_id="c"), "tool_calls": calls}
    with pytest.raises(StreamError, match=r"^frame 1: not a valid letta/LettaStreamingResponse at \$\.tool_calls"):
        reassemble([first, bad, STOP])


def test_a_message_not_sent_in_parts_can_only_be_repeated() -> None:
    user = frame("user_message", "u-1", None, content="hi")
    result = reassemble([user, dict(user), {**user, "content": "other"}, STOP])
    assert [(a.outcome, a.reason) for a in result.frames] == [
        ("message", None),
        ("replay", None),
        ("dropped", "replay_conflict"),
        ("stop_reason", None),
    ]
    assert "is not sent in parts" in (result.frames[2].detail or "")


def test_a_frame_of_another_message_under_the_same_otid_names_what_differs() -> None:
    first = frame("assistant_message", "a-1", None, content="x")
    with pytest.raises(StreamError, match="message_type is 'reasoning_message', not 'assistant_message'"):
        reassemble([first, {**frame("reasoning_message", "a-1", None, reasoning="r"), "id": first["id"]}, STOP])


def test_frames_without_seq_id_give_a_message_without_one() -> None:
    parts = [frame("assistant_message", "a-1", None, content=text) for text in ("x", "y")]
    for part in parts:
        del part["seq_id"]
    (message,) = reassemble([*parts, STOP]).messages
    assert "seq_id" not in message.model_dump(exclude_unset=True)
    assert message.model_dump()["content"] == "xy"


@pytest.mark.parametrize(("hidden", "error"), [(2, False), (1, True)])
def test_unnumbered_stop_and_usage_frames_account_for_numbers_after_the_last_message(hidden: int, error: bool) -> None:
    """Letta numbers its stop and usage frames without showing it: two such frames explain a gap of
    two after the last message frame, one frame does not."""
    usage = {"message_type": "usage_statistics", "completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}
    ping = {"id": "p", "date": "2025-10-01T12:30:47+00:00", "message_type": "ping", "seq_id": 5}
    parts = [frame("assistant_message", "a-1", seq, content=text) for seq, text in ((1, "x"), (2, "y"))]
    frames = [*parts, STOP, *([usage] if hidden == 2 else []), ping]
    if error:
        with pytest.raises(StreamError, match=r"gap in seq_id: 2 is followed by 5 \(missing 3\.\.4\)"):
            reassemble(frames)
    else:
        result = reassemble(frames)
        assert result.last_seq_id == 5 and [m.model_dump()["content"] for m in result.messages] == ["xy"]


def test_text_after_bytes_that_end_inside_a_character_is_not_utf8() -> None:
    # The decoder held the character's first byte and let the text go first ("Xé" for "éX").
    message = {"message_type": "assistant_message", "id": "m-0", "date": "2025-10-01T12:30:45Z", "content": "é"}
    data = (f"data: {json.dumps({**message, 'seq_id': 1}, ensure_ascii=False)}\n\n" + STOP_SSE).encode()
    at = data.index(0xC3)
    with pytest.raises(StreamError, match="not UTF-8"):
        reassemble_sse([data[: at + 1], "X", data[at + 1 :]])
    cuts: list[list[str | bytes]] = [[data[: at + 1], "", data[at + 1 :]], [data[:at], "", data[at:]]]
    for pieces in cuts:
        assert [m.model_dump()["content"] for m in reassemble_sse(pieces).messages] == ["é"]
