"""Letta stream reassembly: SSE bodies and frames -> complete messages, with an account of every frame.

The language-neutral stream examples under schemas/letta/examples/streams/ are run here and by the npm
package's reassembly (tests/node/streams.cjs), with identical results required.
"""

from __future__ import annotations

import json
import random
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from chatschema import schemas
from chatschema.letta import ToolCallMessage, parse_letta_streaming_response
from chatschema.letta.sse import SseParser, iter_sse_events
from chatschema.letta.stream import StreamError, reassemble, reassemble_sse
from codegen.verify_tree import stream_summary
from tests.node import HERE, PACKAGE, node_stream_results, run_node

STREAMS = Path(__file__).parent.parent / "schemas" / "letta" / "examples" / "streams"
VECTORS = sorted(STREAMS.glob("*.json"))
DATE = "2025-10-01T12:30:45+00:00"
RUN = "run-8a7b6c5d-4e3f-2a1b-0c9d-8e7f6a5b4c3d"


def load(path: Path) -> dict[str, Any]:
    vector: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return vector


def body(vector: dict[str, Any]) -> str:
    return "".join(vector["sse"])


def run_vector(vector: dict[str, Any], chunks: list[str] | None = None) -> dict[str, Any] | str:
    """The summary, or the StreamError's message."""
    try:
        return stream_summary(reassemble_sse(chunks if chunks is not None else body(vector), **vector["options"]))
    except StreamError as exc:
        return f"StreamError: {exc}"


def check_vector(vector: dict[str, Any], got: dict[str, Any] | str) -> None:
    if "raises" in vector:
        assert isinstance(got, str) and vector["raises"] in got, got
        assert "\n" not in got
    else:
        assert got == vector["expected"]


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_stream_vector(path: Path) -> None:
    vector = load(path)
    got = run_vector(vector)
    check_vector(vector, got)
    if isinstance(got, dict):
        for message in got["messages"]:
            schemas.validate(message, "letta/LettaMessage")
        assert len(got["frames"]) == len(list(iter_sse_events(body(vector))))  # every event accounted for


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_stream_vector_in_random_chunks(path: Path) -> None:
    """The same result whatever the chunking, bytes chunks cut inside UTF-8 sequences too."""
    vector = load(path)
    want = run_vector(vector)
    raw = body(vector).encode("utf-8")
    rng = random.Random(path.stem)
    for _ in range(5):
        cuts = sorted(rng.sample(range(1, len(raw)), min(len(raw) - 1, rng.randint(1, 40))))
        pieces = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
        try:
            got: dict[str, Any] | str = stream_summary(reassemble_sse(pieces, **vector["options"]))
        except StreamError as exc:
            got = f"StreamError: {exc}"
        assert got == want


def test_node_reassembly_gives_identical_results() -> None:
    node = node_stream_results()
    assert sorted(node) == sorted(p.stem for p in VECTORS)
    for path in VECTORS:
        vector = load(path)
        got = node[path.stem]
        if "raises" in vector:
            assert isinstance(got, str) and vector["raises"] in got, (path.stem, got)
        else:
            assert got == vector["expected"], path.stem
            assert got == run_vector(vector)


# ---- the SSE reader -------------------------------------------------------------------------


def test_sse_reader_follows_the_whatwg_rules() -> None:
    text = "\ufeff: c\r\nevent: a\ndata\ndata:x\r\ndata:  y\rid: 1\nretry: 10\nretry: 1x\n\nid: 2\0\nevent: lost\n\ndata: z"
    events = list(iter_sse_events(text))
    assert [(e.type, e.data, e.last_event_id, e.retry, e.terminated) for e in events] == [
        ("a", "\nx\n y", "1", 10, True),
        ("message", "z", "1", 10, False),  # no blank line: unfinished (an id with NUL is ignored)
    ]
    assert events[0].line == 9


def test_sse_reader_keeps_a_crlf_split_across_chunks_as_one_line_end() -> None:
    parser = SseParser()
    assert parser.feed("data: a\r") == []
    assert parser.feed("\n") == []  # the LF completes the CRLF: no blank line yet
    (event,) = parser.feed("\r\n")
    assert event.data == "a" and parser.close() is None


