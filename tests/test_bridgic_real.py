"""Against the real thing: bridgic-core 0.3.0's own models and our schemas agree.

Installed with `pip install --no-deps bridgic-core==0.3.0`: its model types import with only
pydantic. bridgic pins `pydantic>=2.11,<2.12`; these tests run it on the project's pydantic 2.14.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from importlib.metadata import version
from typing import Any, cast

import pydantic
import pytest
from bridgic.core.model import types as bt
from pydantic import BaseModel, TypeAdapter

from chatschema import schemas
from chatschema.bridgic import Message, Response, ToolCall, parse_content_block
from tests.vectors import Vector, all_vectors

# Our type name -> bridgic's type for that shape. ToolCallDict is bridgic's `typing.TypedDict`,
# which pydantic cannot validate on Python < 3.12: it is checked through `Message.from_tool_call`.
BRIDGIC_TYPES: dict[str, Any] = {
    "Tool": bt.Tool,
    "ToolCall": bt.ToolCall,
    "TextBlock": bt.TextBlock,
    "ToolCallBlock": bt.ToolCallBlock,
    "ToolResultBlock": bt.ToolResultBlock,
    "ContentBlock": bt.ContentBlock,
    "Role": bt.Role,
    "Message": bt.Message,
    "MessageChunk": bt.MessageChunk,
    "TokenUsage": bt.TokenUsage,
    "Response": bt.Response,
}

VECTORS = [v for v in all_vectors() if v.family == "bridgic"]

# The negative cases bridgic's documentation names: bridgic itself rejects them.
DOCUMENTED_NEGATIVES = {
    "bridgic/Role/invalid/developer.json",
    "bridgic/Message/invalid/role_developer.json",
    "bridgic/ContentBlock/invalid/missing_block_type.json",
    "bridgic/Message/invalid/block_without_block_type.json",
    "bridgic/Message/invalid/extras_null.json",
    "bridgic/ToolResultBlock/invalid/content_as_object.json",
    "bridgic/Message/invalid/tool_result_content_as_object.json",
    "bridgic/ToolCallBlock/invalid/id_null.json",
    "bridgic/Message/invalid/tool_call_block_id_null.json",
    "bridgic/ToolCall/invalid/arguments_as_json_string.json",
    "bridgic/ToolCallBlock/invalid/arguments_as_json_string.json",
    "bridgic/ToolCall/invalid/missing_id.json",
    "bridgic/Tool/invalid/missing_parameters.json",
}

# Invalid vectors bridgic accepts because its parsing is lax; it normalizes each into a form
# our schema accepts (checked below). Where the schema is stricter than bridgic's input parsing:
STRICTER_THAN_BRIDGIC = {
    # a standalone block class defaults its tag; bridgic's ContentBlock union requires it, as we do
    "bridgic/TextBlock/invalid/missing_block_type.json",
    "bridgic/ToolCallBlock/invalid/missing_block_type.json",
    "bridgic/ToolResultBlock/invalid/missing_block_type.json",
    # lax ints: "12" -> 12, true -> 1; the schema takes JSON integers only
    "bridgic/TokenUsage/invalid/prompt_tokens_as_string.json",
    "bridgic/TokenUsage/invalid/total_tokens_boolean.json",
    # lax datetimes; the schema takes the ISO form bridgic writes
    "bridgic/TokenUsage/invalid/timestamp_date_only.json",
    "bridgic/TokenUsage/invalid/timestamp_space_separator.json",
    "bridgic/TokenUsage/invalid/timestamp_unix_integer.json",
    "bridgic/TokenUsage/invalid/timestamp_seven_fraction_digits.json",
}


def bridgic_parse(vector: Vector) -> Any:
    """Parse with bridgic's own code and dump to JSON; raises if bridgic rejects the payload."""
    payload: Any = vector.load()
    if vector.type_name == "ToolCallDict":
        if not isinstance(payload, dict):
            raise TypeError("a ToolCallDict is a dict")
        block = bt.Message.from_tool_call(cast(Any, payload)).blocks[0]
        return {k: v for k, v in block.model_dump(mode="json").items() if k != "block_type"}
    adapter: TypeAdapter[Any] = TypeAdapter(BRIDGIC_TYPES[vector.type_name])
    return adapter.dump_python(adapter.validate_python(payload), mode="json")


