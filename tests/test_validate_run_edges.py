"""`chatschema.validate.run` at its edges: the reference has the last word on a message the fast
check refused (valid after all, counted once, no problem); `--unknown warn|allow` counts a message
of a type from a later release once, reports it only with `warn`, and still explains the invalid
ones; the top-level-array hint goes on the first error and keeps the others; `Options` is a value
(hashable, read-only); `run` checks in this process unless `jobs` > 1, then in that many workers,
with the input read by a daemon thread at most `2 * jobs` chunks ahead of the results taken, its
errors reaching the caller."""

from __future__ import annotations

import dataclasses
import io
import multiprocessing
import queue
import sys
import threading
import time
from collections.abc import Iterator

import orjson
import pytest

from chatschema.validate import Options, Problem, Result, read_document, read_lines, run
from chatschema.validate.reader import Chunk
from chatschema.validate.run import _ARRAY_HINT, Engine

USER = b'{"role":"user","content":"hi"}'
UNKNOWN = b'{"role":"critic","content":"a type from a later release"}'
INVALID = b'{"role":"user"}'  # a known type, missing its content


def _problems(results: list[Result]) -> list[Problem]:
    return [p for r in results for p in r.problems]


@pytest.mark.parametrize("schema", ["docent/ChatMessage", "auto"])
def test_a_message_the_fast_check_refuses_and_the_reference_accepts_is_valid(schema: str) -> None:
    """A fast backend stricter than the reference (a backend's bug) costs time, never a verdict:
    the reference explains each refused message, and has the last word."""
    engine = Engine(Options(schema, "fast"))
    engine.checker.is_valid = lambda value: False
    result = engine.check(Chunk("in.jsonl", False, 1, [USER, USER.replace(b"hi", b"ho"), INVALID], 0))
    assert (result.read, result.valid, result.invalid, result.malformed) == (3, 2, 1, 0)
    assert [p.status for p in result.problems] == ["invalid"]


@pytest.mark.parametrize("backend", ["jsonschema", "fast"])
def test_counted_only_a_refused_message_is_invalid_without_a_second_check(backend: str) -> None:
    """`--count-only` takes the fast check's verdict as it is: asking again, or asking the
    reference, would cost as much as explaining (docs/validate.md)."""
    engine = Engine(Options("docent/ChatMessage", backend, explain=False))
    asked: list[object] = []

    def refuse(value: object) -> bool:
        asked.append(value)
        return False

    engine.checker.is_valid = refuse
    result = engine.check(Chunk("in.jsonl", False, 1, [USER, INVALID], 0))
    assert (result.read, result.valid, result.invalid, len(asked), result.problems) == (2, 0, 2, 2, [])


def test_unknown_warn_reports_a_later_type_once_and_still_explains_the_invalid() -> None:
    data = USER + b"\n" + UNKNOWN + b"\n" + INVALID + b"\n"
    options = Options("docent/ChatMessage", unknown="warn")
    results = list(run(read_lines(io.BytesIO(data), "in.jsonl", 1 << 20), options))
    assert [(r.read, r.valid, r.invalid, r.malformed, r.unknown) for r in results] == [(3, 1, 1, 0, 1)]
    unknown, invalid = _problems(results)
    assert (unknown.where, unknown.status, unknown.schema, unknown.tag) == (
        "in.jsonl:2",
        "unknown",
        "docent/ChatMessage",
        ("role", "critic"),
    )
    assert unknown.reason == "unknown role 'critic': a type this version does not know"
    assert unknown.errors == () and unknown.violations == ()
    assert (invalid.where, invalid.status) == ("in.jsonl:3", "invalid") and invalid.errors


@pytest.mark.parametrize("explain", [True, False])
def test_unknown_allow_counts_a_later_type_without_reporting_it(explain: bool) -> None:
    data = UNKNOWN + b"\n" + INVALID + b"\n" + USER + b"\n"
    options = Options("docent/ChatMessage", unknown="allow", explain=explain)
    results = list(run(read_lines(io.BytesIO(data), "in.jsonl", 1 << 20), options))
    assert [(r.read, r.valid, r.invalid, r.malformed, r.unknown) for r in results] == [(3, 1, 1, 0, 1)]
    assert [(p.where, p.status) for p in _problems(results)] == ([("in.jsonl:2", "invalid")] if explain else [])


def test_unknown_error_explains_a_later_type_as_invalid() -> None:
    results = list(run(read_lines(io.BytesIO(UNKNOWN + b"\n"), "in.jsonl", 1 << 20), Options("docent/ChatMessage")))
    assert [(r.read, r.valid, r.invalid, r.unknown) for r in results] == [(1, 0, 1, 0)]
    (problem,) = _problems(results)
    assert problem.status == "invalid" and problem.errors[0][1].startswith("unknown role 'critic'")


def test_the_array_hint_goes_on_the_first_error_and_the_others_stay() -> None:
    """A top-level array with two errors at `$` (a string schema: not a string, not one of the roles)."""
    chunks = list(read_document(io.BytesIO(b"[]"), "roles.json", 1 << 20))
    (problem,) = _problems(list(run(chunks, Options("bridgic/Role"))))
    assert problem.errors == (
        ("$", "[] is not of type 'string'" + _ARRAY_HINT),
        ("$", "[] is not one of ['system', 'user', 'assistant', 'tool']"),
    )
    assert len(problem.violations) == 2  # the violations themselves are not changed


