"""The conformance harness judging types in several processes: a Ctrl-C, a SIGTERM or a worker that
dies ends the run at once, with one line and no process left behind (a main process killed outright
leaves none either), and parts merge whatever they hold."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from release.evolution.mutations import Coverage
from tests.conformance.bundle import type_names
from tests.conformance.report import SMALL, Case, Disagreement, Result, TypeStats

ROOT = Path(__file__).resolve().parents[2]
TYPE_DONE = re.compile(r"^  letta/\w+: \d+ cases")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background job of a shell starts with Ctrl-C ignored


def _start() -> subprocess.Popen[str]:
    """The small budget of letta in two processes, in a session of its own (as a terminal's job)."""
    return subprocess.Popen(
        [sys.executable, "-m", "tests.conformance", "--small", "--only", "letta", "--jobs", "2"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )


def _first_type_done(proc: subprocess.Popen[str]) -> list[str]:
    """Stderr up to the first type judged: the workers are then running."""
    assert proc.stderr is not None
    lines = []
    for line in proc.stderr:
        lines.append(line.rstrip("\n"))
        if TYPE_DONE.match(line):
            return lines
    raise AssertionError(f"the harness ended before judging a type: {lines[-5:]}")


def _session(sid: int) -> list[int]:
    """The processes still in session `sid`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except (OSError, ValueError):
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if entry.name.isdigit() and int(fields[3]) == sid:
            found.append(int(entry.name))
    return found


def _left_behind(sid: int) -> list[str]:
    """The processes of session `sid` that outlive it: none, once multiprocessing's resource tracker,
    which ends when the last process holding its pipe has, is gone (a bound far above its moment)."""
    deadline = time.monotonic() + 20
    while (found := _session(sid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [_command(pid) for pid in found]


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return str(pid)


def _finish(proc: subprocess.Popen[str], seen: list[str]) -> list[str]:
    """Stderr to its end, once the main process has ended: a process left behind holds the pipe open,
    so the reading is bounded (as `_left_behind` is), and such a process fails the test, never hangs it."""
    assert proc.stderr is not None
    stderr = proc.stderr
    proc.wait(timeout=60)
    rest: list[str] = []
    reader = threading.Thread(target=lambda: rest.extend(stderr.read().splitlines()), daemon=True)
    reader.start()
    reader.join(20)
    assert not reader.is_alive(), f"processes outlive the harness: {_left_behind(proc.pid)}"
    return seen + rest


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_ctrl_c_ends_every_process_at_once_with_one_line() -> None:
    proc = _start()
    seen = _first_type_done(proc)
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole process group
    lines = _finish(proc, seen)
    assert proc.returncode == 130, lines[-5:]
    # multiprocessing's resource tracker, which outlives the run, may add a warning of its own
    assert "python -m tests.conformance: interrupted" in lines, lines[-5:]
    assert not any(line.startswith("Traceback") for line in lines)
    assert sum(bool(TYPE_DONE.match(line)) for line in lines) < len(type_names("letta"))  # stopped early
    assert _left_behind(proc.pid) == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_sigterm_to_the_main_process_ends_every_process_with_one_line() -> None:
    proc = _start()
    seen = _first_type_done(proc)
    os.kill(proc.pid, signal.SIGTERM)  # `kill <pid>`, `timeout`: the main process alone
    lines = _finish(proc, seen)
    assert proc.returncode == 143, lines[-5:]
    assert "python -m tests.conformance: terminated" in lines, lines[-5:]
    assert not any(line.startswith("Traceback") for line in lines)
    assert _left_behind(proc.pid) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a worker asks Linux to end it with its parent")
def test_workers_end_with_a_main_process_killed_outright() -> None:
    proc = _start()
    _first_type_done(proc)
    os.kill(proc.pid, signal.SIGKILL)  # nothing of the main process runs: the workers end themselves
    proc.wait(timeout=60)
    assert _left_behind(proc.pid) == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_a_worker_that_dies_ends_the_run_naming_what_it_was_judging() -> None:
    proc = _start()
    seen = _first_type_done(proc)
    workers = [pid for pid in _session(proc.pid) if "spawn_main" in _command(pid)]  # not the resource tracker
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    lines = _finish(proc, seen)
    assert proc.returncode == 2, lines[-5:]
    said = re.compile(
        r"python -m tests\.conformance: a process judging types ended without a result \(one of letta/\w+(, letta/\w+)*\); "
        r"replay with --jobs 1 --only <type>"
    )
    assert any(said.fullmatch(line) for line in lines), lines[-5:]
    assert _left_behind(proc.pid) == []


def _part(name: str, pid: int) -> Result:
    """A result of one type with every field filled."""
    case = Case(f"{name}/schema#0", name, {"k": name})
    part = Result(SMALL, 1, only=[name], processes={pid})
    part.stats[name] = TypeStats(cases=1, valid=1)
    part.disagreements.append(Disagreement(case, "pydantic", True, False, "entry"))
    part.hits["entry"] += 1
    part.coverage["fam"] = Coverage({name}, {("U", name)}, {(name, "1")})
    part.generator_invalid.append(case)
    part.constructor_rejected[name] += 1
    part.judged.append((case, True))
    return part


def test_absorb_keeps_every_field_of_every_part_in_order() -> None:
    whole = Result(SMALL, 1)
    for name, pid in (("fam/A", 10), ("fam/B", 11)):
        whole.absorb(_part(name, pid))
    assert list(whole.stats) == ["fam/A", "fam/B"]
    assert [d.case.name for d in whole.disagreements] == ["fam/A", "fam/B"]
    assert whole.hits == Counter({"entry": 2})
    assert whole.coverage["fam"] == Coverage(
        {"fam/A", "fam/B"}, {("U", "fam/A"), ("U", "fam/B")}, {("fam/A", "1"), ("fam/B", "1")}
    )
    assert [c.name for c in whole.generator_invalid] == ["fam/A", "fam/B"]
    assert whole.constructor_rejected == Counter({"fam/A": 1, "fam/B": 1})
    assert [c.name for c, _ in whole.judged] == ["fam/A", "fam/B"]
    assert whole.processes == {10, 11}
