"""The npm package (npm/) agrees with Python: ajv verdicts and TypeScript types.

- ajv, through the package's `isValid`, gives every vector the same verdict as Python's jsonschema
  and as the vector's folder says (one Node process for all vectors; disagreements must be listed
  in tests/allowlist.py with side "ajv").
- `tsc --strict --noEmit` accepts every valid vector typed as its generated type with `satisfies`,
  and rejects (`// @ts-expect-error`) every invalid vector that is invalid for a type-level reason.

Which invalid vectors are type-level (TypeScript's type system can see the reason) is decided from
Python's own explanation of the failure (`chatschema.schemas.violations`): a vector is type-level
when at least one violation is a missing required key (`required`), a wrong tag or literal
(`const`, `enum`, `discriminator`), or a wrong JSON type (`type`) that TypeScript tells apart (not a
non-integral number where an integer is expected: TypeScript has only `number`). Formats, patterns,
bounds, lengths and `not` are runtime-only.

The swarm family's types are closed, like agent-swarm-kit's own interfaces (an unknown key in an
object literal is a compile error there), while its schemas accept unknown keys. So a valid swarm
vector that carries a key the schema does not declare is expected to fail `satisfies` too (it is
typed in the compile-fail file), and agent-swarm-kit's documented examples and negative cases
(from its README) are checked at compile time.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from chatschema import schemas
from codegen.families import CLOSED_TS_FAMILIES
from tests.allowlist import ALLOWLIST
from tests.node import HERE, PACKAGE, ajv_verdicts, run_node, tsc
from tests.vectors import Vector, all_vectors

VECTORS = all_vectors()
BUNDLES = Path(__file__).parent.parent / "generated" / "schemas"

# --- ajv vs Python ------------------------------------------------------------------------------


def _allowed(vector: Vector, side: str) -> bool:
    return any(e.side == side and e.covers(vector.id) for e in ALLOWLIST)


def test_ajv_compiles_every_schema_in_strict_mode() -> None:
    assert ajv_verdicts()[""]["compiled"] == len(schemas.names())


def test_ajv_saw_every_vector() -> None:
    assert sorted(ajv_verdicts()) == sorted(["", *(v.id for v in VECTORS)])


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.id)
def test_ajv_agrees_with_python(vector: Vector) -> None:
    python = not schemas.violations(vector.load(), vector.schema_name)
    got = ajv_verdicts()[vector.id]
    for side, verdict in (("ajv", got["files"]), ("ajv-bundle", got["bundle"])):
        if verdict is not python or verdict is not vector.valid:
            assert _allowed(vector, side), (
                f"{vector.id}: {side} says {'valid' if verdict else 'invalid'}, python-jsonschema says "
                f"{'valid' if python else 'invalid'}, the vector is {'valid' if vector.valid else 'invalid'}; "
                f"ajv: {got['violations']}; python: {schemas.violations(vector.load(), vector.schema_name)}"
            )


def test_ajv_allowlist_entries_are_all_hit() -> None:
    stale = [
        f"{entry.id}: {pattern}"
        for entry in ALLOWLIST
        if entry.side in ("ajv", "ajv-bundle")
        for pattern in sorted(entry.vectors)
        if not any(
            e_hit
            for v in VECTORS
            if entry.covers(v.id)
            for e_hit in [ajv_verdicts()[v.id]["files" if entry.side == "ajv" else "bundle"] is not v.valid]
        )
    ]
    assert not stale, "allowlist patterns that match no ajv disagreement: " + ", ".join(stale)


# --- which vectors TypeScript must accept or reject -----------------------------------------------


def _at(payload: Any, json_path: str) -> Any:
    """The value at a JSONPath of the form `$.a[0].b` (as `schemas.violations` reports)."""
    node = payload
    for key, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", json_path.removeprefix("$")):
        node = node[int(index)] if index else node[key]
    return node


def _type_level(violation: schemas.Violation, payload: Any) -> bool:
    if violation.keyword in ("required", "const", "enum", "discriminator"):
        return True
    if violation.keyword == "type":
        value = _at(payload, violation.path)
        expected = set(re.findall(r"'([a-z]+)'", violation.message.rsplit(" is not of type ", 1)[-1]))
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return not (number and "integer" in expected)
    return False


def type_level_invalid(vector: Vector) -> bool:
    """Whether an invalid vector is invalid for a reason TypeScript's types express (module docstring)."""
    payload = vector.load()
    return any(_type_level(v, payload) for v in schemas.violations(payload, vector.schema_name))


