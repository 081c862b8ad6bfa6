"""chatschema.dask and `validate --dask`: the same problems, files, lines and messages as the command.

The block logic is checked in this process at every block size of a small tricky file; the rest
runs on one LocalCluster of 2 worker processes shared by the module (started once, ~5 s).
"""

from __future__ import annotations

import io
import json
import os
import pickle
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fsspec
import pytest
from distributed import Client
from fsspec.implementations.local import LocalFileSystem

from chatschema import cli
from chatschema.dask import COLUMNS, Report, cluster, validate
from chatschema.dask.blocks import LINES, BlockResult, check_block, kind_of, placed, split
from chatschema.validate.report import Reporter
from chatschema.validate.run import Options, Problem
from tests.dask_faults import HangOnceFileSystem, LockedFileSystem

SCHEMA = "docent/ChatMessage"
OK = '{"role":"user","content":"%s"}'
BAD_LINES = [
    b'{"role":"bot","content":"x"}',  # invalid: unknown tag
    b'{"role":"assistant","content":[{"type":"image"}],"tool_calls":[{"id":"1","function":"f","arguments":"{}"}]}',
    b"not json",
    b'{"role":"user","content":NaN}',
    b'{"role":"user","content":"\\ud800"}',  # a lone surrogate escape
    b'{"role":"user","content":"\xff"}',  # not UTF-8
    b'{"role":"user","content":"' + b"y" * 300 + b'"}',  # too large for --max-bytes 200
    b"\xef\xbb\xbf" + (OK % "a byte order mark in the middle of a file is not skipped").encode(),
    b"[" * 40 + b"]" * 40,  # deeper than --max-depth 20
]


