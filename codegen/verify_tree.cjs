// Prove that a freshly generated npm package works before it replaces generated/ (codegen/generate.py).
// argv: <package dir>. Loads the package as a client would, compiles every schema with ajv (strict
// mode: an unknown keyword or a bad pattern throws here, not in a user's process), per-file and
// bundled, and loads the Letta stream module. Prints one line per problem; exit 1 if any.
"use strict";
const path = require("path");

const pkg = path.resolve(process.argv[2]);
const problems = [];
let api;
try {
  api = require(pkg);
} catch (err) {
  problems.push(`typescript/index.js: cannot be loaded: ${err && err.message}`);
}
if (api) {
  for (const name of api.schemaNames) {
    for (const bundle of [false, true]) {
      try {
        api.validator(name, { bundle });
      } catch (err) {
        problems.push(`typescript: ${name}${bundle ? " (bundle)" : ""}: ajv cannot compile it: ${String(err && err.message).split("\n")[0]}`);
      }
    }
  }
}
const fs = require("fs");
if (fs.existsSync(path.join(pkg, "stream.js"))) {
  try {
    require(path.join(pkg, "stream.js"));
  } catch (err) {
    problems.push(`typescript/stream.js: cannot be loaded: ${err && err.message}`);
  }
}
for (const line of problems) process.stdout.write(line + "\n");
process.exit(problems.length ? 1 : 0);
