"""`chatschema convert` as a user runs it: every input form, one run per input, errors as one line."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from docent.data_models.agent_run import AgentRun as DocentAgentRun

from chatschema import schemas
from chatschema.convert import command

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "schemas" / "letta" / "examples"
SUMMARY = r"chatschema convert: %d read, %d converted, %d failed; %d messages?, %d set aside, in [0-9.]+s\n"
RESPONSE = json.loads((EXAMPLES / "LettaResponse" / "valid" / "full_response.json").read_text())


def _run(*args: str, stdin: bytes = b"", cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "chatschema", "convert", *args], input=stdin, capture_output=True, cwd=cwd, timeout=120
    )


def _runs(stdout: bytes) -> list[dict[str, Any]]:
    runs = [json.loads(line) for line in stdout.decode().splitlines()]
    for run in runs:
        schemas.validate(run, "docent/AgentRun")
        DocentAgentRun.model_validate(run)
    return runs


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    stream = json.loads((EXAMPLES / "streams" / "background_parallel_calls.json").read_text())
    (tmp_path / "stream.sse").write_text("".join(stream["sse"]))
    (tmp_path / "response.json").write_text(json.dumps(RESPONSE))
    (tmp_path / "messages.jsonl").write_text("".join(json.dumps(m) + "\n\n" for m in RESPONSE["messages"]))
    return tmp_path


def test_each_input_form_is_one_run_named_after_its_file(inputs: Path) -> None:
    done = _run("--from", "letta", "stream.sse", "response.json", "messages.jsonl", cwd=inputs)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(SUMMARY % (3, 3, 0, 9, 0), done.stderr.decode()), done.stderr
    runs = _runs(done.stdout)
    assert [r["name"] for r in runs] == ["stream", "response", "messages"]
    assert runs[1]["metadata"]["letta"]["stop_reason"] == RESPONSE["stop_reason"]
    assert runs[1]["transcripts"] == runs[2]["transcripts"]  # the same messages, as JSON or as JSONL


def test_stdin_and_output_file_and_a_forced_input_form(inputs: Path) -> None:
    body = (inputs / "stream.sse").read_bytes()
    done = _run("--from", "letta", "--name", "live", "-o", "out.jsonl", "-q", "-", stdin=body, cwd=inputs)
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b"", done.stderr
    (run,) = _runs((inputs / "out.jsonl").read_bytes())
    assert run["name"] == "live"
    (inputs / "messages.txt").write_bytes((inputs / "messages.jsonl").read_bytes())
    forced = _run("--from", "letta", "--input", "jsonl", "messages.txt", cwd=inputs)
    assert forced.returncode == 0 and len(_runs(forced.stdout)) == 1


def test_an_input_that_cannot_be_converted_is_one_line_and_the_others_still_are(inputs: Path) -> None:
    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}
    user = {"id": "m-9", "message_type": "user_message", "date": "2025-10-01T12:30:40Z", "content": [image]}
    (inputs / "image.jsonl").write_text("\n" + json.dumps(user) + "\n")
    done = _run("--from", "letta", "image.jsonl", "response.json", cwd=inputs)
    assert done.returncode == 1
    error, summary = done.stderr.decode().splitlines(keepends=True)
    assert error == (
        "chatschema convert: image.jsonl:2: message 0: user_message.content[0]: a Docent message holds no image part\n"
    )
    assert re.fullmatch(SUMMARY % (2, 1, 1, 3, 0), summary), summary
    assert [r["name"] for r in _runs(done.stdout)] == ["response"]
    lenient = _run("--from", "letta", "--lenient", "image.jsonl", cwd=inputs)
    assert lenient.returncode == 0 and len(_runs(lenient.stdout)) == 1
    assert re.fullmatch(SUMMARY % (1, 1, 0, 1, 1), lenient.stderr.decode()), lenient.stderr


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        ("deep.jsonl", "[" * 5000 + "]" * 5000, "deep.jsonl:1: not JSON: nesting too deep: more than 1024 levels"),
        ("cut.json", '[{"id": "m', "cut.json: not JSON: "),
        ("bot.json", '[{"message_type": "bot_message"}]', "bot.json: message 0: $: not a Letta message: "),
        (
            "truncated.sse",
            'data: {"message_type": "stop_reason", "stop_reason": "end_turn"}\n',
            "truncated.sse: stream truncated",
        ),
        ("object.json", '{"messages": "no"}', "object.json: $: expected a list of Letta messages"),
        ("empty.jsonl", "", "empty.jsonl: empty input: no messages"),
        ("blank.jsonl", "\n  \n", "blank.jsonl: empty input: no messages"),
        ("empty.json", "[]", "empty.json: empty input: no messages"),
    ],
)
def test_hostile_input_is_one_line_naming_the_file(inputs: Path, name: str, content: str, error: str) -> None:
    (inputs / name).write_text(content)
    done = _run("--from", "letta", "-q", name, cwd=inputs)
    text = done.stderr.decode()
    assert done.returncode == 1 and done.stdout == b"", text
    assert text.startswith(f"chatschema convert: {error}") and text.count("\n") == 1 and "Traceback" not in text, text


def test_too_large_an_input_is_refused_before_it_is_read_whole(inputs: Path) -> None:
    done = _run("--from", "letta", "--max-bytes", "100", "-q", "response.json", cwd=inputs)
    assert done.returncode == 1
    assert done.stderr.decode() == "chatschema convert: response.json: larger than --max-bytes (100 bytes)\n"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--from", "swarm", "--input", "sse", "x.sse"], "--input sse reads Letta streams only (--from letta)"),
        (["--from", "bridgic", "--input", "frames", "x"], "--input frames reads Letta streams only (--from letta)"),
        (["--from", "letta", "missing.json"], "missing.json: no such file"),
        (["--from", "letta", "-", "-"], "'-' (stdin) can be read only once"),
    ],
)
def test_usage_errors_exit_2(inputs: Path, args: list[str], error: str) -> None:
    done = _run(*args, cwd=inputs)
    assert (done.returncode, done.stderr.decode()) == (2, f"chatschema convert: {error}\n")


def test_a_stream_cannot_be_converted_from_another_family(inputs: Path) -> None:
    done = _run("--from", "bridgic", "stream.sse", cwd=inputs)
    assert done.returncode == 1
    assert "an SSE stream is a Letta recording" in done.stderr.decode()


def test_lenient_sets_aside_an_invalid_message_and_converts_the_rest(inputs: Path) -> None:
    lines = (inputs / "messages.jsonl").read_text().split("\n\n")
    (inputs / "one_bad.jsonl").write_text("\n".join([lines[0], '{"message_type": "bot_message"}', *lines[1:]]))
    strict = _run("--from", "letta", "-q", "one_bad.jsonl", cwd=inputs)
    assert strict.returncode == 1 and b"one_bad.jsonl:2: message 1: $: not a Letta message" in strict.stderr
    done = _run("--from", "letta", "--lenient", "-q", "one_bad.jsonl", cwd=inputs)
    (run,) = _runs(done.stdout)
    (aside,) = run["metadata"]["chatschema"]["set_aside"]
    assert (aside["index"], aside["value"]) == (1, {"message_type": "bot_message"})
    (without,) = _runs(_run("--from", "letta", "-q", "messages.jsonl", cwd=inputs).stdout)
    assert run["transcripts"] == without["transcripts"]  # the rest converted as if it were not there


def test_an_output_that_cannot_be_written_is_a_usage_error(inputs: Path) -> None:
    done = _run("--from", "letta", "-o", "missing/out.jsonl", "response.json", cwd=inputs)
    assert (done.returncode, done.stderr.decode()) == (
        2,
        "chatschema convert: cannot write missing/out.jsonl: No such file or directory\n",
    )


def test_a_stream_recorded_as_jsonl_frames_is_reassembled(inputs: Path) -> None:
    sample = (ROOT / "chatschema" / "samples" / "letta_stream.jsonl").read_text().splitlines()
    fixed = [line.replace('"status": "done"', '"status": "success"') for line in sample]  # its bad frame, mended
    (inputs / "frames.jsonl").write_text("\n".join(fixed))
    done = _run("--from", "letta", "-q", "frames.jsonl", cwd=inputs)
    assert done.returncode == 0, done.stderr
    (run,) = _runs(done.stdout)
    roles = [(m["role"], [c["function"] for c in m.get("tool_calls") or []]) for m in run["transcripts"][0]["messages"]]
    assert roles == [("assistant", []), ("assistant", ["web_search"]), ("tool", []), ("assistant", [])]
    assert run["metadata"]["letta"]["stop_reason"]["stop_reason"] == "end_turn"
    whole = _run("--from", "letta", "-q", str(ROOT / "chatschema" / "samples" / "letta_stream.jsonl"), cwd=inputs)
    assert whole.returncode == 1 and b"frame 3: not a valid letta/LettaStreamingResponse" in whole.stderr


def test_the_family_is_required_and_the_bound_is_within_what_memory_holds(inputs: Path) -> None:
    missing = _run("response.json", cwd=inputs)
    assert missing.returncode == 2 and b"the following arguments are required: --from" in missing.stderr
    bound = "chatschema convert: --max-bytes must be between 1 and 2,147,483,647\n"
    for beyond in ("0", "2147483648", "99999999999999"):  # never a read of that size (MemoryError)
        done = _run("--from", "letta", "--max-bytes", beyond, "-", stdin=b"[]", cwd=inputs)
        assert (done.returncode, done.stderr.decode()) == (2, bound)
    one = _run("--from", "letta", "--max-bytes", "1", "-q", "response.json", cwd=inputs)
    assert (one.returncode, one.stderr.decode()) == (
        1,
        "chatschema convert: response.json: larger than --max-bytes (1 bytes)\n",
    )


def test_progress_when_asked_and_text_written_as_it_is(inputs: Path) -> None:
    swarm = {"role": "user", "agentName": "a", "mode": "user", "content": "22°C, 東京"}
    (inputs / "history.jsonl").write_text(json.dumps(swarm) + "\n", encoding="utf-8")
    done = _run("--from", "swarm", "--progress", "history.jsonl", "history.jsonl", cwd=inputs)
    assert done.returncode == 0
    assert done.stderr.decode().startswith("\rchatschema convert: 1 of 2 inputs\rchatschema convert: 2 of 2 inputs\r")
    assert "22°C, 東京".encode() in done.stdout  # not \u-escaped
    quiet = _run("--from", "swarm", "history.jsonl", cwd=inputs)
    assert "\r" not in quiet.stderr.decode()  # not a terminal: no progress unless asked


def test_an_input_of_exactly_the_bound_is_read(inputs: Path) -> None:
    size = (inputs / "response.json").stat().st_size
    done = _run("--from", "letta", "--max-bytes", str(size), "-q", "response.json", cwd=inputs)
    assert done.returncode == 0, done.stderr


def test_a_byte_order_mark_at_the_start_is_skipped_from_a_file_and_from_stdin(inputs: Path) -> None:
    """As validate skips it: every input form, named or from stdin (where the form is told from the
    text, which the mark would hide), and the bound counts the input without it."""
    bom = b"\xef\xbb\xbf"
    for name in ("stream.sse", "response.json", "messages.jsonl"):
        data = (inputs / name).read_bytes()
        (inputs / f"bom-{name}").write_bytes(bom + data)
        done = _run("--from", "letta", "--max-bytes", str(len(data)), "--name", "n", "-q", f"bom-{name}", cwd=inputs)
        assert done.returncode == 0, done.stderr
        piped = _run("--from", "letta", "--name", "n", "-q", "-", stdin=bom + data, cwd=inputs)
        assert (piped.returncode, piped.stdout) == (0, done.stdout), piped.stderr
        short = len(data) - 1  # the mark is not counted, the rest is: one byte too many
        refused = f"larger than --max-bytes ({short:,} bytes)\n"
        over = _run("--from", "letta", "--max-bytes", str(short), "-q", f"bom-{name}", cwd=inputs)
        assert (over.returncode, over.stderr.decode()) == (1, f"chatschema convert: bom-{name}: {refused}")
        over = _run("--from", "letta", "--max-bytes", str(short), "-q", "-", stdin=bom + data, cwd=inputs)
        assert (over.returncode, over.stderr.decode()) == (1, f"chatschema convert: <stdin>: {refused}")


@pytest.mark.parametrize(
    ("chosen", "path", "data", "form"),
    [
        ("auto", "a.json", b"{}", "json"),
        ("auto", "a.jsonl", b"[]", "jsonl"),
        ("auto", "a.sse", b"[]", "sse"),
        ("auto", "-", b"  [1]", "json"),
        ("auto", "-", b'{"messages": []}\n', "json"),
        ("auto", "-", b'{"a": 1}', "jsonl"),  # one message on one line
        ("auto", "-", b'{"messages": []}\n{"b": 2}', "jsonl"),
        ("auto", "a.txt", b"data: {}\n\n", "sse"),
        ("frames", "a.json", b"[]", "frames"),
    ],
)
def test_the_input_form_from_the_name_then_the_text(chosen: str, path: str, data: bytes, form: str) -> None:
    assert command._format(chosen, path, data) == form


@pytest.mark.parametrize(
    ("frame", "stream_only"),
    [
        ({"message_type": "stop_reason", "stop_reason": "end_turn"}, True),
        ({"message_type": "usage_statistics"}, True),
        ({"message_type": "tool_call_message", "tool_calls": {"arguments": "{"}}, True),
        ({"message_type": "approval_request_message", "tool_calls": {"name": "rm"}}, True),
        ({"message_type": "tool_call_message", "tool_calls": [{"name": "f"}]}, False),
        ({"message_type": "user_message", "tool_calls": {"name": "f"}}, False),
        ([{"message_type": "stop_reason"}], False),
    ],
)
def test_a_line_is_a_stream_frame_when_no_message_list_holds_one(frame: Any, stream_only: bool) -> None:
    assert command._stream_only(frame) is stream_only


def test_a_file_that_cannot_be_read_is_one_line(inputs: Path) -> None:
    done = _run("--from", "letta", "-q", "/proc/self/mem", "response.json", cwd=inputs)  # reading offset 0 fails
    assert done.returncode == 1 and len(_runs(done.stdout)) == 1
    assert done.stderr.decode() == "chatschema convert: /proc/self/mem: cannot read: Input/output error\n"


@pytest.mark.parametrize("name", ["latin1.json", "latin1.jsonl", "latin1.sse"])
def test_bytes_that_are_not_utf8_are_one_line(inputs: Path, name: str) -> None:
    body = b'data: {"content": "caf\xe9"}\n\n' if name.endswith(".sse") else b'[{"content": "caf\xe9"}]'
    (inputs / name).write_bytes(body)
    done = _run("--from", "letta", "-q", name, cwd=inputs)
    text = done.stderr.decode()
    assert done.returncode == 1 and done.stdout == b"" and "Traceback" not in text, text
    assert text.startswith(f"chatschema convert: {name}") and "UTF-8" in text and text.count("\n") == 1, text


def test_a_lenient_conversion_sets_aside_stream_frames_of_later_types(tmp_path: Path) -> None:
    """A stream with frames of types this version does not know: strict fails on it, lenient reads it
    with unknown="keep", sets each such frame aside and counts it in the summary."""
    example = json.loads((EXAMPLES / "streams" / "unknown_frame_types_kept.json").read_text())
    (tmp_path / "later.sse").write_text("".join(example["sse"]))
    strict = _run("--from", "letta", "later.sse", cwd=tmp_path)
    assert strict.returncode == 1 and b"not a valid letta/LettaStreamingResponse" in strict.stderr
    lenient = _run("--from", "letta", "--lenient", "later.sse", cwd=tmp_path)
    assert lenient.returncode == 0 and b"2 messages, 2 set aside" in lenient.stderr
    aside = json.loads(lenient.stdout)["metadata"]["chatschema"]["set_aside"]
    assert [(a["index"], a["value"]["message_type"]) for a in aside] == [
        (None, "compaction_status"),
        (None, "trace_metadata"),
    ]


class _Trickle:
    """Standard input that gives at most 7 bytes a read, as a pipe gives what has arrived so far."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, size: int = -1) -> bytes:
        piece, self.data = self.data[: min(size, 7)], self.data[min(size, 7) :]
        return piece


