"""`chatschema validate` on a Dask cluster: files, globs or fsspec URLs, cut into blocks, exact line numbers.

    from chatschema.dask import cluster, validate
    with cluster("tcp://scheduler:8786") as client:      # or cluster("local", workers=4)
        report = validate("s3://bucket/dumps/*.jsonl", "docent/ChatMessage", client=client, backend="fast")
        report.total, report.files, report.errors
        report.problems().to_parquet("s3://bucket/problems/")

Needs the `dask` extra (in a checkout: `pip install '.[dask]'`; from a wheel: `pip install 'chatschema-<version>-py3-none-any.whl[dask]'`). `chatschema.dask.blocks` needs only
fsspec-like file systems: its `check_block` is the per-partition function for other engines
(Spark), so Dask itself is imported only when one of the names below is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chatschema.dask.run import COLUMNS, DEFAULT_BLOCK_SIZE, Report, cluster, validate

__all__ = ["COLUMNS", "DEFAULT_BLOCK_SIZE", "Report", "cluster", "validate"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'chatschema.dask' has no attribute {name!r}")
    try:
        run = importlib.import_module("chatschema.dask.run")
    except ImportError as exc:
        raise ImportError(
            f"chatschema.dask needs the 'dask' extra (in a checkout: pip install '.[dask]'; from a wheel: pip install 'chatschema-<version>-py3-none-any.whl[dask]'): {exc}"
        ) from exc
    return getattr(run, name)
