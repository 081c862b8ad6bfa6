"""Reassemble Letta streams into complete messages, accounting for every frame.

A Letta stream sends each message in frames: a tool call as a first ToolCallDelta with the name,
then fragments of the JSON-encoded arguments; assistant text and reasoning as pieces of text.
Every frame of one message repeats its `id` and `otid`. In background mode every frame also has a
`seq_id`, so a client can resume after a cursor, and a resumed or retried request replays frames.

`reassemble(frames)` takes the frames in arrival order (dicts or models); `reassemble_sse(body)`
reads the raw `text/event-stream` body (whole, or in str/bytes chunks) with the WHATWG rules
(`chatschema.letta.sse`). Both return a `LettaStream` whose `frames` says what became of each
frame, in arrival order:

- `message` / `replay`: merged into `messages[i]`, or a verified replay of frames already merged
  (equal to them; a replay that differs is dropped as `replay_conflict`);
- `ping`, `stop_reason`, `usage`, `error`, `cancelled`, `done` (`data: [DONE]`);
- `cut` (`reassemble_resumed` only): an event a connection ended inside before the run was resumed;
- `unknown` (with `unknown="keep"`): a frame whose `message_type` this version does not know, kept
  as it came in the result's `unknown` (it plays no part in the grammar, and its `seq_id` counts);
- `dropped`, with a reason: `after_stop` (a message frame after the stop reason),
  `duplicate_stop_reason`, `duplicate_usage`, `after_done`, `unknown_event` (an SSE event type
  other than message, error and cancelled), `replay_conflict`, `unterminated_event` (the body ends
  inside an event), `incomplete_message` (frames of a message a failed, cancelled or cut-off stream
  left unfinished).

The order of the frames is the stream's grammar (`schemas/letta/grammars/LettaStreamingResponse.json`,
read by `chatschema.letta.grammar`): each frame type's role (message, ping, error, stop, usage), and
which roles may come in which state; a frame whose role may not come where it came is dropped with
the reason the grammar names, and a complete stream ends in one of its final states (or in an error
or a cancellation). Messages are closed by the frame that leaves them no state (the stop reason).

`reassemble_resumed(bodies)` reads the SSE bodies of one run's connections (the first request,
then each resumed with `starting_after`) as one stream: repeated frames are verified replays and
missing `seq_id`s are reported in `gaps` (`gaps="report"` does the same in the other two).

Rules: frames are put in `seq_id` order where they have one; a gap in the numbers is an error
(or reported), except after the last message frame, where Letta's stop and usage frames take
numbers without showing them. Without `seq_id`s a message whose `otid` comes back after another one started is a
replay from a retried request, checked frame by frame against what was merged. ToolCallDelta
fragments are merged per `tool_call_id` (a fragment without one continues the current call) and the
arguments must then parse as JSON. JSON is read as everywhere in chatschema (`chatschema.jsontext`).

`StreamError` (a ValueError) is raised for what cannot be reassembled faithfully: malformed JSON,
an invalid frame, a `seq_id` gap, interleaved messages, an incomplete message in a stream that
claims to be complete, and a truncated stream when `complete=True`. With `strict=True` it is also
raised for an error event, a cancellation or any dropped frame.
"""

from __future__ import annotations

import gc
from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Literal

from pydantic import ValidationError

from chatschema import jsontext
from chatschema._base import SchemaModel
from chatschema.letta import (
    LettaErrorMessage,
    LettaMessage,
    LettaSseCancelled,
    LettaSseError,
    LettaStopReason,
    LettaUsageStatistics,
    UnknownLettaStreamingResponse,
    parse_letta_message,
    parse_letta_streaming_response,
)
from chatschema.letta.grammar import Grammar, letta_stream
from chatschema.letta.sse import SseEvent, iter_sse_events
from chatschema.unknown import Unknown, check_mode, is_unknown

__all__ = [
    "FrameAccount",
    "LettaStream",
    "SeqGap",
    "StreamError",
    "iter_sse_events",
    "reassemble",
    "reassemble_resumed",
    "reassemble_sse",
]

Outcome = Literal[
    "message", "replay", "ping", "stop_reason", "usage", "error", "cancelled", "done", "cut", "unknown", "dropped"
]
Gaps = Literal["error", "report"]
SseBody = str | bytes | Iterable[str | bytes]

_CALLS = {"tool_call_message", "approval_request_message"}
_TEXT = {
    "assistant_message": "content",
    "reasoning_message": "reasoning",
    "hidden_reasoning_message": "hidden_reasoning",
}


