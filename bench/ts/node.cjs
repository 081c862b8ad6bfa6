// Timings of the npm package in Node for bench/ts.py, run in a project with the package in
// node_modules. One process per call, so the load time is that of a fresh process.
//   node node.cjs load cjs|esm <corpus.json>  -> {"load_ms", "first_ms"}
//   node node.cjs rate <corpus.json> <seconds> -> {"<union>": messages per CPU second, ...}
// corpus.json: {"<union>": [payload, ...]} (the union's test vectors, valid and invalid).
"use strict";
const fs = require("fs");
const { performance } = require("perf_hooks");
const { rate } = require("./rate.cjs");

async function load(kind) {
  const start = performance.now();
  const pkg = kind === "esm" ? await import("chatschema") : require("chatschema");
  return { pkg, ms: performance.now() - start };
}

/** This process's CPU time in ms: on a shared machine a fairer clock than the wall. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function main() {
  const [mode, arg, file, seconds] = process.argv.slice(2);
  if (mode === "load") {
    const corpus = JSON.parse(fs.readFileSync(file, "utf8"));
    const { pkg, ms } = await load(arg);
    const [name, payloads] = Object.entries(corpus)[0];
    const start = performance.now();
    pkg.isValid(name, payloads[0]);
    process.stdout.write(JSON.stringify({ load_ms: ms, first_ms: performance.now() - start }));
  } else {
    const corpus = JSON.parse(fs.readFileSync(arg, "utf8"));
    const { pkg } = await load("cjs");
    const out = {};
    for (const [name, payloads] of Object.entries(corpus)) out[name] = rate(pkg.isValid, name, payloads, Number(file), cpuMs);
    process.stdout.write(JSON.stringify(out));
  }
}

main().catch((err) => {
  process.stderr.write(`bench: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
