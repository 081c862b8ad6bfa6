"""`reassembleSseStream` (npm): a Letta stream read as it arrives, from a ReadableStream, a Node
Readable or an async generator.

tests/node/stream_async.cjs feeds every stream example to it cut into one-byte chunks, at every
hostile place at once (inside UTF-8 characters, after each CR, inside `data:`) and at each such
place alone (each byte boundary alone in a body of up to tests.node.SMALL_STREAM bytes), the source
kinds in turn; and runs the cases of tests/node/stream_async_cases.cjs. The events must not depend on the cutting,
the last one must be what `reassembleSse` gives (which tests/test_letta_stream.py holds equal to
Python's), and the messages must come before the body ends. tests/test_browser.py reads the same
examples through `fetch` in Chromium.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.node import PACKAGE, node_stream_events, stream_inputs, tsc

KINDS = ["ReadableStream", "Node Readable", "async generator"]
ABORT = {"name": "AbortError", "DOMException": True, "message": "This operation was aborted"}


def applied(log: list[list[Any]]) -> list[Any]:
    """The messages a consumer holds after the events before `end`, applied as docs/streams.md says."""
    messages: list[Any] = []
    for event in log[:-1]:
        if event[0] == "message":
            assert event[1] == len(messages)
            messages.append(event[2])
        elif event[0] == "revised":
            messages[event[1]] = event[2]
        else:
            assert event[0] == "withdrawn"
            del messages[event[1] :]
    return messages


def test_the_events_do_not_depend_on_the_source_or_the_cutting() -> None:
    vectors = node_stream_events()["vectors"]
    assert sorted(vectors) == sorted(v["name"] for v in stream_inputs())
    for name, got in vectors.items():
        assert got["differ"] == [], name
        assert got["runs"] >= 3 * 2 + 1, name


def test_the_end_is_what_reassemble_sse_gives() -> None:
    for name, got in node_stream_events()["vectors"].items():
        *_, last = got["log"]
        if isinstance(got["sync"], str):
            assert last == ["error", got["sync"]], name
        else:
            assert last == ["end", got["sync"]], name
            assert applied(got["log"]) == got["sync"]["messages"], name


def test_messages_are_yielded_before_the_source_gives_its_last_chunk() -> None:
    """The body less its last two bytes, then those: the first message comes between the two."""
    vectors = node_stream_events()["vectors"]
    early = {name for name, got in vectors.items() if all(got["early"].values())}
    for name, got in vectors.items():
        assert len(set(got["early"].values())) == 1, name  # a ReadableStream and an async generator alike
        if name in early:
            assert any(event[0] == "message" for event in got["log"]), name
    assert {
        "background_parallel_calls",
        "background_resumed_and_reordered",
        "retry_replays_and_extends",
        "compaction_frames",
        "unicode_line_separators_in_json",
        "whatwg_line_endings_and_fields",
    } <= early
    assert len(early) >= 20


@pytest.mark.parametrize("kind", KINDS)
def test_an_abort_cancels_the_source_and_throws_its_reason(kind: str) -> None:
    abort = node_stream_events()["cases"]["abort"]
    after = abort[f"{kind}, after a message"]
    assert after["seen"] == ["message"] and after["error"] == ABORT and not after["locked"]
    waiting = abort[f"{kind}, while a read waits"]
    assert waiting["seen"] == ["message"] * 3 and waiting["error"] == ABORT and not waiting["locked"]
    if kind == "ReadableStream":
        assert after["trace"] == waiting["trace"] == ["cancelled: AbortError"]
    elif kind == "Node Readable":
        assert after["destroyed"] and waiting["destroyed"]
    else:
        assert after["trace"] == ["returned"]
        assert waiting["trace"] == []  # its `await` cannot be interrupted: it returns when that wait ends


def test_an_abort_throws_the_callers_reason_and_an_aborted_signal_reads_nothing() -> None:
    abort = node_stream_events()["cases"]["abort"]
    assert abort["a reason of the caller's"]["same_reason"]
    assert abort["a reason of the caller's"]["trace"] == ["cancelled: Error"]
    # nothing is read, and the source is cancelled all the same (a fetch body's connection released)
    assert abort["aborted before"] == {"error": ABORT, "trace": ["cancelled: AbortError"], "locked": False}


def test_leaving_the_loop_early_cancels_the_source() -> None:
    cases = node_stream_events()["cases"]["break"]
    readable = cases["ReadableStream"]["trace"]
    assert readable == ["chunk 0", "chunk 1", "chunk 2", "chunk 3", "message", "cancelled: undefined"]
    assert not cases["ReadableStream"]["locked"] and not cases["read to the end"]["locked"]
    assert cases["async generator"]["trace"][-2:] == ["message", "returned"]
    assert cases["Node Readable"]["trace"][-1] == "destroyed"


def test_a_wrong_input_is_a_type_error_that_says_what_is_accepted() -> None:
    inputs = node_stream_events()["cases"]["inputs"]
    accepted = (
        "TypeError: reassembleSseStream accepts a ReadableStream, an AsyncIterable (a Node Readable too),"
        " an Iterable, a string or a Uint8Array, of string or Uint8Array chunks; got "
    )
    assert inputs["number"] == accepted + "number"
    assert inputs["null"] == accepted + "null"
    assert inputs["object"] == accepted + "Object"
    assert inputs["response"] == accepted + "Response (its .body is a ReadableStream)"
    assert inputs["signal"] == "TypeError: reassembleSseStream: options.signal is an AbortSignal; got string"
    half = "TypeError: reassembleSseStream: options.signal is an AbortSignal; got Object"
    assert inputs["signal, half an AbortSignal"] == [half, half]
    assert inputs["an instance of a class"] == accepted + "Chunky"  # its class, not its tag ("Object")
    assert inputs["a number chunk"] == "TypeError: reassembleSseStream reads string or Uint8Array chunks; got number"
    assert inputs["a number chunk, the source"] == ["returned"]
    assert inputs["a locked stream"] == "TypeError"
    sync = "TypeError: reassembleSse accepts a string, a Uint8Array or an Iterable of string or Uint8Array chunks; got "
    assert inputs["sync, a ReadableStream"] == sync + "ReadableStream: reassembleSseStream reads it as it arrives"
    assert inputs["sync, an async generator"] == sync + "AsyncGenerator: reassembleSseStream reads it as it arrives"


def test_the_sync_reader_takes_what_the_async_one_takes_and_nothing_else() -> None:
    inputs = node_stream_events()["cases"]["inputs"]
    assert inputs["sync, bytes of another realm"] == inputs["sync, resumed, bytes of another realm"] == ["é"]
    chunks = "TypeError: an SSE body's chunks are strings or Uint8Arrays; got "
    assert inputs["sync, a number chunk"] == chunks + "number"
    assert inputs["sync, an undefined chunk"] == chunks + "undefined"
    assert inputs["sync, a Uint16Array chunk"] == chunks + "Uint16Array"
    # bytes that end inside a character, then text: not UTF-8, never the text moved before the character
    assert inputs["sync, text inside a character"] == "StreamError: event 0: the body is not UTF-8"
    assert inputs["sync, empty text inside a character"] == ["é"]
    # an empty text between changes nothing (it once let the text go first: "Xé")
    assert inputs["sync, empty text, then text inside a character"] == inputs["sync, text inside a character"]


def test_bytes_that_are_not_utf8_are_the_sync_readers_error() -> None:
    inputs = node_stream_events()["cases"]["inputs"]
    assert inputs["not UTF-8"] == inputs["not UTF-8, sync"] == "StreamError: event 0: the body is not UTF-8"


def test_a_change_to_a_yielded_message_is_reported() -> None:
    revisions = node_stream_events()["cases"]["revisions"]
    extended = revisions["extended"]
    assert extended["log"] == [["message", 0, "Hel"], ["message", 1, "hm"], ["revised", 0, "Hello"], ["end", 2]]
    withdrawn = revisions["withdrawn"]
    assert withdrawn["log"] == [
        ["message", 0, "{}"],
        ["message", 1, "hm"],
        ["revised", 0, "hm"],  # the tool call, extended past valid JSON by a replay, is dropped
        ["withdrawn", 1],
        ["end", 1],
    ]
    assert extended["end_equals_sync"] and withdrawn["end_equals_sync"]


def test_long_streams_are_followed_in_order_and_end_as_the_sync_reader() -> None:
    long = node_stream_events()["cases"]["long"]
    assert long["rising"] == {"early": 3000, "late": 0, "others": 1, "equals_sync": True}  # others: "returned"
    assert long["first replayed"] == long["rising"]
    assert long["falling"]["equals_sync"]
    assert long["falling"]["early"] + long["falling"]["late"] == 3000


def test_messages_of_frames_out_of_order_are_yielded_once_the_frames_below_them_are_in() -> None:
    """A frame numbered below the stop reason that comes after it, and a frame below all seen that
    comes after a ping: each message is yielded as soon as it can be (before `[DONE]` is read)."""
    arrivals = node_stream_events()["cases"]["arrivals"]
    assert arrivals["late"] == [
        *("chunk 0", "chunk 1", "message x", "chunk 2", "chunk 3", "message yz", "chunk 4"),
        "end: x yz",
    ]
    assert arrivals["lowered"] == [
        *("chunk 0", "chunk 1", "chunk 2", "message z", "chunk 3", "message a", "chunk 4", "message b", "chunk 5"),
        "end: z a b",
    ]


def test_the_docs_example_runs_as_written() -> None:
    assert node_stream_events()["cases"]["docs"] == {"printed": ["end_turn 4"], "contents": ["Hello"]}


USE = """\
import { reassembleSseStream, type StreamEvent, type LettaStream, type ReadableStreamLike } from "STREAM";
declare const chunks: ReadableStreamLike<Uint8Array>;
declare const signal: { readonly aborted: boolean; readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void };
export async function last(): Promise<LettaStream | null> {
  for await (const event of reassembleSseStream(chunks, { signal, strict: true })) {
    if (event.type === "end") return event.result;
    if (event.type === "withdrawn") continue;
    const text: string = event.message.message_type;
    void [text, event.index];
  }
  return null;
}
async function* strings(): AsyncGenerator<string> { yield "data: [DONE]\\n\\n"; }
export const fromStrings = reassembleSseStream(strings(), { complete: false });
export const fromText = reassembleSseStream("data: [DONE]\\n\\n");
// @ts-expect-error: a number is not a source
reassembleSseStream(42);
// @ts-expect-error: a withdrawal carries no message
export const wrong = (e: StreamEvent) => e.type === "withdrawn" && e.message;
"""

FETCH = """\
import { reassembleSseStream } from "STREAM";
export async function read(url: string, controller: AbortController): Promise<number> {
  const response = await fetch(url, { signal: controller.signal });
  let count = 0;
  for await (const event of reassembleSseStream(response.body!, { signal: controller.signal })) {
    if (event.type === "message") count += 1;
  }
  return count;
}
"""


@pytest.mark.parametrize(("source", "lib"), [(USE, "es2022"), (FETCH, "es2022,dom")])
def test_the_types_compile_with_and_without_the_dom(tmp_path: Path, source: str, lib: str) -> None:
    """Without the DOM's types (written out structurally), and with them: fetch's body and signal fit
    (under exactOptionalPropertyTypes, as the consumer project compiles)."""
    (tmp_path / "use.ts").write_text(source.replace("STREAM", (PACKAGE / "stream").as_posix()), encoding="utf-8")
    flags = ["--strict", "--exactOptionalPropertyTypes", "--noEmit", "--target", "es2022", "--module", "commonjs"]
    proc = tsc(*flags, "--lib", lib, "use.ts", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
