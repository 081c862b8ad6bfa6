"""`chatschema.validate` used directly, as its docstring shows, and the command's `--count-only`."""

from __future__ import annotations

import io
from pathlib import Path

from chatschema.validate import Options, read_document, read_lines, run
from tests.hostile.common import counts
from tests.hostile.common import run as command

LINES = b'{"role":"user","content":"hi"}\n{"role":"bot"}\nnot json\n{"role":"user"}\n'


def test_run_with_default_options_explains_every_problem() -> None:
    problems = [
        p
        for r in run(read_lines(io.BytesIO(LINES), "dump.jsonl", 1 << 24), Options("docent/ChatMessage"))
        for p in r.problems
    ]
    assert [(p.where, p.status) for p in problems] == [
        ("dump.jsonl:2", "invalid"),
        ("dump.jsonl:3", "malformed"),
        ("dump.jsonl:4", "invalid"),
    ]
    assert all(p.errors for p in problems if p.status == "invalid")
    assert problems[1].reason and problems[1].omitted == 0


def test_count_only_counts_without_explaining(tmp_path: Path) -> None:
    path = tmp_path / "dump.jsonl"
    path.write_bytes(LINES)
    for backend in ("jsonschema", "fast"):
        code, out, err = command(["-s", "docent/ChatMessage", "--backend", backend, "--count-only", str(path)])
        assert code == 1 and counts(err) == (4, 1, 2, 1)
        assert [line.split(": ")[:2] for line in out.splitlines()] == [[f"{path}:3", "malformed"]]


def test_an_array_document_without_each_gets_one_error_with_the_hint(tmp_path: Path) -> None:
    path = tmp_path / "messages.json"
    path.write_text('[{"role":"user","content":"hi"}]')
    code, out, _ = command(["-s", "docent/ChatMessage", str(path)])
    assert code == 1
    assert out == (
        f"{path}:1: $: [{{'content': 'hi', 'role': 'user'}}] is not of type 'object'"
        " (a top-level array: --each validates its elements)\n"
    )
    chunks = list(read_document(io.BytesIO(b"[1, 2]"), "a.json", 1 << 24))
    (problem,) = [p for r in run(chunks, Options("docent/ChatMessage")) for p in r.problems]
    assert problem.errors[0][1].endswith("(a top-level array: --each validates its elements)")
