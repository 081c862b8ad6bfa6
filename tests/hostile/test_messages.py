"""Issues 7 and 9: messages that say what is wrong, the same under --schema auto as with a schema."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from chatschema import jsontext, schemas

from .common import BACKENDS, USER, counts, run

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
    _, letta, _ = run(["-s", "letta/LettaStreamingResponse", str(path)])
    _, docent, _ = run(["-s", "docent/ChatMessage", str(path)])
    assert auto_lines[0] == letta.splitlines()[0] + " [letta/LettaStreamingResponse]"
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
    # UTF-8 JSON that the project's own reader accepts (no lone surrogate): the odd byte as `\xe9`
    record = jsontext.parse(out.encode("utf-8"), jsontext.loader())
    assert code == 1 and record["file"] == f"{tmp_path}/caf\\xe9.jsonl"
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


def test_keys_and_file_names_cannot_forge_or_colour_output_lines(tmp_path: Path) -> None:
    forged = "a\nfake.jsonl:99: malformed: injected\x1b[31m"
    payload = {"type": "object", "properties": {forged: 5, "k" * 200_000: 5, "it's": 5, "plain": 5}}
    path = tmp_path / "odd\nname\x1b.jsonl"
    path.write_text(json.dumps(payload) + "\n")
    for backend in BACKENDS:
        code, out, err = run(["-s", "docent/ToolParams", "--backend", backend, str(path)])
        assert code == 1 and counts(err) == (1, 0, 1, 0)
        [line] = out.splitlines()  # one message, one line
        assert "\x1b" not in line and len(line) < 2000
        assert line.startswith(f"{tmp_path}/odd\\nname\\x1b.jsonl:1: ")
        assert "$.properties['a\\u000afake.jsonl:99: malformed: injected\\u001b[31m']: 5 is not of type" in line
        assert f"$.properties['{'k' * 100}...']: 5 is not of type" in line
        assert "$.properties['it\\'s']: 5 is not of type" in line and "$.properties.plain: 5" in line
        code, out, _ = run(["-s", "docent/ToolParams", "--backend", backend, "--format", "json", str(path)])
        [record] = [jsontext.parse(line.encode(), jsontext.loader()) for line in out.splitlines()]
        assert record["file"] == f"{tmp_path}/odd\\nname\\x1b.jsonl"
        assert f"$.properties['{'k' * 100}...']" in [e["path"] for e in record["errors"]]


def test_a_path_is_bounded_however_deep() -> None:
    assert schemas.json_path(["k" * 100]) == "$." + "k" * 100  # at the limits: shown whole
    assert schemas.json_path(["k" * 101]) == "$['" + "k" * 100 + "...']"
    assert schemas.json_path([" " * 100]) == "$['" + " " * 100 + "']"
    assert schemas.json_path([0] * 333) == "$" + "[0]" * 333  # 1,000 characters
    assert len(schemas.json_path([*[0] * 332, 10])) == 1003  # 1,001: cut to 500, "...", 500
    assert schemas.json_path([0] * 334) == "$" + "[0]" * 166 + "[..." + "0]" + "[0]" * 166
    path = schemas.json_path(["k" * 150, 3] * 1000)
    assert len(path) == 1003 and path.startswith("$['" + "k" * 100 + "...'][3]['k") and path.endswith("...'][3]")
    assert schemas.json_path(["content", 10, "a b", "x\u2028", "\ud800", 'q"']) == (
        "$.content[10]['a b']['x\\u2028']['\\ud800']['q\"']"
    )


def test_quoted_keys_sort_in_payload_order_whatever_they_hold() -> None:
    keys = ["[]", "a[12]", "a[2]", "b", "[3]"]
    payload = {"type": "object", "properties": dict.fromkeys(keys, 5)}
    paths = [v.path for v in schemas.violations(payload, "docent/ToolParams")]
    # brackets inside a quoted key are read as indexes when sorting (`a[2]` before `a[12]`), and never fail
    order = ["b", "[3]", "[]", "a[2]", "a[12]"]
    assert paths == [schemas.json_path(["properties", key]) for key in order]


def test_vertical_tab_and_form_feed_are_not_json_whitespace(tmp_path: Path) -> None:
    # bytes.strip() also strips \x0b and \x0c: such a line, element or document was dropped uncounted
    for backend in BACKENDS:
        code, out, err = run(
            ["-s", "docent/ChatMessage", "--backend", backend, "-"], stdin=f"{USER}\n\x0b\n\n".encode()
        )
        assert code == 1 and counts(err) == (2, 1, 0, 1) and out.startswith("<stdin>:2: malformed: ")
        code, out, err = run(["-s", "docent/ChatMessage", "--each", "-"], stdin=f"[{USER},\x0b]".encode())
        assert code == 1 and counts(err) == (2, 1, 0, 1) and out.startswith("<stdin>[1]: malformed: ")
        document = tmp_path / "ff.json"
        document.write_bytes(b"\x0c")
        code, out, err = run(["-s", "docent/ChatMessage", "--backend", backend, str(document)])
        assert code == 1 and counts(err) == (1, 0, 0, 1) and "malformed" in out


def test_each_with_no_element_says_so() -> None:
    for data in (b"", b" \n", b"[]", b" [ ] \n"):
        code, out, err = run(["-s", "docent/ChatMessage", "--each", "-"], stdin=data)
        assert code == 0 and out == "" and counts(err) == (0, 0, 0, 0)
        assert "<stdin>: no message read (empty input or array)" in err


def test_max_bytes_is_bounded_and_reads_follow_the_document(tmp_path: Path) -> None:
    document = tmp_path / "one.json"
    document.write_text(USER)
    for limit in ("2147483648", "100000000000", "10000000000000000000000", "0"):
        code, out, err = run(["-s", "docent/ChatMessage", "--max-bytes", limit, str(document)])
        assert (
            code == 2 and out == "" and err == "chatschema validate: --max-bytes must be between 1 and 2,147,483,647\n"
        )
    # the largest limit allocates nothing up front: a small document reads as usual
    code, _, err = run(["-s", "docent/ChatMessage", "--max-bytes", "2147483647", str(document)])
    assert code == 0 and counts(err) == (1, 1, 0, 0)
    code, out, err = run(["-s", "docent/ChatMessage", "--max-bytes", "10", str(document)])
    assert code == 1 and f"message too large: {len(USER)} bytes or more, limit 10" in out


def test_a_document_too_large_on_a_stream_is_not_read_to_its_end() -> None:
    from chatschema.validate.reader import TooLarge, read_document

    class Endless(io.RawIOBase):  # /dev/zero, named .json: reading it to its end never ends
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            buffer[:] = b" " * len(buffer)
            return len(buffer)

    [chunk] = read_document(io.BufferedReader(Endless()), "zero.json", 1000)
    [item] = chunk.items
    assert isinstance(item, TooLarge) and item.size == 1004  # what was read: the limit, room for a BOM, one more


@pytest.mark.parametrize("each", [False, True])
def test_a_fifo_s_lines_are_reported_as_they_come(tmp_path: Path, each: bool) -> None:
    # The reader waited for a whole 1 MiB block (or the end) before checking anything: a bad line
    # written first to a FIFO or stdin (`tail -f log | chatschema validate -`) was reported at the end.
    from chatschema import cli

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    out, err = io.StringIO(), io.StringIO()
    seen_before_the_end: list[bool] = []

    def feed() -> None:
        with open(fifo, "w") as f:
            f.write('[{"role":"bot"},' if each else '{"role":"bot"}\n')
            f.flush()
            for _ in range(400):  # the line should be reported while the writer still holds the FIFO open
                if "unknown role 'bot'" in out.getvalue():
                    break
                time.sleep(0.05)
            seen_before_the_end.append("unknown role 'bot'" in out.getvalue())
            f.write(f"{USER}]" if each else f"{USER}\n")

    writer = threading.Thread(target=feed)
    writer.start()
    argv = ["validate", "-s", "docent/ChatMessage", *(["--each"] if each else []), str(fifo)]
    code = cli.validate(cli._parser().parse_args(argv), io.BytesIO(), out, err)
    writer.join()
    assert seen_before_the_end == [True]
    assert code == 1 and counts(err.getvalue()) == (2, 1, 1, 0)


def test_a_document_read_a_byte_at_a_time_is_too_large_past_its_byte_order_mark() -> None:
    from chatschema.validate.reader import BOM, TooLarge, read_document

    class Trickle(io.RawIOBase):  # a pipe that hands over one byte per read
        def __init__(self, data: bytes) -> None:
            self.data = data

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            if not self.data:
                return 0
            buffer[0], self.data = self.data[0], self.data[1:]
            return 1

    limit = 20
    document = b'{"role":"user","x":"' + b"y" * 40 + b'"}'
    [chunk] = read_document(Trickle(BOM + document), "trickle.json", limit)  # type: ignore[arg-type]
    [item] = chunk.items
    assert isinstance(item, TooLarge) and item.size == limit + 1  # not the first 20 bytes read as all of it
    [chunk] = read_document(Trickle(BOM + document[:limit]), "fits.json", limit)  # type: ignore[arg-type]
    assert chunk.items == [document[:limit]]
