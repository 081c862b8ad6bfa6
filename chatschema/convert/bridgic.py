"""A bridgic conversation as a Docent agent run; docs/convert.md has the mapping, field by field.

A bridgic message is a role and a list of blocks. Its text blocks become the content of one
Docent message of the same role, its tool-call blocks that message's tool calls, and each of its
tool-result blocks a Docent tool message after it. `extras` and unknown keys are kept in the
Docent message's `metadata["bridgic"]`.
"""

from __future__ import annotations

from typing import Any

from chatschema.docent import AgentRun

from .run import Conversion

KNOWN = frozenset({"role", "blocks"})  # the keys Docent's own fields carry


def bridgic_to_docent(messages: Any, *, strict: bool = True, name: str | None = None) -> AgentRun:
    """One Docent agent run (one transcript) from a list of bridgic messages (dicts or models).

    Each message is checked against `bridgic/Message` first and the run against `docent/AgentRun`
    last. Strict (the default): a tool call outside an assistant message (Docent's only assistant
    messages call tools) or a tool result that answers no call raises `ConversionError` naming the
    message index, the field and why; `strict=False` keeps each such value in the run's
    `metadata["chatschema"]["set_aside"]` instead.
    """
    conversion = Conversion(strict)
    for index, message in enumerate(conversion.checked(messages, "bridgic/Message", "bridgic message")):
        if message is not None:
            _convert(conversion, message, index)
    return conversion.finish("bridgic", {}, name)


def _convert(conversion: Conversion, message: dict[str, Any], index: int) -> None:
    role = message.get("role", "user")
    blocks = message.get("blocks", [])
    texts = [{"type": "text", "text": b["text"]} for b in blocks if b["block_type"] == "text"]
    calls = []
    for position, block in enumerate(blocks):
        if block["block_type"] != "tool_call":
            continue
        if role != "assistant":
            where = f"blocks[{position}]"
            conversion.cannot(
                index, where, f"a tool call in a {role} message: Docent's only assistant messages call tools", block
            )
            continue
        calls.append(conversion.tool_call(block["id"], block["name"], block["arguments"]))
    results = [(p, b) for p, b in enumerate(blocks) if b["block_type"] == "tool_result"]
    kept = {k: v for k, v in message.items() if k not in KNOWN}
    if texts or calls or not results:
        converted: dict[str, Any] = {"role": role, "content": texts, "metadata": {"bridgic": kept} if kept else None}
        if calls:
            converted["tool_calls"] = calls
        conversion.messages.append(converted)
    for position, block in results:
        function = conversion.answered(block["id"], index, f"blocks[{position}].id")
        result = {"role": "tool", "content": block["content"], "tool_call_id": block["id"], "function": function}
        conversion.messages.append({**result, "metadata": {"bridgic": {"role": role, **kept}}})
