// Reassemble one Letta stream of many numbered frames with the npm package (tests/test_letta_stream.py).
// stdin: {"package": "<npm>", "frames": N}; stdout: {"messages": <count>, "last_seq_id": <n>}
"use strict";

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const stream = require(`${input.package}/stream.js`);
  const frames = [];
  for (let i = 1; i <= input.frames; i++) {
    const id = `message-${i}`;
    frames.push(`data: {"id":"${id}","date":"2025-10-01T12:30:45Z","message_type":"assistant_message","otid":"${id}-0","seq_id":${i},"content":"x"}\n\n`);
  }
  frames.push('data: {"message_type":"stop_reason","stop_reason":"end_turn"}\n\ndata: [DONE]\n\n');
  const result = stream.reassembleSse(frames.join(""), { complete: true });
  process.stdout.write(JSON.stringify({ messages: result.messages.length, last_seq_id: result.lastSeqId }));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(1);
});
