"""`chatschema validate`: readers, output, summary, exit codes, backends, --jobs, --schema auto."""

from __future__ import annotations

import errno
import io
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from chatschema import cli, jsontext, schemas
from chatschema.docent import parse_chat_message_json
from chatschema.jsontext import Malformed, loader, parse, stdlib_loads
from chatschema.validate import backends
from chatschema.validate.reader import CONTINUE, Broken, TooLarge, read_array, read_lines
from tests.dispatch import mutations
from tests.vectors import all_vectors

USER = '{"role":"user","content":"hi"}'
LETTA = '{"message_type":"assistant_message","id":"m1","date":"2024-01-01T00:00:00Z","content":"hello"}'


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(argv: list[str], stdin: bytes = b"", err: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), err if err is not None else io.StringIO()
    args = cli._parser().parse_args(["validate", *argv])
    code = cli.validate(args, io.BytesIO(stdin), out, err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, data: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


def test_jsonl_reports_each_bad_line_and_goes_on(tmp_path: Path) -> None:
    lines = [
        USER,
        '{"role":"bot","content":"x"}',
        "",
        '{"role":"assistant","content":[{"type":"image"}],"tool_calls":[{"id":"1","function":"f","arguments":"{}"}]}',
        "not json",
        '{"role":"tool","content":"x"}',
    ]
    path = write(tmp_path, "dump.jsonl", "\n".join(lines) + "\n")
    code, out, err = run(["--schema", "docent/ChatMessage", path])
    assert code == 1
    assert out.splitlines() == [
        f"{path}:2: $: unknown role 'bot', expected one of 'system', 'user', 'assistant', 'tool'",
        f"{path}:4: $.content[0]: unknown type 'image', expected one of 'text', 'reasoning'; "
        "$.tool_calls[0].arguments: '{}' is not of type 'object'",
        f"{path}:5: malformed: invalid literal, expected 'null': line 1 column 1 (char 0)",
    ]
    summary = err.strip()
    assert summary.startswith("chatschema validate: 5 read, 2 valid, 2 invalid, 1 malformed in ")
    assert summary.endswith(" msg/s)")


def test_all_valid_exits_0_and_json_format(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.jsonl", f"{USER}\n{USER}")  # no final newline
    assert run(["--schema", "docent/ChatMessage", path])[:2] == (0, "")
    bad = write(tmp_path, "bad.jsonl", '{"role":"user"}\n[1,\n')
    code, out, _ = run(["--schema", "docent/ChatMessage", "--format", "json", bad])
    assert code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0] == {
        "file": bad,
        "line": 1,
        "status": "invalid",
        "schema": "docent/ChatMessage",
        "errors": [
            {
                "path": "$",
                "message": "'content' is a required property",
                "keyword": "required",
                "instancePath": "/content",  # the missing key's own pointer
                "schemaPath": "#/$defs/UserMessage/required",
                "params": {"missingProperty": "content"},
            }
        ],
    }
    assert records[1]["line"] == 2 and records[1]["status"] == "malformed" and records[1]["reason"]


def test_a_path_that_cannot_be_looked_up_says_why_not_that_it_is_missing(tmp_path: Path) -> None:
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    code, _, err = run(["--schema", "docent/ChatMessage", str(tmp_path / "loop1")])
    assert (code, err) == (2, f"chatschema validate: cannot read {tmp_path / 'loop1'}: {os.strerror(errno.ELOOP)}\n")
    too_long = str(tmp_path / ("a" * 300))
    code, _, err = run(["--schema", "docent/ChatMessage", too_long])
    assert (code, err) == (2, f"chatschema validate: cannot read {too_long}: {os.strerror(errno.ENAMETOOLONG)}\n")


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="needs Linux's procfs")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_that_says_size_0_and_holds_text_is_read(jobs: str) -> None:
    # procfs and sysfs files are regular files of size 0 at open: read as they come, not as empty
    code, out, err = run(["--schema", "docent/ChatMessage", "--jobs", jobs, "/proc/version"])
    assert code == 1 and out.startswith("/proc/version:1: malformed: "), (out, err)
    assert "1 read, 0 valid, 0 invalid, 1 malformed" in err and "empty input" not in err


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.jsonl", USER)
    code, _, err = run(["--schema", "docent/ChatMesage", path])
    assert code == 2 and "did you mean docent/ChatMessage" in err
    code, _, err = run(["--schema", "docent/ChatMessage", str(tmp_path / "missing.jsonl")])
    assert code == 2 and "no such file" in err
    assert run(["--schema", "docent/ChatMessage", "--family", "docent", path])[0] == 2
    assert run(["--schema", "auto", "--family", "nope", path])[0] == 2
    code, out, _ = run(["--schema", "auto", "--family", "swarm", path])  # swarm's type has no tag: judged as swarm
    assert code == 1 and out.endswith("'mode' is a required property [swarm/ISwarmMessage]\n"), out
    assert run(["--schema", "docent/ChatMessage", "--max-depth", "1025", path])[0] == 2
    with pytest.raises(SystemExit) as exc:
        run(["--schema", "docent/ChatMessage", "--backend", "nope", path])
    assert exc.value.code == 2


