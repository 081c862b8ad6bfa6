"""Streaming readers: JSONL line by line, a JSON document, or a top-level JSON array element by element.

Everything is read in blocks of bytes, so memory stays bounded by the block size and the largest
message allowed (`max_bytes`), whatever the size of the input. A message larger than that is
reported as too large and skipped without being held in memory.
"""

from __future__ import annotations

import io
import os
import re
import select
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from .snapshot import changed, identity

BLOCK = 1 << 20  # bytes read at a time
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class TooLarge:
    """A message that was not read because it exceeds the size limit."""

    size: int  # bytes seen (a lower bound when the message was cut off)
    limit: int

    def reason(self) -> str:
        return f"message too large: {self.size:,} bytes or more, limit {self.limit:,} (--max-bytes)"


@dataclass(frozen=True)
class Broken:
    """Input that is not a message at all (for example an array that is cut off)."""

    message: str


Item = bytes | TooLarge | Broken


CONTINUE = -1  # `Chunk.first` of a chunk whose first line follows the previous chunk's last one


@dataclass
class Chunk:
    """Consecutive messages of one source: `items[i]` is line `first + i` or array index `first + i`.

    JSONL chunks carry the raw block (`blob`), or only where it lies in a regular file (`span`: a
    worker process reads it there, so the block is not sent through a pipe), and are split into
    lines where they are checked; their line numbers are counted there, so `first` is `CONTINUE`
    for all but a file's first chunk.
    """

    source: str
    indexed: bool  # True: array indexes (`file[3]`), False: line numbers (`file:3`)
    first: int
    items: list[Item]
    size: int  # bytes of input this chunk covers, for progress
    blob: bytes = b""  # a block read: its lines, but for the last piece, which the next chunk continues
    max_bytes: int = 0  # with `blob`: longer lines are too large
    head: bytes = b""  # with `blob`: the start of its first line, read with the previous block
    document: bool = False  # a whole `.json` file read as one message (for hints on JSONL and arrays)
    span: Span | None = None  # instead of `blob`: where its lines are
    blank: bool = False  # with `span`: its lines are all blank (the reader saw them)

    def messages(self) -> list[Item]:
        """The items, splitting `blob` (read from `span` first, if need be) into lines first."""
        if self.span is not None:
            self.blob, self.span = self.span.read(), None
        if self.blob:
            lines: list[Item] = self.blob.split(b"\n")  # type: ignore[assignment]
            lines.pop()
            if self.head:
                lines[0] = self.head + lines[0]  # type: ignore[operator]
            limit = self.max_bytes
            if max(map(len, lines)) > limit:  # type: ignore[arg-type]
                lines = [TooLarge(len(line), limit) if len(line) > limit else line for line in lines]  # type: ignore[arg-type]
            self.items, self.blob, self.head = lines, b"", b""
        return self.items


@dataclass(frozen=True)
class Span:
    """Where a chunk's lines are in a regular file, and which file it was (device, inode)."""

    path: str
    offset: int
    length: int
    identity: tuple[int, int]

    def read(self) -> bytes:
        """The lines; FileChanged if the file was deleted, replaced or cut short since the span was taken
        (the rule for files that change: chatschema.validate.snapshot)."""
        try:
            stream = open(self.path, "rb")
        except FileNotFoundError:
            raise changed(self.path, "deleted") from None
        with stream:
            if identity(stream) != self.identity:
                raise changed(self.path, "replaced by another file")
            stream.seek(self.offset)
            data = stream.read(self.length)
        if len(data) != self.length or not data.endswith(b"\n"):
            raise changed(self.path, f"bytes {self.offset:,} to {self.offset + self.length:,} are not as read")
        return data


def _blocks(stream: BinaryIO, block: int) -> Iterator[bytes]:
    """The stream's bytes, `block` at a time, without a byte order mark at its very start."""
    head = stream.read(len(BOM))
    while len(head) < len(BOM) and (more := stream.read(len(BOM) - len(head))):
        head += more
    if head and head != BOM:
        yield head
    read = _arrived(stream, block)
    while data := read():
        yield data


def _arrived(stream: BinaryIO, block: int) -> Callable[[], bytes]:
    """`read(block)`, but from a pipe or a terminal what has arrived so far (up to `block`, and at
    least one byte unless at the end): a line written to stdin or a FIFO is checked and reported as
    it comes, not once a whole block has come (`tail -f log | chatschema validate -`)."""
    try:
        fd = stream.fileno()
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except (AttributeError, OSError, ValueError):  # no file under it (in memory, a Dask block's window)
        regular = True
    # one read of what is there: a buffered stream's read1, an unbuffered (raw) stream's read
    read1 = getattr(stream, "read1", None) or (stream.read if isinstance(stream, io.RawIOBase) else None)
    if regular or read1 is None:
        return lambda: stream.read(block)

    def read() -> bytes:
        parts = [read1(block)]  # waits for something, or the end
        size = len(parts[0])
        try:
            while parts[-1] and size < block and select.select([fd], [], [], 0)[0]:
                parts.append(read1(block - size))  # more is there already: take it without waiting
                size += len(parts[-1])
        except (OSError, ValueError):  # select() cannot wait on this kind of file here (Windows pipes)
            pass
        return b"".join(parts)

    return read


