"""Run `python -m codegen` (and the release tooling's `python -m release.evolution`) from the tests,
against a scratch repository or the checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from codegen.cache import CACHE_DIR

ROOT = Path(__file__).parent.parent
# what `python -m codegen` reads and writes, copied into a scratch repository
CODEGEN_INPUTS = ("schemas", "chatschema", "npm", "generated")


def _run_module(
    module: str, root: Path, args: tuple[str, ...], env: dict[str, str] | None, cwd: Path
) -> subprocess.CompletedProcess[str]:
    """`python -m MODULE --root ROOT ARGS...` with this checkout's code, output captured."""
    return subprocess.run(
        [sys.executable, "-m", module, "--root", str(root), *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        capture_output=True,
        text=True,
        check=False,
    )


def run_codegen(
    root: Path, *args: str, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """`python -m codegen --root ROOT ARGS...` with this checkout's codegen, output captured."""
    return _run_module("codegen", root, args, env, cwd)


def run_evolution(
    root: Path, *args: str, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """`python -m release.evolution --root ROOT ARGS...` with this checkout's code, output captured."""
    return _run_module("release.evolution", root, args, env, cwd)


def codegen_scratch(dest: Path, cache: Path | None = None) -> Path:
    """A scratch copy at `dest` of what codegen reads and writes (times kept, as the cache keys
    examples by them); with `cache`, a copy of that warm `.codegen-cache` too."""
    for name in CODEGEN_INPUTS:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    shutil.copy2(ROOT / "pyproject.toml", dest / "pyproject.toml")
    if cache is not None:
        start_from_warm_cache(dest, cache)
    return dest


def start_from_warm_cache(root: Path, cache: Path) -> None:
    """Give the repository at `root` a copy of the warm codegen cache `cache` (tests/conftest.py's
    `codegen_cache`), so that a generate there rebuilds only what its test changed. File times are
    kept: the cache keys examples by them."""
    shutil.copytree(cache, root / CACHE_DIR)
