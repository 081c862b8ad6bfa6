"""How many processes `chatschema validate` uses: `--jobs N`, or by default what the input makes fastest.

Starting a pool and splitting the input costs a few tens of milliseconds, which pays only once the
work outweighs it. Measured on a 2-core machine (Docent messages of ~1.2 KB, best of 5 runs of the
whole command), two processes start to win from about 1.5 MB of input with the reference backend
and from about 8 MB with `--backend fast`, which does less work per byte. A pipe or a FIFO has no
size to go by, so it is read by one process unless `--jobs` says otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TextIO

from chatschema.validate.reader import BLOCK

MIB = 1024 * 1024
# Input bytes from which more than one process is faster, by backend (see the module doc).
PARALLEL_FROM = {"jsonschema": 3 * MIB // 2, "fast": 8 * MIB}


def usable_cpus() -> int:
    """The CPUs this process may run on: fewer than `os.cpu_count()` under `taskset` or a container's cpuset."""
    try:
        return len(os.sched_getaffinity(0))  # never empty: this process runs somewhere
    except AttributeError:  # not on this platform (macOS, Windows)
        return os.cpu_count() or 1


def _file_sizes(paths: Sequence[str]) -> list[int] | None:
    """The sizes of the input files, or None if any input is streamed (stdin, a FIFO, a device)."""
    if "-" in paths or not all(os.path.isfile(p) for p in paths):
        return None
    return [os.path.getsize(p) for p in paths]


def choose_jobs(requested: int | None, paths: Sequence[str], backend: str, err: TextIO) -> int:
    """The processes to use. `requested` is `--jobs`: None picks by the input (one process for a
    pipe or a small input, else one per CPU), 0 means one per CPU. Any number is capped by the CPUs
    and by the 1 MiB blocks of the input files; a cap of an explicit N is said on `err`."""
    cpus = usable_cpus()
    sizes = _file_sizes(paths)
    cap = cpus if sizes is None else min(cpus, max(sum(-(-size // BLOCK) for size in sizes), 1))
    if requested is None:
        large = sizes is not None and sum(sizes) >= PARALLEL_FROM.get(backend, PARALLEL_FROM["jsonschema"])
        return cap if large else 1
    jobs = requested or cpus
    if jobs <= cap:
        return jobs
    if requested:
        where = "streamed input" if sizes is None else f"{sum(sizes):,} bytes of input"
        err.write(
            f"chatschema validate: --jobs {requested} capped to {cap} ({cpus} CPU{'s' if cpus > 1 else ''}, {where})\n"
        )
    return cap
