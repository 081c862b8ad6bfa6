"""Against the real thing: Docent 0.1.88's own models and our schemas agree.

Installed with `pip install --no-deps docent==0.1.88` (it imports with only pydantic).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from docent.data_models import agent_run as drun
from docent.data_models import citation as dc
from docent.data_models import transcript as dt
from docent.data_models.chat import content as dcontent
from docent.data_models.chat import message as dm
from docent.data_models.chat import tool as dtool
from pydantic import BaseModel, TypeAdapter, ValidationError

from chatschema import schemas
from chatschema.docent import AgentRun, parse_chat_message, parse_docent_chat_message
from tests.vectors import Vector, all_vectors

# Our type name -> how Docent parses that shape.
DOCENT_TYPES: dict[str, Any] = {
    "ContentText": dcontent.ContentText,
    "ContentReasoning": dcontent.ContentReasoning,
    "Content": dcontent.Content,
    "ToolCallContent": dtool.ToolCallContent,
    "ToolCall": dtool.ToolCall,
    "ToolParam": dtool.ToolParam,
    "ToolParams": dtool.ToolParams,
    "ToolInfo": dtool.ToolInfo,
    "CitationTargetTextRange": dc.CitationTargetTextRange,
    "AgentRunMetadataItem": dc.AgentRunMetadataItem,
    "TranscriptMetadataItem": dc.TranscriptMetadataItem,
    "TranscriptBlockMetadataItem": dc.TranscriptBlockMetadataItem,
    "TranscriptBlockContentItem": dc.TranscriptBlockContentItem,
    "ReadingResultItem": dc.ReadingResultItem,
    "CitationItem": dc.ResolvedCitationItemUnion,
    "CitationTarget": dc.CitationTarget,
    "InlineCitation": dc.InlineCitation,
    "MessageContent": str | list[dcontent.Content],
    "SystemMessage": dm.SystemMessage,
    "UserMessage": dm.UserMessage,
    "AssistantMessage": dm.AssistantMessage,
    "DocentAssistantMessage": dm.DocentAssistantMessage,
    "ToolMessage": dm.ToolMessage,
    "Timestamp": datetime,
    "Transcript": dt.Transcript,
    "TranscriptGroup": dt.TranscriptGroup,
    "AgentRun": drun.AgentRun,
}
PARSERS = {"ChatMessage": dm.parse_chat_message, "DocentChatMessage": dm.parse_docent_chat_message}

VECTORS = [v for v in all_vectors() if v.family == "docent"]


def docent_parse(vector: Vector) -> Any:
    """Parse with Docent's own code; raises ValueError (ValidationError is one) if Docent rejects."""
    payload = vector.load()
    if vector.type_name in PARSERS:
        if not isinstance(payload, dict):
            raise ValueError("Docent's parse functions take dicts")
        return PARSERS[vector.type_name](payload)
    return TypeAdapter(DOCENT_TYPES[vector.type_name]).validate_python(payload)


