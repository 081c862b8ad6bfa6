"""Unknown variants (chatschema.unknown): for every tagged union of every family, a payload whose tag
is a type from a later release, through every Python reader, in both modes.

Strict (the default) refuses it, as before. Lenient (`unknown="keep"`) keeps it as it came, and
still validates every payload whose tag the schemas know, so a known type that is invalid is an
error in both modes.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from pydantic import ValidationError

from chatschema import schemas, unknown
from chatschema.unknown import UnknownVariant, lenient_schema, typeddict_adapter, validator
from codegen.render import snake
from tests.node import HERE, PACKAGE, run_node
from tests.vectors import all_vectors

UNIONS = sorted(schemas.unions())
FUTURE = "a_type_from_a_later_release"


@cache
def examples(name: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Valid payloads of union `name` (its own examples and its branches'), and invalid ones whose
    tag it knows."""
    union = schemas.unions()[name]
    members = {name, *union.branches.values()}
    valid: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    for vector in all_vectors():
        payload = vector.load()
        if vector.schema_name not in members or not isinstance(payload, dict):
            continue
        if payload.get(union.tag) not in union.branches:
            continue
        if vector.valid:
            valid.append(payload)
        elif not schemas.is_valid(payload, name):
            invalid.append(payload)
    return valid, invalid


def future(name: str) -> dict[str, Any]:
    """A valid payload of the union with its tag set to a type this version does not know."""
    valid, _ = examples(name)
    return {**valid[0], schemas.unions()[name].tag: FUTURE}


def parsers(name: str) -> tuple[Callable[..., Any], Callable[..., Any], type[UnknownVariant]]:
    family, type_name = name.split("/")
    module = importlib.import_module(f"chatschema.{family}")
    parse = getattr(module, f"parse_{snake(type_name)}")
    return parse, getattr(module, f"{parse.__name__}_json"), getattr(module, f"Unknown{type_name}")


def outcome(validate: Callable[[Any], Any], payload: Any) -> Any:
    """What `validate` returns, or the errors of the ValidationError it raises (why, and of what)."""
    try:
        return validate(payload)
    except ValidationError as exc:
        return [(e["type"], repr(e["input"])) for e in exc.errors()]  # not `loc`, which names the union


def test_every_union_has_examples_to_try() -> None:
    assert len(UNIONS) >= 8
    for name in UNIONS:
        valid, _ = examples(name)
        assert valid, name


@pytest.mark.parametrize("name", UNIONS)
def test_parse_functions_refuse_by_default_and_keep_on_request(name: str) -> None:
    parse, parse_json, cls = parsers(name)
    payload = future(name)
    text = json.dumps(payload, indent=1, ensure_ascii=False)  # any spacing: the text is kept as it is
    with pytest.raises(ValidationError):
        parse(payload)
    with pytest.raises(ValidationError):
        parse_json(text)
    with pytest.raises(ValidationError):
        parse(payload, unknown="error")
    kept = parse(payload, unknown="keep")
    assert type(kept) is cls and kept.union == name and kept.tag == FUTURE
    assert kept.raw == payload and kept.model_dump() == payload and kept.model_dump() is not kept.raw
    assert parse(kept, unknown="keep") is kept
    with pytest.raises(ValidationError):  # an unknown variant given back to a strict reader
        parse(kept)
    from_text = parse_json(text.encode(), unknown="keep")
    assert type(from_text) is cls and from_text.model_dump_json() == text  # byte for byte
    assert from_text == kept and parse_json(kept.model_dump_json(), unknown="keep") == kept
    with pytest.raises(ValueError, match="unknown is 'error' or 'keep', not 'warn'"):
        parse(payload, unknown="warn")
    with pytest.raises(TypeError, match="JSON text is a str or bytes"):
        parse_json(payload, unknown="keep")
    assert parse_json(bytearray(text.encode()), unknown="keep") == kept