def read_lines(
    stream: BinaryIO, source: str, max_bytes: int, block: int = BLOCK, path: str | None = None
) -> Iterator[Chunk]:
    """JSONL: one chunk per block read, holding the lines that end in it; nothing is copied here.

    With `path` (the regular file `stream` reads, from its start), chunks carry the span of their
    lines in it rather than the bytes: for worker processes, which read it themselves."""
    first = 1
    tail = bytearray()  # the start of a line that goes on: appended in place (+= on bytes copied it each block)
    skipping = 0  # >0: inside a too-large line, bytes seen so far
    owed = 0  # bytes read that no chunk has counted yet (each byte is counted once, for progress)
    file = identity(stream) if path is not None else (0, 0)
    for data in _blocks(stream, block):
        owed += len(data)
        start = stream.tell() - len(data) if path is not None else 0  # where `data` starts in the file
        if skipping:
            end = data.find(b"\n")
            if end < 0:
                skipping += len(data)
                continue
            rest = len(data) - end - 1
            yield Chunk(source, False, first, [TooLarge(skipping + end, max_bytes)], owed - rest)
            first, skipping, owed = CONTINUE, 0, rest
            data = data[end + 1 :]
            start += end + 1
        cut = data.rfind(b"\n")
        if cut < 0:
            tail += data
        else:
            size, owed = owed, 0
            if path is None:
                yield Chunk(source, False, first, [], size, data, max_bytes, bytes(tail))
            else:
                # isspace() stops at the first other byte; strip() copies, so only for a blank block
                blank = data.isspace() and not data.strip(JSON_SPACE) and not tail.strip(JSON_SPACE)
                yield Chunk(
                    source,
                    False,
                    first,
                    [],
                    size,
                    b"",
                    max_bytes,
                    bytes(tail),
                    span=Span(path, start, cut + 1, file),
                    blank=blank,
                )
            first = CONTINUE
            tail = bytearray(data[cut + 1 :])
        if len(tail) > max_bytes:
            skipping, tail = len(tail), bytearray()
    if skipping:
        yield Chunk(source, False, first, [TooLarge(skipping, max_bytes)], owed)
    elif tail:
        yield Chunk(source, False, first, [bytes(tail)], owed)


def read_document(stream: BinaryIO, source: str, max_bytes: int) -> Iterator[Chunk]:
    """A `.json` file holding one message, read a block at a time up to `max_bytes` (so memory follows
    the document, not the limit); a larger one is reported with its size, or with the bytes read
    when the input is a stream, which is not read to its end (it may have none)."""
    parts: list[bytes] = []
    size = 0
    while size <= max_bytes + len(BOM) and (data := stream.read(min(BLOCK, max_bytes + len(BOM) + 1 - size))):
        parts.append(data)
        size += len(data)
    data = b"".join(parts)
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if len(data) > max_bytes:
        total = max(_regular_size(stream), len(data))
        yield Chunk(source, False, 1, [TooLarge(total, max_bytes)], total, document=True)
        return
    item = data if data.strip(JSON_SPACE) else Broken("empty document")
    yield Chunk(source, False, 1, [item], len(data), document=True)


def _regular_size(stream: BinaryIO) -> int:
    """The size of the regular file `stream` reads; 0 for a pipe, a device or an in-memory stream."""
    try:
        status = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):  # no file under it (io.UnsupportedOperation is both)
        return 0
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


# Outside a string: a whole string (skipped in one step), a bracket, a comma, or the quote of a
# string that goes on in the next block.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[][{},]|"', re.DOTALL)
# Inside an element: everything up to the next bracket, whole strings included.
_SKIP = re.compile(rb'(?:[^][{}"]+|"[^"\\]*(?:\\.[^"\\]*)*")*', re.DOTALL)
_QUOTE = ord('"')
_OPEN = (ord("["), ord("{"))
_IN_STRING = re.compile(rb'["\\]')
JSON_SPACE = b" \t\r\n"  # JSON's whitespace; bytes.strip() would also take \x0b and \x0c