def test_sse_reader_rejects_bytes_that_are_not_utf8() -> None:
    with pytest.raises(StreamError, match="not UTF-8"):
        reassemble_sse([b"data: \xff\n\n"])


# Pieces of SSE lines, for bodies no example writes: every field name (and near misses), values
# with digits, spaces, NUL and BOMs, and every line ending.
SSE_PIECES = ["data", "event", "id", "retry", "retryx", "Data", "foo", ":", ": ", " ", "12", "1x", "x", "\0",
              "\ufeff", "\r", "\n", "\r\n", "\n\n", "{}", "é", "data: x\n", "event: a\n", "id: 7\n", "retry: 12\n",
              "retry: 30\n", "retry:1x\n", "foo: 34\n", "retry\n"]  # fmt: skip


def _sse_body(rng: random.Random) -> list[str | bytes]:
    """A random body in chunks: a BOM first or not; cut anywhere, between a CR and its LF often;
    some chunks bytes (those cut inside a UTF-8 character always)."""
    text = ("\ufeff" if rng.random() < 0.3 else "") + "".join(rng.choice(SSE_PIECES) for _ in range(rng.randint(0, 40)))
    data = text.encode()
    cuts = {rng.randrange(len(data) + 1) for _ in range(rng.randint(0, 6))}
    cuts |= {i + 1 for i, byte in enumerate(data) if byte == 13 and rng.random() < 0.5}  # after a CR
    chunks: list[str | bytes] = []
    for a, b in pairwise(sorted({0, len(data), *cuts})):
        piece = data[a:b]
        try:
            chunks.append(piece if rng.random() < 0.3 else piece.decode())
        except UnicodeDecodeError:  # cut inside a character: only bytes can hold it
            chunks.append(piece)
    return chunks


def _python_events(body: list[str | bytes]) -> list[Any]:
    events: list[Any] = []
    try:
        events.extend(list(event) for event in iter_sse_events(body))
    except UnicodeDecodeError:
        events.append("not UTF-8")
    return events


def test_node_s_sse_reader_gives_python_s_events_on_random_bodies() -> None:
    rng = random.Random(7)
    # and bytes that end inside a character, then text (refused there), nothing, or the rest
    broken: list[list[str | bytes]] = [[b"data: x\n\n\xc3", "data: y\n\n"], [b"data: x\n\ndata: \xc3", "", b"\xa9\n\n"]]
    bodies = [_sse_body(rng) for _ in range(500)] + broken
    wire = [[c if isinstance(c, str) else {"bytes": list(c)} for c in body] for body in bodies]
    node = run_node(HERE / "sse_events.cjs", {"package": str(PACKAGE), "bodies": wire})
    for body, got in zip(bodies, node, strict=True):
        assert got == _python_events(body), body
    assert [events[-1] for events in node[-2:]] == ["not UTF-8", ["message", "é", "", None, 4, True]]
    # the pieces make what the rules tell apart
    events = [event for body in bodies[: -len(broken)] for event in iter_sse_events(body)]
    assert {e.retry for e in events} >= {None, 12, 30} and any(e.last_event_id for e in events)
    assert any(not e.terminated for e in events) and any(e.type != "message" for e in events)


# ---- frames given as dicts or models ----------------------------------------------------------


def frame(message_type: str, otid: str, seq: int | None, **fields: Any) -> dict[str, Any]:
    return {"id": "message-" + otid.split("-")[0], "date": DATE, "message_type": message_type, "otid": otid,
            "seq_id": seq, "run_id": RUN, **fields}  # fmt: skip


def delta(otid: str, seq: int | None, **parts: Any) -> dict[str, Any]:
    return frame("tool_call_message", otid, seq, tool_call=parts, tool_calls=parts)


STOP = {"message_type": "stop_reason", "stop_reason": "end_turn"}


DONE = "data: [DONE]\n\n"