@pytest.mark.parametrize("name", UNIONS)
def test_lenient_parsing_still_validates_every_known_tag(name: str) -> None:
    parse, parse_json, _ = parsers(name)
    valid, invalid = examples(name)
    for payload in valid:
        assert parse(payload, unknown="keep") == parse(payload)
        assert parse_json(json.dumps(payload), unknown="keep") == parse(payload)
    for payload in invalid:
        with pytest.raises(ValidationError):
            parse(payload, unknown="keep")
        with pytest.raises(ValidationError):
            parse_json(json.dumps(payload), unknown="keep")
    tag = schemas.unions()[name].tag
    base = valid[0]
    for wrong in ({k: v for k, v in base.items() if k != tag}, {**base, tag: 7}, {**base, tag: None}):
        with pytest.raises(ValidationError):  # a missing tag, or one that is not a string: never unknown
            parse(wrong, unknown="keep")
    with pytest.raises(ValidationError, match=r"json_invalid|Invalid JSON"):
        parse_json('{"' + tag + '": "x", "n": NaN}', unknown="keep")  # the JSON rules hold in both modes


@pytest.mark.parametrize("name", UNIONS)
def test_typeddict_adapters_follow_the_same_policy(name: str) -> None:
    strict, lenient = typeddict_adapter(name), typeddict_adapter(name, unknown="keep")
    payload = future(name)
    with pytest.raises(ValidationError):
        strict.validate_python(payload)
    assert lenient.validate_python(payload) == payload
    valid, invalid = examples(name)
    for known in [*valid, *invalid]:  # a known tag: the strict adapter's verdict and result, in both modes
        assert outcome(lenient.validate_python, known) == outcome(strict.validate_python, known)
    assert any(isinstance(outcome(lenient.validate_python, bad), list) for bad in invalid)
    with pytest.raises(ValidationError):
        lenient.validate_python({k: v for k, v in payload.items() if k != schemas.unions()[name].tag})


@pytest.mark.parametrize("name", UNIONS)
def test_plain_jsonschema_validators_follow_the_same_policy(name: str) -> None:
    strict, lenient = validator(name), validator(name, unknown="keep")
    payload = future(name)
    assert not strict.is_valid(payload) and lenient.is_valid(payload)
    valid, invalid = examples(name)
    assert all(lenient.is_valid(p) for p in valid)
    for bad in invalid:  # a known tag: the union's own errors, in both modes
        assert schemas.explained(lenient.iter_errors(bad)) == schemas.explained(strict.iter_errors(bad))
        assert schemas.explained(lenient.iter_errors(bad))
    assert not lenient.is_valid({**payload, schemas.unions()[name].tag: 3})
    schema = lenient_schema(name)
    assert schema["else"] == {"$ref": schemas.schema_id(name)}


def test_only_unions_have_a_lenient_mode() -> None:
    with pytest.raises(ValueError, match="docent/UserMessage is not a tagged union"):
        lenient_schema("docent/UserMessage")
    with pytest.raises(schemas.UnknownSchemaError):
        typeddict_adapter("docent/Nothing", unknown="keep")
    with pytest.raises(ValueError, match="unknown is 'error' or 'keep'"):
        validator("docent/ChatMessage", unknown="allow")  # type: ignore[arg-type]


def test_an_unknown_variant_is_built_only_from_an_unknown_tag() -> None:
    from chatschema.letta import UnknownLettaMessage

    with pytest.raises(ValueError, match="not an unknown letta/LettaMessage"):
        UnknownLettaMessage({"message_type": "assistant_message"})
    kept = UnknownLettaMessage({"message_type": "compaction_message", "id": "m"})
    assert repr(kept) == "UnknownLettaMessage(message_type='compaction_message', 2 keys)"
    assert kept.model_dump_json() == '{"message_type":"compaction_message","id":"m"}'
    assert hash(kept) == hash(UnknownLettaMessage(kept.raw)) and kept == UnknownLettaMessage(kept.raw)
    assert unknown.is_unknown(kept.raw, "message_type", UnknownLettaMessage.known)


