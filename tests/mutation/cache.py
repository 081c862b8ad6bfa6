"""Baselines kept between runs of the same tree, so that a resumed run does not run them again.

A full run takes hours, more than one sitting: `--resume` and `--only-survivors` reuse the
baselines (and the coverage maps) recorded beside the results file when the tracked files of the
repository, the test paths and the pytest arguments are exactly those they were recorded for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .baseline import Baseline
from .coverage_map import CoverageMap

Paths = tuple[str, ...]


def cache_path(results: Path) -> Path:
    """Where the baselines of a results file are kept."""
    return results.with_name(results.stem + ".baselines.json")


@dataclass
class Kept:
    """What a run measured before its mutants: the baselines (per list of test paths), the Python
    modules' coverage map and its test paths, and the JavaScript modules' maps (per list of test paths)."""

    baselines: dict[Paths, Baseline] = field(default_factory=dict)
    cmap: CoverageMap | None = None
    coverage_paths: Paths = ()
    node_maps: dict[Paths, CoverageMap] = field(default_factory=dict)


def load(path: Path, tree: str, pytest_args: list[str]) -> Kept:
    """What was recorded for `tree` and `pytest_args`; nothing recorded for another tree or other
    arguments (or no file)."""
    if not path.exists():
        return Kept()
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("tree") != tree or data.get("pytest_args") != pytest_args:
        return Kept()
    baselines = {
        tuple(item["paths"]): Baseline(dict(item["outcomes"]), dict(item["durations"]), float(item["seconds"]))
        for item in data["baselines"]
    }
    cmap = CoverageMap.from_json(data["coverage"]) if data.get("coverage") is not None else None
    node_maps = {tuple(item["paths"]): CoverageMap.from_json(item["map"]) for item in data.get("node_coverage", [])}
    return Kept(baselines, cmap, tuple(data.get("coverage_paths", ())), node_maps)


def save(path: Path, tree: str, pytest_args: list[str], kept: Kept) -> None:
    """Record what was measured on `tree` (replacing what was recorded for any other tree)."""
    data = {
        "tree": tree,
        "pytest_args": pytest_args,
        "baselines": [
            {"paths": list(paths), "outcomes": b.outcomes, "durations": b.durations, "seconds": b.seconds}
            for paths, b in kept.baselines.items()
        ],
        "coverage": kept.cmap.to_json() if kept.cmap is not None else None,
        "coverage_paths": list(kept.coverage_paths),
        "node_coverage": [{"paths": list(paths), "map": m.to_json()} for paths, m in kept.node_maps.items()],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
