"""Files cut into byte-range blocks, each checked on its own by the engine of `chatschema validate`.

A JSONL block owns the lines that *start* in its byte range `[start, end)`: it skips the rest of a
line that began before it and reads its own last line past `end`, to that line's newline, so a
line that straddles a boundary is read once, by the block where it starts (as Hadoop's
TextInputFormat does). A block reports how many lines it holds and numbers its problems from 1;
`line_offsets` turns the counts into each block's place in its file, so problems get their line
numbers in the whole file without a second pass over the data. A `.json` document and a `--each`
array are one block each (an array cannot be cut without reading it from the start).

Nothing here imports Dask: any engine that can call a function per partition (Spark's
`mapPartitions`, a process pool) can run `check_block` and place the results with `placed`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO, Protocol, cast

from chatschema.validate.reader import BLOCK, Chunk, read_array, read_document, read_lines
from chatschema.validate.run import Options, Problem, Result, run

LINES, DOCUMENT, ARRAY = "lines", "document", "array"


class FileSystem(Protocol):
    """What a block needs of its file system: an fsspec `AbstractFileSystem` has it."""

    def open(self, path: str, mode: str = "rb") -> Any: ...


@dataclass(frozen=True)
class Block:
    """Bytes `[start, end)` of one file, read as `kind` (LINES, DOCUMENT or ARRAY)."""

    source: str  # the file's name in every problem and error
    fs: FileSystem
    path: str  # the path within `fs`
    start: int
    end: int
    kind: str
    index: int  # the block's number within its file, from 0


@dataclass
class Counts:
    """A block's outcome without its problems: enough for the summary and for placing lines."""

    source: str
    index: int
    items: int = 0  # lines (or array elements) the block holds, blank lines included
    read: int = 0
    valid: int = 0
    invalid: int = 0
    malformed: int = 0
    size: int = 0
    problems: int = 0
    unknown: int = 0  # of a type from a later release (`--unknown warn|allow`)
    error: str = ""  # set when the file could not be read: "cannot read <source>: <why>"


@dataclass
class BlockResult:
    """A checked block: counts, and its problems numbered within the block (see `line_offsets`)."""

    counts: Counts
    problems: list[Problem] = field(default_factory=list)


def kind_of(path: str, each: bool) -> str:
    """How `chatschema validate` reads a path: an array with --each, one document for `.json`, else JSONL."""
    if each:
        return ARRAY
    return DOCUMENT if path.endswith(".json") else LINES


def split(source: str, fs: FileSystem, path: str, size: int, kind: str, block_size: int) -> list[Block]:
    """The blocks of a file of `size` bytes: `block_size` bytes each for JSONL, the whole file otherwise."""
    if kind != LINES or size <= block_size:
        return [Block(source, fs, path, 0, size, kind, 0)]
    starts = range(0, size, block_size)
    return [Block(source, fs, path, s, min(s + block_size, size), kind, i) for i, s in enumerate(starts)]


class Unreadable(Exception):
    """The file system failed: a missing file, no permission, a network error."""


class _Window:
    """The bytes of a file from `start` to its first newline at or after `stop` (or to its end)."""

    def __init__(self, stream: Any, start: int, stop: int) -> None:
        _io(stream.seek, start)
        self.stream = stream
        self.position = start
        self.stop = stop
        self.done = False

    def read(self, size: int = -1) -> bytes:
        if self.done:
            return b""
        data: bytes = _io(self.stream.read, size if size > 0 else BLOCK)
        if not data:
            self.done = True
            return b""
        newline = data.find(b"\n", max(0, self.stop - self.position))
        if newline >= 0:
            data = data[: newline + 1]
            self.done = True
        self.position += len(data)
        return data


def _io(call: Any, *args: Any) -> Any:
    """A file system call, any failure of which (s3fs, gcsfs and others raise their own types) is Unreadable."""
    try:
        return call(*args)
    except Exception as exc:
        raise Unreadable(str(exc) or type(exc).__name__) from exc


def _newline_before_own_lines(stream: Any, start: int, end: int) -> int | None:
    """Where the newline that ends the line before the block's first line is; None if no line starts in the block."""
    _io(stream.seek, start - 1)
    position = start - 1
    while position < end - 1:
        data: bytes = _io(stream.read, min(BLOCK, end - 1 - position))
        if not data:
            return None
        newline = data.find(b"\n")
        if newline >= 0:
            return position + newline
        position += len(data)
    return None


def _chunks(stream: Any, block: Block, max_bytes: int) -> tuple[Iterator[Chunk], int]:
    """The engine's chunks for a block, and how many leading items are not the block's own (0 or 1)."""
    name = block.source
    if block.kind == ARRAY:
        return read_array(cast(BinaryIO, _Window(stream, 0, 1 << 62)), name, max_bytes), 0
    if block.kind == DOCUMENT:
        return read_document(cast(BinaryIO, _Window(stream, 0, 1 << 62)), name, max_bytes), 0
    if block.start == 0:
        return read_lines(cast(BinaryIO, _Window(stream, 0, block.end - 1)), name, max_bytes), 0
    newline = _newline_before_own_lines(stream, block.start, block.end)
    if newline is None:
        return iter(()), 0
    # The window starts at that newline, so the reader sees one blank line first: a file's byte
    # order mark is skipped only at its very start, never at the start of a block.
    return read_lines(cast(BinaryIO, _Window(stream, newline, block.end - 1)), name, max_bytes), 1


def check_block(block: Block, options: Options, max_bytes: int) -> BlockResult:
    """Check one block with the engine of `chatschema validate`: same backends, JSON rules and reasons.

    Problems are numbered from 1 within the block (array indexes from 0); an unreadable file gives
    a result with `counts.error` set instead of an exception, so the other blocks go on.
    """
    counts = Counts(block.source, block.index)
    problems: list[Problem] = []
    try:
        with _io(block.fs.open, block.path, "rb") as stream:
            chunks, skipped = _chunks(stream, block, max_bytes)
            for result in run(chunks, options):
                _add(counts, result)
                problems.extend(result.problems)
    except Unreadable as exc:
        return BlockResult(Counts(block.source, block.index, error=f"cannot read {block.source}: {exc}"))
    if skipped:
        counts.items -= skipped
        problems = [replace(p, number=p.number - skipped) for p in problems]
    counts.problems = len(problems)
    return BlockResult(counts, problems)


def _add(counts: Counts, result: Result) -> None:
    counts.items += result.items
    counts.read += result.read
    counts.valid += result.valid
    counts.invalid += result.invalid
    counts.malformed += result.malformed
    counts.unknown += result.unknown
    counts.size += result.size


def line_offsets(counts: Sequence[Counts]) -> list[int]:
    """For blocks in file order (each file's blocks together, from index 0): the lines before each in its file."""
    offsets: list[int] = []
    before = 0
    for c in counts:
        if c.index == 0:
            before = 0
        offsets.append(before)
        before += c.items
    return offsets


def place(result: BlockResult, offset: int) -> Result:
    """A block's outcome as the engine's `Result`, its problems numbered in the whole file."""
    c = result.counts
    problems = [replace(p, number=p.number + offset) for p in result.problems] if offset else list(result.problems)
    return Result(c.read, c.valid, c.invalid, c.malformed, c.size, c.items, problems, c.unknown)


def placed(results: Iterable[BlockResult]) -> Iterator[Result]:
    """Block results in file order (as `split` made them) -> `Result`s with line numbers in the whole file."""
    before = 0
    for result in results:
        if result.counts.index == 0:
            before = 0
        yield place(result, before)
        before += result.counts.items
