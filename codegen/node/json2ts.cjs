// Compile prepared JSON Schemas to TypeScript declarations with json-schema-to-typescript.
// Called by codegen/typescript.py: reads {"<family>": {"schema": {...}, "additionalProperties": bool}}
// as JSON on stdin and writes {"<family>": "<declarations>"} as JSON on stdout.
"use strict";
const { compile } = require("json-schema-to-typescript");

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const out = {};
  for (const name of Object.keys(input).sort()) {
    const { schema, additionalProperties } = input[name];
    out[name] = await compile(schema, schema.title, {
      bannerComment: "",
      additionalProperties,
      strictIndexSignatures: true,
      unreachableDefinitions: true,
      declareExternallyReferenced: true,
      enableConstEnums: false,
      format: true,
      cwd: __dirname,
      $refOptions: { resolve: { external: false, file: false, http: false } },
    });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  // one line, no stack: a schema the tool refuses is bad input to report, not a crash to debug
  process.stderr.write(`json2ts: ${String(err && err.message ? err.message : err).split("\n")[0]}\n`);
  process.exit(1);
});
