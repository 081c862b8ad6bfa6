// Run the npm package's Letta stream reassembly (stream.js) on the stream vectors. Called by
// tests/test_letta_stream.py, which requires the same results as Python's.
// stdin: {"package": "<generated/typescript>", "vectors": [{"name", "sse", "options"}]}
// stdout: {"<name>": <summary in the vectors' terms> | "StreamError: <message>"}
"use strict";

function summary(r) {
  return {
    messages: r.messages,
    stop_reason: r.stopReason ? r.stopReason.stop_reason : null,
    usage: r.usage,
    errors: r.errors,
    cancelled: r.cancelled,
    done: r.done,
    last_seq_id: r.lastSeqId,
    frames: r.frames.map((a) => (a.message !== undefined ? [a.outcome, a.message] : a.reason ? [a.outcome, a.reason] : [a.outcome])),
  };
}

function run(stream, body, options) {
  try {
    return summary(stream.reassembleSse(body, options));
  } catch (err) {
    if (err instanceof stream.StreamError) return `StreamError: ${err.message}`;
    throw err;
  }
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const stream = require(`${input.package}/stream.js`);
  const out = {};
  for (const v of input.vectors) {
    const whole = run(stream, v.sse, v.options);
    // the same result from UTF-8 bytes cut into pieces at every 7th byte (inside characters too)
    const bytes = Buffer.from(v.sse, "utf8");
    const pieces = [];
    for (let i = 0; i < bytes.length; i += 7) pieces.push(new Uint8Array(bytes.subarray(i, i + 7)));
    const chunked = run(stream, pieces, v.options);
    if (JSON.stringify(chunked) !== JSON.stringify(whole)) throw new Error(`${v.name}: chunked bytes give ${JSON.stringify(chunked)}`);
    out[v.name] = whole;
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(1);
});
