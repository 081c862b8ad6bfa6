"""Stopping on a signal: Ctrl-C (SIGINT) and SIGTERM alike end the run, report what was checked
before the signal, with the summary, and exit 130 or 143 (128 + the signal), never with a traceback."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

INTERRUPTED = 130  # 128 + SIGINT, as shells report it
TERMINATED = 143  # 128 + SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (`kill`, `timeout`, a container stopping): stop as for Ctrl-C. A KeyboardInterrupt,
    so that no `except Exception` on the way swallows it and every handler of Ctrl-C handles it."""

    exit_status = TERMINATED


def exit_status(stop: KeyboardInterrupt) -> int:
    """The exit status of a run stopped by `stop`: 143 for SIGTERM, 130 for Ctrl-C."""
    return TERMINATED if isinstance(stop, Terminated) else INTERRUPTED


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """While inside, SIGTERM raises `Terminated` in the main thread (signals can be handled there only;
    elsewhere, as when the command runs inside a program's worker thread, nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
