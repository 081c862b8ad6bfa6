"""`schemas.validator(name)` dispatches tagged unions by their tag; its verdicts equal the plain `oneOf`'s."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from chatschema import schemas
from tests.dispatch import mismatches, mutations
from tests.vectors import all_vectors

VECTORS = all_vectors()


def test_every_tagged_union_dispatches() -> None:
    unions = schemas.unions()
    assert {"docent/ChatMessage", "docent/DocentChatMessage", "letta/LettaMessage", "bridgic/ContentBlock"} <= set(
        unions
    )
    assert unions["docent/ChatMessage"].tag == "role"
    assert unions["docent/DocentChatMessage"].branches["assistant"] == "docent/DocentAssistantMessage"
    assert unions["letta/LettaStreamingResponse"].branches["ping"] == "letta/LettaPing"
    # every union of the shipped schemas is dispatchable
    tagged = [n for n in schemas.names() if "discriminator" in _definition(n)]
    assert sorted(tagged) == sorted(unions)


def _definition(name: str) -> dict[str, Any]:
    from referencing.jsonschema import DRAFT202012  # noqa: F401  (registry contents are plain dicts)

    contents: dict[str, Any] = schemas.registry().resolver().lookup(schemas.schema_id(name)).contents
    return contents


def test_plain_validator_is_a_draft_2020_12_validator() -> None:
    plain = schemas.validator("docent/ChatMessage", dispatch=False)
    assert type(plain) is Draft202012Validator
    assert schemas.validator("docent/ChatMessage") is not plain
    assert schemas.validator("docent/ChatMessage") is schemas.validator("docent/ChatMessage")


def test_dispatch_validates_only_the_tagged_branch(monkeypatch: pytest.MonkeyPatch) -> None:
    import chatschema.schemas as module

    calls: list[object] = []
    plain = getattr(module, "_capped_one_of")  # noqa: B009

    def counting(*args: Any) -> Any:
        calls.append(args[2])
        return plain(*args)

    monkeypatch.setattr(module, "_capped_one_of", counting)  # a private hook, counted only here
    v = schemas.validator("docent/ChatMessage")
    assert v.is_valid({"role": "user", "content": [{"type": "text", "text": "x"}]})
    assert calls == []  # neither the message union nor the nested content-part union fell back
    assert not v.is_valid({"role": "bot", "content": "x"})
    assert not v.is_valid({"content": "x"})
    assert calls == []  # a missing or unknown tag fails every branch on the tag alone: nothing to validate
    assert len(list(v.iter_errors("not an object"))) == 2  # "type": "object" and the oneOf
    assert len(calls) == 1  # not an object: every branch (oneOf, errors capped per branch)


@pytest.mark.parametrize(
    "payload", [{"content": "x"}, {"role": "bot"}, {"role": None}, {"role": 1}, [], "x", None, {"role": "user"}]
)
def test_missing_unknown_tag_and_non_objects_give_the_plain_errors(payload: Any) -> None:
    assert not schemas.validator("docent/ChatMessage").is_valid(payload)
    assert schemas.violations_counted(payload, "docent/ChatMessage") == schemas.violations_counted(
        payload, "docent/ChatMessage", dispatch=False
    )  # the same violations, and the same count of the others (none)
    assert schemas.violations(payload, "docent/ChatMessage")


def test_first_error_unions_without_a_tag_to_dispatch_by() -> None:
    # Only the verdict validator's own `oneOf`/`anyOf` are checked here; every shipped union is
    # compared with the plain validator by `mismatches` below.
    from chatschema.schemas import _VerdictValidator

    one_of = _VerdictValidator({"oneOf": [{"type": "integer"}, {"type": "number"}]})
    assert [one_of.is_valid(v) for v in (1, 1.5, "x")] == [False, True, False]  # 1 is both: not exactly one
    three = _VerdictValidator({"oneOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]})
    assert [three.is_valid(v) for v in (1, "x", None, 1.5)] == [True, True, True, False]  # one passes, two fail
    any_of = _VerdictValidator({"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^a"}]})
    assert [any_of.is_valid(v) for v in (1, "ab", "b", None)] == [True, True, False, False]
    assert len(list(any_of.iter_errors(None))) == 1
    tagged = schemas.verdict_validator("docent/ChatMessage")
    payloads: list[Any] = [{"role": "user", "content": "x"}, {"role": "bot"}, {}, [], "x"]
    assert [tagged.is_valid(v) for v in payloads] == [True, False, False, False, False]
    assert schemas.verdict_validator("docent/ChatMessage") is tagged


def test_same_verdicts_on_every_vector() -> None:
    assert mismatches((v.schema_name, v.load()) for v in VECTORS) == []


@pytest.mark.parametrize("family", ["docent", "letta", "bridgic", "swarm"])
def test_same_verdicts_on_mutated_vectors(family: str) -> None:
    cases = [
        (v.schema_name, mutated)
        for v in VECTORS
        if v.family == family and v.valid
        for mutated in mutations(v.load(), limit=60, seed=len(v.id))
    ]
    assert len(cases) > 1000
    assert mismatches(cases) == []


def test_mutations_reach_many_invalid_payloads() -> None:
    vector = next(v for v in VECTORS if v.id == "docent/ChatMessage/valid/" + _first("docent/ChatMessage"))
    verdicts = [schemas.validator(vector.schema_name).is_valid(m) for m in mutations(vector.load())]
    assert verdicts.count(False) > 10 and verdicts.count(True) > 0


def _first(schema_name: str) -> str:
    return next(v.path.name for v in VECTORS if v.schema_name == schema_name and v.valid)


def test_dispatch_checks_formats() -> None:
    message = {"message_type": "assistant_message", "id": "m", "date": "2024-01-01T00:00:00Z", "content": "hi"}
    assert schemas.validator("letta/LettaMessage").is_valid(message)
    late = {**message, "date": "2024-13-01T00:00:00Z"}
    assert not schemas.validator("letta/LettaMessage").is_valid(late)
    assert not schemas.validator("letta/LettaMessage", dispatch=False).is_valid(late)


def test_refs_are_resolved_once_only_because_no_schema_uses_dynamic_refs() -> None:
    # the dispatching validator caches where each `$ref` leads; that is only right without $dynamicRef
    from chatschema.schemas import _dynamic_refs

    assert _dynamic_refs() is False


def test_unions_are_shared_and_immutable() -> None:
    """`unions()` is computed once for everyone: a caller cannot change what the others see."""
    union = schemas.unions()["docent/ChatMessage"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        union.tag = "kind"  # type: ignore[misc]
    assert schemas.unions()["docent/ChatMessage"].tag == "role"
