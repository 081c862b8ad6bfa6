// Every case's violations from the npm package, as a consumer reads them: JSON (tests/test_violation_parity.py).
// stdin: {"package": "<npm>", "cases": [{"schema", "payload"}]}
// stdout: [[violation, ...], ...], each violation as JSON.stringify gives it
"use strict";

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const { violations } = require(input.package);
  process.stdout.write(JSON.stringify(input.cases.map(({ schema, payload }) => violations(schema, payload))));
}

main().catch((err) => {
  process.stderr.write(`violations: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