class StreamError(ValueError):
    """The stream cannot be reassembled faithfully; the one-line message says where and why."""


@dataclass(slots=True)
class FrameAccount:
    """What became of one frame (one SSE event), by its position in arrival order.

    Not frozen: a long stream makes one per fragment, and a frozen dataclass costs four times as much to build.
    """

    index: int
    outcome: Outcome
    message: int | None = None
    """For `message` and `replay`: the index in `LettaStream.messages`."""
    reason: str | None = None
    """For `dropped`: why (see the module doc)."""
    detail: str | None = None
    """For `dropped`: one line with the specifics."""


@dataclass(frozen=True, slots=True)
class SeqGap:
    """`seq_id`s `first`..`last` never came (reported, not raised, with `gaps="report"` and by
    `reassemble_resumed`). The messages on either side may lack frames of theirs that had those numbers."""

    first: int
    last: int
    message_before: int | None
    """The index in `LettaStream.messages` of the message whose frame came just before the gap; None
    without such a frame, or if its message was dropped (`incomplete_message`)."""
    message_after: int | None
    """The same for the frame just after the gap."""


@dataclass
class LettaStream:
    """A reassembled stream: the complete messages, the frames that are not messages, and an
    account of every frame."""

    messages: list[LettaMessage] = field(default_factory=list)
    stop_reason: LettaStopReason | None = None
    usage: LettaUsageStatistics | None = None
    errors: list[LettaErrorMessage | LettaSseError] = field(default_factory=list)
    """Errors the server reported: `error_message` frames and `event: error` bodies, in order."""
    cancelled: LettaSseCancelled | None = None
    """The body of an `event: cancelled`, if the server cancelled the stream."""
    done: bool = False
    """Whether the body reached `data: [DONE]`."""
    last_seq_id: int | None = None
    """The highest `seq_id` seen: the cursor to resume a background stream after."""
    frames: list[FrameAccount] = field(default_factory=list)
    gaps: list[SeqGap] = field(default_factory=list)
    """The `seq_id`s that never came, with `gaps="report"` (by default a gap raises StreamError)."""
    unknown: list[UnknownLettaStreamingResponse] = field(default_factory=list)
    """With `unknown="keep"`: the frames of types this version does not know, as they came, in order."""

    @property
    def dropped(self) -> list[FrameAccount]:
        """The frames that went into nothing, each with its reason."""
        return [a for a in self.frames if a.outcome == "dropped"]


@dataclass(slots=True)
class _Frame:
    index: int
    line: int | None  # of the SSE body; None for a frame given as an object
    data: dict[str, Any]
    seq: int | None
    outcome: Outcome = "message"  # once grouped: "message" or "replay"

    @property
    def where(self) -> str:
        return _where(self.index, self.line)

    @property
    def key(self) -> Hashable:
        """The message this frame belongs to: its otid, else its id and type."""
        otid = self.data.get("otid")
        return otid if otid is not None else (self.data.get("id"), self.data["message_type"])

    @property
    def label(self) -> str:
        """The message this frame belongs to, as messages name it."""
        otid = self.data.get("otid")
        return f"otid {otid}" if otid is not None else f"id {self.data.get('id')} ({self.data['message_type']})"


@dataclass
class _Message:
    first: _Frame
    frames: list[_Frame] = field(default_factory=list)
    accounts: list[_Frame] = field(default_factory=list)  # merged or replayed, each with its outcome
    index: int | None = None


@dataclass
class _State:
    result: LettaStream = field(default_factory=LettaStream)
    accounts: dict[int, FrameAccount] = field(default_factory=dict)
    candidates: list[_Frame] = field(default_factory=list)  # message frames, arrival order
    seqs: list[int] = field(default_factory=list)  # every seq_id seen (pings, errors, stop frames too)
    hidden: int = 0  # stop and usage frames without a seq_id (Letta numbers them without saying so)
    grammar: Grammar = field(default_factory=letta_stream)
    order: str = ""  # the grammar's state: where the frames so far have brought the stream
    closing: _Frame | None = None  # the frame after which the grammar allows no message (the stop reason)
    skeleton: dict[str, Any] | None = None  # of the last fragment frame validated in full
    typed_keys: list[tuple[str, type]] = field(default_factory=list)  # of that skeleton, see _typed_keys
    repeats: list[tuple[_Frame, _Frame]] = field(default_factory=list)  # (first arrival, repeat) by seq_id
    ended: bool = False  # an error or cancellation ended the stream early: unfinished messages are expected
    truncated: bool = False
    report_gaps: bool = False  # gaps="report": a seq_id gap is listed in the result, not raised
    keep_unknown: bool = False  # unknown="keep": a frame of an unknown type is kept and accounted, not an error
    run_id: str | None = None  # with one_run: the run the frames so far belong to
    one_run: bool = False  # reassemble_resumed: a frame of another run is an error

    def __post_init__(self) -> None:
        self.order = self.order or self.grammar.start

    def account(self, frame_index: int, outcome: Outcome, reason: str | None = None, detail: str | None = None) -> None:
        self.accounts[frame_index] = FrameAccount(frame_index, outcome, None, reason, detail)