def test_piped_input_is_read_to_its_end_not_one_read_of_it() -> None:
    text = "".join(json.dumps(m) + "\n" for m in RESPONSE["messages"]).encode()
    assert command._read(_Trickle(text), "-", 1 << 20) == text  # type: ignore[arg-type]
    with pytest.raises(command._InputError, match="larger than --max-bytes"):
        command._read(_Trickle(text), "-", len(text) - 1)  # type: ignore[arg-type]


def test_a_fifo_is_read_whole_and_a_directory_is_named_as_such(tmp_path: Path) -> None:
    fifo = tmp_path / "messages.jsonl"
    os.mkfifo(fifo)
    lines = [json.dumps(m) + "\n" for m in RESPONSE["messages"]]

    def write() -> None:
        with open(fifo, "w") as out:
            for line in lines:
                out.write(line)
                out.flush()
                time.sleep(0.05)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    done = _run("--from", "letta", str(fifo))
    if writer.is_alive():  # the command never opened the FIFO: open it here, so that the writer ends
        with open(fifo, "rb") as unblock:
            unblock.read()
    writer.join()
    assert done.returncode == 0, done.stderr
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "messages.jsonl").write_text("".join(lines))
    plain = _run("--from", "letta", str(tmp_path / "plain" / "messages.jsonl"))
    assert _runs(done.stdout) == _runs(plain.stdout) and len(_runs(done.stdout)) == 1  # every line, as from a file
    folder = _run("--from", "letta", str(tmp_path))
    assert (folder.returncode, folder.stderr.decode()) == (2, f"chatschema convert: {tmp_path}: is a directory\n")


