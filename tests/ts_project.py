"""A consumer project with the npm package installed, as a TypeScript or browser developer has it.

The package is copied into `node_modules/chatschema` (what `npm install <folder> --install-links`
does, without the network); every other dependency (ajv, typescript, esbuild, the Letta SDK, ...)
is a symlink to the pinned tooling in codegen/node/node_modules. Nothing sets NODE_PATH: Node,
tsc and esbuild resolve `chatschema` the way they do in a real project, exports map included.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from codegen.typescript import node_executable, node_modules, setup_node
from tests.node import PACKAGE

CONSUMER = Path(__file__).parent / "consumer"


def make_project(root: Path, package: Path = PACKAGE, sources: Path | None = CONSUMER) -> Path:
    """Lay out a project in `root`: the files of `sources` (if any), and node_modules with the package in it."""
    setup_node()
    if sources is not None:
        shutil.copytree(sources, root, dirs_exist_ok=True)
    modules = root / "node_modules"
    modules.mkdir(parents=True, exist_ok=True)
    for entry in node_modules().iterdir():
        if not entry.name.startswith("."):
            (modules / entry.name).symlink_to(entry, target_is_directory=True)
    shutil.copytree(package, modules / "chatschema", symlinks=False)
    return root


def run(args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command in the project, without NODE_PATH (only the project's own node_modules count)."""
    env = {k: v for k, v in os.environ.items() if k != "NODE_PATH"}
    return subprocess.run(args, cwd=cwd, input=stdin, capture_output=True, text=True, env=env, check=False)


def tsc(project: Path, *args: str) -> str:
    """The pinned tsc's output in `project` ("" when it compiled cleanly)."""
    script = project / "node_modules" / "typescript" / "bin" / "tsc"
    proc = run([node_executable(), str(script), *args], cwd=project)
    return "" if proc.returncode == 0 else proc.stdout + proc.stderr


def node_json(project: Path, script: str) -> Any:
    """Run a script of the project in Node; its stdout parsed as JSON (stderr in the error if it fails)."""
    proc = run([node_executable(), script], cwd=project)
    assert proc.returncode == 0, f"node {script} failed:\n{proc.stderr}"
    return json.loads(proc.stdout)


def esbuild(project: Path, entry: str, outfile: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """Bundle `entry` of the project with the pinned esbuild (for the browser: ESM, minified)."""
    binary = project / "node_modules" / "esbuild" / "bin" / "esbuild"
    args = [str(binary), entry, "--bundle", "--format=esm", "--platform=browser", "--minify", f"--outfile={outfile}"]
    return run([*args, *flags], cwd=project)
