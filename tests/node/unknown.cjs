// The npm package's unknown-variant policy on every union (tests/test_unknown_variants.py gives the
// payloads: a later type's, valid and invalid known ones, a non-string tag).
// stdin: {"package": "<npm>", "unions": [{"name", "family", "type", "future", "valid": [...], "invalid": [...], "badTag"}]}
// stdout: {"<name>": {<check>: <result>}}
"use strict";

function outcome(fn) {
  try {
    return fn();
  } catch (err) {
    return `${err.name}: ${err.message.split("\n")[0]}`;
  }
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const root = require(`${input.package}/index.js`);
  const out = {};
  for (const u of input.unions) {
    const family = require(`${input.package}/${u.family}.js`);
    const guard = family[`is${u.type}`];
    const unknownGuard = family[`isUnknown${u.type}`];
    const keep = { unknown: "keep" };
    out[u.name] = {
      guardStrict: guard(u.future),
      guardKeep: guard(u.future, keep),
      guardError: guard(u.future, { unknown: "error" }),
      unknownGuard: unknownGuard(u.future),
      unknownGuardOnKnown: u.valid.map((p) => unknownGuard(p)),
      isValidStrict: [root.isValid(u.name, u.future), family.isValid(u.name, u.future)],
      isValidKeep: [root.isValid(u.name, u.future, keep), family.isValid(u.name, u.future, keep)],
      violationsKeep: root.violations(u.name, u.future, keep).length,
      violationsStrict: root.violations(u.name, u.future).map((v) => v.message),
      parseKeep: root.parse(u.name, u.future, keep) === u.future,
      parseStrict: outcome(() => root.parse(u.name, u.future)),
      validKnown: u.valid.map((p) => [guard(p, keep), root.isValid(u.name, p, keep)]),
      invalidKnown: u.invalid.map((p) => [guard(p, keep), root.isValid(u.name, p, keep), root.violations(u.name, p, keep).length > 0]),
      invalidSame: u.invalid.every((p) => JSON.stringify(root.violations(u.name, p, keep)) === JSON.stringify(root.violations(u.name, p))),
      badTag: [guard(u.badTag, keep), root.isValid(u.name, u.badTag, keep)],
      badMode: outcome(() => root.isValid(u.name, u.future, { unknown: "allow" })),
      badModes: [5, true, null, [], {}, () => 1].map((mode) => outcome(() => root.isValid(u.name, u.future, { unknown: mode }))),
    };
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err));
  process.exit(1);
});
