"""Where a JSON pointer sits in a JSON text: the 1-based line, for annotations on the changed line.

`json` keeps no positions, so a small scanner walks the text once and records the line of every
member (the line of its key: where a reader looks for `"x": ...`) and of every array item. It is
iterative, so a deeply nested file cannot exhaust the interpreter's recursion limit.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class LocateError(ValueError):
    """The text is not JSON the scanner can walk (one line: what and at which line)."""


def escape(segment: str) -> str:
    """One reference token of a JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`)."""
    return segment.replace("~", "~0").replace("/", "~1")


@dataclass
class _Frame:
    """An object or array being read: its pointer, and the next array index or pending member key."""

    pointer: str
    is_object: bool
    index: int = 0
    key: str | None = None
    members: list[str] = field(default_factory=list)


def pointer_lines(text: str) -> dict[str, int]:
    """The 1-based line of every JSON pointer in `text` (`""`, the whole document, included)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(offset: int) -> int:
        """The 1-based line of a character offset."""
        return bisect.bisect_right(starts, offset)

    out: dict[str, int] = {}
    stack: list[_Frame] = []
    pos = _SPACE.match(text, 0).end()  # type: ignore[union-attr]  # the pattern matches the empty string
    pending = ""  # the pointer of the value expected next
    while pos < len(text):
        char = text[pos]
        frame = stack[-1] if stack else None
        if frame is not None and frame.is_object and frame.key is None and char not in '"},':
            raise LocateError(f"expected a member name at line {line(pos)}")
        if frame is not None and frame.is_object and frame.key is None and char == '"':
            key, pos = _string(text, pos)
            frame.key, pending = key, f"{frame.pointer}/{escape(key)}"
            out.setdefault(pending, line(pos - 1))
            pos = _expect(text, _SPACE.match(text, pos).end(), ":", line)  # type: ignore[union-attr]
        elif char in "{[":
            out.setdefault(pending, line(pos))
            stack.append(_Frame(pending, char == "{"))
            pos += 1
            if char == "[":
                pending = f"{stack[-1].pointer}/0"
        elif char in "}]":
            if frame is None or frame.is_object != (char == "}"):
                raise LocateError(f"unexpected {char!r} at line {line(pos)}")
            stack.pop()
            pos += 1
            _after_value(stack)
        elif char == ",":
            if frame is None:
                raise LocateError(f"unexpected ',' at line {line(pos)}")
            pos += 1
            if not frame.is_object:
                pending = f"{frame.pointer}/{frame.index}"
        else:
            out.setdefault(pending, line(pos))
            pos = _scalar(text, pos, line)
            _after_value(stack)
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    if stack:
        raise LocateError(f"unclosed {'object' if stack[-1].is_object else 'array'} at the end of the text")
    return out


def _after_value(stack: list[_Frame]) -> None:
    """A value has been read inside the innermost container: the next key or index is due."""
    if stack:
        if stack[-1].is_object:
            stack[-1].key = None
        else:
            stack[-1].index += 1


def _string(text: str, pos: int) -> tuple[str, int]:
    value, end = _decode(text, pos)
    if not isinstance(value, str):
        raise LocateError(f"expected a member name at offset {pos}")
    return value, end


def _decode(text: str, pos: int) -> tuple[object, int]:
    """The scalar (string, number, true, false, null) at `pos`, and where it ends."""
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        raise LocateError(f"{exc.msg} at line {exc.lineno}") from exc
    return value, end


def _scalar(text: str, pos: int, line: Callable[[int], int]) -> int:
    value, end = _decode(text, pos)
    if isinstance(value, dict | list):  # never: containers are read by the caller
        raise LocateError(f"unexpected container at line {line(pos)}")
    return end


def _expect(text: str, pos: int, char: str, line: Callable[[int], int]) -> int:
    if pos >= len(text) or text[pos] != char:
        raise LocateError(f"expected {char!r} at line {line(min(pos, len(text) - 1))}")
    return pos + 1


def nearest(lines: dict[str, int], pointer: str) -> tuple[str, int] | None:
    """The pointer itself, or its nearest enclosing pointer present in `lines`, with its line."""
    probe = pointer
    while True:
        if probe in lines:
            return probe, lines[probe]
        if not probe:
            return None
        probe = probe.rsplit("/", 1)[0]