def command(argv: list[str]) -> tuple[int, str, str]:
    """`chatschema validate ARGV` in this process: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    args = cli._parser().parse_args(["validate", *argv])
    code = cli.validate(args, io.BytesIO(), out, err)
    return code, out.getvalue(), err.getvalue()


def corpus(seed: int, lines: int) -> bytes:
    """JSONL with texts of many lengths, blank and CRLF lines, and every kind of bad line, at known places."""
    out: list[bytes] = []
    for i in range(lines):
        if i % 11 == 3:
            out.append(BAD_LINES[(i // 11 + seed) % len(BAD_LINES)])
        elif i % 17 == 5:
            out.append(b"")
        else:
            out.append((OK % ("w" * ((i * 37 + seed * 13) % 90) + "é🙂")).encode() + (b"\r" if i % 13 == 7 else b""))
    return b"\n".join(out) + (b"\n" if seed % 2 else b"")  # with and without a final newline


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    root = tmp_path_factory.mktemp("dumps")
    paths = []
    for seed, (name, size) in enumerate([("a.jsonl", 160), ("b.jsonl", 90), ("c.jsonl", 230), ("d.jsonl", 7)]):
        data = corpus(seed, size)
        if seed == 1:
            data = b"\xef\xbb\xbf" + data  # a byte order mark at the start is skipped
        (root / name).write_bytes(data)
        paths.append(str(root / name))
    (root / "empty.jsonl").write_bytes(b"")
    (root / "blank.jsonl").write_bytes(b"\n\n\r\n")
    (root / "one.json").write_text(json.dumps({"role": "user"}, indent=2))
    return [*paths, str(root / "empty.jsonl"), str(root / "blank.jsonl"), str(root / "one.json")]


LIMITS = ["--max-bytes", "200", "--max-depth", "20"]


def text_and_json(report: Report, schema: str = SCHEMA) -> tuple[str, str, tuple[int, int, int, int]]:
    """The report printed as the command prints it, in text and in JSONL, and the totals."""
    printed = []
    for fmt in ("text", "json"):
        out = io.StringIO()
        reporter = Reporter(out, io.StringIO(), fmt, show_schema=schema == "auto")
        for result in report.results(batch=50):
            reporter.add(result)
        printed.append(out.getvalue())
    t = report.total
    return printed[0], printed[1], (t.read, t.valid, t.invalid, t.malformed)


def expected(paths: list[str], *extra: str) -> tuple[str, str, tuple[int, int, int, int]]:
    code, text, err = command(["--schema", SCHEMA, *LIMITS, *extra, *paths])
    assert code == 1
    _, as_json, _ = command(["--schema", SCHEMA, *LIMITS, "--format", "json", *extra, *paths])
    summary = err.strip().splitlines()[-1]  # notes (an empty file, ...) come before the summary line
    numbers = summary.split(": ", 1)[1].split(" in ")[0].split(", ")
    read, valid, invalid, malformed = (int(n.split()[0].replace(",", "")) for n in numbers)
    return text, as_json, (read, valid, invalid, malformed)


# ---- blocks, in this process, at every block size ----


def test_blocks_give_the_commands_problems_at_every_block_size(tmp_path: Path) -> None:
    lines = [(OK % "one").encode(), BAD_LINES[0], b"", BAD_LINES[6], b"x", (OK % ("é" * 3)).encode(), b"[1"]
    data = b"\xef\xbb\xbf" + b"\n".join(lines)
    path = tmp_path / "tricky.jsonl"
    path.write_bytes(data)
    options = Options(SCHEMA, max_depth=20)
    code, want, _ = command(["--schema", SCHEMA, *LIMITS, str(path)])
    assert code == 1 and len(want.splitlines()) == 4
    fs = LocalFileSystem()
    for size in range(1, len(data) + 2):
        blocks = split(str(path), fs, str(path), len(data), LINES, size)
        results = [check_block(b, options, 200) for b in blocks]
        assert sum(r.counts.items for r in results) == 7, size  # every line held by exactly one block
        out = io.StringIO()
        reporter = Reporter(out, io.StringIO())
        for result in placed(results):
            reporter.add(result)
        assert out.getvalue() == want, size
        assert (reporter.total.read, reporter.total.valid) == (6, 2), size


def test_block_of_a_missing_file_is_an_error_not_an_exception(tmp_path: Path) -> None:
    [block] = split("gone.jsonl", LocalFileSystem(), str(tmp_path / "gone.jsonl"), 10, LINES, 100)
    result = check_block(block, Options(SCHEMA), 200)
    assert result.counts.error.startswith("cannot read gone.jsonl: ") and result.counts.read == 0
    assert kind_of("x.json", False) == "document" and kind_of("x.json", True) == "array"


# ---- on a LocalCluster of 2 worker processes ----


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with cluster("local", workers=2, dashboard_address=":0") as c:
        yield c


@pytest.mark.parametrize("block_size", [400, 1 << 20])
def test_dask_equals_the_command(client: Client, files: list[str], block_size: int) -> None:
    want = expected(files)
    report = validate(files, SCHEMA, client=client, block_size=block_size, max_bytes=200, max_depth=20)
    assert report.errors == []
    if block_size == 400:
        assert len(report.blocks) > 90  # most blocks cut a line
    assert text_and_json(report) == want
    assert list(report.files) == files and sum(r.read for r in report.files.values()) == report.total.read
    # the DataFrame: one row per violation or malformed line, lines placed in the whole file
    frame = report.problems().compute()
    assert list(frame.columns) == list(COLUMNS)
    rows = []
    for line in want[1].splitlines():
        record = json.loads(line)
        if record["status"] == "malformed":
            rows.append((record["file"], record["line"], "malformed", None, None, record["reason"]))
        else:
            rows += [
                (record["file"], record["line"], "invalid", record["schema"], e["path"], e["message"])
                for e in record["errors"]
            ]
    got = [tuple(None if v is None or v != v else v for v in row) for row in frame.itertuples(index=False)]
    assert got == rows
    report.release()


def test_dask_auto_and_fast_backend(client: Client, files: list[str]) -> None:
    want = command(["--schema", "auto", "--backend", "fast", *LIMITS, *files])[1]
    report = validate(files, "auto", client=client, backend="fast", block_size=3000, max_bytes=200, max_depth=20)
    assert text_and_json(report, "auto")[0] == want


def test_each_array_and_parquet(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "many.json"
    tricky = OK % ']\\"[,'
    path.write_text(f'[{OK % 1}, {{"role":"x"}}, {OK % 2}, nope, {tricky}]')
    code, want, _ = command(["--schema", SCHEMA, "--each", str(path)])
    report = validate([str(path)], SCHEMA, client=client, each=True, block_size=10)
    assert code == 1 and len(report.blocks) == 1 and text_and_json(report)[0] == want
    report.problems().to_parquet(str(tmp_path / "problems"))
    import pandas as pd

    table = pd.read_parquet(tmp_path / "problems")
    assert sorted(table["line"]) == [1, 3] and set(table["status"]) == {"invalid", "malformed"}


def _fill_memory(blobs: dict[str, bytes]) -> None:
    fs = fsspec.filesystem("memory")
    for path, data in blobs.items():
        fs.pipe(path, data)


def test_memory_and_file_urls(client: Client, files: list[str]) -> None:
    text, _, totals = expected(files[:4])
    # memory:// is per process: put the files in the driver's and in every worker's
    blobs = {f"/dask-test/{Path(p).name}": Path(p).read_bytes() for p in files[:4]}
    _fill_memory(blobs)
    client.run(_fill_memory, blobs)
    report = validate("memory://dask-test/*.jsonl", SCHEMA, client=client, block_size=2000, max_bytes=200, max_depth=20)
    got, _, got_totals = text_and_json(report)
    directory = str(Path(files[0]).parent)
    assert got_totals == totals
    assert got == text.replace(directory + "/", "memory:///dask-test/")
    root = Path(files[0]).parent
    report = validate(
        [f"file://{root}/[ab].jsonl", f"file://{root}/c.jsonl", files[3]],
        SCHEMA,
        client=client,
        block_size=2000,
        max_bytes=200,
        max_depth=20,
    )
    got, _, got_totals = text_and_json(report)
    assert got_totals == totals
    assert got == text.replace(f"{root}/c", f"file://{root}/c").replace(f"{root}/a", f"file://{root}/a").replace(
        f"{root}/b", f"file://{root}/b"
    )


def test_unreadable_files_are_reported_and_the_others_validated(
    client: Client, files: list[str], tmp_path: Path
) -> None:
    fsspec.register_implementation("locked", LockedFileSystem, clobber=True)
    locked = tmp_path / "locked.jsonl"
    locked.write_bytes(Path(files[0]).read_bytes())
    text, _, totals = expected(files[1:3])
    paths = [files[1], str(tmp_path / "missing.jsonl"), f"locked://{locked}", str(tmp_path), files[2]]
    report = validate([*paths, f"{tmp_path}/*.nothing"], SCHEMA, client=client, max_bytes=200, max_depth=20)
    assert report.errors == [
        f"cannot read {tmp_path / 'missing.jsonl'}: No such file or directory",
        f"cannot read {tmp_path}: Is a directory",
        f"cannot read {tmp_path}/*.nothing: no file matches the pattern",
        f"cannot read locked://{locked}: [Errno 13] Permission denied: '{locked}'",
    ]
    got, _, got_totals = text_and_json(report)
    assert (got, got_totals) == (text, totals) and not report.ok
    # the command line: same lines, one error line per unreadable path, exit status 2
    address = str(client.scheduler_info()["address"])
    code, out, err = command(["--schema", SCHEMA, *LIMITS, "--dask", address, "--block-size", "1KiB", *paths])
    assert code == 2 and out == text
    assert err.count("chatschema validate: cannot read ") == 3 and "missing.jsonl: No such file" in err
    assert err.splitlines()[-1].startswith(f"chatschema validate: {totals[0]} read, {totals[1]} valid, ")


def test_command_line_dask(client: Client, files: list[str]) -> None:
    address = str(client.scheduler_info()["address"])
    for fmt in ("text", "json"):
        want = command(["--schema", SCHEMA, *LIMITS, "--format", fmt, *files])
        got = command(["--schema", SCHEMA, *LIMITS, "--format", fmt, "--dask", address, "--block-size", "700", *files])
        want_err, got_err = want[2].splitlines(), got[2].splitlines()
        assert got[:2] == want[:2] and got_err[-1].split(" in ")[0] == want_err[-1].split(" in ")[0]
        notes = [line for line in want_err if "empty input" in line]
        assert notes and [line for line in got_err if "empty input" in line] == notes
        assert got[2].startswith("chatschema validate: Dask dashboard at http")
    code, out, err = command(["--schema", SCHEMA, "--dask", address, "--progress", files[3]])
    assert code == 1 and "% Completed" in err and "Completed" not in out  # Dask's bar, on stderr
    code, _, err = command(["--schema", SCHEMA, "--dask", "nonsense://x", files[0]])
    assert code == 2 and err.startswith("chatschema validate: --dask nonsense://x: cannot reach or start the cluster: ")
    assert len(err.splitlines()) == 1  # one line, no traceback
    code, _, err = command(["--schema", SCHEMA, "--dask", address, "-"])
    assert code == 2 and "not stdin" in err
    code, _, err = command(["--schema", SCHEMA, "--block-size", "1MiB", files[0]])
    assert code == 2 and "--block-size goes with --dask" in err
    code, _, err = command(["--schema", SCHEMA, "--dask", address, "--block-size", "lots", files[0]])
    assert code == 2 and "not a size in bytes" in err
    with pytest.raises(ValueError):
        validate(files, SCHEMA, client=client, block_size=0)


def test_a_worker_killed_mid_run_changes_nothing(client: Client, files: list[str], tmp_path: Path) -> None:
    """A worker process is killed while it reads a block (it hangs there until killed): Dask runs the
    block again on a live worker, and every count, line and message stays exact."""
    fsspec.register_implementation("hangonce", HangOnceFileSystem, clobber=True)
    hang = tmp_path / "hang.jsonl"
    hang.write_bytes(Path(files[2]).read_bytes())
    paths = [files[0], str(hang), files[1]]
    want = expected(paths)
    marker = tmp_path / "hung-pid"
    workers = set(client.run(os.getpid).values())
    outcome: dict[str, Any] = {}

    def run() -> None:
        urls = [files[0], f"hangonce://{hang}", files[1]]
        report = validate(
            urls,
            SCHEMA,
            client=client,
            block_size=700,
            max_bytes=200,
            max_depth=20,
            storage_options={"marker": str(marker)},
        )
        outcome["printed"] = text_and_json(report)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 60
    while not (marker.exists() and marker.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    pid = int(marker.read_text())
    assert pid in workers  # a worker process hangs in the middle of a block
    os.kill(pid, signal.SIGKILL)
    thread.join(timeout=120)
    assert not thread.is_alive()
    text, as_json, totals = outcome["printed"]
    assert (
        text.replace(f"hangonce://{hang}", str(hang)),
        as_json.replace(f"hangonce://{hang}", str(hang)),
        totals,
    ) == want
    client.wait_for_workers(2, timeout=60)
    assert pid not in set(client.run(os.getpid).values())


def test_problem_objects_round_trip_through_the_workers(client: Client, files: list[str]) -> None:
    report = validate(files[3:4], SCHEMA, client=client, max_bytes=200, max_depth=20)
    [result] = client.gather(report.futures)
    assert isinstance(result, BlockResult) and all(isinstance(p, Problem) for p in result.problems)
    assert [p.number for p in result.problems] == [4]


def test_spark_style_map_partitions(files: list[str]) -> None:
    """docs/dask.md's Spark recipe without Spark: blocks pickled to the executors, checked per partition,
    collected, put back in block order and placed: the command's lines."""
    options = Options(SCHEMA, max_depth=20)
    blocks = []
    for path in files:
        fs, inner = fsspec.core.url_to_fs(path)
        blocks += split(path, fs, inner, fs.size(inner), kind_of(path, each=False), 512)
    numbered = list(enumerate(blocks))
    partitions = [pickle.loads(pickle.dumps(numbered[i::3])) for i in range(3)]  # out of order, as collect() may be

    def per_partition(part: list[tuple[int, Any]]) -> Iterator[tuple[int, BlockResult]]:
        return ((i, check_block(b, options, 200)) for i, b in part)

    checked = [pickle.loads(pickle.dumps(pair)) for part in partitions for pair in per_partition(part)]
    results = [r for _, r in sorted(checked, key=lambda pair: pair[0])]
    out = io.StringIO()
    reporter = Reporter(out, io.StringIO())
    for result in placed(results):
        reporter.add(result)
    assert out.getvalue() == expected(files)[0]


def test_unknown_types_on_dask_as_in_the_command(client: Client, files: list[str]) -> None:
    """`--unknown warn|allow`: the corpus's `role: bot` lines are counted and reported as the command does."""
    address = str(client.scheduler_info()["address"])
    for mode in ("warn", "allow"):
        for fmt in ("text", "json"):
            argv = ["--schema", SCHEMA, *LIMITS, "--unknown", mode, "--format", fmt, *files]
            want = command(argv)
            got = command([*argv, "--dask", address, "--block-size", "700"])
            assert got[:2] == want[:2]
            assert got[2].splitlines()[-1].split(" in ")[0] == want[2].splitlines()[-1].split(" in ")[0]
            assert " of unknown types" in want[2] and ", 0 of unknown types" not in want[2]
    report = validate(files, SCHEMA, client=client, unknown="warn")
    frame = report.problems().compute()
    assert set(frame[frame.status == "unknown"].message) == {"unknown role 'bot': a type this version does not know"}
    assert report.total.unknown == sum(c.unknown for c in report.counts) > 0
    with pytest.raises(ValueError, match="unknown is 'error', 'warn' or 'allow'"):
        validate(files, SCHEMA, client=client, unknown="keep")
