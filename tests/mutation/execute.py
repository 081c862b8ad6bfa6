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
    """A scratch copy of generated/chatschema and generated/typescript; one mutant at a time is written into it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._tmp = tempfile.TemporaryDirectory(prefix="chatschema-mutants-")
        self.path = Path(os.path.realpath(self._tmp.name))
        shutil.copytree(root / "generated" / "chatschema", self.path / "chatschema")
        shutil.copytree(root / "generated" / "typescript", self.path / "typescript", symlinks=True)
        self._prefixes: dict[str, str] = {}

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self._tmp.cleanup()

    def target(self, module: str) -> Path:
        """The copy's file for a hand-written module (for the npm package: its ES module under esm/)."""
        if module.startswith("codegen/runtime/"):
            return self.path / "chatschema" / module.removeprefix("codegen/runtime/")
        return self.path / "typescript" / "esm" / module.removeprefix("codegen/typescript_runtime/")

    def _prefix(self, module: str) -> str:
        """What the copy adds before the module's own text: a one-line "generated" header, or nothing.

        Fails if the copy is not the module (under that header): generated/ is out of date.
        """
        if module not in self._prefixes:
            source = (self.root / module).read_text(encoding="utf-8")
            copy = self.target(module).read_text(encoding="utf-8")
            head, _, rest = copy.partition("\n")
            if copy == source:
                self._prefixes[module] = ""
            elif rest == source:
                self._prefixes[module] = head + "\n"
            else:
                raise SystemExit(f"mutation: the copy of {module} differs from it: run `python -m codegen generate`")
        return self._prefixes[module]

    def header_lines(self, module: str) -> int:
        """How many lines the copy adds before the module's own text."""
        return self._prefix(module).count("\n")

    def _write(self, module: str, source: str) -> None:
        target = self.target(module)
        target.write_text(self._prefix(module) + source, encoding="utf-8")
        # A same-sized rewrite within the same second would pass the .pyc's mtime check: drop it.
        for cached in (target.parent / "__pycache__").glob(f"{target.stem}.*.pyc"):
            cached.unlink()
        if module.startswith("codegen/typescript_runtime/"):
            self._commonjs_build(target)

    def _commonjs_build(self, esm: Path) -> None:
        """Rebuild the CommonJS file of a mutated ES module, as codegen does (esbuild, pinned)."""
        from codegen.typescript import NodeJob

        rel = esm.relative_to(self.path / "typescript" / "esm").as_posix()
        cjs = self.path / "typescript" / rel
        job = NodeJob("standalone.cjs", {"validators": {}, "modules": {rel: esm.read_text(encoding="utf-8")}})
        header = cjs.read_text(encoding="utf-8").split("\n", 1)[0]
        cjs.write_text(f'{header}\n"use strict";\n{job.result()["cjs"][rel]}', encoding="utf-8")

    def run(self, mutant: Mutant, tests: list[str], select: bool, pytest_args: list[str], timeout: float) -> Run:
        """Run `tests` (node ids if `select`, else paths) against the copy holding `mutant`, stopping at the first failure."""
        original = (self.root / mutant.module).read_text(encoding="utf-8")
        self._write(mutant.module, mutant.source)
        env = {"PYTHONPATH": str(self.path), "CHATSCHEMA_TS_PACKAGE": str(self.path / "typescript")}
        try:
            return run_pytest(self.root, env, tests, select, pytest_args, timeout)
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