def test_stdin(tmp_path: Path) -> None:
    code, out, err = run(["--schema", "docent/ChatMessage", "-"], stdin=f'{USER}\n{{"role":1}}\n'.encode())
    assert code == 1 and out.startswith("<stdin>:2: $: ") and "2 read, 1 valid, 1 invalid" in err


def test_json_document_and_each(tmp_path: Path) -> None:
    doc = write(tmp_path, "one.json", json.dumps({"role": "user", "content": "x"}, indent=2))
    assert run(["--schema", "docent/ChatMessage", doc])[0] == 0
    array = write(
        tmp_path, "many.json", f'[{USER},\n {{"role":"x"}}, {USER}, nope, {{"role":"user","content":"]\\"[,"}}]'
    )
    code, out, err = run(["--schema", "docent/ChatMessage", "--each", array])
    assert code == 1
    assert [line.split(": ")[0] for line in out.splitlines()] == [f"{array}[1]", f"{array}[3]"]
    assert "5 read, 3 valid, 1 invalid, 1 malformed" in err
    empty = write(tmp_path, "empty.json", " \n")
    code, out, _ = run(["--schema", "docent/ChatMessage", empty])
    assert code == 1 and out == f"{empty}:1: malformed: empty document\n"
    # without --each, the array is one message, and not a valid one
    code, out, _ = run(["--schema", "docent/ChatMessage", array])
    assert code == 1 and out.startswith(f"{array}:1: malformed: ")


def _split(data: bytes, block: int) -> list[Any]:
    out: list[Any] = []
    for chunk in read_array(io.BytesIO(data), "x", 1000, batch=3, block=block):
        assert chunk.indexed and chunk.first == len(out)
        out.extend(chunk.messages())
    return out


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64, 1 << 20])
def test_array_splitter_at_every_block_boundary(block: int) -> None:
    elements = [
        {"a": 'x,]}{[\\"', "b": [1, [2, {"c": None}]]},
        'str\\ing with " and ,',
        [],
        {},
        12.5,
        {"deep": [[[[["]"]]]]]},
        "\u00e9\U0001f600",
    ]
    data = b"\xef\xbb\xbf \n[ " + b" ,\n ".join(json.dumps(e).encode() for e in elements) + b" ]\n "
    assert [json.loads(item) for item in _split(data, block)] == elements


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"[]", []),
        (b"  [ ]  ", []),
        (b"[1,]", [b"1", "trailing comma before the array's closing ']'"]),
        (b"[1,,2]", [b"1", "empty array element", b"2"]),
        (b"[1, 2", [b"1", "array cut off: the input ends before its closing ']'"]),
        (b'{"a": 1}', ["not a JSON array (--each reads a top-level array of messages)"]),
        (b"", []),  # no message: the command says so, as for an empty JSONL file
        (b" \n\t", []),
        (b"\x0c", ["not a JSON array (--each reads a top-level array of messages)"]),
        (b"[1] x", [b"1", "unexpected data after the array's closing ']'"]),
    ],
)
def test_array_splitter_reports_broken_arrays(data: bytes, expected: list[Any]) -> None:
    got = [i.message if isinstance(i, Broken) else i.strip() for i in _split(data, 3)]
    assert got == expected