def _close(node: Any) -> Any:
    """A copy of a schema in which every object with `properties` refuses undeclared keys."""
    if isinstance(node, dict):
        out = {k: (v if k in ("const", "default", "enum", "examples") else _close(v)) for k, v in node.items()}
        if "properties" in node and "additionalProperties" not in node:
            out["additionalProperties"] = False
        return out
    if isinstance(node, list):
        return [_close(item) for item in node]
    return node


@cache
def _closed_validator(family: str, type_name: str) -> Draft202012Validator:
    bundle = _close(json.loads((BUNDLES / f"{family}.bundle.json").read_text(encoding="utf-8")))
    return Draft202012Validator(
        {**bundle, "$ref": f"#/$defs/{type_name}"},
        format_checker=schemas.FORMAT_CHECKER,
    )


def has_undeclared_keys(vector: Vector) -> bool:
    """Whether a valid vector of a closed-types family is valid only because the schema is open."""
    if vector.family not in CLOSED_TS_FAMILIES:
        return False
    return not _closed_validator(vector.family, vector.type_name).is_valid(vector.load())


TS_ACCEPTS = [v for v in VECTORS if v.valid and not has_undeclared_keys(v)]
TS_REJECTS = [v for v in VECTORS if (not v.valid and type_level_invalid(v)) or (v.valid and has_undeclared_keys(v))]


def test_vector_classification_is_not_empty() -> None:
    assert len(TS_ACCEPTS) > 300
    assert len(TS_REJECTS) > 100
    assert {v.family for v in TS_REJECTS} == {v.family for v in VECTORS}


# --- tsc -------------------------------------------------------------------------------------------


def _imports(families: set[str]) -> str:
    return "".join(f'import type * as {f} from "{(PACKAGE / "types" / f).as_posix()}";\n' for f in sorted(families))


def _literal(vector: Vector) -> str:
    return json.dumps(vector.load(), ensure_ascii=False, indent=1)


def _write(path: Path, body: list[str], families: set[str]) -> None:
    path.write_text(_imports(families) + "\n" + "\n".join(body) + "\n", encoding="utf-8")


def _run_tsc(tmp_path: Path, name: str) -> str:
    proc = tsc(
        "--strict", "--noEmit", "--target", "es2022", "--module", "commonjs", "--skipLibCheck", name, cwd=tmp_path
    )
    return proc.stdout + proc.stderr if proc.returncode != 0 else ""


def test_tsc_accepts_every_valid_vector(tmp_path: Path) -> None:
    body = [
        f"// {v.id}\nexport const v{i} = {_literal(v)} satisfies {v.family}.{v.type_name};"
        for i, v in enumerate(TS_ACCEPTS)
    ]
    _write(tmp_path / "valid.ts", body, {v.family for v in TS_ACCEPTS})
    assert _run_tsc(tmp_path, "valid.ts") == ""


def test_tsc_rejects_type_level_invalid_vectors(tmp_path: Path) -> None:
    # @ts-expect-error applies to the next line only, so each literal is written on one line.
    body = [
        f"// {v.id}\n// @ts-expect-error\nexport const v{i} = {json.dumps(v.load(), ensure_ascii=False)} "
        f"satisfies {v.family}.{v.type_name};"
        for i, v in enumerate(TS_REJECTS)
    ]
    _write(tmp_path / "invalid.ts", body, {v.family for v in TS_REJECTS})
    assert _run_tsc(tmp_path, "invalid.ts") == ""


def test_tsc_fails_on_a_wrong_vector(tmp_path: Path) -> None:
    """The harness itself: a type error is reported, and an unused @ts-expect-error too."""
    _write(
        tmp_path / "bad.ts",
        ['export const x = {"role": "nobody", "content": ""} satisfies docent.ChatMessage;'],
        {"docent"},
    )
    assert "bad.ts" in _run_tsc(tmp_path, "bad.ts")
    _write(
        tmp_path / "unused.ts",
        ['// @ts-expect-error\nexport const x = {"role": "user", "content": ""} satisfies docent.ChatMessage;'],
        {"docent"},
    )
    assert "TS2578" in _run_tsc(tmp_path, "unused.ts")


