// The browser app of tests/test_browser.py, bundled by esbuild from the installed package: validate
// every test vector and reassemble every Letta stream vector, whole and as fetched from the test
// server (tests/csp_server.py) as it arrives, and leave the results in window.__chatschema for the
// test to compare with Node's and Python's.
import { isValid, violations } from "chatschema";
import * as stream from "chatschema/stream";
import { reassembleVector, summary } from "./stream_summary.cjs";

// A stream example fetched in pieces, `response.body` read by reassembleSseStream: its events (as
// tests/node/stream_async.cjs logs them), and whether a message came while the server held back the
// body's last two bytes (it sends them once asked: at the first message, or at the end).
async function overFetch(v) {
  const log = [];
  let early = false;
  try {
    const response = await fetch(`sse/${v.name}`);
    for await (const ev of stream.reassembleSseStream(response.body, v.options)) {
      if (ev.type === "end") log.push(["end", summary(ev.result)]);
      else log.push(ev.type === "withdrawn" ? ["withdrawn", ev.index] : [ev.type, ev.index, ev.message]);
      if (v.held && !early && ev.type === "message") {
        early = true;
        await fetch(`release/${v.name}`);
      }
    }
  } catch (err) {
    if (!(err instanceof stream.StreamError)) throw err;
    log.push(["error", `StreamError: ${err.message}`]);
  } finally {
    if (v.held && !early) await fetch(`release/${v.name}`);
  }
  return { log, early };
}

// An abort at the first message of a held body: the loop throws the signal's reason, as fetch does.
async function abortOverFetch(name) {
  const controller = new AbortController();
  const seen = [];
  let error = null;
  try {
    const response = await fetch(`sse/${name}`, { signal: controller.signal });
    for await (const ev of stream.reassembleSseStream(response.body, { signal: controller.signal })) {
      seen.push(ev.type);
      if (ev.type === "message") controller.abort();
    }
  } catch (err) {
    error = { name: err.name, DOMException: err instanceof DOMException };
  }
  await fetch(`release/${name}`);
  return { seen, error };
}

// The sizes of the chunks fetch delivers for a body (the server's pieces, as far as the network kept them).
async function chunkSizes(name) {
  const reader = (await fetch(`sse/${name}`)).body.getReader();
  const sizes = [];
  for (let step = await reader.read(); !step.done; step = await reader.read()) sizes.push(step.value.length);
  return sizes;
}

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
  const fetched = {};
  for (const v of data.fetched) fetched[v.name] = await overFetch(v);
  const chunks = {};
  for (const name of data.raw) chunks[name] = await chunkSizes(name);
  return { verdicts, streams, fetched, aborted: await abortOverFetch(data.abort), chunks };
}

main().then(
  (result) => {
    window.__chatschema = result;
  },
  (err) => {
    window.__chatschema = { error: `${err && err.name}: ${err && err.message}` };
  },
);
