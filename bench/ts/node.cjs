// Timings of the npm package in Node for bench/ts.py, run in a project with the package in
// node_modules. One process per call, so the load time is that of a fresh process.
//   node node.cjs load cjs|esm <specifier> <corpus.json> -> {"load_ms", "first_ms"}
//   node node.cjs rate <corpus.json> <seconds>            -> {"<union>": messages per CPU second, ...}
// corpus.json: {"<union>": [payload, ...]} (the union's test vectors, valid and invalid); the first
// union is the one validated first after the load.
"use strict";
const fs = require("fs");
const { performance } = require("perf_hooks");
const { rate } = require("./rate.cjs");

/** This process's CPU time in ms: on a shared machine a fairer clock than the wall. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === "load") {
    const [kind, specifier, file] = args;
    const [name, payloads] = Object.entries(JSON.parse(fs.readFileSync(file, "utf8")))[0];
    const start = performance.now();
    const pkg = kind === "esm" ? await import(specifier) : require(specifier);
    const loaded = performance.now();
    pkg.isValid(name, payloads[0]);
    process.stdout.write(JSON.stringify({ load_ms: loaded - start, first_ms: performance.now() - loaded }));
  } else {
    const [file, seconds] = args;
    const { isValid } = require("chatschema");
    const out = {};
    for (const [name, payloads] of Object.entries(JSON.parse(fs.readFileSync(file, "utf8")))) {
      out[name] = rate(isValid, name, payloads, Number(seconds), cpuMs);
    }
    process.stdout.write(JSON.stringify(out));
  }
}

main().catch((err) => {
  process.stderr.write(`bench: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
