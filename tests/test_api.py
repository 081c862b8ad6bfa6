"""The Python API as the README and docs/python.md show it: parse functions, models, TypedDicts, the schema registry."""

from __future__ import annotations

import importlib
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter, ValidationError

from chatschema import schemas
from chatschema.docent import (
    AssistantMessage,
    ChatMessage,
    ContentReasoning,
    ContentText,
    DocentAssistantMessage,
    DocentChatMessage,
    SystemMessage,
    ToolCall,
    ToolCallContent,
    ToolMessage,
    UserMessage,
    parse_chat_message,
    parse_chat_message_json,
    parse_docent_chat_message,
)
from chatschema.docent import typeddicts as td
from tests.vectors import all_vectors

VECTORS = all_vectors()

ROOT = Path(__file__).parent.parent


def test_parse_chat_message_and_text() -> None:
    m = parse_chat_message({"role": "assistant", "content": [{"type": "text", "text": "hi"}]})
    assert isinstance(m, AssistantMessage)
    assert m.text == "hi"
    parts = [
        {"type": "text", "text": "a"},
        {"type": "reasoning", "reasoning": "hidden"},
        {"type": "text", "text": "b"},
    ]
    assert parse_chat_message({"role": "user", "content": parts}).text == "a\nb"
    assert parse_chat_message({"role": "tool", "content": "8"}).text == "8"
    assert "text" not in parse_chat_message({"role": "system", "content": "x"}).model_dump()


def test_parse_picks_the_branch_by_role() -> None:
    classes = {"system": SystemMessage, "user": UserMessage, "assistant": AssistantMessage, "tool": ToolMessage}
    for role, cls in classes.items():
        assert type(parse_chat_message({"role": role, "content": ""})) is cls
        assert type(parse_chat_message_json(json.dumps({"role": role, "content": ""}))) is cls
    assert type(parse_docent_chat_message({"role": "assistant", "content": ""})) is DocentAssistantMessage


def test_parse_rejects_missing_and_unknown_role_as_value_error() -> None:
    for bad in ({"content": "x"}, {"role": "developer", "content": "x"}, {"role": None, "content": "x"}):
        with pytest.raises(ValueError):
            parse_chat_message(bad)
    with pytest.raises(ValidationError, match=r"union_tag_not_found|Unable to extract tag"):
        parse_chat_message({"content": "x"})


def test_parse_passes_models_through_and_converts_others() -> None:
    m = UserMessage(content="hi")
    assert parse_chat_message(m) is m
    plain = AssistantMessage(content="x", model="m")
    docent = parse_docent_chat_message(plain)
    assert isinstance(docent, DocentAssistantMessage) and docent.model == "m"


def test_docent_chat_message_keeps_citations_chat_message_keeps_them_as_extras() -> None:
    citation = {
        "start_idx": 0,
        "end_idx": 4,
        "target": {"item": {"item_type": "reading_result", "reading_result_id": "r", "collection_id": "c"}},
    }
    payload = {"role": "assistant", "content": "text", "citations": [citation]}
    docent = parse_docent_chat_message(payload)
    assert isinstance(docent, DocentAssistantMessage)
    assert docent.citations is not None and docent.citations[0].target.item.item_type == "reading_result"
    plain = parse_chat_message(payload)
    assert plain.model_dump(mode="json")["citations"] == [citation]  # kept, not dropped


def test_models_are_constructed_as_in_docents_docs() -> None:
    messages = [
        SystemMessage(content="You are a helpful assistant."),
        UserMessage(content=[ContentText(text="Help me with this problem.")]),
        AssistantMessage(
            content="I'll help you solve that.",
            tool_calls=[
                ToolCall(
                    id="call_123",
                    function="calculator",
                    arguments={"operation": "add", "a": 5, "b": 3},
                    view=ToolCallContent(format="markdown", content="Calculating: 5 + 3"),
                )
            ],
        ),
        ToolMessage(content="8", tool_call_id="call_123", function="calculator"),
    ]
    for m in messages:
        assert schemas.violations(m.model_dump(mode="json"), "docent/ChatMessage") == []
    assert ContentReasoning(reasoning="").redacted is False


def test_models_are_strict() -> None:
    with pytest.raises(ValidationError):
        ContentText(text="x", refusal="true")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        parse_chat_message({"role": "user", "content": 5})
    with pytest.raises(ValidationError):
        ContentReasoning.model_validate({"type": "reasoning", "reasoning": "", "redacted": None})


def test_type_adapter_is_a_discriminated_union() -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(ChatMessage)
    assert isinstance(adapter.validate_python({"role": "tool", "content": "x"}), ToolMessage)
    with pytest.raises(ValidationError) as exc:
        adapter.validate_python({"role": "tool", "content": 5})
    assert all(e["loc"][0] == "tool" for e in exc.value.errors())  # only the tool branch was tried
    assert isinstance(
        TypeAdapter(DocentChatMessage).validate_python({"role": "assistant", "content": ""}), DocentAssistantMessage
    )


