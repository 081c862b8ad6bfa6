// One Node process gives ajv's verdict on every test vector: "bundle" from the npm package's
// precompiled validators (ajv standalone code made from the family bundles), "files" from ajv
// compiling the package's per-file schemas at run time (createAjv, for users who compile). Called by
// tests/node.py.
// stdin: {"package": "<npm>", "vectors": [{"id", "schema", "path"}]}
// stdout: {"": {"compiled": <number of schema names>}, "<id>": {"files": bool, "bundle": bool, "violations": [...]}}
"use strict";
const fs = require("fs");
const { readInput } = require("./package_input.cjs");

async function main() {
  // Every named type compiled first, in ajv's strict mode, from the per-file schemas.
  const { input, pkg, ajv } = await readInput();
  const fromFiles = {};
  for (const name of pkg.schemaNames) {
    if (typeof pkg.validator(name) !== "function") throw new Error(`${name}: no precompiled validator`);
    fromFiles[name] = ajv.getSchema(pkg.index.schemas[name].$id);
  }
  const out = { "": { compiled: pkg.schemaNames.length } };
  for (const v of input.vectors) {
    const payload = JSON.parse(fs.readFileSync(v.path, "utf8"));
    out[v.id] = {
      files: fromFiles[v.schema](payload) === true,
      bundle: pkg.isValid(v.schema, payload),
      violations: pkg.violations(v.schema, payload).map((x) => `${x.path}: ${x.message}`),
    };
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`verdicts: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
