"""The swarm family's Python API: absent and null kept apart, required literals, TypedDicts."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from chatschema import schemas
from chatschema.swarm import (
    IOutlineMessage,
    ISwarmMessage,
    ITool,
    IToolCall,
    IToolCallFunction,
    IToolParameters,
)
from chatschema.swarm import typeddicts as td

CALL = {"id": "call_k3j9x2m1q", "type": "function", "function": {"name": "search", "arguments": {"query": "red shoes"}}}


def test_payload_absent_and_null_stay_apart() -> None:
    base = {"role": "user", "agentName": "triage_agent", "mode": "user", "content": "hi"}
    assert ISwarmMessage.model_validate(base).model_dump(mode="json") == base
    with_null = {**base, "payload": None}
    assert ISwarmMessage.model_validate(with_null).model_dump(mode="json") == with_null
    assert "payload" in td.ISwarmMessage.__optional_keys__


def test_optional_keys_are_never_null() -> None:
    for key in ("tool_calls", "images", "tool_call_id"):
        with pytest.raises(ValidationError):
            IOutlineMessage.model_validate({"role": "user", "content": "x", key: None})
    params = IToolParameters.model_validate({"type": "object", "properties": {}})
    assert params.model_dump(mode="json") == {"type": "object", "properties": {}}  # `required` stays absent


def test_tool_call_type_is_a_required_literal() -> None:
    call = IToolCall.model_validate(CALL)
    assert call.type == "function"
    for bad in ({**CALL, "type": "custom"}, {k: v for k, v in CALL.items() if k != "type"}):
        with pytest.raises(ValidationError):
            IToolCall.model_validate(bad)
    with pytest.raises(ValidationError):
        IToolCall(id="c", function=IToolCallFunction(name="f", arguments={}))  # type: ignore[call-arg]


def test_swarm_roles_are_wider_than_base_roles() -> None:
    resque = {"role": "resque", "agentName": "a", "mode": "tool", "content": "_resurrectModel call"}
    assert ISwarmMessage.model_validate(resque).role == "resque"
    with pytest.raises(ValidationError):
        IOutlineMessage.model_validate({"role": "resque", "content": "x"})
    assert schemas.violations({"role": "resque", "content": "x"}, "swarm/IBaseMessage")


def test_typeddicts_are_strict() -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(td.ITool)
    tool: td.ITool = {
        "type": "function",
        "function": {"name": "n", "description": "d", "parameters": {"type": "object", "properties": {}}},
    }
    assert adapter.validate_python(tool) == tool
    with pytest.raises(ValidationError):
        TypeAdapter(td.IToolCall).validate_python({**CALL, "type": "custom"})
    assert ITool.model_validate(tool).model_dump(mode="json") == tool
