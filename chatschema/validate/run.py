"""Checking chunks of messages, in this process or in a pool of processes, results in input order."""

from __future__ import annotations

import gc
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import not_
from typing import Any, cast

from chatschema.jsontext import MAX_DEPTH, Malformed, loader, needs_depth_check, parse, too_deep
from chatschema.schemas import Violation, short_repr

from .backends import Checker
from .pool import Workers, workers
from .reader import CONTINUE, JSON_SPACE, Broken, Chunk, Item, TooLarge

_BATCH = 256  # messages parsed before they are checked, in `Engine._fast`


@dataclass(frozen=True)
class Options:
    """What to check against and how; everything a worker process needs to build its checker."""

    schema: str
    backend: str = "jsonschema"
    families: tuple[str, ...] = ()
    max_depth: int = MAX_DEPTH
    explain: bool = True  # False: invalid messages are counted, not explained (`--count-only`)
    unknown: str = "error"  # a message of a type from a later release: "error", "warn" or "allow" (`--unknown`)


@dataclass(slots=True)
class Problem:
    """One message that is not valid: where it is, and why.

    Mutable: `run` moves each problem's number from its chunk to its file in place, where a copy per
    problem cost a third of the time of a run of all-invalid messages."""

    source: str
    indexed: bool
    number: int  # line number, or array index when `indexed` (within its chunk, until `run` places it)
    status: str  # "invalid", "malformed" or "unknown" (`--unknown warn`)
    schema: str | None  # the schema it was checked against (invalid and unknown only)
    errors: tuple[tuple[str, str], ...] = ()  # (JSON path, reason) for an invalid message
    reason: str = ""  # why a malformed message could not be read; for an unknown one, what its tag says
    omitted: int = 0  # violations beyond the first `schemas.MAX_VIOLATIONS`, counted only
    violations: tuple[Violation, ...] = ()  # the same violations whole (keyword, pointers, params)
    tag: tuple[str, str] | None = None  # an unknown one's tag and the value no branch has

    @property
    def where(self) -> str:
        return f"{self.source}[{self.number}]" if self.indexed else f"{self.source}:{self.number}"


@dataclass
class Result:
    """The outcome of one chunk: counts, and the problems in input order."""

    read: int = 0
    valid: int = 0
    invalid: int = 0
    malformed: int = 0
    size: int = 0
    items: int = 0  # lines or elements the chunk held, blank lines included
    problems: list[Problem] = field(default_factory=list)
    unknown: int = 0  # messages of a type from a later release, with `--unknown warn` or `allow`

    def add(self, other: Result) -> None:
        self.read += other.read
        self.valid += other.valid
        self.invalid += other.invalid
        self.malformed += other.malformed
        self.unknown += other.unknown
        self.size += other.size


