"""Against the real thing: letta-client 1.12.1 (Letta's Stainless-generated SDK) and our schemas agree.

Installed with `pip install letta-client==1.12.1` (it needs its dependencies: httpx, anyio, ...).

How letta-client parses. Its models subclass `letta_client._models.BaseModel`: a plain pydantic
BaseModel, lax (pydantic's default mode) and `extra="allow"`. Every tag (`message_type`, `type`) and
every field Letta's server defaults is typed `Optional[...] = None`, and the unions' discriminators are
Stainless `PropertyInfo` metadata that pydantic ignores, so pydantic sees plain smart unions.
A client made with `_strict_response_validation=True` parses with `_models.validate_type`, which is
`model_validate` for a class and `TypeAdapter(...).validate_python` for a union: that is what
`sdk_parse` does, and it is the only path that can reject anything. The default client parses with
`_models.construct_type`, which validates a union when it can and otherwise builds models with
`construct`, without any checking; it is tested on our valid vectors only (it must build the same
objects), since it accepts every payload.

Dumps. `model_dump(mode="json", exclude_unset=True)` (the SDK's own `to_dict()` default) writes back
what was given, with lax coercions applied ("5" -> 5), and no key the payload lacked; that is the dump
checked for vectors. `exclude_unset=False` adds every field, with `None` for each Optional default,
including `message_type: null` on a model built without its tag: it is the complete form, used for
models this file builds with every field set. In both, a UTC `date` comes out as `...Z`, where
Letta's server and our models write `+00:00`: the same instant, so dates are compared as instants.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from fnmatch import fnmatch
from typing import Any, get_args

import pytest
from letta_client._models import construct_type
from letta_client.types import StopReasonType, ToolReturnMessage
from letta_client.types import agents as la
from letta_client.types.agents import approval_response_message as arm
from letta_client.types.agents import image_content as ic
from letta_client.types.agents import letta_response as lr
from letta_client.types.agents import letta_streaming_response as lsr
from letta_client.types.agents import summary_message as sm
from pydantic import BaseModel, TypeAdapter, ValidationError

from chatschema import letta, schemas
from tests.vectors import Vector, all_vectors, model_adapter

# Our type name -> the letta-client type that parses that shape.
SDK_TYPES: dict[str, Any] = {
    "TextContent": la.TextContent,
    "UrlImage": ic.SourceURLImage,
    "Base64Image": ic.SourceBase64Image,
    "LettaImage": ic.SourceLettaImage,
    "ImageSource": ic.Source,
    "ImageContent": la.ImageContent,
    "UserContentPart": la.LettaUserMessageContentUnion,
    "ToolCall": la.ToolCall,
    "ToolCallDelta": la.ToolCallDelta,
    "ToolReturn": la.ToolReturn,
    "ToolResult": la.ToolReturn,  # the same class; its tag is optional outside the approvals union
    "ApprovalReturn": la.ApprovalReturn,
    "Approval": arm.Approval,
    # letta-client has no base class; LettaPing is exactly the base fields plus an optional "ping" tag.
    "LettaMessageBase": lsr.LettaPing,
    "SystemMessage": la.SystemMessage,
    "UserMessage": la.UserMessage,
    "AssistantMessage": la.AssistantMessage,
    "ReasoningMessage": la.ReasoningMessage,
    "HiddenReasoningMessage": la.HiddenReasoningMessage,
    "ToolCallMessage": la.ToolCallMessage,
    "ToolReturnMessage": ToolReturnMessage,
    "ApprovalRequestMessage": la.ApprovalRequestMessage,
    "ApprovalResponseMessage": la.ApprovalResponseMessage,
    "SummaryMessage": la.SummaryMessage,
    "EventMessage": la.EventMessage,
    "CompactionStats": sm.CompactionStats,
    "LettaMessage": la.Message,
    "LettaPing": lsr.LettaPing,
    "LettaErrorMessage": lsr.LettaErrorMessage,
    "LettaStopReason": lsr.LettaStopReason,
    "LettaUsageStatistics": lsr.LettaUsageStatistics,
    "LettaStreamingResponse": la.LettaStreamingResponse,
    "LettaResponse": la.LettaResponse,
    "LettaTurn": lr.Turn,
    "StopReasonType": StopReasonType,
    "ToolCallContent": la.ToolCallContent,
    "ToolReturnContent": la.ToolReturnContent,
    "ReasoningContent": la.ReasoningContent,
    "RedactedReasoningContent": la.RedactedReasoningContent,
    "OmittedReasoningContent": la.OmittedReasoningContent,
    # letta-client types MessageCreate.content's items as a TypedDict union only; its models, as a union
    "MessageContentPart": la.TextContent
    | la.ImageContent
    | la.ToolCallContent
    | la.ToolReturnContent
    | la.ReasoningContent
    | la.RedactedReasoningContent
    | la.OmittedReasoningContent,
}
# Letta Code's types (letta_code*.json): letta-client has none; tests/node/types/letta_code.ts checks
# them against Letta Code's own TypeScript types instead.
LETTA_CODE_TYPES = {
    name
    for name in (n.split("/")[1] for n in schemas.names() if n.startswith("letta/"))
    if getattr(letta, name).__module__.rsplit(".", 1)[1].startswith("letta_code")
}
# Types letta-client has no class for: the bodies of the `event: error` / `event: cancelled` SSE
# events that Letta's streaming_response.py writes without a `message_type`, and Letta Code's.
NOT_IN_LETTA_CLIENT = {"LettaSseError", "LettaSseCancelled"} | LETTA_CODE_TYPES
# Our types whose vectors letta-client parses into a class of another name (one class, two roles).
SDK_CLASS_OF_TYPE = {"ToolResult": "ToolReturn"}
# letta-client class names that differ from ours.
SDK_CLASS_NAMES = {
    "SourceURLImage": "UrlImage",
    "SourceBase64Image": "Base64Image",
    "SourceLettaImage": "LettaImage",
    "LettaAssistantMessageContentUnion": "TextContent",
    "Turn": "LettaTurn",
}

# Valid stream frames letta-client's LettaStreamingResponse union has no branch for (it omits the
# compaction frames letta_agent_v3.py streams): a test checks that it still fails on each.
NOT_IN_CLIENT_STREAM_UNION = {
    "letta/LettaStreamingResponse/valid/event_message_compaction_started.json",
    "letta/LettaStreamingResponse/valid/summary_message_compaction.json",
}
VECTORS = [
    v
    for v in all_vectors()
    if v.family == "letta" and v.type_name not in NOT_IN_LETTA_CLIENT and v.id not in NOT_IN_CLIENT_STREAM_UNION
]


@dataclass(frozen=True)
class Laxity:
    """Invalid vectors letta-client accepts, and why; `normalizes` says whether its dump is then valid."""

    id: str
    normalizes: bool
    reason: str
    vectors: frozenset[str]  # fnmatch patterns over vector ids

    def covers(self, vector_id: str) -> bool:
        return any(fnmatch(vector_id, pattern) for pattern in self.vectors)


_MESSAGE_BRANCHES = [
    "SystemMessage",
    "UserMessage",
    "AssistantMessage",
    "ReasoningMessage",
    "HiddenReasoningMessage",
    "ToolCallMessage",
    "ToolReturnMessage",
    "ApprovalRequestMessage",
    "ApprovalResponseMessage",
    "SummaryMessage",
    "EventMessage",
]
_TYPE_BRANCHES = [
    "TextContent",
    "ImageContent",
    "UrlImage",
    "Base64Image",
    "LettaImage",
    "ApprovalReturn",
    "ToolReturn",
]

# Every invalid vector letta-client accepts is listed here, exactly: a test fails on one it accepts
# that is not listed, on a listed one it rejects, and on a pattern that matches none.
SDK_LAXITIES: list[Laxity] = [
    Laxity(
        id="coerces",
        normalizes=True,
        reason=(
            "Lax pydantic coerces a number-like string to int, a bool-like string to bool, a unix number or a "
            "space-separated date to a datetime; the value it dumps is valid. Letta's own server models are "
            "lax pydantic too, so the server accepts these as well; our schema follows the wire format."
        ),
        vectors=frozenset(
            {
                "letta/*/invalid/seq_id_as_string.json",
                "letta/*/invalid/is_err_as_string_true.json",
                "letta/*/invalid/approve_as_string.json",
                "letta/CompactionStats/invalid/context_window_as_string.json",
                "letta/LettaUsageStatistics/invalid/total_tokens_as_string.json",
                "letta/LettaTurn/invalid/output_ids_as_strings.json",
                "letta/*/invalid/date_as_number.json",
                "letta/*/invalid/date_space_separator.json",
            }
        ),
    ),
    Laxity(
        id="untagged",
        normalizes=False,
        reason=(
            "Every tag is `Optional[Literal[...]] = None` and the union discriminators are metadata pydantic "
            "ignores, so an untagged payload parses as the first branch that fits (an untagged "
            "`{id, date, content}` becomes a SystemMessage) and dumps without a tag. Letta's server models "
            "default their tags too, but its unions require them, as ours do."
        ),
        vectors=frozenset(
            {
                *(f"letta/{t}/invalid/missing_message_type.json" for t in _MESSAGE_BRANCHES),
                *(f"letta/{t}/invalid/missing_message_type.json" for t in ("LettaPing", "LettaStopReason")),
                "letta/LettaUsageStatistics/invalid/missing_message_type.json",
                *(f"letta/{t}/invalid/missing_type.json" for t in _TYPE_BRANCHES),
                "letta/*/invalid/untagged_*.json",
                "letta/LettaResponse/invalid/message_untagged.json",
                "letta/UserMessage/invalid/content_part_missing_type.json",
                "letta/ImageContent/invalid/source_untagged.json",
                "letta/ApprovalResponseMessage/invalid/approvals_item_untagged.json",
            }
        ),
    ),
    Laxity(
        id="empty-tool-call-delta",
        normalizes=False,
        reason=(
            "letta-client's ToolCallDelta has no check that one of name, arguments, tool_call_id is present; "
            "Letta's server rejects `tool_call: {}` ('must contain either name or arguments'), as we do."
        ),
        vectors=frozenset(
            {
                "letta/ToolCallDelta/invalid/empty_object.json",
                "letta/ToolCallDelta/invalid/only_unknown_key.json",
                "letta/*/invalid/tool_call_empty_object.json",
                "letta/ToolCallMessage/invalid/tool_calls_empty_object.json",
            }
        ),
    ),
    Laxity(
        id="defaults-optional",
        normalizes=False,
        reason=(
            "letta-client types fields the server always fills (`source`, the usage counts) as Optional, so it "
            "accepts and dumps null there; the server writes a value (`non_reasoner_model`, 0), never null."
        ),
        vectors=frozenset(
            {
                "letta/ReasoningMessage/invalid/source_null.json",
                "letta/LettaMessage/invalid/reasoning_source_null.json",
                "letta/*/invalid/*completion_tokens_null.json",
            }
        ),
    ),
    Laxity(
        id="stop-frame-cursor",
        normalizes=False,
        reason=(
            "letta-client's LettaStopReason has no `run_id` or `seq_id` field: it keeps any value there as an "
            "unknown key, null included. Letta's stop reason has neither field; a background stream's stop "
            "frame carries a run id and a cursor, and the server only ever replaces a null with them."
        ),
        vectors=frozenset({"letta/LettaStreamingResponse/invalid/stop_reason_run_id_null.json"}),
    ),
    Laxity(
        id="naive-date",
        normalizes=False,
        reason=(
            "pydantic's datetime accepts a date-time without an offset and dumps it naive, which is not an "
            "RFC 3339 date-time. Letta's server reads a naive date as UTC and always writes `+00:00`."
        ),
        vectors=frozenset({"letta/*/invalid/date_without_offset.json"}),
    ),
]


def sdk_adapter(type_name: str) -> TypeAdapter[Any]:
    adapter: TypeAdapter[Any] = TypeAdapter(SDK_TYPES[type_name])
    return adapter


def sdk_parse(vector: Vector) -> Any:
    """Parse as a client with strict response validation does; raises ValidationError if it rejects."""
    return sdk_adapter(vector.type_name).validate_python(vector.load())


def sdk_dump(type_name: str, value: Any) -> Any:
    """What letta-client writes back from what it parsed: only the keys it was given (see the module doc)."""
    return sdk_adapter(type_name).dump_python(value, mode="json", exclude_unset=True)


def instants(value: Any) -> Any:
    """`value` with every `date` parsed, so that `...Z` and `...+00:00` compare equal."""
    if isinstance(value, dict):
        return {
            k: datetime.fromisoformat(v) if k == "date" and isinstance(v, str) else instants(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [instants(v) for v in value]
    return value


def kept(original: Any, dumped: Any) -> bool:
    """Whether `dumped` has everything `original` has, unchanged (keys it adds are fine)."""
    if isinstance(original, dict):
        return isinstance(dumped, dict) and all(k in dumped and kept(v, dumped[k]) for k, v in original.items())
    if isinstance(original, list):
        return (
            isinstance(dumped, list)
            and len(dumped) == len(original)
            and all(kept(a, b) for a, b in zip(original, dumped, strict=True))
        )
    return type(original) is type(dumped) and bool(original == dumped)


def laxity_of(vector: Vector) -> Laxity | None:
    found = [lax for lax in SDK_LAXITIES if lax.covers(vector.id)]
    assert len(found) <= 1, f"{vector.id} is listed under {[lax.id for lax in found]}"
    return found[0] if found else None


def test_every_type_is_mapped_to_letta_client() -> None:
    ours = {n.split("/")[1] for n in schemas.names() if n.startswith("letta/")}
    assert ours == set(SDK_TYPES) | NOT_IN_LETTA_CLIENT


@pytest.mark.parametrize("vector_id", sorted(NOT_IN_CLIENT_STREAM_UNION))
def test_letta_client_stream_union_misses_the_compaction_frames(vector_id: str) -> None:
    vector = next(v for v in all_vectors() if v.id == vector_id)
    schemas.validate(vector.load(), vector.schema_name)
    try:
        parsed = sdk_parse(vector)
    except ValidationError:
        return
    assert instants(sdk_dump(vector.type_name, parsed)) != instants(vector.load())


@pytest.mark.parametrize("vector", [v for v in VECTORS if v.valid], ids=lambda v: v.id)
def test_letta_client_accepts_our_valid_vectors_losslessly(vector: Vector) -> None:
    parsed = sdk_parse(vector)
    dumped = sdk_dump(vector.type_name, parsed)
    schemas.validate(dumped, vector.schema_name)
    assert instants(dumped) == instants(vector.load())
    # Both pick the same branch of a union (and the same class elsewhere).
    ours = model_adapter(vector.schema_name).validate_python(vector.load())
    sdk_name = type(parsed).__name__
    if vector.type_name != "LettaMessageBase":  # LettaPing stands in for the base class letta-client lacks
        assert SDK_CLASS_NAMES.get(sdk_name, sdk_name) == SDK_CLASS_OF_TYPE.get(
            type(ours).__name__, type(ours).__name__
        )


@pytest.mark.parametrize("vector", [v for v in VECTORS if v.valid], ids=lambda v: v.id)
def test_default_client_path_builds_the_same_objects(vector: Vector) -> None:
    """The default client's `construct_type` gives the class and dump that validation gives."""
    built = construct_type(value=vector.load(), type_=SDK_TYPES[vector.type_name])
    if not isinstance(vector.load(), dict):  # a Literal alias (StopReasonType): the value itself
        assert built == vector.load()
        return
    assert isinstance(built, BaseModel)
    validated = sdk_parse(vector)
    assert type(built) is type(validated)
    assert built.model_dump(mode="json", exclude_unset=True) == sdk_dump(vector.type_name, validated)


