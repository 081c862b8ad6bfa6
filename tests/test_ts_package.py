"""The npm package as a bundler and a TypeScript user see it.

- Each family entry point (`chatschema/<family>`), bundled by esbuild and minified, stays within a
  size budget (gzip bytes), carries no ajv compiler and no `new Function`/eval: the validators are
  precompiled. Budgets: measured on 2026-11-23 (letta 46,251, docent 21,469, bridgic 8,474,
  swarm 8,125, the root entry 76,483 and chatschema/stream 50,247 gzip bytes) plus ~15% headroom;
  docent again on 2026-11-27 with its agent-run types (28,270); bridgic, swarm and the root entry
  again on 2026-11-27, once violations carried instancePath, schemaPath and params (10,274, 10,506
  and 88,009: each error of the precompiled validators names its type in its schemaPath).
- One type guard alone (`isToolCallMessage`) stays within 5,000 gzip bytes: its own first-error
  validator and what it references, nothing else of its family.
- `tsc --strict` type tests (tests/node/types/*.ts): guards narrow, keep the input type when
  false, `validate` asserts, `parse` returns the type; `// @ts-expect-error` lines fail the
  compile if a guard stops narrowing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from chatschema import letta, schemas
from codegen.typescript import NodeJob, node_executable, node_modules, uses_unevaluated
from tests import ts_project
from tests.letta_code_types import letta_code_modules
from tests.node import HERE, PACKAGE, run_node, tsc
from tests.ts_project import make_project

# chatschema/letta holds Letta Code's records too; chatschema/stream takes the three frame
# validators it reads with, not the family's
GZIP_BUDGET = {
    "chatschema/letta": 112_500,
    "chatschema/docent": 32_500,
    "chatschema/bridgic": 11_800,
    "chatschema/swarm": 12_100,
    "chatschema": 145_500,
    "chatschema/stream": 24_500,
}


@cache
def _sizes() -> dict[str, dict[str, Any]]:
    apps = {name: f'import * as m from "{name}"; console.log(m);' for name in GZIP_BUDGET}
    # `isValid` alone from the root: createAjv (and with it ajv) must be left out
    apps["chatschema"] = 'import { isValid } from "chatschema"; console.log(isValid);'
    apps["chatschema/ajv"] = 'import { createAjv } from "chatschema/ajv"; console.log(createAjv);'
    apps["isToolCallMessage"] = 'import { isToolCallMessage } from "chatschema/letta"; console.log(isToolCallMessage);'
    result: dict[str, dict[str, Any]] = run_node(HERE / "size.cjs", {"package": str(PACKAGE), "apps": apps})
    return result


@pytest.mark.parametrize("entry", sorted(GZIP_BUDGET))
def test_entry_point_size_and_no_eval(entry: str) -> None:
    got = _sizes()[entry]
    assert got["gzip"] <= GZIP_BUDGET[entry], f"{entry}: {got['gzip']} gzip bytes, budget {GZIP_BUDGET[entry]}"
    assert not got["ajvCompiler"] and not got["newFunction"], f"{entry} bundles ajv's compiler: {got}"


def test_family_entry_points_bundle_only_their_family() -> None:
    sizes = _sizes()
    families = [sizes[f"chatschema/{f}"]["gzip"] for f in ("letta", "docent", "bridgic", "swarm")]
    assert sizes["chatschema"]["gzip"] > max(families)
    assert sizes["chatschema/bridgic"]["gzip"] < sizes["chatschema/letta"]["gzip"] / 2


def test_one_guard_leaves_the_rest_of_its_family_out() -> None:
    """A guard alone bundles its own first-error validator (tests/test_tree_shaking.py measures it
    from the packed tarball, with esbuild and with Rollup)."""
    got = _sizes()["isToolCallMessage"]
    assert got["gzip"] <= 5_000, got


def test_schema_names_are_the_validators() -> None:
    """The families' and the root's `schemaNames` (written out, so that nothing runs at import)
    name exactly the precompiled validators, sorted."""
    script = (
        "const pkg = process.argv[1]; const families = ['bridgic', 'docent', 'letta', 'swarm']; const every = [];"
        "const ok = families.map((f) => {"
        "  const names = Object.keys(require(`${pkg}/validators/${f}.js`)).map((t) => `${f}/${t}`).sort();"
        "  every.push(...names);"
        "  return JSON.stringify(require(`${pkg}/${f}.js`).schemaNames) === JSON.stringify(names);"
        "});"
        "const root = require(`${pkg}/index.js`).schemaNames;"
        "console.log(JSON.stringify([...ok, JSON.stringify(root) === JSON.stringify(every.sort()), Object.isFrozen(root)]));"
    )
    node = shutil.which("node")
    assert node is not None
    proc = subprocess.run([node, "-e", script, str(PACKAGE)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [True] * 6


def _precompiled(keywords: dict[str, Any], unevaluated: bool) -> str:
    """The all-errors validator module codegen/node/standalone.cjs makes of a one-type family."""
    schema = {"$id": "https://example.test/t.json", "$defs": {"T": {"type": "object", **keywords}}}
    refs = {"T": "https://example.test/t.json#/$defs/T"}
    payload = {"validators": {"t": {"schema": schema, "refs": refs, "unevaluated": unevaluated}}, "modules": {}}
    code: str = NodeJob("standalone.cjs", payload).result()["validators"]["t"]["all"]
    return code


def test_validators_track_evaluated_properties_only_for_unevaluated() -> None:
    """ajv's `validateN.evaluated = {...}` statements (top-level side effects, which keep a bundler
    from dropping any validator of the module) are made only for a family that uses unevaluated*."""
    closed = {"properties": {"a": {}}, "unevaluatedProperties": False}
    assert uses_unevaluated({"$defs": {"T": closed}}) and uses_unevaluated({"items": {"unevaluatedItems": False}})
    assert not uses_unevaluated({"properties": {"unevaluatedProperties": {}}, "const": {"unevaluatedItems": 1}})
    assert re.search(r"\bvalidate\d+\.evaluated = ", _precompiled(closed, unevaluated=True))
    assert ".evaluated" not in _precompiled({"properties": {"a": {}}}, unevaluated=False)
    with pytest.raises(RuntimeError, match="unevaluatedProperties is used"):
        _precompiled(closed, unevaluated=False)
    shipped = sorted((PACKAGE / "esm" / "validators").glob("*.js"))
    assert shipped and not any(".evaluated" in path.read_text(encoding="utf-8") for path in shipped)


def test_the_measurement_sees_ajv() -> None:
    """The harness itself: createAjv does bring ajv's compiler and its `new Function`."""
    assert _sizes()["chatschema/ajv"]["ajvCompiler"] and _sizes()["chatschema/ajv"]["newFunction"]


