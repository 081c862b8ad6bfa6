// Run the npm package's reassembleResumed on the resumed-stream examples. Called by
// tests/test_letta_resumed.py, which requires the same results as Python's reassemble_resumed.
// stdin: {"package": "<npm>", "vectors": [{"name", "connections": ["<body>", ...], "options"}]}
// stdout: {"<name>": <summary in the vectors' terms, with "gaps"> | "StreamError: <message>"}
"use strict";

const { summary, toJson } = require("../../codegen/stream_summary.cjs");

function run(stream, bodies, options) {
  try {
    const result = stream.reassembleResumed(bodies, options);
    const gaps = result.gaps.map((g) => [g.first, g.last, g.messageBefore, g.messageAfter]);
    return { ...summary(result), gaps };
  } catch (err) {
    if (err instanceof stream.StreamError) return `StreamError: ${err.message}`;
    throw err;
  }
}

// Each connection's bytes cut into pieces of 5 (inside characters too) must give the same.
function inPieces(body) {
  const bytes = new TextEncoder().encode(body);
  const pieces = [];
  for (let i = 0; i < bytes.length; i += 5) pieces.push(bytes.slice(i, i + 5));
  return pieces;
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const stream = require(`${input.package}/stream.js`);
  const out = {};
  for (const v of input.vectors) {
    const whole = run(stream, v.connections, v.options);
    const pieces = run(stream, v.connections.map(inPieces), v.options);
    if (toJson(pieces) !== toJson(whole)) throw new Error(`${v.name}: in pieces ${toJson(pieces)}`);
    out[v.name] = whole;
  }
  process.stdout.write(toJson(out));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(1);
});
