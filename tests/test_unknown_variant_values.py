"""An unknown variant as a value: its JSON dump when it came as a dict (text as text, as a model's
dump, not ASCII-escaped), and its equality (its class and its payload, both)."""

from __future__ import annotations

import json

from chatschema.letta import (
    UnknownLettaMessage,
    UnknownLettaStreamingResponse,
    parse_letta_message,
    parse_letta_message_json,
)

LATER = {"message_type": "compaction_message", "summary": "déjà vu ✓ 日本"}


def test_a_kept_dict_dumps_its_text_as_text_not_ascii_escaped() -> None:
    kept = parse_letta_message(LATER, unknown="keep")
    assert isinstance(kept, UnknownLettaMessage)
    dumped = kept.model_dump_json()
    assert dumped == '{"message_type":"compaction_message","summary":"déjà vu ✓ 日本"}'
    assert json.loads(dumped) == LATER
    assert parse_letta_message_json(dumped, unknown="keep") == kept


def test_unknown_variants_are_equal_only_with_the_same_class_and_payload() -> None:
    kept = UnknownLettaMessage(LATER)
    assert kept == UnknownLettaMessage(dict(LATER))
    other = UnknownLettaMessage({**LATER, "summary": "something else"})
    assert kept != other and not (kept == other)  # same tag and class, another payload
    assert kept != UnknownLettaStreamingResponse(LATER)  # same payload, another union
    assert kept != LATER and kept != None  # noqa: E711 (the payload itself is no variant)
    assert len({kept, other, UnknownLettaMessage(LATER)}) == 2
