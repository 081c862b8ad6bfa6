// isValid's rate on a list of payloads, shared by the Node and the browser halves of bench/ts.py.
"use strict";

/** Messages/s of `isValid(name, payload)` over `payloads` repeated for about `seconds` of `clock`
 * (milliseconds; wall time unless given, Node passes its CPU time), after one warm-up round. */
function rate(isValid, name, payloads, seconds, clock = () => performance.now()) {
  for (const p of payloads) isValid(name, p);
  let done = 0;
  const start = clock();
  const until = start + seconds * 1000;
  let now = start;
  while (now < until) {
    for (let r = 0; r < 100; r++) for (const p of payloads) isValid(name, p);
    done += 100 * payloads.length;
    now = clock();
  }
  return done / ((now - start) / 1000);
}

module.exports = { rate };
