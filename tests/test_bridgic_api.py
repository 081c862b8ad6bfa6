"""The bridgic family's Python API: the `content` property, bridgic's constructors, parse functions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from chatschema import schemas
from chatschema.bridgic import (
    ContentBlock,
    Message,
    Response,
    TextBlock,
    TokenUsage,
    ToolCall,
    ToolCallBlock,
    ToolCallDict,
    ToolResultBlock,
    parse_content_block,
    parse_content_block_json,
)
from chatschema.bridgic import typeddicts as td

CALL: dict[str, Any] = {"id": "call_id_123", "name": "get_weather", "arguments": {"city": "Tokyo", "unit": "celsius"}}
NEWS: dict[str, Any] = {"id": "call_id_456", "name": "get_news", "arguments": {"topic": "weather"}}


def test_content_joins_text_blocks_with_a_blank_line() -> None:
    m = Message.model_validate(
        {
            "role": "assistant",
            "blocks": [
                {"block_type": "text", "text": "a"},
                {"block_type": "tool_call", **CALL},
                {"block_type": "text", "text": "b"},
            ],
        }
    )
    assert m.content == "a\n\nb"
    assert Message().content == ""
    assert "content" not in m.model_dump()
    response = Response.model_validate({"message": {"blocks": [{"block_type": "text", "text": "Paris."}]}})
    assert response.message is not None and response.message.content == "Paris."


def test_content_setter_replaces_a_single_text_block_only() -> None:
    m = Message.from_text("old")
    m.content = "new"
    assert m.blocks == [TextBlock(text="new")]
    empty = Message(role="assistant")
    empty.content = "first"
    assert empty.model_dump(mode="json")["blocks"] == [{"block_type": "text", "text": "first"}]
    two = Message.from_tool_call(CALL, text="calling")
    with pytest.raises(ValueError, match="set `blocks`"):
        two.content = "x"
    assert two.content == "calling"


def test_a_content_key_is_kept_as_an_unknown_key_but_not_read() -> None:
    m = Message.model_validate({"role": "user", "content": "hello"})
    assert m.content == ""  # like bridgic: the text lives in blocks
    assert m.model_dump(mode="json") == {"role": "user", "blocks": [], "extras": {}, "content": "hello"}


def test_message_defaults_are_fresh_per_instance() -> None:
    a, b = Message(), Message()
    assert a.model_dump(mode="json") == {"role": "user", "blocks": [], "extras": {}}
    a.extras["name"] = "alice"
    a.blocks.append(TextBlock(text="x"))
    assert b.extras == {} and b.blocks == []


def test_from_text() -> None:
    m = Message.from_text("You are a helpful assistant.", role="system")
    assert m.model_dump(mode="json") == {
        "role": "system",
        "blocks": [{"block_type": "text", "text": "You are a helpful assistant."}],
        "extras": {},
    }
    assert Message.from_text("hi").role == "user"
    extras = {"name": "alice"}
    m = Message.from_text("hi", extras=extras)
    m.extras["x"] = 1
    assert extras == {"name": "alice"}  # copied, not shared
    with pytest.raises(ValidationError):
        Message.from_text("hi", role="developer")


def test_from_text_takes_bridgics_role_enum() -> None:
    from bridgic.core.model.types import Role

    assert Message.from_text("hi", role=Role.AI).role == "assistant"


def test_from_tool_call_takes_a_dict_a_tool_call_or_a_list_of_either() -> None:
    expected = [{"block_type": "tool_call", **CALL}]
    typed: td.ToolCallDict = {"id": "call_id_123", "name": "get_weather", "arguments": CALL["arguments"]}
    for form in (
        CALL,
        typed,
        ToolCall.model_validate(CALL),
        ToolCallDict.model_validate(CALL),
        [CALL],
        [ToolCall.model_validate(CALL)],
    ):
        m = Message.from_tool_call(form)
        assert m.role == "assistant"
        assert m.model_dump(mode="json")["blocks"] == expected
    mixed = Message.from_tool_call([CALL, ToolCall.model_validate(NEWS)], text="I will get weather and news for you.")
    assert [b.block_type for b in mixed.blocks] == ["text", "tool_call", "tool_call"]
    assert mixed.content == "I will get weather and news for you."
    assert schemas.violations(mixed.model_dump(mode="json"), "bridgic/Message") == []


def test_from_tool_call_text_first_and_only_when_not_empty() -> None:
    assert [b.block_type for b in Message.from_tool_call(CALL, text="").blocks] == ["tool_call"]
    assert [b.block_type for b in Message.from_tool_call(CALL, text=None).blocks] == ["tool_call"]
    assert isinstance(Message.from_tool_call(CALL, text="t").blocks[0], TextBlock)
    assert Message.from_tool_call([], text="t").model_dump(mode="json")["blocks"] == [
        {"block_type": "text", "text": "t"}
    ]


def test_from_tool_call_rejects_what_bridgic_rejects() -> None:
    with pytest.raises(ValidationError):
        Message.from_tool_call(ToolCall(id=None, name="f"))  # a block's id is not nullable
    with pytest.raises(ValidationError):
        Message.from_tool_call({"id": "c", "name": "f", "arguments": "{}"})
    with pytest.raises(ValueError, match="without 'arguments'"):
        Message.from_tool_call({"id": "c", "name": "f"})
    with pytest.raises(ValueError, match="not a tool call"):
        Message.from_tool_call("call_1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a tool call"):
        Message.from_tool_call([42])  # type: ignore[list-item]


def test_from_tool_result() -> None:
    m = Message.from_tool_result("call_id_123", "The weather in Tokyo is 22°C and sunny.", extras={"k": 1})
    assert m.model_dump(mode="json") == {
        "role": "tool",
        "blocks": [
            {"block_type": "tool_result", "id": "call_id_123", "content": "The weather in Tokyo is 22°C and sunny."}
        ],
        "extras": {"k": 1},
    }
    assert m.content == ""


def test_parse_content_block_picks_the_branch_by_block_type() -> None:
    for payload, cls in (
        ({"block_type": "text", "text": "hi"}, TextBlock),
        ({"block_type": "tool_call", **CALL}, ToolCallBlock),
        ({"block_type": "tool_result", "id": "c", "content": "x"}, ToolResultBlock),
    ):
        assert type(parse_content_block(payload)) is cls
        assert type(parse_content_block_json(json.dumps(payload))) is cls
    block = TextBlock(text="x")
    assert parse_content_block(block) is block
    for bad in ({"text": "hi"}, {"type": "text", "text": "hi"}, {"block_type": "image"}):
        with pytest.raises(ValueError):
            parse_content_block(bad)
    with pytest.raises(ValidationError, match=r"union_tag_not_found|Unable to extract tag"):
        parse_content_block({"text": "hi"})


def test_content_block_union_and_typeddicts_are_discriminated() -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(ContentBlock)
    with pytest.raises(ValidationError) as exc:
        adapter.validate_python({"block_type": "tool_call", "id": None, "name": "f", "arguments": {}})
    assert all(e["loc"][0] == "tool_call" for e in exc.value.errors())
    td_adapter: TypeAdapter[Any] = TypeAdapter(td.ContentBlock)
    with pytest.raises(ValidationError) as exc:
        td_adapter.validate_python({"text": "hi"})
    assert exc.value.errors()[0]["type"] == "union_tag_not_found"
    msg: td.Message = {"role": "tool", "blocks": [{"block_type": "tool_result", "id": "c", "content": "x"}]}
    assert TypeAdapter(td.Message).validate_python(msg) == msg


def test_tool_call_id_is_required_but_nullable_and_arguments_default() -> None:
    assert ToolCall.model_validate({"id": None, "name": "f"}).model_dump(mode="json") == {
        "id": None,
        "name": "f",
        "arguments": {},
    }
    with pytest.raises(ValidationError):
        ToolCall.model_validate({"name": "f"})
    assert td.ToolCall.__required_keys__ == frozenset({"id", "name"})
    assert td.ToolCallDict.__required_keys__ == frozenset({"id", "name", "arguments"})


def test_token_usage_timestamp_is_kept_as_written_and_absent_stays_absent() -> None:
    usage = TokenUsage.model_validate({"model": "m", "timestamp": "2026-03-16T19:26:48.123456"})
    assert usage.timestamp == "2026-03-16T19:26:48.123456"
    assert TokenUsage(model="m").model_dump(mode="json") == {
        "model": "m",
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "total_tokens": 0,
    }
    for bad in ("yesterday", "2026-03-16 19:26:48", "2026-03-16T19:26:48\n"):
        with pytest.raises(ValidationError):
            TokenUsage.model_validate({"model": "m", "timestamp": bad})
        with pytest.raises(ValidationError):
            TypeAdapter(td.TokenUsage).validate_python({"model": "m", "timestamp": bad})
        assert schemas.violations({"model": "m", "timestamp": bad}, "bridgic/TokenUsage")
