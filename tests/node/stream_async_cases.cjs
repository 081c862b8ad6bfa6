// The cases of tests/node/stream_async.cjs beyond the examples: an abort, an early break, wrong
// inputs, revisions, a long stream, and the example of docs/streams.md run as written.
"use strict";

const { Readable } = require("stream");
const { KINDS, eventLog, generator, readableStream } = require("./stream_async.cjs");
const { run, summary: summaryOf, toJson } = require("../../codegen/stream_summary.cjs");

const DATE = "2025-10-01T12:30:45+00:00";
const STOP = 'data: {"message_type":"stop_reason","stop_reason":"end_turn"}\n\n';
const DONE = "data: [DONE]\n\n";
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

function sse(frames) {
  return frames.map((f) => (typeof f === "string" ? f : `data: ${JSON.stringify(f)}\n\n`)).join("");
}

function text(otid, content, kind = "assistant_message") {
  const key = kind === "reasoning_message" ? "reasoning" : "content";
  return { id: `message-${otid}`, date: DATE, message_type: kind, otid, [key]: content };
}

function call(otid, parts) {
  return { id: `message-${otid}`, date: DATE, message_type: "tool_call_message", otid, tool_call: parts, tool_calls: parts };
}

/** A source of each kind that hands over `pieces`, then waits forever (a server that stalls). */
function stalling(kind, pieces, trace) {
  if (kind === "ReadableStream") {
    let i = 0;
    return new ReadableStream(
      {
        pull(controller) {
          if (i === pieces.length) return new Promise(() => {});
          trace.push(`chunk ${i}`);
          controller.enqueue(pieces[i++]);
        },
        cancel(reason) {
          trace.push(`cancelled: ${reason && reason.name}`);
        },
      },
      { highWaterMark: 0 },
    );
  }
  async function* stall() {
    try {
      for (let i = 0; i < pieces.length; i++) {
        trace.push(`chunk ${i}`);
        yield pieces[i];
      }
      await new Promise(() => {});
    } finally {
      trace.push("returned");
    }
  }
  if (kind === "Node Readable") {
    const readable = Readable.from(stall());
    readable.on("close", () => trace.push("destroyed"));
    return readable;
  }
  return stall();
}

function errorOf(err) {
  if (err === null) return null;
  return { name: err.name, DOMException: err instanceof DOMException, message: err.message };
}

/** Abort once the first message is yielded (`at: "message"`), or while a read waits (`at: "read"`),
 * with the default reason or one of the caller's. */
async function aborted(stream, kind, body, at, reason) {
  const trace = [];
  const pieces = body.split(/(?<=\n\n)/).map((p) => new TextEncoder().encode(p));
  const source = stalling(kind, pieces, trace);
  const controller = new AbortController();
  const seen = [];
  let error = null;
  if (at === "read") setTimeout(() => controller.abort(reason), 50);
  try {
    for await (const ev of stream.reassembleSseStream(source, { signal: controller.signal })) {
      seen.push(ev.type);
      if (at === "message" && ev.type === "message") controller.abort(reason);
    }
  } catch (err) {
    error = err;
  }
  await tick();
  const stopped = trace.filter((t) => !t.startsWith("chunk"));
  return { seen, error: errorOf(error), same_reason: reason !== undefined && error === reason, trace: stopped, locked: source.locked === true, destroyed: source.destroyed === true };
}

async function abortCases(stream, body) {
  const out = {};
  for (const kind of Object.keys(KINDS)) {
    out[`${kind}, after a message`] = await aborted(stream, kind, body, "message");
    out[`${kind}, while a read waits`] = await aborted(stream, kind, body, "read");
  }
  out["a reason of the caller's"] = await aborted(stream, "ReadableStream", body, "message", new Error("the user left"));
  const trace = [];
  const source = readableStream([new TextEncoder().encode(body)], trace);
  let error = null;
  try {
    for await (const ev of stream.reassembleSseStream(source, { signal: AbortSignal.abort() })) trace.push(ev.type);
  } catch (err) {
    error = err;
  }
  out["aborted before"] = { error: errorOf(error), trace, locked: source.locked };
  return out;
}

async function breakCases(stream, body) {
  const out = {};
  const pieces = body.split(/(?<=\n\n)/).map((p) => new TextEncoder().encode(p));
  for (const kind of Object.keys(KINDS)) {
    const trace = [];
    const source = KINDS[kind](pieces, trace);
    if (kind === "Node Readable") source.on("close", () => trace.push("destroyed"));
    for await (const ev of stream.reassembleSseStream(source)) {
      trace.push(ev.type);
      if (ev.type === "message") break;
    }
    await tick();
    out[kind] = { trace, locked: source.locked === true };
  }
  const whole = readableStream(pieces, []);
  await eventLog(stream, whole, {});
  out["read to the end"] = { locked: whole.locked };
  return out;
}