def test_array_element_too_large() -> None:
    data = b'[{"a": "' + b"x" * 5000 + b'"}, 1]'
    items = _split(data, 100)
    assert isinstance(items[0], TooLarge) and items[1].strip() == b"1"


def _lines(data: bytes, block: int, max_bytes: int = 50) -> list[tuple[int, Any]]:
    out: list[tuple[int, Any]] = []
    for chunk in read_lines(io.BytesIO(data), "x", max_bytes, block=block):
        assert chunk.first == (1 if not out else CONTINUE)
        base = len(out) + 1
        out.extend((base + i, item) for i, item in enumerate(chunk.messages()))
    return out


@pytest.mark.parametrize("block", [1, 2, 5, 16, 1 << 20])
def test_line_reader_numbers_lines_and_skips_too_large_ones(block: int) -> None:
    data = b"\xef\xbb\xbfa\nbb\r\n\n" + b"x" * 120 + b"\ncc\n" + b"y" * 70
    got = _lines(data, block)
    assert [(n, i) for n, i in got if isinstance(i, bytes)] == [(1, b"a"), (2, b"bb\r"), (3, b""), (5, b"cc")]
    large = [(n, i.size >= 51) for n, i in got if isinstance(i, TooLarge)]
    assert large == [(4, True), (6, True)]


def test_too_large_and_too_deep_lines_are_malformed(tmp_path: Path) -> None:
    deep = '{"role":"user","content":"x","extra":' + "[" * 40 + "]" * 40 + "}"
    path = write(tmp_path, "d.jsonl", f"{deep}\n{USER}\n" + '{"role":"user","content":"' + "x" * 300 + '"}\n')
    code, out, err = run(["--schema", "docent/ChatMessage", "--max-depth", "20", "--max-bytes", "200", path])
    assert code == 1
    assert out.splitlines()[0] == f"{path}:1: malformed: nesting too deep: more than 20 levels (--max-depth)"
    assert out.splitlines()[1].startswith(f"{path}:3: malformed: message too large: ")
    assert "3 read, 1 valid, 0 invalid, 2 malformed" in err
    assert run(["--schema", "docent/ChatMessage", path])[0] == 0  # within the default limits


EDGE_CASES: list[tuple[bytes, bool | None]] = [  # line, verdict under docent/ChatMessage (None: malformed)
    (b'{"role":"user","content":"x"}', True),
    (b'{"role":"bot","content":"x","role":"user"}', True),  # duplicate keys: the last wins
    (b'{"role":"user","content":"x","role":"bot"}', False),
    (b'{"role":"user","content":"x","metadata":{"n":NaN}}', None),
    (b'{"role":"user","content":"x","metadata":{"n":Infinity}}', None),
    (b'{"role":"user","content":"x","metadata":{"n":-Infinity}}', None),
    (b'{"role":"user","content":"x","metadata":{"n":1e400}}', None),
    (b'{"role":"user","content":"x","metadata":{"n":123456789012345678901234567890}}', True),
    (b'{"role":"user","content":"\\ud800"}', None),
    (b'{"role":"user","content":"\\udc00\\ud800"}', None),
    (b'{"role":"user","content":"\\ud83d\\ude00"}', True),
    (b'{"role":"user","content":"\\\\ud800"}', True),  # an escaped backslash, not a surrogate
    (b'{"role":"user","content":"\xff"}', None),
    (b'{"role":"user","content":"\xed\xa0\x80"}', None),  # a surrogate encoded in UTF-8
    (b'\xef\xbb\xbf{"role":"user","content":"x"}', None),
    (b'{"role":"user","content":"x"} {}', None),
    (b'{"role":"user","content":"x","metadata":{"a":' + b"[" * 1022 + b"]" * 1022 + b"}}", True),  # depth 1024
    (b'{"role":"user","content":"x","metadata":{"a":' + b"[" * 1023 + b"]" * 1023 + b"}}", None),  # 1025
    (b'{"role":"user","content":"x","metadata":' + b"[" * 5000 + b"]" * 5000 + b"}", None),
]


