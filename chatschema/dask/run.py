"""Validation on a Dask cluster: one task per block, counts gathered, problems left on the workers until asked for."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

import dask.dataframe as dd
import pandas as pd
from distributed import Client, Future, LocalCluster, get_client, progress

from chatschema.jsontext import MAX_DEPTH
from chatschema.validate.run import Engine, Options, Result

from .blocks import Block, BlockResult, Counts, check_block, kind_of, line_offsets, place, split
from .files import expand

# Chosen by measurement (bench/run.py; docs/dask.md, "Block size"): on a 2-worker LocalCluster,
# 8 MiB blocks were fastest in 2 of 3 runs and 32 MiB in the third, 128 MiB always slower; 16 MiB
# keeps that rate with half the tasks of 8 MiB (about 1 ms of scheduling each: 60,000 per TB).
DEFAULT_BLOCK_SIZE = 16 * 1024 * 1024
MAX_BYTES = 16 * 1024 * 1024  # as `chatschema validate --max-bytes`

# The problems DataFrame: one row per violation of an invalid message, one per malformed message
# (`path` empty, `message` the reason), one per message of an unknown type with `unknown="warn"`. `line` is the array index for `--each` input.
COLUMNS = {"file": "str", "line": "int64", "status": "str", "schema": "str", "path": "str", "message": "str"}


@contextmanager
def cluster(address: str = "local", workers: int = 0, **local: Any) -> Iterator[Client]:
    """A client of the scheduler at `address`, or of a LocalCluster of `workers` processes (0: one per CPU).

    Extra keywords go to `LocalCluster` (e.g. `dashboard_address=":0"`). What this starts, it stops.
    """
    if address != "local":
        with Client(address) as client:
            yield client
        return
    settings: dict[str, Any] = {"n_workers": workers or os.cpu_count() or 1, "threads_per_worker": 1}
    settings.update(local)
    with LocalCluster(processes=True, **settings) as local_cluster, Client(local_cluster) as client:
        yield client


# Blocks per task that gathers counts, and per partition of the problems DataFrame: a task or a
# partition per block would cost more in Dask's bookkeeping than the work for small blocks.
GROUP = 64


def _groups(items: Sequence[Any]) -> list[Sequence[Any]]:
    return [items[i : i + GROUP] for i in range(0, len(items), GROUP)]


def _counts(*results: BlockResult) -> list[Counts]:
    return [r.counts for r in results]


def _frame(offsets: Sequence[int], *results: BlockResult) -> pd.DataFrame:
    rows: list[tuple[str, int, str, str | None, str | None, str]] = []
    for result, offset in zip(results, offsets, strict=True):
        for p in place(result, offset).problems:
            if p.status == "malformed":
                rows.append((p.source, p.number, p.status, None, None, p.reason))
            elif p.status == "unknown":
                rows.append((p.source, p.number, p.status, p.schema, None, p.reason))
            else:
                rows.extend((p.source, p.number, p.status, p.schema, path, message) for path, message in p.errors)
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype(COLUMNS)


@dataclass
class Report:
    """The outcome of `validate`: summary in the driver, each block's problems on the cluster.

    `total` and `files` hold the counts; `errors` one line per file or URL that could not be read;
    `results()` streams the problems to the driver in input order; `problems()` is a Dask DataFrame.
    """

    client: Client
    blocks: list[Block]
    futures: list[Future[BlockResult]]
    counts: list[Counts]
    errors: list[str]
    offsets: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.offsets = line_offsets(self.counts)

    @property
    def total(self) -> Result:
        """read / valid / invalid / malformed over every file."""
        total = Result()
        for c in self.counts:
            total.add(Result(c.read, c.valid, c.invalid, c.malformed, c.size, unknown=c.unknown))
        return total

    @property
    def files(self) -> dict[str, Result]:
        """read / valid / invalid / malformed per file, in input order."""
        out: dict[str, Result] = {}
        for c in self.counts:
            out.setdefault(c.source, Result()).add(
                Result(c.read, c.valid, c.invalid, c.malformed, c.size, unknown=c.unknown)
            )
        return out

    @property
    def ok(self) -> bool:
        """Every file read and every message valid."""
        t = self.total
        return not self.errors and t.invalid == 0 and t.malformed == 0

    def results(self, batch: int = 16) -> Iterator[Result]:
        """Each block's `Result`, problems numbered in the whole file, in input order (fetched `batch` blocks at a time)."""
        order = list(range(len(self.blocks)))
        for at in range(0, len(order), batch):
            part = order[at : at + batch]
            wanted = [i for i in part if self.counts[i].problems]
            fetched = dict(zip(wanted, self.client.gather([self.futures[i] for i in wanted]), strict=True))
            for i in part:
                c = self.counts[i]
                yield place(fetched[i], self.offsets[i]) if i in fetched else place(BlockResult(c), 0)

    def problems(self) -> dd.DataFrame:
        """Every problem as a Dask DataFrame (file, line, status, schema, path, message), in input order,
        one partition per GROUP blocks."""
        meta = pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in COLUMNS.items()})
        if not self.futures:
            return cast(dd.DataFrame, dd.from_pandas(meta, npartitions=1))
        pairs = zip(_groups(self.futures), _groups(self.offsets), strict=True)
        frames = [self.client.submit(_frame, offsets, *futures, pure=False) for futures, offsets in pairs]
        return cast(dd.DataFrame, dd.from_delayed(frames, meta=meta, verify_meta=False))

    def release(self) -> None:
        """Let the cluster drop the blocks' results."""
        for f in self.futures:
            f.release()


