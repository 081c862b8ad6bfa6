"""Run the pinned Node tooling (codegen/node) from the tests: ajv verdicts and tsc."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

from codegen.typescript import node_modules, setup_node
from tests.vectors import Vector, all_vectors

ROOT = Path(__file__).parent.parent
# CHATSCHEMA_TS_PACKAGE: another copy of the package (the mutation runner, tests/mutation/, sets it)
PACKAGE = Path(os.environ.get("CHATSCHEMA_TS_PACKAGE", ROOT / "npm"))
HERE = Path(__file__).parent / "node"


def node_env() -> dict[str, str]:
    """The environment for Node: the generated package resolves ajv from codegen/node/node_modules."""
    setup_node()
    return {**os.environ, "NODE_PATH": str(node_modules())}


def run_node(script: Path, payload: Any) -> Any:
    """Run one Node script with JSON on stdin; return its JSON stdout."""
    node = shutil.which("node")
    assert node is not None, "node not found: Node.js 20 is needed for the TypeScript tests"
    proc = subprocess.run(
        [node, str(script)], input=json.dumps(payload), capture_output=True, text=True, env=node_env(), check=False
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@cache
def ajv_verdicts() -> dict[str, dict[str, Any]]:
    """ajv's verdict on every vector, per-file schemas and bundles, from a single Node process."""
    vectors = [{"id": v.id, "schema": v.schema_name, "path": str(v.path)} for v in all_vectors()]
    result: dict[str, dict[str, Any]] = run_node(HERE / "verdicts.cjs", {"package": str(PACKAGE), "vectors": vectors})
    return result


STREAM_VECTORS = ROOT / "schemas" / "letta" / "examples" / "streams"


def stream_inputs() -> list[dict[str, Any]]:
    """Every Letta stream vector as the reassembly scripts take it: `{"name", "sse", "options"}`."""
    out = []
    for path in sorted(STREAM_VECTORS.glob("*.json")):
        vector = json.loads(path.read_text(encoding="utf-8"))
        out.append({"name": path.stem, "sse": "".join(vector["sse"]), "options": vector["options"]})
    return out


@cache
def node_stream_results() -> dict[str, Any]:
    """The npm package's reassembly of every stream vector in Node: `{name: summary | "StreamError: ..."}`."""
    result: dict[str, Any] = run_node(HERE / "streams.cjs", {"package": str(PACKAGE), "vectors": stream_inputs()})
    return result


SMALL_STREAM = 1300  # bytes: a stream example up to this size is cut at each byte boundary alone (22 of 31)


@cache
def node_stream_events() -> dict[str, Any]:
    """`reassembleSseStream` in Node on every stream example, each cut many ways and fed as each kind of
    source, and its other cases (tests/node/stream_async.cjs): `{"vectors": {name: ...}, "cases": ...}`."""
    payload = {
        "package": str(PACKAGE),
        "vectors": stream_inputs(),
        "small": SMALL_STREAM,
        "docs": str(ROOT / "docs" / "streams.md"),
    }
    result: dict[str, Any] = run_node(HERE / "stream_async.cjs", payload)
    return result


def tsc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the pinned TypeScript compiler."""
    node = shutil.which("node")
    assert node is not None
    script = node_modules() / "typescript" / "bin" / "tsc"
    return subprocess.run(
        [node, str(script), *args], cwd=cwd, capture_output=True, text=True, env=node_env(), check=False
    )


__all__ = [
    "HERE",
    "PACKAGE",
    "Vector",
    "ajv_verdicts",
    "node_env",
    "node_stream_events",
    "node_stream_results",
    "run_node",
    "stream_inputs",
    "tsc",
]
