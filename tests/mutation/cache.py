"""Baselines kept between runs of the same tree, so that a resumed run does not run them again.

A full run takes hours, more than one sitting: `--resume` and `--only-survivors` reuse the
baselines (and the coverage map) recorded beside the results file when the tracked files of the
repository, the test paths and the pytest arguments are exactly those they were recorded for.
"""

from __future__ import annotations

import json
from pathlib import Path

from .baseline import Baseline
from .coverage_map import CoverageMap

Paths = tuple[str, ...]


def cache_path(results: Path) -> Path:
    """Where the baselines of a results file are kept."""
    return results.with_name(results.stem + ".baselines.json")


def load(path: Path, tree: str, pytest_args: list[str]) -> tuple[dict[Paths, Baseline], CoverageMap | None, Paths]:
    """The baselines, coverage map and coverage paths recorded for `tree` and `pytest_args`; nothing
    recorded for another tree or other arguments (or no file)."""
    if not path.exists():
        return {}, None, ()
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("tree") != tree or data.get("pytest_args") != pytest_args:
        return {}, None, ()
    baselines = {
        tuple(item["paths"]): Baseline(dict(item["outcomes"]), dict(item["durations"]), float(item["seconds"]))
        for item in data["baselines"]
    }
    cmap = CoverageMap.from_json(data["coverage"]) if data.get("coverage") is not None else None
    return baselines, cmap, tuple(data.get("coverage_paths", ()))


def save(
    path: Path,
    tree: str,
    pytest_args: list[str],
    baselines: dict[Paths, Baseline],
    cmap: CoverageMap | None,
    coverage_paths: Paths,
) -> None:
    """Record the baselines of `tree` (replacing those of any other tree)."""
    data = {
        "tree": tree,
        "pytest_args": pytest_args,
        "baselines": [
            {"paths": list(paths), "outcomes": b.outcomes, "durations": b.durations, "seconds": b.seconds}
            for paths, b in baselines.items()
        ],
        "coverage": cmap.to_json() if cmap is not None else None,
        "coverage_paths": list(coverage_paths),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