def reassemble(
    frames: Iterable[Mapping[str, Any] | SchemaModel],
    *,
    complete: bool = True,
    strict: bool = False,
    gaps: Gaps = "error",
    unknown: Unknown = "error",
) -> LettaStream:
    """Reassemble Letta stream frames, given in arrival order, into complete messages.

    With `complete=True` (the default) a stream that neither stopped (a stop reason) nor ended in
    an error or cancellation is truncated: StreamError. With `strict=True` any error, cancellation
    or dropped frame raises StreamError too. With `gaps="report"` a `seq_id` gap is listed in the
    result's `gaps` instead of raised (the frames of several connections to one run, say). With
    `unknown="keep"` a frame whose `message_type` this version does not know is kept in the result's
    `unknown` and accounted `unknown`, instead of an error (see `chatschema.unknown`).
    """
    state = _State(report_gaps=_report(gaps), keep_unknown=check_mode(unknown))
    with _no_cycle_collector():
        for index, frame in enumerate(frames):
            if isinstance(frame, SchemaModel):
                data = frame.model_dump(mode="json", exclude_unset=True)
            elif isinstance(frame, Mapping):
                data = dict(frame)
            else:
                raise StreamError(f"{_where(index, None)}: a frame is a JSON object, not {type(frame).__name__}")
            _take(state, index, None, data)
        return _finish_stream(state, complete=complete, strict=strict, sse=False)


def reassemble_sse(
    body: SseBody, *, complete: bool = True, strict: bool = False, gaps: Gaps = "error", unknown: Unknown = "error"
) -> LettaStream:
    """Reassemble a raw Letta SSE body: the whole text, or its str/bytes chunks as they arrive.

    Beyond `reassemble`'s rules: with `complete=True` the body must end with `data: [DONE]`, an
    `event: error` or an `event: cancelled`.
    """
    state = _State(report_gaps=_report(gaps), keep_unknown=check_mode(unknown))
    with _no_cycle_collector():
        _read_body(state, body, 0)
        return _finish_stream(state, complete=complete, strict=strict, sse=True)


def reassemble_resumed(
    bodies: Iterable[SseBody], *, complete: bool = True, strict: bool = False, unknown: Unknown = "error"
) -> LettaStream:
    """Reassemble one run from the SSE bodies of its connections, in the order they were opened:
    the first request's, then each resumed one's (`GET /runs/{run_id}/stream` with `starting_after`).

    A connection may end anywhere: an event it ends inside is accounted as `cut` (the last
    connection's is `unterminated_event`, as in `reassemble_sse`). Frames two connections share (a
    cursor below what was received) are verified replays, and `seq_id`s that no connection brought
    are reported in `gaps`, not raised (with `strict=True` they raise). Events are numbered across
    the bodies. Every frame must belong to one run (`run_id`); `complete` applies to the whole.
    """
    state = _State(report_gaps=True, one_run=True, keep_unknown=check_mode(unknown))
    index = 0
    with _no_cycle_collector():
        for body in bodies:
            if state.truncated:  # the connection before was cut inside its last event, then resumed
                state.truncated = False
                state.account(index - 1, "cut")
            index = _read_body(state, body, index)
        return _finish_stream(state, complete=complete, strict=strict, sse=True)


def _report(gaps: Gaps) -> bool:
    if gaps not in ("error", "report"):
        raise ValueError(f"gaps is 'error' or 'report', not {gaps!r}")
    return gaps == "report"


def _read_body(state: _State, body: SseBody, index: int) -> int:
    """Take every event of one SSE body, numbered from `index`; the next number."""
    events: Iterator[SseEvent] = iter_sse_events(body)
    while True:
        try:
            event = next(events)
        except StopIteration:
            return index
        except UnicodeDecodeError as exc:
            raise StreamError(f"event {index}: the body is not UTF-8 (byte {exc.start + 1} of its chunk)") from None
        _take_event(state, index, event)
        index += 1