def _project(tmp_path: Path) -> Path:
    """A project folder with the package as node_modules/chatschema, for tsc's nodenext resolution."""
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "chatschema").symlink_to(PACKAGE.resolve(), target_is_directory=True)
    (tmp_path / "package.json").write_text('{"name": "app", "private": true, "type": "module"}', encoding="utf-8")
    return tmp_path


def _tsc(project: Path, *files: str) -> str:
    proc = tsc(
        "--strict", "--noEmit", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
        "--skipLibCheck", *files, cwd=project,
    )  # fmt: skip
    return proc.stdout + proc.stderr if proc.returncode != 0 else ""


def test_guards_and_assertions_type_check(tmp_path: Path) -> None:
    project = _project(tmp_path)
    shutil.copy(HERE / "types" / "guards.ts", project / "guards.ts")
    assert _tsc(project, "guards.ts") == ""


def test_a_guard_that_stopped_narrowing_fails(tmp_path: Path) -> None:
    """The type test can fail: with a guard typed `boolean`, its expect-error lines go unused."""
    project = _project(tmp_path)
    text = (HERE / "types" / "guards.ts").read_text(encoding="utf-8")
    text = text.replace(
        'import { isChatMessage } from "chatschema/docent";', "declare function isChatMessage(v: unknown): boolean;"
    )
    text = text.replace("isToolCallMessage, ", "")
    text = "declare function isToolCallMessage(v: unknown): boolean;\n" + text
    (project / "guards.ts").write_text(text, encoding="utf-8")
    out = _tsc(project, "guards.ts")
    assert "TS2578" in out or "TS2339" in out or "TS2322" in out, out


