"""A Letta conversation as a Docent agent run; docs/convert.md has the mapping, field by field.

Letta splits one model turn into several messages that share an `id` (reasoning, text, tool
calls); they become one Docent assistant message, whose content parts and tool calls keep their
order. Every Letta field that no Docent field carries (`otid`, `seq_id`, `run_id`, `step_id`,
`date`, ...) is kept in the Docent message's `metadata["letta"]`, one entry per Letta message, so
that nothing is lost.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic_core import to_jsonable_python

from chatschema import schemas
from chatschema.docent import AgentRun

from .errors import ConversionError

ASSISTANT_SIDE = frozenset(
    {
        "reasoning_message",
        "hidden_reasoning_message",
        "assistant_message",
        "tool_call_message",
        "approval_request_message",
    }
)
# The fields of each message type that Docent's own fields carry; the rest go to metadata["letta"].
CARRIED: dict[str, frozenset[str]] = {
    "system_message": frozenset({"content"}),
    "user_message": frozenset({"content"}),
    "assistant_message": frozenset({"content"}),
    "reasoning_message": frozenset({"reasoning", "signature"}),
    "hidden_reasoning_message": frozenset({"hidden_reasoning"}),
    "tool_call_message": frozenset({"tool_call", "tool_calls"}),
    "approval_request_message": frozenset({"tool_call", "tool_calls"}),
    "tool_return_message": frozenset(),  # which depends on `tool_returns`: see _tool_results
    "approval_response_message": frozenset(),
    "summary_message": frozenset({"summary"}),
    "event_message": frozenset(),
}
RAW_ARGUMENTS = "__parse_error_raw_args"  # Docent's key for tool-call arguments that are not a JSON object


@dataclass
class _Conversion:
    """What is built while the messages are read."""

    strict: bool
    messages: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    set_aside: list[dict[str, Any]] = field(default_factory=list)
    functions: dict[str, str] = field(default_factory=dict)  # tool_call_id -> the function called

    def cannot(self, index: int, where: str, reason: str, value: Any) -> None:
        """An input with no counterpart: an error when strict, else kept in the run's metadata."""
        if self.strict:
            raise ConversionError(index, where, reason)
        self.set_aside.append({"index": index, "field": where, "reason": reason, "value": value})


def letta_to_docent(source: Any, *, strict: bool = True, name: str | None = None) -> AgentRun:
    """One Docent agent run (one transcript) from a Letta conversation: a list of Letta messages
    (dicts or models), a LettaResponse, or a reassembled stream (`chatschema.letta.reassemble`).

    Each message is checked against `letta/LettaMessage` first and the run against
    `docent/AgentRun` last. Strict (the default): an input with no Docent counterpart (an image, a
    stream fragment, a tool result that answers no call) raises `ConversionError` naming the
    message index, the field and why. `strict=False` keeps each such value in the run's
    `metadata["chatschema"]["set_aside"]` instead.
    """
    messages, outcome = _unpack(source)
    conversion = _Conversion(strict)
    index = 0
    while index < len(messages):
        index = _convert_at(conversion, messages, index)
    transcript: dict[str, Any] = {"messages": conversion.messages, "metadata": {}}
    if conversion.events:
        transcript["metadata"]["letta"] = {"events": conversion.events}
    run: dict[str, Any] = {"transcripts": [transcript], "metadata": {"letta": outcome} if outcome else {}}
    if conversion.set_aside:
        run["metadata"]["chatschema"] = {"set_aside": conversion.set_aside}
    if name is not None:
        run["name"] = name
    for violation in schemas.violations(run, "docent/AgentRun"):  # the converter's own guarantee
        raise ConversionError(None, violation.path, f"the Docent run is invalid: {violation.message}")
    return AgentRun.model_validate(run)


