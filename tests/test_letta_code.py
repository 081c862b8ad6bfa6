"""Letta Code's records as part of the Letta family: what the vectors alone do not show."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from chatschema import letta, schemas
from chatschema.unknown import typeddict_adapter
from chatschema.validate.backends import Checker, message_unions
from tests.node import PACKAGE

ROOT = Path(__file__).parent.parent
SESSION = ROOT / "chatschema" / "samples" / "letta_code_session.jsonl"
FRAME = {"message_type": "assistant_message", "id": "message-1", "date": "2026-11-20T14:03:10+00:00", "content": "hi"}
RECORD = {"type": "message", **FRAME, "session_id": "s", "uuid": "u"}


def test_stop_reason_type_lists_what_letta_stop_reason_lists() -> None:
    """LettaStopReason keeps its values inline (its 2.x API); StopReasonType must not drift from them."""
    lookup = schemas.registry().resolver().lookup
    inline = lookup(schemas.schema_id("letta/LettaStopReason")).contents["properties"]["stop_reason"]["enum"]
    assert inline == lookup(schemas.schema_id("letta/StopReasonType")).contents["enum"]


def test_a_message_record_is_checked_as_the_frame_it_carries_and_its_envelope() -> None:
    """MessageWire is its envelope and a LettaStreamingResponse (a union in `allOf`): every reader
    checks both parts, the frame's own fields included."""
    adapter = typeddict_adapter("letta/WireMessage")
    no_uuid = {k: v for k, v in RECORD.items() if k != "uuid"}
    for bad in ({**RECORD, "content": 5}, {**RECORD, "message_type": "assistant"}, no_uuid):
        assert not schemas.is_valid(bad, "letta/WireMessage")
        with pytest.raises(ValidationError):
            letta.parse_wire_message(bad)
        with pytest.raises(ValidationError):
            adapter.validate_python(bad)
    assert adapter.validate_python(RECORD) == RECORD
    record = letta.parse_wire_message(RECORD)
    assert isinstance(record, letta.MessageWire)
    assert record.model_dump(mode="json") == RECORD
    frame = letta.parse_letta_streaming_response(record.model_dump(mode="json"))
    assert isinstance(frame, letta.AssistantMessage) and frame.content == "hi"


def test_the_typescript_type_is_the_intersection_with_named_fields() -> None:
    """No numbered helper interface: `LettaStreamingResponse & MessageWireFields`."""
    text = (PACKAGE / "types" / "letta.d.ts").read_text(encoding="utf-8")
    assert "export type MessageWire = LettaStreamingResponse & MessageWireFields;" in text
    assert "MessageWire1" not in text


def test_the_shipped_session_reads_record_by_record() -> None:
    lines = SESSION.read_text(encoding="utf-8").splitlines()
    kinds = []
    for number, line in enumerate(lines, 1):
        try:
            kinds.append(type(letta.parse_wire_message(json.loads(line))).__name__)
        except ValidationError:
            kinds.append(f"invalid at {number}")
    assert kinds == [
        "SystemInitMessage",
        "MessageWire",
        "AutoApprovalMessage",
        "invalid at 4",
        "ToolExecutionStartedMessage",
        "ToolExecutionFinishedMessage",
        "MessageWire",
        "MessageWire",
        "ResultMessage",
    ]


def test_auto_picks_letta_code_records_and_still_letta_frames() -> None:
    """Letta's frame union is wrapped by Letta Code's records, yet stays a message type of its own
    (by its sample file); a record is matched by its `type`."""
    names = {u.name for u in message_unions()}
    assert {"letta/LettaStreamingResponse", "letta/WireMessage", "letta/SDKMessage"} <= names
    assert "letta/ControlRequestBody" not in names  # nested in ControlRequest
    checker = Checker("auto")
    assert checker.candidates({"type": "system"}) == ["letta/WireMessage"]
    assert checker.candidates({"type": "assistant"}) == ["letta/SDKMessage"]
    assert set(checker.candidates({"type": "result"})) == {"letta/WireMessage", "letta/SDKMessage"}
    assert checker.candidates(FRAME) == ["letta/LettaStreamingResponse"]
    assert set(checker.candidates(RECORD)) == {"letta/WireMessage", "letta/LettaStreamingResponse"}


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xff\xfe",
        b"[" * 5000 + b"]" * 5000,
        b'{"type": "message", "message_type": "__import__(\'os\').system(\'id\')", "session_id": "s", "uuid": "u"}',
        json.dumps({"type": "x" * 1_000_000, "session_id": "s", "uuid": "u"}).encode(),
        json.dumps({"type": "stream_event", "session_id": "s", "uuid": "u", "event": {"a": [[[[[]]]]] * 10}}).encode(),
    ],
    ids=["nothing", "not-utf8", "too-deep", "code-like-tag", "huge-tag", "event-not-a-frame"],
)
def test_hostile_records_are_refused_with_a_validation_error(data: bytes, tmp_path: Path) -> None:
    """A hostile line is a ValidationError in Python and one invalid or malformed line in the command,
    never a crash; the command does not echo a long tag whole."""
    with pytest.raises(ValidationError):
        letta.parse_wire_message_json(data)
    path = tmp_path / "session.jsonl"
    path.write_bytes(data + b"\n")
    proc = subprocess.run(
        [sys.executable, "-m", "chatschema", "validate", "--schema", "letta/WireMessage", str(path)],
        capture_output=True,
        check=False,
    )
    assert proc.returncode == (0 if data == b"" else 1), proc.stderr
    assert b"Traceback" not in proc.stderr and len(proc.stdout) < 2_000
