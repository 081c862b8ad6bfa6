"""The conversion benchmark (`nox -s bench`): `chatschema convert` against `chatschema validate` on
the same Letta messages.

    python bench/convert.py [--count 100000] [--repeats 3]

Writes `--count` Letta messages as JSONL (turns of reasoning, two parallel tool calls, two results
and a reply, every field Letta sends), then runs the installed commands in turn, `convert --from
letta FILE -o /dev/null` and `validate --schema letta/LettaMessage FILE`, and prints the median
time of each and their ratio (validate's time / convert's: the share of validate's throughput that
convert reaches). Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BASE = {"date": "2025-10-01T12:30:45+00:00", "name": None, "sender_id": None, "is_err": None, "seq_id": None}


def turn(number: int) -> list[dict[str, Any]]:
    """One Letta turn: six messages, two of them sharing the model's message id with the reasoning."""
    ids = {"step_id": f"step-{number}", "run_id": "run-1", **BASE}

    def message(kind: str, id_: str, **fields: Any) -> dict[str, Any]:
        return {"id": id_, "message_type": kind, "otid": f"{id_}-{kind}", **ids, **fields}

    calls = [
        {"tool_call_id": f"call-{number}-{i}", "name": "web_search", "arguments": json.dumps({"query": f"q {i}"})}
        for i in (1, 2)
    ]
    model = f"message-{number}-a"
    return [
        message(
            "reasoning_message", model, reasoning="I should search twice.", source="reasoner_model", signature="sig"
        ),
        message("tool_call_message", model, tool_call=calls[0], tool_calls=calls),
        *(
            result(message, f"message-{number}-r{i}", call["tool_call_id"], f"result {i} " * 20)
            for i, call in enumerate(calls)
        ),
        message("assistant_message", f"message-{number}-b", content="Here is what I found. " * 10),
        message("user_message", f"message-{number}-u", content="Thanks, and the next one?"),
    ]


def result(message: Any, id_: str, call_id: str, text: str) -> dict[str, Any]:
    fields = {"tool_return": text, "status": "success", "tool_call_id": call_id, "stdout": None, "stderr": None}
    return dict(message("tool_return_message", id_, **fields))


def write(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        written, number = 0, 0
        while written < count:
            for message in turn(number)[: count - written]:
                out.write(json.dumps(message, separators=(",", ":")) + "\n")
                written += 1
            number += 1


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.decode()[-500:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="Letta messages")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each command (median)")
    args = parser.parse_args()
    command = [sys.executable, "-m", "chatschema"]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "letta.jsonl"
        write(path, args.count)
        convert, validate = [], []
        for _ in range(args.repeats):  # in turn, so that a change of the machine's speed hits both
            convert.append(timed([*command, "convert", "--from", "letta", str(path), "-o", "/dev/null"]))
            validate.append(timed([*command, "validate", "--schema", "letta/LettaMessage", "--quiet", str(path)]))
    c, v = statistics.median(convert), statistics.median(validate)
    print(f"{args.count:,} Letta messages, median of {args.repeats}:")
    print(f"  chatschema convert --from letta   {c:7.2f} s  {args.count / c:9,.0f} msg/s")
    print(f"  chatschema validate (reference)   {v:7.2f} s  {args.count / v:9,.0f} msg/s")
    print(f"  convert / validate throughput     {v / c:7.2f}")


if __name__ == "__main__":
    main()