function thrown(fn) {
  try {
    fn();
    return null;
  } catch (err) {
    return `${err.name}: ${err.message}`;
  }
}

async function rejected(iterable) {
  try {
    for await (const ev of iterable) void ev;
    return null;
  } catch (err) {
    return `${err.name}: ${err.message}`;
  }
}

async function inputCases(stream) {
  const trace = [];
  const locked = new ReadableStream();
  locked.getReader();
  return {
    number: thrown(() => stream.reassembleSseStream(42)),
    null: thrown(() => stream.reassembleSseStream(null)),
    object: thrown(() => stream.reassembleSseStream({})),
    response: thrown(() => stream.reassembleSseStream(new Response("data: [DONE]\n\n"))),
    signal: thrown(() => stream.reassembleSseStream("", { signal: "stop" })),
    "signal, half an AbortSignal": [{ aborted: false }, { addEventListener() {} }].map((signal) =>
      thrown(() => stream.reassembleSseStream("", { signal })),
    ),
    "an instance of a class": thrown(() => stream.reassembleSseStream(new (class Chunky {})())),
    "a number chunk": await rejected(stream.reassembleSseStream(generator(["data: ", 42], trace))),
    "a number chunk, the source": trace.filter((t) => !t.startsWith("chunk")),
    "a locked stream": (await rejected(stream.reassembleSseStream(locked))).split(":")[0],
    "not UTF-8": await rejected(stream.reassembleSseStream(readableStream([new Uint8Array([100, 97, 116, 97, 58, 32, 0xff, 10, 10])], []))),
    "not UTF-8, sync": run(stream, [new Uint8Array([100, 97, 116, 97, 58, 32, 0xff, 10, 10])], {}),
    "sync, a ReadableStream": thrown(() => stream.reassembleSse(new ReadableStream())),
    "sync, an async generator": thrown(() => stream.reassembleSse(generator([], []))),
    ...mixedCases(stream),
  };
}

/** Bytes from another realm, chunks of other types, and bytes ending inside a character before text. */
function mixedCases(stream) {
  const body = new TextEncoder().encode(`data: {"message_type":"assistant_message","id":"m-0","date":"${DATE}","content":"é","seq_id":1}\n\n${STOP}${DONE}`);
  const foreign = require("vm").runInNewContext("(b) => { const u = new Uint8Array(b.length); u.set(b); return u; }")(body);
  const at = body.indexOf(0xc3);
  const content = (result) => (typeof result === "string" ? result : result.messages.map((m) => m.content));
  return {
    "sync, bytes of another realm": content(run(stream, foreign, {})),
    "sync, resumed, bytes of another realm": stream.reassembleResumed([foreign]).messages.map((m) => m.content),
    "sync, a number chunk": thrown(() => stream.reassembleSse([1])),
    "sync, an undefined chunk": thrown(() => stream.reassembleSse([undefined, body])),
    "sync, a Uint16Array chunk": thrown(() => stream.reassembleSse([new Uint16Array(2)])),
    "sync, text inside a character": content(run(stream, [body.slice(0, at + 1), "X", body.slice(at + 1)], {})),
    "sync, empty text inside a character": content(run(stream, [body.slice(0, at + 1), "", body.slice(at + 1)], {})),
    "sync, empty text, then text inside a character": content(
      run(stream, [body.slice(0, at + 1), "", "X", body.slice(at + 1)], {}),
    ),
  };
}

/** Streams where a later frame changes what was yielded: a retried request that replays a message and
 * extends it; and one whose extension leaves a tool call incomplete in a stream that ends in an error. */
async function revisionCases(stream) {
  const extended = sse([text("a-0", "Hel"), text("b-0", "hm", "reasoning_message"), text("a-0", "Hel"), text("a-0", "lo"), STOP, DONE]);
  const start = call("t-0", { name: "f", arguments: "{}", tool_call_id: "c" });
  const error = 'event: error\ndata: {"error": "boom", "code": "INTERNAL_SERVER_ERROR"}\n\n';
  const broken = sse([start, text("b-0", "hm", "reasoning_message"), start, call("t-0", { arguments: "x", tool_call_id: "c" }), error]);
  const out = {};
  for (const [name, body] of [["extended", extended], ["withdrawn", broken]]) {
    const log = await eventLog(stream, readableStream([new TextEncoder().encode(body)], []), {});
    out[name] = { log: log.map((e) => (e[0] === "end" ? ["end", e[1].messages.length] : e.length > 2 ? [e[0], e[1], e[2].content || e[2].reasoning || e[2].tool_calls[0].arguments] : e)), sync: run(stream, body, {}) };
    out[name].end_equals_sync = toJson(log[log.length - 1][1]) === toJson(out[name].sync);
  }
  return out;
}

