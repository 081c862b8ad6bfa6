// One Node process gives ajv's verdict on every test vector, with the npm package's validator
// over the per-file schemas and over the family bundles. Called by tests/node.py.
// stdin: {"package": "<generated/typescript>", "vectors": [{"id", "schema", "path"}]}
// stdout: {"": {"compiled": <number of schema names>}, "<id>": {"files": bool, "bundle": bool, "violations": [...]}}
"use strict";
const fs = require("fs");

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const pkg = require(input.package);
  // Compile every named type first, in ajv's strict mode, from the files and from the bundles.
  for (const name of pkg.schemaNames) {
    pkg.validator(name);
    pkg.validator(name, { bundle: true });
  }
  const out = { "": { compiled: pkg.schemaNames.length } };
  for (const v of input.vectors) {
    const payload = JSON.parse(fs.readFileSync(v.path, "utf8"));
    out[v.id] = {
      files: pkg.isValid(v.schema, payload),
      bundle: pkg.isValid(v.schema, payload, { bundle: true }),
      violations: pkg.violations(v.schema, payload).map((x) => `${x.path}: ${x.message}`),
    };
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`verdicts: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