@pytest.mark.parametrize("vector", [v for v in VECTORS if not v.valid], ids=lambda v: v.id)
def test_letta_client_rejects_our_invalid_vectors_or_the_laxity_is_listed(vector: Vector) -> None:
    lax = laxity_of(vector)
    try:
        parsed = sdk_parse(vector)
    except ValidationError:
        assert lax is None, f"letta-client rejects {vector.id}, listed under {lax.id if lax else ''}"
        return
    assert lax is not None, f"letta-client accepts {vector.id}, which no SDK_LAXITIES entry lists"
    violations = schemas.violations(sdk_dump(vector.type_name, parsed), vector.schema_name)
    if lax.normalizes:
        assert violations == [], f"{vector.id}: letta-client's dump is not valid: {violations}"
    else:
        assert violations != [], f"{vector.id}: letta-client's dump is valid; list it under a normalizing entry"


def test_every_laxity_pattern_matches_a_vector() -> None:
    stale = [
        f"{lax.id}: {pattern}"
        for lax in SDK_LAXITIES
        for pattern in sorted(lax.vectors)
        if not any(fnmatch(v.id, pattern) and not v.valid for v in VECTORS)
    ]
    assert not stale, "SDK_LAXITIES patterns that match no invalid vector: " + ", ".join(stale)


