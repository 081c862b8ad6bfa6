"""A Letta conversation as a Docent agent run; docs/convert.md has the mapping, field by field.

Letta splits one model turn into several messages that share an `id` (reasoning, text, tool
calls); they become one Docent assistant message, whose content parts and tool calls keep their
order. Every Letta field that no Docent field carries (`otid`, `seq_id`, `run_id`, `step_id`,
`date`, ...) is kept in the Docent message's `metadata["letta"]`, one entry per Letta message, so
that nothing is lost.
"""

from __future__ import annotations

from typing import Any

from chatschema.docent import AgentRun

from .errors import ConversionError
from .run import Conversion, json_arguments

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
    # kept whole: Docent holds the calls' arguments parsed, not as the JSON text Letta sent
    "tool_call_message": frozenset(),
    "approval_request_message": frozenset(),
    "tool_return_message": frozenset(),  # which depends on `tool_returns`: see _tool_results
    "approval_response_message": frozenset(),
    "summary_message": frozenset({"summary"}),
    "event_message": frozenset(),
}


def letta_to_docent(source: Any, *, strict: bool = True, name: str | None = None) -> AgentRun:
    """One Docent agent run (one transcript) from a Letta conversation: a list of Letta messages
    (dicts or models), a LettaResponse, or a reassembled stream (`chatschema.letta.reassemble`).

    Each message is checked against `letta/LettaMessage` first and the run against
    `docent/AgentRun` last. Strict (the default): an input with no Docent counterpart (an image, a
    stream fragment, a tool result that answers no call) raises `ConversionError` naming the
    message index, the field and why. `strict=False` keeps each such value in the run's
    `metadata["chatschema"]["set_aside"]` instead.
    """
    conversion = Conversion(strict)
    messages, outcome = _unpack(source, conversion)
    index = 0
    while index < len(messages):
        index = _convert_at(conversion, messages, index)
    return conversion.finish("letta", outcome, name)


def _unpack(source: Any, conversion: Conversion) -> tuple[list[dict[str, Any] | None], dict[str, Any]]:
    """The messages, as checked JSON, and the stop reason and usage when the source has them."""
    if isinstance(source, list | tuple):
        return conversion.checked(source, "letta/LettaMessage", "Letta message"), {}
    raw = _field(source, "messages")
    if raw is None:
        raise ConversionError(None, "$", "expected a list of Letta messages, a LettaResponse or a reassembled stream")
    outcome: dict[str, Any] = {}
    for key, schema in (("stop_reason", "letta/LettaStopReason"), ("usage", "letta/LettaUsageStatistics")):
        given = _field(source, key)
        if given is None:
            continue
        value = conversion.checked_part(given, schema, f"$.{key}")
        if value is not None:
            outcome[key] = value
    for frame in _field(source, "unknown") or ():  # a stream read with unknown="keep": frames of later types
        reason = f"a stream frame of a type this version does not know ({frame.tag!r})"
        conversion.cannot(None, "$", reason, frame.model_dump())
    return conversion.checked(raw, "letta/LettaMessage", "Letta message"), outcome


def _field(source: Any, name: str) -> Any:
    """A field of a LettaResponse, as a dict or a model, or of a reassembled stream."""
    return source.get(name) if isinstance(source, dict) else getattr(source, name, None)


def _convert_at(conversion: Conversion, messages: list[dict[str, Any] | None], index: int) -> int:
    """Convert the message at `index` (with the assistant-side messages of the same turn after it);
    returns the index of the next message to convert. A message set aside (None) is skipped."""
    message = messages[index]
    if message is None:
        return index + 1
    kind = message["message_type"]
    if kind in ASSISTANT_SIDE:
        end = index + 1
        while end < len(messages) and _same_turn(message, messages[end]):
            end += 1
        turn = [(i, m) for i, m in enumerate(messages[index:end], index) if m is not None]
        conversion.messages.append(_assistant(conversion, turn))
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
    """What of a Letta message no Docent field carries: its metadata entry. A content list Docent
    cannot hold as it is (a part's signature, an image) stays in the entry whole."""
    carried = CARRIED[message["message_type"]]
    if not _plain_text(message.get("content")):
        carried = carried - {"content"}
    return {k: v for k, v in message.items() if k not in carried}


