"""Issues 7 and 9: messages that say what is wrong, the same under --schema auto as with a schema."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from chatschema import schemas

from .common import USER, counts, run

TOOL_CALL = {
    "message_type": "tool_call_message",
    "id": "m",
    "date": "2024-01-01T00:00:00Z",
    "tool_call": {"name": "f", "arguments": {"city": "Paris"}, "tool_call_id": "c"},
}


def test_non_string_schema_name_is_a_type_error() -> None:
    for name in (None, 3, ["docent/ChatMessage"]):
        with pytest.raises(TypeError, match="a schema name is a string"):
            schemas.validate({}, name)  # type: ignore[arg-type]
    with pytest.raises(schemas.UnknownSchemaError):
        schemas.validate({}, "docent/Nope")


def test_arguments_as_an_object_names_the_closest_branch() -> None:
    found = schemas.violations(TOOL_CALL, "letta/LettaMessage")
    assert [str(v) for v in found] == [
        "$.tool_call.arguments: expected a JSON-encoded string, got an object: {'city': 'Paris'}"
        " (closest of ToolCall, ToolCallDelta: ToolCall)"
    ]


def test_auto_explains_as_an_explicit_schema_does(tmp_path: Path) -> None:
    lines = [json.dumps(TOOL_CALL), '{"role":"bot","content":"x"}', "[1,2]", '{"x":1}', '{"role":"user"}']
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    _, auto, _ = run(["-s", "auto", str(path)])
    auto_lines = auto.splitlines()
    _, letta, _ = run(["-s", "letta/LettaMessage", str(path)])
    _, docent, _ = run(["-s", "docent/ChatMessage", str(path)])
    assert auto_lines[0] == letta.splitlines()[0] + " [letta/LettaMessage]"
    assert auto_lines[1] == docent.splitlines()[1] + " [docent/ChatMessage]"
    assert auto_lines[2] == f"{path}:3: $: [1, 2] is not of type 'object' [auto]"
    assert "missing discriminator" in auto_lines[3] and "'role'" in auto_lines[3]
    assert auto_lines[4] == docent.splitlines()[4] + " [docent/ChatMessage]"


def test_a_directory_is_refused(tmp_path: Path) -> None:
    code, _, err = run(["-s", "docent/ChatMessage", str(tmp_path)])
    assert code == 2 and "is a directory" in err and "no such file" not in err


def test_missing_file_is_no_such_file(tmp_path: Path) -> None:
    code, _, err = run(["-s", "docent/ChatMessage", str(tmp_path / "nope.jsonl")])
    assert code == 2 and "no such file" in err


def test_fifo_is_streamed(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as f:
            f.write(f"{USER}\n" * 3 + '{"role":"bot"}\n')

    writer = threading.Thread(target=feed)
    writer.start()
    code, out, err = run(["-s", "docent/ChatMessage", str(fifo)])
    writer.join()
    assert code == 1 and counts(err) == (4, 3, 1, 0) and out.startswith(f"{fifo}:4: ")


def test_dev_null_and_empty_files_say_so(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.jsonl"
    blank.write_bytes(b"\n\n  \n")
    for path in ("/dev/null", str(empty), str(blank)):
        code, out, err = run(["-s", "docent/ChatMessage", path])
        assert code == 0 and out == "" and "empty input, no message read" in err
        assert counts(err) == (0, 0, 0, 0)
    code, _, err = run(["-s", "docent/ChatMessage", "-"], stdin=b"")
    assert "<stdin>: empty input" in err
    code, out, _ = run(["-s", "docent/ChatMessage", "-"], stdin=b"\n")
    assert out == ""


def test_jsonl_in_a_json_file_gets_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(f"{USER}\n{USER}\n")
    code, out, _ = run(["-s", "docent/ChatMessage", str(path)])
    assert code == 1 and out.rstrip().endswith("this looks like JSONL, one message per line: name it .jsonl)")
    path.write_text('{"role": "user",\n "content": }\n')  # broken, but not JSONL: no hint
    _, out, _ = run(["-s", "docent/ChatMessage", str(path)])
    assert "JSONL" not in out


def test_stray_brace_in_an_element_spoils_only_that_element(tmp_path: Path) -> None:
    path = tmp_path / "array.json"
    path.write_text(f'[{USER}}}, {USER}, {{"role":"bot"}}, {USER}]')
    code, out, err = run(["-s", "docent/ChatMessage", "--each", str(path)])
    assert code == 1 and counts(err) == (4, 2, 1, 1)
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}[0]: malformed: ") and lines[1].startswith(f"{path}[2]: $: unknown role")


def test_non_utf8_file_name_keeps_output_valid(tmp_path: Path) -> None:
    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9.jsonl"
    with open(raw, "wb") as f:
        f.write(b'{"role":"bot"}\n')
    name = os.fsdecode(raw)
    code, out, _ = run(["-s", "docent/ChatMessage", "--format", "json", name])
    record = json.loads(out.encode("utf-8"))  # the line is UTF-8 JSON: the odd byte is escaped
    assert code == 1 and record["file"] == name
    code, out, _ = run(["-s", "docent/ChatMessage", name])
    assert "caf\\xe9.jsonl:1: " in out
    out.encode("utf-8")


def test_unknown_tag_explanations_come_from_a_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatschema.validate.backends import Checker

    calls: list[object] = []
    counted = schemas.violations_counted

    def counting(message: object, name: str) -> tuple[list[schemas.Violation], int]:
        calls.append(message)
        return counted(message, name)

    monkeypatch.setattr(schemas, "violations_counted", counting)
    checker = Checker("docent/ChatMessage", "fast")
    results = [checker.explain({"role": "bot", "content": str(i)}) for i in range(50)]
    results += [checker.explain({"content": str(i)}) for i in range(50)]
    assert len(calls) == 2  # once per tag value (here "bot", and no tag)
    assert {str(r[1][0]) for r in results} == {
        "$: unknown role 'bot', expected one of 'system', 'user', 'assistant', 'tool'",
        "$: missing discriminator 'role'",
    }
    checker.explain({"role": "user"})  # a known tag: explained each time
    checker.explain({"role": "user"})
    assert len(calls) == 4
