"""The default `--jobs`: one process for a pipe or a small input, one per CPU for files of a few MiB."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from chatschema import cli
from chatschema.validate import jobs
from chatschema.validate.jobs import MIB, PARALLEL_FROM, choose_jobs
from chatschema.validate.reader import Chunk
from chatschema.validate.run import Options, Result, run

USER = '{"role":"user","content":"hi"}\n'


@pytest.fixture
def four_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "usable_cpus", lambda: 4)


def sized(path: Path, size: int) -> str:
    """A file of `size` bytes (sparse: only its size is read when choosing)."""
    with path.open("wb") as handle:
        handle.truncate(size)
    return str(path)


# The sizes docs/validate.md gives: more than one process from 1.5 MiB, or 8 MiB with --backend fast.
DOCUMENTED = {"jsonschema": 1_572_864, "fast": 8_388_608}


@pytest.mark.usefixtures("four_cpus")
@pytest.mark.parametrize("backend", sorted(DOCUMENTED))
def test_the_default_is_one_process_below_the_size_where_more_pay(tmp_path: Path, backend: str) -> None:
    assert sorted(PARALLEL_FROM) == sorted(DOCUMENTED)
    threshold = DOCUMENTED[backend]
    err = io.StringIO()
    assert choose_jobs(None, [sized(tmp_path / "small", threshold - 1)], backend, err) == 1
    assert choose_jobs(None, [sized(tmp_path / "large", threshold)], backend, err) == min(4, -(-threshold // MIB))
    # the size of every file counts, and a file of many blocks gets every CPU
    halves = [sized(tmp_path / "a", threshold // 2), sized(tmp_path / "b", threshold // 2)]
    assert choose_jobs(None, halves, backend, err) == min(4, 2 * -(-threshold // 2 // MIB))
    assert choose_jobs(None, [sized(tmp_path / "huge", 64 * MIB)], backend, err) == 4
    assert err.getvalue() == ""  # a default is never "capped"


@pytest.mark.usefixtures("four_cpus")
def test_a_streamed_input_is_read_by_one_process_unless_told(tmp_path: Path) -> None:
    big = sized(tmp_path / "big", 64 * MIB)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    err = io.StringIO()
    assert choose_jobs(None, ["-"], "fast", err) == 1
    assert choose_jobs(None, [big, str(fifo)], "fast", err) == 1  # no size to go by
    assert choose_jobs(2, ["-"], "fast", err) == 2
    assert choose_jobs(0, ["-"], "fast", err) == 4
    assert err.getvalue() == ""


@pytest.mark.usefixtures("four_cpus")
def test_an_explicit_number_is_kept_or_capped_and_said(tmp_path: Path) -> None:
    small = sized(tmp_path / "small", 100)
    err = io.StringIO()
    assert choose_jobs(1, [small], "jsonschema", err) == 1
    assert choose_jobs(3, [sized(tmp_path / "big", 64 * MIB)], "jsonschema", err) == 3
    assert err.getvalue() == ""
    assert choose_jobs(0, [small], "jsonschema", err) == 1 and err.getvalue() == ""  # 0 is "as many as pay"
    assert choose_jobs(8, [small], "jsonschema", err) == 1
    assert err.getvalue() == "chatschema validate: --jobs 8 capped to 1 (4 CPUs, 100 bytes of input)\n"


@pytest.mark.usefixtures("four_cpus")
def test_the_command_runs_with_the_number_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through `chatschema validate` itself: the default, and `--jobs`, reach the run."""
    seen: list[int] = []

    def recording_run(chunks: Iterable[Chunk], options: Options, count: int = 1) -> Iterator[Result]:
        seen.append(count)
        return run(chunks, options, 1)  # the verdicts of one process: only the number is under test

    monkeypatch.setattr(cli, "run", recording_run)
    small = tmp_path / "small.jsonl"
    small.write_text(USER * 10)
    large = tmp_path / "large.jsonl"
    large.write_text(USER * (PARALLEL_FROM["jsonschema"] // len(USER) + 1))
    blocks = -(-large.stat().st_size // MIB)
    for argv, expected in (([str(small)], 1), ([str(large)], min(4, blocks)), (["--jobs", "1", str(large)], 1)):
        assert cli.main(["validate", "-q", "-s", "docent/ChatMessage", *argv]) == 0
        assert seen.pop() == expected