def _plain_text(content: Any) -> bool:
    """Whether Docent's content holds all of `content`: a string it does. A list of parts can carry
    what Docent's parts cannot (a signature, an image) and, merged into a turn, could not be told
    from a string: it stays in the metadata entry whole, beside its text in Docent's content."""
    return content is None or isinstance(content, str)


def _plain(conversion: Conversion, message: dict[str, Any], index: int) -> dict[str, Any]:
    kind = message["message_type"]
    role = {"system_message": "system", "user_message": "user", "summary_message": "system"}[kind]
    text = message["summary"] if kind == "summary_message" else message["content"]
    content = _parts(conversion, text, index, f"{kind}.content")
    return {"role": role, "id": message["id"], "content": content, "metadata": {"letta": [_entry(message)]}}


def _parts(conversion: Conversion, content: Any, index: int, where: str) -> Any:
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


def _same_turn(first: dict[str, Any], other: dict[str, Any] | None) -> bool:
    """Whether `other` is an assistant-side message of the turn `first` began (the same `id`); a
    message set aside (None) does not end the turn."""
    return other is None or (other["message_type"] in ASSISTANT_SIDE and other.get("id") == first.get("id"))


def _assistant(conversion: Conversion, turn: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """One Docent assistant message from the Letta messages of one turn, each with its index."""
    content: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    for index, message in turn:
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
                [{"type": "text", "text": text}]
                if isinstance(text, str)
                else _parts(conversion, text, index, "assistant_message.content")
            )
        else:
            calls.extend(_calls(conversion, message, index))
    converted: dict[str, Any] = {
        "role": "assistant",
        "id": turn[0][1].get("id"),
        "content": content,
        "metadata": {"letta": [_entry(m) for _, m in turn]},
    }
    if calls:
        converted["tool_calls"] = calls
    return converted


def _calls(conversion: Conversion, message: dict[str, Any], index: int) -> list[dict[str, Any]]:
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
        out.append(_call(conversion, call))
    return out


def _call(conversion: Conversion, call: dict[str, Any]) -> dict[str, Any]:
    """A Letta ToolCall (arguments as JSON text) as a Docent ToolCall (arguments as an object)."""
    arguments, error = json_arguments(call["arguments"])
    return conversion.tool_call(call["tool_call_id"], call["name"], arguments, error)


def _tool_results(conversion: Conversion, message: dict[str, Any], index: int) -> list[dict[str, Any]]:
    """One Docent tool message per result: each of `tool_returns` (the first tool message keeps the
    rest of the Letta message, each keeps its item's other fields), or the message's own result."""
    returns = message.get("tool_returns")
    if not returns:
        kept = ("tool_return", "tool_call_id") if _plain_text(message["tool_return"]) else ("tool_call_id",)
        entry = {k: v for k, v in message.items() if k not in kept}
        return [{"id": message["id"], **_tool_result(conversion, message, index, "tool_return_message", entry)}]
    rest = {k: v for k, v in message.items() if k != "tool_returns"}
    out = []
    for position, result in enumerate(returns):
        moved = ("tool_return", "tool_call_id") if _plain_text(result["tool_return"]) else ("tool_call_id",)
        item = {"index": position, **{k: v for k, v in result.items() if k not in moved}}
        entry = rest if position == 0 else {"id": message["id"], "message_type": "tool_return_message"}
        where = f"tool_return_message.tool_returns[{position}]"
        out.append(_tool_result(conversion, result, index, where, {**entry, "tool_returns_item": item}))
    return out


def _tool_result(
    conversion: Conversion, result: dict[str, Any], index: int, where: str, entry: dict[str, Any]
) -> dict[str, Any]:
    call_id = result["tool_call_id"]
    function = conversion.answered(call_id, index, f"{where}.tool_call_id")
    content = _parts(conversion, result["tool_return"], index, f"{where}.tool_return")
    converted = {"role": "tool", "content": content, "tool_call_id": call_id, "function": function}
    if result.get("status") == "error":
        text = content if isinstance(content, str) else "\n".join(p["text"] for p in content)
        converted["error"] = {"type": "unknown", "message": text}
    return {**converted, "metadata": {"letta": [entry]}}


def _approval_response(conversion: Conversion, message: dict[str, Any], index: int) -> list[dict[str, Any]]:
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
