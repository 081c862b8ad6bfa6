"""How `chatschema validate` reads one very long JSONL line (`nox -s bench`): the command as
installed, on a single line of 32 MB and of 128 MB, each timed as a whole process (best of
`--repeats`). Reading is linear when the ratio is near 4 (the line is 4x longer); a reader that
copies the line once per block it spans gives about 16. Numbers are printed, never asserted.

    python bench/long_lines.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES_MB = (32, 128)


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    script = shutil.which("chatschema", path=str(Path(sys.executable).parent)) or "chatschema"
    seconds: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="chatschema-long-") as tmp:
        for size in SIZES_MB:
            path = Path(tmp) / f"{size}.jsonl"
            path.write_bytes(b'{"role":"user","content":"' + b"x" * (size << 20) + b'"}\n')
            command = [script, "validate", "-q", "--max-bytes", str(1 << 30), "-s", "docent/ChatMessage", str(path)]
            seconds[size] = min(timed(command) for _ in range(args.repeats))
            print(f"one line of {size} MB: {seconds[size]:.2f} s")
    small, large = SIZES_MB
    print(f"ratio {large} MB / {small} MB: {seconds[large] / seconds[small]:.1f} (linear: about {large // small})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
