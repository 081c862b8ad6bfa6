"""The seeds a conformance run draws its cases with: the default, more derived from it, and one per commit.

A seed pins the cases (report.draw): the same seed draws the same cases on every machine and at
every commit whose schemas and generated code are the same.
"""

from __future__ import annotations

import subprocess
import zlib
from pathlib import Path

DEFAULT_SEED = 20261123
ROOT = Path(__file__).resolve().parents[2]


def derived_seeds(first: int, count: int) -> list[int]:
    """`first`, then `count - 1` more derived from it: the same list every time, for `--seeds N`."""
    return [first] + [zlib.crc32(f"{first}:{i}".encode()) for i in range(1, count)]


def commit_seed(root: Path = ROOT) -> int:
    """A seed of the checkout's commit: the first 32 bits of HEAD's tree hash.

    Every commit that changes a file draws other cases in the test suite, so its small budget explores
    more over time than one fixed seed; the same tree (a rebase, an amended message) keeps its seed.
    Outside a git checkout (an unpacked sdist), the second of the default's derived seeds.
    """
    try:
        tree = subprocess.run(
            ["git", "rev-parse", "HEAD^{tree}"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        return int(tree[:8], 16)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return derived_seeds(DEFAULT_SEED, 2)[1]
