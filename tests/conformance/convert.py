"""Conversions on generated conversations: every family's messages, drawn from its schema, converted
into Docent agent runs, both ends checked (`nox -s conformance` runs the full count).

    python -m tests.conformance.convert [--count 3000] [--seed 20261127]

For each family, `--count` valid messages of its message type (every branch the strategies reach:
parallel tool calls, empty content, unicode, images) are cut into conversations of 1 to 12
messages and converted in lenient mode. Each run must be valid under `docent/AgentRun` and accepted
by docent's own `AgentRun`; every input message must come out somewhere: as (part of) a Docent
message, an event in the transcript's metadata, or a value set aside with its index. Prints the
counts; exits 1 on the first failure, naming the family, the seed and the conversation.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from docent.data_models.agent_run import AgentRun as DocentAgentRun

from chatschema import schemas
from chatschema.convert import bridgic_to_docent, letta_to_docent, swarm_to_docent

from .strategies import draw, schema_strategy

FAMILIES: dict[str, tuple[str, Callable[..., Any]]] = {
    "letta": ("letta/LettaMessage", letta_to_docent),
    "bridgic": ("bridgic/Message", bridgic_to_docent),
    "swarm": ("swarm/ISwarmMessage", swarm_to_docent),
}


def conversations(messages: list[Any], seed: int) -> list[list[Any]]:
    """The messages cut, in order, into conversations of 1 to 12."""
    rng = random.Random(seed)
    out, start = [], 0
    while start < len(messages):
        size = rng.randint(1, 12)
        out.append(messages[start : start + size])
        start += size
    return out


def expected_messages(family: str, message: dict[str, Any]) -> int:
    """How many Docent messages one input message becomes (Letta: see `letta_sources`)."""
    if family == "swarm":
        return 0 if message["role"] in ("flush", "resque") else 1
    blocks = message.get("blocks", [])
    results = sum(b["block_type"] == "tool_result" for b in blocks)
    texts = any(b["block_type"] == "text" for b in blocks)
    calls = message.get("role", "user") == "assistant" and any(b["block_type"] == "tool_call" for b in blocks)
    return (1 if texts or calls or not results else 0) + int(results)


def letta_sources(messages: list[Any], run: dict[str, Any]) -> set[int]:
    """The indexes of the Letta messages the run accounts for: the source of a metadata entry, an
    event, or a value set aside."""
    transcript = run["transcripts"][0]
    found = {e["index"] for e in (transcript["metadata"].get("letta") or {}).get("events", [])}
    found |= {a["index"] for a in run["metadata"].get("chatschema", {}).get("set_aside", [])}
    for entry in (e for m in transcript["messages"] for e in (m["metadata"] or {}).get("letta", [])):
        found |= {
            i
            for i, message in enumerate(messages)
            if all(message.get(k) == entry.get(k) for k in ("id", "message_type", "otid"))
        }
    return found


def check(family: str, count: int, seed: int) -> tuple[int, int]:
    """Convert `count` drawn messages of `family`; returns (conversations, Docent messages)."""
    name, convert = FAMILIES[family]
    drawn = draw(schema_strategy(name), count, seed)
    runs = 0
    written = 0
    for number, conversation in enumerate(conversations(drawn, seed)):
        run = convert(conversation, strict=False).model_dump(mode="json")
        schemas.validate(run, "docent/AgentRun")
        DocentAgentRun.model_validate(run)
        docent = run["transcripts"][0]["messages"]
        if family == "letta":
            lost = set(range(len(conversation))) - letta_sources(conversation, run)
        else:
            lost = set() if len(docent) == sum(expected_messages(family, m) for m in conversation) else {-1}
        if lost:
            raise AssertionError(f"{family}, seed {seed}, conversation {number}: messages {sorted(lost)} went missing")
        runs += 1
        written += len(docent)
    return runs, written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000, help="messages drawn per family")
    parser.add_argument("--seed", type=int, default=20261127)
    args = parser.parse_args(argv)
    for family in FAMILIES:
        start = time.perf_counter()
        try:
            runs, written = check(family, args.count, args.seed)
        except AssertionError as exc:
            print(f"FAILED: {exc}", file=sys.stderr)
            return 1
        print(f"{family}: {args.count} messages in {runs} conversations -> {written} Docent messages, all valid, "
              f"{time.perf_counter() - start:.0f}s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
