"""Worker processes for `--jobs`, each with a pipe of its own: the workers share no lock.

Why not `multiprocessing.Pool`: its workers share one task queue and one result queue, each guarded
by a lock held across processes. A SIGTERM to the whole process group (systemd, a container runtime,
`kill -- -PGID`) can kill a worker while it holds one, just as it hands back a result, and the pool's
own shutdown then waits for that lock for ever. Here a worker that dies only closes its own pipe: the
parent reads the end of it and says so, and stopping never waits on a lock."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # ForkContext exists only where fork does
    from multiprocessing.context import ForkContext, SpawnContext

STOPS = {signal.SIGINT, signal.SIGTERM}
_GRACE = 5.0  # seconds a worker has to end after SIGTERM before it is killed

Start = Callable[[Any], Callable[[Any], Any]]  # in a worker: argument -> what to do with each task


class Workers:
    """Processes that each run `start(argument)` once, then apply what it returns to every task sent
    to them, in the order sent. Tasks and replies are pickled; an exception is raised where the reply
    is received."""

    def __init__(self) -> None:
        self.processes: list[BaseProcess] = []
        self.links: list[Connection] = []

    def start(self, count: int, start: Start, argument: Any) -> None:
        if "fork" in multiprocessing.get_all_start_methods():
            context: ForkContext | SpawnContext = multiprocessing.get_context("fork")
        else:
            context = multiprocessing.get_context("spawn")
        for _ in range(count):
            here, there = context.Pipe()
            # A forked worker holds copies of the parent's ends of its own pipe and of those made before
            # it: it closes them, or a worker would not see the end of its pipe when the parent closes it.
            inherited = [*self.links, here] if context.get_start_method() == "fork" else []
            process = context.Process(target=_serve, args=(there, inherited, start, argument), daemon=True)
            self.links.append(here)
            self.processes.append(process)
            process.start()
            there.close()

    def send(self, index: int, task: Any) -> None:
        """Hand `task` to worker `index`."""
        try:
            self.links[index].send(task)
        except BrokenPipeError:  # the worker has gone: `receive` says how
            pass

    def receive(self, index: int) -> Any:
        """The reply of worker `index` to the oldest task it has not answered yet."""
        try:
            ok, value = self.links[index].recv()
        except (EOFError, ConnectionResetError):  # reset: it ended with tasks unread in its pipe
            raise ChildProcessError(_death(self.processes[index])) from None
        if not ok:
            raise value
        return value

    def close(self, at_once: bool) -> None:
        """End every worker and wait until each has: when the work is done, by closing its pipe (it
        leaves as a process should, its exit handlers run); when stopped (`at_once`), busy or not,
        by SIGTERM. One that does not end within a few seconds is killed."""
        for link in self.links:
            link.close()
        started = [p for p in self.processes if p.pid is not None]
        if at_once:
            for process in started:
                if process.exitcode is None:
                    process.terminate()
        for process in started:
            process.join(_GRACE)
            if process.exitcode is None:
                process.kill()
                process.join()


@contextmanager
def workers(count: int, start: Start, argument: Any) -> Iterator[Workers]:
    """`count` workers, all ended on the way out, whatever ends the block.

    SIGINT and SIGTERM are held while the workers are forked (each sets its own handling before it
    takes them) and while they are ended: one arriving then is raised inside this block, where
    every worker forked so far is ended, so a signal at any moment leaves none behind."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    pool = Workers()
    done = False
    try:
        pool.start(count, start, argument)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        yield pool
        done = True
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        try:
            pool.close(at_once=not done)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _death(process: BaseProcess) -> str:
    process.join(_GRACE)
    code = process.exitcode
    if code is not None and code < 0:
        how = f"killed by {signal.Signals(-code).name}"
    else:
        how = f"exit status {code}" if code is not None else "it no longer answers"
    return f"a worker process (pid {process.pid}) ended before its work was done ({how})"


def _own_signals() -> None:
    """A worker's handling of the stops: Ctrl-C is the parent's to report (it stops the workers),
    SIGTERM ends the worker at once. Both were held since the fork; they are taken from here on."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)


def _serve(link: Connection, inherited: list[Connection], start: Start, argument: Any) -> None:
    _own_signals()
    for other in inherited:
        other.close()
    try:
        handle = start(argument)
    except Exception as exc:  # every task gets the reason, raised in the parent
        handle = _raising(exc)
    while True:
        try:
            task = link.recv()
        except (EOFError, OSError):  # the parent closed its end: no more work
            return
        try:
            reply: tuple[bool, Any] = (True, handle(task))
        except Exception as exc:
            reply = (False, exc)
        try:
            link.send(reply)
        except OSError:  # the parent has gone
            return
        except Exception as exc:  # a reply that cannot be pickled
            link.send((False, RuntimeError(f"a worker's reply could not be sent: {exc}")))


def _raising(exc: Exception) -> Callable[[Any], Any]:
    def handle(task: Any) -> Any:
        raise exc

    return handle
