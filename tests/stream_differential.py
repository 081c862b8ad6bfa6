"""The Python and the JavaScript Letta stream readers, fed the same bytes in the same pieces.

Every stream example is varied (CRLF or CR line ends, frames over two `data:` lines, seq_ids past
2**53, 2**63 and 2**64, also spaced out, repeated, after nested values, in e-notation or as `1.0`,
seq_ids written `1.0` and `1e0`, an extra key nested 1,000 levels in every frame, dates in lower
case) and cut at random places, inside UTF-8 characters and between a CR and its LF, with empty
pieces between; one more stream has 200,000 numbered frames. Each side's outcome is its summary in
the examples' terms or its StreamError's message; they must be equal, and equal to the outcome of
the whole body read at once (which finds a flaw both readers share). Two representations differ
and are compared as such: a number past 2**53 inside a message is a double in JavaScript (its
`lastSeqId` is exact, a BigInt), a message's `date` is a datetime in Python (dumped as
`2025-10-01T12:30:45Z` whatever case it came in) and the JSON text in JavaScript, and the JSON
parsers word their reasons in their own ways.
"""

from __future__ import annotations

import base64
import itertools
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from codegen.verify_tree import stream_summary
from tests.node import HERE, PACKAGE, STREAM_VECTORS, run_node

SEQ = re.compile(r'("seq_id":\s*)(-?[0-9]+)(?![0-9.eE])')
DEEP = 1000  # levels of the extra key: under the 1,024 limit with the frame around it
EXACT = 2**53


@dataclass(frozen=True)
class Case:
    name: str
    pieces: list[bytes]
    options: dict[str, Any] = field(default_factory=dict)


def _shift(body: str, by: int) -> str:
    return SEQ.sub(lambda m: f"{m[1]}{int(m[2]) + by}", body)


def _deep_extra(body: str) -> str:
    return body.replace("data: {", 'data: {"x_deep":' + "[" * DEEP + "]" * DEEP + ",")


def _two_data_lines(body: str) -> str:
    """Each frame's JSON over two `data:` lines (joined again by a newline, whitespace between tokens)."""
    return re.sub(r'^(data: \{[^\n]*?),"', r'\1,\ndata: "', body, flags=re.MULTILINE)


VARIANTS: dict[str, Callable[[str], str]] = {
    "as is": lambda b: b,
    "crlf": lambda b: b.replace("\n", "\r\n"),
    "cr": lambda b: b.replace("\n", "\r"),
    "two data lines, crlf": lambda b: _two_data_lines(b).replace("\n", "\r\n"),
    "seq past 2**53": lambda b: _shift(b, EXACT),
    "seq past 2**63": lambda b: _shift(b, 2**63),
    "seq past 2**64": lambda b: _shift(b, 2**64),
    "seq past 2**53 as 1.0": lambda b: SEQ.sub(lambda m: f"{m[1]}{int(m[2]) + EXACT}.0", b),
    "seq past 2**53, spaced and repeated": lambda b: SEQ.sub(
        lambda m: f'{m[1]}{" " * 60}0,"seq_id":{" " * 60}{int(m[2]) + EXACT}', b
    ),
    "seq past 2**53 as 1e0, spaced": lambda b: SEQ.sub(lambda m: f"{m[1]}{' ' * 50}{int(m[2]) + EXACT}e0", b),
    # the exact digits are found past nested values and a string holding brackets and an escaped quote
    "seq past 2**53 after nested values": lambda b: SEQ.sub(
        lambda m: f'"x_before":{{"a":[1,{{}},"}}]\\"{{"]}},{m[1]}{int(m[2]) + EXACT}', b
    ),
    "seq as 1.0": lambda b: SEQ.sub(lambda m: f"{m[1]}{m[2]}.0", b),
    "seq as 1e0": lambda b: SEQ.sub(lambda m: f"{m[1]}{m[2]}e0", b),
    "deep extra": _deep_extra,
    "lower-case date": lambda b: re.sub(r'("date":\s*"[0-9-]+)T([0-9:.]+)(Z|\+00:00)?"', r'\1t\2z"', b),
}