def read_array(stream: BinaryIO, source: str, max_bytes: int, batch: int = 2000, block: int = BLOCK) -> Iterator[Chunk]:
    """A `.json` file holding a top-level array: each element is a message, streamed one by one.

    The splitter only tracks strings and bracket depth; each element's own syntax is checked by
    the JSON parser afterwards, so a malformed element is reported and the next one is read.
    """
    index = 0
    items: list[Item] = []
    covered = 0
    state = _ArrayState(max_bytes)
    for data in _blocks(stream, block):
        covered += len(data)
        for element in state.feed(data):
            items.append(element)
            if len(items) >= batch:
                yield Chunk(source, True, index, items, covered)
                index += len(items)
                items, covered = [], 0
        if items and len(data) < block:  # what a pipe had so far: check it now, not after `batch` more
            yield Chunk(source, True, index, items, covered)
            index += len(items)
            items, covered = [], 0
    problem = state.finish()
    if problem is not None:
        items.append(problem)
    if items:
        yield Chunk(source, True, index, items, covered)


class _ArrayState:
    """Incremental splitter of a top-level JSON array into its elements' bytes."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.started = False  # seen the opening '['
        self.done = False  # seen the closing ']'
        self.depth = 0  # nesting inside the current element
        self.in_string = False
        self.escape = False
        self.parts: list[bytes] = []
        self.size = 0
        self.too_large = False
        self.broken: str | None = None
        self.trailing = False  # non-space after the closing ']'
        self.after_comma = False

    def _keep(self, piece: bytes) -> None:
        if self.too_large:
            self.size += len(piece)
            return
        self.size += len(piece)
        if self.size > self.max_bytes:
            self.too_large = True
            self.parts = []
        else:
            self.parts.append(piece)

    def _element(self, piece: bytes) -> Item | None:
        self._keep(piece)
        data = b"".join(self.parts)
        size, too_large = self.size, self.too_large
        self.parts, self.size, self.too_large = [], 0, False
        if too_large:
            return TooLarge(size, self.max_bytes)
        if not data.strip(JSON_SPACE):
            return None
        return data

    def feed(self, data: bytes) -> Iterator[Item]:
        pos = 0
        n = len(data)
        start = 0  # where the bytes of the element in progress start in `data`
        while pos < n:
            if self.broken is not None:
                return
            if self.done:
                if data[pos:].strip(JSON_SPACE):
                    self.trailing = True
                return
            if not self.started:
                rest = data[pos:].lstrip(JSON_SPACE)
                if not rest:
                    return
                if rest[:1] != b"[":
                    self.broken = "not a JSON array (--each reads a top-level array of messages)"
                    return
                self.started = True
                pos = start = n - len(rest) + 1
                continue
            if self.in_string:  # a string that began in an earlier block
                if self.escape:
                    self.escape = False
                    pos += 1
                    continue
                m = _IN_STRING.search(data, pos)
                if m is None:
                    break
                pos = m.end()
                if m.group() == b'"':
                    self.in_string = False
                else:
                    self.escape = True
                continue
            if self.depth > 0:  # inside an element: only brackets and string ends matter
                pos = _SKIP.match(data, pos).end()  # type: ignore[union-attr]  # it matches the empty string too
                if pos >= n:
                    break
                byte = data[pos]
                pos += 1
                if byte == _QUOTE:  # a string that goes on in the next block
                    self.in_string = True
                else:
                    self.depth += 1 if byte in _OPEN else -1
                continue
            m = _TOKEN.search(data, pos)
            if m is None:
                break
            token = m.group()
            pos = m.end()
            if token[:1] == b'"':
                if len(token) == 1:  # not closed in this block
                    self.in_string = True
                continue
            # At the array's own level: a comma or the closing bracket ends an element.
            if token in (b",", b"]"):
                element = self._element(data[start : m.start()])
                start = pos
                if token == b",":
                    yield element if element is not None else Broken("empty array element")
                    self.after_comma = True
                    continue
                if element is not None:
                    yield element
                elif self.after_comma:
                    yield Broken("trailing comma before the array's closing ']'")
                self.done = True
                continue
            if token != b"}":  # '[' or '{': a nested value starts, skipped above up to its end
                self.depth = 1
            # a stray '}' is left in the element, whose parse then fails, not the array's
        self._keep(data[start:])  # the element goes on in the next block (once the array is done, nothing reads it)

    def finish(self) -> Broken | None:
        if self.broken is not None:
            return Broken(self.broken)
        if not self.started:
            return None  # no input but whitespace: no message, as an empty JSONL file (the command says so)
        if not self.done:
            return Broken("array cut off: the input ends before its closing ']'")
        if self.trailing:
            return Broken("unexpected data after the array's closing ']'")
        return None
