"""The LocalCluster that `cluster("local")` and `validate --dask local` ask for, without starting one.

Pinned here (docs/dask.md, "From the command line"): `--jobs N` worker processes, by default (or
with 0) one per CPU, one if the CPU count is unknown; each worker runs one block at a time, as
`--jobs` does without `--dask`; `--block-size 1` is a size (one byte per block), not a usage error.
`LocalCluster` is replaced by a recorder that refuses to start, so the command reports that.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import chatschema.dask.run
from chatschema.dask import cluster
from tests.hostile.common import run


class Refused(OSError):
    pass


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The keywords of every LocalCluster asked for; each refuses to start; this machine has 5 CPUs."""
    calls: list[dict[str, Any]] = []

    def local_cluster(**kwargs: Any) -> Any:
        calls.append(kwargs)
        raise Refused("not in this test")

    monkeypatch.setattr(chatschema.dask.run, "LocalCluster", local_cluster)
    monkeypatch.setattr(os, "cpu_count", lambda: 5)
    return calls


def _start(**kwargs: Any) -> None:
    with pytest.raises(Refused), cluster("local", **kwargs):
        pass


def test_cluster_local_has_one_single_threaded_worker_process_per_cpu_by_default(asked: list[dict[str, Any]]) -> None:
    _start()
    _start(workers=0)
    _start(workers=3)
    assert [(c["n_workers"], c["threads_per_worker"], c["processes"]) for c in asked] == [
        (5, 1, True),
        (5, 1, True),
        (3, 1, True),
    ]


def test_cluster_local_has_one_worker_when_the_cpu_count_is_unknown(
    asked: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    _start()
    assert [c["n_workers"] for c in asked] == [1]


@pytest.mark.parametrize(("jobs", "workers"), [([], 5), (["--jobs", "0"], 5), (["--jobs", "3"], 3)])
def test_dask_local_starts_jobs_workers_or_one_per_cpu(
    asked: list[dict[str, Any]], tmp_path: Path, jobs: list[str], workers: int
) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text('{"role":"user","content":"hi"}\n')
    code, _, err = run(["--schema", "docent/ChatMessage", "--dask", "local", *jobs, str(path)])
    assert code == 2 and "--dask local: cannot reach or start the cluster: not in this test" in err
    assert [(c["n_workers"], c["threads_per_worker"], c["processes"]) for c in asked] == [(workers, 1, True)]


@pytest.mark.parametrize(("size", "accepted"), [("1", True), ("2", True), ("0", False), ("-1", False)])
def test_block_size_of_one_byte_or_more_is_a_size(
    asked: list[dict[str, Any]], tmp_path: Path, size: str, accepted: bool
) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text('{"role":"user","content":"hi"}\n')
    code, _, err = run(["--schema", "docent/ChatMessage", "--dask", "local", f"--block-size={size}", str(path)])
    assert code == 2
    assert ("cannot reach or start the cluster" in err) == accepted
    assert ("--block-size: not a size in bytes" in err) == (not accepted)
