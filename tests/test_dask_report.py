"""`validate` and `validate --dask` on an in-process Dask cluster: exit status, defaults, edge sizes.

Pinned here: exit status 0 when every message is valid and 1 when one is invalid or malformed,
as the command's; the dashboard line only without `--quiet`; one-byte blocks give the command's
output; the documented defaults (docs/dask.md): blocks of 16 MiB and `max_bytes` 16 MiB, as
`chatschema validate --max-bytes`; a report with no file gives an empty problems DataFrame of one
partition, and one with problems gives their rows.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from distributed import Client

import chatschema.dask.run
from chatschema.dask import validate
from chatschema.validate.report import Reporter
from tests.hostile.common import run

SCHEMA = "docent/ChatMessage"
OK = '{"role":"user","content":"hi"}'
BAD = '{"role":"bot","content":"x"}'
MIB = 1 << 20


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """Workers as threads of this process: starts in a second, and runs this process's code."""
    with Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0") as c:
        yield c


@pytest.fixture
def dask_local(client: Client, monkeypatch: pytest.MonkeyPatch) -> Client:
    """`--dask local` runs on the in-process cluster."""

    @contextmanager
    def in_process(address: str = "local", workers: int = 0, **local: Any) -> Iterator[Client]:
        yield client

    monkeypatch.setattr(chatschema.dask.run, "cluster", in_process)
    return client


@pytest.mark.parametrize(
    ("lines", "status"),
    [([OK, OK], 0), ([OK, BAD], 1), ([OK, "not json"], 1), (["not json", OK, BAD], 1)],
    ids=["valid", "invalid", "malformed", "both"],
)
def test_exit_status_and_ok_as_the_run(dask_local: Client, tmp_path: Path, lines: list[str], status: int) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(lines) + "\n")
    want = run(["--schema", SCHEMA, str(path)])
    got = run(["--schema", SCHEMA, "--dask", "local", "--block-size", "20", str(path)])
    assert want[0] == got[0] == status and got[1] == want[1]
    assert validate(str(path), SCHEMA, client=dask_local, block_size=20).ok == (status == 0)


@pytest.mark.parametrize("quiet", [True, False])
def test_dashboard_line_only_without_quiet(dask_local: Client, tmp_path: Path, quiet: bool) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(OK + "\n")
    code, _, err = run(["--schema", SCHEMA, "--dask", "local", *(["--quiet"] * quiet), str(path)])
    assert code == 0
    dashboard = [line for line in err.splitlines() if "dashboard" in line]
    assert dashboard == ([] if quiet else [f"chatschema validate: Dask dashboard at {dask_local.dashboard_link}"])


def test_one_byte_blocks_give_the_commands_output(dask_local: Client, tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    data = "\n".join([OK, "", BAD, "x", OK, "[1"]) + "\n"
    path.write_text(data)
    want = run(["--schema", SCHEMA, str(path)])
    assert want[0] == 1
    report = validate(str(path), SCHEMA, client=dask_local, block_size=1)
    assert len(report.blocks) == len(data)
    out = io.StringIO()
    reporter = Reporter(out, io.StringIO())
    for result in report.results():
        reporter.add(result)
    assert out.getvalue() == want[1]
    assert run(["--schema", SCHEMA, "--dask", "local", "--block-size", "1", str(path)])[:2] == want[:2]


def test_default_blocks_and_max_bytes_are_16_mib(client: Client, tmp_path: Path) -> None:
    head, tail = b'{"role":"user","content":"', b'"}'
    path = tmp_path / "big.jsonl"
    # one message of 16 MiB + 1 bytes (too large by one byte) and one of 16 MiB - 2 (valid)
    with path.open("wb") as f:
        f.write(head + b"y" * (16 * MIB + 1 - len(head) - len(tail)) + tail + b"\n")
        f.write(head + b"y" * (16 * MIB - 2 - len(head) - len(tail)) + tail + b"\n")
    size = path.stat().st_size
    report = validate(str(path), SCHEMA, client=client)
    assert [(b.start, b.end) for b in report.blocks] == [(0, 16 * MIB), (16 * MIB, 32 * MIB), (32 * MIB, size)]
    t = report.total
    assert (t.read, t.valid, t.malformed) == (2, 1, 1)
    [problem] = [p for r in report.results() for p in r.problems]
    assert (problem.number, problem.status) == (1, "malformed")
    code, _, err = run(["--schema", SCHEMA, "--max-bytes", str(16 * MIB), str(path)])
    assert code == 1 and "2 read, 1 valid, 0 invalid, 1 malformed" in err


def test_problems_of_a_report_without_files_is_one_empty_partition(client: Client, tmp_path: Path) -> None:
    report = validate(str(tmp_path / "gone.jsonl"), SCHEMA, client=client)
    assert len(report.errors) == 1 and not report.blocks
    frame = report.problems()
    assert frame.npartitions == 1 and len(frame.compute()) == 0


def test_problems_dataframe_rows(client: Client, tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join([OK, BAD, "x", OK, BAD]) + "\n")
    report = validate(str(path), SCHEMA, client=client, block_size=30)
    rows = report.problems().compute()
    assert [(r.file, r.line, r.status) for r in rows.itertuples()] == [
        (str(path), 2, "invalid"),
        (str(path), 3, "malformed"),
        (str(path), 5, "invalid"),
    ]
