"""The worker processes of `--jobs` (chatschema/validate/pool.py), directly: replies in the order
sent, a worker's exception raised where its reply is read, and a worker that ends said as it ended."""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from chatschema.validate import pool


def _square_or_fail(offset: int) -> Any:
    def handle(task: int) -> Any:
        if task < 0:
            raise ValueError(f"negative: {task}")
        if task in (98, 99):
            os._exit(task - 98)  # a worker that ends on its own, with a status (0 or 1)
        if task == 97:
            time.sleep(0.5)  # the tasks sent after this one arrive, unread
            os._exit(1)
        if task == 7:
            return lambda: None  # a reply that cannot be pickled
        return task * task + offset

    return handle


def test_replies_come_in_the_order_sent_and_an_exception_is_raised_at_its_reply() -> None:
    with pool.workers(2, _square_or_fail, 1) as workers:
        for task in range(6):
            workers.send(task % 2, task)
        assert [workers.receive(task % 2) for task in range(6)] == [1, 2, 5, 10, 17, 26]
        workers.send(0, -4)
        with pytest.raises(ValueError, match="negative: -4"):
            workers.receive(0)
        workers.send(0, 3)  # the worker goes on after a task that failed
        assert workers.receive(0) == 10
    assert all(p.exitcode == 0 for p in workers.processes)  # ended by their pipe closing, not a signal


def _slow_to_leave(marker: str) -> Callable[[int], int]:
    """A worker whose exit handler takes a while, then leaves a file behind."""

    def leave() -> None:
        time.sleep(0.5)
        Path(f"{marker}.{os.getpid()}").touch()

    multiprocessing.util.Finalize(None, leave, exitpriority=0)
    return lambda task: task


def test_workers_done_with_their_work_leave_as_processes_do_their_exit_handlers_run(tmp_path: Path) -> None:
    """Done without a stop, each worker is ended by its pipe closing, not by a signal: its exit
    handlers run to their end, however long they take (within the grace period)."""
    with pool.workers(2, _slow_to_leave, str(tmp_path / "left")) as workers:
        workers.send(0, 1)
        workers.send(1, 2)
        assert [workers.receive(0), workers.receive(1)] == [1, 2]
    assert [p.exitcode for p in workers.processes] == [0, 0]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(f"left.{p.pid}" for p in workers.processes)


def test_a_worker_that_exits_is_said_to_have_with_its_status() -> None:
    with pool.workers(1, _square_or_fail, 0) as workers:
        workers.send(0, 99)
        with pytest.raises(ChildProcessError, match=r"\(pid \d+\) ended before its work was done \(exit status 1\)$"):
            workers.receive(0)
        workers.send(0, 2)  # sending to a worker that has gone is not an error: receiving says it
        with pytest.raises(ChildProcessError, match="exit status 1"):
            workers.receive(0)
    with pool.workers(1, _square_or_fail, 0) as workers:
        workers.send(0, 98)
        with pytest.raises(ChildProcessError, match=r"\(exit status 0\)$"):
            workers.receive(0)


def test_a_worker_that_ends_with_tasks_unread_is_said_to_have_too() -> None:
    """Its pipe is then reset rather than ended (ConnectionResetError, not EOFError): the same words."""
    with pool.workers(1, _square_or_fail, 0) as workers:
        for task in (97, 2, 3):
            workers.send(0, task)
        with pytest.raises(ChildProcessError, match=r"\(pid \d+\) ended before its work was done \(exit status 1\)$"):
            workers.receive(0)


def test_a_reply_that_cannot_be_sent_is_an_error_where_it_is_read() -> None:
    with pool.workers(1, _square_or_fail, 0) as workers:
        workers.send(0, 7)
        with pytest.raises(RuntimeError, match="a worker's reply could not be sent"):
            workers.receive(0)
        workers.send(0, 2)
        assert workers.receive(0) == 4


def test_a_worker_that_neither_answers_nor_ends_is_said_to(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "_GRACE", 0.1)
    process = multiprocessing.get_context("fork").Process(target=time.sleep, args=(30,), daemon=True)
    process.start()
    try:
        assert pool._death(process).endswith("(it no longer answers)")
    finally:
        process.kill()
        process.join()


def test_a_worker_whose_start_fails_gives_the_reason_for_every_task() -> None:
    def broken(argument: Any) -> Any:
        raise RuntimeError(f"cannot start with {argument}")

    with pool.workers(1, broken, "x") as workers:
        for _ in range(2):
            workers.send(0, 1)
            with pytest.raises(RuntimeError, match="cannot start with x"):
                workers.receive(0)


def test_stopping_ends_busy_workers_at_once() -> None:
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), pool.workers(2, lambda _: time.sleep, None) as workers:
        workers.send(0, 30)
        workers.send(1, 30)
        raise KeyboardInterrupt
    assert [p.exitcode for p in workers.processes] == [-signal.SIGTERM] * 2  # at once, not killed after a wait
    assert time.monotonic() - started < 25  # not after their 30 s of work


def _deaf(argument: Any) -> Any:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a worker that does not hear SIGTERM
    return time.sleep


def test_a_worker_that_does_not_end_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "_GRACE", 0.5)
    with pytest.raises(KeyboardInterrupt), pool.workers(1, _deaf, None) as workers:
        workers.send(0, 30)
        time.sleep(0.3)  # the worker has taken its task (and ignores SIGTERM from now on)
        raise KeyboardInterrupt
    assert [p.exitcode for p in workers.processes] == [-signal.SIGKILL]