def test_options_are_a_value_hashable_and_read_only() -> None:
    options = Options("docent/ChatMessage", "fast", ("docent",), 10, False, "warn")
    assert options == Options("docent/ChatMessage", "fast", ("docent",), 10, False, "warn")
    assert {options: 1}[Options("docent/ChatMessage", "fast", ("docent",), 10, False, "warn")] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.schema = "docent/UserMessage"  # type: ignore[misc]


def _workers_while_running(jobs: int | None) -> tuple[int, int, int]:
    """Worker processes alive while `run` hands back its first result, and after the last; messages read."""
    before = set(multiprocessing.active_children())
    lines = b"".join(USER + b"\n" for _ in range(10))
    chunks = read_lines(io.BytesIO(lines), "in.jsonl", 1 << 20)
    options = Options("docent/ChatMessage")
    results = run(chunks, options) if jobs is None else run(chunks, options, jobs)
    first = next(results)
    during = len(set(multiprocessing.active_children()) - before)
    read = sum(r.read for r in [first, *results])
    return during, len(set(multiprocessing.active_children()) - before), read


@pytest.mark.parametrize(("jobs", "processes"), [(None, 0), (1, 0), (2, 2), (3, 3)])
def test_one_job_is_this_process_more_are_that_many_workers(jobs: int | None, processes: int) -> None:
    """`run` without `jobs`, or with 1, checks in this process; with `jobs` > 1, in that many workers,
    gone once the results are."""
    assert _workers_while_running(jobs) == (processes, 0, 10)


def _chunks(count: int, seen: list[threading.Thread], error: BaseException | None = None) -> Iterator[Chunk]:
    """`count` one-line chunks, noting the thread that reads each; then `error`, if any."""
    for i in range(count):
        seen.append(threading.current_thread())
        yield Chunk("in.jsonl", False, i + 1, [USER], len(USER) + 1)
    if error is not None:
        raise error


def test_with_workers_the_input_is_read_by_a_daemon_thread() -> None:
    """A thread reading a quiet pipe never keeps the process alive once the results are no longer wanted."""
    seen: list[threading.Thread] = []
    results = run(_chunks(3, seen), Options("docent/ChatMessage"), jobs=2)
    assert [r.valid for r in results] == [1, 1, 1]
    assert {(t.name, t.daemon) for t in seen} == {("chatschema-reader", True)}


def test_with_workers_an_error_reading_the_input_reaches_the_caller() -> None:
    """As without workers: the results before it, then the error (not a wait for input that never comes).
    The run is watched from a thread: the guard only ends a hang, which is the failure."""
    seen: list[threading.Thread] = []
    outcome: list[object] = []

    def consume() -> None:
        try:
            for result in run(_chunks(2, seen, OSError("disk gone")), Options("docent/ChatMessage"), jobs=2):
                outcome.append(result.valid)
        except OSError as exc:
            outcome.append(exc)

    watcher = threading.Thread(target=consume, daemon=True)
    watcher.start()
    watcher.join(60)  # a hang guard, not a measure: the error comes at once
    assert not watcher.is_alive(), "the read error never reached the caller"
    assert outcome[:-1] == [1, 1] and isinstance(outcome[-1], OSError) and str(outcome[-1]) == "disk gone"


def _stopped_for_room(thread: threading.Thread) -> bool:
    """Whether `thread` is blocked handing a chunk on: waiting in `Queue.put` while the queue is full,
    so that only the consumer taking an item lets it go on (notified, it would find room)."""
    frame = sys._current_frames().get(thread.ident or 0)
    waiting = False
    while frame is not None:
        handed = frame.f_locals.get("self")
        if frame.f_code.co_name == "put" and isinstance(handed, queue.Queue):
            return waiting and handed.full()
        waiting = waiting or frame.f_code.co_name == "wait"
        frame = frame.f_back
    return False


@pytest.mark.parametrize("jobs", [2, 3])
def test_with_workers_the_input_is_read_at_most_a_window_ahead(jobs: int) -> None:
    """One result taken, then none: the reader stops after `2 * jobs` more chunks (and the one it holds),
    however long it is left; the rest is read as the results are taken."""
    seen: list[threading.Thread] = []
    results = run(_chunks(100, seen), Options("docent/ChatMessage"), jobs=jobs)
    assert next(results).valid == 1
    assert seen[0] is not threading.current_thread()  # a reader of its own
    while not _stopped_for_room(seen[0]):  # the reader runs until it has no room: an order, not a time
        assert len(seen) < 100, "the reader never stopped"
        time.sleep(0.001)
    assert len(seen) == 1 + 2 * jobs + 1  # taken, in flight, held
    assert sum(r.valid for r in results) == 99


def test_under_auto_a_message_valid_after_all_is_explained_by_the_type_it_matches() -> None:
    checker = Engine(Options("auto", "fast")).checker
    checker.is_valid = lambda value: False
    assert checker.explain(orjson.loads(USER)) == ("docent/ChatMessage", [], 0)
