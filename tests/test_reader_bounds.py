"""The readers at their limits: a message of exactly `max_bytes` is read and one byte more is too
large, in every reader and wherever the block boundaries fall; chunks account for every byte
(progress) and say whether they hold line numbers or array indexes."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from chatschema.validate.reader import BOM, Chunk, TooLarge, read_array, read_document, read_lines
from tests.hostile.common import counts, run

FITS = b'{"a":"xxxx"}'  # 12 bytes
OVER = b'{"a":"xxxxx"}'  # 13 bytes
LIMIT = len(FITS)
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("block", [*range(1, 30), 1 << 20])
def test_jsonl_line_of_exactly_max_bytes_fits_at_any_block_size(block: int) -> None:
    data = BOM + FITS + b"\n" + OVER + b"\n" + FITS + b"\n" + OVER  # the last line without its newline
    chunks = list(read_lines(io.BytesIO(data), "in", LIMIT, block))
    assert [item for chunk in chunks for item in chunk.messages()] == [FITS, TooLarge(13, 12), FITS, TooLarge(13, 12)]
    assert sum(chunk.size for chunk in chunks) == len(data) - len(BOM)  # every byte counted once
    assert not any(chunk.indexed for chunk in chunks)


@pytest.mark.parametrize("block", [1, 5, 1 << 20])
@pytest.mark.parametrize("last", [OVER * 3, FITS])
def test_a_last_line_without_its_newline_is_a_line_not_an_element(block: int, last: bytes) -> None:
    chunks = list(read_lines(io.BytesIO(FITS + b"\n" + last), "in", LIMIT, block))
    assert chunks[-1].messages() == [TooLarge(39, 12) if last != FITS else FITS] and not chunks[-1].indexed
    assert sum(chunk.size for chunk in chunks) == len(FITS) + 1 + len(last)


@pytest.mark.parametrize("block", [1, 4, 1 << 20])
def test_a_span_is_blank_only_if_its_lines_are(tmp_path: Path, block: int) -> None:
    """`blank` (all lines blank, for "empty input") may miss a blank chunk, never call one blank that is not."""
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n\n" + FITS + b"\n\n\n  \n" + FITS + b"\n\n")
    with path.open("rb") as stream:
        chunks = [chunk for chunk in read_lines(stream, "in", LIMIT, block, path=str(path)) if chunk.span]
    for chunk in chunks:
        assert chunk.blank <= all(not line.strip() for line in chunk.messages())  # type: ignore[union-attr]
    path.write_bytes(b" \n\n\t\n")
    with path.open("rb") as stream:
        assert all(chunk.blank for chunk in read_lines(stream, "in", LIMIT, block, path=str(path)))


@pytest.mark.parametrize("body", [FITS, b" " + FITS[1:]])
def test_a_document_of_exactly_max_bytes_is_read(body: bytes) -> None:
    assert list(read_document(io.BytesIO(BOM + body), "a.json", LIMIT)) == [
        Chunk("a.json", False, 1, [body], LIMIT, document=True)
    ]


def test_a_document_over_max_bytes_is_too_large_with_its_whole_size(tmp_path: Path) -> None:
    data = OVER + b" " * 5_000_000  # more than a block after the limit
    path = tmp_path / "a.json"
    path.write_bytes(data)
    with path.open("rb") as stream:  # a regular file: its size, without reading it
        assert list(read_document(stream, "a.json", LIMIT)) == [
            Chunk("a.json", False, 1, [TooLarge(len(data), LIMIT)], len(data), document=True)
        ]
    read = LIMIT + 4  # a stream: what was read (the limit, room for a byte order mark, one more)
    assert list(read_document(io.BytesIO(data), "a.json", LIMIT)) == [
        Chunk("a.json", False, 1, [TooLarge(read, LIMIT)], read, document=True)
    ]


@pytest.mark.parametrize("block", [1, 3, 7, 1 << 20])
def test_array_elements_of_exactly_max_bytes_fit(block: int) -> None:
    data = b"[" + FITS + b"," + FITS + b"," + OVER + b"," + FITS + b"]"
    chunks = list(read_array(io.BytesIO(data), "a.json", LIMIT, batch=2, block=block))
    assert [item for chunk in chunks for item in chunk.items] == [FITS, FITS, TooLarge(13, 12), FITS]
    assert [chunk.first for chunk in chunks] == [0, 2]
    assert all(chunk.indexed for chunk in chunks)
    assert sum(chunk.size for chunk in chunks) == len(data)


_READ_LONG = {
    "lines": "items = [i for c in read_lines(io.BytesIO(LONG + b'\\n' + LONG), 'in', 1 << 25, 64) for i in c.messages()]",
    "array": "items = [i for c in read_array(io.BytesIO(b'[' + LONG + b',' + LONG + b']'), 'in', 1 << 25, block=64)"
    " for i in c.messages()]",
}


@pytest.mark.parametrize("reader", _READ_LONG)
def test_a_long_message_is_read_in_linear_time(reader: str) -> None:
    """F11 (issue 32): a message that spans many blocks is read once, not copied again at each block
    (`tail += data` on bytes took 16.5 s for 200 MB). Here 262,144 blocks: a second or so when each
    byte is copied a bounded number of times, about 2 TB of copying (hours) when every block copies
    the message so far; the bound below is a hundred times the first, nowhere near the second."""
    code = (
        "import io\n"
        "from chatschema.validate.reader import read_array, read_lines\n"
        f'LONG = b\'{{"role":"user","content":"\' + b\'x\' * {16 << 20} + b\'"}}\'\n'
        f"{_READ_LONG[reader]}\n"
        "assert [len(i) for i in items] == [len(LONG)] * 2\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr


def test_the_default_largest_message_is_16_mib(tmp_path: Path) -> None:
    """docs/validate.md: `--max-bytes` is 16 MiB by default: a line of exactly that is read, one byte
    more is too large."""
    head, tail = b'{"role":"user","content":"', b'"}'
    for size, malformed in ((16 << 20, 0), ((16 << 20) + 1, 1)):
        path = tmp_path / f"{size}.jsonl"
        path.write_bytes(head + b"x" * (size - len(head) - len(tail)) + tail + b"\n")
        code, out, err = run(["-s", "docent/ChatMessage", str(path)])
        assert (code, counts(err)) == (malformed, (1, 1 - malformed, 0, malformed)), err
        assert ("too large" in out) == bool(malformed), out


@pytest.mark.skipif(sys.platform == "win32", reason="select() takes no pipe on Windows")
def test_from_a_pipe_what_has_arrived_is_handed_on_without_waiting_for_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line written to a pipe that stays open (`tail -f log | chatschema validate -`) is checked
    at once: the reader asks whether more has arrived, and never waits for it."""
    waits: list[float | None] = []
    real = select.select

    def watched(r: list[int], w: list[int], x: list[int], timeout: float | None = None) -> tuple[list[int], ...]:
        waits.append(timeout)
        return real(r, w, x, timeout)

    monkeypatch.setattr(select, "select", watched)
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, FITS + b"\n" + OVER + b"\n")
        with os.fdopen(read_end, "rb") as stream:
            chunk = next(read_lines(stream, "-", 1 << 20))
    finally:
        os.close(write_end)
    assert chunk.messages() == [FITS, OVER]
    assert waits == [0]
