"""Issues 2 and 8 in Node: violations bounded, isValid fast, validate throws on a single violation."""

from __future__ import annotations

from pathlib import Path

from tests.node import PACKAGE, run_node

SCRIPT = """
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const c = require(input.package);
  const out = input.cases.map(({ schema, payload }) => {
    const valid = c.isValid(schema, payload);
    try {
      c.validate(schema, payload);
      return { valid, thrown: false };
    } catch (e) {
      const first = e.message.split("\\n")[0];
      return { valid, thrown: e instanceof c.PayloadError, count: e.violations.length, omitted: e.omitted, message: first };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def test_validate_throws_on_one_violation_and_caps_many(tmp_path: Path) -> None:
    script = tmp_path / "bounded.cjs"
    script.write_text(SCRIPT)
    parts = [{"type": "image"}] * 100_000  # 52 s when errors were appended by concat (quadratic), 0.4 s now
    cases = [
        {"schema": "docent/ChatMessage", "payload": {"role": "user"}},
        {"schema": "docent/ChatMessage", "payload": {"role": "user", "content": parts}},
        {"schema": "docent/ChatMessage", "payload": {"role": "user", "content": "hi"}},
        {"schema": "docent/ChatMessage", "payload": {"role": "user", "content": parts[:25]}},
    ]
    one, many, valid, few = run_node(script, {"package": str(PACKAGE), "cases": cases})
    assert many["omitted"] - few["omitted"] == 100_000 - 25  # one more violation per bad part, each counted once
    assert one == {
        "valid": False,
        "thrown": True,
        "count": 1,
        "omitted": 0,
        "message": "payload is not a valid docent/ChatMessage (1 violation):",
    }
    assert many["valid"] is False and many["thrown"] is True and many["count"] == 20
    assert many["omitted"] >= 100_000 - 20
    assert many["message"].endswith("violations, the first 20 shown):")
    assert valid == {"valid": True, "thrown": False}


def test_no_validator_appends_errors_by_copying_them() -> None:
    # ajv's standalone code appends a called validator's errors with `vErrors.concat(...)`, a copy
    # of every error so far for each failing array item: quadratic (100,000 bad parts took 52 s).
    # codegen/node/standalone.cjs rewrites it to append in place, in the ES and CommonJS builds alike.
    validators = sorted(PACKAGE.glob("validators/*.js")) + sorted(PACKAGE.glob("esm/validators/*.js"))
    assert len(validators) >= 16
    for path in validators:
        code = path.read_text(encoding="utf-8")
        assert ".concat(" not in code, path
