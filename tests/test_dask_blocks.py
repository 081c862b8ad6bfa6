"""chatschema.dask's blocks and file listing, in this process: what each block holds and reports.

Pinned here: a line that starts at a block's last byte (a blank line at a boundary) is read once,
by the block it starts in, at every block size; an unreadable file's block says why and holds no
bytes and no problems; a `--each` array is one block whose problems carry the array's indexes;
a path fsspec cannot open is reported with fsspec's own reason.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from fsspec.implementations.local import LocalFileSystem

from chatschema.dask.blocks import ARRAY, LINES, check_block, placed, split
from chatschema.dask.files import expand
from chatschema.validate.report import Reporter
from chatschema.validate.run import Options
from tests.hostile.common import run

SCHEMA = "docent/ChatMessage"
OK = b'{"role":"user","content":"hi"}'
BAD = b'{"role":"bot","content":"x"}'


# Blank lines at the start, in a row and at the end: at block size 1 each newline is a block's
# last byte, and a window whose first byte (or first byte of a later read) is that newline must
# stop there.
BLANK_AT_BOUNDARIES = [
    b"\n" + OK + b"\nx\n\n\n" + BAD + b"\n\ny\r\n\n",
    b"\n\nx\n" + OK,
    b"x\n\n" + BAD + b"\n\n",
]


@pytest.mark.parametrize("data", BLANK_AT_BOUNDARIES)
def test_blank_lines_at_block_boundaries_are_held_once_at_every_block_size(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_bytes(data)
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    code, want, _ = run(["--schema", SCHEMA, str(path)])
    assert code == 1 and want
    fs = LocalFileSystem()
    for size in range(1, len(data) + 2):
        blocks = split(str(path), fs, str(path), len(data), LINES, size)
        results = [check_block(b, Options(SCHEMA), 1000) for b in blocks]
        assert sum(r.counts.items for r in results) == lines, size
        out = io.StringIO()
        reporter = Reporter(out, io.StringIO())
        for result in placed(results):
            reporter.add(result)
        assert out.getvalue() == want, size


def test_block_of_a_missing_file_says_why_and_holds_nothing(tmp_path: Path) -> None:
    [block] = split("gone.jsonl", LocalFileSystem(), str(tmp_path / "gone.jsonl"), 10, LINES, 100)
    result = check_block(block, Options(SCHEMA), 200)
    c = result.counts
    assert c.error.startswith("cannot read gone.jsonl: ") and "No such file or directory" in c.error
    assert (c.items, c.read, c.size, c.problems, c.unknown) == (0, 0, 0, 0, 0) and result.problems == []
    [placed_result] = placed([result])
    assert placed_result.size == 0 and placed_result.problems == []


def test_each_array_is_one_block_with_the_arrays_indexes(tmp_path: Path) -> None:
    path = tmp_path / "array.json"
    path.write_text(json.dumps([{"role": "user", "content": "a"}, {"role": "bot", "content": "b"}, {"role": "user"}]))
    size = path.stat().st_size
    [block] = split(str(path), LocalFileSystem(), str(path), size, ARRAY, 4)
    assert (block.start, block.end, block.index) == (0, size, 0)
    result = check_block(block, Options(SCHEMA), 1000)
    assert (result.counts.items, result.counts.read, result.counts.valid, result.counts.invalid) == (3, 3, 1, 2)
    assert [(p.number, p.indexed, p.status) for p in result.problems] == [(1, True, "invalid"), (2, True, "invalid")]
    code, want, _ = run(["--schema", SCHEMA, "--each", str(path)])
    out = io.StringIO()
    reporter = Reporter(out, io.StringIO())
    for placed_result in placed([result]):
        reporter.add(placed_result)
    assert code == 1 and out.getvalue() == want


def test_a_path_fsspec_cannot_open_is_reported_with_fsspecs_reason() -> None:
    files, errors = expand(["nosuch://bucket/a.jsonl"])
    assert files == [] and errors == ["cannot read nosuch://bucket/a.jsonl: Protocol not known: nosuch"]