def test_an_output_that_is_also_an_input_is_refused_before_it_is_emptied(inputs: Path) -> None:
    before = (inputs / "response.json").read_bytes()
    done = _run("--from", "letta", "response.json", "-o", "./response.json", cwd=inputs)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == "chatschema convert: --output ./response.json is also an input\n"
    assert (inputs / "response.json").read_bytes() == before


def test_a_letta_response_with_no_message_is_an_empty_input(tmp_path: Path) -> None:
    (tmp_path / "empty.json").write_text(json.dumps({**RESPONSE, "messages": []}))
    done = _run("--from", "letta", "empty.json", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode().startswith("chatschema convert: empty.json: empty input: no messages\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full (a device that is always full)")
@pytest.mark.parametrize("command_line", [["convert", "--from", "letta", "response.json"], ["schemas"], ["samples"]])
def test_output_that_cannot_be_written_is_one_line_and_exit_2(inputs: Path, command_line: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "chatschema", *command_line],
            stdout=full,
            stderr=subprocess.PIPE,
            cwd=inputs,
            timeout=120,
        )
    assert done.returncode == 2
    full_disk = os.strerror(errno.ENOSPC)
    assert done.stderr.decode() == f"chatschema {command_line[0]}: cannot write standard output: {full_disk}\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full (a device that is always full)")
