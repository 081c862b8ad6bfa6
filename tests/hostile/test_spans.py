"""With --jobs, JSONL chunks of a regular file carry where their lines are (`Chunk.span`), and the
workers read them there: the same messages as chunks that carry the bytes, and a file that changes
underneath is reported, never validated as something else."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from chatschema.validate import reader
from chatschema.validate.reader import BOM, read_lines
from chatschema.validate.snapshot import Snapshot

from .common import USER, counts, no_traceback, run

FILES = {
    "plain": f"{USER}\n{USER}\n".encode(),
    "bom": BOM + f"{USER}\n\n{USER}\n".encode(),
    "crlf": f"{USER}\r\n{USER}\r\n".encode(),
    # short lines after the long one: the block where it ends holds whole lines too
    "too large": f'{USER}\n{{"role":"user","content":"{"x" * 300}"}}\n{{}}\n[]\n{{}}\n{USER}\n'.encode(),
    "no final newline": f"{USER}\n{USER}".encode(),
    "long lines": ("\n".join(f'{{"role":"user","content":"{"y" * n}"}}' for n in range(0, 120, 7)) + "\n").encode(),
}


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("block", [5, 16, 64, 1 << 20])
def test_spans_read_the_same_lines_as_blocks(tmp_path: Path, name: str, block: int) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(FILES[name])
    expected = [(c.first, c.messages()) for c in read_lines(io.BytesIO(FILES[name]), "in", 100, block)]
    with path.open("rb") as stream:
        chunks = list(read_lines(stream, "in", 100, block, path=str(path)))
    assert any(c.span is not None and not c.blob for c in chunks)  # the bytes stay in the file
    assert [(c.first, c.messages()) for c in chunks] == expected


def test_a_file_changed_underneath_is_an_error_not_other_messages(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(FILES["long lines"])
    with path.open("rb") as stream:
        chunks = list(read_lines(stream, "in", 1000, 64, path=str(path)))
    path.write_bytes(FILES["long lines"].replace(b"\n", b" ", 3))  # same size, lines moved
    with pytest.raises(OSError, match="changed while it was being validated"):
        for chunk in chunks:
            chunk.messages()


def test_a_file_replaced_by_another_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(FILES["long lines"])
    with path.open("rb") as stream:
        chunks = list(read_lines(stream, "in", 1000, 64, path=str(path)))
    other = tmp_path / "other.jsonl"
    other.write_bytes(FILES["long lines"])
    os.utime(other, ns=(0, path.stat().st_mtime_ns))
    other.replace(path)  # same bytes and time, another file
    with pytest.raises(OSError, match="changed while it was being validated"):
        chunks[0].messages()


def _big(tmp_path: Path) -> Path:
    """Over 2 MiB (so --jobs 2 is not capped), with invalid and malformed lines throughout."""
    line = f'{{"role":"user","content":"{"z" * 1000}"}}'
    lines = [line] * 2500
    for i in range(0, 2500, 97):
        lines[i] = '{"role":"bot","content":"hi"}' if i % 2 else '{"role":"user",'
    path = tmp_path / "big.jsonl"
    path.write_bytes(BOM + ("\n".join(lines) + "\n").encode())
    return path


def test_jobs_2_reads_spans_and_agrees_with_one_process(tmp_path: Path) -> None:
    path = _big(tmp_path)
    one = run(["-s", "docent/ChatMessage", "--jobs", "1", str(path)])
    two = run(["-s", "docent/ChatMessage", "--jobs", "2", str(path)])
    assert one[0] == two[0] == 1
    assert one[1] == two[1] and one[1].count("\n") == 26
    assert counts(one[2]) == counts(two[2]) == (2500, 2474, 13, 13)


def _change(path: Path, how: str) -> None:
    if how == "appended":
        with path.open("ab") as stream:
            stream.write(b'{"role":"bot","content":"appended"}\n' * 5000)
    elif how == "touched":
        os.utime(path, ns=(0, path.stat().st_mtime_ns + 10**9))
    elif how == "truncated":
        os.truncate(path, path.stat().st_size // 2)
    elif how == "deleted":
        path.unlink()
    else:  # replaced: the same bytes in another file under the same name
        copy = path.with_suffix(".new")
        copy.write_bytes(path.read_bytes())
        copy.replace(path)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("how", ["appended", "touched", "truncated", "deleted", "replaced"])
def test_a_file_that_changes_during_the_run_follows_one_rule_under_any_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str, how: str
) -> None:
    """F12: the file as it was when opened is validated; appending or touching it changes nothing; a
    file that shrinks, goes or is replaced stops the run with exit 2, after the summary, in one line."""
    path = _big(tmp_path)
    expected = run(["-s", "docent/ChatMessage", "--jobs", jobs, str(path)])
    read = Snapshot.read
    done: list[bool] = []

    def read_then_change(snapshot: Snapshot, size: int = -1) -> bytes:
        data = read(snapshot, size)
        if not done:  # once the first block is read (--jobs 2: the workers read theirs later)
            done.append(True)
            _change(path, how)
        return data

    monkeypatch.setattr(Snapshot, "read", read_then_change)  # the workers are forked after this
    code, out, err = run(["-s", "docent/ChatMessage", "--jobs", jobs, str(path)])
    no_traceback(err)
    if how in ("appended", "touched"):
        assert (code, out, counts(err)) == (expected[0], expected[1], counts(expected[2]))
        return
    assert code == 2, err
    last = err.splitlines()[-1]
    assert last.startswith(f"chatschema validate: {path}: changed while it was being validated ("), err
    if how != "truncated":
        assert last.endswith("(deleted)" if how == "deleted" else "(replaced by another file)"), err
    assert "read," in err  # the summary of what was checked before


def test_jobs_2_on_blank_lines_only_says_empty_input(tmp_path: Path) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_bytes(b"\n" * ((2 << 20) + 1))  # just over 2 MiB: not capped to one job
    code, _, err = run(["-s", "docent/ChatMessage", "--jobs", "2", str(path)])
    assert code == 0
    assert "empty input, no message read" in err
    assert counts(err) == (0, 0, 0, 0)


def test_a_file_cut_short_in_the_same_instant_is_an_error(tmp_path: Path) -> None:
    """A change that keeps the file's identity (its mtime restored, or within the clock's resolution)
    is still seen: the span's bytes must be all there and end a line."""
    path = tmp_path / "in.jsonl"
    path.write_bytes(FILES["long lines"])
    with path.open("rb") as stream:
        chunks = list(read_lines(stream, "in", 1000, 1 << 20, path=str(path)))
    [chunk] = chunks
    assert chunk.span is not None
    status = path.stat()
    lines = FILES["long lines"].split(b"\n")
    path.write_bytes(b"\n".join(lines[:3]) + b"\n")  # whole lines, fewer of them
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    with pytest.raises(OSError, match="changed while it was being validated"):
        chunk.messages()


