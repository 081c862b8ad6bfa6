"""Reassemble Letta streams into complete messages (copied into chatschema by codegen).

A Letta stream sends each message in frames: a tool call as a first ToolCallDelta with the
name, then fragments of the JSON-encoded arguments; assistant text and reasoning as pieces of
text. Every frame of one message repeats its `id` and `otid`. In background mode every frame
also has a `seq_id`, so a client can resume after a cursor and a retried request can replay
frames it already sent.

`reassemble(frames)` takes the frames in arrival order (dicts or models) and returns the
complete messages, each valid under the non-streaming `letta/LettaMessage` schema:

- frames are put in `seq_id` order where they have one; a frame repeated with the same
  `seq_id` is dropped, a different frame with a used `seq_id` or a gap in the numbers is an error;
- without `seq_id`s, frames are taken in arrival order, and a message whose `otid` comes
  back after another message started is a replay from a retried request: the most complete
  of its attempts is kept;
- ToolCallDelta fragments are merged per `tool_call_id`, arguments concatenated and then
  checked to parse as JSON;
- pings are dropped; stop reason, usage and error frames are returned beside the messages.

`reassemble_sse(text)` does the same from the raw `text/event-stream` body.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from chatschema._base import SchemaModel
from chatschema.letta import (
    LettaErrorMessage,
    LettaMessage,
    LettaStopReason,
    LettaUsageStatistics,
    parse_letta_message,
    parse_letta_streaming_response,
)

__all__ = ["LettaStream", "StreamError", "iter_sse", "reassemble", "reassemble_sse"]

_CONTROL = {"ping", "stop_reason", "usage_statistics", "error_message"}
_CALLS = {"tool_call_message", "approval_request_message"}
_TEXT = {
    "assistant_message": "content",
    "reasoning_message": "reasoning",
    "hidden_reasoning_message": "hidden_reasoning",
}


class StreamError(ValueError):
    """The frames do not make a complete, consistent stream; the message says where and why."""


@dataclass
class LettaStream:
    """A reassembled stream: the complete messages and the frames that are not messages."""

    messages: list[LettaMessage] = field(default_factory=list)
    stop_reason: LettaStopReason | None = None
    usage: LettaUsageStatistics | None = None
    errors: list[LettaErrorMessage] = field(default_factory=list)
    last_seq_id: int | None = None
    """The highest `seq_id` seen: the cursor to resume a background stream after."""


@dataclass
class _Frame:
    index: int  # position in arrival order, for error messages
    data: dict[str, Any]

    @property
    def where(self) -> str:
        seq = self.data.get("seq_id")
        return f"frame {self.index}" + (f" (seq_id {seq})" if seq is not None else "")

    @property
    def key(self) -> str:
        otid = self.data.get("otid")
        return f"otid {otid}" if otid is not None else f"id {self.data['id']} ({self.data['message_type']})"


def iter_sse(lines: str | Iterable[str]) -> Iterator[dict[str, Any]]:
    """Yield the JSON payload of each `data:` event of an SSE body, up to `data: [DONE]`.

    Raises StreamError for a payload that is not JSON, for data after `[DONE]`, and for a
    body that ends without `[DONE]` (a truncated stream).
    """
    if isinstance(lines, str):
        lines = lines.splitlines()
    data: list[str] = []
    done = False
    for number, raw in enumerate([*lines, ""], start=1):
        line = raw.rstrip("\r\n")
        if line.startswith(":") or line.startswith(("event:", "id:", "retry:")):
            continue
        if line.startswith("data:"):
            value = line[5:].removeprefix(" ")
            if done:
                raise StreamError(f"line {number}: data after [DONE]")
            data.append(value)
            continue
        if line.strip() or not data:
            continue
        payload, data = "\n".join(data), []
        if payload == "[DONE]":
            done = True
            continue
        try:
            yield json.loads(payload)
        except json.JSONDecodeError as exc:
            raise StreamError(f"line {number}: event data is not JSON: {exc.msg}") from None
    if not done:
        raise StreamError("stream truncated: it ends without `data: [DONE]`")


def reassemble_sse(lines: str | Iterable[str], *, complete: bool = True) -> LettaStream:
    """Reassemble a raw Letta SSE body (`data: {...}` lines ending in `data: [DONE]`)."""
    return reassemble(iter_sse(lines), complete=complete)


def reassemble(frames: Iterable[Mapping[str, Any] | SchemaModel], *, complete: bool = True) -> LettaStream:
    """Reassemble Letta stream frames, given in arrival order, into complete messages.

    With `complete=True` (the default) a stream without a stop reason is truncated and an
    error. Raises StreamError for inconsistent frames and pydantic.ValidationError (also a
    ValueError) for a frame that is not a valid LettaStreamingResponse.
    """
    result = LettaStream()
    parsed: list[_Frame] = []
    for index, frame in enumerate(frames):
        model = parse_letta_streaming_response(frame)
        data = model.model_dump(mode="json")
        if isinstance(model, LettaStopReason):
            result.stop_reason = model
        elif isinstance(model, LettaUsageStatistics):
            result.usage = model
        elif isinstance(model, LettaErrorMessage):
            result.errors.append(model)
        parsed.append(_Frame(index, data))
    ordered = _in_seq_order(parsed)
    seqs = [f.data["seq_id"] for f in ordered if f.data.get("seq_id") is not None]
    result.last_seq_id = max(seqs) if seqs else None
    messages = [f for f in ordered if f.data["message_type"] not in _CONTROL]
    result.messages = [_finish_best(tries) for tries in _attempts(messages, replays_allowed=not seqs)]
    if complete and result.stop_reason is None:
        raise StreamError("stream truncated: no stop_reason frame")
    return result


def _in_seq_order(frames: list[_Frame]) -> list[_Frame]:
    """Frames sorted by seq_id with retried duplicates dropped; frames without one keep arrival order."""
    numbered = [f for f in frames if f.data.get("seq_id") is not None]
    if not numbered:
        return frames
    unnumbered = [f for f in frames if f.data.get("seq_id") is None]
    for f in unnumbered:
        if f.data["message_type"] not in _CONTROL:
            raise StreamError(f"{f.where}: has no seq_id while other frames of the stream have one")
    by_seq: dict[int, _Frame] = {}
    for f in numbered:
        seq = f.data["seq_id"]
        seen = by_seq.get(seq)
        if seen is None:
            by_seq[seq] = f
        elif seen.data != f.data:
            raise StreamError(f"{f.where}: differs from {seen.where}, which has the same seq_id")
    order = sorted(by_seq)
    for before, after in pairwise(order):
        if after != before + 1:
            missing = f"{before + 1}" if after == before + 2 else f"{before + 1}..{after - 1}"
            raise StreamError(f"gap in seq_id: {before} is followed by {after} (missing {missing})")
    return [by_seq[s] for s in order] + unnumbered


def _attempts(frames: list[_Frame], *, replays_allowed: bool) -> list[list[list[_Frame]]]:
    """Per message (in order of first appearance), its runs of consecutive frames.

    A message seen again after another one started is a replay from a retried request;
    without seq_ids that is expected, with them it would be interleaving, which Letta never does.
    """
    attempts: dict[str, list[list[_Frame]]] = {}
    current: str | None = None
    for f in frames:
        key = f.key
        if key == current:
            _check_same_message(attempts[key][-1][0], f)
            attempts[key][-1].append(f)
            continue
        if key in attempts:
            if not replays_allowed:
                raise StreamError(f"{f.where}: belongs to {key}, which another message interrupted")
            _check_same_message(attempts[key][0][0], f)
        attempts.setdefault(key, []).append([f])
        current = key
    return list(attempts.values())


def _finish_best(attempts: list[list[_Frame]]) -> LettaMessage:
    """The message from its most complete attempt: a retry may replay what a cut-off attempt began."""
    failure: StreamError | None = None
    for frames in sorted(attempts, key=len, reverse=True):
        try:
            return _finish(frames)
        except StreamError as exc:
            failure = failure or exc
    assert failure is not None
    raise failure


def _check_same_message(first: _Frame, f: _Frame) -> None:
    for name in ("id", "message_type"):
        if f.data[name] != first.data[name]:
            raise StreamError(
                f"{f.where}: does not belong to the message being built ({first.key}): "
                f"{name} is {f.data[name]!r}, not {first.data[name]!r}"
            )


def _finish(frames: list[_Frame]) -> LettaMessage:
    """Merge the frames of one message into the complete message."""
    first, last = frames[0], frames[-1]
    kind = first.data["message_type"]
    merged = dict(first.data)
    merged["seq_id"] = last.data.get("seq_id")
    if kind in _CALLS:
        calls = _merge_calls(frames)
        merged["tool_call"] = calls[0]
        merged["tool_calls"] = calls
    elif kind in _TEXT:
        name = _TEXT[kind]
        pieces = [f.data[name] for f in frames if f.data.get(name) is not None]
        if all(isinstance(p, str) for p in pieces):
            merged[name] = "".join(pieces) if pieces else first.data.get(name)
        elif all(isinstance(p, list) for p in pieces):
            merged[name] = [part for p in pieces for part in p]
        else:
            raise StreamError(f"{last.where}: mixes string and list {name} pieces in {first.key}")
        signatures = [f.data["signature"] for f in frames if f.data.get("signature") is not None]
        if kind == "reasoning_message" and signatures:
            merged["signature"] = signatures[-1]
    else:
        for f in frames[1:]:
            if {**f.data, "seq_id": None} != {**first.data, "seq_id": None}:
                raise StreamError(f"{f.where}: a {kind} is not sent in parts, but {first.key} has two different frames")
    return parse_letta_message(merged)


def _merge_calls(frames: list[_Frame]) -> list[dict[str, Any]]:
    """ToolCalls from the frames of one message: complete lists as they are, deltas merged."""
    calls: dict[str, dict[str, Any]] = {}
    for f in frames:
        value = f.data.get("tool_calls")
        if value is None:
            value = f.data["tool_call"]
        for part in value if isinstance(value, list) else [value]:
            call_id = part.get("tool_call_id")
            if call_id is None:
                if not calls:
                    raise StreamError(f"{f.where}: a fragment without tool_call_id before any call started")
                call_id = next(reversed(calls))
            call = calls.setdefault(call_id, {"name": None, "arguments": "", "tool_call_id": call_id})
            name = part.get("name")
            if name is not None:
                if call["name"] not in (None, name):
                    raise StreamError(f"{f.where}: call {call_id} renamed from {call['name']!r} to {name!r}")
                call["name"] = name
            call["arguments"] += part.get("arguments") or ""
    for call_id, call in calls.items():
        if call["name"] is None:
            raise StreamError(f"call {call_id}: no fragment gave its name (truncated stream?)")
        try:
            json.loads(call["arguments"])
        except json.JSONDecodeError as exc:
            raise StreamError(
                f"call {call_id}: arguments are not complete JSON after reassembly ({exc.msg}): "
                f"{call['arguments'][:80]!r} (truncated stream?)"
            ) from None
    return list(calls.values())
