// A Letta stream vector's result in the vectors' terms (what Python's tests/test_letta_stream.py
// `summary` gives), from the npm package's stream module. Shared by Node (streams.cjs) and the
// browser page (tests/browser/app.js), so both compute exactly the same thing.
"use strict";

function summary(r) {
  const out = {
    messages: r.messages,
    stop_reason: r.stopReason ? r.stopReason.stop_reason : null,
    usage: r.usage,
    errors: r.errors,
    cancelled: r.cancelled,
    done: r.done,
    last_seq_id: r.lastSeqId,
    frames: r.frames.map((a) => (a.message !== undefined ? [a.outcome, a.message] : a.reason ? [a.outcome, a.reason] : [a.outcome])),
  };
  if (r.unknown && r.unknown.length) out.unknown = r.unknown; // frames of later types, kept with unknown: "keep"
  return out;
}

/** JSON text of a summary: a BigInt (an exact seq_id past 2**53) as its digits, as Python writes an int. */
function toJson(value) {
  return JSON.stringify(value, (k, v) => (typeof v === "bigint" ? `\u0000bigint:${v}` : v)).replace(/"\\u0000bigint:(-?[0-9]+)"/g, "$1");
}

function run(stream, body, options) {
  try {
    return summary(stream.reassembleSse(body, options));
  } catch (err) {
    if (err instanceof stream.StreamError) return `StreamError: ${err.message}`;
    throw err;
  }
}

/** The summary (or "StreamError: ...") of one vector {name, sse, options}; throws if the same body
 * cut into UTF-8 byte pieces of 7 (inside characters too) gives anything else. */
function reassembleVector(stream, vector) {
  const whole = run(stream, vector.sse, vector.options);
  const bytes = new TextEncoder().encode(vector.sse);
  const pieces = [];
  for (let i = 0; i < bytes.length; i += 7) pieces.push(bytes.slice(i, i + 7));
  const chunked = run(stream, pieces, vector.options);
  if (toJson(chunked) !== toJson(whole)) {
    throw new Error(`${vector.name}: chunked bytes give ${toJson(chunked)}`);
  }
  return whole;
}

module.exports = { reassembleVector, run, summary, toJson };
