"""Replay witness streams through the stream readers of one version: its Python package and its npm
package as that version ships them (a revision's committed files, or the work tree, rebuilt in a
temporary folder when its generated files are stale).

Each reader runs in its own process, so that two versions of `chatschema` never share an
interpreter. A stream is accepted when the reader reassembles it as complete with no frame
dropped; otherwise the outcome is the reader's one line (its error, or the first dropped frame).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .source import DiffError

# The readers of each stream that has them: the Python module and the npm package's ES module.
READERS = {("letta", "LettaStreamingResponse"): ("chatschema.letta.stream", "npm/esm/stream.js")}

_PYTHON = """
import json, sys
from importlib import import_module
reader = import_module(sys.argv[1])
out = []
for frames in json.load(sys.stdin):
    try:
        result = reader.reassemble(frames)
    except Exception as exc:  # any error is the reader refusing the stream, as in the Node harness
        out.append(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        continue
    out.append(result.dropped[0].detail if result.dropped else None)
print(json.dumps(out))
"""

_NODE = """
const { readFileSync } = await import("node:fs");
const { pathToFileURL } = await import("node:url");
const reader = await import(pathToFileURL(process.argv[1]).href);
const out = JSON.parse(readFileSync(0, "utf8")).map((frames) => {
  try {
    const result = reader.reassemble(frames);
    return result.dropped.length ? result.dropped[0].detail : null;
  } catch (e) {
    return String((e && e.message) || e);
  }
});
process.stdout.write(JSON.stringify(out));
"""

Outcome = str | None  # None: accepted; else why not, in one line


TIMEOUT = 120.0  # seconds for one reader to replay every witness stream: a reader that hangs is an error


def _run(cmd: list[str], cwd: Path, payload: str, who: str) -> list[Outcome]:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, input=payload, capture_output=True, text=True, env=env, check=False, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        raise DiffError([f"diff: the {who} did not replay the witness streams within {TIMEOUT:g} s"]) from None
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise DiffError([f"diff: the {who} could not replay witness streams: {last}"])
    outcomes: list[Outcome] = json.loads(proc.stdout)
    return outcomes


def replay(
    roots: tuple[Path, Path], reader: tuple[str, str], streams: list[list[Any]], labels: tuple[str, str]
) -> tuple[tuple[list[tuple[Outcome, Outcome]], ...], str]:
    """Each stream's outcome in the Python and the TypeScript reader of each version (the four
    readers run at once, each in its own process), and a note when Node is missing (the Python
    readers' outcomes then stand for both)."""
    node = shutil.which("node")
    payload = json.dumps(streams)
    module, script = reader
    jobs = []
    with ThreadPoolExecutor(max_workers=4) as pool:
        for root, label in zip(roots, labels, strict=True):
            python = [sys.executable, "-c", _PYTHON, module]
            jobs.append(pool.submit(_run, python, root, payload, f"Python reader of {label}"))
            if node is not None:
                ts = [node, "--input-type=module", "-e", _NODE, str(root / script)]
                jobs.append(pool.submit(_run, ts, root, payload, f"TypeScript reader of {label}"))
    outcomes = [job.result() for job in jobs]
    if node is None:
        note = "node not found: the witness streams were replayed through the Python readers only"
        return tuple(list(zip(o, o, strict=True)) for o in outcomes), note
    return tuple(list(zip(outcomes[i], outcomes[i + 1], strict=True)) for i in (0, 2)), ""
