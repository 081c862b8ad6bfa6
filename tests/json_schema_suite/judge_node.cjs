// The npm package's precompiled validators on every payload, in one Node process
// (tests/json_schema_suite/judges.py): `isValid` (the validators that stop at the first error) and
// `violations` (those that collect every error), which must agree with each other too.
// stdin: {"package": "<npm dir>", "cases": [[name, payload], ...]};
// stdout: {"node": [...], "node-violations": [...]}, a verdict per case: true, false, or "error: ..."
// when the call throws or answers what it should not.
"use strict";

function verdict(call, expected, valid) {
  try {
    const answer = call();
    return expected(answer) ? valid(answer) : `error: answered ${JSON.stringify(answer)}`.slice(0, 300);
  } catch (err) {
    return `error: ${err && err.name}: ${String(err && err.message).slice(0, 300)}`;
  }
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const pkg = require(input.package);
  const out = { node: [], "node-violations": [] };
  for (const [name, payload] of input.cases) {
    out.node.push(verdict(() => pkg.isValid(name, payload), (v) => typeof v === "boolean", (v) => v));
    out["node-violations"].push(verdict(() => pkg.violations(name, payload), Array.isArray, (v) => v.length === 0));
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`judge_node: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
