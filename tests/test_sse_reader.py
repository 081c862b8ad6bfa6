"""The SSE reader (chatschema.letta.sse) at the edges of a body: its start, chunk boundaries, its end."""

from __future__ import annotations

import pytest

from chatschema.letta.sse import SseParser, iter_sse_events


def _events(chunks: list[str] | list[bytes]) -> list[tuple[str, int, bool]]:
    return [(e.data, e.line, e.terminated) for e in iter_sse_events(chunks)]


@pytest.mark.parametrize(
    "chunks",
    [
        ["\ufeffdata: a\n\n"],
        ["\ufeff", "data: a\n\n"],  # the byte order mark alone in the first chunk
        ["", "\ufeffdata: a\n\n"],  # an empty first chunk: the mark is still at the very start
        [b"\xef\xbb\xbfdata: a\n\n"],
        [b"\xef\xbb", b"\xbfdata: a\n\n"],
    ],
)
def test_one_byte_order_mark_at_the_very_start_is_skipped(chunks: list[str] | list[bytes]) -> None:
    assert _events(chunks) == [("a", 2, True)]


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        (["data: x", "\ufeffy\n\n"], [("x\ufeffy", 2, True)]),  # U+FEFF inside a value, at a chunk's start
        (["data: a\n\n", "\ufeffdata: b\n\n"], [("a", 2, True)]),  # a field named "\ufeffdata": ignored
        (["\ufeff\ufeffdata: a\n\n"], []),  # only one mark is skipped
    ],
)
def test_a_byte_order_mark_anywhere_else_is_an_ordinary_character(
    chunks: list[str], expected: list[tuple[str, int, bool]]
) -> None:
    assert _events(chunks) == expected


def test_line_numbers_count_every_line_from_the_first() -> None:
    """A blank first line (a keep-alive) is line 1; an unfinished last event ends at the body's last line."""
    assert _events(["\ndata: a\n\ndata: b"]) == [("a", 3, True), ("b", 4, False)]
    assert _events(["\n", "\r\n", "data: a\r\n\r\n"]) == [("a", 4, True)]


def test_a_body_cut_inside_a_character_is_not_utf8() -> None:
    """The decoder is flushed at the end: a truncated multi-byte character is an error, not dropped."""
    parser = SseParser()
    (event,) = parser.feed(b"data: a\n\ndata: \xe2\x82")
    assert event.data == "a"
    with pytest.raises(UnicodeDecodeError):
        parser.close()
    with pytest.raises(UnicodeDecodeError):
        list(iter_sse_events([b"data: \xe2\x82"]))


@pytest.mark.parametrize("between", [[], [""], ["", ""]])
def test_text_after_bytes_cut_inside_a_character_is_an_error_before_its_events(between: list[str]) -> None:
    """Bytes then text (a body read in two ways): the unfinished character is refused where the text
    comes, before an event of it is given, also across empty text chunks (which once let the text go
    first, the cut character dropped from its event, and raised only at the end)."""
    given: list[str] = []
    with pytest.raises(UnicodeDecodeError):
        given.extend(e.data for e in iter_sse_events([b"data: \xe2\x82", *between, "\n\ndata: y\n\n"]))
    assert given == []


@pytest.mark.parametrize("first", ["\n", "\r", "\r\n"])
def test_a_chunk_may_start_with_the_line_end_of_the_line_before(first: str) -> None:
    for rest in ("data: b\r\n\r\n", "data: b\n\n", "data: b\r\r"):
        assert _events(["data: a", first + rest]) == [("a\nb", 3, True)], rest


def test_a_field_value_without_the_space_after_the_colon_is_kept_whole() -> None:
    (event,) = iter_sse_events("event:error\nid:7\nretry:5\ndata:{}\n\n")
    assert (event.type, event.last_event_id, event.retry, event.data) == ("error", "7", 5, "{}")
    (event,) = iter_sse_events("event:  two\nid\ndata\n\n")  # one space dropped; a bare name: empty value
    assert (event.type, event.last_event_id, event.data) == (" two", "", "")


def test_a_crlf_at_the_end_of_a_chunk_ends_one_line() -> None:
    assert _events(["data: a\r\n", "data: b\r\n\r\n"]) == [("a\nb", 3, True)]
    assert _events(["data: a\r\ndata: b\r\n", "\r\n"]) == [("a\nb", 3, True)]
