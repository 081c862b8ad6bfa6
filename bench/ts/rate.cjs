// isValid's rate on a list of payloads, shared by the Node and the browser halves of bench/ts.py.
"use strict";

/** Messages/s of `isValid(name, payload)` over `payloads` repeated for about `seconds`, after one warm-up round. */
function rate(isValid, name, payloads, seconds) {
  for (const p of payloads) isValid(name, p);
  let done = 0;
  const start = performance.now();
  const until = start + seconds * 1000;
  let now = start;
  while (now < until) {
    for (let r = 0; r < 100; r++) for (const p of payloads) isValid(name, p);
    done += 100 * payloads.length;
    now = performance.now();
  }
  return done / ((now - start) / 1000);
}

module.exports = { rate };
