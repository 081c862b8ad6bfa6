// Both module formats of the installed package in one Node process (tests/test_npm_tarball.py copies
// this into a consumer project): every class exported by an entry point must be the same object
// through `import` and `require`, so an error thrown by one is `instanceof` the other's class.
// stdout: {"classes": {"<entry>:<name>": same object?}, "instanceof": {"<case>": [cjs in esm, esm in cjs]}}
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const manifest = require("chatschema/package.json");
// chatschema/ajv needs the optional ajv peer, which this project leaves out; it exports no class
const entries = Object.keys(manifest.exports)
  .filter((key) => !key.includes("*") && key !== "./package.json" && key !== "./ajv")
  .map((key) => (key === "." ? "chatschema" : `chatschema/${key.slice(2)}`));

const isClass = (value) => typeof value === "function" && /^class\b/.test(Function.prototype.toString.call(value));

const classes = {};
for (const entry of entries) {
  const esm = await import(entry);
  const cjs = require(entry);
  for (const [name, value] of Object.entries(esm)) {
    if (isClass(value)) classes[`${entry}:${name}`] = value === cjs[name];
  }
}

function thrown(call) {
  try {
    call();
  } catch (err) {
    return err;
  }
  throw new Error(`no error from ${call}`);
}

// each case: the same failing call through either format, and the class it must throw
const esm = { root: await import("chatschema"), letta: await import("chatschema/letta"), stream: await import("chatschema/stream") };
const cjs = { root: require("chatschema"), letta: require("chatschema/letta"), stream: require("chatschema/stream") };
const cases = {
  PayloadError: [(m) => m.root.validate("docent/ChatMessage", { role: "bot" }), (m) => m.root.PayloadError],
  "letta PayloadError": [(m) => m.letta.parse("letta/LettaPing", {}), (m) => m.root.PayloadError],
  UnknownSchemaError: [(m) => m.root.violations("docent/ChatMesage", {}), (m) => m.root.UnknownSchemaError],
  StreamError: [(m) => m.stream.reassembleSse("data: not json\n\n"), (m) => m.stream.StreamError],
};
const checks = {};
for (const [name, [call, cls]] of Object.entries(cases)) {
  const fromCjs = thrown(() => call(cjs));
  const fromEsm = thrown(() => call(esm));
  checks[name] = [fromCjs instanceof cls(esm), fromEsm instanceof cls(cjs)];
}
console.log(JSON.stringify({ classes, instanceof: checks }));