def docent_dump(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return TypeAdapter(type(value)).dump_python(value, mode="json")


def test_every_type_is_mapped_to_docent() -> None:
    ours = {n.split("/")[1] for n in schemas.names() if n.startswith("docent/")}
    assert ours == set(DOCENT_TYPES) | set(PARSERS)


@pytest.mark.parametrize("vector", [v for v in VECTORS if v.valid], ids=lambda v: v.id)
def test_docent_accepts_our_valid_vectors(vector: Vector) -> None:
    docent_parse(vector)


@pytest.mark.parametrize("vector", [v for v in VECTORS if not v.valid], ids=lambda v: v.id)
def test_docent_rejects_our_invalid_vectors_or_normalizes_them(vector: Vector) -> None:
    """Docent rejects what we reject, except where its lax parsing coerces or fills in a value;
    then what Docent produces from the payload is valid under our schema, so the schema still
    describes everything Docent emits."""
    try:
        parsed = docent_parse(vector)
    except (ValueError, TypeError):
        return
    schemas.validate(docent_dump(parsed), vector.schema_name)


def _text(rng: random.Random) -> str:
    return rng.choice(["", "ok", "Paris.", "emoji 🙂 and ünïcode", "line\nbreak", "x" * rng.randint(50, 400)])


def _opt(rng: random.Random, value: Any) -> Any:
    return value if rng.random() < 0.5 else None


def _content(rng: random.Random) -> Any:
    if rng.random() < 0.4:
        return _text(rng)
    parts: list[Any] = []
    for _ in range(rng.randint(0, 3)):
        if rng.random() < 0.6:
            parts.append(dcontent.ContentText(text=_text(rng), refusal=rng.choice([None, True, False])))
        else:
            redacted = rng.random() < 0.3
            parts.append(
                dcontent.ContentReasoning(
                    reasoning="" if redacted else _text(rng),
                    summary=_opt(rng, _text(rng)),
                    signature=_opt(rng, "ErUBCkYIBxgCIkB"),
                    redacted=redacted,
                )
            )
    return parts


def _tool_call(rng: random.Random, i: int) -> dtool.ToolCall:
    broken = rng.random() < 0.2
    view = _opt(rng, dtool.ToolCallContent(title=_opt(rng, "t"), format=rng.choice(["text", "markdown"]), content="c"))
    return dtool.ToolCall(
        id=f"call_{i}",
        function=rng.choice(["bash", "calculator", "unknown"]),
        arguments={"__parse_error_raw_args": '{"cmd": "ls'} if broken else {"a": i, "nested": {"k": [1, 2.5, None]}},
        type=rng.choice(["function", None]),
        parse_error="Couldn't parse tool call arguments as JSON" if broken else None,
        view=view,
        google_thought_signature=_opt(rng, "c2lnbmF0dXJl"),
    )


def _citation(rng: random.Random) -> dc.InlineCitation:
    ids = {"agent_run_id": "run-1", "collection_id": "c-1"}
    item = rng.choice(
        [
            dc.AgentRunMetadataItem(**ids, metadata_key="score"),
            dc.TranscriptMetadataItem(**ids, transcript_id="t", metadata_key="k"),
            dc.TranscriptBlockMetadataItem(**ids, transcript_id="t", block_idx=3, metadata_key="k"),
            dc.TranscriptBlockContentItem(**ids, transcript_id="t", block_idx=3, content_idx=_opt(rng, 0)),
            dc.ReadingResultItem(reading_result_id="r", collection_id="c"),
        ]
    )
    text_range = _opt(rng, dc.CitationTargetTextRange(start_pattern="I give up", target_start_idx=_opt(rng, 4)))
    return dc.InlineCitation(start_idx=0, end_idx=5, target=dc.CitationTarget(item=item, text_range=text_range))


def docent_messages(count: int, seed: int = 20261122) -> list[dm.BaseChatMessage]:
    """Messages built with Docent's own classes and varied field values."""
    rng = random.Random(seed)
    out: list[dm.BaseChatMessage] = []
    for i in range(count):
        common = {"id": _opt(rng, f"msg_{i}"), "content": _content(rng), "metadata": _opt(rng, {"latency_ms": i})}
        kind = i % 5
        if kind == 0:
            out.append(dm.SystemMessage(**common))
        elif kind == 1:
            out.append(dm.UserMessage(**common, tool_call_id=_opt(rng, [f"call_{i}", "call_x"])))
        elif kind == 2:
            calls = _opt(rng, [_tool_call(rng, j) for j in range(rng.randint(0, 3))])
            out.append(dm.AssistantMessage(**common, model=_opt(rng, "claude-sonnet-4-5"), tool_calls=calls))
        elif kind == 3:
            out.append(
                dm.DocentAssistantMessage(
                    **common,
                    citations=_opt(rng, [_citation(rng) for _ in range(rng.randint(0, 3))]),
                    suggested_messages=_opt(rng, ["Why?"]),
                )
            )
        else:
            out.append(
                dm.ToolMessage(
                    **common,
                    tool_call_id=_opt(rng, f"call_{i}"),
                    function=_opt(rng, "bash"),
                    error=_opt(rng, {"type": "parsing", "message": "bad"}),
                )
            )
    return out


def test_docent_dumps_validate_and_parse_identically() -> None:
    messages = docent_messages(500)
    for message in messages:
        dumped = message.model_dump(mode="json")
        docent_union = isinstance(message, dm.DocentAssistantMessage)
        name = "docent/DocentChatMessage" if docent_union else "docent/ChatMessage"
        schemas.validate(dumped, name)
        ours = (parse_docent_chat_message if docent_union else parse_chat_message)(dumped)
        assert ours.model_dump(mode="json") == dumped
        assert ours.text == message.text


def _created_at(rng: random.Random) -> datetime | None:
    """A creation time as Docent users make them: none, naive (`datetime.now()`), UTC, or another offset."""
    moment = datetime(2025, 10, 1, 12, 30, 45, rng.choice([0, 500_000, 123_456]))
    return rng.choice([None, moment, moment.replace(tzinfo=UTC), moment.replace(tzinfo=timezone(timedelta(hours=-5)))])


def docent_runs(count: int, seed: int = 20261127) -> list[drun.AgentRun]:
    """Agent runs built with Docent's own classes: transcripts of Docent messages in nested groups."""
    rng = random.Random(seed)
    messages = [m for m in docent_messages(200, seed) if not isinstance(m, dm.DocentAssistantMessage)]
    runs = []
    for i in range(count):
        groups = [dt.TranscriptGroup(name=f"group {g}", created_at=_created_at(rng)) for g in range(rng.randint(0, 2))]
        for child, parent in zip(groups[1:], groups, strict=False):
            child.parent_transcript_group_id = parent.id
        transcripts = [
            dt.Transcript(
                name=_opt(rng, f"attempt {t}"),
                transcript_group_id=rng.choice(groups).id if groups else None,
                created_at=_created_at(rng),
                messages=rng.sample(messages, rng.randint(0, 6)),
                metadata=rng.choice([{}, {"score": t / 2, "tags": ["a", None]}]),
            )
            for t in range(rng.randint(1, 3))
        ]
        runs.append(
            drun.AgentRun(
                name=_opt(rng, f"run {i}"), transcripts=transcripts, transcript_groups=groups, metadata={"i": i}
            )
        )
    return runs


def test_docent_agent_run_dumps_validate_and_parse_identically() -> None:
    for run in docent_runs(60):
        dumped = run.model_dump(mode="json")
        schemas.validate(dumped, "docent/AgentRun")
        assert AgentRun.model_validate(dumped).model_dump(mode="json") == dumped
        assert drun.AgentRun.model_validate(dumped).model_dump(mode="json") == dumped  # and back into Docent


def test_docent_tool_info_dumps_validate() -> None:
    info = dtool.ToolInfo(
        name="calculator",
        description="Basic arithmetic",
        parameters=dtool.ToolParams(
            properties={"a": dtool.ToolParam(name="a", description="first", input_schema={"type": "number"})},
            required=["a"],
        ),
    )
    for value in (info, dtool.ToolInfo(name="noop", description="nothing")):
        schemas.validate(value.model_dump(mode="json"), "docent/ToolInfo")


def test_docent_rejects_what_the_documented_negative_cases_name() -> None:
    with pytest.raises(ValidationError):
        dm.parse_chat_message(
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c", "function": "f", "arguments": "{}"}]}
        )