# ---- letta-client models built with varied values: their dumps are valid and parse identically ----


def _opt(rng: random.Random, value: Any) -> Any:
    return value if rng.random() < 0.5 else None


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _text(rng: random.Random) -> str:
    return rng.choice(
        ["", "ok", "It is 18°C in Paris.", "emoji 🙂 and ünïcode", "line\nbreak", "x" * rng.randint(50, 400)]
    )


def _date(rng: random.Random) -> datetime:
    when = datetime(2025, 10, 1, tzinfo=UTC) + timedelta(seconds=rng.randint(0, 10**7))
    roll = rng.random()
    if roll < 0.6:
        return when  # what Letta's server writes: UTC, whole seconds
    if roll < 0.8:
        return when.replace(microsecond=rng.randint(1, 999_999))
    return when.astimezone(timezone(timedelta(minutes=rng.choice([-420, -240, 60, 330, 345]))))


def _base(rng: random.Random, message_id: str, part: int) -> dict[str, Any]:
    """The LettaMessage base fields, every one given (None where unset), as the server writes them."""
    otid = message_id.removeprefix("message-")[:-2] + f"{part:02x}"
    return {
        "id": message_id,
        "date": _date(rng),
        "name": _opt(rng, "Letta"),
        "otid": _opt(rng, otid),
        "sender_id": _opt(rng, f"identity-{rng.randint(1, 99)}"),
        "step_id": _opt(rng, f"step-{_uuid(rng)}"),
        "is_err": rng.choice([None, None, True]),
        "seq_id": _opt(rng, rng.randint(0, 10_000)),
        "run_id": _opt(rng, f"run-{_uuid(rng)}"),
    }


