"""datamodel-codegen in a process of its own, started before anything else of a build.

The generator's first run imports most of itself (about 0.45 s of CPU). `python -m codegen generate`
forks this process first thing, before codegen's own modules are imported, so that the warm-up
runs on the other core while the build imports, lints, reads the cache and starts Node; a build
that turns out to need no generator run ends it at once. Only the standard library is imported
here: the process imports the generator itself.
"""

from __future__ import annotations

import atexit
import multiprocessing
from multiprocessing.connection import Connection


class WarmGenerator:
    """A forked process that warms the generator up, then runs the runs it is sent (see
    `codegen.pythongen.run_all`). Start it before any thread: it is a fork."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, theirs = context.Pipe()
        # not a daemon: a daemon may not fork, and the process forks workers for a large build
        self._process = context.Process(target=_serve, args=(theirs,), name="chatschema-codegen-generator")
        self._process.start()
        theirs.close()
        # before multiprocessing's own exit handler, which would wait for this process forever
        atexit.register(self.close)

    def run_all(self, runs: list[list[str]]) -> None:
        """Run every generator run in the warm process; RuntimeError naming the first failure."""
        from .pythongen import raise_first

        try:
            self._conn.send(runs)
            failures: list[tuple[str, str]] = self._conn.recv()
        except (EOFError, OSError):
            raise RuntimeError(f"the generator process ended unexpectedly (exit {self._process.exitcode})") from None
        raise_first(failures)

    def close(self) -> None:
        """End the process, at once if it is still warming up (again: nothing)."""
        if self._conn.closed:
            return
        self._conn.close()
        self._process.terminate()
        self._process.join()
        atexit.unregister(self.close)


def _serve(conn: Connection) -> None:
    from .pythongen import failures, warm_up

    warm_up()
    while True:
        try:
            runs = conn.recv()
        except EOFError:  # the build is over, or ended before it needed a run
            return
        conn.send(failures(runs))
