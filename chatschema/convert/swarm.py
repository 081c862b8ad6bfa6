"""An agent-swarm-kit history as a Docent agent run; docs/convert.md has the mapping, field by field.

Each `ISwarmMessage` becomes one Docent message of its role (`developer` as a system message);
`agentName`, `mode`, `payload` and unknown keys are kept in its `metadata["swarm"]`. The history's
control records, `flush` (the history was reset) and `resque` (the model was recovered), are not
messages: they are kept in the transcript's `metadata["swarm"]["events"]` at their index.
"""

from __future__ import annotations

from typing import Any

from chatschema.docent import AgentRun

from .run import Conversion

ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant", "tool": "tool"}
EVENTS = frozenset({"flush", "resque"})
CARRIED = frozenset({"role", "content", "tool_calls", "tool_call_id", "images"})


def swarm_to_docent(messages: Any, *, strict: bool = True, name: str | None = None) -> AgentRun:
    """One Docent agent run (one transcript) from an agent-swarm-kit history: a list of
    `ISwarmMessage` (dicts or models).

    Each message is checked against `swarm/ISwarmMessage` first and the run against
    `docent/AgentRun` last. Strict (the default): an image, a tool call outside an assistant
    message or a tool result that answers no call raises `ConversionError` naming the message
    index, the field and why; `strict=False` keeps each such value in the run's
    `metadata["chatschema"]["set_aside"]` instead.
    """
    conversion = Conversion(strict)
    agents: list[str] = []
    for index, message in enumerate(conversion.checked(messages, "swarm/ISwarmMessage", "swarm message")):
        if message is None:
            continue
        if message["agentName"] not in agents:
            agents.append(message["agentName"])
        if message["role"] in EVENTS:
            conversion.events.append({"index": index, **message})
        else:
            conversion.messages.append(_convert(conversion, message, index))
    return conversion.finish("swarm", {"agents": agents} if agents else {}, name)


def _convert(conversion: Conversion, message: dict[str, Any], index: int) -> dict[str, Any]:
    role = ROLES[message["role"]]
    kept = {k: v for k, v in message.items() if k not in CARRIED}
    if role != message["role"]:
        kept["role"] = message["role"]
    converted: dict[str, Any] = {"role": role, "content": message["content"], "metadata": {"swarm": kept}}
    for position, image in enumerate(message.get("images") or []):
        conversion.cannot(index, f"images[{position}]", "a Docent message holds no image", image)
    calls = message.get("tool_calls") or []
    if calls and role != "assistant":
        conversion.cannot(
            index, "tool_calls", f"tool calls in a {role} message: Docent's only assistant messages call tools", calls
        )
    elif calls:
        converted["tool_calls"] = [
            conversion.tool_call(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in calls
        ]
    call_id = message.get("tool_call_id")
    if call_id is not None and role == "tool":
        converted["tool_call_id"] = call_id
        converted["function"] = conversion.answered(call_id, index, "tool_call_id")
    elif call_id is not None:
        kept["tool_call_id"] = call_id  # only a tool message answers a call in Docent; kept as it was
    return converted