@pytest.mark.parametrize("loads", [loader(), stdlib_loads], ids=["orjson", "stdlib"])
def test_edge_inputs_get_one_behaviour_whichever_parser(loads: Callable[[bytes], Any]) -> None:
    for line, expected in EDGE_CASES:
        try:
            value = parse(line, loads)
        except Malformed:
            assert expected is None, line[:80]
            continue
        assert expected is not None, line[:80]
        assert schemas.validator("docent/ChatMessage").is_valid(value) is expected, line[:80]


@pytest.mark.parametrize("parser", ["orjson", "stdlib"])
def test_edge_inputs_through_parse_json(monkeypatch: pytest.MonkeyPatch, parser: str) -> None:
    # parse_*_json reads with Pydantic's parser and falls back to the project's where they differ
    if parser == "stdlib":
        monkeypatch.setattr(jsontext, "_orjson_loads", lambda: None)
    for line, expected in EDGE_CASES:
        inputs: list[str | bytes] = [line]
        try:
            inputs.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            pass
        for data in inputs:
            try:
                parse_chat_message_json(data)
                got: bool | None = True
            except ValidationError as exc:
                got = None if exc.errors()[0]["type"] == "json_invalid" else False
            assert got is expected, (type(data).__name__, line[:80])


def test_orjson_is_the_default_parser() -> None:
    import orjson

    assert loader() is orjson.loads


@pytest.mark.parametrize("backend", ["jsonschema", "fast"])
def test_edge_inputs_through_the_command(tmp_path: Path, backend: str) -> None:
    path = write(tmp_path, "edge.jsonl", b"\n".join(line for line, _ in EDGE_CASES) + b"\n")
    _, out, err = run(["--schema", "docent/ChatMessage", "--backend", backend, path])
    bad = {int(line.split(":")[1]) for line in out.splitlines()}
    assert bad == {n for n, (_, expected) in enumerate(EDGE_CASES, 1) if expected is not True}
    malformed = sum(1 for _, expected in EDGE_CASES if expected is None)
    assert f"{len(EDGE_CASES)} read" in err and f"{malformed} malformed" in err


def test_fast_backend_gives_the_reference_verdict_on_every_vector() -> None:
    wrong = []
    for v in all_vectors():
        payload = v.load()
        fast = backends.fast_is_valid(v.schema_name)(payload)
        if fast != v.valid or fast != schemas.validator(v.schema_name).is_valid(payload):
            wrong.append(v.id)
    assert wrong == []


@pytest.mark.parametrize("family", ["docent", "letta", "bridgic", "swarm"])
def test_fast_backend_gives_the_reference_verdict_on_mutated_vectors(family: str) -> None:
    wrong = []
    for v in all_vectors():
        if v.family != family or not v.valid:
            continue
        for payload in mutations(v.load(), limit=25, seed=1):
            if backends.fast_is_valid(v.schema_name)(payload) != schemas.validator(v.schema_name).is_valid(payload):
                wrong.append(f"{v.id}: {payload!r:.200}")
    assert wrong == []