def test_an_output_file_that_cannot_be_written_is_named(inputs: Path) -> None:
    done = _run("--from", "letta", "response.json", "-o", "/dev/full", cwd=inputs)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == f"chatschema convert: cannot write /dev/full: {os.strerror(errno.ENOSPC)}\n"


@pytest.mark.parametrize("levels", [1000, 1015, 1016])
def test_a_message_as_deep_as_the_readers_take_is_converted_unless_its_run_is_deeper(inputs: Path, levels: int) -> None:
    # Past the 254 levels pydantic-core serializes and the standard library's default recursion
    # limit. A message is read to 1024 levels; the run nests the arguments 4 levels deeper than the
    # message does, so 1015 levels in them make a run of exactly 1024, and 1016 one that no reader takes.
    deep = '{"a":' * levels + "{}" + "}" * levels
    call = f'{{"block_type":"tool_call","id":"t1","name":"f","arguments":{{"x":{deep}}}}}'
    (inputs / "deep.jsonl").write_text(f'{{"role":"assistant","blocks":[{call}],"extras":{{}}}}\n')
    done = _run("--from", "bridgic", "-o", "run.jsonl", "deep.jsonl", cwd=inputs)
    if levels > 1015:
        assert done.returncode == 1 and done.stderr.decode().splitlines()[0] == (
            "chatschema convert: deep.jsonl: $: the Docent run is invalid: nesting too deep: more than 1024 levels"
        )
        assert (inputs / "run.jsonl").read_text() == ""
        return
    assert done.returncode == 0 and re.fullmatch(SUMMARY % (1, 1, 0, 1, 0), done.stderr.decode()), done.stderr
    assert f'"arguments":{{"x":{deep}}}' in (inputs / "run.jsonl").read_text()
    checked = subprocess.run(
        [sys.executable, "-m", "chatschema", "validate", "--schema", "docent/AgentRun", "run.jsonl"],
        capture_output=True,
        cwd=inputs,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="file names of bytes that are not UTF-8")
