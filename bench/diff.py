"""The evolution diff (`python -m release.evolution`) over all four families against `generate --check`: wall time of each and the ratio.

python bench/diff.py [BASE]    (default 36522fb^: before the conformance fixes, which changed
                                bridgic and letta types, so witnesses are searched)
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(module: str, *args: str) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, check=False)
    return time.perf_counter() - start, proc.returncode


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "36522fb^"
    check, rc_check = timed("codegen", "generate", "--check")
    diff, rc_diff = timed("release.evolution", base, "--format", "json")
    print(f"generate --check: {check:.1f} s (exit {rc_check})")
    print(f"release.evolution {base} (4 families, witnesses searched): {diff:.1f} s (exit {rc_diff})")
    print(f"ratio diff / generate --check: {diff / check:.2f} (target <= 2)")


if __name__ == "__main__":
    main()