def test_doc_comments_read_well() -> None:
    """Summary first, `@deprecated` with its reason last, no json-schema-to-typescript boilerplate."""
    for path in sorted((PACKAGE / "types").glob("*.d.ts")):
        text = path.read_text(encoding="utf-8")
        assert "This interface was referenced by" not in text, path.name
        for comment in re.findall(r"/\*\*\n(.*?)\*/", text, flags=re.DOTALL):
            lines = [line.strip().removeprefix("*").strip() for line in comment.splitlines()]
            assert not lines[0].startswith("@deprecated"), f"{path.name}: {comment}"
    letta = (PACKAGE / "types" / "letta.d.ts").read_text(encoding="utf-8")
    assert (
        "   * The tool's result as a string.\n   *\n   * @deprecated Use `tool_returns`.\n   */\n  tool_return: string;"
        in letta
    )


def test_sdk_values_become_ours_without_casts(tmp_path: Path) -> None:
    """Every Letta type the official SDK has (tests/node/types/sdk.ts), typed by its real .d.ts."""
    project = _project(tmp_path)
    sdk = node_modules() / "@letta-ai"
    (project / "node_modules" / "@letta-ai").symlink_to(sdk, target_is_directory=True)
    shutil.copy(HERE / "types" / "sdk.ts", project / "sdk.ts")
    assert _tsc(project, "sdk.ts") == ""
    text = (HERE / "types" / "sdk.ts").read_text(encoding="utf-8")
    assert len(re.findall(r'fromSdk\("letta/', text)) == 21  # 20 SDK types, and the wrong-tag case


def _letta_code_project(tmp_path: Path, text: str) -> Path:
    project = _project(tmp_path)
    (project / "node_modules" / "@letta-ai").symlink_to(letta_code_modules() / "@letta-ai", target_is_directory=True)
    (project / "letta_code.ts").write_text(text, encoding="utf-8")
    return project


LETTA_CODE_TS = HERE / "types" / "letta_code.ts"


def test_letta_code_types_agree_with_letta_codes_own_both_ways(tmp_path: Path) -> None:
    """Every Letta Code type against @letta-ai/letta-code's and the SDK's declarations, both ways; the
    known differences (letta-client's, and the SDK's envelope-less answers) are expected errors."""
    text = LETTA_CODE_TS.read_text(encoding="utf-8")
    assert _tsc(_letta_code_project(tmp_path, text), "letta_code.ts") == ""
    ours = {n.split("/")[1] for n in schemas.names() if n.startswith("letta/")}
    checked = set(re.findall(r"^  (\w+): \(v: ", text.split("export const oursBesideTheDifferences")[0], re.MULTILINE))
    code_types = {n for n in ours if getattr(letta, n).__module__.rsplit(".", 1)[1].startswith("letta_code")}
    assert checked == code_types, sorted(checked ^ code_types)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a field our type required and theirs lacks
        ("Theirs<letta.ResultMessage>", "Theirs<letta.ResultMessage & { cost_usd: number }>"),
        # a difference that went away: its expect-error goes unused
        (
            "ControlResponse: (v: letta.ControlResponse): LC.ControlResponse",
            "ControlResponse: (v: letta.ControlResponse & { session_id: string; uuid: string }): LC.ControlResponse",
        ),
    ],
)
def test_the_letta_code_type_check_can_fail(tmp_path: Path, old: str, new: str) -> None:
    text = LETTA_CODE_TS.read_text(encoding="utf-8")
    assert old in text
    assert "error TS" in _tsc(_letta_code_project(tmp_path, text.replace(old, new)), "letta_code.ts")