def test_the_npm_package_follows_the_same_policy_on_every_union() -> None:
    unions: list[dict[str, Any]] = []
    for name in UNIONS:
        family, type_name = name.split("/")
        valid, invalid = examples(name)
        tag = schemas.unions()[name].tag
        unions.append(
            {
                "name": name,
                "family": family,
                "type": type_name,
                "future": future(name),
                "valid": valid,
                "invalid": invalid,
                "badTag": {**valid[0], tag: 7},
            }
        )
    node = run_node(HERE / "unknown.cjs", {"package": str(PACKAGE), "unions": unions})
    assert sorted(node) == UNIONS
    for case in unions:
        got = node[case["name"]]
        assert (got["guardStrict"], got["guardKeep"], got["guardError"], got["unknownGuard"]) == (
            False,
            True,
            False,
            True,
        )
        assert not any(got["unknownGuardOnKnown"])
        assert got["isValidStrict"] == [False, False] and got["isValidKeep"] == [True, True]
        assert got["violationsKeep"] == 0 and got["parseKeep"] is True
        assert got["violationsStrict"] == [v.message for v in schemas.violations(case["future"], case["name"])]
        assert got["parseStrict"].startswith("PayloadError: ")
        assert got["validKnown"] == [[True, True]] * len(case["valid"])
        assert got["invalidKnown"] == [[False, False, True]] * len(case["invalid"]) and got["invalidSame"]
        assert got["badTag"] == [False, False]
        assert got["badMode"] == 'TypeError: unknown is "error" or "keep", not "allow"'
        kinds = ["5", "true", "null", "an array", "an object", "a function"]
        assert got["badModes"] == [f'TypeError: unknown is "error" or "keep", not {kind}' for kind in kinds]


def test_the_stream_readers_keep_frames_of_later_types_on_request() -> None:
    """The shared stream examples cover `reassemble_sse` in both languages; here the other readers."""
    from chatschema.letta import UnknownLettaStreamingResponse
    from chatschema.letta.stream import StreamError, reassemble, reassemble_resumed

    say = {"message_type": "assistant_message", "id": "m-1", "date": "2025-10-01T12:30:45Z", "otid": "o-1"}
    later = {"message_type": "compaction_status", "phase": "started", "seq_id": 2}
    frames = [{**say, "content": "Hi", "seq_id": 1}, later, {**say, "content": "!", "seq_id": 3}]
    frames.append({"message_type": "stop_reason", "stop_reason": "end_turn"})
    with pytest.raises(StreamError, match=r"^frame 1: not a valid letta/LettaStreamingResponse"):
        reassemble(frames)
    result = reassemble(frames, unknown="keep")
    assert [m.content for m in result.messages] == ["Hi!"]  # type: ignore[union-attr]
    assert result.unknown == [UnknownLettaStreamingResponse(later)] and result.frames[1].outcome == "unknown"
    body = "".join(f"data: {json.dumps(f)}\n\n" for f in frames) + "data: [DONE]\n\n"
    resumed = reassemble_resumed([body[:40], body], unknown="keep")
    assert resumed.unknown == result.unknown and resumed.messages == result.messages
    with pytest.raises(ValueError, match="unknown is 'error' or 'keep'"):
        reassemble(frames, unknown="allow")  # type: ignore[arg-type]


def test_hostile_input_in_the_lenient_mode_is_refused_or_kept_as_data() -> None:
    """Lenient parsing reads JSON under the same rules: nothing, bytes that are not UTF-8, nesting
    too deep are errors; a tag that reads like code is only a string kept."""
    from chatschema.letta import UnknownLettaMessage, parse_letta_message, parse_letta_message_json

    deep = '{"message_type": "later", "x": ' + "[" * 1100 + "]" * 1100 + "}"
    for text in ("", b"\xff\xfe", b'{"message_type": "\xff"}', deep, "[]", "null"):
        with pytest.raises(ValidationError):
            parse_letta_message_json(text, unknown="keep")
    code = "__import__('os').system('echo pwned')"
    kept = parse_letta_message_json(json.dumps({"message_type": code}), unknown="keep")
    assert isinstance(kept, UnknownLettaMessage) and kept.tag == code
    huge = parse_letta_message({"message_type": "x" * 1_000_000}, unknown="keep")
    assert len(repr(huge)) < 200  # the tag cut as messages quote values, whatever its size
