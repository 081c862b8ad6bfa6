"""A Docent agent run made by `letta_to_docent`, back into the Letta messages it came from.

Every Docent message made from Letta holds, in `metadata["letta"]`, one entry per Letta message with
every field that no Docent field carries as it was; the way back fills each entry's other fields
from the Docent message (its text, reasoning, tool results) and puts the events back at their
places. A strict conversion comes back as it went in: the round trip is exact (tests/test_convert.py
checks it on every example). What a lenient conversion set aside comes back too, at its index.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chatschema._base import to_json_value

from .errors import ConversionError


def docent_to_letta(run: Any) -> list[dict[str, Any]]:
    """The Letta messages of the first transcript of `run` (an AgentRun model or its JSON), which
    `letta_to_docent` made; a Docent message without Letta metadata is refused (ConversionError)."""
    data = to_json_value(run)
    transcript = data["transcripts"][0]
    placed: dict[int, dict[str, Any]] = {}
    for event in (transcript["metadata"].get("letta") or {}).get("events", []):
        placed[event["index"]] = {k: v for k, v in event.items() if k != "index"}
    for aside in data["metadata"].get("chatschema", {}).get("set_aside", []):
        if aside["field"].startswith("$"):  # a whole message its schema refused
            placed[aside["index"]] = aside["value"]
    messages = list(_messages(transcript["messages"]))
    out: list[dict[str, Any]] = []
    for message in messages:
        while len(out) in placed:
            out.append(placed.pop(len(out)))
        out.append(message)
    return out + [placed[i] for i in sorted(placed)]


def _messages(docent: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    returns: dict[str, Any] | None = None  # a tool_return_message whose `tool_returns` are being gathered
    for position, message in enumerate(docent):
        entries = (message.get("metadata") or {}).get("letta")
        if not entries:
            raise ConversionError(position, "metadata.letta", "this Docent message was not made from Letta")
        if "approvals_item" in entries[0]:  # a client-side result: its approval response holds it
            continue
        if "tool_returns_item" in entries[0]:
            returns = _gather(returns, entries[0], message)
            if _last_return(docent, position):
                yield returns
                returns = None
            continue
        if message["role"] == "assistant":
            yield from _turn(entries, message)
        else:
            yield _filled(entries[0], message)


def _last_return(docent: list[dict[str, Any]], position: int) -> bool:
    """Whether the Docent message after `position` is not another of the same `tool_returns`."""
    if position + 1 == len(docent):
        return True
    following = ((docent[position + 1].get("metadata") or {}).get("letta") or [{}])[0]
    return "tool_returns_item" not in following or following["tool_returns_item"]["index"] == 0


def _gather(returns: dict[str, Any] | None, entry: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """One more item of a Letta message's `tool_returns`, from a Docent tool message."""
    item = {k: v for k, v in entry["tool_returns_item"].items() if k != "index"}
    item.setdefault("tool_return", message["content"])
    item["tool_call_id"] = message["tool_call_id"]
    if returns is None:
        returns = {k: v for k, v in entry.items() if k != "tool_returns_item"}
        returns["tool_returns"] = []
    returns["tool_returns"].append(item)
    return returns


def _filled(entry: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """A Letta message from its entry and the Docent message's own fields."""
    kind = entry["message_type"]
    out = dict(entry)
    if kind == "summary_message":
        out.setdefault("summary", message["content"])
    elif kind == "tool_return_message":
        out.setdefault("tool_return", message["content"])
        out.setdefault("tool_call_id", message["tool_call_id"])
    elif kind != "approval_response_message":
        out.setdefault("content", message["content"])
    return _in_order(out, entry)


def _turn(entries: list[dict[str, Any]], message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The Letta messages of one assistant turn: each entry takes its parts of the content in order."""
    content = message["content"] if isinstance(message["content"], list) else [message["content"]]
    reasoning = iter(p for p in content if isinstance(p, dict) and p.get("type") == "reasoning")
    texts = iter(p for p in content if isinstance(p, dict) and p.get("type") == "text")
    for entry in entries:
        out = dict(entry)
        kind = entry["message_type"]
        if kind == "reasoning_message":
            part = next(reasoning)
            out.setdefault("reasoning", part["reasoning"])
            out.setdefault("signature", part["signature"])
        elif kind == "hidden_reasoning_message":
            out.setdefault("hidden_reasoning", next(reasoning)["signature"])
        elif kind == "assistant_message":
            if "content" in entry:  # a list of parts, kept whole: skip its text in Docent's content
                for _ in range(len(entry["content"])):
                    next(texts)
            else:
                out["content"] = next(texts)["text"]
        yield _in_order(out, entry)


def _in_order(message: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The message with its keys in a stable order: the entry's first, then the filled ones (a
    JSON object's key order carries no meaning; this keeps dumps readable)."""
    return {**{k: message[k] for k in entry}, **{k: v for k, v in message.items() if k not in entry}}
