// Prove that a freshly generated npm package works before its files are written (codegen/generate.py).
// argv: <package dir> <schemas dir> [families, comma-separated: those to check; default all]
// [families whose shipped schemas compiled before as they are now, for validation: not compiled].
// Loads the package as a client would (CommonJS and ES module builds), finds a precompiled validator
// for every schema name, compiles every per-file schema and bundle at run time with createAjv (strict
// mode: an unknown keyword or a bad pattern throws here, not in a user's process), and reassembles
// every Letta stream example (schemas/letta/examples/streams/) with the stream module. Prints one
// line per problem; exit 1 if any.
"use strict";
const path = require("path");

const pkg = path.resolve(process.argv[2]);
const only = new Set((process.argv[4] || "").split(",").filter(Boolean));
const checked = (family) => only.size === 0 || only.has(family);
const validated = new Set((process.argv[5] || "").split(",").filter(Boolean));
const toCompile = (family) => checked(family) && !validated.has(family);
const problems = [];
let api;
try {
  api = require(pkg);
} catch (err) {
  problems.push(`npm/index.js: cannot be loaded: ${err && err.message}`);
}
if (api) {
  for (const name of api.schemaNames.filter((n) => checked(n.split("/")[0]))) {
    try {
      if (typeof api.validator(name) !== "function") problems.push(`npm: ${name}: no precompiled validator`);
    } catch (err) {
      problems.push(`npm: ${name}: no precompiled validator: ${String(err && err.message).split("\n")[0]}`);
    }
  }
  // The shipped schema files, for users who compile at run time: per file, and each family's bundle.
  const families = Object.entries(api.index.families).filter(([name]) => toCompile(name)).map(([, f]) => f);
  const entries = Object.entries(api.index.schemas).filter(([name]) => toCompile(name.split("/")[0])).map(([, e]) => e);
  // One ajv for both stages: each createAjv compiles the 2020-12 meta-schemas again, which took as
  // long as a family's own schemas. The bundles go first, so that a bundle must resolve on its own
  // (with the files loaded, a `$ref` to a file's `$id` would pass); no file refers to a bundle. A
  // failure starts a fresh one.
  let ajv = null;
  for (const [label, files] of families.length === 0 ? [] : [
    ["bundle", families.map((f) => f.bundle)],
    ["files", families.flatMap((f) => f.files)],
  ]) {
    try {
      ajv = ajv || require(path.join(pkg, "ajv.js")).createAjv();
      for (const file of files) ajv.addSchema(JSON.parse(require("fs").readFileSync(path.join(pkg, file), "utf8")));
      for (const entry of entries) ajv.getSchema(label === "files" ? entry.$id : entry.bundle_id);
    } catch (err) {
      ajv = null;
      problems.push(`npm: schemas (${label}): ajv cannot compile them: ${String(err && err.message).split("\n")[0]}`);
    }
  }
}
const fs = require("fs");
const { reassembleVector } = require("./stream_summary.cjs");

function streamMismatch(example, got) {
  if (example.raises !== undefined) {
    const ok = typeof got === "string" && got.includes(example.raises);
    return ok ? "" : `expected a StreamError with ${JSON.stringify(example.raises)}, got ${String(JSON.stringify(got)).slice(0, 200)}`;
  }
  return JSON.stringify(canonical(got)) === JSON.stringify(canonical(example.expected)) ? "" : "the reassembly differs from `expected`";
}

function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

if (fs.existsSync(path.join(pkg, "stream.js"))) {
  let stream;
  try {
    stream = require(path.join(pkg, "stream.js"));
  } catch (err) {
    problems.push(`npm/stream.js: cannot be loaded: ${err && err.message}`);
  }
  const folder = path.join(path.resolve(process.argv[3]), "letta", "examples", "streams");
  for (const name of stream && checked("letta") && fs.existsSync(folder) ? fs.readdirSync(folder).sort() : []) {
    if (!name.endsWith(".json")) continue;
    const shown = `schemas/letta/examples/streams/${name}`;
    try {
      const example = JSON.parse(fs.readFileSync(path.join(folder, name), "utf8"));
      const why = streamMismatch(example, reassembleVector(stream, { name, sse: example.sse.join(""), options: example.options }));
      if (why) problems.push(`${shown}: npm: ${why}`);
    } catch (err) {
      problems.push(`${shown}: npm: ${String(err && err.message).split("\n")[0]}`);
    }
  }
}
// The ES module build, family by family (esm/index.js also loads ajv, which Node's ESM resolution
// finds only in an installed package, not through NODE_PATH; tests/test_ts_package.py runs it so).
// Only the families verified, as on the Python side: a change to a shared file verifies them all.
// The stream reader ships with Letta alone (codegen/layout.py, FAMILY_TS_MODULES).
const withStream = checked("letta") && fs.existsSync(path.join(pkg, "stream.js"));
const esmModules = api ? [...Object.keys(api.index.families).filter(checked), ...(withStream ? ["stream"] : [])] : [];
Promise.all(
  esmModules.map((name) =>
    import(require("url").pathToFileURL(path.join(pkg, "esm", `${name}.js`)).href)
      .then((esm) => {
        const cjs = require(path.join(pkg, `${name}.js`));
        const missing = Object.keys(cjs).filter((key) => !(key in esm));
        if (missing.length) problems.push(`npm/esm/${name}.js: lacks ${missing.join(", ")} of ${name}.js`);
      })
      .catch((err) => problems.push(`npm/esm/${name}.js: cannot be loaded: ${err && err.message}`)),
  ),
).finally(() => {
  for (const line of problems) process.stdout.write(line + "\n");
  process.exit(problems.length ? 1 : 0);
});