def examples() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(name, SSE body, options) of every Letta stream example."""
    for path in sorted(STREAM_VECTORS.glob("*.json")):
        example = json.loads(path.read_text(encoding="utf-8"))
        yield path.stem, "".join(example["sse"]), example["options"]


def split(rng: random.Random, raw: bytes) -> list[bytes]:
    """`raw` cut at random places (inside UTF-8 characters too), always between some CR and its LF
    when it has one, with empty pieces here and there."""
    cuts = set(rng.sample(range(1, len(raw)), min(len(raw) - 1, rng.randint(0, 40)))) if len(raw) > 1 else set()
    crlf = [m.start() + 1 for m in re.finditer(b"\r\n", raw)]
    if crlf:
        cuts.add(rng.choice(crlf))
    bounds = [0, *sorted(cuts), len(raw)]
    pieces: list[bytes] = []
    for start, end in itertools.pairwise(bounds):
        pieces.append(raw[start:end])
        if rng.random() < 0.2:
            pieces.append(b"")
    return pieces


def cases(rng: random.Random, rounds: int) -> list[Case]:
    """Every example under every variant, each cut `rounds` ways."""
    found = []
    for name, body, options in examples():
        for variant, vary in VARIANTS.items():
            raw = vary(body).encode("utf-8")
            found += [Case(f"{name} / {variant} / cut {i}", split(rng, raw), options) for i in range(rounds)]
    return found


def long_stream(frames: int) -> Case:
    """One assistant message in `frames` numbered fragments past 2**53, then its stop reason."""
    head = '{"id":"m1","message_type":"assistant_message","date":"2025-10-01T12:30:45+00:00","otid":"o1"'
    lines = [f'data: {head},"content":"{i % 10}","seq_id":{EXACT + i}}}\n\n' for i in range(frames)]
    lines.append(f'data: {{"message_type":"stop_reason","stop_reason":"end_turn","seq_id":{EXACT + frames}}}\n\n')
    lines.append("data: [DONE]\n\n")
    return Case(f"{frames} frames", ["".join(lines).encode("utf-8")])


def python_outcome(case: Case) -> Any:
    from chatschema.letta.stream import StreamError, reassemble_sse

    try:
        return stream_summary(reassemble_sse(case.pieces, **case.options))
    except StreamError as exc:
        return f"StreamError: {exc}"


def node_outcomes(found: list[Case]) -> list[Any]:
    payload = {
        "package": str(PACKAGE),
        "cases": [
            {"pieces": [base64.b64encode(p).decode("ascii") for p in c.pieces], "options": c.options} for c in found
        ],
    }
    result: list[Any] = run_node(HERE / "stream_diff.cjs", payload)
    return result


def _as_javascript_holds_it(value: Any) -> Any:
    """A message's numbers as JavaScript holds them: an integer past 2**53 as the nearest double."""
    if isinstance(value, dict):
        return {k: _instant(v) if k == "date" else _as_javascript_holds_it(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_javascript_holds_it(v) for v in value]
    if type(value) is int and abs(value) > EXACT:
        return float(value)
    if type(value) is float and value.is_integer():
        return int(value) if abs(value) <= EXACT else value
    return value


# Where the two JSON parsers (and the two validators, pydantic and ajv) word their reasons, and
# Python's repr quotes with ' where JSON uses ".
PARSER_WORDING = re.compile(
    r"(event data is not JSON|are not complete JSON after reassembly|not a valid letta/LettaStreamingResponse at \S+:).*",
    re.DOTALL,
)


def _instant(value: Any) -> Any:
    """A message's `date` as the instant it names: Python's models hold a datetime, which dumps in its
    own form (`T`, `+00:00`), where JavaScript keeps the JSON text it read (`t`, `z`)."""
    try:
        return datetime.fromisoformat(value.upper().replace("Z", "+00:00")) if isinstance(value, str) else value
    except ValueError:
        return value


def comparable(outcome: Any) -> Any:
    """An outcome with its messages' numbers as JavaScript holds them (`last_seq_id` stays exact), and
    an error's message up to the parser's own wording."""
    if isinstance(outcome, str):
        return PARSER_WORDING.sub(r"\1 ...", outcome).replace("'", '"')
    return {k: v if k in ("last_seq_id", "frames") else _as_javascript_holds_it(v) for k, v in outcome.items()}


@contextmanager
def _deep_values() -> Iterator[None]:
    """Reading, walking and comparing the outcomes of frames with an extra key 1,000 levels deep: the
    standard library's json and `==` recurse once per level."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20 * DEEP))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def disagreements(found: list[Case]) -> list[str]:
    """Each case where the two readers' outcomes differ, with both outcomes (cut short)."""
    out = []
    with _deep_values():
        node = node_outcomes(found)
        for case, theirs in zip(found, node, strict=True):
            ours = python_outcome(case)
            if comparable(ours) != comparable(theirs):
                out.append(f"{case.name}: Python {str(ours)[:300]} / JavaScript {str(theirs)[:300]}")
            whole = python_outcome(Case(case.name, [b"".join(case.pieces)], case.options))
            if len(case.pieces) > 1 and whole != ours:  # a flaw both readers share shows here
                out.append(f"{case.name}: in pieces {str(ours)[:300]} / whole {str(whole)[:300]}")
    return out
