// Run the npm package's Letta stream reassembly (stream.js) on the stream examples. Called by
// tests/test_letta_stream.py, which requires the same results as Python's.
// stdin: {"package": "<npm>", "vectors": [{"name", "sse", "options"}]}
// stdout: {"<name>": <summary in the vectors' terms> | "StreamError: <message>"}
"use strict";

const { reassembleVector, toJson } = require("../../codegen/stream_summary.cjs");

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const stream = require(`${input.package}/stream.js`);
  const out = {};
  for (const v of input.vectors) out[v.name] = reassembleVector(stream, v);
  process.stdout.write(toJson(out));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(1);
});
