"""`violations()` of the npm package on invalid payloads against ajv's all-errors validator (the
family's precompiled `validators/<family>.js`, called directly and its `errors` read), on the same
payloads: messages/s of each and their ratio (the target: at most 2x), for today's package and a
baseline commit's.

    python bench/violations.py [--baseline 38a82b1^]

The payloads: every invalid example of letta/LettaMessage, of docent/ChatMessage, and every invalid
example of every type (each validated against its own type), of the types that both packages have.
Node's CPU time, the contenders taking turns, median of 7 rounds (bench/ts/violations.mjs). Numbers
are printed, never asserted.
"""

from __future__ import annotations

import argparse
import io
import json
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"the commit to compare with (default {BASELINE})")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="chatschema-bench-violations-") as tmp:
        scratch = Path(tmp)
        (scratch / "corpus.json").write_text(json.dumps(corpus()), encoding="utf-8")
        packages = {"today": ROOT / "npm", args.baseline: package_at(args.baseline, scratch / "baseline")}
        script = [node_executable(), str(ROOT / "bench" / "ts" / "violations.mjs"), str(scratch / "corpus.json")]
        proc = subprocess.run([*script, *map(str, packages.values())], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise SystemExit(f"bench: {proc.stderr}")
        got = json.loads(proc.stdout)
    groups = list(corpus())
    print("violations() on invalid payloads against ajv's all-errors validator (msg/s of Node CPU time)")
    print(f"{'package':<12} {'payloads':<24} {'count':>5} {'violations()':>13} {'ajv':>11} {'ratio':>6}")
    for label, folder in packages.items():
        for group in groups:
            rates = got[str(folder)][group]
            if not rates["payloads"]:
                print(f"{label:<12} {group:<24} {0:>5} {'-':>13} {'-':>11} {'-':>6}")
                continue
            ratio = rates["ajv"] / rates["violations"]
            row = f"{rates['payloads']:>5} {rates['violations']:>13,.0f} {rates['ajv']:>11,.0f} {ratio:>5.2f}x"
            print(f"{label:<12} {group:<24} {row}")
    print("count: the payloads timed, those whose type every package compared has")


if __name__ == "__main__":
    main()
