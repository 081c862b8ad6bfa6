// The control page: under `script-src 'self'` this eval must be refused and reported, or the
// browser test proves nothing.
"use strict";
let outcome;
try {
  outcome = new Function("return 'ran'")();
} catch (err) {
  outcome = err.name;
}
window.__probe = { outcome };
