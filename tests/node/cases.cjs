// The npm package's verdict on conformance cases (tests/test_conformance.py): its precompiled
// validators (isValid, and validate's throw) and ajv compiling the per-file schemas at run time.
// stdin: {"package": "<generated/typescript>", "cases": [{"schema", "payload"}]}
// stdout: [{"valid": bool, "thrown": bool, "files": bool}]
"use strict";
const fs = require("fs");
const path = require("path");

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const pkg = require(input.package);
  const ajv = pkg.createAjv(false);
  for (const info of Object.values(pkg.index.families)) {
    for (const file of info.files) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(input.package, file), "utf8")));
  }
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