def _image(rng: random.Random) -> la.ImageContent:
    source: ic.Source
    roll = rng.random()
    if roll < 0.33:
        source = ic.SourceURLImage(type="url", url=f"https://example.com/{rng.randint(1, 9)}.png")
    elif roll < 0.66:
        source = ic.SourceBase64Image(
            type="base64", media_type="image/png", data="iVBORw0KGgo...", detail=_opt(rng, "auto")
        )
    else:
        source = ic.SourceLettaImage(
            type="letta",
            file_id=f"file-{_uuid(rng)}",
            media_type=_opt(rng, "image/jpeg"),
            data=_opt(rng, "/9j/4AAQ..."),
            detail=_opt(rng, "low"),
        )
    return la.ImageContent(type="image", source=source)


def _user_parts(rng: random.Random) -> list[la.LettaUserMessageContentUnion]:
    parts: list[la.LettaUserMessageContentUnion] = []
    for _ in range(rng.randint(0, 3)):
        if rng.random() < 0.5:
            parts.append(la.TextContent(type="text", text=_text(rng), signature=_opt(rng, "sig")))
        else:
            parts.append(_image(rng))
    return parts


def _call(rng: random.Random) -> la.ToolCall:
    args = {"query": _text(rng)[:40], "limit": rng.randint(1, 9), "request_heartbeat": rng.random() < 0.5}
    call_id = rng.choice(["call_", "toolu_01"]) + uuid.UUID(int=rng.getrandbits(128)).hex[:20]
    name = rng.choice(["web_search", "archival_memory_search", "send_message", "delete_file"])
    return la.ToolCall(name=name, arguments=json.dumps(args, ensure_ascii=False), tool_call_id=call_id)


