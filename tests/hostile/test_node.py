"""Issues 2 and 8 in Node: violations bounded, isValid fast, validate throws on a single violation."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from chatschema import schemas
from tests.node import PACKAGE, node_env, run_node

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


# The start of a Node script reading {"package", ...} on stdin: `input`, the package `c`, `nested(n)`.
READ_INPUT = """
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const c = require(input.package);
  const nested = (levels) => { let x = 1; for (let i = 0; i < levels; i++) x = [x]; return x; };
"""

HOSTILE = (
    READ_INPUT
    + """  const docent = require(input.package + "/docent");
  const out = {};
  for (const levels of input.levels) {
    const payload = { role: "user", content: "hi", x: nested(levels) };
    out[levels] = [c.isValid("docent/ChatMessage", payload), docent.isUserMessage(payload),
                   c.violations("docent/ChatMessage", payload)];
  }
  const cyclic = { role: "user", content: "hi" };
  cyclic.self = cyclic;
  out.cyclic = [c.isValid("docent/ChatMessage", cyclic), c.violations("docent/ChatMessage", cyclic)];
  try {
    c.validate("docent/ChatMessage", cyclic);
  } catch (e) {
    out.cyclicError = [e.name, e.omitted, e.message];
  }
  // values quoted in messages: bounded whatever their size or depth (no RangeError)
  out.quoted = input.quoted.map(([name, payload]) =>
    c.violations(name, payload).map((v) => v.message.length));
  out.deepEnum = c.violations("swarm/ISwarmMessage", { role: "user", content: "a", agentName: "a", mode: nested(20000) })
    .map((v) => v.message.length);
  out.paths = c.violations("docent/ToolParams", input.keys).map((v) => v.path);
  process.stdout.write(JSON.stringify(out));
});
"""
)


def test_node_applies_python_s_depth_rule_quotes_short_and_escapes_paths(tmp_path: Path) -> None:
    script = tmp_path / "hostile.cjs"
    script.write_text(HOSTILE)
    keys = {"type": "object", "properties": {"a\nfake.jsonl:9: x\x1b[31m": 5, "k" * 200: 5, "it's": 5, "\u2028": 5}}
    quoted = [
        ["swarm/ISwarmMessage", {"role": "user", "content": "a", "agentName": "a", "mode": "x" * 1_000_000}],
        ["swarm/ISwarmMessage", {"role": "user", "content": "a", "agentName": "a", "mode": ["y" * 50] * 100_000}],
        ["swarm/ISwarmMessage", {"role": "user", "content": "a", "agentName": "a", "mode": {"k": "z" * 100_000}}],
        ["docent/ChatMessage", {"role": "\x1b" + "x" * 1_000_000}],
    ]
    levels = [1022, 1023, 1024, 100_000]
    out = run_node(script, {"package": str(PACKAGE), "levels": levels, "quoted": quoted, "keys": keys})
    too_deep = [
        {
            "path": "$",
            "message": "nesting too deep: more than 1024 levels",
            "keyword": "maxDepth",
            "instancePath": "",
            "schemaPath": "",  # the package's rule, no schema keyword
            "params": {"limit": 1024},
        }
    ]
    for n in levels:  # the object is one level: 1 + 1023 is the deepest allowed, as in Python
        payload: Any = 1
        for _ in range(min(n, 1100)):
            payload = [payload]
        message = {"role": "user", "content": "hi", "x": payload}
        assert out[str(n)][0] == out[str(n)][1] == schemas.is_valid(message, "docent/ChatMessage") == (n <= 1023)
        assert out[str(n)][2] == ([] if n <= 1023 else too_deep)
    assert out["cyclic"] == [False, too_deep]
    assert out["cyclicError"] == [
        "PayloadError",
        0,
        "payload is not a valid docent/ChatMessage (1 violation):\n  $: nesting too deep: more than 1024 levels",
    ]
    for lengths in [*out["quoted"], out["deepEnum"]]:
        assert lengths and all(length < 250 for length in lengths), lengths
    assert out["paths"] == [v.path for v in schemas.violations(keys, "docent/ToolParams")]
    assert "$.properties['a\\u000afake.jsonl:9: x\\u001b[31m']" in out["paths"]


SHARED = """
const c = require(process.argv[2]);
let shared = [];
for (let i = 0; i < 40; i++) shared = [shared, shared];  // 2**40 paths to 41 arrays
let tooDeep = [];
for (let i = 0; i < 1024; i++) tooDeep = [tooDeep, tooDeep];
process.stdout.write(JSON.stringify([
  c.isValid("docent/ChatMessage", { role: "user", content: "hi", extra: shared }),
  c.violations("docent/ChatMessage", { role: "user", content: "hi", extra: shared }),
  c.violations("docent/ChatMessage", { role: "user", content: "hi", extra: tooDeep }).map((v) => v.keyword),
]));
"""


def test_node_walks_a_part_shared_under_many_keys_once_per_depth(tmp_path: Path) -> None:
    # It used to walk every path: `d = [d, d]` 40 times over never finished. A time-out here is a hang.
    script = tmp_path / "shared.cjs"
    script.write_text(SHARED)
    node = shutil.which("node")
    assert node is not None
    proc = subprocess.run(
        [node, str(script), str(PACKAGE)], capture_output=True, text=True, env=node_env(), timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [True, [], ["maxDepth"]]


DEPTH_AFTER_VERDICT = (
    READ_INPUT
    + """  const { makeApi } = require(input.package + "/core.js");
  const out = {};
  const refused = { role: "user", content: 5, x: nested(1100) };
  out.refused = [c.isValid("docent/ChatMessage", refused), c.violations("docent/ChatMessage", refused).map((v) => v.keyword)];
  // The per-type guards decide alike: the walk reads only what the validator accepts.
  const { isChatMessage } = require(input.package + "/docent.js");
  const unread = {
    role: 5,
    get content() {
      throw new Error("the walk read a payload the validator refuses");
    },
  };
  const holdsItself = { role: "user", content: "hi", metadata: {} };
  holdsItself.metadata.self = holdsItself;
  const guarded = [refused, { role: "user", content: "hi", metadata: { x: nested(1100) } }, { role: "user", content: "hi" }, unread, holdsItself];
  out.guards = guarded.map((payload) => [isChatMessage(payload), c.isValid("docent/ChatMessage", payload)]);
  // No shipped schema recurses; a validator that does (down every array) overflows on a deep payload.
  const recursing = (value) => {
    recursing.errors = null;
    return !Array.isArray(value) || value.every(recursing);
  };
  const overflowing = () => {
    throw new RangeError("Maximum call stack size exceeded");
  };
  const api = makeApi([{ name: "t", all: { R: recursing, O: overflowing }, first: { R: recursing, O: overflowing }, tags: {} }]);
  const cyclic = [];
  cyclic.push(cyclic);
  out.overflow = [nested(200000), cyclic, nested(1100), nested(1000)].map((payload) => [
    api.isValid("t/R", payload),
    api.violations("t/R", payload).map((v) => v.keyword),
  ]);
  out.rethrown = ["isValid", "violations"].map((how) => {
    try {
      api[how]("t/O", [1]);
      return "returned";
    } catch (e) {
      return e instanceof RangeError ? e.message : String(e);
    }
  });
  process.stdout.write(JSON.stringify(out));
});
"""
)


def test_the_depth_rule_decides_what_the_validators_accept_and_what_overflows_them(tmp_path: Path) -> None:
    # A payload the schema refuses is invalid at any depth: its violations are the schema's (Python,
    # which refuses the depth before validating, lists the depth); both say it is invalid.
    script = tmp_path / "depth.cjs"
    script.write_text(DEPTH_AFTER_VERDICT)
    out = run_node(script, {"package": str(PACKAGE)})
    refused: Any = 1
    for _ in range(1100):
        refused = [refused]
    python = schemas.violations({"role": "user", "content": 5, "x": refused}, "docent/ChatMessage")
    assert [v.keyword for v in python] == ["maxDepth"]
    assert out["refused"] == [False, ["type", "type", "anyOf"]]
    assert out["guards"] == [[False, False], [False, False], [True, True], [False, False], [False, False]]
    # A validator that overflows on a payload deeper than the rule: the rule's verdict; within the
    # rule, an overflow is the caller's RangeError, as before.
    assert out["overflow"] == [[False, ["maxDepth"]], [False, ["maxDepth"]], [False, ["maxDepth"]], [True, []]]
    assert out["rethrown"] == ["Maximum call stack size exceeded"] * 2
