"""Issue 6: --jobs capped, Ctrl-C quiet in every worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .common import USER, counts, run


def test_jobs_capped_by_input_size_and_cpus(tmp_path: Path) -> None:
    path = tmp_path / "small.jsonl"
    path.write_text(f"{USER}\n" * 100)
    code, _, err = run(["-s", "docent/ChatMessage", "--jobs", "1000", str(path)])
    assert code == 0 and counts(err) == (100, 100, 0, 0)
    cpus = len(os.sched_getaffinity(0))
    assert (
        f"--jobs 1000 capped to 1 ({cpus} CPU{'s' if cpus > 1 else ''}, {path.stat().st_size:,} bytes of input)" in err
    )
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"printf '%s\\n' '{USER}' > {fifo}"])
    _, _, err = run(["-s", "docent/ChatMessage", "--jobs", "1000", str(path), str(fifo)])
    writer.wait(timeout=60)
    assert f"capped to {cpus} (" in err and "streamed input)" in err  # a FIFO among files: no size to go by
    code, _, err = run(["-s", "docent/ChatMessage", "--jobs", "1000", "-"], stdin=f"{USER}\n".encode())
    assert f"--jobs 1000 capped to {len(os.sched_getaffinity(0))} (" in err and "streamed input" in err
    _, _, err = run(["-s", "docent/ChatMessage", "--jobs", "1", str(path)])
    assert "capped" not in err


def test_jobs_capped_by_the_cpus_this_process_may_run_on() -> None:
    # `taskset` or a container's cpuset: os.cpu_count() counts the machine's CPUs, not these.
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        code, _, err = run(["-s", "docent/ChatMessage", "--jobs", "0", "-"], stdin=f"{USER}\n".encode())
        assert code == 0 and "capped" not in err  # 0: one per CPU, and this process may use one
        _, _, err = run(["-s", "docent/ChatMessage", "--jobs", "8", "-"], stdin=f"{USER}\n".encode())
        assert "--jobs 8 capped to 1 (1 CPU, streamed input)" in err
    finally:
        os.sched_setaffinity(0, allowed)


def _children(pid: int) -> list[str]:
    found: list[str] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += (task / "children").read_text().split()
    return found


def _reading_stdin(pid: int) -> bool:
    """Whether a thread of the process waits in read(0, ...) (x86-64 and arm64 syscall numbers)."""
    read = {"0": "x86_64", "63": "aarch64"}
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = (task / "syscall").read_text().split()
        if len(fields) > 1 and fields[0] in read and int(fields[1], 16) == 0:
            return True
    return False


def _as_from_a_terminal() -> None:
    """Ctrl-C as a terminal's shell leaves it: a background job of a non-interactive shell (say, this
    suite started with `nox ... &`) inherits SIGINT ignored, and Python then keeps ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_with_workers_is_quiet_and_exits_130() -> None:
    cmd = [sys.executable, "-m", "chatschema", "validate", "-s", "docent/ChatMessage", "--jobs", "2", "-"]
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_as_from_a_terminal,
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write((f"{USER}\n" * 20_000).encode())  # stdin stays open: the command waits for more
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while not _reading_stdin(proc.pid) and time.monotonic() < deadline:  # the pool is up, input awaited
            time.sleep(0.05)
        assert _reading_stdin(proc.pid)
        assert len(_children(proc.pid)) == 2
        time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole process group
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    # nothing but the summary of what was read before the interrupt (no "Process ForkPoolWorker-1:")
    assert [line.split(":")[0] for line in text.splitlines()] == ["chatschema validate"], text
    assert "read," in text


@pytest.mark.parametrize(
    "interrupt",
    [
        "KeyboardInterrupt",
        # Python 3.11 wraps an interrupt raised while a class is created (`__set_name__`, as when
        # `ipaddress` loads under `importlib.resources`) in a RuntimeError: a traceback, before
        "RuntimeError('Error calling __set_name__') from KeyboardInterrupt()",
    ],
)
def test_ctrl_c_while_the_command_loads_is_quiet(interrupt: str) -> None:
    # A SIGINT during the imports (jsonschema, the validators: about 0.3 s) used to print a
    # KeyboardInterrupt traceback; here it arrives, deterministically, as chatschema.schemas loads.
    hook = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'chatschema.schemas':\n"
        f"            raise {interrupt}\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "from chatschema.command import main\n"
        "sys.exit(main(['validate', '-s', 'docent/ChatMessage', '-']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", hook], input=b"", capture_output=True, timeout=60, check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, b"", b"")
    proc = subprocess.run(
        [sys.executable, "-m", "chatschema", "validate", "-s", "docent/ChatMessage", "-"],
        input=USER.encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0 and b"1 valid" in proc.stderr


def test_the_cpus_counted_where_there_is_no_affinity(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatschema.validate import jobs

    monkeypatch.delattr(os, "sched_getaffinity")  # macOS, Windows
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert jobs.usable_cpus() == 3
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # "cannot be determined"
    assert jobs.usable_cpus() == 1