def _tool_return(rng: random.Random, call_id: str) -> la.ToolReturn:
    content: str | list[la.tool_return.ToolReturnUnionMember0] = _text(rng)
    if rng.random() < 0.3:
        content = [la.TextContent(type="text", text=_text(rng)), _image(rng)]
    return la.ToolReturn(
        type="tool",
        tool_return=content,
        status=rng.choice(["success", "error"]),
        tool_call_id=call_id,
        stdout=_opt(rng, [_text(rng)]),
        stderr=_opt(rng, []),
    )


def _calls_messages(rng: random.Random, base: dict[str, Any], approval: bool) -> list[BaseModel]:
    """One complete ToolCallMessage (or ApprovalRequestMessage), or the stream of its chunks."""
    calls = [_call(rng) for _ in range(rng.randint(1, 3))]
    tag = "approval_request_message" if approval else "tool_call_message"
    cls = la.ApprovalRequestMessage if approval else la.ToolCallMessage
    if rng.random() < 0.4:
        return [cls(**base, message_type=tag, tool_call=calls[0], tool_calls=rng.choice([calls, None]))]
    # Streamed, as Letta's OpenAI interface sends it: name and id first, then argument fragments that are
    # not JSON on their own; `tool_calls` is the same delta, not a list; id and otid repeat, seq_id grows.
    first = calls[0]
    deltas = [la.ToolCallDelta(name=first.name, tool_call_id=first.tool_call_id)]
    cuts = sorted(rng.sample(range(1, len(first.arguments)), k=min(3, len(first.arguments) - 1)))
    for start, end in zip([0, *cuts], [*cuts, len(first.arguments)], strict=True):
        deltas.append(la.ToolCallDelta(arguments=first.arguments[start:end], tool_call_id=first.tool_call_id))
    seq = rng.randint(0, 1000)
    return [
        cls(**{**base, "seq_id": seq + i}, message_type=tag, tool_call=delta, tool_calls=delta)
        for i, delta in enumerate(deltas)
    ]