DATES = [
    "2024-01-01T00:00:00Z",
    "2024-01-01t00:00:00z",  # either case
    "2024-01-01T23:59:60Z",  # a leap second: jsonschema-rs's own check would accept it
    "0000-01-01T00:00:00Z",  # year 0: jsonschema-rs's own check would accept it
    "2024-01-01T00:00:00Z\n",  # a final newline: rejected (rfc3339-validator's `$` accepted it)
    "2024-02-30T00:00:00Z",
    "2024-01-01 00:00:00Z",
    "2024-01-01T00:00:00",
    "2024-01-01T00:00:00.123456789+05:30",
    "2024-01-01T00:00:00+24:00",
]


@pytest.mark.parametrize("date", DATES)
def test_fast_backend_checks_date_time_as_the_reference_does(date: str) -> None:
    message = json.loads(LETTA) | {"date": date}
    assert backends.fast_is_valid("letta/LettaMessage")(message) == schemas.validator("letta/LettaMessage").is_valid(
        message
    )


def test_fast_backend_falls_back_when_not_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "fast_available", lambda: False)
    path = write(tmp_path, "ok.jsonl", USER)
    code, _, err = run(["--schema", "docent/ChatMessage", "--backend", "fast", path])
    assert code == 0
    assert err.splitlines()[0] == (
        "chatschema validate: the fast backend needs the 'fast' extra (pip install '.[fast]' in a chatschema checkout); "
        "using --backend jsonschema"
    )


def _big_corpus(tmp_path: Path) -> str:
    lines = []
    for i in range(6000):
        text = "w" * (i % 400)
        if i % 97 == 0:
            lines.append(f'{{"role":"user","content":{i}}}')
        elif i % 131 == 0:
            lines.append('{"role":"user",')
        else:
            lines.append(json.dumps({"role": "user", "content": f"{i} {text}"}))
    return write(tmp_path, "big.jsonl", "\n".join(lines) + "\n")


@pytest.mark.parametrize("backend", ["jsonschema", "fast"])
def test_jobs_give_the_same_output_in_input_order(tmp_path: Path, backend: str) -> None:
    path = _big_corpus(tmp_path)
    assert Path(path).stat().st_size > 1 << 20  # several chunks
    one = run(["--schema", "docent/ChatMessage", "--backend", backend, path])
    two = run(["--schema", "docent/ChatMessage", "--backend", backend, "--jobs", "2", path])
    assert one[0] == two[0] == 1
    assert one[1] == two[1]
    numbers = [int(line.split(":")[1]) for line in one[1].splitlines()]
    assert numbers == [i + 1 for i in range(6000) if i % 97 == 0 or i % 131 == 0]
    assert one[2].split(" in ")[0] == two[2].split(" in ")[0]


def test_auto_picks_the_union_by_tag(tmp_path: Path) -> None:
    # an unknown tag is explained as with an explicit schema, listing the values of every union with that tag
    unions = schemas.unions()
    values = {**unions["letta/LettaMessage"].branches, **unions["letta/LettaStreamingResponse"].branches}
    letta_types = ", ".join(map(repr, values))
    bridgic_block = '{"block_type":"text","text":"x"}'
    ping = '{"message_type":"ping","id":"p","date":"2024-01-01T00:00:00Z"}'  # only in LettaStreamingResponse
    lines = [USER, LETTA, ping, '{"role":"user"}', '{"message_type":"nope"}', "{}"]
    path = write(tmp_path, "mixed.jsonl", "\n".join([*lines, bridgic_block]) + "\n")
    code, out, _ = run(["--schema", "auto", path])
    assert code == 1
    assert out.splitlines() == [
        f"{path}:4: $: 'content' is a required property [docent/ChatMessage]",
        f"{path}:5: $: unknown message_type 'nope', expected one of {letta_types} [letta/LettaStreamingResponse]",
        f"{path}:6: $: missing discriminator: no 'block_type' or 'role' or 'message_type' or 'type' to pick a schema by [auto]",
    ]
    code, out, _ = run(["--schema", "auto", "--family", "letta", path])
    assert [line.split(": ")[0] for line in out.splitlines()] == [f"{path}:{n}" for n in (1, 4, 5, 6, 7)]
    # LettaMessage is wrapped by Letta Code's transcript records; LettaStreamingResponse, also wrapped,
    # is a sample file's type and has every value LettaMessage has
    assert [u.name for u in backends.message_unions()] == [
        "bridgic/ContentBlock",
        "docent/ChatMessage",
        "docent/DocentChatMessage",
        "letta/LettaStreamingResponse",
        "letta/SDKMessage",
        "letta/WireMessage",
    ]


