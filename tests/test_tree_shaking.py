"""What a production build takes from the npm package: the packed tarball (`npm pack`) installed in a
fresh project with esbuild (the version codegen pins) and Rollup with node-resolve and terser (as
Vite builds), both pinned exactly here, bundling small apps (tests/node/bundle_size.mjs).

- One type guard (`isToolCallMessage` from `chatschema/letta`) is at most GUARD_GZIP bytes gzip in
  both: its first-error validator and what that references, not the family (nothing in a family
  module runs at import, and the precompiled validators are plain function declarations), and none
  of the code that makes violations.
- One whole family and everything (every entry point but `chatschema/ajv`) stay within budgets:
  the sizes measured when the guard became tree-shakable (docs/typescript.md) plus ~3% headroom.
- Every bundle runs in Node and gives the same verdicts as the package.

Needs npm access: the bundlers are downloaded into the project."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

from codegen.typescript import NODE_DIR
from release.build import ROOT, pack_npm
from tests.node import HERE
from tests.test_npm_tarball import node, npm_install

ROLLUP = "4.68.8"
NODE_RESOLVE = "16.0.3"
TERSER_PLUGIN = "1.0.2"
TERSER = "5.51.4"  # the plugin's dependency, pinned too
BUNDLERS = ("esbuild", "rollup")

GUARD_GZIP = 5_000
# (minified bytes, gzip bytes) per app and bundler, plus ~3%; measured on 2026-11-27 (esbuild, then
# Rollup) once violations carried instancePath, schemaPath and params: family 523,757/46,499 and
# 518,075/37,836; everything 1,000,144/93,724 and 990,400/82,111.
# The Letta family holds Letta Code's records too (133 validators, from 47): importing all of it
# costs that; one type's guard stays small (test_one_guard_bundles_its_own_validator_only).
BUDGET = {
    ("family", "esbuild"): (1_330_000, 112_500),
    ("family", "rollup"): (1_310_000, 99_500),
    ("everything", "esbuild"): (1_845_000, 164_000),
    ("everything", "rollup"): (1_825_000, 148_000),
}

# each app reads a valid ToolCallMessage of the family's examples from $CALL when it runs
EXAMPLES = ROOT / "schemas" / "letta" / "examples" / "ToolCallMessage" / "valid"
GUARD = """\
import { isToolCallMessage } from "chatschema/letta";
const call = JSON.parse(process.env.CALL);
console.log(JSON.stringify([isToolCallMessage(call), isToolCallMessage({ ...call, date: "yesterday" })]));
"""
FAMILY = """\
import * as letta from "chatschema/letta";
const call = JSON.parse(process.env.CALL);
const bad = { ...call, date: "yesterday" };
console.log(JSON.stringify([letta.isToolCallMessage(call), letta.isValid("letta/ToolCallMessage", bad),
  letta.violations("letta/ToolCallMessage", bad).map((v) => v.path), Object.keys(letta).length > 40]));
"""
EVERYTHING = """\
import * as root from "chatschema";
import * as stream from "chatschema/stream";
const call = JSON.parse(process.env.CALL);
const sse = `data: ${JSON.stringify(call)}\\n\\ndata: {"message_type": "stop_reason", "stop_reason": "end_turn"}\\n\\n`;
console.log(JSON.stringify([root.letta.isToolCallMessage(call), root.isValid("letta/ToolCallMessage", call),
  stream.reassembleSse(sse + "data: [DONE]\\n\\n").messages.length, Object.keys(root).length > 10,
  Object.keys(stream).length > 5]));
"""
EXPECTED = {
    "guard": [True, False],
    "family": [True, False, ["$.date"], True],
    "everything": [True, True, 1, True, True],
}


def _esbuild() -> str:
    manifest = json.loads((NODE_DIR / "package.json").read_text(encoding="utf-8"))
    version: str = manifest["dependencies"]["esbuild"]
    return version


@pytest.fixture(scope="module")
def sizes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, dict[str, Any]]]:
    """Each app's bundle by each bundler: minified bytes, gzip bytes and what it printed when run."""
    project = tmp_path_factory.mktemp("bundlers")
    tarball = pack_npm(tmp_path_factory.mktemp("pack"))
    tools = [
        f"esbuild@{_esbuild()}", f"rollup@{ROLLUP}", f"@rollup/plugin-node-resolve@{NODE_RESOLVE}",
        f"@rollup/plugin-terser@{TERSER_PLUGIN}", f"terser@{TERSER}",
    ]  # fmt: skip
    npm_install(project, str(tarball), *tools)
    (project / "bundle_size.mjs").write_bytes((HERE / "bundle_size.mjs").read_bytes())
    apps = {"guard": GUARD, "family": FAMILY, "everything": EVERYTHING}
    call = min(EXAMPLES.glob("*.json")).read_text(encoding="utf-8")
    proc = subprocess.run(
        [node(), "bundle_size.mjs"],
        cwd=project,
        input=json.dumps(apps),
        env={**os.environ, "CALL": call},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, dict[str, dict[str, Any]]] = json.loads(proc.stdout)
    return result


@pytest.mark.parametrize("bundler", BUNDLERS)
def test_one_guard_bundles_its_own_validator_only(sizes: dict[str, Any], bundler: str) -> None:
    got = sizes["guard"][bundler]
    assert got["gzip"] <= GUARD_GZIP, f"isToolCallMessage: {got['bytes']} bytes, {got['gzip']} gzip ({bundler})"
    # and much less than the family: no other type's validator, no all-errors validators
    assert got["bytes"] * 20 < sizes["family"][bundler]["bytes"]
    # nor the code that makes violations, which a guard never does (the family's bundle has it)
    assert not got["explains"] and sizes["family"][bundler]["explains"]


@pytest.mark.parametrize(("app", "bundler"), sorted(BUDGET))
def test_family_and_everything_within_budget(sizes: dict[str, Any], app: str, bundler: str) -> None:
    got = sizes[app][bundler]
    most, most_gzip = BUDGET[app, bundler]
    assert got["bytes"] <= most and got["gzip"] <= most_gzip, f"{app} ({bundler}): {got['bytes']}, {got['gzip']} gzip"


@pytest.mark.parametrize("app", sorted(EXPECTED))
@pytest.mark.parametrize("bundler", BUNDLERS)
def test_bundles_run(sizes: dict[str, Any], app: str, bundler: str) -> None:
    """What is left out was not needed: each bundle validates as the package does."""
    assert json.loads(sizes[app][bundler]["stdout"]) == EXPECTED[app]