class Engine:
    """Parses and checks chunks: a fast loop for the valid majority, the reference for the rest."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.checker = Checker(options.schema, options.backend, options.families)
        self.loads: Callable[[bytes], Any] = loader()
        # the last explanation's lines: messages explained by their tag alone share their violations
        self._last: tuple[Sequence[Violation], tuple[tuple[str, str], ...]] = ((), ())

    def check(self, chunk: Chunk) -> Result:
        items = chunk.messages()
        suspects: list[int] = []
        parsed: dict[int, Any] = {}  # the suspects `_fast` parsed as `_slow` would: not parsed again
        # Parsed JSON and jsonschema-rs make no reference cycles, so the fast backend's loop can do
        # without the cycle collector; the reference's errors do make cycles (`error.parent`).
        collecting = gc.isenabled() and self.options.backend == "fast"
        if collecting:
            gc.disable()
        try:
            valid = self._fast(items, suspects, parsed)
        finally:
            if collecting:
                gc.enable()
        result = Result(valid=valid, size=chunk.size, items=len(items))
        for i in suspects:
            self._slow(chunk, i, result, parsed)
        result.read = result.valid + result.invalid + result.malformed + result.unknown
        return result

    def _fast(self, items: list[Item], suspects: list[int], parsed: dict[int, Any]) -> int:
        """Count the messages that parse and are valid; list the others (`suspects`) for `_slow`,
        with the values of those that parsed (`parsed`, by position)."""
        if needs_depth_check(self.loads, self.options.max_depth):
            return self._fast_measured(items, suspects)
        # Parsing and checking run in C loops (map, list.extend, list.count): a Python loop per
        # message would cost as much as checking it. Batches keep the parsed values few and warm.
        loads = self.loads
        is_valid = self.checker.is_valid
        valid = 0
        for start in range(0, len(items), _BATCH):
            batch = items[start : start + _BATCH]
            values: list[Any] = []
            failed: list[int] = []  # positions in the batch of the items that did not parse
            loaded = map(loads, cast("list[bytes]", batch))  # a TooLarge or Broken item makes orjson raise too
            while True:
                try:
                    values.extend(loaded)  # keeps what it got before an exception; `loaded` goes on after it
                    break
                except Exception:
                    failed.append(len(values) + len(failed))
            verdicts = list(map(is_valid, values))
            good = verdicts.count(True)
            valid += good
            if good == len(batch):
                continue
            if failed:  # rare: a Python loop over this batch only
                skip = set(failed)
                parsed_at = [i for i in range(len(batch)) if i not in skip]
                bad = sorted([*failed, *compress(parsed_at, map(not_, verdicts))])
                suspects.extend(start + i for i in bad)
            else:
                bad = list(compress(range(start, start + len(batch)), map(not_, verdicts)))
                suspects.extend(bad)
                parsed.update(zip(bad, compress(values, map(not_, verdicts)), strict=True))
        return valid

    def _fast_measured(self, items: list[Item], suspects: list[int]) -> int:
        """`_fast` when parsed messages must also be measured for depth (a parser other than orjson, or a
        `--max-depth` below its own limit)."""
        loads = self.loads
        is_valid = self.checker.is_valid
        max_depth = self.options.max_depth
        valid = 0
        for i, item in enumerate(items):
            if item.__class__ is bytes:
                try:
                    value = loads(item)
                except Exception:
                    suspects.append(i)
                    continue
                if is_valid(value) and not too_deep(item, value, max_depth):
                    valid += 1
                    continue
            suspects.append(i)
        return valid

    def _malformed(self, chunk: Chunk, number: int, reason: str, result: Result) -> None:
        result.malformed += 1
        result.problems.append(Problem(chunk.source, chunk.indexed, number, "malformed", None, reason=reason))

    def _slow(self, chunk: Chunk, i: int, result: Result, parsed: dict[int, Any]) -> None:
        number = i  # `run` adds where the chunk starts
        if i in parsed:  # parsed by `_fast` exactly as `parse` would (no depth to measure there)
            return self._explain(chunk, number, parsed[i], result)
        item = chunk.items[i]
        if isinstance(item, TooLarge):
            return self._malformed(chunk, number, item.reason(), result)
        if isinstance(item, Broken):
            return self._malformed(chunk, number, item.message, result)
        if not item.strip(JSON_SPACE):
            return None  # a blank line is not a message
        try:
            value = parse(item, self.loads, self.options.max_depth)
        except Malformed as exc:
            hint = _jsonl_hint(item, self.loads) if chunk.document else ""
            reason = (f"{exc} (--max-depth)" if exc.too_deep else str(exc)) + hint
            return self._malformed(chunk, number, reason, result)
        return self._explain(chunk, number, value, result)

    def _explain(self, chunk: Chunk, number: int, value: Any, result: Result) -> None:
        """Count a message that parsed and the fast check refused (valid after all, invalid, or of an
        unknown type), and say why it is invalid."""
        if self.options.unknown != "error" and self._kept_unknown(chunk, number, value, result):
            return None
        if not self.options.explain:
            result.invalid += 1  # the fast check's verdict stands: the reference would cost what explaining does
            return None
        schema, violations, omitted = self.checker.explain(value)
        if not violations:
            result.valid += 1
            return None
        result.invalid += 1
        if violations is self._last[0]:
            errors = self._last[1]
        else:
            errors = tuple([(v.path, v.message) for v in violations])
            self._last = (violations, errors)
        if isinstance(value, list) and chunk.document and errors and errors[0][0] == "$":
            errors = ((errors[0][0], errors[0][1] + _ARRAY_HINT), *errors[1:])
        found = violations if isinstance(violations, tuple) else tuple(violations)
        result.problems.append(
            Problem(chunk.source, chunk.indexed, number, "invalid", schema, errors, "", omitted, found)
        )
        return None

    def _kept_unknown(self, chunk: Chunk, number: int, value: Any, result: Result) -> bool:
        """Count a message of a type from a later release (`--unknown warn|allow`), reported with
        `warn`; whether it was one."""
        found = self.checker.unknown_of(value)
        if found is None:
            return False
        result.unknown += 1
        if self.options.unknown == "warn":
            union, tag, tag_value = found
            reason = f"unknown {tag} {short_repr(tag_value)}: a type this version does not know"
            unknown = Problem(
                chunk.source, chunk.indexed, number, "unknown", union, reason=reason, tag=(tag, tag_value)
            )
            result.problems.append(unknown)
        return True


_ARRAY_HINT = " (a top-level array: --each validates its elements)"


def _jsonl_hint(data: bytes, loads: Callable[[bytes], Any]) -> str:
    """For a `.json` file that does not parse: a hint when its first line is a message on its own (JSONL)."""
    first, _, rest = data.strip(JSON_SPACE).partition(b"\n")
    if not rest.strip(JSON_SPACE):
        return ""
    try:
        loads(first)
    except Exception:
        return ""
    return " (a .json file is one JSON document; this looks like JSONL, one message per line: name it .jsonl)"


def _checker(options: Options) -> Callable[[Chunk], Result]:
    """In a worker process: what checks each chunk sent to it."""
    return Engine(options).check


def run(chunks: Iterable[Chunk], options: Options, jobs: int = 1) -> Iterator[Result]:
    """Check every chunk; results come in input order. With `jobs` > 1, a pool of processes does the
    work while at most a few chunks per process are in flight, so memory stays bounded."""
    position = 0  # the line number after the last chunk's lines
    for first, result in _results(chunks, options, jobs):
        base = first if first != CONTINUE else position
        if base:
            for problem in result.problems:  # fresh objects of this run: moved in place (see Problem)
                problem.number += base
        position = base + result.items
        yield result


def _results(chunks: Iterable[Chunk], options: Options, jobs: int) -> Iterator[tuple[int, Result]]:
    if jobs <= 1:
        engine = Engine(options)
        for chunk in chunks:
            yield chunk.first, engine.check(chunk)
        return
    Engine(options)  # fail here, not in the workers, on a bad schema or a missing backend
    with workers(jobs, _checker, options) as pool:
        yield from _in_order(pool, chunks, 2 * jobs)


def _in_order(pool: Workers, chunks: Iterable[Chunk], window: int) -> Iterator[tuple[int, Result]]:
    """The workers' results in input order, each as soon as it and those before it are known.

    Chunks go to the workers in turn, so each worker's replies come in input order too. A thread
    reads and hands out the chunks, so waiting for input (a pipe that is quiet for a while) never
    holds back a result that is ready; at most about `window` chunks are in flight."""
    handed: queue.Queue[tuple[int, int] | BaseException | None] = queue.Queue(maxsize=window)
    stop = threading.Event()
    count = len(pool.links)

    def feed() -> None:
        try:
            for number, chunk in enumerate(chunks):
                if stop.is_set():
                    return
                pool.send(number % count, chunk)
                handed.put((chunk.first, number % count))
        except BaseException as exc:  # a read error goes to the caller, as it would without the thread
            if not stop.is_set():
                handed.put(exc)
            return
        handed.put(None)

    threading.Thread(target=feed, name="chatschema-reader", daemon=True).start()
    try:
        while (item := handed.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            first, worker = item
            yield first, pool.receive(worker)
    finally:
        stop.set()
