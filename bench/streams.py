"""The Letta stream reassembly benchmark (`nox -s bench`): one tool call streamed in many fragments.

    python bench/streams.py [--fragments 100000] [--repeats 3]

Builds the SSE body of one tool call whose JSON arguments arrive in `--fragments` fragments of 19
characters (as Letta streams them: a first ToolCallDelta with the name, then argument pieces), and
times, in Python, `reassemble_sse` on the body and `reassemble` on the already-parsed frames, and,
in Node (when available), the npm package's `reassembleSse`. Reassembly is linear: 25,000 and
100,000 fragments are both timed so the ratio shows it. Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from chatschema.letta.stream import reassemble, reassemble_sse

ROOT = Path(__file__).parent.parent
DATE = "2025-10-01T12:30:45+00:00"


def frames(fragments: int) -> list[dict[str, Any]]:
    """One tool call: the name, then `fragments` argument pieces of 19 characters, then the stop."""
    args = json.dumps({"items": ["x" * 17] * fragments})  # 21 characters an item: more than 19 * fragments
    pieces = [args[i : i + 19] for i in range(0, len(args), 19)][:fragments]
    pieces[-1] += args[19 * fragments :]

    def frame(**parts: Any) -> dict[str, Any]:
        return {"id": "message-t", "date": DATE, "message_type": "tool_call_message", "otid": "t-1",
                "seq_id": None, "tool_call": parts, "tool_calls": parts}  # fmt: skip

    out = [frame(name="bulk", tool_call_id="call_1")]
    out += [frame(arguments=p, tool_call_id="call_1") for p in pieces]
    return [*out, {"message_type": "stop_reason", "stop_reason": "end_turn"}]


def body(items: list[dict[str, Any]]) -> str:
    return "".join(f"data: {json.dumps(f, separators=(',', ':'))}\n\n" for f in items) + "data: [DONE]\n\n"


def best(fn: Any, repeats: int) -> tuple[float, float]:
    """Median (wall seconds, CPU seconds): on a shared machine the CPU time is the fairer figure."""
    walls, cpus = [], []
    for _ in range(repeats):
        gc.collect()
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def node_time(text: str, repeats: int) -> tuple[float, float] | None:
    node = shutil.which("node")
    package = ROOT / "npm"
    modules = ROOT / "codegen" / "node" / "node_modules"
    if node is None or not modules.is_dir():
        return None
    script = (
        f"const s = require({json.dumps(str(package / 'stream.js'))});"
        "const fs = require('fs'); const body = fs.readFileSync(process.argv[1], 'utf8'); const t = [];"
        f"const c = []; for (let i = 0; i < {repeats}; i++) {{ const a = process.hrtime.bigint();"
        " const u = process.cpuUsage(); s.reassembleSse(body); const d = process.cpuUsage(u);"
        " t.push(Number(process.hrtime.bigint() - a) / 1e9); c.push((d.user + d.system) / 1e6); }"
        "const mid = (x) => x.sort((a, b) => a - b)[Math.floor(x.length / 2)]; console.log(mid(t), mid(c));"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".sse", delete=False, encoding="utf-8") as f:
        f.write(text)
    proc = subprocess.run([node, "-e", script, f.name], capture_output=True, text=True, check=False,
                          env={"NODE_PATH": str(modules), "PATH": ""})  # fmt: skip
    Path(f.name).unlink()
    if proc.returncode != 0:
        return None
    wall, cpu = proc.stdout.split()
    return float(wall), float(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fragments", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    opts = parser.parse_args()
    print("Letta stream reassembly: one tool call in N fragments of 19 characters (median of repeats)")
    print("wall / CPU seconds; per fragment: reassemble_sse's CPU time")
    print(
        f"{'fragments':>10} {'body MB':>8} {'reassemble_sse':>16} {'reassemble':>16} {'node reassembleSse':>19}  per fragment"
    )
    for n in sorted({opts.fragments // 4, opts.fragments}):
        items = frames(n)
        text = body(items)
        call = reassemble(items).messages[0].model_dump()["tool_calls"][0]
        assert len(call["arguments"]) > 19 * (n - 1)
        sse = best(lambda: reassemble_sse(text), opts.repeats)  # noqa: B023
        plain = best(lambda: reassemble(items), opts.repeats)  # noqa: B023
        node = node_time(text, opts.repeats)
        node_text = f"{node[0]:.2f} / {node[1]:.2f}" if node is not None else "n/a"
        print(
            f"{n:>10,} {len(text) / 1e6:>8.1f} {sse[0]:>7.2f} / {sse[1]:<6.2f} {plain[0]:>7.2f} / {plain[1]:<6.2f}"
            f" {node_text:>19}  {sse[1] / n * 1e6:.1f} µs"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
