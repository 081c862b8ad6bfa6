// Shared by the Node scripts the tests feed JSON on stdin (cases.cjs, verdicts.cjs): read that JSON,
// load the package it names, and an ajv that has compiled the package's per-file schemas at run time
// (createAjv, strict mode: what a user who compiles gets).
"use strict";
const fs = require("fs");
const path = require("path");

async function readInput() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const pkg = require(input.package);
  const ajv = require(path.join(input.package, "ajv.js")).createAjv(false);
  for (const info of Object.values(pkg.index.families)) {
    for (const file of info.files) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(input.package, file), "utf8")));
  }
  return { input, pkg, ajv };
}

module.exports = { readInput };
