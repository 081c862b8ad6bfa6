"""Where a union tag starts being shortened in an error, and what bounding leaves as it was.

docs/python.md: "An unknown tag longer than 60 characters is quoted as its start and its length":
a 60-character tag is quoted whole, and the error is Pydantic's own, not a rebuilt copy; a
61-character one is shortened. Bounding rewrites the tag only: an error a subclass's own validator
raises (a custom error type) keeps its message and its context, and has none if it had none.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from chatschema._errors import bounded
from chatschema.docent import AgentRun
from chatschema.letta import LettaMessage, TranscriptBackfillMessage, parse_letta_message


def _error(call: Callable[[], Any]) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        call()
    return caught.value


def _tag_message(exc: ValidationError) -> str:
    (error,) = [e for e in exc.errors() if e["type"] == "union_tag_invalid"]
    message: str = error["msg"]
    return message


def test_a_tag_of_60_characters_is_quoted_whole_and_one_of_61_is_shortened() -> None:
    at_limit = _error(lambda: parse_letta_message({"message_type": "y" * 60}))
    assert f"'{'y' * 60}'" in _tag_message(at_limit)
    beyond = _error(lambda: parse_letta_message({"message_type": "y" * 61}))
    assert f"'{'y' * 40}... (61 characters)'" in _tag_message(beyond)
    assert "y" * 41 not in str(beyond)


def test_an_error_quoting_a_tag_of_60_characters_is_kept_as_pydantic_raised_it() -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(LettaMessage)
    own = _error(lambda: adapter.validate_python({"message_type": "y" * 60}))
    assert bounded(own) is own


class _Checked(TranscriptBackfillMessage):
    """A subclass whose own validator refuses every session, with a custom error type."""

    @field_validator("session_id")
    @classmethod
    def _refuse(cls, value: str) -> str:
        if value == "plain":
            raise PydanticCustomError("session_plain", "session refused")
        # `session` is filled in last: a session named "{state}" is quoted as such, not as "closed"
        raise PydanticCustomError(
            "session_closed", "session {session} is {state}", {"state": "closed", "session": value}
        )


def _custom(session: str, tag: str) -> dict[str, Any]:
    exc = _error(
        lambda: _Checked.model_validate(
            {"type": "transcript_backfill", "session_id": session, "uuid": "u", "messages": [{"message_type": tag}]}
        )
    )
    (error,) = [e for e in exc.errors() if e["type"].startswith("session_")]
    return dict(error)


@pytest.mark.parametrize("session", ["s1", "plain", "{state}"])
def test_a_custom_error_keeps_its_message_and_context_when_a_long_tag_is_shortened(session: str) -> None:
    before = _custom(session, "nope")
    after = _custom(session, "x" * 100)
    assert (after["type"], after["loc"], after["msg"]) == (before["type"], before["loc"], before["msg"])
    if session == "{state}":  # its text, not filled in a second time; Pydantic could not keep both
        assert after["msg"] == "session {state} is closed" and "ctx" not in after
        return
    assert after.get("ctx") == before.get("ctx")
    assert ("ctx" in after) == ("ctx" in before)
    if session == "s1":
        assert after["msg"] == "session s1 is closed"
        assert after["ctx"] == {"session": "s1", "state": "closed"}


def _run(tag: str) -> dict[str, Any]:
    # one message with an unknown role, one whose content is neither a string nor a list
    return {"transcripts": [{"messages": [{"role": tag, "content": "a"}, {"role": "user", "content": 5}]}]}


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (lambda run: AgentRun.model_validate(run), "list"),
        (lambda run: AgentRun(**run), "list"),
        (lambda run: AgentRun.model_validate_json(json.dumps(run)), "array"),
        (lambda run: AgentRun.model_validate_json(json.dumps(run).encode()), "array"),
    ],
    ids=["model_validate", "constructor", "model_validate_json", "model_validate_json-bytes"],
)
def test_the_other_errors_keep_their_words_json_input_s_too(entry: Callable[[dict[str, Any]], Any], words: str) -> None:
    short = _error(lambda: entry(_run("x"))).errors()
    long = _error(lambda: entry(_run("x" * 100))).errors()
    assert [e["type"] for e in long] == [e["type"] for e in short]
    assert [e["msg"] for e in long[1:]] == [e["msg"] for e in short[1:]]
    assert long[-1]["msg"] == f"Input should be a valid {words}"  # Pydantic's words for JSON input differ