/** Many one-frame messages with seq_ids, a frame a chunk: in order, each message is yielded before the
 * last chunk is read, also when the first frame is replayed again and again (a repeat is no frame
 * below all seen: the preview does not start again); in falling order (each seq_id below all seen)
 * the result still equals reassembleSse's, within the preview's bounded work. */
async function longCases(stream) {
  const out = {};
  const n = 3000;
  const numbered = (order) => Array.from({ length: n }, (_, i) => ({ ...text(`m-${order(i)}`, "x"), seq_id: order(i) + 1 }));
  const rising = numbered((i) => i);
  const orders = { rising, falling: numbered((i) => n - 1 - i), "first replayed": [...rising, ...Array(8).fill(rising[0])] };
  for (const [name, frames] of Object.entries(orders)) {
    const body = sse([...frames, { message_type: "stop_reason", stop_reason: "end_turn", seq_id: n + 1 }, DONE]);
    const pieces = body.split(/(?<=\n\n)/);
    const trace = [];
    let result = null;
    for await (const ev of stream.reassembleSseStream(generator(pieces, trace))) {
      if (ev.type === "end") result = ev.result;
      else trace.push(ev.type);
    }
    const early = trace.slice(0, trace.indexOf(`chunk ${pieces.length - 1}`)).filter((t) => t === "message").length;
    const late = trace.filter((t) => t === "message").length - early;
    out[name] = { early, late, others: trace.filter((t) => !t.startsWith("chunk") && t !== "message").length, equals_sync: toJson(summaryOf(result)) === toJson(run(stream, body, {})) };
  }
  return out;
}

/** Streams with seq_ids whose frames arrive out of order, an event a chunk: what is yielded after
 * which chunk. `late`: a message frame numbered below the stop reason that arrives after it still
 * belongs to the stream (seq_id order decides, as at the end). `lowered`: a frame below all seen,
 * after a ping holding the highest seq_id, makes the preview start again from it and still pass the
 * ping. Either way each message is yielded as soon as the frames below it are in, not at the end. */
async function arrivalCases(stream) {
  const stop = (seq) => ({ message_type: "stop_reason", stop_reason: "end_turn", seq_id: seq });
  const say = (otid, content, seq) => ({ ...text(otid, content), seq_id: seq });
  const ping = (seq) => ({ id: "p", date: DATE, message_type: "ping", seq_id: seq });
  const bodies = {
    late: [say("a-0", "x", 1), say("b-0", "y", 2), stop(4), say("b-0", "z", 3)],
    lowered: [say("a-0", "a", 2), ping(3), say("z-0", "z", 1), say("b-0", "b", 4), stop(5)],
  };
  const out = {};
  for (const [name, frames] of Object.entries(bodies)) {
    const trace = [];
    for await (const ev of stream.reassembleSseStream(generator(sse([...frames, DONE]).split(/(?<=\n\n)/), trace))) {
      trace.push(ev.type === "end" ? `end: ${ev.result.messages.map((m) => m.content).join(" ")}` : `${ev.type} ${ev.message.content}`);
    }
    out[name] = trace.filter((t) => t !== "returned");
  }
  return out;
}

/** The example under "Reading a stream as it arrives" in docs/streams.md, run as written (its import
 * made a require), with `fetch` answering the body of the Python example, cut inside `data:`. */
async function docsCase(stream, docs) {
  const block = docs.split("```js\n").map((b) => b.split("```")[0]).find((b) => b.includes("reassembleSseStream("));
  const code = block.replace('import { reassembleSseStream } from "chatschema/stream";', "const { reassembleSseStream } = stream;");
  const head = { id: "message-1", date: "2025-10-01T12:30:45Z", message_type: "assistant_message" };
  const body = sse([{ ...head, content: "Hel", seq_id: 1 }, { ...head, content: "lo", seq_id: 2 }, STOP, DONE]);
  const bytes = new TextEncoder().encode(body);
  const fetch = async () => new Response(readableStream([bytes.slice(0, 3), bytes.slice(3, 200), bytes.slice(200)], []));
  const printed = [];
  const console = { log: (...args) => printed.push(args.join(" ")) };
  const AsyncFunction = (async () => {}).constructor;
  const messages = await new AsyncFunction("stream", "fetch", "url", "console", `${code}\nreturn messages;`)(stream, fetch, "http://localhost/stream", console);
  return { printed, contents: messages.map((m) => m.content) };
}

async function cases(stream, vectors, docs) {
  const parallel = vectors.find((v) => v.name === "background_parallel_calls").sse;
  return {
    abort: await abortCases(stream, parallel),
    break: await breakCases(stream, parallel),
    inputs: await inputCases(stream),
    revisions: await revisionCases(stream),
    long: await longCases(stream),
    arrivals: await arrivalCases(stream),
    docs: await docsCase(stream, docs),
  };
}

module.exports = { cases };