def validate(
    paths: str | Sequence[str],
    schema: str,
    *,
    client: Client | None = None,
    block_size: int = DEFAULT_BLOCK_SIZE,
    backend: str = "jsonschema",
    families: Iterable[str] = (),
    each: bool = False,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    storage_options: Mapping[str, Any] | None = None,
    progress_to: TextIO | None = None,
    unknown: str = "error",
) -> Report:
    """Validate files, glob patterns or fsspec URLs on a Dask cluster, as `chatschema validate` does.

    Each JSONL file is cut into blocks of `block_size` bytes, checked by the workers with the
    command's engine; the counts come back to the driver, the problems stay on the workers until
    `Report.results()` or `Report.problems()` asks for them. `client` defaults to the current one
    (`distributed.get_client()`); `progress_to` (e.g. `sys.stderr`) gets Dask's text progress bar.
    A file that cannot be read is reported in `Report.errors` and the others are validated.
    `unknown` is `--unknown`: "error", "warn" (messages of types from a later release counted and
    reported, status "unknown") or "allow" (counted only).
    Raises `UnknownSchemaError`, `ValueError` or `BackendUnavailable` for bad options, before any
    work is sent.
    """
    if block_size < 1:
        raise ValueError("block_size must be positive")
    if unknown not in ("error", "warn", "allow"):
        raise ValueError(f"unknown is 'error', 'warn' or 'allow', not {unknown!r}")
    options = Options(schema, backend, tuple(families), max_depth, unknown=unknown)
    Engine(options)  # an unknown schema or a missing backend fails here, not on every worker
    client = client or get_client()
    files, errors = expand([paths] if isinstance(paths, str) else paths, storage_options)
    blocks = [b for f in files for b in split(f.source, f.fs, f.path, f.size, kind_of(f.source, each), block_size)]
    run = uuid.uuid4().hex
    keys = [f"chatschema-block-{run}-{i}" for i in range(len(blocks))]
    futures = client.map(check_block, blocks, key=keys, options=options, max_bytes=max_bytes)
    if progress_to is not None:
        with redirect_stdout(progress_to):  # Dask's bar writes to sys.stdout, where problems may go
            progress(futures)
    groups = [client.submit(_counts, *part, key=f"{part[0].key}-counts") for part in _groups(futures)]
    counts: list[Counts] = [c for part in client.gather(groups) for c in part]
    seen: set[str] = set()
    for c in counts:
        if c.error and c.source not in seen:
            seen.add(c.source)
            errors.append(c.error)
    return Report(client, blocks, futures, counts, errors)
