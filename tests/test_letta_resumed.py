"""One Letta run read over several connections (`reassemble_resumed`, npm `reassembleResumed`), and
`seq_id` gaps reported instead of raised (`gaps="report"`).

The language-neutral examples under schemas/letta/examples/streams/resumed/ are run here in Python
and by the npm package in Node, which must agree.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from chatschema import schemas
from chatschema.letta.sse import iter_sse_events
from chatschema.letta.stream import SeqGap, StreamError, reassemble, reassemble_resumed, reassemble_sse
from codegen.verify_tree import stream_summary
from tests.node import HERE, PACKAGE, node_env, run_node
from tests.test_letta_stream import DATE, RUN, STREAMS, load
from tests.test_letta_stream_accounting import _ping

VECTORS = sorted((STREAMS / "resumed").glob("*.json"))


def summary(bodies: list[Any], options: dict[str, Any]) -> dict[str, Any] | str:
    """The vectors' summary with the gaps, or the StreamError's message."""
    try:
        result = reassemble_resumed(bodies, **options)
    except StreamError as exc:
        return f"StreamError: {exc}"
    gaps = [[g.first, g.last, g.message_before, g.message_after] for g in result.gaps]
    return {**stream_summary(result), "gaps": gaps}


def check(vector: dict[str, Any], got: dict[str, Any] | str) -> None:
    if "raises" in vector:
        assert isinstance(got, str) and vector["raises"] in got, got
        assert "\n" not in got
    else:
        assert got == vector["expected"]


def test_there_are_examples_of_each_case() -> None:
    assert len(VECTORS) >= 8
    outcomes = {tuple(a) for v in map(load, VECTORS) if "expected" in v for a in v["expected"]["frames"]}
    assert {("cut",), ("replay", 1), ("dropped", "incomplete_message")} <= outcomes
    assert any(load(p).get("expected", {}).get("gaps") for p in VECTORS)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_resumed_vector(path: Path) -> None:
    vector = load(path)
    got = summary(["".join(c) for c in vector["connections"]], vector["options"])
    check(vector, got)
    if isinstance(got, dict):
        for message in got["messages"]:
            schemas.validate(message, "letta/LettaMessage")


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_resumed_vector_in_random_chunks(path: Path) -> None:
    """The same result whatever the chunking of each connection, bytes cut inside characters too."""
    vector = load(path)
    want = summary(["".join(c) for c in vector["connections"]], vector["options"])
    rng = random.Random(path.stem)
    for _ in range(5):
        bodies = []
        for connection in vector["connections"]:
            raw = "".join(connection).encode("utf-8")
            cuts = sorted(rng.sample(range(1, len(raw)), min(len(raw) - 1, rng.randint(1, 20))))
            bodies.append([raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)])
        assert summary(bodies, vector["options"]) == want


def test_node_gives_identical_results() -> None:
    inputs = [
        {"name": p.stem, "connections": ["".join(c) for c in load(p)["connections"]], "options": load(p)["options"]}
        for p in VECTORS
    ]
    node = run_node(HERE / "resumed.cjs", {"package": str(PACKAGE), "vectors": inputs})
    for path in VECTORS:
        vector = load(path)
        check(vector, node[path.stem])
        if "expected" in vector:
            assert node[path.stem] == summary(["".join(c) for c in vector["connections"]], vector["options"])


# ---- random runs over random connections -------------------------------------------------------


def _frames(rng: random.Random) -> list[dict[str, Any]]:
    """A numbered run: texts in pieces and tool calls in fragments, then its stop reason."""
    frames: list[dict[str, Any]] = []
    for n in range(rng.randint(1, 5)):
        base = {"id": f"message-{n}", "date": DATE, "otid": f"o-{n}", "run_id": RUN}
        if rng.random() < 0.5:
            for piece in range(rng.randint(1, 4)):
                frames.append({**base, "message_type": "assistant_message", "content": f"{n}.{piece} "})
        else:
            call = f"call-{n}"
            frames.append(
                {**base, "message_type": "tool_call_message", "tool_call": {"name": "f", "tool_call_id": call}}
            )
            for arguments in ('{"a": ', f"{n}", "}"):
                delta = {"arguments": arguments, "tool_call_id": call}
                frames.append({**base, "message_type": "tool_call_message", "tool_call": delta})
    frames.append({"message_type": "stop_reason", "stop_reason": "end_turn", "run_id": RUN})
    for seq, frame in enumerate(frames, start=1):
        frame["seq_id"] = seq
    return frames


def _event(frame: dict[str, Any]) -> str:
    return f"data: {json.dumps(frame)}\n\n"


def _connections(rng: random.Random, frames: list[dict[str, Any]], skip: int) -> list[str]:
    """The run over random connections, each cut at a random place (inside an event too) and resumed
    `starting_after` a cursor up to the last seq_id received (plus `skip`: frames lost)."""
    bodies: list[str] = []
    received = 0  # the highest seq_id received so far
    while received < len(frames):
        cursor = max(0, received - rng.randint(0, 3)) if bodies else 0
        if bodies and skip:
            cursor, skip = received + skip, 0
        sent = frames[cursor:]
        if not sent:
            break
        count = rng.randint(1, len(sent))
        body = "".join(_event(f) for f in sent[:count])
        if count < len(sent) and rng.random() < 0.5:
            body += _event(sent[count])[: rng.randint(1, 30)]  # cut inside the next event
        received = sent[count - 1]["seq_id"]
        bodies.append(body)
    bodies[-1] += "data: [DONE]\n\n"
    return bodies


@pytest.mark.parametrize("seed", range(40))
def test_a_run_over_random_connections_gives_the_run_read_at_once(seed: int) -> None:
    rng = random.Random(seed)
    frames = _frames(rng)
    whole = reassemble_sse("".join(map(_event, frames)) + "data: [DONE]\n\n")
    bodies = _connections(rng, frames, skip=0)
    result = reassemble_resumed(bodies, strict=True)
    assert result.messages == whole.messages and result.gaps == [] and result.last_seq_id == len(frames)
    assert len(result.frames) == sum(len(list(iter_sse_events(body))) for body in bodies)  # every event accounted


@pytest.mark.parametrize("seed", range(20))
def test_frames_no_connection_brought_are_reported_exactly(seed: int) -> None:
    rng = random.Random(seed)
    frames = _frames(rng)
    while len(frames) < 6:
        frames = _frames(rng)
    skip = rng.randint(1, 2)
    bodies = [
        "".join(map(_event, frames[:2])),
        "".join(map(_event, frames[2 + skip :])) + "data: [DONE]\n\n",
    ]
    result = reassemble_resumed(bodies)
    assert [(g.first, g.last) for g in result.gaps] == [(3, 2 + skip)]
    assert result.frames[-1].outcome == "done"
    with pytest.raises(StreamError, match=r"^strict: 1 gap\(s\) in seq_id; first: missing 3"):
        reassemble_resumed(bodies, strict=True)


# ---- gaps="report" in the other readers --------------------------------------------------------


def _say(seq: int, text: str, otid: str) -> dict[str, Any]:
    return {
        "message_type": "assistant_message",
        "id": f"message-{otid}",
        "date": DATE,
        "content": text,
        "otid": otid,
        "seq_id": seq,
    }


STOP = {"message_type": "stop_reason", "stop_reason": "end_turn"}


def test_a_gap_raises_by_default_and_is_reported_on_request() -> None:
    frames = [_say(1, "a", "x"), _say(2, "b", "x"), _say(5, "c", "y"), STOP]
    with pytest.raises(StreamError, match=r"gap in seq_id: 2 is followed by 5 \(missing 3\.\.4\)"):
        reassemble(frames)
    result = reassemble(frames, gaps="report")
    assert result.gaps == [SeqGap(3, 4, 0, 1)]
    assert [m.content for m in result.messages] == ["ab", "c"]  # type: ignore[union-attr]
    sse = reassemble_sse("".join(map(_event, frames)) + "data: [DONE]\n\n", gaps="report")
    assert sse.gaps == result.gaps and sse.messages == result.messages
    with pytest.raises(ValueError, match="gaps is 'error' or 'report', not 'ignore'"):
        reassemble(frames, gaps="ignore")  # type: ignore[arg-type]


def test_node_reports_gaps_on_request_and_refuses_other_values() -> None:
    frames = [_say(1, "a", "x"), _say(2, "b", "x"), _say(5, "c", "y"), STOP]
    script = rf"""
    const stream = require({json.dumps(str(PACKAGE / "stream.js"))});
    const frames = {json.dumps(frames)};
    const out = {{ gaps: stream.reassemble(frames, {{ gaps: "report" }}).gaps }};
    try {{ stream.reassemble(frames); }} catch (err) {{ out.error = err.message; }}
    try {{ stream.reassemble(frames, {{ gaps: "ignore" }}); }} catch (err) {{ out.wrong = `${{err.name}}: ${{err.message}}`; }}
    try {{ stream.reassembleResumed("data: x"); }} catch (err) {{ out.one = `${{err.name}}: ${{err.message}}`; }}
    const body = frames.map((f) => `data: ${{JSON.stringify(f)}}\n\n`).join("") + "data: [DONE]\n\n";
    (async () => {{
      for await (const event of stream.reassembleSseStream([body], {{ gaps: "report" }})) {{
        if (event.type === "end") out.streamed = event.result.gaps;
      }}
      process.stdout.write(JSON.stringify(out));
    }})();
    """
    proc = subprocess.run(["node", "-e", script], capture_output=True, text=True, env=node_env(), check=True)
    out = json.loads(proc.stdout)
    assert out["gaps"] == [{"first": 3, "last": 4, "messageBefore": 0, "messageAfter": 1}]
    assert out["error"] == "gap in seq_id: 2 is followed by 5 (missing 3..4)"
    assert out["wrong"] == 'TypeError: gaps is "error" or "report", not "ignore"'
    assert out["one"] == "TypeError: reassembleResumed takes an iterable of SSE bodies (one per connection), not string"
    assert out["streamed"] == out["gaps"]  # the stream reader as it arrives takes the same option


GAP_PLACES = {
    "between two messages": [_say(1, "a", "x"), _say(3, "b", "y"), STOP],
    "before the first message frame": [_ping(1), _say(3, "a", "x"), STOP],
    "after the last message frame": [_say(1, "a", "x"), _ping(5), STOP],
    "only pings around it": [_ping(1), _ping(4), STOP],
}


def test_node_locates_each_gap_between_the_same_messages_as_python() -> None:
    """Where a gap has no message frame on one side (a ping below or above it), that side is null."""
    python = {
        name: [[g.first, g.last, g.message_before, g.message_after] for g in reassemble(frames, gaps="report").gaps]
        for name, frames in GAP_PLACES.items()
    }
    assert python["before the first message frame"] == [[2, 2, None, 0]]
    assert python["only pings around it"] == [[2, 3, None, None]]
    script = rf"""
    const stream = require({json.dumps(str(PACKAGE / "stream.js"))});
    const out = {{}};
    for (const [name, frames] of Object.entries({json.dumps(GAP_PLACES)})) {{
      out[name] = stream.reassemble(frames, {{ gaps: "report" }}).gaps.map((g) => [g.first, g.last, g.messageBefore, g.messageAfter]);
    }}
    process.stdout.write(JSON.stringify(out));
    """
    proc = subprocess.run(["node", "-e", script], capture_output=True, text=True, env=node_env(), check=True)
    assert json.loads(proc.stdout) == python


def test_hostile_connections_are_one_line_errors() -> None:
    """No connection at all, a body that is not UTF-8, a frame nested too deep, a run_id that is
    code-like text: each a StreamError of one line, or plain data."""
    with pytest.raises(StreamError, match=r"^stream truncated"):
        reassemble_resumed([])
    with pytest.raises(StreamError, match=r"^event 0: the body is not UTF-8"):
        reassemble_resumed([b"data: \xff\n\n"])
    deep = "data: " + "[" * 1100 + "]" * 1100 + "\n\n"
    with pytest.raises(StreamError, match=r"^event 0 .*not JSON: nesting too deep"):
        reassemble_resumed(["data: {}"[:3], deep])
    code = "'; DROP TABLE runs; --"
    frame = {**_say(1, "hi", "x"), "run_id": code}
    body = _event(frame) + _event({**STOP, "run_id": code}) + "data: [DONE]\n\n"
    assert reassemble_resumed([body]).messages[0].run_id == code