def test_bridgic_runs_on_our_pydantic() -> None:
    assert version("bridgic-core") == "0.3.0"
    assert tuple(int(p) for p in pydantic.VERSION.split(".")[:2]) >= (2, 14)  # above bridgic's <2.12 pin
    assert bt.Message.from_text("hi").content == "hi"


def test_every_type_is_mapped_to_bridgic() -> None:
    ours = {n.split("/")[1] for n in schemas.names() if n.startswith("bridgic/")}
    assert ours == set(BRIDGIC_TYPES) | {"ToolCallDict"}


@pytest.mark.parametrize("vector", [v for v in VECTORS if v.valid], ids=lambda v: v.id)
def test_bridgic_accepts_our_valid_vectors(vector: Vector) -> None:
    bridgic_parse(vector)


@pytest.mark.parametrize("vector", [v for v in VECTORS if not v.valid], ids=lambda v: v.id)
def test_bridgic_rejects_our_invalid_vectors_or_normalizes_them(vector: Vector) -> None:
    """bridgic rejects what we reject, except the listed cases its lax parsing coerces; what it makes
    of those is valid under our schema, so the schema still describes everything bridgic emits."""
    try:
        parsed = bridgic_parse(vector)
    except (ValueError, TypeError, KeyError):
        assert vector.id not in STRICTER_THAN_BRIDGIC, "bridgic now rejects it: drop it from the list"
        return
    assert vector.id in STRICTER_THAN_BRIDGIC, f"bridgic accepts {vector.id}"
    assert vector.id not in DOCUMENTED_NEGATIVES
    schemas.validate(parsed, vector.schema_name)


def test_documented_negatives_are_invalid_vectors() -> None:
    assert DOCUMENTED_NEGATIVES <= {v.id for v in VECTORS if not v.valid}
    assert STRICTER_THAN_BRIDGIC <= {v.id for v in VECTORS if not v.valid}


def _text(rng: random.Random) -> str:
    return rng.choice(["", "ok", "Paris.", "emoji 🙂 and ünïcode", "line\nbreak", "x" * rng.randint(50, 300)])


def _arguments(rng: random.Random, i: int) -> dict[str, Any]:
    return rng.choice([{}, {"city": "Tokyo", "unit": "celsius"}, {"n": i, "nested": {"k": [1, 2.5, None, True]}}])


def _extras(rng: random.Random) -> dict[str, Any]:
    return rng.choice([{}, {"name": "alice"}, {"name": "bob", "cache": {"ttl": 60}}])


def _call(rng: random.Random, i: int) -> Any:
    """One tool call in any form bridgic's from_tool_call takes: a ToolCallDict or a ToolCall."""
    fields = {"id": f"tool_{i:025x}", "name": rng.choice(["get_weather", "get_news"]), "arguments": _arguments(rng, i)}
    return fields if rng.random() < 0.5 else bt.ToolCall(**fields)


def _timestamp(rng: random.Random) -> datetime:
    base = datetime(2026, 3, 16, 19, 26, 48, rng.choice([0, 123456]))
    return rng.choice([base, base.replace(tzinfo=UTC), base.replace(tzinfo=timezone(timedelta(hours=5, minutes=30)))])


def bridgic_messages(count: int, seed: int = 20261122) -> list[bt.Message]:
    """Messages built with bridgic's own constructors and classes, with varied values."""
    rng = random.Random(seed)
    out: list[bt.Message] = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            role = rng.choice([*bt.Role, "system", "user", "assistant", "tool"])
            out.append(bt.Message.from_text(_text(rng), role=role, extras=_extras(rng)))
        elif kind == 1:
            calls = [_call(rng, i * 10 + j) for j in range(rng.randint(1, 3))]
            arg = calls[0] if len(calls) == 1 and rng.random() < 0.5 else calls
            out.append(bt.Message.from_tool_call(arg, text=rng.choice([None, "", _text(rng)]), extras=_extras(rng)))
        elif kind == 2:
            out.append(bt.Message.from_tool_result(f"tool_{i:025x}", _text(rng), extras=_extras(rng)))
        else:
            blocks: list[Any] = [
                rng.choice(
                    [
                        bt.TextBlock(text=_text(rng)),
                        bt.ToolCallBlock(id=f"tool_{i}", name="f", arguments=_arguments(rng, i)),
                        bt.ToolResultBlock(id=f"tool_{i}", content=_text(rng)),
                    ]
                )
                for _ in range(rng.randint(0, 4))
            ]
            out.append(bt.Message(role=rng.choice(list(bt.Role)), blocks=blocks, extras=_extras(rng)))
    return out


