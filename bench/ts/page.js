// The browser half of bench/ts.py: isValid's rate on the same corpus as in Node, in the page.
import { isValid } from "chatschema";
import { rate } from "./rate.cjs";

async function main() {
  const { corpus, seconds } = await (await fetch("corpus.json")).json();
  const out = {};
  for (const [name, payloads] of Object.entries(corpus)) out[name] = rate(isValid, name, payloads, seconds);
  return out;
}

main().then(
  (rates) => (window.__bench = rates),
  (err) => (window.__bench = { error: `${err && err.name}: ${err && err.message}` }),
);