# --- agent-swarm-kit's documented examples -----------------------------------------------------------

SWARM_EXAMPLES: dict[str, tuple[str, dict[str, Any]]] = {
    "A1": (
        "ITool",
        {
            "type": "function",
            "function": {
                "name": "search",
                "description": "Performs a search query",
                "parameters": {
                    "type": "object",
                    "required": ["query"],
                    "properties": {
                        "query": {"type": "string", "description": "The search term to query"},
                        "sort": {"type": "string", "description": "Sort direction", "enum": ["asc", "desc"]},
                    },
                },
            },
        },
    ),
    "A2": (
        "ITool",
        {
            "type": "function",
            "function": {
                "name": "navigate_to_triage",
                "description": "Return to the triage agent",
                "parameters": {"type": "object", "required": [], "properties": {}},
            },
        },
    ),
    "A3": (
        "ISwarmMessage",
        {
            "role": "assistant",
            "agentName": "sales_agent",
            "mode": "tool",
            "content": "",
            "tool_calls": [
                {
                    "id": "call_k3j9x2m1q",
                    "type": "function",
                    "function": {"name": "search", "arguments": {"query": "red shoes", "sort": "asc"}},
                }
            ],
        },
    ),
    "A4": (
        "ISwarmMessage",
        {
            "role": "tool",
            "agentName": "sales_agent",
            "mode": "tool",
            "content": "Found 3 products",
            "tool_call_id": "call_k3j9x2m1q",
        },
    ),
    "A5": (
        "ISwarmMessage",
        {
            "role": "user",
            "agentName": "triage_agent",
            "mode": "user",
            "content": "What is on this picture?",
            "images": ["iVBORw0KGgoAAAANSUhEUgAA..."],
            "payload": None,
        },
    ),
    "A6": (
        "ISwarmMessage",
        {"role": "resque", "agentName": "sales_agent", "mode": "tool", "content": "_resurrectModel call"},
    ),
}

_A3_CALL = SWARM_EXAMPLES["A3"][1]["tool_calls"][0]
# The documented negative cases, each a compile error in agent-swarm-kit (and so in our types).
SWARM_NEGATIVE: dict[str, tuple[str, dict[str, Any], bool]] = {
    # name: (type, payload, schema also rejects it)
    "arguments as a JSON string": (
        "IToolCall",
        {**_A3_CALL, "function": {"name": "search", "arguments": '{"query": "red shoes"}'}},
        True,
    ),
    'type:"custom"': ("IToolCall", {**_A3_CALL, "type": "custom"}, True),
    "an ITool property without description": (
        "ITool",
        {
            "type": "function",
            "function": {
                "name": "search",
                "description": "Performs a search query",
                "parameters": {"type": "object", "required": [], "properties": {"query": {"type": "string"}}},
            },
        },
        True,
    ),
    "content:null": ("ISwarmMessage", {**SWARM_EXAMPLES["A4"][1], "content": None}, True),
    "a missing mode": (
        "ISwarmMessage",
        {k: v for k, v in SWARM_EXAMPLES["A4"][1].items() if k != "mode"},
        True,
    ),
    # The schema accepts unknown keys (agent-swarm-kit stores messages as they are); TypeScript
    # rejects them in object literals only.
    "an unknown key such as name in a message literal": (
        "ISwarmMessage",
        {**SWARM_EXAMPLES["A4"][1], "name": "sales_agent"},
        False,
    ),
}


@pytest.mark.parametrize("example", sorted(SWARM_EXAMPLES))
def test_swarm_examples_are_valid(example: str) -> None:
    type_name, payload = SWARM_EXAMPLES[example]
    assert schemas.violations(payload, f"swarm/{type_name}") == []


@pytest.mark.parametrize("case", sorted(SWARM_NEGATIVE))
def test_swarm_negative_cases_and_the_schema(case: str) -> None:
    type_name, payload, rejected = SWARM_NEGATIVE[case]
    assert bool(schemas.violations(payload, f"swarm/{type_name}")) is rejected


