"""Hand-written and generated code stay ruff- and mypy --strict-clean; the benchmarks (bench/), ruff-clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
TARGETS = ["codegen", "chatschema", "tests", "release", "bench", "noxfile.py"]


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *cmd], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_check() -> None:
    proc = run("ruff", "check", *TARGETS)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format() -> None:
    proc = run("ruff", "format", "--check", *TARGETS)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict() -> None:
    proc = run("mypy", "--strict", "codegen", "chatschema", "tests", "release")
    assert proc.returncode == 0, proc.stdout + proc.stderr