def test_auto_accepts_a_message_valid_under_any_union_its_tag_names(tmp_path: Path) -> None:
    # ChatMessage keeps `citations` as an unknown key; DocentChatMessage types them: valid under one is enough
    message = '{"role":"assistant","content":"x","citations":[{"bad":1}]}'
    path = write(tmp_path, "c.jsonl", message + "\n")
    assert run(["--schema", "auto", path])[0] == 0
    assert run(["--schema", "docent/DocentChatMessage", path])[0] == 1


def test_progress_bar_only_on_a_terminal(tmp_path: Path) -> None:
    path = _big_corpus(tmp_path)
    tty = Tty()
    run(["--schema", "docent/ChatMessage", "--backend", "fast", path], err=tty)
    assert "\r" in tty.getvalue() and "msg/s" in tty.getvalue()
    assert "\r" not in run(["--schema", "docent/ChatMessage", "--backend", "fast", path])[2]
    quiet = Tty()
    run(["--schema", "docent/ChatMessage", "--no-progress", "--quiet", path], err=quiet)
    assert quiet.getvalue() == ""


def test_console_script_and_python_m(tmp_path: Path) -> None:
    path = write(tmp_path, "x.jsonl", f'{USER}\n{{"role":"bot"}}\n')
    script = shutil.which("chatschema", path=str(Path(sys.executable).parent))
    assert script is not None
    for cmd in ([script], [sys.executable, "-m", "chatschema"]):
        proc = subprocess.run(
            [*cmd, "validate", "--schema", "docent/ChatMessage", path], capture_output=True, text=True, check=False
        )
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout.startswith(f"{path}:2: $: unknown role 'bot'")
        assert "2 read, 1 valid, 1 invalid, 0 malformed" in proc.stderr
    proc = subprocess.run([*cmd, "schemas"], capture_output=True, text=True, check=False)
    assert proc.stdout.splitlines() == schemas.names()


def _date_cases() -> list[str]:
    years = ["0000", "0001", "0004", "0100", "0400", "1900", "2000", "2023", "2024", "2100", "9999", "0096"]
    years += ["96", "204", "1", "12345"]  # too few or too many digits
    rests = ["T00:00:00Z", "t23:59:59.5z", "T23:59:60Z", "T24:00:00+01:00", "T12:00:00-23:59", "T12:00:00+24:00"]
    rests += [
        "T12:00:00Z\n",
        "T12:00:00Z\n\n",
        "T12:00:00",
        " 12:00:00Z",
        "T12:00:00.Z",
        "T1:00:00Z",
        "T12:00:00+05:60",
    ]
    cases = [f"{y}-{m:02d}-{d:02d}{r}" for y in years for m in range(14) for d in range(33) for r in rests]
    rng = random.Random(5)
    alphabet = "0123456789-:TtZz.+ \n\u0663"  # and an Arabic-Indic digit
    for _ in range(10_000):
        chars = list("2024-02-29T12:34:56.789+05:30")
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            op = rng.randrange(3)
            if op == 0:
                chars[i] = rng.choice(alphabet)
            elif op == 1:
                chars.insert(i, rng.choice(alphabet))
            else:
                del chars[i]
        cases.append("".join(chars))
    return cases