def _system(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    return [la.SystemMessage(**base, message_type="system_message", content=_text(rng))]


def _user(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    content: Any = _text(rng) if rng.random() < 0.4 else _user_parts(rng)
    return [la.UserMessage(**base, message_type="user_message", content=content)]


def _assistant(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    parts = [
        la.LettaAssistantMessageContentUnion(type="text", text=_text(rng), signature=_opt(rng, "sig"))
        for _ in range(rng.randint(0, 2))
    ]
    return [la.AssistantMessage(**base, message_type="assistant_message", content=rng.choice([_text(rng), parts]))]


def _reasoning(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    return [
        la.ReasoningMessage(
            **base,
            message_type="reasoning_message",
            source=rng.choice(["reasoner_model", "non_reasoner_model"]),
            reasoning=_text(rng),
            signature=_opt(rng, "ErUBCkYIBxgCIkB..."),
        )
    ]


def _hidden_reasoning(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    return [
        la.HiddenReasoningMessage(
            **base,
            message_type="hidden_reasoning_message",
            state=rng.choice(["redacted", "omitted"]),
            hidden_reasoning=_opt(rng, "EmwKAhgBEgy3va3pzix/LafPsn4a..."),
        )
    ]


def _tool_return_message(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    returns = [_tool_return(rng, _call(rng).tool_call_id) for _ in range(rng.randint(1, 2))]
    first_return = returns[0]
    return [
        ToolReturnMessage(
            **base,
            message_type="tool_return_message",
            tool_return=_text(rng),
            status=first_return.status,
            tool_call_id=first_return.tool_call_id,
            stdout=first_return.stdout,
            stderr=first_return.stderr,
            tool_returns=_opt(rng, returns),
        )
    ]


def _approval_response(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    approvals: list[arm.Approval] = [
        la.ApprovalReturn(type="approval", tool_call_id=f"call_{i}", approve=rng.random() < 0.5, reason=_opt(rng, "no"))
        if rng.random() < 0.7
        else _tool_return(rng, f"call_{i}")
        for i in range(rng.randint(0, 2))
    ]
    return [
        la.ApprovalResponseMessage(
            **base,
            message_type="approval_response_message",
            approvals=_opt(rng, approvals),
            approve=_opt(rng, rng.random() < 0.5),
            approval_request_id=_opt(rng, f"message-{_uuid(rng)}"),
            reason=_opt(rng, _text(rng)),
        )
    ]


def _summary(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    stats = sm.CompactionStats(
        trigger=rng.choice(["context_window_exceeded", "post_step_context_check"]),
        context_tokens_before=_opt(rng, rng.randint(1000, 200_000)),
        context_tokens_after=_opt(rng, rng.randint(100, 20_000)),
        context_window=rng.choice([8192, 128_000, 200_000]),
        messages_count_before=rng.randint(10, 500),
        messages_count_after=rng.randint(1, 10),
    )
    return [
        la.SummaryMessage(**base, message_type="summary_message", summary=_text(rng), compaction_stats=_opt(rng, stats))
    ]


def _event(rng: random.Random, base: dict[str, Any]) -> list[BaseModel]:
    event_data = {
        "trigger": "context_window_exceeded",
        "messages_removed": rng.randint(1, 200),
        "nested": {"k": [1, None]},
    }
    return [la.EventMessage(**base, message_type="event_message", event_type="compaction", event_data=event_data)]


# Message kinds by number; kinds 5 and 7 are tool calls, plain and awaiting approval.
_GROUPS: tuple[Callable[[random.Random, dict[str, Any]], list[BaseModel]], ...] = (
    _system,
    _user,
    _assistant,
    _reasoning,
    _hidden_reasoning,
    lambda rng, base: _calls_messages(rng, base, approval=False),
    _tool_return_message,
    lambda rng, base: _calls_messages(rng, base, approval=True),
    _approval_response,
    _summary,
    _event,
)


def _message_group(rng: random.Random, kind: int) -> list[BaseModel]:
    message_id = f"message-{_uuid(rng)}"
    base = _base(rng, message_id, rng.randint(0, 127))
    return _GROUPS[min(kind, len(_GROUPS) - 1)](rng, base)


def letta_client_messages(count: int, seed: int = 20261122) -> list[BaseModel]:
    """LettaMessages built with letta-client's classes: every message type, complete and streamed."""
    rng = random.Random(seed)
    out: list[BaseModel] = []
    while len(out) < count:
        out.extend(_message_group(rng, len(out) % 11))
    return out


def letta_client_frames(seed: int = 20261123) -> list[BaseModel]:
    """The stream-only frames: pings, errors, every stop reason, usage."""
    rng = random.Random(seed)
    frames: list[BaseModel] = []
    for i in range(30):
        frames.append(lsr.LettaPing(**_base(rng, f"message-{_uuid(rng)}", i), message_type="ping"))
        frames.append(
            lsr.LettaErrorMessage(
                message_type="error_message",
                run_id=f"run-{_uuid(rng)}",
                error_type=rng.choice(["llm_error", "internal_error", "context_window_exceeded"]),
                message=_text(rng),
                detail=_opt(rng, "429 rate limited"),
                seq_id=_opt(rng, rng.randint(0, 10_000)),
            )
        )
        frames.append(
            lsr.LettaUsageStatistics(
                message_type="usage_statistics",
                completion_tokens=rng.randint(0, 5000),
                prompt_tokens=rng.randint(0, 100_000),
                total_tokens=rng.randint(0, 105_000),
                step_count=rng.randint(0, 20),
                run_ids=_opt(rng, [f"run-{_uuid(rng)}"]),
                cached_input_tokens=_opt(rng, rng.randint(0, 5000)),
                cache_write_tokens=_opt(rng, 0),
                reasoning_tokens=_opt(rng, rng.randint(0, 900)),
                context_tokens=_opt(rng, rng.randint(0, 128_000)),
            )
        )
    frames.extend(lsr.LettaStopReason(message_type="stop_reason", stop_reason=r) for r in get_args(StopReasonType))
    return frames


def _check_frame(model: BaseModel, schema_name: str) -> None:
    """`model`'s wire and complete dumps are valid under `schema_name`, and parse in our models."""
    parse = letta.parse_letta_message if schema_name == "letta/LettaMessage" else letta.parse_letta_streaming_response
    # The wire form: Letta's SSE writes every top-level field (nulls too) but nested ToolCallDeltas without
    # their unset keys; building every top-level field and only the delta's own keys, exclude_unset=True
    # reproduces exactly that. Our dump may add the delta's null keys; it loses and changes nothing.
    wire = model.model_dump(mode="json", exclude_unset=True)
    schemas.validate(wire, schema_name)
    assert kept(instants(wire), instants(parse(wire).model_dump(mode="json")))
    # The complete form (every key, None included): our dump equals letta-client's, and letta-client
    # parses our dump back to the same thing.
    complete = model.model_dump(mode="json")
    schemas.validate(complete, schema_name)
    ours = parse(complete).model_dump(mode="json")
    assert instants(ours) == instants(complete)
    again = sdk_adapter(schema_name.removeprefix("letta/"))
    assert again.dump_python(again.validate_python(ours), mode="json") == complete


STREAM_ONLY = (lsr.LettaPing, lsr.LettaErrorMessage, lsr.LettaStopReason, lsr.LettaUsageStatistics)
# The server streams these (compaction frames, see letta/LettaStreamingResponse), but letta-client's
# LettaStreamingResponse union lacks them, so they are checked as LettaMessages only.
NEVER_STREAMED = (la.SummaryMessage, la.EventMessage)


def test_letta_client_message_dumps_validate_and_parse_identically() -> None:
    messages = letta_client_messages(400)
    kinds = {type(m).__name__ for m in messages}
    assert len(kinds) == 11, kinds
    deltas = [m for m in messages if isinstance(m, la.ToolCallMessage) and isinstance(m.tool_call, la.ToolCallDelta)]
    assert any(d.tool_call.arguments is None for d in deltas) and any(d.tool_call.name is None for d in deltas)
    for message in messages:
        _check_frame(message, "letta/LettaMessage")
        if not isinstance(message, NEVER_STREAMED):
            _check_frame(message, "letta/LettaStreamingResponse")


def test_letta_client_stream_frames_validate_and_parse_identically() -> None:
    for frame in letta_client_frames():
        assert isinstance(frame, STREAM_ONLY)
        _check_frame(frame, "letta/LettaStreamingResponse")


def test_letta_client_responses_validate_and_parse_identically() -> None:
    rng = random.Random(7)
    messages = [m for m in letta_client_messages(60, seed=8) if not isinstance(m, NEVER_STREAMED)]
    for i in range(10):
        response = la.LettaResponse(
            messages=rng.sample(messages, k=rng.randint(0, 8)),
            stop_reason=lr.StopReason(message_type="stop_reason", stop_reason=rng.choice(get_args(StopReasonType))),
            usage=lr.Usage(
                message_type="usage_statistics",
                completion_tokens=i,
                prompt_tokens=10 * i,
                total_tokens=11 * i,
                step_count=1,
                run_ids=None,
                cached_input_tokens=None,
                cache_write_tokens=None,
                reasoning_tokens=None,
                context_tokens=None,
            ),
            logprobs=_opt(rng, lr.Logprobs(content=[lr.LogprobsContent(token="It", logprob=-0.01, top_logprobs=[])])),
            turns=_opt(rng, [lr.Turn(role="tool", content="ok", tool_name="web_search")]),
        )
        complete = response.model_dump(mode="json")
        schemas.validate(complete, "letta/LettaResponse")
        assert instants(letta.LettaResponse.model_validate(complete).model_dump(mode="json")) == instants(complete)
