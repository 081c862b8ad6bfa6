"""Running the tests against one mutant: a scratch copy of the package, one pytest process, a time limit."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from .mutants import Mutant

# pytest's exit status -> outcome. 1: a test failed; 2: interrupted, e.g. the mutant breaks an
# import during collection; 3: an internal error, e.g. in a fixture. 4 (usage) and 5 (no tests
# collected) say the selection is wrong, which is the runner's fault, never a kill.
_KILLED = {1, 2, 3}
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
    status: str  # "killed", "timeout", "survived" or "error"
    seconds: float
    killer: str = ""  # the first failing test, or what went wrong


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
        for rel in filter(None, tracked.split("\0")):
            source = root / rel
            if source.is_file():
                (self.path / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, self.path / rel)
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

    def run(self, mutant: Mutant, tests: list[str], select: bool, pytest_args: list[str], timeout: float) -> Run:
        """Run `tests` (node ids if `select`, else paths) against the copy holding `mutant`, stopping at the first failure."""
        original = (self.root / mutant.module).read_text(encoding="utf-8")
        self._write(mutant.module, mutant.source)
        env = {"PYTHONPATH": str(self.path), "CHATSCHEMA_TS_PACKAGE": str(self.path / "npm")}
        try:
            return run_pytest(self.path, env, tests, select, pytest_args, timeout)
        finally:
            self._write(mutant.module, original)


def run_pytest(
    cwd: Path, env: dict[str, str], tests: list[str], select: bool, pytest_args: list[str], timeout: float
) -> Run:
    """Run `tests` (node ids, in that order, if `select`; else paths) in `cwd` with `env` added, until the first failure."""
    with tempfile.TemporaryDirectory(prefix="chatschema-mutant-run-") as tmp:
        scratch = Path(tmp)
        failed, output = scratch / "failed", scratch / "output"
        env = {**os.environ, **env, "MUTATION_FAILED": str(failed)}
        env.pop("COVERAGE_PROCESS_START", None)
        paths = tests
        if select:
            (scratch / "select").write_text("\n".join(tests), encoding="utf-8")
            env["MUTATION_SELECT"] = str(scratch / "select")
            paths = sorted({nodeid.split("::", 1)[0] for nodeid in tests})
        start = time.perf_counter()
        with output.open("wb") as sink:
            # A session of its own, so a time-out ends the tests' own children (workers, the CLI) too.
            proc = subprocess.Popen(
                [*PYTEST, "-x", *pytest_args, *paths],
                cwd=cwd,
                env=env,
                stdout=sink,
                stderr=sink,
                start_new_session=True,
            )
            try:
                code: int | None = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                code = None
        seconds = time.perf_counter() - start
        killer = failed.read_text(encoding="utf-8") if failed.exists() else ""
        tail = output.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
    last = tail[0] if tail else ""
    if code is None:
        return Run("timeout", seconds, f"no result after {timeout:.0f}s")
    if code == 0:
        return Run("survived", seconds)
    if code in _KILLED:
        return Run("killed", seconds, killer or last or f"exit {code}")
    return Run("error", seconds, f"pytest exit {code}: {last}")
