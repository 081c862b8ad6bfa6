// violations() against ajv's all-errors validator on the same invalid payloads (bench/violations.py).
// argv: <corpus.json> <package dir>...; corpus: {"<group>": [{"schema": "<family>/<Type>", "payload"}]}
// stdout: {"<package dir>": {"<group>": {"violations": msg/s, "ajv": msg/s, "payloads": count}}} (rates null
// when no payload of the group has a type every package has)
// Per second of the process's CPU time; the contenders take turns in rounds, the median is kept.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [corpusFile, ...packages] = process.argv.slice(2);
const corpus = JSON.parse(fs.readFileSync(corpusFile, "utf8"));
const ROUNDS = 7;
const SECONDS = 0.4;

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

// Calls between two readings of the clock: a reading costs about a microsecond, as much as several
// calls, and read after every pass over a short list it would add the same cost to both contenders
// and pull their ratio towards 1.
const CALLS_PER_READING = 2000;

// Messages/s of `work` over `cases` repeated for about SECONDS of CPU time.
function rate(cases, work) {
  const passes = Math.ceil(CALLS_PER_READING / cases.length);
  let done = 0;
  let sink = 0;
  const start = cpu();
  let spent = 0;
  while (spent < SECONDS) {
    for (let r = 0; r < passes; r += 1) for (let i = 0; i < cases.length; i += 1) sink += work(cases[i]);
    done += passes * cases.length;
    spent = cpu() - start;
  }
  if (sink < 0) throw new Error("unreachable");
  return done / spent;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function load(dir) {
  const esm = path.join(dir, "esm");
  const api = await import(pathToFileURL(path.join(esm, "index.js")).href);
  const validators = {};
  for (const family of ["bridgic", "docent", "letta", "swarm"]) {
    validators[family] = await import(pathToFileURL(path.join(esm, "validators", `${family}.js`)).href);
  }
  return { api, validators };
}

// Every package is timed on the same payloads, those whose type all of them have (an older package
// lacks the types added since), so that before and now compare like with like.
const loaded = [];
for (const dir of packages) loaded.push([dir, await load(dir)]);
const common = (schema) => loaded.every(([, { api }]) => (api.schemaNames || []).includes(schema));

const out = {};
for (const [dir, { api, validators }] of loaded) {
  out[dir] = {};
  for (const [group, all] of Object.entries(corpus)) {
    const items = all.filter(({ schema }) => common(schema));
    if (items.length === 0) {
      out[dir][group] = { violations: null, ajv: null, payloads: 0 };
      continue;
    }
    // each contender its own copies of the payloads, parsed alike
    const copy = () =>
      items.map(({ schema, payload }) => {
        const [family, type] = schema.split("/");
        return { schema, fn: validators[family][type], payload: structuredClone(payload) };
      });
    const contenders = {
      violations: [copy(), (c) => api.violations(c.schema, c.payload).length],
      ajv: [copy(), (c) => (c.fn(c.payload) ? 0 : c.fn.errors.length)],
    };
    const rates = { violations: [], ajv: [] };
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const [name, [cases, work]] of Object.entries(contenders)) rates[name].push(rate(cases, work));
    }
    out[dir][group] = { violations: median(rates.violations), ajv: median(rates.ajv), payloads: items.length };
  }
}
process.stdout.write(JSON.stringify(out));