def test_tsc_swarm_examples_and_negative_cases(tmp_path: Path) -> None:
    body = [
        f"// {name}\nexport const ok_{name} = {json.dumps(payload)} satisfies swarm.{type_name};"
        for name, (type_name, payload) in sorted(SWARM_EXAMPLES.items())
    ]
    body += [
        f"// {case}\n// @ts-expect-error\nexport const bad_{i} = {json.dumps(payload)} satisfies swarm.{type_name};"
        for i, (case, (type_name, payload, _)) in enumerate(sorted(SWARM_NEGATIVE.items()))
    ]
    _write(tmp_path / "swarm.ts", body, {"swarm"})
    assert _run_tsc(tmp_path, "swarm.ts") == ""


# --- the typed validate entry point ----------------------------------------------------------------


def test_validate_entry_point_types_and_runs(tmp_path: Path) -> None:
    """`parse(name, payload)` returns the generated type, `validate` asserts it, `isValid` narrows to it."""
    pkg = PACKAGE.as_posix()
    (tmp_path / "use.ts").write_text(
        f'import {{ parse, validate, isValid, violations, PayloadError }} from "{pkg}";\n'
        f'import type {{ letta }} from "{pkg}";\n'
        'const raw: unknown = JSON.parse(\'{"message_type": "assistant_message"}\');\n'
        'const msg: letta.LettaMessage = parse("letta/LettaMessage", raw);\n'
        'const other: unknown = JSON.parse("{}");\n'
        "// @ts-expect-error: unknown before the assertion\n"
        "other.message_type;\n"
        'validate("letta/LettaMessage", other);\n'
        'const tag: letta.LettaMessage["message_type"] = other.message_type;\n'
        'if (isValid("docent/ChatMessage", raw)) { const role: "system" | "user" | "assistant" | "tool" = raw.role; }\n'
        'const v: { path: string; message: string }[] = violations("docent/ChatMessage", raw);\n'
        "// @ts-expect-error: not a schema name\n"
        'validate("docent/NoSuchType", raw);\n'
        "export { msg, tag, v, PayloadError };\n",
        encoding="utf-8",
    )
    assert _run_tsc(tmp_path, "use.ts") == ""


def test_validate_entry_point_in_node_reports_like_python() -> None:
    """In plain Node: `validate` returns a valid payload, and throws PayloadError naming the same places as Python."""
    bad_docent = {"role": "assistant", "content": [{"type": "text", "text": "hi"}], "tool_calls": [{"id": 1}]}
    bad_letta = {"id": "message-1", "date": "yesterday", "message_type": "tool_call_message", "tool_call": {}}
    cases = [
        {"schema": "letta/ToolCallMessage", "payload": v.load()}
        for v in VECTORS
        if v.schema_name == "letta/ToolCallMessage" and v.valid
    ][:1]
    cases += [
        {"schema": "docent/ChatMessage", "payload": bad_docent},
        {"schema": "letta/ToolCallMessage", "payload": bad_letta},
        {"schema": "docent/NoSuchType", "payload": {}},
    ]
    got = run_node(HERE / "entry.cjs", {"package": str(PACKAGE), "cases": cases})
    assert got[0] == {"valid": True, "same": True, "violations": []}
    for case, result in zip(cases[1:3], got[1:3], strict=True):
        python = schemas.violations(case["payload"], case["schema"])
        assert result["valid"] is False
        assert result["message"].startswith(f"payload is not a valid {case['schema']} (")
        assert set(result["paths"]) == {v.path for v in python}, (result, python)
    assert got[3]["unknown"].startswith("unknown schema 'docent/NoSuchType'")


def test_package_installs_into_a_node_project(tmp_path: Path) -> None:
    """What the docs tell a Node user to do: install the package into a project and require it."""
    npm, node = shutil.which("npm"), shutil.which("node")
    assert npm is not None and node is not None
    (tmp_path / "package.json").write_text('{"name": "app", "version": "1.0.0", "private": true}', encoding="utf-8")
    install = [npm, "install", "--install-links", "--prefer-offline", "--no-audit", "--no-fund", str(PACKAGE)]
    proc = subprocess.run(install, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    script = (
        'const c = require("chatschema");'
        'console.log(JSON.stringify([c.isValid("docent/ChatMessage", {role: "user", content: "hi"}),'
        ' c.isValid("docent/ChatMessage", {role: "bot", content: "hi"})]));'
    )
    env = {k: v for k, v in os.environ.items() if k != "NODE_PATH"}  # only the project's own node_modules
    proc = subprocess.run([node, "-e", script], cwd=tmp_path, capture_output=True, text=True, env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [True, False]
