"""Output: one line per invalid or malformed message (text or JSONL), a progress bar, the summary."""

from __future__ import annotations

import functools
import json
import re
import time
from typing import TextIO

from chatschema.schemas import Violation

from .run import Problem, Result


def _where(problem: Problem) -> str:
    """`file:line` or `file[index]`, the file's name printable (numbers are: only the name is escaped)."""
    name = _printable_source(problem.source)
    return f"{name}[{problem.number}]" if problem.indexed else f"{name}:{problem.number}"


def text_line(problem: Problem, show_schema: bool = False) -> str:
    """`file:line: $.path: reason` (`file[index]` for array elements); several violations joined by `; `."""
    where = _where(problem)
    if problem.status == "malformed":
        return f"{where}: malformed: {problem.reason}"
    if problem.status == "unknown":
        return f"{where}: warning: {problem.reason}" + (f" [{problem.schema}]" if show_schema else "")
    reasons = _reasons(problem.errors)
    if problem.omitted:
        reasons += f"; and {problem.omitted:,} more violation{'s' if problem.omitted != 1 else ''}"
    suffix = f" [{problem.schema}]" if show_schema and problem.schema else ""
    return f"{where}: {reasons}{suffix}"


@functools.lru_cache(maxsize=256)
def _reasons(errors: tuple[tuple[str, str], ...]) -> str:
    """`path: message; ...`, once per distinct errors: a run of one wrong tag explains many messages alike."""
    return "; ".join([f"{path}: {message}" for path, message in errors])


def json_record(problem: Problem) -> str:
    """The same as one JSON object (a JSONL line)."""
    record: dict[str, object] = {"file": _printable_source(problem.source)}
    record["index" if problem.indexed else "line"] = problem.number
    record["status"] = problem.status
    if problem.status == "malformed":
        record["reason"] = problem.reason
    elif problem.status == "unknown" and problem.tag is not None:
        record["schema"] = problem.schema
        record["reason"] = problem.reason
        record["tag"], record["value"] = problem.tag
    else:
        record["schema"] = problem.schema
        record["errors"] = [
            _error(path, message, problem.violations, i) for i, (path, message) in enumerate(problem.errors)
        ]
        if problem.omitted:
            record["omitted"] = problem.omitted  # violations beyond `errors`, counted only
    return json.dumps(record, ensure_ascii=False)


def _error(path: str, message: str, violations: tuple[Violation, ...], index: int) -> dict[str, object]:
    """One entry of `errors`: the line's path and message, then the violation's keyword, pointers and
    params as the npm package's `violations()` gives them (Violation.to_json)."""
    entry: dict[str, object] = {"path": path, "message": message}
    if index < len(violations):
        details = violations[index].to_json()
        entry.update((key, details[key]) for key in ("keyword", "instancePath", "schemaPath", "params"))
    return entry


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def printable_name(source: str) -> str:
    """A file name as one line of text: the bytes of a name that is not UTF-8 as `\\xff` escapes (a
    lone surrogate, as `os.fsdecode` gives them, is not valid JSON text), control characters and line
    separators as `\\n`, `\\x1b`, `\\u2028`, so a name can neither split an output line nor reach the
    terminal raw."""
    if _has_surrogate(source):
        source = source.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return _CONTROL.sub(_escaped, source) if _CONTROL.search(source) else source


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@functools.lru_cache(maxsize=256)
def _printable_source(source: str) -> str:
    """`printable_name` of a file, once per file: every problem of a file names it."""
    return printable_name(source)


def _escaped(found: re.Match[str]) -> str:
    return found.group().encode("unicode_escape").decode("ascii")


class Reporter:
    """Prints problems to `out` as they come, a progress bar on `err` when asked, and the summary."""

    def __init__(
        self,
        out: TextIO,
        err: TextIO,
        fmt: str = "text",
        progress: bool = False,
        show_schema: bool = False,
        show_unknown: bool = False,
    ) -> None:
        self.out = out
        self.show_unknown = show_unknown  # `--unknown warn|allow`: the summary counts them
        self.err = err
        self.fmt = fmt
        self.progress = progress
        self.show_schema = show_schema
        self.total = Result()
        self.started = time.perf_counter()
        self.last_bar = 0.0
        self.bar_shown = False
        self.expected_size = 0  # bytes of input, when known, for a percentage

    def add(self, result: Result) -> None:
        self.total.add(result)
        if result.problems:
            self._clear_bar()
            for problem in result.problems:
                line = json_record(problem) if self.fmt == "json" else text_line(problem, self.show_schema)
                self.out.write(line + "\n")
        if self.progress:
            now = time.perf_counter()
            if now - self.last_bar >= 0.2:
                self.last_bar = now
                self._bar(now)

    def _bar(self, now: float) -> None:
        t = self.total
        rate = t.read / max(now - self.started, 1e-9)
        share = ""
        if self.expected_size:
            fraction = min(t.size / self.expected_size, 1.0)
            filled = int(fraction * 20)
            share = f"[{'#' * filled}{'.' * (20 - filled)}] {fraction:4.0%} "
        self.err.write(
            f"\r{share}{t.read:,} read, {t.invalid:,} invalid, {t.malformed:,} malformed, {rate:,.0f} msg/s\x1b[K"
        )
        self.err.flush()
        self.bar_shown = True

    def _clear_bar(self) -> None:
        if self.bar_shown:
            self.err.write("\r\x1b[K")
            self.bar_shown = False

    def summary(self) -> str:
        t = self.total
        elapsed = time.perf_counter() - self.started
        rate = t.read / elapsed if elapsed > 0 else 0.0
        unknown = f", {t.unknown:,} of unknown types" if self.show_unknown else ""
        return (
            f"{t.read:,} read, {t.valid:,} valid, {t.invalid:,} invalid, {t.malformed:,} malformed{unknown} "
            f"in {elapsed:.2f}s ({rate:,.0f} msg/s)"
        )

    def finish(self) -> None:
        self._clear_bar()
        self.out.flush()
        self.err.write(f"chatschema validate: {self.summary()}\n")
        self.err.flush()
