"""Running the tests against one mutant: a scratch copy of the package, one pytest process, a time limit.

A mutant is killed only when a test that passed on the baseline (baseline.py) fails with it; a
time-out is an outcome of its own, never a kill.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from .mutants import Mutant

# pytest's exit status when no test that passed on the baseline failed. 2: interrupted, e.g. the
# mutant breaks an import during collection, which the baseline collected; 3: an internal error,
# e.g. in a fixture: killed. 1: only tests that did not pass on the baseline failed: not a kill.
# 4 (usage) and 5 (no tests collected) say the selection is wrong, the runner's fault: an error.
_KILLED = {2, 3}
# A fixed hypothesis seed: the draws a mutant meets are the ones the coverage run measured.
PYTEST = [
    sys.executable,
    "-m",
    "pytest",
    "-q",
    "-p",
    "no:cacheprovider",
    "-p",
    "tests.mutation.plugin",
    "--hypothesis-seed=0",
]


@dataclass(frozen=True)
class Run:
    """What one run of the tests against a mutant gave."""

    status: str  # "killed", "timeout", "survived" or "error"
    seconds: float
    killer: str = ""  # the first failing test that passed on the baseline, or what went wrong


def _verdict(code: int | None, seconds: float, killer: str, others: str, last: str, timeout: float) -> Run:
    """The outcome of a mutant's run: killed only by a failure of a test that passed on the baseline."""
    if killer:  # even if the run then hung (the session stops at the killer)
        return Run("killed", seconds, killer)
    if code is None:
        return Run("timeout", seconds, f"no result after {timeout:.0f}s")
    if code == 0:
        return Run("survived", seconds)
    if code in _KILLED:
        return Run("killed", seconds, last or f"exit {code}")
    if code == 1 and others:
        return Run("survived", seconds, f"only tests that did not pass on the baseline failed: {others}")
    return Run("error", seconds, f"pytest exit {code}: {last}")


class Workspace:
    """A scratch copy of the repository (its tracked files), where one mutant at a time is written.

    The tests run inside the copy, so that every way they reach the runtime (imports, `python -m
    chatschema` in the working folder, the npm package's files) reaches the mutated module.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._tmp = tempfile.TemporaryDirectory(prefix="chatschema-mutants-")
        self.path = Path(os.path.realpath(self._tmp.name))
        tracked = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True
        ).stdout.decode("utf-8")
        digest = hashlib.sha256()
        for rel in filter(None, tracked.split("\0")):
            source = root / rel
            if source.is_file():
                (self.path / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, self.path / rel)
                content = source.read_bytes()
                digest.update(f"{rel}\0{len(content)}\0".encode())
                digest.update(content)
        self.tree = digest.hexdigest()  # the files the tests run on: the key of the baselines kept (cache.py)
        # The history, for the tests that read it (the documented `release.evolution release` runs).
        if (root / ".git").is_dir():
            shutil.copytree(root / ".git", self.path / ".git", symlinks=True)
        # the pinned Node tooling, where codegen and the npm package find it
        for rel in ("codegen/node/node_modules", "npm/node_modules"):
            if (root / rel).exists():
                (self.path / rel).symlink_to((root / rel).resolve(), target_is_directory=True)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self._tmp.cleanup()

    def target(self, module: str) -> Path:
        """The copy's file for a hand-written module (chatschema/... or npm/esm/...)."""
        return self.path / module

    def header_lines(self, module: str) -> int:
        """How many lines the copy adds before the module's own text: none, it is the module."""
        return 0

    def _write(self, module: str, source: str) -> None:
        target = self.target(module)
        target.write_text(source, encoding="utf-8")
        # A same-sized rewrite within the same second would pass the .pyc's mtime check: drop it.
        for cached in (target.parent / "__pycache__").glob(f"{target.stem}.*.pyc"):
            cached.unlink()

    def run(
        self, mutant: Mutant, tests: list[str], baseline: Collection[str], pytest_args: list[str], timeout: float
    ) -> Run:
        """Run `tests` (node ids, in that order) against the copy holding `mutant`, until a test of `baseline` fails."""
        original = (self.root / mutant.module).read_text(encoding="utf-8")
        self._write(mutant.module, mutant.source)
        try:
            return run_pytest(self.path, self.env(), tests, True, pytest_args, timeout, baseline)
        finally:
            self._write(mutant.module, original)

    def env(self) -> dict[str, str]:
        """What the tests' processes are given, so that they reach the copy (imports, the npm package)."""
        return {"PYTHONPATH": str(self.path), "CHATSCHEMA_TS_PACKAGE": str(self.path / "npm")}


def _wait(command: list[str], cwd: Path, env: dict[str, str], output: Path, timeout: float) -> int | None:
    """Run `command`, its output to `output`; its exit status, or None if it did not end within `timeout` s."""
    with output.open("wb") as sink:
        # A session of its own, so a time-out ends the tests' own children (workers, the CLI) too.
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=sink, stderr=sink, start_new_session=True)
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None


def run_pytest(
    cwd: Path,
    env: dict[str, str],
    tests: list[str],
    select: bool,
    pytest_args: list[str],
    timeout: float,
    baseline: Collection[str] | None = None,
) -> Run:
    """Run `tests` (node ids, in that order, if `select`; else paths) in `cwd` with `env` added.

    The run stops at the first failure of a test in `baseline` (the tests that passed without the
    mutant), its killer; a failure of any other test is no kill. `baseline` None: any failure kills.
    """
    with tempfile.TemporaryDirectory(prefix="chatschema-mutant-run-") as tmp:
        scratch = Path(tmp)
        failed, others, output = scratch / "failed", scratch / "others", scratch / "output"
        env = {**os.environ, **env, "MUTATION_FAILED": str(failed), "MUTATION_OTHERS": str(others)}
        env.pop("COVERAGE_PROCESS_START", None)
        if baseline is not None:
            (scratch / "baseline").write_text("\n".join(sorted(baseline)), encoding="utf-8")
            env["MUTATION_BASELINE"] = str(scratch / "baseline")
        paths = tests
        if select:
            (scratch / "select").write_text("\n".join(tests), encoding="utf-8")
            env["MUTATION_SELECT"] = str(scratch / "select")
            paths = sorted({nodeid.split("::", 1)[0] for nodeid in tests})
        start = time.perf_counter()
        code = _wait([*PYTEST, *pytest_args, *paths], cwd, env, output, timeout)
        seconds = time.perf_counter() - start
        killer = failed.read_text(encoding="utf-8") if failed.exists() else ""
        other = " ".join(others.read_text(encoding="utf-8").split()[:3]) if others.exists() else ""
        tail = output.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
    return _verdict(code, seconds, killer, other, tail[0] if tail else "", timeout)
