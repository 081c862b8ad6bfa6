// The npm package's Letta stream reassembly on the cases of tests/stream_differential.py, each body
// given in the pieces Python was given (bytes, cut anywhere), so that the two readers can be compared.
// stdin: {"package": "<npm>", "cases": [{"pieces": ["<base64>", ...], "options": {...}}]}
// stdout: [<summary in the vectors' terms> | "StreamError: <message>", ...], seq_ids past 2**53 exact
"use strict";

const { run, toJson } = require("../../codegen/stream_summary.cjs");

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const stream = require(`${input.package}/stream.js`);
  const out = input.cases.map((c) => run(stream, c.pieces.map((p) => new Uint8Array(Buffer.from(p, "base64"))), c.options));
  process.stdout.write(toJson(out));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(1);
});
