"""A hostile union tag does not make a Pydantic error as large as itself.

Pydantic shortens the input it quotes but not a discriminated union's tag: without
`chatschema._errors.bounded`, a 1 MB `type` gives a 1 MB `union_tag_invalid` message. Every entry
point chatschema owns is tried: each union's parse functions, and a union nested in a model through
`model_validate`, `model_validate_json` and the constructor.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from chatschema import schemas
from chatschema._errors import TAG_LIMIT, bounded, short_tag
from chatschema.letta import TranscriptBackfillMessage
from codegen.render import snake

HUGE = "x" * 1_000_000
MESSAGE_LIMIT = 4_000  # the longest expected-tags list (Letta Code's records) is about 500 characters


def _error(call: Callable[[], Any]) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        call()
    return caught.value


def _tag_errors(exc: ValidationError) -> list[Any]:
    return [error for error in exc.errors() if error["type"] == "union_tag_invalid"]


@pytest.mark.parametrize("name", sorted(schemas.unions()))
def test_every_parse_function_bounds_a_huge_tag(name: str) -> None:
    family, type_name = name.split("/")
    module = importlib.import_module(f"chatschema.{family}")
    parse = getattr(module, f"parse_{snake(type_name)}")
    parse_json = getattr(module, f"parse_{snake(type_name)}_json")
    payload = {schemas.unions()[name].tag: HUGE}
    for call in (lambda: parse(payload), lambda: parse_json(json.dumps(payload))):
        exc = _error(call)
        assert len(str(exc)) < MESSAGE_LIMIT
        (error,) = _tag_errors(exc)
        assert error["ctx"]["tag"] == short_tag(HUGE)
        assert error["input"] is payload or error["input"] == payload  # the input itself is kept


def _backfill(tag: str) -> dict[str, Any]:
    """A Letta Code transcript record whose first message has `tag`, and one other mistake."""
    return {
        "type": "transcript_backfill",
        "session_id": "s",
        "uuid": 5,  # a second error, of another type, rebuilt unchanged
        "messages": [{"message_type": tag}],
    }


@pytest.mark.parametrize(
    "entry",
    ["model_validate", "model_validate_json", "constructor"],
)
def test_a_nested_union_is_bounded_through_every_model_entry(entry: str) -> None:
    payload = _backfill(HUGE)
    calls: dict[str, Callable[[], Any]] = {
        "model_validate": lambda: TranscriptBackfillMessage.model_validate(payload),
        "model_validate_json": lambda: TranscriptBackfillMessage.model_validate_json(json.dumps(payload)),
        "constructor": lambda: TranscriptBackfillMessage(**payload),
    }
    exc = _error(calls[entry])
    assert len(str(exc)) < MESSAGE_LIMIT
    assert exc.title == "TranscriptBackfillMessage"
    (error,) = _tag_errors(exc)
    assert error["loc"] == ("messages", 0)
    assert error["ctx"]["tag"].startswith("x" * (TAG_LIMIT - 20)) and "1,000,000 characters" in error["ctx"]["tag"]


def test_the_other_errors_are_kept_as_they_were() -> None:
    """Bounding rewrites the long tag only: every error keeps its type, location, message and context."""
    short = _error(lambda: TranscriptBackfillMessage.model_validate(_backfill("nope")))
    long = _error(lambda: TranscriptBackfillMessage.model_validate(_backfill(HUGE)))
    assert bounded(short) is short  # nothing to shorten: the very error
    assert len(short.errors()) == len(long.errors()) >= 2
    for before, after in zip(short.errors(), long.errors(), strict=True):
        assert (before["type"], before["loc"]) == (after["type"], after["loc"])
        if before["type"] == "union_tag_invalid":
            assert after["msg"] == before["msg"].replace("'nope'", f"'{short_tag(HUGE)}'")
        else:
            assert (before["msg"], before.get("ctx")) == (after["msg"], after.get("ctx"))


def test_a_tag_at_the_limit_is_quoted_whole() -> None:
    assert short_tag("y" * TAG_LIMIT) == "y" * TAG_LIMIT
    assert short_tag("y" * (TAG_LIMIT + 1)) == "y" * (TAG_LIMIT - 20) + f"... ({TAG_LIMIT + 1} characters)"
