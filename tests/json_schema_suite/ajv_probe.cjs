// Hints for tests/json_schema_suite/generation.py: the groups ajv refuses to compile, with options
// like those the generator's validators are compiled with (codegen/node/standalone.cjs), whose
// failures name no type. Only a hint: a group is blamed only when the generator fails on it.
// stdin: {"id": "<$id of the family file>", "groups": {"<n>": {"<Type>": <schema>, ...}}};
// stdout: {"<n>": "<ajv's error>"} for each group ajv refuses.
"use strict";
const Ajv2020 = require("ajv/dist/2020").default;

function refusal(id, defs) {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    strictTuples: false,
    allowUnionTypes: true,
    discriminator: true,
  });
  ajv.addFormat("date-time", { type: "string", validate: () => true });
  ajv.addKeyword({ keyword: "x-chatschema-extension", schemaType: "string" });
  try {
    ajv.addSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", $id: id, $defs: defs });
    for (const name of Object.keys(defs)) ajv.getSchema(`${id}#/$defs/${name}`);
    return "";
  } catch (err) {
    return String(err && err.message ? err.message : err).split("\n")[0];
  }
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const out = {};
  for (const [number, defs] of Object.entries(input.groups)) {
    const why = refusal(input.id, defs);
    if (why) out[number] = why;
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(`ajv_probe: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
