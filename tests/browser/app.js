// The browser app of tests/test_browser.py, bundled by esbuild from the installed package: validate
// every test vector and reassemble every Letta stream vector, and leave the results in
// window.__chatschema for the test to compare with Node's and Python's.
import { isValid, violations } from "chatschema";
import * as stream from "chatschema/stream";
import { reassembleVector } from "./stream_summary.cjs";

async function main() {
  const data = await (await fetch("data.json")).json();
  const verdicts = {};
  for (const v of data.vectors) {
    verdicts[v.id] = {
      valid: isValid(v.schema, v.payload),
      violations: violations(v.schema, v.payload).map((x) => `${x.path}: ${x.message}`),
    };
  }
  const streams = {};
  for (const v of data.streams) streams[v.name] = reassembleVector(stream, v);
  return { verdicts, streams };
}

main().then(
  (result) => {
    window.__chatschema = result;
  },
  (err) => {
    window.__chatschema = { error: `${err && err.name}: ${err && err.message}` };
  },
);