def test_from_sdk_validates_like_validate() -> None:
    script = (
        "const l = require(process.argv[1] + '/letta.js');"
        "const ok = {id: 'm', date: '2025-10-01T12:30:47+00:00', message_type: 'assistant_message', content: 'hi'};"
        "let thrown = null; try { l.fromSdk('letta/AssistantMessage', {...ok, date: 'yesterday'}); }"
        " catch (e) { thrown = [e instanceof l.PayloadError, e.message.split('\\n')[1]]; }"
        "console.log(JSON.stringify([l.fromSdk('letta/AssistantMessage', ok) === ok, thrown]));"
    )
    node = shutil.which("node")
    assert node is not None
    proc = subprocess.run([node, "-e", script, str(PACKAGE)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [True, [True, '  $.date: must match format "date-time"']]


APP = """\
{imports}
const ping = {{ id: "m", date: "2025-10-01T12:30:47+00:00", message_type: "ping" }};
console.log(JSON.stringify([
  typeof letta.isLettaPing, letta.isLettaPing(ping), isValid("letta/LettaPing", ping),
  family.isValid("letta/LettaPing", {{ ...ping, date: "x" }}), parse("letta/LettaPing", ping) === ping,
  reassembleSse('data: {{"message_type": "stop_reason", "stop_reason": "end_turn"}}\\n\\ndata: [DONE]\\n\\n').done,
  typeof createAjv().compile, new family.PayloadError("letta/LettaPing", []) instanceof PayloadError,
]));
"""


@pytest.mark.parametrize(
    ("name", "imports"),
    [
        (
            "app.mjs",
            'import { letta, isValid, parse, PayloadError } from "chatschema";\n'
            'import * as family from "chatschema/letta";\n'
            'import { reassembleSse } from "chatschema/stream";\n'
            'import { createAjv } from "chatschema/ajv";',
        ),
        (
            "app.cjs",
            'const { letta, isValid, parse, PayloadError } = require("chatschema");\n'
            'const family = require("chatschema/letta");\n'
            'const { reassembleSse } = require("chatschema/stream");\n'
            'const { createAjv } = require("chatschema/ajv");',
        ),
    ],
)
def test_entry_points_run_in_node(tmp_path: Path, name: str, imports: str) -> None:
    """Every entry point of the exports map loads, as ES module and CommonJS, with the family namespaces
    real at run time (`import { letta } from "chatschema"` once type-checked and then crashed)."""
    project = make_project(tmp_path / "app", sources=None)
    (project / name).write_text(APP.format(imports=imports), encoding="utf-8")
    proc = ts_project.run([node_executable(), name], cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["function", True, True, False, True, True, "function", True]


@pytest.mark.parametrize(
    ("name", "load"),
    [
        ("app.mjs", 'await import("chatschema"); await import("chatschema/letta"); await import("chatschema/stream");'),
        ("app.cjs", 'require("chatschema"); require("chatschema/letta"); require("chatschema/stream");'),
    ],
)
def test_validating_never_loads_the_ajv_compiler(tmp_path: Path, name: str, load: str) -> None:
    """Only `chatschema/ajv` loads ajv: the validators are precompiled, and ajv's compiler costs a
    fifth of a second to load."""
    project = make_project(tmp_path / "app", sources=None)
    hook = project / "hook.cjs"  # reports every module that node loads from ajv's own directory
    hook.write_text(
        'const Module = require("module"); const load = Module._load;\n'
        "Module._load = function (request, parent, isMain) {\n"
        "  const found = load.apply(this, arguments);\n"
        '  if (/(^|[\\\\/])ajv([\\\\/]|$)/.test(request) || request === "ajv") process.stdout.write(request + "\\n");\n'
        "  return found;\n"
        "};\n",
        encoding="utf-8",
    )
    (project / name).write_text(f'{load}\nconsole.log("loaded");\n', encoding="utf-8")
    cmd = [node_executable(), "--require", str(hook), name]
    proc = ts_project.run(cmd, cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "loaded\n"
    with_ajv = load.replace("chatschema/stream", "chatschema/ajv")
    (project / name).write_text(f'{with_ajv}\nconsole.log("loaded");\n', encoding="utf-8")
    proc = ts_project.run(cmd, cwd=project)
    assert "ajv" in proc.stdout, "the hook sees ajv when it is loaded"
