// The events of the npm package's SSE reader (stream.js iterSseEvents) for each body given as its
// chunks (tests/test_letta_stream.py compares them with Python's).
// stdin: {"package": "<npm>", "bodies": [[chunk, ...], ...]}, a chunk a string or {"bytes": [n, ...]}
// stdout: [[[type, data, lastEventId, retry, line, terminated], ..., maybe "not UTF-8" last] per body]
"use strict";

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const { iterSseEvents } = require(`${input.package}/stream.js`);
  const chunksOf = (body) => body.map((c) => (typeof c === "string" ? c : Uint8Array.from(c.bytes)));
  const out = input.bodies.map((body) => {
    const events = [];
    try {
      for (const e of iterSseEvents(chunksOf(body))) events.push([e.type, e.data, e.lastEventId, e.retry, e.line, e.terminated]);
    } catch (err) {
      if (!(err instanceof TypeError)) throw err; // TextDecoder's on bytes that are not UTF-8
      events.push("not UTF-8");
    }
    return events;
  });
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(1);
});
