"""The default `--jobs` against one and two processes: `chatschema validate` as installed, on Docent
JSONL files of growing size, best of `--repeats` wall-clock runs of the whole command.

    python bench/jobs.py [--repeats 5]

For each size and backend it prints the seconds of `--jobs 1`, `--jobs 2` and the default, how many
processes the default chose, and the default's time over the faster of the other two (1.00: it chose
the fastest). Numbers are printed, never asserted.
"""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT))

from bench.corpus import generate  # noqa: E402 (after the path set-up)
from chatschema.validate.jobs import choose_jobs  # noqa: E402

SIZES_MIB = (0.5, 1, 2, 4, 8, 16, 32)
UNION = "docent/ChatMessage"


def corpus(path: Path, mib: float) -> None:
    """About `mib` MiB of Docent JSONL with ~1% bad lines (bench/corpus.py's generator)."""
    limit = int(mib * 1024 * 1024)
    written = 0
    with path.open("wb") as out:
        for line, _ in generate(UNION, count=10**9):
            if written + len(line) + 1 > limit:
                break
            out.write(line + b"\n")
            written += len(line) + 1


def best_of(command: list[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    command = shutil.which("chatschema") or sys.exit("bench: the chatschema command is not installed")
    print(f"{'backend':<11} {'MiB':>5} {'--jobs 1':>9} {'--jobs 2':>9} {'default':>9} {'chose':>6} {'x best':>7}")
    with tempfile.TemporaryDirectory(prefix="chatschema-bench-jobs-") as tmp:
        for mib in SIZES_MIB:
            path = Path(tmp) / f"{mib}.jsonl"
            corpus(path, mib)
            for backend in ("jsonschema", "fast"):
                base = [command, "validate", "-q", "-s", UNION, "--backend", backend, str(path)]
                one = best_of([*base, "--jobs", "1"], args.repeats)
                two = best_of([*base, "--jobs", "2"], args.repeats)
                default = best_of(base, args.repeats)
                chose = choose_jobs(None, [str(path)], backend, io.StringIO())
                ratio = default / min(one, two)
                print(f"{backend:<11} {mib:>5} {one:>9.3f} {two:>9.3f} {default:>9.3f} {chose:>6} {ratio:>7.2f}")


if __name__ == "__main__":
    main()