def test_fast_backend_date_time_pattern_is_the_projects_date_time_rule() -> None:
    import jsonschema_rs

    pattern = jsonschema_rs.Draft202012Validator({"type": "string", "pattern": backends.DATE_TIME_PATTERN})
    checker = schemas.FORMAT_CHECKER
    cases = _date_cases()
    assert len(cases) > 50_000
    differ = [c for c in cases if pattern.is_valid(c) != checker.conforms(c, "date-time")]
    assert differ == []
    assert sum(checker.conforms(c, "date-time") for c in cases) > 1000


def _random_string(rng: random.Random) -> str:
    return "".join(rng.choice('ab"\\/[]{},: \u00e9\U0001f600\n\t') for _ in range(rng.randrange(12)))


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 4 else 3)
    if kind == 0:
        return _random_string(rng)
    if kind == 1:
        return rng.choice([0, -1.5, 1e10, True, False, None])
    if kind == 2:
        return {}
    if kind == 3:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {_random_string(rng): _random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def test_array_splitter_on_random_arrays_and_block_sizes() -> None:
    rng = random.Random(11)
    for _ in range(300):
        elements = [_random_value(rng) for _ in range(rng.randrange(6))]
        separators = [rng.choice([",", " ,", ",\n  ", "\n,"]) for _ in elements]
        body = "".join(
            (sep if i else "") + json.dumps(e, ensure_ascii=rng.random() < 0.5)
            for i, (e, sep) in enumerate(zip(elements, separators, strict=True))
        )
        data = f" [{body}]\n".encode()
        got = _split(data, rng.choice([1, 2, 3, 5, 8, 13, 64]))
        assert [json.loads(item) for item in got] == elements, data


def test_fast_backend_says_nothing_of_its_extra_when_installed(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.jsonl", USER)
    code, _, err = run(["--schema", "docent/ChatMessage", "--backend", "fast", "-q", path])
    assert (code, err) == (0, "")


@pytest.mark.parametrize("dashes", [1, 2])
def test_stdin_is_read_once(dashes: int) -> None:
    code, _, err = run(["--schema", "docent/ChatMessage", *["-"] * dashes], stdin=USER.encode() + b"\n")
    if dashes == 1:
        assert code == 0
    else:
        assert code == 2 and "'-' (stdin) can be read only once" in err


def test_a_message_whose_last_block_is_only_spaces_is_a_message_read() -> None:
    # Read in blocks of 1 MiB: the block after the message's text holds only the spaces after it.
    line = USER.encode() + b" " * (1 << 20) + b"\n"
    code, _, err = run(["--schema", "docent/ChatMessage", "--max-bytes", str(2 << 20), "-"], stdin=line)
    assert code == 0 and "no message read" not in err and err.startswith("chatschema validate: 1 read, 1 valid"), err


@pytest.mark.parametrize(("data", "read"), [(USER.encode(), 1), (b" \t", 0)])
def test_a_last_line_without_its_newline_is_read_or_blank(data: bytes, read: int) -> None:
    code, _, err = run(["--schema", "docent/ChatMessage", "-"], stdin=data)
    assert code == 0 and ("empty input, no message read" in err) == (read == 0), err
    assert f"chatschema validate: {read} read, {read} valid" in err


def test_progress_has_a_bar_for_files_and_none_for_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar's total is the size of the files given; stdin has none, even beside a file named `-`."""
    lines = (USER + "\n") * 2
    _, _, err = run(["--schema", "docent/ChatMessage", "--progress", write(tmp_path, "a.jsonl", lines)])
    assert err.startswith("\r[####################] 100% 2 read, 0 invalid, 0 malformed, "), err
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_bytes(b"x" * 1000)
    _, _, err = run(["--schema", "docent/ChatMessage", "--progress", "-"], stdin=lines.encode())
    assert err.startswith("\r2 read, 0 invalid, 0 malformed, "), err
