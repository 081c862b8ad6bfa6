// The npm package's reassembleSseStream on the stream examples, fed as a ReadableStream, a Node
// Readable and an async generator, cut at hostile byte boundaries; and what it does on an abort, an
// early break and a wrong input. Called by tests/test_letta_stream_async.py, which asserts.
// stdin: {"package": "<npm>", "vectors": [{"name", "sse", "options"}], "small": <bytes>, "docs": "<streams.md>"}
// stdout: {"vectors": {"<name>": {"log", "sync", "runs", "differ", "early"}}, "cases": {...}}
"use strict";

const fs = require("fs");
const { Readable } = require("stream");
const { run, summary, toJson } = require("../../codegen/stream_summary.cjs");

// What a consumer sees: each event in the examples' terms, and a StreamError's message last.
async function eventLog(stream, source, options) {
  const log = [];
  try {
    for await (const ev of stream.reassembleSseStream(source, options)) {
      if (ev.type === "end") log.push(["end", summary(ev.result)]);
      else if (ev.type === "withdrawn") log.push(["withdrawn", ev.index]);
      else log.push([ev.type, ev.index, ev.message]);
    }
  } catch (err) {
    if (!(err instanceof stream.StreamError)) throw err;
    log.push(["error", `StreamError: ${err.message}`]);
  }
  return log;
}

// Sources that record in `trace` each chunk they hand over and how they were stopped. The
// ReadableStream pulls only when read (highWaterMark 0), as the async generator does.
function readableStream(pieces, trace) {
  let i = 0;
  return new ReadableStream(
    {
      pull(controller) {
        if (i === pieces.length) return controller.close();
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

async function* generator(pieces, trace) {
  try {
    for (let i = 0; i < pieces.length; i++) {
      trace.push(`chunk ${i}`);
      yield pieces[i];
    }
  } finally {
    trace.push("returned");
  }
}

const KINDS = {
  ReadableStream: readableStream,
  "Node Readable": (pieces, trace) => Readable.from(generator(pieces, trace)),
  "async generator": generator,
};

function cutAt(bytes, cuts) {
  const bounds = [0, ...[...cuts].sort((a, b) => a - b), bytes.length];
  const pieces = [];
  for (let i = 0; i + 1 < bounds.length; i++) pieces.push(bytes.slice(bounds[i], bounds[i + 1]));
  return pieces;
}

/** Inside each UTF-8 character, after each CR (before its LF, if any), inside each `data:`. */
function hostileCuts(bytes) {
  const cuts = new Set();
  for (let i = 1; i < bytes.length; i++) {
    if ((bytes[i] & 0xc0) === 0x80 || bytes[i - 1] === 13) cuts.add(i);
  }
  const buffer = Buffer.from(bytes);
  for (let at = buffer.indexOf("data:"); at >= 0; at = buffer.indexOf("data:", at + 1)) {
    cuts.add(at + 2);
    cuts.add(at + 4);
  }
  return [...cuts].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
}

/** The cuttings of a body: one byte a chunk, all hostile cuts at once, and each hostile cut (each
 * cut at all in a small body) alone, the last ones in turn by kind of source. */
function cuttings(bytes, small) {
  const out = [];
  const names = Object.keys(KINDS);
  for (const kind of names) out.push({ kind, pieces: cutAt(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)) });
  const hostile = hostileCuts(bytes);
  for (const kind of names) out.push({ kind, pieces: cutAt(bytes, hostile) });
  const single = bytes.length <= small ? Array.from({ length: bytes.length - 1 }, (_, i) => i + 1) : hostile;
  single.forEach((cut, i) => out.push({ kind: names[i % names.length], pieces: cutAt(bytes, [cut]) }));
  return out;
}

/** Whether a message is yielded before the source hands over its last chunk: the body less its last
 * two bytes, then those (the browser test's server holds them back the same way). */
async function yieldsEarly(stream, bytes, options, kind) {
  const trace = [];
  const source = KINDS[kind]([bytes.slice(0, -2), bytes.slice(-2)], trace);
  try {
    for await (const ev of stream.reassembleSseStream(source, options)) if (ev.type === "message") trace.push("message");
  } catch (err) {
    if (!(err instanceof stream.StreamError)) throw err;
  }
  const message = trace.indexOf("message");
  return message >= 0 && message < trace.indexOf("chunk 1");
}

async function vectorReport(stream, vector, small) {
  const bytes = new TextEncoder().encode(vector.sse);
  const sync = run(stream, vector.sse, vector.options);
  const log = await eventLog(stream, vector.sse, vector.options);
  const want = toJson(log);
  const differ = [];
  let runs = 0;
  for (const { kind, pieces } of cuttings(bytes, small)) {
    runs += 1;
    const got = toJson(await eventLog(stream, KINDS[kind](pieces, []), vector.options));
    if (got !== want && differ.length < 3) differ.push(`${kind}, ${pieces.length} pieces: ${got.slice(0, 300)}`);
  }
  const early = { ReadableStream: await yieldsEarly(stream, bytes, vector.options, "ReadableStream"), "async generator": await yieldsEarly(stream, bytes, vector.options, "async generator") };
  return { log, sync, runs, differ, early };
}

module.exports = { KINDS, eventLog, generator, readableStream };

if (require.main === module) {
  const { cases } = require("./stream_async_cases.cjs");
  (async () => {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const stream = require(`${input.package}/stream.js`);
    const vectors = {};
    for (const v of input.vectors) vectors[v.name] = await vectorReport(stream, v, input.small);
    const docs = fs.readFileSync(input.docs, "utf8");
    process.stdout.write(toJson({ vectors, cases: await cases(stream, input.vectors, docs) }));
  })().catch((err) => {
    process.stderr.write(String(err && err.stack ? err.stack : err));
    process.exit(1);
  });
}
