// The package's format and pattern verdicts for the strings given on stdin (tests/test_formats.py).
// stdin: {"package": "<npm>", "date_times": [...], "timestamps": [...]}
"use strict";

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const pkg = require(input.package);
  const base = { id: "message-1", message_type: "system_message", content: "x" };
  process.stdout.write(
    JSON.stringify({
      isDateTime: input.date_times.map((s) => pkg.isDateTime(s)),
      letta: input.date_times.map((s) => pkg.isValid("letta/SystemMessage", { ...base, date: s })),
      bridgic: input.timestamps.map((s) => pkg.isValid("bridgic/TokenUsage", { model: "m", timestamp: s })),
    }),
  );
}

main().catch((err) => {
  process.stderr.write(`formats: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