def test_bridgic_message_dumps_validate_and_parse_identically() -> None:
    for message in bridgic_messages(400):
        dumped = message.model_dump(mode="json")
        schemas.validate(dumped, "bridgic/Message")
        ours = Message.model_validate(dumped)
        assert ours.model_dump(mode="json") == dumped
        assert Message.model_validate_json(message.model_dump_json()).model_dump(mode="json") == dumped
        assert ours.content == message.content
        for block in message.blocks:
            assert parse_content_block(block.model_dump(mode="json")).model_dump(mode="json") == block.model_dump(
                mode="json"
            )


def test_bridgic_responses_and_chunks_validate() -> None:
    rng = random.Random(7)
    messages = bridgic_messages(40, seed=7)
    for i, message in enumerate(messages):
        usage = bt.TokenUsage(
            model=rng.choice(["gpt-4o-mini", "claude-sonnet-4-5"]),
            prompt_tokens=i,
            completion_tokens=rng.randint(0, 500),
            total_tokens=rng.randint(0, 1000),
            timestamp=_timestamp(rng),
        )
        for response in (
            bt.Response(message=message, usage=usage, raw={"id": f"resp_{i}", "choices": [None]}),
            bt.Response(message=rng.choice([message, None]), usage=rng.choice([usage, None])),
            bt.Response(usage=bt.TokenUsage(model="m")),  # bridgic's default timestamp: naive local now()
        ):
            dumped = response.model_dump(mode="json")
            schemas.validate(dumped, "bridgic/Response")
            assert Response.model_validate(dumped).model_dump(mode="json") == dumped
    for chunk in (bt.MessageChunk(), bt.MessageChunk(delta="Hel", raw={"choices": [{"delta": {"content": "Hel"}}]})):
        schemas.validate(chunk.model_dump(mode="json"), "bridgic/MessageChunk")


def test_tool_dumps_validate() -> None:
    tool = bt.Tool(
        name="get_weather",
        description="Get current weather for a city.",
        parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    )
    schemas.validate(tool.model_dump(mode="json"), "bridgic/Tool")
    for call in (
        bt.ToolCall.model_validate({"id": None, "name": "f"}),
        bt.ToolCall(id="tool_1", name="f", arguments={"a": 1}),
    ):
        schemas.validate(call.model_dump(mode="json"), "bridgic/ToolCall")
        assert ToolCall.model_validate(call.model_dump(mode="json")).model_dump(mode="json") == call.model_dump(
            mode="json"
        )


def _ours(call: Any) -> Any:
    """The same tool call in our types: a dict stays a dict, bridgic's ToolCall becomes ours."""
    return ToolCall.model_validate(call.model_dump(mode="json")) if isinstance(call, BaseModel) else call


def test_our_constructors_build_what_bridgics_build() -> None:
    rng = random.Random(11)
    for i in range(200):
        text, extras = _text(rng), _extras(rng)
        role = rng.choice(["system", "user", "assistant", "tool"])
        pairs: list[tuple[BaseModel, Message]] = [
            (bt.Message.from_text(text, role=role, extras=extras), Message.from_text(text, role=role, extras=extras)),
            (bt.Message.from_tool_result(f"tool_{i}", text), Message.from_tool_result(f"tool_{i}", text)),
        ]
        calls = [_call(rng, j) for j in range(rng.randint(1, 3))]
        note = rng.choice([None, "", text])
        pairs.append(
            (bt.Message.from_tool_call(calls, text=note), Message.from_tool_call([_ours(c) for c in calls], text=note))
        )
        pairs.append(
            (bt.Message.from_tool_call(calls[0], extras=extras), Message.from_tool_call(_ours(calls[0]), extras=extras))
        )
        pairs.append((bt.Message.from_tool_call(calls), Message.from_tool_call(calls)))  # bridgic's ToolCall too
        for theirs, ours in pairs:
            assert ours.model_dump(mode="json") == theirs.model_dump(mode="json")
            assert ours.content == theirs.content  # type: ignore[attr-defined]


def test_bridgic_rejects_a_null_id_tool_call_as_a_block_and_so_do_we() -> None:
    with pytest.raises(ValueError):
        bt.Message.from_tool_call(bt.ToolCall.model_validate({"id": None, "name": "f"}))
    with pytest.raises(ValueError):
        Message.from_tool_call(ToolCall(id=None, name="f"))