@pytest.mark.parametrize("spans", [False, True])
def test_a_line_of_exactly_max_bytes_is_read_one_more_is_too_large(tmp_path: Path, spans: bool) -> None:
    fits, over = b'{"a":"' + b"x" * 4 + b'"}', b'{"a":"' + b"x" * 5 + b'"}'  # 12 and 13 bytes
    path = tmp_path / "in.jsonl"
    path.write_bytes(fits + b"\n" + over + b"\n" + fits + b"\n")
    with path.open("rb") as stream:
        chunks = list(read_lines(stream, "in", 12, 1 << 20, path=str(path) if spans else None))
    assert [item for chunk in chunks for item in chunk.messages()] == [fits, reader.TooLarge(13, 12), fits]


def test_a_snapshot_reads_as_a_file_does_nothing_when_asked_for_nothing(tmp_path: Path) -> None:
    """`read(0)` is empty, as for any file, wherever the snapshot is; a negative size reads the rest."""
    path = tmp_path / "six.bin"
    path.write_bytes(b"abcdef")
    with path.open("rb") as stream:
        snapshot = Snapshot(stream, str(path))
        assert [snapshot.read(0), snapshot.read(2), snapshot.read(0), snapshot.read(-5), snapshot.read()] == [
            b"",
            b"ab",
            b"",
            b"cdef",
            b"",
        ]