def test_typeddicts_are_discriminated_and_strict() -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(td.ChatMessage)
    ok = {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "r"}], "tool_calls": None}
    assert adapter.validate_python(ok) == ok
    with pytest.raises(ValidationError) as exc:
        adapter.validate_python({"content": "x"})
    assert exc.value.errors()[0]["type"] == "union_tag_not_found"
    with pytest.raises(ValidationError):
        adapter.validate_python({"role": "user", "content": "x", "tool_call_id": ["a", 1]})
    with pytest.raises(ValidationError):
        TypeAdapter(td.ContentText).validate_python({"type": "text", "text": "x", "refusal": "yes"})


def test_typeddicts_keep_optional_and_nullable_apart() -> None:
    assert td.ContentReasoning.__required_keys__ == frozenset({"type", "reasoning"})
    assert "redacted" in td.ContentReasoning.__optional_keys__
    hints = td.ContentReasoning.__annotations__
    assert "None" not in str(hints["redacted"]) and "None" in str(hints["signature"])


def test_every_type_has_model_typeddict_and_vectors() -> None:
    vectors = {(v.schema_name, v.valid) for v in all_vectors()}
    missing = []
    for name in schemas.names():
        family, type_name = name.split("/")
        if not hasattr(importlib.import_module(f"chatschema.{family}"), type_name):
            missing.append(f"{name}: no Pydantic type")
        if not hasattr(importlib.import_module(f"chatschema.{family}.typeddicts"), type_name):
            missing.append(f"{name}: no TypedDict")
        for valid in (True, False):
            if (name, valid) not in vectors:
                missing.append(f"{name}: no {'valid' if valid else 'invalid'} vector")
    assert not missing
    assert {v.schema_name for v in all_vectors()} <= set(schemas.names()), "vectors for unknown types"


def test_exports_are_exactly_the_schema_types() -> None:
    for family in schemas.families():
        types = {n.split("/")[1] for n in schemas.names() if n.startswith(family + "/")}
        module = importlib.import_module(f"chatschema.{family}")
        unions = {n.split("/")[1] for n in schemas.unions() if n.startswith(family + "/")}
        exported = {n for n in module.__all__ if not n.startswith("parse_")}
        assert exported == types | {f"Unknown{union}" for union in unions}  # and each union's unknown variants
        assert set(importlib.import_module(f"chatschema.{family}.typeddicts").__all__) == types


def test_schema_names_and_validator() -> None:
    names = schemas.names()
    assert names == sorted(names) and "docent/ChatMessage" in names and "docent/ToolCall" in names
    v = schemas.validator("docent/ChatMessage", dispatch=False)
    assert isinstance(v, Draft202012Validator)
    assert v is schemas.validator("docent/ChatMessage", dispatch=False)
    assert v.format_checker is not None and "date-time" in v.format_checker.checkers


def test_validate_lists_every_violation_with_its_path() -> None:
    payload = {
        "role": "assistant",
        "content": [{"type": "text"}, {"type": "image"}],
        "tool_calls": [{"id": "c", "function": {"name": "f"}, "arguments": "{}"}],
    }
    with pytest.raises(schemas.PayloadError) as exc:
        schemas.validate(payload, "docent/ChatMessage")
    text = str(exc.value)
    assert text.startswith("payload is not a valid docent/ChatMessage (4 violations):")
    for fragment in (
        "$.content[0]: 'text' is a required property",
        "$.content[1]: unknown type 'image', expected one of 'text', 'reasoning'",
        "$.tool_calls[0].function: {'name': 'f'} is not of type 'string'",
        "$.tool_calls[0].arguments: '{}' is not of type 'object'",
    ):
        assert fragment in text
    assert isinstance(exc.value, ValueError)
    assert exc.value.violations[0].path == "$.content[0]"


def test_validate_explains_the_discriminator() -> None:
    assert [str(v) for v in schemas.violations({"content": "x"}, "docent/ChatMessage")] == [
        "$: missing discriminator 'role'"
    ]
    assert [str(v) for v in schemas.violations({"role": "developer", "content": "x"}, "docent/ChatMessage")] == [
        "$: unknown role 'developer', expected one of 'system', 'user', 'assistant', 'tool'"
    ]
    assert [str(v) for v in schemas.violations("hello", "docent/ChatMessage")] == ["$: 'hello' is not of type 'object'"]
    schemas.validate({"role": "user", "content": ""}, "docent/ChatMessage")


def test_unknown_schema_name_suggests_close_matches() -> None:
    with pytest.raises(schemas.UnknownSchemaError, match="did you mean docent/ChatMessage"):
        schemas.validator("docent/ChatMesage")
    with pytest.raises(KeyError):
        schemas.schema("nope/Nothing")


def test_registry_is_offline_and_from_the_installed_package(monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = Path(schemas.__file__).parent
    assert sorted(p.name for p in (shipped / "docent").glob("*.json")) == sorted(
        p.name for p in (ROOT / "schemas" / "docent").glob("*.json")
    )

    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the registry tried to use the network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    for vector in VECTORS:
        schemas.validator(vector.schema_name).is_valid(vector.load())
    remote = Draft202012Validator({"$ref": "https://example.com/x.json"}, registry=schemas.registry())
    with pytest.raises(Exception, match="Unresolvable"):
        remote.is_valid({})