@contextmanager
def _no_cycle_collector() -> Iterator[None]:
    """Parsed frames hold no reference cycles: the cycle collector would only walk them again and again
    (a third of the time of a 100,000-fragment stream), so it is off while they pile up (as in
    `chatschema validate`'s loop)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _where(index: int, line: int | None) -> str:
    """How a frame is named in messages (built only when one is needed: a long stream has many frames)."""
    return f"frame {index}" if line is None else f"event {index} (line {line})"


def _take_event(state: _State, index: int, event: SseEvent) -> None:
    line = event.line
    if state.result.done:
        state.account(
            index, "dropped", "after_done", f"{_where(index, line)}: an {event.type!r} event after data: [DONE]"
        )
        return
    if not event.terminated:
        state.truncated = True
        state.account(index, "dropped", "unterminated_event", f"{_where(index, line)}: the body ends inside this event")
        return
    if event.type == "message":
        if event.data == "[DONE]":
            state.result.done = True
            state.account(index, "done")
            return
        _take(state, index, line, _json_object(event.data, index, line))
    elif event.type == "error":
        where = _where(index, line)
        data = _integral_seq(_json_object(event.data, index, line))
        if "message_type" in data:
            model = _validate(data, where)
            if not isinstance(model, LettaErrorMessage):
                raise StreamError(f"{where}: an `event: error` carries a {data['message_type']!r} frame")
            _record_seq(state, data)
            state.result.errors.append(model)
        else:
            state.result.errors.append(_validate_as(LettaSseError, data, where, "letta/LettaSseError"))
        state.ended = True
        state.account(index, "error")
    elif event.type == "cancelled":
        data = _json_object(event.data, index, line)
        cancelled = _validate_as(LettaSseCancelled, data, _where(index, line), "letta/LettaSseCancelled")
        if state.result.cancelled is None:
            state.result.cancelled = cancelled
        state.ended = True
        state.account(index, "cancelled")
    else:
        state.account(index, "dropped", "unknown_event", f"{_where(index, line)}: unknown event type {event.type!r}")


def _json_object(text: str, index: int, line: int) -> dict[str, Any]:
    try:
        value = jsontext.parse(text.encode("utf-8", "surrogatepass"), jsontext.loader())
    except jsontext.Malformed as exc:
        raise StreamError(f"{_where(index, line)}: event data is not JSON: {exc}") from None
    if type(value) is not dict:
        raise StreamError(f"{_where(index, line)}: event data is JSON but not an object")
    return value


def _path(loc: tuple[int | str, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)


def _validate(data: dict[str, Any], where: str) -> SchemaModel:
    try:
        return parse_letta_streaming_response(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        # pydantic prefixes the union branch's tag to the location; the JSON path has no such step
        if loc and loc[0] == data.get("message_type"):
            loc = loc[1:]
        raise StreamError(
            f"{where}: not a valid letta/LettaStreamingResponse at {_path(loc)}: {first['msg']}"
        ) from None
    except RecursionError:
        raise StreamError(f"{where}: not a valid letta/LettaStreamingResponse: nested too deep") from None


def _validate_as(model: type[Any], data: dict[str, Any], where: str, name: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise StreamError(f"{where}: not a valid {name} at {_path(tuple(first['loc']))}: {first['msg']}") from None


def _record_seq(state: _State, data: Mapping[str, Any]) -> int | None:
    seq = data.get("seq_id")
    if isinstance(seq, int) and not isinstance(seq, bool):
        state.seqs.append(seq)
        return seq
    return None


_DELTA_KEYS = frozenset({"name", "arguments", "tool_call_id"})


def _skeleton(data: dict[str, Any]) -> dict[str, Any] | None:
    """A fragment frame without the keys that change from one fragment of a message to the next, if
    those are of the plain kind a validated skeleton makes valid: string deltas, a text piece."""
    kind = data.get("message_type")
    seq = data.get("seq_id")
    if seq is not None and type(seq) is not int:
        return None
    if kind in _CALLS:
        call, calls = data.get("tool_call"), data.get("tool_calls")
        if not _plain_delta(call) or not (calls is None or calls == call or _plain_delta(calls)):
            return None
        skeleton = data.copy()
        del skeleton["tool_call"]
        skeleton.pop("tool_calls", None)
    elif kind in _TEXT:
        name = _TEXT[kind]
        if type(data.get(name)) is not str:
            return None
        skeleton = data.copy()
        del skeleton[name]
    else:
        return None
    skeleton.pop("seq_id", None)
    return skeleton


def _plain_delta(value: Any) -> bool:
    if type(value) is not dict or not value or not value.keys() <= _DELTA_KEYS:
        return False
    for v in value.values():
        if type(v) is not str:
            return False
    return True


def _typed_keys(skeleton: dict[str, Any]) -> list[tuple[str, type]]:
    """The keys of a skeleton whose value must be of the same exact type in a later fragment for
    equality to vouch for it: a value can equal one of another JSON type (true == 1 == 1.0), and a
    subclass can say it equals anything. Only null is its own proof. Nested values are unknown keys
    to the schema, free to be anything."""
    return [(k, type(v)) for k, v in skeleton.items() if v is not None]


def _integral_seq(data: dict[str, Any]) -> dict[str, Any]:
    """`seq_id` written `1.0` or `1e0` is the integer 1, as JSON Schema says and as JavaScript, where
    JSON.parse cannot tell them apart, reads it; the strict models would refuse the float."""
    seq = data.get("seq_id")
    if type(seq) is float and seq.is_integer():
        data["seq_id"] = int(seq)
    return data


def _take(state: _State, index: int, line: int | None, data: dict[str, Any]) -> None:
    """Classify one frame (a JSON object with a `message_type`)."""
    _integral_seq(data)
    # Fragments of one message repeat every other key: once a frame with the same skeleton was
    # valid, a fragment whose changing keys are plain strings is valid too (and pydantic is skipped,
    # which is most of the cost of a long stream).
    skeleton = _skeleton(data)
    if skeleton is not None and state.skeleton is not None and _same(skeleton, state.skeleton):
        for key, kind in state.typed_keys:
            if type(skeleton[key]) is not kind:
                break
        else:
            call = data.get("tool_call")
            if call is not None and data.get("tool_calls") == call:
                data["tool_calls"] = call  # one dict for both: a long stream holds fewer objects
            seq = data.get("seq_id")  # an int or None: _skeleton checked
            if seq is not None:
                state.seqs.append(seq)
            state.candidates.append(_Frame(index, line, data, seq))
            return
    where = _where(index, line)
    if state.keep_unknown and is_unknown(data, "message_type", UnknownLettaStreamingResponse.known):
        _record_seq(state, data)  # numbered like any frame: its seq_id is no gap
        state.result.unknown.append(UnknownLettaStreamingResponse(data))
        state.account(index, "unknown")
        return
    model = _validate(data, where)
    if state.one_run:
        _check_run(state, data, where)
    state.skeleton = skeleton
    state.typed_keys = _typed_keys(skeleton) if skeleton is not None else []
    kind = data["message_type"]
    seq = _record_seq(state, data)
    role = state.grammar.role(kind)
    if role is None:
        raise StreamError(f"{where}: a {kind} frame has no role in the stream's grammar")
    if role == "message":
        state.candidates.append(_Frame(index, line, data, seq))
        return
    after = state.grammar.step(state.order, role)
    if after is None:
        state.account(index, "dropped", state.grammar.reason(role), _out_of_order(state, where, kind, role))
        return
    state.order = after
    if state.closing is None and not state.grammar.allows_messages(after):
        state.closing = _Frame(index, line, data, seq)
    _play(state, index, role, model, seq)


def _check_run(state: _State, data: Mapping[str, Any], where: str) -> None:
    """Frames of one run only (fragments after a validated frame repeat its run_id)."""
    run_id = data.get("run_id")
    if run_id is None:
        return
    if state.run_id is None:
        state.run_id = run_id
    elif run_id != state.run_id:
        raise StreamError(
            f"{where}: a frame of run {run_id!r} among frames of run {state.run_id!r} (reassemble each run apart)"
        )


def _out_of_order(state: _State, where: str, kind: str, role: str) -> str:
    """One line on a frame whose role may not come where it came."""
    if role == "stop" and state.result.stop_reason is not None:
        return f"{where}: a second stop_reason ({state.result.stop_reason.stop_reason!r} kept)"
    if role == "usage" and state.result.usage is not None:
        return f"{where}: a second usage_statistics (the first kept)"
    return f"{where}: a {kind} where the stream's grammar allows no {role} frame (state '{state.order}')"


def _play(state: _State, index: int, role: str, model: SchemaModel, seq: int | None) -> None:
    """What a frame that is not a message does to the stream, by its role."""
    if role == "stop" and isinstance(model, LettaStopReason):
        if state.result.stop_reason is None:
            state.result.stop_reason = model
        state.hidden += seq is None
        state.account(index, "stop_reason")
    elif role == "usage" and isinstance(model, LettaUsageStatistics):
        if state.result.usage is None:
            state.result.usage = model
        state.hidden += seq is None
        state.account(index, "usage")
    elif role == "error" and isinstance(model, LettaErrorMessage):
        state.result.errors.append(model)
        state.ended = True
        state.account(index, "error")
    elif role == "ping":
        state.account(index, "ping")
    else:  # the generator refuses such a grammar; a grammar edited by hand can still say it
        kind = getattr(model, "message_type", type(model).__name__)
        raise StreamError(f"{_where(index, None)}: a {kind} frame cannot play the role {role!r}")


def _finish_stream(state: _State, *, complete: bool, strict: bool, sse: bool) -> LettaStream:
    result = state.result
    frames = _after_stop_dropped(state, state.candidates)
    frames = _in_seq_order(state, frames)
    holes: list[tuple[int, int]] = []
    if state.seqs:
        numbered = [f.seq for f in frames if f.seq is not None]
        holes = _check_gaps(state, max(numbered) if numbered else min(state.seqs) - 1)
    result.last_seq_id = max(state.seqs) if state.seqs else None
    finished = state.order in state.grammar.final or state.ended
    if sse and not (result.done or state.ended):
        finished = False
    if complete and state.truncated:
        raise StreamError("stream truncated: the body ends inside its last event (no blank line after it)")
    if complete and not finished:
        if result.stop_reason is not None and not (state.order in state.grammar.final or state.ended):
            raise StreamError(f"stream truncated: it ends in state '{state.order}' of its grammar, not an end")
        raise StreamError(f"stream truncated: {_missing_end(result, sse)}")
    messages = _group(state, frames)
    cut_short = state.ended or state.truncated or not finished or bool(holes)  # a gap may cut a message too
    for message in messages:
        try:
            built = _merge(message)
        except _Incomplete as exc:
            if not cut_short:
                raise StreamError(str(exc)) from None
            for f in message.accounts:
                state.account(f.index, "dropped", "incomplete_message", str(exc))
            continue
        message.index = len(result.messages)
        result.messages.append(built)
        for f in message.accounts:
            state.accounts[f.index] = FrameAccount(f.index, f.outcome, message.index)
    result.frames = [state.accounts[i] for i in sorted(state.accounts)]
    result.gaps = _located(state, frames, holes)
    if strict:
        _raise_if_anything_happened(result)
    return result


def _raise_if_anything_happened(result: LettaStream) -> None:
    if result.errors:
        first = result.errors[0]
        text = first.message if isinstance(first, LettaErrorMessage) else first.error
        raise StreamError(f"strict: the server reported an error: {text}")
    if result.cancelled is not None:
        raise StreamError(f"strict: the server cancelled the stream: {result.cancelled.message}")
    if result.gaps:  # before the dropped frames: a gap leaves messages incomplete
        gap = result.gaps[0]
        missing = f"{gap.first}" if gap.first == gap.last else f"{gap.first}..{gap.last}"
        raise StreamError(f"strict: {len(result.gaps)} gap(s) in seq_id; first: missing {missing}")
    if result.dropped:
        raise StreamError(f"strict: {len(result.dropped)} frame(s) dropped; first: {result.dropped[0].detail}")


def _after_stop_dropped(state: _State, frames: list[_Frame]) -> list[_Frame]:
    """Message frames after the frame that closed the stream to messages (the stop reason) are
    dropped: by seq_id if both have one, else by arrival."""
    stop = state.closing
    if stop is None:
        return frames
    kept: list[_Frame] = []
    reason, closer = state.grammar.reason("message"), stop.data["message_type"]
    for f in frames:
        later = f.seq > stop.seq if (stop.seq is not None and f.seq is not None) else f.index > stop.index
        if later:
            state.account(f.index, "dropped", reason, f"{f.where}: a {f.data['message_type']} after the {closer}")
        else:
            kept.append(f)
    return kept


def _in_seq_order(state: _State, frames: list[_Frame]) -> list[_Frame]:
    """Frames sorted by seq_id, repeats accounted as replays or conflicts; unchanged without seq_ids."""
    if all(f.seq is None for f in frames):
        return frames
    by_seq: dict[int, _Frame] = {}
    repeats: list[tuple[_Frame, _Frame]] = []
    for f in frames:
        if f.seq is None:
            raise StreamError(f"{f.where}: has no seq_id while other frames of the stream have one")
        seen = by_seq.get(f.seq)
        if seen is None:
            by_seq[f.seq] = f
        else:
            repeats.append((seen, f))
    order = sorted(by_seq)
    state.repeats = repeats
    return [by_seq[s] for s in order]


def _missing_end(result: LettaStream, sse: bool) -> str:
    """What a complete stream lacks at its end, in words: its stop_reason, its `data: [DONE]`, or both."""
    if result.stop_reason is None and not (sse and result.done):
        what = "a stop_reason and `data: [DONE]`" if sse else "a stop_reason"
    elif result.stop_reason is None:
        what = "a stop_reason before its `data: [DONE]`"
    else:
        what = "`data: [DONE]` after its stop_reason"
    return f"it ends without {what} (or an error or a cancellation)"


def _check_gaps(state: _State, last_message_seq: int) -> list[tuple[int, int]]:
    """Every seq_id between the first and the last one seen must be there, except that the stop and
    usage frames Letta numbers without saying so may account for numbers after the last message frame.
    A gap raises StreamError, or with `report_gaps` is returned as (first, last) missing."""
    seen = sorted(set(state.seqs))
    tail = 0
    holes: list[tuple[int, int]] = []
    for before, after in pairwise(seen):
        if after == before + 1:
            continue
        missing = after - before - 1
        if before >= last_message_seq:
            tail += missing
            if tail <= state.hidden:
                continue
        if not state.report_gaps:
            gap = f"{before + 1}" if missing == 1 else f"{before + 1}..{after - 1}"
            raise StreamError(f"gap in seq_id: {before} is followed by {after} (missing {gap})")
        holes.append((before + 1, after - 1))
    return holes


def _located(state: _State, frames: list[_Frame], holes: list[tuple[int, int]]) -> list[SeqGap]:
    """Each gap with the messages of the message frames on either side of it."""
    numbered = [f for f in frames if f.seq is not None]  # in seq_id order (_in_seq_order)
    seqs = [f.seq for f in frames if f.seq is not None]
    gaps: list[SeqGap] = []
    for first, last in holes:
        below, above = bisect_left(seqs, first), bisect_right(seqs, last)
        before = state.accounts[numbered[below - 1].index].message if below > 0 else None
        after = state.accounts[numbered[above].index].message if above < len(numbered) else None
        gaps.append(SeqGap(first, last, before, after))
    return gaps


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, and 1 equals 1.0 (as in JavaScript); iterative, for deep values."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, dict):
            if not isinstance(y, dict) or x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if not isinstance(y, list) or len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif isinstance(x, bool) or isinstance(y, bool):
            if x is not y:
                return False
        elif x != y or (x is None) != (y is None) or isinstance(x, str) != isinstance(y, str):
            return False
    return True


def _same_frame(a: _Frame, b: _Frame) -> bool:
    """Whether two frames say the same, whatever their seq_id."""
    return _same({**a.data, "seq_id": None}, {**b.data, "seq_id": None})


def _group(state: _State, frames: list[_Frame]) -> list[_Message]:
    """The messages, in order of first appearance, with each frame accounted as merged or replayed.

    Without seq_ids, a message seen again after another one started is a replay from a retried
    request: its frames are checked one by one against those already merged, and frames past them
    extend the message. With seq_ids, order comes from the numbers, so that would be interleaving,
    which Letta never does.
    """
    messages: dict[Hashable, _Message] = {}
    owner: dict[int, _Message] = {}
    current: _Message | None = None
    cursor: int | None = None  # in a replay: the next merged frame to check against; None once past them
    conflicted = False
    numbered = any(f.seq is not None for f in frames)
    for f in frames:
        key = f.key
        message = messages.get(key)
        if message is None:
            message = messages[key] = _Message(f)
            cursor, conflicted = None, False
        elif message is not current:
            if numbered:
                raise StreamError(f"{f.where}: belongs to {f.label}, which another message interrupted")
            cursor, conflicted = 0, False
        current = message
        owner[f.index] = message
        _check_same_message(message.first, f)
        if cursor is not None and cursor < len(message.frames):
            if not conflicted and _same_frame(message.frames[cursor], f):
                f.outcome = "replay"
                message.accounts.append(f)
            else:
                conflicted = True
                state.account(f.index, "dropped", "replay_conflict", f"{f.where}: replays {f.label} with other content")
            cursor += 1
            continue
        cursor = None  # past the frames already merged: the replay extends the message
        if conflicted:
            state.account(
                f.index, "dropped", "replay_conflict", f"{f.where}: continues a conflicting replay of {f.label}"
            )
            continue
        kind = f.data["message_type"]
        if message.frames and kind not in _CALLS and kind not in _TEXT:
            # a message that is not sent in parts: a second frame can only repeat the first
            if _same_frame(message.frames[0], f):
                f.outcome = "replay"
                message.accounts.append(f)
            else:
                state.account(f.index, "dropped", "replay_conflict", f"{f.where}: a {kind} is not sent in parts")
            continue
        message.frames.append(f)
        message.accounts.append(f)
    for seen, repeat in state.repeats:
        if seen.index in owner and _same(seen.data, repeat.data):
            repeat.outcome = "replay"
            owner[seen.index].accounts.append(repeat)
        else:
            state.account(
                repeat.index, "dropped", "replay_conflict", f"{repeat.where}: differs from {seen.where}, same seq_id"
            )
    return list(messages.values())


def _check_same_message(first: _Frame, f: _Frame) -> None:
    if f.data.get("id") == first.data.get("id") and f.data["message_type"] == first.data["message_type"]:
        return
    for name in ("id", "message_type"):
        if f.data.get(name) != first.data.get(name):
            raise StreamError(
                f"{f.where}: does not belong to the message being built ({first.label}): "
                f"{name} is {f.data.get(name)!r}, not {first.data.get(name)!r}"
            )


class _Incomplete(Exception):
    """A message whose frames do not make a complete message (a stream cut short)."""


def _merge(message: _Message) -> LettaMessage:
    """Merge the frames of one message into the complete message."""
    frames = message.frames
    first, last = frames[0], frames[-1]
    kind = first.data["message_type"]
    merged = dict(first.data)
    if "seq_id" in merged or last.data.get("seq_id") is not None:
        merged["seq_id"] = last.data.get("seq_id")
    if kind in _CALLS:
        calls = _merge_calls(frames)
        merged["tool_call"] = calls[0]
        merged["tool_calls"] = calls
    elif kind in _TEXT:
        name = _TEXT[kind]
        pieces = [f.data[name] for f in frames if f.data.get(name) is not None]
        if all(isinstance(p, str) for p in pieces):
            if pieces:
                merged[name] = "".join(pieces)
        elif all(isinstance(p, list) for p in pieces):
            merged[name] = [part for p in pieces for part in p]
        else:
            raise StreamError(f"{last.where}: mixes string and list {name} pieces in {first.label}")
        signatures = [f.data["signature"] for f in frames if f.data.get("signature") is not None]
        if signatures:
            merged["signature"] = signatures[-1]
    try:
        return parse_letta_message(merged)
    except ValidationError as exc:
        error = exc.errors()[0]
        raise StreamError(
            f"{first.label}: the merged message is not a valid letta/LettaMessage at {_path(tuple(error['loc'])[1:])}: "
            f"{error['msg']}"
        ) from None


@dataclass
class _Call:
    call_id: str
    name: str | None = None
    pieces: list[str] = field(default_factory=list)  # joined once at the end: linear in the fragments


def _merge_calls(frames: list[_Frame]) -> list[dict[str, Any]]:
    """ToolCalls from the frames of one message: complete lists as they are, deltas merged."""
    calls: dict[str, _Call] = {}
    current: _Call | None = None
    for f in frames:
        value = f.data.get("tool_calls")
        if value is None:
            value = f.data.get("tool_call")
        for part in value if isinstance(value, list) else (value,):
            if not isinstance(part, dict):
                continue
            call_id = part.get("tool_call_id")
            if call_id is None:
                if current is None:
                    raise StreamError(f"{f.where}: a fragment without tool_call_id before any call started")
                call = current
            else:
                call = calls.get(call_id) or calls.setdefault(call_id, _Call(call_id))
            name = part.get("name")
            if name is not None:
                if call.name not in (None, name):
                    raise StreamError(f"{f.where}: call {call.call_id} renamed from {call.name!r} to {name!r}")
                call.name = name
            arguments = part.get("arguments")
            if arguments:
                call.pieces.append(arguments)
            current = call
    out: list[dict[str, Any]] = []
    for call in calls.values():
        if call.name is None:
            raise _Incomplete(f"call {call.call_id}: no fragment gave its name (truncated stream?)")
        arguments = "".join(call.pieces)
        try:
            jsontext.parse(arguments.encode("utf-8", "surrogatepass"), jsontext.loader())
        except jsontext.Malformed as exc:
            raise _Incomplete(
                f"call {call.call_id}: arguments are not complete JSON after reassembly ({exc}): "
                f"{arguments[:80]!r} (truncated stream?)"
            ) from None
        out.append({"name": call.name, "arguments": arguments, "tool_call_id": call.call_id})
    if not out:
        raise _Incomplete(f"{frames[0].label}: no tool call in its frames")
    return out
