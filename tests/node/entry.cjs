// Exercise the package's validate entry point the way a Node client would (tests/test_typescript.py).
// stdin: {"package": "<npm>", "cases": [{"schema", "payload"}]}
"use strict";

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const { validate, violations, PayloadError, UnknownSchemaError } = require(input.package);
  const out = input.cases.map(({ schema, payload }) => {
    try {
      const same = validate(schema, payload) === payload;
      return { valid: true, same, violations: violations(schema, payload) };
    } catch (err) {
      if (err instanceof PayloadError) {
        return { valid: false, message: err.message, paths: err.violations.map((v) => v.path) };
      }
      if (err instanceof UnknownSchemaError) return { unknown: err.message };
      if (err instanceof TypeError) return { typeError: err.message };
      throw err;
    }
  });
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`entry: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
