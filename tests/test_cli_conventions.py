"""The command's conventions: --version, exit codes in --help, `schemas --family/--format json`,
the shipped samples (`chatschema samples [--validate]`), and deprecation warnings that name the
field and its replacement."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

from chatschema import schemas
from chatschema._base import deprecation_message
from chatschema.letta import ToolCallMessage, ToolReturnMessage, parse_letta_message
from chatschema.samples import SAMPLES, samples

ROOT = Path(__file__).parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def chatschema(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chatschema", *args], capture_output=True, text=True, check=False, cwd=ROOT
    )


def test_version_is_pyprojects() -> None:
    proc = chatschema("--version")
    assert (proc.returncode, proc.stdout) == (0, f"chatschema {VERSION}\n")


def test_help_lists_exit_codes() -> None:
    for args in (["--help"], ["schemas", "--help"], ["samples", "--help"], ["validate", "--help"]):
        proc = chatschema(*args)
        assert proc.returncode == 0
        text = " ".join(proc.stdout.split())
        assert "exit status" in text and "0 " in text and "1 " in text and "2 usage error" in text, args


def test_schemas_family_filter_and_json() -> None:
    proc = chatschema("schemas", "--family", "swarm", "--family", "bridgic")
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == [n for n in schemas.names() if n.split("/")[0] in ("swarm", "bridgic")]
    text = chatschema("schemas", "--format", "json", "--family", "docent").stdout
    records = json.loads(text)
    assert text == json.dumps(records, indent=2) + "\n"  # indented for reading, one final newline
    assert [r["name"] for r in records] == [n for n in schemas.names() if n.startswith("docent/")]
    chat = next(r for r in records if r["name"] == "docent/ChatMessage")
    assert chat == {
        "name": "docent/ChatMessage",
        "family": "docent",
        "type": "ChatMessage",
        "$id": schemas.schema_id("docent/ChatMessage"),
        "tagged_union": True,
    }
    assert chatschema("schemas").stdout.splitlines() == schemas.names()


def test_unknown_family_is_a_usage_error() -> None:
    for command in ("schemas", "samples"):
        proc = chatschema(command, "--family", "dcent")
        assert proc.returncode == 2
        assert proc.stderr == f"chatschema {command}: unknown family dcent; known: bridgic, docent, letta, swarm\n"


def test_samples_cover_every_family() -> None:
    found = samples()
    assert {schema.split("/")[0] for schema, _ in found} == set(schemas.families())
    assert [path.name for _, path in found] == list(SAMPLES)
    proc = chatschema("samples")
    assert (proc.returncode, proc.stderr) == (0, "")
    listing = proc.stdout.splitlines()
    assert [line.split()[0] for line in listing] == [schema for schema, _ in found]
    assert [line.split()[1] for line in listing] == [str(path) for _, path in found]


def test_samples_validate_shows_exactly_the_bad_line_of_each() -> None:
    proc = chatschema("samples", "--validate")
    assert proc.returncode == 1
    files = {path.name: str(path) for _, path in samples()}
    assert proc.stdout.splitlines() == [
        f"{files['bridgic_conversation.jsonl']}:5: $.blocks[0]: 'id' is a required property; "
        """$.blocks[0].arguments: '{"topic": "weather"}' is not of type 'object'""",
        f"{files['docent_transcript.jsonl']}:5: $: unknown role 'bot', expected one of 'system', 'user', 'assistant', 'tool'",
        f"{files['letta_code_session.jsonl']}:4: $.tool_call.arguments: expected a JSON-encoded string, got an object: "
        "{'command': 'pytest -q tests/test_ranges.py'} (closest of ToolCall, ToolCallDelta: ToolCall)",
        f"{files['letta_stream.jsonl']}:4: $.status: 'done' is not one of ['success', 'error']",
        f"{files['swarm_history.jsonl']}:4: $.mode: 'agent' is not one of ['tool', 'user']",
    ]
    summaries = proc.stderr.splitlines()
    assert len(summaries) == len(files) and all("1 invalid, 0 malformed" in s for s in summaries)
    one = chatschema("samples", "--validate", "--family", "letta")
    assert one.returncode == 1 and len(one.stdout.splitlines()) == 2  # Letta Code's session and Letta's stream


def test_every_other_sample_line_is_valid() -> None:
    for schema, path in samples():
        lines = path.read_text(encoding="utf-8").splitlines()
        good = [line for line in lines if not schemas.violations(json.loads(line), schema)]
        assert len(good) == len(lines) - 1, path.name


TOOL_CALL = {
    "message_type": "tool_call_message",
    "id": "m",
    "date": "2025-10-01T12:30:45+00:00",
    "tool_call": {"name": "f", "arguments": "{}", "tool_call_id": "c"},
}


def test_deprecation_warning_names_field_and_replacement() -> None:
    message = parse_letta_message(TOOL_CALL)
    assert isinstance(message, ToolCallMessage)
    with pytest.warns(DeprecationWarning) as caught:
        assert message.tool_call.name == "f"
    assert [str(w.message) for w in caught] == ["ToolCallMessage.tool_call is deprecated; use `tool_calls` instead"]
    assert ToolReturnMessage.model_fields["status"].deprecated == (
        "ToolReturnMessage.status is deprecated; use `tool_returns` instead"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert message.model_dump(mode="json")["tool_call"]["name"] == "f"  # dumping does not warn


def test_deprecation_message_without_a_replacement_quotes_the_description() -> None:
    assert deprecation_message("M", "old", "Old: use `a` or `b`.") == "M.old is deprecated; use `a` or `b` instead"
    assert deprecation_message("M", "old", "Kept for old clients.") == "M.old is deprecated: Kept for old clients."
    assert deprecation_message("M", "old", None) == "M.old is deprecated"


def test_auto_finds_each_sample_s_deliberate_bad_line_under_its_family_s_type() -> None:
    for schema, path in samples():
        named = chatschema("validate", "--schema", schema, str(path))
        auto = chatschema("validate", "--schema", "auto", str(path))
        alone = chatschema("validate", "--schema", "auto", "--family", schema.split("/")[0], str(path))
        assert named.returncode == auto.returncode == alone.returncode == 1, (path, auto.stderr)
        assert len(auto.stdout.splitlines()) == 1 and auto.stdout == alone.stdout
        where, reason = auto.stdout.rsplit(" [", 1)
        assert named.stdout.strip() == where  # the same line, the same reasons
        assert reason.split("/")[0] == schema.split("/")[0], auto.stdout  # a type of the sample's family


def test_bare_chatschema_prints_its_help() -> None:
    proc = chatschema()
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: chatschema") and "validate" in proc.stdout


@pytest.mark.parametrize(
    ("arguments", "closed", "status", "says"),
    [
        (["validate", "-s", "swarm/ISwarmMessage", "VALID"], ">&-", 2, "chatschema: standard output is closed\n"),
        (["schemas"], ">&-", 2, "chatschema: standard output is closed\n"),
        (["validate", "-s", "swarm/ISwarmMessage", "VALID"], "2>&-", 0, ""),
        (["validate", "-s", "swarm/ISwarmMessage", "--quiet", "VALID"], "2>&-", 0, ""),
        (["validate", "-s", "swarm/Nope", "VALID"], "2>&-", 2, ""),
    ],
)
def test_a_closed_standard_output_or_error_gives_a_line_and_the_command_s_status(
    arguments: list[str], closed: str, status: int, says: str
) -> None:
    """Started with stdout closed, a command says so in one line (no traceback) and exits 2; with
    stderr closed, it runs and exits as it would have (a traceback's 1 used to stand in for 0 or 2)."""
    valid = ROOT / "schemas" / "swarm" / "examples" / "ISwarmMessage" / "valid" / "a4_tool_output.json"
    words = " ".join(str(valid) if a == "VALID" else a for a in arguments)
    proc = subprocess.run(
        ["sh", "-c", f'"$0" -m chatschema {words} {closed}', sys.executable],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (proc.returncode, proc.stderr if closed == ">&-" else "") == (status, says)


def test_a_reader_that_stops_reading_ends_the_command_quietly_with_141(tmp_path: Path) -> None:
    """`chatschema validate ... | head`: no traceback, and not 1, which says a message was invalid."""
    lines = tmp_path / "bad.jsonl"
    lines.write_text('{"role": "bot", "content": "x"}\n' * 20_000)  # far more output than a pipe holds
    command = [sys.executable, "-m", "chatschema", "validate", "-s", "docent/ChatMessage", str(lines)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(str(lines).encode())
    proc.stdout.close()
    errors = proc.stderr.read()
    assert (proc.wait(timeout=120), errors) == (141, b"")


def test_a_directory_is_refused_with_a_glob_that_works(tmp_path: Path) -> None:
    proc = chatschema("validate", "--schema", "auto", f"{tmp_path}/")
    assert proc.returncode == 2
    assert f"is a directory (give the files: e.g. {tmp_path}/*.jsonl)" in proc.stderr


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (
            ["validate", "--jobs", "abc", "-s", "auto", "x"],
            "chatschema validate: argument --jobs/-j: invalid int value: 'abc'",
        ),
        (["validate", "x"], "chatschema validate: the following arguments are required: --schema/-s"),
        (["convert", "x"], "chatschema convert: the following arguments are required: --from"),
        (["schemas", "--format", "yaml"], "chatschema schemas: argument --format: invalid choice: 'yaml'"),
        (["nope"], "chatschema: argument command: invalid choice: 'nope'"),
        (["schemas", "--x\x1b[31m\ny"], "chatschema: unrecognized arguments: --x\\x1b[31m\\ny"),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2(arguments: list[str], says: str) -> None:
    proc = chatschema(*arguments)
    command = says.split(":")[0]
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(says) and proc.stderr.endswith(f" (see {command} --help)\n"), proc.stderr
    assert proc.stderr.count("\n") == 1


def test_schema_is_required_and_the_limits_bounds_are_allowed(tmp_path: Path) -> None:
    path = tmp_path / "flat.jsonl"
    path.write_text('{"role":"user","content":"hi"}\n')
    missing = chatschema("validate", str(path))
    assert missing.returncode == 2 and "the following arguments are required: --schema/-s" in missing.stderr
    flat = chatschema("validate", "-s", "docent/ChatMessage", "--max-depth", "1", str(path))
    assert flat.returncode == 0 and "1 read, 1 valid" in flat.stderr, flat.stderr
    zero = chatschema("validate", "-s", "docent/ChatMessage", "--max-depth", "0", str(path))
    assert zero.returncode == 2 and "--max-depth must be between 1 and 1024" in zero.stderr
    one_byte = chatschema("validate", "-s", "docent/ChatMessage", "--max-bytes", "1", str(path))
    assert one_byte.returncode == 1 and "1 read, 0 valid, 0 invalid, 1 malformed" in one_byte.stderr  # too large
    most = chatschema("validate", "-s", "docent/ChatMessage", "--max-bytes", str(2**31 - 1), str(path))
    assert most.returncode == 0, most.stderr
    past = chatschema("validate", "-s", "docent/ChatMessage", "--max-bytes", str(2**31), str(path))
    assert past.returncode == 2 and "--max-bytes must be between 1 and 2,147,483,647" in past.stderr


def test_every_input_file_is_closed(tmp_path: Path) -> None:
    """Each file is closed once read (not left to the garbage collector: a ResourceWarning then)."""
    paths = [tmp_path / f"{i}.jsonl" for i in range(3)]
    for path in paths:
        path.write_text('{"role":"user","content":"hi"}\n')
    proc = subprocess.run(
        [sys.executable, "-W", "always::ResourceWarning", "-m", "chatschema", "validate", "-s", "docent/ChatMessage"]
        + [str(p) for p in paths],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert proc.returncode == 0 and "3 read, 3 valid" in proc.stderr and "ResourceWarning" not in proc.stderr, (
        proc.stderr
    )