def test_a_name_that_is_not_utf8_or_holds_control_characters_is_escaped(inputs: Path) -> None:
    name = os.fsdecode(b"we\nird\xff\x1b[31m.json")
    os.rename(inputs / "response.json", inputs / name)
    done = _run("--from", "letta", "-q", name, cwd=inputs)
    assert done.returncode == 0, done.stderr
    assert _runs(done.stdout)[0]["name"] == "we\nird\\xff\x1b[31m"  # JSON text: the byte as an escape
    missing = _run("--from", "letta", name + ".gone", cwd=inputs)
    assert (missing.returncode, missing.stderr.decode()) == (
        2,
        "chatschema convert: we\\nird\\xff\\x1b[31m.json.gone: no such file\n",
    )
    written = _run("--from", "letta", "-q", name, "-o", "runs.jsonl", cwd=inputs)
    assert written.returncode == 0 and _runs((inputs / "runs.jsonl").read_bytes())


def test_a_path_that_cannot_be_looked_up_says_why(inputs: Path) -> None:
    (inputs / "loop1").symlink_to("loop2")
    (inputs / "loop2").symlink_to("loop1")
    done = _run("--from", "letta", "loop1", cwd=inputs)
    assert done.returncode == 2
    assert done.stderr.decode() == f"chatschema convert: loop1: cannot read: {os.strerror(errno.ELOOP)}\n"


@pytest.mark.parametrize("source", ["letta", "bridgic"])
@pytest.mark.parametrize("given", [("-", b""), ("-", b"\n \n"), ("blank", b"\n\n")])
def test_an_input_without_text_is_an_empty_input_whatever_its_form(tmp_path: Path, source: str, given: Any) -> None:
    path, data = given
    if path != "-":
        (tmp_path / path).write_bytes(data)
    done = _run("--from", source, "-q", path, stdin=data, cwd=tmp_path)
    shown = "<stdin>" if path == "-" else path
    assert (done.returncode, done.stderr.decode()) == (1, f"chatschema convert: {shown}: empty input: no messages\n")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("stop.sse", 'data: {"message_type":"stop_reason","stop_reason":"end_turn"}\n\ndata: [DONE]\n\n'),
        ("stop.jsonl", '{"message_type":"stop_reason","stop_reason":"end_turn"}\n'),
    ],
)
def test_a_stream_of_no_message_is_an_empty_input(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    done = _run("--from", "letta", "-q", name, cwd=tmp_path)
    assert done.stdout == b""
    assert (done.returncode, done.stderr.decode()) == (
        1,
        f"chatschema convert: {name}: empty input: the stream holds no message\n",
    )