def _node_and_python(bodies: dict[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each named SSE body reassembled (`complete`) by the npm package and by Python: summary or error."""
    vectors: list[dict[str, Any]] = [
        {"name": n, "sse": [sse], "options": {"complete": True}} for n, sse in bodies.items()
    ]
    node: dict[str, Any] = run_node(HERE / "streams.cjs", {"package": str(PACKAGE), "vectors": vectors})
    return node, {v["name"]: run_vector(v) for v in vectors}


def test_node_names_what_a_complete_stream_lacks_at_its_end_as_python_does() -> None:
    say = _sse([frame("assistant_message", "a-0", None, content="Hi")])
    node, python = _node_and_python({"neither": say, "no stop_reason": say + DONE, "no [DONE]": say + _sse([STOP])})
    assert node == python
    assert python == {
        name: f"StreamError: stream truncated: it ends without {what} (or an error or a cancellation)"
        for name, what in [
            ("neither", "a stop_reason and `data: [DONE]`"),
            ("no stop_reason", "a stop_reason before its `data: [DONE]`"),
            ("no [DONE]", "`data: [DONE]` after its stop_reason"),
        ]
    }


def test_node_merges_text_pieces_around_a_null_one_as_python_does() -> None:
    pieces = [
        frame("hidden_reasoning_message", "h-0", None, state="redacted", hidden_reasoning=r) for r in ("a", None, "b")
    ]
    node, python = _node_and_python({"a null piece": _sse([*pieces, STOP]) + DONE})
    assert node == python
    assert python["a null piece"]["messages"][0]["hidden_reasoning"] == "ab"


def test_node_validates_a_fragment_whose_changing_keys_are_not_plain_strings_as_python_does() -> None:
    """A fragment that repeats a valid one's other keys skips validation only if its changing keys are
    plain strings: a number, an extra key, a list or null is validated, in both languages alike."""
    call = {"name": "f", "arguments": "{", "tool_call_id": "c"}
    seconds = {
        "plain": {"arguments": "}"},
        "a number": {"arguments": 5},
        "an extra key": {"arguments": "}", "x": "y"},
        "empty": {},
        "a list": [{"arguments": "}"}],
        "null": None,
    }
    node, python = _node_and_python(
        {
            name: _sse([*(frame("tool_call_message", "c-0", None, tool_call=t) for t in (call, second)), STOP]) + DONE
            for name, second in seconds.items()
        }
    )
    refused = "StreamError: event 1 (line 4): not a valid letta/LettaStreamingResponse at $.tool_call"
    for name, outcome in python.items():
        if isinstance(outcome, dict):
            assert node[name] == outcome, name
        else:  # ajv and pydantic word the reason their own ways
            assert outcome.startswith(refused) and node[name].startswith(refused), name
    refused_ones = {name for name, outcome in python.items() if isinstance(outcome, str)}
    assert refused_ones == {"a number", "empty", "a list", "null"}


SEQ_TYPES = """
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const { reassembleSse } = require(input.package + "/stream.js");
  const out = input.bodies.map((body) => {
    const last = reassembleSse(body).lastSeqId;
    return [typeof last, String(last)];
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def test_node_gives_a_seq_id_as_a_number_while_that_is_exact_else_as_a_bigint(tmp_path: Path) -> None:
    script = tmp_path / "seq_types.cjs"
    script.write_text(SEQ_TYPES)
    edges = [-(2**53), -(2**53) + 1, 2**53 - 1, 2**53]
    say = [frame("assistant_message", "a-0", seq, content="Hi") for seq in edges]  # one frame each
    bodies = [_sse([s, STOP]) + DONE for s in say]
    node = run_node(script, {"package": str(PACKAGE), "bodies": bodies})
    assert node == [
        ["bigint", str(-(2**53))],
        ["number", str(-(2**53) + 1)],
        ["number", str(2**53 - 1)],
        ["bigint", str(2**53)],
    ]
    assert [reassemble_sse(body).last_seq_id for body in bodies] == edges


def test_models_are_accepted_as_frames() -> None:
    frames = [
        delta("t-1", None, name="f", tool_call_id="c"),
        delta("t-1", None, arguments="{}", tool_call_id="c"),
        STOP,
    ]
    result = reassemble([parse_letta_streaming_response(f) for f in frames])
    assert isinstance(result.messages[0], ToolCallMessage)
    assert result.messages[0].model_dump(mode="json")["tool_calls"] == [
        {"name": "f", "arguments": "{}", "tool_call_id": "c"}
    ]
    assert reassemble(frames).messages == result.messages


def test_a_frame_that_is_not_valid_names_its_location() -> None:
    bad = frame("assistant_message", "a-1", None, content=3)
    with pytest.raises(StreamError, match=r"^frame 0: not a valid letta/LettaStreamingResponse at \$\.content"):
        reassemble([bad, STOP])


def test_a_truncated_stream_is_an_error_unless_allowed() -> None:
    frames = [delta("t-1", None, name="f", tool_call_id="c"), delta("t-1", None, arguments='{"a', tool_call_id="c")]
    with pytest.raises(StreamError, match="stream truncated"):
        reassemble(frames)
    result = reassemble(frames, complete=False)
    assert result.messages == [] and [a.reason for a in result.dropped] == ["incomplete_message"] * 2


def test_a_renamed_call_or_an_orphan_fragment_is_an_error() -> None:
    with pytest.raises(StreamError, match="a fragment without tool_call_id before any call started"):
        reassemble([delta("t-1", None, arguments="{}")], complete=False)
    renamed = [delta("t-1", None, name="a", tool_call_id="c"), delta("t-1", None, name="b", tool_call_id="c")]
    with pytest.raises(StreamError, match="call c renamed from 'a' to 'b'"):
        reassemble(renamed, complete=False)


def test_interleaved_messages_with_seq_ids_are_an_error() -> None:
    frames = [frame("assistant_message", "a-1", 1, content="x"), frame("reasoning_message", "r-2", 2, reasoning="y"),
              frame("assistant_message", "a-1", 3, content="z"), STOP]  # fmt: skip
    with pytest.raises(StreamError, match=r"frame 2: belongs to otid a-1, which another message interrupted"):
        reassemble(frames)


# ---- property: random valid streams, retried, reordered and chunked, give the original messages ----


def _random_messages(rng: random.Random) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(the complete message, its frames) pairs, as Letta streams them."""
    out = []
    for n in range(rng.randint(1, 6)):
        otid, kind = (
            f"m{n}-{rng.randint(0, 99)}",
            rng.choice(["assistant_message", "reasoning_message", "tool_call_message"]),
        )
        if kind == "tool_call_message":
            calls = [{"name": f"tool_{c}", "arguments": json.dumps({"q": "x\u2028" * rng.randint(0, 3), "n": c}),
                      "tool_call_id": f"call_{n}_{c}"} for c in range(rng.randint(1, 3))]  # fmt: skip
            frames = []
            for call in calls:
                frames.append(delta(otid, None, name=call["name"], tool_call_id=call["tool_call_id"]))
                args, cut = call["arguments"], 0
                while cut < len(args):
                    step = rng.randint(1, 6)
                    part = {"arguments": args[cut : cut + step]}
                    if rng.random() < 0.7:
                        part["tool_call_id"] = call["tool_call_id"]
                    frames.append(delta(otid, None, **part))
                    cut += step
            out.append((frame(kind, otid, None, tool_call=calls[0], tool_calls=calls), frames))
        else:
            name = "content" if kind == "assistant_message" else "reasoning"
            text = "".join(
                rng.choice(["a", "é", " ", "\u2029", "\r", "\n", '"', "\u0085"]) for _ in range(rng.randint(1, 30))
            )
            cuts = sorted({0, len(text), *rng.sample(range(len(text) + 1), min(3, len(text)))})
            frames = [frame(kind, otid, None, **{name: text[a:b]}) for a, b in pairwise(cuts)]
            out.append((frame(kind, otid, None, **{name: text}), frames))
    return out


def _sse(frames: list[dict[str, Any]]) -> str:
    return "".join(f"data: {json.dumps(f, ensure_ascii=False, separators=(',', ':'))}\n\n" for f in frames)


@pytest.mark.parametrize("seed", range(60))
def test_property_retried_reordered_chunked_streams_give_the_original_messages(seed: int) -> None:
    rng = random.Random(seed)
    pairs = _random_messages(rng)
    frames = [f for _, parts in pairs for f in parts]
    numbered = rng.random() < 0.5
    if numbered:
        frames = [{**f, "seq_id": i + 1} for i, f in enumerate(frames)]
        arrival = list(frames)
        for _ in range(rng.randint(0, 3)):  # resumes from an older cursor replay a range
            a = rng.randrange(len(frames))
            arrival += frames[a : a + rng.randint(1, 5)]
        rng.shuffle(arrival)  # seq_ids give the order back
    else:
        # a retried request replays the response from its start; an attempt dies after the first message
        cuts = [i for i in range(1, len(frames)) if frames[i - 1]["otid"] != frames[0]["otid"]]
        arrival = [f for k in sorted(rng.sample(cuts, min(len(cuts), rng.randint(0, 2)))) for f in frames[:k]]
        arrival += frames
    text = _sse([*arrival, STOP]) + "data: [DONE]\n\n"
    raw = text.encode("utf-8")
    cuts = sorted(rng.sample(range(1, len(raw)), min(len(raw) - 1, rng.randint(0, 30))))
    chunks = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    result = reassemble_sse(chunks, strict=True)
    got = [m.model_dump(mode="json", exclude_unset=True) for m in result.messages]
    want = []
    for message, _parts in pairs:
        last_seq = None
        if numbered:
            last_seq = max(f["seq_id"] for f in frames if f["otid"] == message["otid"])
        want.append({**message, "seq_id": last_seq})
    assert got == want
    assert len(result.frames) == len(arrival) + 2 and not result.dropped


def test_fragments_after_a_valid_one_are_still_checked() -> None:
    """The shortcut for fragments (one full validation per message skeleton) lets nothing invalid through."""
    first = frame("assistant_message", "a-1", None, content="ok ")
    for bad in (
        {**first, "content": 3},  # the changing key, not a string
        {**first, "is_err": "yes"},  # a repeated key with another (invalid) value
        {**first, "is_err": 1},  # equal to true in Python, but not a boolean
    ):
        with pytest.raises(StreamError, match=r"^frame 1: not a valid letta/LettaStreamingResponse"):
            reassemble([{**first, "is_err": True}, bad, STOP])
    call = delta("t-1", None, name="f", tool_call_id="c")
    with pytest.raises(StreamError, match=r"^frame 1: not a valid letta/LettaStreamingResponse at \$\.tool_call"):
        reassemble([call, delta("t-1", None, arguments=5, tool_call_id="c"), STOP])


def test_the_npm_stream_types_compile(tmp_path: Path) -> None:
    """stream.d.ts types the JS API: a use of it compiles under --strict, and a wrong use does not."""
    from tests.node import tsc

    stream = (PACKAGE / "stream").as_posix()
    (tmp_path / "use.ts").write_text(
        f'import {{ reassembleSse, StreamError, type LettaStream, type FrameAccount }} from "{stream}";\n'
        "const r: LettaStream = reassembleSse(['data: [DONE]\\n\\n'], { complete: false, strict: true });\n"
        "const a: FrameAccount | undefined = r.frames[0];\n"
        "export const out = [r.messages.length, r.stopReason?.stop_reason, r.lastSeqId, a?.reason, r.dropped, r.errors];\n"
        "export const e: Error = new StreamError();\n"
        '// @ts-expect-error: not an outcome\nexport const wrong: FrameAccount = { index: 0, outcome: "lost" };\n',
        encoding="utf-8",
    )
    proc = tsc("--strict", "--noEmit", "--target", "es2022", "--module", "commonjs", "use.ts", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_node_reassembles_a_stream_of_150_000_numbered_frames() -> None:
    """The npm reader once overflowed its stack at about 130,000 frames (Math.max over every seq_id)."""
    from tests.node import HERE, run_node

    assert run_node(HERE / "many_frames.cjs", {"package": str(PACKAGE), "frames": 150_000}) == {
        "messages": 150_000,
        "last_seq_id": 150_000,
    }


def test_fragments_with_a_deep_unknown_key_reassemble() -> None:
    """Two fragments of one message, each with an unknown key nested 1,000 levels (under the 1,024
    limit): comparing their skeletons once raised RecursionError."""
    deep = "[" * 1000 + "1" + "]" * 1000
    head = f'"id":"message-1","date":"{DATE}","message_type":"assistant_message","otid":"m-0","extra":{deep}'
    body = "".join(f'data: {{{head},"content":"{piece}"}}\n\n' for piece in ("Hel", "lo")) + (
        'data: {"message_type":"stop_reason","stop_reason":"end_turn"}\n\ndata: [DONE]\n\n'
    )
    result = reassemble_sse(body)
    assert [m.content for m in result.messages] == ["Hello"]  # type: ignore[union-attr]
