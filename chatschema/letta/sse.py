"""Read a `text/event-stream` body as the WHATWG EventSource parser does (copied into chatschema by codegen).

The rules (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):

- the body is UTF-8; one byte order mark at its very start is skipped;
- a line ends at CRLF, LF or CR, and nowhere else: U+2028, U+2029 and U+0085 inside a JSON string
  (Pydantic's `model_dump_json` writes them raw) are ordinary characters;
- a line starting with `:` is a comment (Letta's and proxies' keep-alives);
- `field: value` (one space after the colon dropped), or a bare `field` with an empty value;
  `data` lines are joined with LF, `event` names the event type (default "message"), `id` sets the
  last event id (unless it contains NUL), `retry` sets the reconnection time (digits only);
  other fields are ignored;
- a blank line dispatches the event, if it has data; an event type or id alone dispatches nothing.

Unlike a browser, which drops an event the body ends in the middle of, `SseParser.close` returns it
marked `terminated=False`, so a reader can report it instead of losing it without a trace.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from typing import NamedTuple

__all__ = ["SseEvent", "SseParser", "iter_sse_events"]


class SseEvent(NamedTuple):
    """One dispatched event: its type, its data (lines joined with LF) and where it ended.

    `retry` is the reconnection time in ms set by the last valid `retry:` field so far, if any;
    `line` the 1-based number of the line that ended the event (the blank line, or the last line);
    `terminated` is False for an event the body ended in the middle of (no blank line after it).
    A named tuple rather than a dataclass: a long stream makes one per fragment.
    """

    type: str
    data: str
    last_event_id: str
    retry: int | None
    line: int
    terminated: bool = True


class SseParser:
    """An incremental parser: `feed` text or bytes in chunks of any size, then `close`."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._bytes = False  # the last chunk was bytes (the decoder may hold the start of a character)
        self._pending: list[str] = []  # pieces of the current, unfinished line (a list: chunks may be tiny)
        self._cr = False  # the last chunk ended in CR: a following LF belongs to it
        self._started = False  # past the optional byte order mark
        self._line = 0
        self._data: list[str] = []
        self._type = ""
        self._id = ""
        self._id_buffer = ""
        self._retry: int | None = None

    def feed(self, chunk: str | bytes) -> list[SseEvent]:
        """Parse one more chunk; return the events it completed."""
        if isinstance(chunk, bytes):
            self._bytes = True
            text = self._decoder.decode(chunk)
        elif chunk:  # an empty text changes nothing: the bytes before it may still end inside a character
            if self._bytes:
                # bytes that ended inside a character are not UTF-8: raised here, where the decoder
                # would otherwise hold them and let this text go first
                self._decoder.decode(b"", final=True)
            self._bytes = False
            text = chunk
        else:
            return []
        if not text:  # an empty chunk (or the start of a UTF-8 character): a CR before it still pairs with an LF after
            return []
        if not self._started:
            self._started = True
            text = text.removeprefix("\ufeff")
        if self._cr and text.startswith("\n"):
            text = text[1:]
        self._cr = False
        if "\r" in text:
            lines, rest = self._split_cr(text)
        else:
            lines = text.split("\n")  # the common case: one C call for the whole chunk
            rest = lines.pop()
        if lines and self._pending:
            lines[0] = "".join(self._pending) + lines[0]
            self._pending = []
        if rest:
            self._pending.append(rest)
        return self._take_lines(lines)

    def close(self) -> SseEvent | None:
        """End of the body: the event it ended in the middle of, if it had data (not dispatched by a browser)."""
        rest = self._decoder.decode(b"", final=True)
        if rest:
            self._pending.append(rest)
        if self._pending:  # a last line without a line ending: a field line, never a dispatch
            line = "".join(self._pending)
            self._pending = []
            self._line += 1
            self._field(line)
        if not self._data:
            return None
        return SseEvent(self._type or "message", "\n".join(self._data), self._id_buffer, self._retry, self._line, False)

    def _split_cr(self, text: str) -> tuple[list[str], str]:
        """A chunk with CRs in it: its complete lines (ended by CRLF, LF or CR) and what follows them."""
        lines: list[str] = []
        start = 0
        size = len(text)
        cr = lf = -1  # the next CR and LF at or after `start` (searched again only once passed: linear)
        while start < size:
            if cr < start:
                cr = text.find("\r", start)
                cr = size if cr < 0 else cr
            if lf < start:
                lf = text.find("\n", start)
                lf = size if lf < 0 else lf
            if cr == size and lf == size:
                break
            end = min(cr, lf)
            lines.append(text[start:end])
            if text[end] == "\r":
                if end + 1 < size:
                    start = end + 2 if text[end + 1] == "\n" else end + 1
                else:
                    self._cr = True  # the LF of a CRLF may come in the next chunk
                    start = end + 1
            else:
                start = end + 1
        return lines, text[start:]

    def _take_lines(self, lines: list[str]) -> list[SseEvent]:
        """Interpret complete lines; `data:` lines and blank lines, nearly all of a stream, inline."""
        events: list[SseEvent] = []
        data = self._data
        number = self._line
        for line in lines:
            number += 1
            if not line:
                self._id = self._id_buffer
                if data:
                    events.append(SseEvent(self._type or "message", "\n".join(data), self._id, self._retry, number))
                    data = self._data = []
                self._type = ""
            elif line.startswith("data:"):
                data.append(line[6:] if line.startswith(" ", 5) else line[5:])
            else:
                self._field(line)
        self._line = number
        return events

    def _field(self, line: str) -> None:
        """A line that is neither blank nor `data:`: a comment or another field."""
        if line.startswith(":"):
            return
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":  # a bare `data` line: an empty data line
            self._data.append(value)
        elif name == "event":
            self._type = value
        elif name == "id":
            if "\0" not in value:
                self._id_buffer = value
        elif name == "retry":
            if value and all("0" <= c <= "9" for c in value):
                self._retry = int(value)


def iter_sse_events(body: str | bytes | Iterable[str | bytes]) -> Iterator[SseEvent]:
    """Yield the events of an SSE body, given whole or in chunks; an unfinished last event comes
    last, with `terminated=False`. Raises UnicodeDecodeError for bytes that are not UTF-8."""
    parser = SseParser()
    chunks: Iterable[str | bytes] = [body] if isinstance(body, (str, bytes)) else body
    for chunk in chunks:
        yield from parser.feed(chunk)
    last = parser.close()
    if last is not None:
        yield last
