// The keyword helpers of the npm package (esm/keywords.js) on the values given on stdin
// (tests/test_keyword_helpers.py). stdin: {"package": "<npm>", "steps": [[value, step]], "strings": [...], "pairs": [[a, b]]}
"use strict";

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const k = await import(`${input.package}/esm/keywords.js`);
  process.stdout.write(
    JSON.stringify({
      multipleOf: input.steps.map(([value, step]) => k.multipleOf(value, step)),
      lengths: input.strings.map((s) => k.ucs2length(s)),
      equal: input.pairs.map(([a, b]) => k.equal(a, b)),
    }),
  );
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(1);
});
