"""datamodel-codegen, and the check of what it made, in processes of their own started before
anything else of a build.

The generator's first run imports most of itself (about 0.45 s of CPU). `python -m codegen generate`
forks this process first thing, before codegen's own modules are imported, so that the warm-up
runs on the other core while the build imports, lints, reads the cache and starts Node; a build
that turns out to need no generator run ends it at once. The verifier likewise imports Pydantic
and jsonschema while the build runs. Only the standard library is imported here: each process
imports what it needs itself.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, ClassVar


class _Forked:
    """A process forked from this one, spoken to through a pipe. Start it before any thread."""

    _ours: ClassVar[list[Connection]] = []  # this process's ends of the pipes of its forked processes

    def __init__(self, target: Callable[[Connection], None], name: str, daemon: bool) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, theirs = context.Pipe()
        inherited = (*_Forked._ours, self._conn)
        self._process = context.Process(target=_child, args=(target, theirs, inherited), name=name, daemon=daemon)
        self._process.start()
        theirs.close()
        _Forked._ours.append(self._conn)
        # before multiprocessing's own exit handler, which would wait for this process forever
        atexit.register(self.close)

    def _answer(self) -> Any:
        """The process's next message; RuntimeError if it ended without one."""
        try:
            return self._conn.recv()
        except (EOFError, OSError):
            name = self._process.name
            raise RuntimeError(f"the {name} process ended unexpectedly (exit {self._process.exitcode})") from None

    def close(self) -> None:
        """End the process, at once if it is still warming up (again: nothing)."""
        if self._conn.closed:
            return
        _Forked._ours.remove(self._conn)
        self._conn.close()
        self._process.terminate()
        self._process.join()
        atexit.unregister(self.close)


def _child(target: Callable[[Connection], None], conn: Connection, inherited: tuple[Connection, ...]) -> None:
    # A fork holds copies of the parent's ends: closed, so that the parent's end, however it comes
    # (even SIGKILL), is an end of input here, and the process ends rather than wait for ever.
    for end in inherited:
        end.close()
    target(conn)


class WarmGenerator(_Forked):
    """A forked process that warms the generator up, then runs the runs it is sent (see
    `codegen.pythongen.run_all`). Start it before any thread: it is a fork."""

    def __init__(self) -> None:
        # not a daemon: a daemon may not fork, and the process forks workers for a large build
        super().__init__(_serve, "generator", daemon=False)

    def run_all(self, runs: list[list[str]]) -> None:
        """Run every generator run in the warm process; RuntimeError naming the first failure."""
        from .pythongen import raise_first

        try:
            self._conn.send(runs)
        except OSError:
            pass  # it ended: _answer says so
        failures: list[tuple[str, str]] = self._answer()
        raise_first(failures)


def _serve(conn: Connection) -> None:
    # close() ends this process with SIGTERM, most often during the warm-up: taken as an exit there,
    # so that the warm-up's temporary folder is removed (ended outright, one stayed behind per build)
    signal.signal(signal.SIGTERM, _exit)
    from .pythongen import failures, warm_up

    warm_up()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        try:
            runs = conn.recv()
        except EOFError:  # the build is over, or ended before it needed a run
            return
        conn.send(failures(runs))


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(0)


class WarmVerifier(_Forked):
    """A forked process that imports what codegen/verify_tree.py needs from outside the package
    (Pydantic, jsonschema: about 0.1 s) while the build runs, then checks one staged tree as
    `python -P verify_tree.py` would, in a process of its own. Start it before any thread: it is a fork."""

    def __init__(self) -> None:
        super().__init__(_verify_when_asked, "verifier", daemon=True)

    def start(self, staging: Path, schemas: Path, env: dict[str, str]) -> None:
        """Begin checking the tree at `staging` against the examples in `schemas`; `env`: the
        CHATSCHEMA_VERIFY_* settings (verify_tree.py)."""
        try:
            self._conn.send((str(staging), str(schemas), env))
        except OSError:
            pass  # it ended: result() says so

    def result(self) -> list[str]:
        """The problems found (none: the tree works); RuntimeError if the process ended without a verdict."""
        problems: list[str] = self._answer()
        return problems


def _verify_when_asked(conn: Connection) -> None:
    import jsonschema  # noqa: F401 (the warm-up: what verify_tree.py imports besides the package)
    import pydantic  # noqa: F401

    try:
        staging, schemas, env = conn.recv()
    except EOFError:  # the build needed no verification
        return
    from . import verify_tree

    try:
        os.environ.update(env)
        sys.dont_write_bytecode = True  # as PYTHONDONTWRITEBYTECODE: the staging tree is thrown away
        sys.path.insert(0, staging)  # the new tree, before the checkout (verify_tree checks where from)
        for name in [m for m in sys.modules if m == "chatschema" or m.startswith("chatschema.")]:
            del sys.modules[name]  # imported before the fork (codegen does not; a test process may): not the new tree
        sys.setrecursionlimit(10_000)
        problems = verify_tree.verify(Path(staging), Path(schemas))
    except BaseException as exc:  # a generated module may even exit: a verdict, not a silent end
        problems = [f"the verification failed: {verify_tree.first_line(exc)}"]
    conn.send(problems)
