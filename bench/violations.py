"""`violations()` of the npm package on invalid payloads against ajv's all-errors validator (the
family's precompiled `validators/<family>.js`, called directly and its `errors` read), on the same
payloads: messages/s of each and their ratio (the target: at most 2x), for today's package and a
baseline commit's.

    python bench/violations.py [--baseline 38a82b1^] [--processes 5]

The payloads: every invalid example of letta/LettaMessage, of docent/ChatMessage, and every invalid
example of every type (each validated against its own type), of the types that both packages have.
Node's CPU time, the contenders taking turns, median of 7 rounds (bench/ts/violations.mjs), in
several Node processes one after another: V8 optimises each process's code its own way (ajv's own
rate on the mixed payloads has differed threefold between two processes), so the ratio printed is
the median of the processes' ratios, with their range. Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT))

from codegen.typescript import node_executable  # noqa: E402 (after the path set-up)
from tests.vectors import all_vectors  # noqa: E402

BASELINE = "38a82b1^"  # the package before violations() was made lazy


def package_at(rev: str, into: Path) -> Path:
    """The npm package as committed at `rev` (its npm/ folder), extracted under `into`."""
    archive = subprocess.run(["git", "archive", "--format=tar", rev, "npm"], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / "npm"


def corpus() -> dict[str, list[dict[str, Any]]]:
    """The invalid examples by group, each with the schema it is validated against."""
    invalid = [{"schema": v.schema_name, "payload": v.load()} for v in all_vectors() if not v.valid]
    groups = {
        name: [c for c in invalid if c["schema"] == name] for name in ("letta/LettaMessage", "docent/ChatMessage")
    }
    return {**groups, "every invalid example": invalid}


def timed(script: list[str], packages: list[Path]) -> dict[str, Any]:
    """One Node process's rates: {package dir: {group: {violations, ajv, payloads}}}."""
    proc = subprocess.run([*script, *map(str, packages)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"bench: {proc.stderr}")
    return dict(json.loads(proc.stdout))


def row(runs: list[dict[str, Any]]) -> str:
    """One package's line for one group: median rates and ratio over the runs, the ratios' range."""
    ratios = sorted(r["ajv"] / r["violations"] for r in runs)
    rates = f"{statistics.median(r['violations'] for r in runs):>13,.0f} {statistics.median(r['ajv'] for r in runs):>11,.0f}"
    return f"{runs[0]['payloads']:>5} {rates} {statistics.median(ratios):>5.2f}x  {ratios[0]:.2f}-{ratios[-1]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    parser.add_argument("--processes", type=int, default=5, help="Node processes, one after another (default 5)")
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes is at least 1")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    groups = corpus()
    with tempfile.TemporaryDirectory(prefix="chatschema-bench-violations-") as tmp:
        scratch = Path(tmp)
        (scratch / "corpus.json").write_text(json.dumps(groups), encoding="utf-8")
        packages = {"today": ROOT / "npm", args.baseline: package_at(args.baseline, scratch / "baseline")}
        script = [node_executable(), str(ROOT / "bench" / "ts" / "violations.mjs"), str(scratch / "corpus.json")]
        runs = [timed(script, list(packages.values())) for _ in range(args.processes)]
    print("violations() on invalid payloads against ajv's all-errors validator (msg/s of Node CPU time)")
    print(f"commit {commit.stdout.strip() or '(unknown)'}; medians of {args.processes} Node processes")
    print(f"{'package':<12} {'payloads':<24} {'count':>5} {'violations()':>13} {'ajv':>11} {'ratio':>6}  range")
    for label, folder in packages.items():
        for group in groups:
            found = [run[str(folder)][group] for run in runs]
            if not found[0]["payloads"]:
                print(f"{label:<12} {group:<24} {0:>5} {'-':>13} {'-':>11} {'-':>6}")
                continue
            print(f"{label:<12} {group:<24} {row(found)}")
    print("count: the payloads timed, those whose type every package compared has; range: the processes' ratios")


if __name__ == "__main__":
    main()
