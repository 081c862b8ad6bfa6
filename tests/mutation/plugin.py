"""The pytest side of the mutation runner (`-p tests.mutation.plugin`), driven by environment variables.

- MUTATION_CONTEXTS=1 (coverage run): each test's name becomes coverage's context, in this process
  (coverage started by its .pth hook, COVERAGE_PROCESS_START) and, through MUTATION_CONTEXT and the
  coverage config, in every Python process the test starts.
- MUTATION_REPORT=FILE (baseline run): each test's outcome ("passed", "failed" or "skipped", xfail
  included) and duration are written to FILE as JSON.
- MUTATION_SELECT=FILE (mutant run): only the tests named in FILE (one node id a line) run, in that
  order. If some are not collected (the mutant changed a constant the tests are parametrized
  with), every test of their files runs after them.
- MUTATION_BASELINE=FILE (mutant run): the node ids that passed on the baseline. The first of them
  to fail is the mutant's killer: written to MUTATION_FAILED, and the session stops there. A test
  not in FILE that fails is written to MUTATION_OTHERS and does not stop it (not a kill). Without
  MUTATION_BASELINE, any failure is the killer.
- MUTATION_NODE_COVERAGE=DIR (the JavaScript baseline): each test's Node processes write V8's
  coverage to a folder of their own under DIR (NODE_V8_COVERAGE, set while the test runs and
  inherited by the processes it starts; node_coverage.py reads them).
Hypothesis keeps its example database in a throw-away directory (in the runner's scratch folder
for a mutant's run), so a mutant's failing examples are not replayed into later runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

CONTEXT = "MUTATION_CONTEXT"
NODE_COVERAGE = "NODE_V8_COVERAGE"

_durations: dict[str, float] = {}
_outcomes: dict[str, str] = {}
_failed: list[str] = []
_baseline: set[str] | None = None
_session: list[pytest.Session] = []


def _switch(context: str) -> None:
    import coverage

    os.environ[CONTEXT] = context  # read by the coverage config of the processes the test starts
    current = coverage.Coverage.current()
    if current is not None:
        current.switch_context(context)


def pytest_configure(config: pytest.Config) -> None:
    """Hypothesis's database in a temporary directory for this run, removed when it ends."""
    try:
        from hypothesis import configuration
    except ImportError:  # pragma: no cover - hypothesis is a test requirement
        return
    failed = os.environ.get("MUTATION_FAILED")
    if failed:  # a mutant's run: in the runner's scratch folder, which goes even when a time-out kills the run
        home = Path(failed).parent / "hypothesis"
    else:
        home = Path(tempfile.mkdtemp(prefix="mutation-hypothesis-"))
        config.add_cleanup(lambda: shutil.rmtree(home, ignore_errors=True))
    configuration.set_hypothesis_home_dir(str(home))


def pytest_sessionstart(session: pytest.Session) -> None:
    """Read the baseline's passing tests, if given."""
    global _baseline
    _session.append(session)
    baseline = os.environ.get("MUTATION_BASELINE")
    if baseline:
        _baseline = set(Path(baseline).read_text(encoding="utf-8").splitlines())


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep only the selected tests, in the selected order."""
    select = os.environ.get("MUTATION_SELECT")
    if not select:
        return
    wanted = Path(select).read_text(encoding="utf-8").splitlines()
    by_id = {item.nodeid: item for item in items}
    chosen = [by_id[nodeid] for nodeid in wanted if nodeid in by_id]
    if len(chosen) < len(wanted):
        # The mutant changed the tests' parameters (a constant they import): every test of those files.
        files = {nodeid.split("::", 1)[0] for nodeid in wanted}
        chosen += [item for item in items if item.nodeid.split("::", 1)[0] in files and item not in chosen]
    kept = set(map(id, chosen))
    config.hook.pytest_deselected(items=[item for item in items if id(item) not in kept])
    items[:] = chosen


def node_coverage_folder(base: str, nodeid: str) -> Path:
    """Where the Node processes of test `nodeid` write their coverage (a folder per test, named by a hash)."""
    return Path(base) / hashlib.sha256(nodeid.encode()).hexdigest()[:16]


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    """Coverage run: the test's id becomes the context; its Node processes write to its own folder."""
    if os.environ.get("MUTATION_CONTEXTS"):
        _switch(nodeid)
    base = os.environ.get("MUTATION_NODE_COVERAGE")
    if base:
        os.environ[NODE_COVERAGE] = str(node_coverage_folder(base, nodeid))


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    """Coverage run: no test's context between tests, and no Node coverage for processes started outside one."""
    if os.environ.get("MUTATION_CONTEXTS"):
        _switch("")
    if os.environ.get("MUTATION_NODE_COVERAGE"):
        os.environ.pop(NODE_COVERAGE, None)


def _record(report: pytest.TestReport) -> None:
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration
    if report.failed:
        _outcomes[report.nodeid] = "failed"
    elif report.skipped and _outcomes.get(report.nodeid) != "failed":
        _outcomes[report.nodeid] = "skipped"  # xfail too: it does not pass
    elif report.when == "call":
        _outcomes.setdefault(report.nodeid, "passed")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Record the outcome; a failure of a test that passed on the baseline is the killer and stops the run."""
    _record(report)
    if not report.failed:
        return
    if _baseline is not None and report.nodeid not in _baseline:
        others = os.environ.get("MUTATION_OTHERS")
        if others:
            with Path(others).open("a", encoding="utf-8") as sink:
                sink.write(report.nodeid + "\n")
        return
    if not _failed:
        _failed.append(report.nodeid)
        target = os.environ.get("MUTATION_FAILED")
        if target:  # a mutant's run: stop at its killer, as -x would
            Path(target).write_text(report.nodeid, encoding="utf-8")
            if _session:
                _session[0].shouldfail = f"mutation: {report.nodeid} failed"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Baseline run: write each test's outcome and duration."""
    target = os.environ.get("MUTATION_REPORT")
    if target:
        data = {"durations": _durations, "outcomes": _outcomes}
        Path(target).write_text(json.dumps(data, indent=0), encoding="utf-8")
