"""`chatschema validate --unknown error|warn|allow`: messages of a type from a later release (a tag
value no branch of the union has) are invalid by default, or counted (and, with `warn`, reported)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from chatschema import cli

DOCENT = [
    '{"role": "user", "content": "hi"}',
    '{"role": "critic", "content": "a type from a later release"}',
    '{"role": "user"}',
    '{"role": 7, "content": "a tag that is not a string"}',
    "not json",
    '{"role": "user", "content": [{"type": "audio", "data": "a nested unknown part is invalid"}]}',
]


def run(argv: list[str]) -> tuple[int, list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.validate(cli._parser().parse_args(["validate", *argv]), io.BytesIO(), out, err)
    return code, out.getvalue().splitlines(), err.getvalue()


def summary(err: str) -> str:
    return err.strip().splitlines()[-1].split(" in ")[0]


@pytest.fixture
def mixed(tmp_path: Path) -> str:
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(DOCENT) + "\n")
    return str(path)


def test_by_default_a_later_type_is_invalid(mixed: str) -> None:
    code, lines, err = run(["-s", "docent/ChatMessage", mixed])
    assert code == 1 and summary(err) == "chatschema validate: 6 read, 1 valid, 4 invalid, 1 malformed"
    assert lines[0] == f"{mixed}:2: $: unknown role 'critic', expected one of 'system', 'user', 'assistant', 'tool'"
    assert run(["-s", "docent/ChatMessage", "--unknown", "error", mixed])[:2] == (code, lines)


@pytest.mark.parametrize("backend", ["jsonschema", "fast"])
def test_warn_reports_and_counts_them_and_nothing_else_changes(mixed: str, backend: str) -> None:
    code, lines, err = run(["-s", "docent/ChatMessage", "--unknown", "warn", "--backend", backend, mixed])
    assert summary(err) == "chatschema validate: 6 read, 1 valid, 3 invalid, 1 malformed, 1 of unknown types"
    assert code == 1  # the invalid and malformed ones still fail the run
    assert lines[0] == f"{mixed}:2: warning: unknown role 'critic': a type this version does not know"
    strict = run(["-s", "docent/ChatMessage", mixed])[1]
    assert lines[1:] == strict[1:]  # a tag that is not a string, a missing key, a nested part: invalid as ever
    _, records, _ = run(["-s", "docent/ChatMessage", "--unknown", "warn", "--format", "json", mixed])
    assert json.loads(records[0]) == {
        "file": mixed,
        "line": 2,
        "status": "unknown",
        "schema": "docent/ChatMessage",
        "reason": "unknown role 'critic': a type this version does not know",
        "tag": "role",
        "value": "critic",
    }


def test_allow_counts_them_only_and_a_run_of_known_and_later_types_passes(tmp_path: Path) -> None:
    path = tmp_path / "letta.jsonl"
    later = {"message_type": "compaction_message", "id": "m-2", "date": "2026-01-01T00:00:00Z"}
    known = {"message_type": "user_message", "id": "m-1", "date": "2026-01-01T00:00:00Z", "content": "hi"}
    path.write_text(f"{json.dumps(known)}\n{json.dumps(later)}\n")
    code, lines, err = run(["-s", "letta/LettaMessage", "--unknown", "allow", str(path)])
    assert (code, lines) == (0, [])
    assert summary(err) == "chatschema validate: 2 read, 1 valid, 0 invalid, 0 malformed, 1 of unknown types"
    code, lines, err = run(["-s", "letta/LettaMessage", "--unknown", "warn", "--count-only", str(path)])
    assert code == 0 and lines == [
        f"{path}:2: warning: unknown message_type 'compaction_message': a type this version does not know"
    ]
    assert run(["-s", "letta/LettaMessage", str(path)])[0] == 1


def test_auto_names_the_union_whose_tag_the_message_carries(mixed: str) -> None:
    _, lines, err = run(["-s", "auto", "--unknown", "warn", mixed])
    assert (
        lines[0] == f"{mixed}:2: warning: unknown role 'critic': a type this version does not know [docent/ChatMessage]"
    )
    assert summary(err).endswith("1 of unknown types")
    # a message that no union's tag names stays invalid: nothing says it is of a later type
    _, lines, _ = run(["-s", "auto", "--unknown", "allow", mixed])
    assert any(":5: malformed" in line for line in lines)


def test_a_type_that_is_not_a_union_has_no_later_types(mixed: str) -> None:
    code, lines, err = run(["-s", "docent/UserMessage", "--unknown", "allow", mixed])
    assert code == 1 and summary(err).endswith("0 of unknown types")
    assert any(line.startswith(f"{mixed}:2: ") for line in lines)


def test_the_same_with_several_processes(tmp_path: Path) -> None:
    path = tmp_path / "large.jsonl"
    path.write_text("\n".join(DOCENT * 6000) + "\n")  # over 1 MiB: more than one block
    one = run(["-s", "docent/ChatMessage", "--unknown", "warn", "--jobs", "1", str(path)])
    two = run(["-s", "docent/ChatMessage", "--unknown", "warn", "--jobs", "2", str(path)])
    assert one[:2] == two[:2] and summary(one[2]) == summary(two[2])
    assert summary(two[2]).endswith(", 6,000 of unknown types")
