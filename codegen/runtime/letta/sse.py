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
from dataclasses import dataclass

__all__ = ["SseEvent", "SseParser", "iter_sse_events"]


@dataclass(frozen=True)
class SseEvent:
    """One dispatched event: its type, its data (lines joined with LF) and where it ended."""

    type: str
    data: str
    last_event_id: str
    retry: int | None
    """The reconnection time in ms set by the last valid `retry:` field so far, if any."""
    line: int
    """The 1-based number of the line that ended the event (the blank line, or the last line)."""
    terminated: bool = True
    """False for an event the body ended in the middle of (no blank line after it)."""


class SseParser:
    """An incremental parser: `feed` text or bytes in chunks of any size, then `close`."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._pending: list[str] = []  # pieces of the current, unfinished line (a list: chunks may be tiny)
        self._cr = False  # the last chunk ended in CR: a following LF belongs to it
        self._started = False  # past the optional byte order mark
        self._line = 0
        self._data: list[str] = []
        self._has_data = False
        self._type = ""
        self._id = ""
        self._id_buffer = ""
        self._retry: int | None = None

    def feed(self, chunk: str | bytes) -> list[SseEvent]:
        """Parse one more chunk; return the events it completed."""
        text = self._decoder.decode(chunk) if isinstance(chunk, bytes) else chunk
        if not self._started and text:
            self._started = True
            text = text.removeprefix("\ufeff")
        if self._cr and text.startswith("\n"):
            text = text[1:]
        self._cr = False
        events: list[SseEvent] = []
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
            line = text[start:end]
            if self._pending:
                line = "".join(self._pending) + line
                self._pending = []
            if text[end] == "\r":
                if end + 1 < size:
                    start = end + 2 if text[end + 1] == "\n" else end + 1
                else:
                    self._cr = True  # the LF of a CRLF may come in the next chunk
                    start = end + 1
            else:
                start = end + 1
            event = self._process(line)
            if event is not None:
                events.append(event)
        if start < size:
            self._pending.append(text[start:])
        return events

    def close(self) -> SseEvent | None:
        """End of the body: the event it ended in the middle of, if it had data (not dispatched by a browser)."""
        rest = self._decoder.decode(b"", final=True)
        if rest:
            self._pending.append(rest)
        if self._pending:  # a last line without a line ending: a field line, never a dispatch
            line = "".join(self._pending)
            self._pending = []
            self._process(line)
        if not self._has_data:
            return None
        return SseEvent(self._type or "message", "\n".join(self._data), self._id_buffer, self._retry, self._line, False)

    def _process(self, line: str) -> SseEvent | None:
        self._line += 1
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
            self._has_data = True
        elif name == "event":
            self._type = value
        elif name == "id":
            if "\0" not in value:
                self._id_buffer = value
        elif name == "retry":
            if value and all("0" <= c <= "9" for c in value):
                self._retry = int(value)
        return None

    def _dispatch(self) -> SseEvent | None:
        self._id = self._id_buffer
        if not self._has_data:
            self._type = ""
            return None
        event = SseEvent(self._type or "message", "\n".join(self._data), self._id, self._retry, self._line)
        self._data = []
        self._has_data = False
        self._type = ""
        return event


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
