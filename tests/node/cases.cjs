// The npm package's verdict on conformance cases (tests/test_conformance.py): its precompiled
// validators (isValid, and validate's throw) and ajv compiling the per-file schemas at run time.
// stdin: {"package": "<npm>", "cases": [{"schema", "payload"}]}
// stdout: [{"valid": bool, "thrown": bool, "files": bool}]
"use strict";
const { readInput } = require("./package_input.cjs");

async function main() {
  const { input, pkg, ajv } = await readInput();
  const out = input.cases.map(({ schema, payload }) => {
    let thrown = false;
    try {
      pkg.validate(schema, payload);
    } catch (err) {
      if (!(err instanceof pkg.PayloadError)) throw err;
      thrown = true;
    }
    return { valid: pkg.isValid(schema, payload), thrown, files: ajv.getSchema(pkg.index.schemas[schema].$id)(payload) === true };
  });
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`cases: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
