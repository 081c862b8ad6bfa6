// Each schema pattern judged in ECMAScript as ajv compiles it (the `u` flag), and by recheck, a
// maintained ReDoS analysis: a pattern whose matching time can grow faster than linearly with the
// input (catastrophic backtracking) would let one payload stall every backtracking validator.
// stdin: ["<pattern>", ...]; stdout: [{"syntax": "" | why, "redos": "" | why}, ...]
"use strict";

const { checkSync } = require("recheck");

const TIMEOUT_MS = 5000; // per pattern: past it, the pattern is not proven safe

function judge(pattern) {
  try {
    new RegExp(pattern, "u");
  } catch (err) {
    return { syntax: String(err.message), redos: "" };
  }
  const result = checkSync(pattern, "u", { timeout: TIMEOUT_MS });
  if (result.status === "safe") return { syntax: "", redos: "" };
  if (result.status === "vulnerable") {
    const growth = result.complexity.type === "exponential" ? "exponentially" : "polynomially";
    const attack = result.attack ? ` (e.g. on ${result.attack.pattern})` : "";
    return { syntax: "", redos: `its matching time grows ${growth} with the input's length${attack}` };
  }
  const why = result.error ? result.error.kind || String(result.error) : "unknown";
  return { syntax: "", redos: `it could not be proven free of catastrophic backtracking (${why})` };
}

const patterns = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(patterns.map(judge)));
