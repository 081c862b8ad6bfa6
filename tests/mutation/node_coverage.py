"""Which tests run which lines of the npm package's ES modules: V8's block coverage, per test.

The JavaScript baseline runs once with MUTATION_NODE_COVERAGE set: the plugin gives each test its own
NODE_V8_COVERAGE folder, so every Node process the test starts (with the environment it inherits)
writes what it ran there when it exits. A line ran when a range V8 counted above zero, the innermost
where ranges nest, overlaps its code. A test that loaded a module in no measured process (its Node
process was killed, had an environment of its own, ran a bundle or a browser, or read what another
test's process printed) runs for every mutant of that module. Tests of one file may share a process
(a fixture's), measured as the test that started it: a line one test of a file ran makes every
measured test of that file a candidate. The map may choose a test too many; what it saves is the
files whose tests never run the mutated line.
"""

from __future__ import annotations

import bisect
import json
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .baseline import Baseline, run_plain
from .coverage_map import CoverageMap
from .plugin import node_coverage_folder


def counted_spans(functions: Iterable[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """The spans [start, end) of a script that ran, from its coverage's functions: each offset
    counts as the innermost range around it (V8's ranges nest; a block inside a function that ran
    may have run zero times)."""
    ranges = sorted(
        ((r["startOffset"], r["endOffset"], r["count"]) for f in functions for r in f["ranges"]),
        key=lambda r: (r[0], -r[1]),
    )
    spans: list[tuple[int, int]] = []
    open_ranges: list[tuple[int, int]] = []  # (end, count), innermost last
    at = 0

    def close_until(offset: int) -> None:
        nonlocal at
        while open_ranges and open_ranges[-1][0] <= offset:
            end, count = open_ranges.pop()
            if count > 0 and end > at:
                spans.append((at, end))
            at = max(at, end)

    for start, end, count in ranges:
        close_until(start)
        if open_ranges and open_ranges[-1][1] > 0 and start > at:
            spans.append((at, start))
        at = start
        open_ranges.append((end, count))
    close_until(max((r[1] for r in ranges), default=0))
    return spans


class LineIndex:
    """Where each line's code (its leading and trailing spaces aside) lies in a script, in the UTF-16
    units V8's offsets count."""

    def __init__(self, source: str) -> None:
        self.starts: list[int] = []
        self.code: list[tuple[int, int]] = []
        offset = 0
        for text in source.split("\n"):
            width = len(text.encode("utf-16-le")) // 2
            lead = len(text) - len(text.lstrip())  # spaces and tabs: one unit each
            trail = len(text) - len(text.rstrip())
            self.starts.append(offset)
            self.code.append((offset + lead, offset + max(width - trail, lead)))
            offset += width + 1

    def lines(self, spans: Iterable[tuple[int, int]]) -> set[int]:
        """The line numbers (from 1) whose code overlaps one of `spans`."""
        found: set[int] = set()
        for start, end in spans:
            first = max(bisect.bisect_right(self.starts, start) - 1, 0)
            last = bisect.bisect_right(self.starts, end - 1)
            for index in range(first, last):
                code_start, code_end = self.code[index]
                if code_start < end and code_end > start and code_start < code_end:
                    found.add(index + 1)
        return found


def from_folders(base: Path, scripts: Mapping[str, tuple[str, str]], durations: Mapping[str, float]) -> CoverageMap:
    """The map from the coverage files under `base`, one folder per test (the plugin's).

    `scripts` maps each module to (its file URL as Node names it, its source)."""
    by_url = {url: module for module, (url, _) in scripts.items()}
    index = {module: LineIndex(source) for module, (_, source) in scripts.items()}
    result = CoverageMap(durations=dict(durations))
    measured: dict[str, set[str]] = {module: set() for module in scripts}
    for test in durations:
        for path in node_coverage_folder(str(base), test).glob("coverage-*.json"):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # a process killed while writing: as if unmeasured
            for script in data.get("result", []):
                module = by_url.get(script.get("url"))
                if module is None:
                    continue
                measured[module].add(test)
                by_line = result.lines.setdefault(module, {})
                for line in index[module].lines(counted_spans(script["functions"])):
                    by_line.setdefault(line, set()).add(test)
    for module in scripts:
        result.always[module] = set(durations) - measured[module]
        _by_file(result.lines.setdefault(module, {}), measured[module])
    return result


def _file(test: str) -> str:
    return test.split("::", 1)[0]


def _by_file(by_line: dict[int, set[str]], measured: set[str]) -> None:
    """Tests of one file may share a Node process (a fixture's, a cached run), measured as the test
    that started it while the others read what it printed: where one test of a file ran a line, every
    measured test of that file becomes a candidate for the line."""
    by_file: dict[str, set[str]] = {}
    for test in measured:
        by_file.setdefault(_file(test), set()).add(test)
    for tests in by_line.values():
        for name in {_file(t) for t in tests}:
            tests |= by_file[name]


def collect_node(
    package: Path, modules: list[str], tests: list[str], pytest_args: list[str], env: Mapping[str, str]
) -> tuple[CoverageMap, Baseline]:
    """Run `tests` once in `package` (the unmutated copy) with each test's Node processes measured:
    the JavaScript modules' coverage map, and the baseline. Stops the run (SystemExit) if a test fails."""
    scripts = {m: ((package / m).resolve().as_uri(), (package / m).read_text(encoding="utf-8")) for m in modules}
    with tempfile.TemporaryDirectory(prefix="chatschema-mutation-node-coverage-") as tmp:
        folders = Path(tmp) / "v8"
        baseline = run_plain(package, {**env, "MUTATION_NODE_COVERAGE": str(folders)}, tests, pytest_args)
        return from_folders(folders, scripts, baseline.durations), baseline