def _unpack(source: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The messages, as checked JSON, and the stop reason and usage when the source has them."""
    if isinstance(source, list | tuple):
        raw: Any = list(source)
        outcome: dict[str, Any] = {}
    else:
        raw = _field(source, "messages")
        if raw is None:
            raise ConversionError(
                None, "$", "expected a list of Letta messages, a LettaResponse or a reassembled stream"
            )
        parts = {k: _field(source, k) for k in ("stop_reason", "usage")}
        outcome = {k: to_jsonable_python(v, by_alias=True) for k, v in parts.items() if v is not None}
    messages = [to_jsonable_python(m, by_alias=True) for m in raw]
    for index, message in enumerate(messages):
        for violation in schemas.violations(message, "letta/LettaMessage"):
            raise ConversionError(index, violation.path, f"not a Letta message: {violation.message}")
    return messages, outcome


def _field(source: Any, name: str) -> Any:
    """A field of a LettaResponse, as a dict or a model, or of a reassembled stream."""
    return source.get(name) if isinstance(source, dict) else getattr(source, name, None)


def _convert_at(conversion: _Conversion, messages: list[dict[str, Any]], index: int) -> int:
    """Convert the message at `index` (with the assistant-side messages of the same turn after it);
    returns the index of the next message to convert."""
    message = messages[index]
    kind = message["message_type"]
    if kind in ASSISTANT_SIDE:
        end = index + 1
        while end < len(messages) and messages[end]["message_type"] in ASSISTANT_SIDE:
            if messages[end].get("id") != message.get("id"):
                break
            end += 1
        conversion.messages.append(_assistant(conversion, messages, index, end))
        return end
    if kind == "tool_return_message":
        conversion.messages.extend(_tool_results(conversion, message, index))
    elif kind == "approval_response_message":
        conversion.messages.extend(_approval_response(conversion, message, index))
    elif kind == "event_message":
        conversion.events.append({"index": index, **message})
    else:  # system, user, summary
        conversion.messages.append(_plain(conversion, message, index))
    return index + 1


def _entry(message: dict[str, Any]) -> dict[str, Any]:
    """What of a Letta message no Docent field carries: its metadata entry."""
    carried = CARRIED[message["message_type"]]
    return {k: v for k, v in message.items() if k not in carried}


def _plain(conversion: _Conversion, message: dict[str, Any], index: int) -> dict[str, Any]:
    kind = message["message_type"]
    role = {"system_message": "system", "user_message": "user", "summary_message": "system"}[kind]
    text = message["summary"] if kind == "summary_message" else message["content"]
    content = _parts(conversion, text, index, f"{kind}.content")
    return {"role": role, "id": message["id"], "content": content, "metadata": {"letta": [_entry(message)]}}


def _parts(conversion: _Conversion, content: Any, index: int, where: str) -> Any:
    """A Letta content value as Docent content: a string as it is, text parts as text parts; an image
    has no counterpart."""
    if isinstance(content, str):
        return content
    parts = []
    for position, part in enumerate(content):
        if part["type"] == "text":
            parts.append({"type": "text", "text": part["text"]})
        else:
            conversion.cannot(index, f"{where}[{position}]", f"a Docent message holds no {part['type']} part", part)
    return parts


def _assistant(conversion: _Conversion, messages: list[dict[str, Any]], start: int, end: int) -> dict[str, Any]:
    """One Docent assistant message from the Letta messages of one turn, `messages[start:end]`."""
    content: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    for index in range(start, end):
        message = messages[index]
        kind = message["message_type"]
        if kind == "reasoning_message":
            content.append(
                {"type": "reasoning", "reasoning": message["reasoning"], "signature": message.get("signature")}
            )
        elif kind == "hidden_reasoning_message":  # Docent's redacted reasoning: the blob in `signature`
            content.append(
                {"type": "reasoning", "reasoning": "", "redacted": True, "signature": message.get("hidden_reasoning")}
            )
        elif kind == "assistant_message":
            text = message["content"]
            content.extend(
                [{"type": "text", "text": text}] if isinstance(text, str) else _parts(conversion, text, index, "")
            )
        else:
            calls.extend(_calls(conversion, message, index))
    converted: dict[str, Any] = {
        "role": "assistant",
        "id": messages[start].get("id"),
        "content": content,
        "metadata": {"letta": [_entry(m) for m in messages[start:end]]},
    }
    if calls:
        converted["tool_calls"] = calls
    return converted


def _calls(conversion: _Conversion, message: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """The Docent tool calls of a tool call or approval request message (every parallel call)."""
    calls = message.get("tool_calls")
    if not isinstance(calls, list):  # absent, or a streaming fragment: the single deprecated call
        calls = [message["tool_call"]]
    out = []
    for position, call in enumerate(calls):
        if not all(isinstance(call.get(k), str) for k in ("tool_call_id", "name", "arguments")):
            where = f"{message['message_type']}.tool_calls[{position}]"
            conversion.cannot(index, where, "a stream fragment, not a whole call: reassemble the stream first", call)
            continue
        conversion.functions[call["tool_call_id"]] = call["name"]
        out.append(_call(call))
    return out


def _call(call: dict[str, Any]) -> dict[str, Any]:
    """A Letta ToolCall (arguments as JSON text) as a Docent ToolCall (arguments as an object); text
    that is not a JSON object is kept as Docent keeps it, with a parse error."""
    converted = {"id": call["tool_call_id"], "function": call["name"], "type": "function"}
    try:
        arguments = json.loads(call["arguments"])
    except ValueError:
        arguments = None
    if isinstance(arguments, dict):
        return {**converted, "arguments": arguments}
    error = "the arguments are not a JSON object"
    return {**converted, "arguments": {RAW_ARGUMENTS: call["arguments"]}, "parse_error": error}


def _tool_results(conversion: _Conversion, message: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """One Docent tool message per result: each of `tool_returns` (the first tool message keeps the
    rest of the Letta message, each keeps its item's other fields), or the message's own result."""
    returns = message.get("tool_returns")
    if not returns:
        entry = {k: v for k, v in message.items() if k not in ("tool_return", "tool_call_id")}
        return [{"id": message["id"], **_tool_result(conversion, message, index, "tool_return_message", entry)}]
    rest = {k: v for k, v in message.items() if k != "tool_returns"}
    out = []
    for position, result in enumerate(returns):
        item = {"index": position, **{k: v for k, v in result.items() if k not in ("tool_return", "tool_call_id")}}
        entry = rest if position == 0 else {"id": message["id"], "message_type": "tool_return_message"}
        where = f"tool_return_message.tool_returns[{position}]"
        out.append(_tool_result(conversion, result, index, where, {**entry, "tool_returns_item": item}))
    return out


def _tool_result(
    conversion: _Conversion, result: dict[str, Any], index: int, where: str, entry: dict[str, Any]
) -> dict[str, Any]:
    call_id = result["tool_call_id"]
    function = conversion.functions.get(call_id)
    if function is None:
        conversion.cannot(index, f"{where}.tool_call_id", f"{call_id!r} answers no tool call before it", call_id)
    content = _parts(conversion, result["tool_return"], index, f"{where}.tool_return")
    converted = {"role": "tool", "content": content, "tool_call_id": call_id, "function": function}
    if result.get("status") == "error":
        text = content if isinstance(content, str) else "\n".join(p["text"] for p in content)
        converted["error"] = {"type": "unknown", "message": text}
    return {**converted, "metadata": {"letta": [entry]}}


def _approval_response(conversion: _Conversion, message: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """The user's decisions, as a user message answering the calls decided on (its metadata holds
    each decision); a result of a tool the client ran, as a tool message after it."""
    approvals = message.get("approvals") or []
    decided = [a["tool_call_id"] for a in approvals if a.get("type") == "approval"]
    if not approvals and message.get("approval_request_id") is not None:
        decided = [message["approval_request_id"]]  # the deprecated single decision
    user: dict[str, Any] = {"role": "user", "id": message["id"], "content": "", "metadata": {"letta": [message]}}
    if decided:
        user["tool_call_id"] = decided
    results = [
        _tool_result(conversion, a, index, f"approval_response_message.approvals[{i}]", {"approvals_item": i})
        for i, a in enumerate(approvals)
        if a.get("type") == "tool"
    ]
    return [user, *results]
