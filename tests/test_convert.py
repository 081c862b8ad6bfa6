"""Letta to Docent (chatschema.convert): both ends checked, nothing lost, every set-aside value named.

The output of every conversion is valid under `docent/AgentRun` and accepted by docent 0.1.88's
own `AgentRun`; every field of every Letta message is either carried by a Docent field or kept in
the Docent message's `metadata["letta"]`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from docent.data_models import agent_run as docent_run

from chatschema import schemas
from chatschema.bridgic import Message as BridgicMessage
from chatschema.convert import ConversionError, bridgic_to_docent, docent_to_letta, letta_to_docent, swarm_to_docent
from chatschema.convert.letta import CARRIED
from chatschema.convert.run import Conversion
from chatschema.docent import AgentRun
from chatschema.letta.stream import reassemble_sse

EXAMPLES = Path(__file__).parent.parent / "schemas" / "letta" / "examples"
BASE = {"date": "2025-10-01T12:30:45+00:00", "name": None, "sender_id": None, "is_err": None, "step_id": "step-1"}


def _message(kind: str, id_: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": id_,
        "message_type": kind,
        "otid": f"{id_}-{kind}",
        "seq_id": None,
        "run_id": "run-1",
        **BASE,
        **fields,
    }


def _call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"tool_call_id": call_id, "name": name, "arguments": arguments}


def _calls(id_: str, *calls: dict[str, Any]) -> dict[str, Any]:
    return _message("tool_call_message", id_, tool_call=calls[0], tool_calls=list(calls))


def _result(id_: str, call_id: str, text: str, status: str = "success") -> dict[str, Any]:
    return _message(
        "tool_return_message", id_, tool_return=text, status=status, tool_call_id=call_id, stdout=None, stderr=None
    )


CONVERSATION = [
    _message("system_message", "m-0", content="You are terse."),
    _message("user_message", "m-1", content="Weather in Paris and Tokyo?"),
    _message("reasoning_message", "m-2", reasoning="Two cities: two calls.", source="reasoner_model", signature="sig"),
    _calls("m-2", _call("c-1", "weather", '{"city": "Paris"}'), _call("c-2", "weather", '{"city": "Tokyo"}')),
    _result("m-3", "c-2", "31C"),
    _result("m-4", "c-1", "timeout", status="error"),
    _message("hidden_reasoning_message", "m-5", state="redacted", hidden_reasoning="blob"),
    _message("assistant_message", "m-5", content="Tokyo is 31C; Paris did not answer."),
]


def _checked(run: AgentRun) -> dict[str, Any]:
    """The run as JSON, after both checks of the Docent end: our schema and Docent's own model."""
    dumped = run.model_dump(mode="json")
    schemas.validate(dumped, "docent/AgentRun")
    docent_run.AgentRun.model_validate(dumped)
    return dumped


def _entries(dumped: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for m in dumped["transcripts"][0]["messages"] for e in (m["metadata"] or {}).get("letta", [])]


def _assert_nothing_lost(messages: list[dict[str, Any]], dumped: dict[str, Any]) -> None:
    """Each Letta message's fields are in one metadata entry, but for those Docent's own fields carry."""
    entries = _entries(dumped)
    for message in messages:
        kind = message["message_type"]
        if kind == "event_message":
            assert {"index": messages.index(message), **message} in dumped["transcripts"][0]["metadata"]["letta"][
                "events"
            ]
            continue
        same = ("id", "message_type", "otid")
        found = [e for e in entries if all(e.get(k) == message.get(k) for k in same)]
        assert len(found) == 1, (message, entries)
        entry = found[0]
        assert all(message[k] == v for k, v in entry.items() if k in message), (message, entry)
        carried = CARRIED[kind] | (
            {"tool_return", "tool_call_id", "tool_returns"} if kind == "tool_return_message" else set()
        )
        assert set(message) - set(entry) <= carried, (kind, set(message) - set(entry))


def test_a_turn_becomes_one_assistant_message_and_results_pair_with_their_calls() -> None:
    dumped = _checked(letta_to_docent(CONVERSATION, name="weather"))
    messages = dumped["transcripts"][0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "tool", "assistant"]
    turn = messages[2]
    assert turn["id"] == "m-2" and turn["content"] == [
        {
            "type": "reasoning",
            "reasoning": "Two cities: two calls.",
            "summary": None,
            "signature": "sig",
            "redacted": False,
        }
    ]
    assert [(c["id"], c["function"], c["arguments"]) for c in turn["tool_calls"]] == [
        ("c-1", "weather", {"city": "Paris"}),
        ("c-2", "weather", {"city": "Tokyo"}),
    ]
    tokyo, paris = messages[3], messages[4]
    assert (tokyo["tool_call_id"], tokyo["function"], tokyo["content"], tokyo["error"]) == (
        "c-2",
        "weather",
        "31C",
        None,
    )
    assert paris["error"] == {"type": "unknown", "message": "timeout"}
    reply = messages[5]
    assert reply["content"] == [
        {"type": "reasoning", "reasoning": "", "summary": None, "signature": "blob", "redacted": True},
        {"type": "text", "text": "Tokyo is 31C; Paris did not answer.", "refusal": None},
    ]
    assert dumped["name"] == "weather"
    _assert_nothing_lost(CONVERSATION, dumped)


def test_arguments_that_are_not_a_json_object_are_kept_as_docent_keeps_them() -> None:
    messages = [_calls("m-1", _call("c-1", "run", '{"cmd": "ls'), _call("c-2", "run", "[1]"))]
    calls = _checked(letta_to_docent(messages))["transcripts"][0]["messages"][0]["tool_calls"]
    assert [c["arguments"] for c in calls] == [
        {"__parse_error_raw_args": '{"cmd": "ls'},
        {"__parse_error_raw_args": "[1]"},
    ]
    assert all(c["parse_error"] == "the arguments are not a JSON object" for c in calls)


def test_parallel_returns_become_one_tool_message_each() -> None:
    result = _result("m-2", "c-1", "a") | {
        "tool_returns": [
            {
                "type": "tool",
                "tool_return": "a",
                "status": "success",
                "tool_call_id": "c-1",
                "stdout": ["x"],
                "stderr": None,
            },
            {
                "type": "tool",
                "tool_return": "b",
                "status": "error",
                "tool_call_id": "c-2",
                "stdout": None,
                "stderr": ["y"],
            },
        ]
    }
    messages = [_calls("m-1", _call("c-1", "f", "{}"), _call("c-2", "g", "{}")), result]
    dumped = _checked(letta_to_docent(messages))
    tools = dumped["transcripts"][0]["messages"][1:]
    assert [(t["tool_call_id"], t["function"], t["content"], t["error"]) for t in tools] == [
        ("c-1", "f", "a", None),
        ("c-2", "g", "b", {"type": "unknown", "message": "b"}),
    ]
    items = [t["metadata"]["letta"][0]["tool_returns_item"] for t in tools]
    assert items == [
        {"index": 0, "type": "tool", "status": "success", "stdout": ["x"], "stderr": None},
        {"index": 1, "type": "tool", "status": "error", "stdout": None, "stderr": ["y"]},
    ]
    _assert_nothing_lost(messages, dumped)


def test_approvals_answer_their_calls() -> None:
    calls = [_call("c-1", "rm", '{"path": "/tmp/x"}'), _call("c-2", "ls", "{}")]
    request = _message("approval_request_message", "m-1", tool_call=calls[0], tool_calls=calls)
    decision = {"type": "approval", "tool_call_id": "c-1", "approve": False, "reason": "not that file"}
    client_ran = {
        "type": "tool",
        "tool_return": "done",
        "status": "success",
        "tool_call_id": "c-2",
        "stdout": None,
        "stderr": None,
    }
    response = _message("approval_response_message", "m-2", approvals=[decision, client_ran])
    dumped = _checked(letta_to_docent([request, response]))
    asked, answered, ran = dumped["transcripts"][0]["messages"]
    assert asked["tool_calls"][0]["function"] == "rm"
    assert asked["metadata"]["letta"][0]["message_type"] == "approval_request_message"
    assert (answered["role"], answered["tool_call_id"], answered["content"]) == ("user", ["c-1"], "")
    assert answered["metadata"]["letta"] == [response]
    assert (ran["role"], ran["tool_call_id"], ran["function"], ran["content"]) == ("tool", "c-2", "ls", "done")


def test_the_deprecated_single_decision_answers_its_call() -> None:
    request = _message("approval_request_message", "m-1", tool_call=_call("c-1", "rm", "{}"), tool_calls=None)
    single = _message("approval_response_message", "m-2", approve=True, approval_request_id="c-1", approvals=None)
    dumped = _checked(letta_to_docent([request, single]))
    assert dumped["transcripts"][0]["messages"][1]["tool_call_id"] == ["c-1"]
    assert docent_to_letta(letta_to_docent([request, single])) == [request, single]


def test_every_valid_letta_message_example_converts_and_loses_nothing() -> None:
    paths = sorted((EXAMPLES / "LettaMessage" / "valid").glob("*.json"))
    assert paths
    for path in paths:
        message = json.loads(path.read_text())
        dumped = _checked(letta_to_docent([message], strict=False))  # a lone result answers no call
        _assert_nothing_lost([message], dumped)


LONE_RESULTS = {"tool_returns_without_type"}  # a stream whose tool result answers a call made before it began
STREAMS = [p for p in sorted((EXAMPLES / "streams").glob("*.json")) if "expected" in json.loads(p.read_text())]


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: p.stem)
def test_every_stream_example_converts_after_reassembly(path: Path) -> None:
    example = json.loads(path.read_text())
    stream = reassemble_sse("".join(example["sse"]), **example["options"])
    # frames of later types (kept with unknown="keep") have no counterpart: set aside, not converted
    dumped = _checked(letta_to_docent(stream, strict=path.stem not in LONE_RESULTS and not stream.unknown))
    if stream.unknown:
        aside = dumped["metadata"]["chatschema"]["set_aside"]
        assert [a["value"] for a in aside] == [u.raw for u in stream.unknown]
    _assert_nothing_lost([m.model_dump(mode="json", by_alias=True) for m in stream.messages], dumped)
    if stream.stop_reason is not None:
        assert dumped["metadata"]["letta"]["stop_reason"] == stream.stop_reason.model_dump(mode="json")


def test_a_letta_response_keeps_its_stop_reason_and_usage() -> None:
    response = json.loads((EXAMPLES / "LettaResponse" / "valid" / "full_response.json").read_text())
    dumped = _checked(letta_to_docent(response))
    assert dumped["metadata"]["letta"] == {"stop_reason": response["stop_reason"], "usage": response["usage"]}


def test_a_letta_response_whose_stop_reason_or_usage_is_invalid_is_refused_or_set_aside() -> None:
    response = json.loads((EXAMPLES / "LettaResponse" / "valid" / "full_response.json").read_text())
    response["stop_reason"] = {**response["stop_reason"], "stop_reason": 42}
    response["usage"] = {**response["usage"], "completion_tokens": "many"}
    with pytest.raises(
        ConversionError, match=r"^\$\.stop_reason\.stop_reason: not a LettaStopReason: 42 is not one of"
    ):
        letta_to_docent(response)
    dumped = _checked(letta_to_docent(response, strict=False))
    assert "letta" not in dumped["metadata"]  # nothing invalid is copied
    aside = dumped["metadata"]["chatschema"]["set_aside"]
    assert [(a["field"], a["value"]) for a in aside] == [
        ("$.stop_reason.stop_reason", response["stop_reason"]),
        ("$.usage.completion_tokens", response["usage"]),
    ]
    # hostile parts: too deep to serialize, code-like text, nothing at all, a number beyond a double
    valid = json.loads((EXAMPLES / "LettaResponse" / "valid" / "full_response.json").read_text())
    deep: dict[str, Any] = {}
    for _ in range(5000):
        deep = {"a": deep}
    with pytest.raises(
        ConversionError,
        match=r"^\$\.usage: not a LettaUsageStatistics: nesting too deep: more than 1024 levels; cannot",
    ):
        letta_to_docent({**valid, "usage": deep}, strict=False)  # deeper than any reader: an error even when lenient
    with pytest.raises(
        ConversionError, match=r"^\$\.usage: not a LettaUsageStatistics: .* cannot be set aside: integer"
    ):
        letta_to_docent({**valid, "usage": 10**400}, strict=False)  # no valid run holds it
    with pytest.raises(ConversionError, match=r"^message 0: .* cannot be set aside: integer"):
        letta_to_docent([_message("user_message", "m-1", content="hi", seq_id=10**400)], strict=False)
    hostiles: list[Any] = ['__import__("os").system("x")', {}, [], 10**400]
    for hostile in hostiles:
        with pytest.raises(ConversionError, match=r"^\$\.usage(\.\w+)?: not a LettaUsageStatistics: "):
            letta_to_docent({**valid, "usage": hostile})
    for hostile in hostiles[:-1]:
        lenient = _checked(letta_to_docent({**valid, "usage": hostile}, strict=False))
        assert [a["value"] for a in lenient["metadata"]["chatschema"]["set_aside"]] == [hostile]
        assert "usage" not in lenient["metadata"]["letta"]
    # the messages alone (what a user gives as `{"messages": [...]}`) are still a whole input
    del response["stop_reason"], response["usage"]
    assert _checked(letta_to_docent(response))["metadata"] == {}


def test_an_event_is_kept_in_the_transcripts_metadata_at_its_place() -> None:
    event = _message("event_message", "m-2", event_type="compaction", event_data={"before": 10, "after": 2})
    messages = [_message("user_message", "m-1", content="hi"), event]
    dumped = _checked(letta_to_docent(messages))
    assert dumped["transcripts"][0]["metadata"]["letta"]["events"] == [{"index": 1, **event}]
    assert len(dumped["transcripts"][0]["messages"]) == 1


IMAGE = {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}
HOSTILE = [
    (
        [_message("user_message", "m-1", content=[{"type": "text", "text": "see"}, IMAGE])],
        "message 0: user_message.content[1]: a Docent message holds no image part",
    ),
    ([_result("m-1", "c-9", "x")], "message 0: tool_return_message.tool_call_id: 'c-9' answers no tool call before it"),
    (
        [_message("tool_call_message", "m-1", tool_call={"arguments": '{"a'}, tool_calls={"arguments": '{"a'})],
        "message 0: tool_call_message.tool_calls[0]: a stream fragment, not a whole call: reassemble the stream first",
    ),
]


def test_input_that_is_not_letta_is_refused_with_its_place() -> None:
    with pytest.raises(ConversionError, match=r"^message 1: \$: not a Letta message: "):
        letta_to_docent([_message("user_message", "m-1", content="hi"), {"message_type": "bot_message"}])
    with pytest.raises(ConversionError, match="expected a list of Letta messages"):
        letta_to_docent({"stop_reason": {"message_type": "stop_reason", "stop_reason": "end_turn"}})


# bridgic and agent-swarm-kit


def _valid_examples(family: str, type_name: str) -> list[dict[str, Any]]:
    folder = EXAMPLES.parent.parent / family / "examples" / type_name / "valid"
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def test_every_valid_bridgic_and_swarm_example_converts() -> None:
    bridgic = _valid_examples("bridgic", "Message")
    swarm = _valid_examples("swarm", "ISwarmMessage")
    assert bridgic and swarm
    for message in bridgic:
        _checked(bridgic_to_docent([message], strict=False))  # a lone result answers no call
    for message in swarm:
        _checked(swarm_to_docent([message], strict=False))


def test_a_bridgic_conversation_pairs_results_with_calls_and_keeps_extras() -> None:
    call = BridgicMessage.from_tool_call(
        [
            {"id": "call_1", "name": "get_weather", "arguments": {"city": "Tokyo"}},
            {"id": "call_2", "name": "get_news", "arguments": {}},
        ],
        text="Looking it up.",
    )
    messages = [
        BridgicMessage.from_text("Weather and news?", role="user").model_dump(mode="json")
        | {"extras": {"name": "ann"}},
        call,
        BridgicMessage.from_tool_result("call_2", "no news"),
        BridgicMessage.from_tool_result("call_1", "22C"),
    ]
    dumped = _checked(bridgic_to_docent(messages))
    user, turn, news, weather = dumped["transcripts"][0]["messages"]
    assert user["metadata"] == {"bridgic": {"extras": {"name": "ann"}}}
    assert turn["content"] == [{"type": "text", "text": "Looking it up.", "refusal": None}]
    assert [(c["id"], c["function"], c["arguments"]) for c in turn["tool_calls"]] == [
        ("call_1", "get_weather", {"city": "Tokyo"}),
        ("call_2", "get_news", {}),
    ]
    assert [(m["role"], m["tool_call_id"], m["function"], m["content"]) for m in (news, weather)] == [
        ("tool", "call_2", "get_news", "no news"),
        ("tool", "call_1", "get_weather", "22C"),
    ]


def test_a_swarm_history_keeps_agents_modes_and_its_control_records() -> None:
    def entry(role: str, content: str, **fields: Any) -> dict[str, Any]:
        return {"role": role, "content": content, "agentName": fields.pop("agent", "triage"), "mode": "user", **fields}

    call = {"id": "call_1", "type": "function", "function": {"name": "search", "arguments": {"q": "shoes"}}}
    history = [
        entry("developer", "Be brief."),
        entry("user", "red shoes", payload={"session": 7}),
        entry("assistant", "", tool_calls=[call], agent="sales"),
        entry("tool", "3 found", tool_call_id="call_1", agent="sales"),
        entry("flush", ""),
        entry("resque", "recovered", agent="sales"),
    ]
    dumped = _checked(swarm_to_docent(history))
    developer, user, turn, result = dumped["transcripts"][0]["messages"]
    assert developer["role"] == "system" and developer["metadata"]["swarm"] == {
        "agentName": "triage",
        "mode": "user",
        "role": "developer",
    }
    assert user["metadata"]["swarm"] == {"agentName": "triage", "mode": "user", "payload": {"session": 7}}
    assert turn["tool_calls"][0]["arguments"] == {"q": "shoes"}
    assert (result["tool_call_id"], result["function"]) == ("call_1", "search")
    assert dumped["transcripts"][0]["metadata"]["swarm"]["events"] == [
        {"index": 4, **history[4]},
        {"index": 5, **history[5]},
    ]
    assert dumped["metadata"]["swarm"] == {"agents": ["triage", "sales"]}


MORE_HOSTILE: list[tuple[Any, list[dict[str, Any]], str]] = [
    (
        bridgic_to_docent,
        [{"role": "user", "blocks": [{"block_type": "tool_call", "id": "c", "name": "f", "arguments": {}}]}],
        "message 0: blocks[0]: a tool call in a user message: Docent's only assistant messages call tools",
    ),
    (
        bridgic_to_docent,
        [{"role": "tool", "blocks": [{"block_type": "tool_result", "id": "c-9", "content": "x"}]}],
        "message 0: blocks[0].id: 'c-9' answers no tool call before it",
    ),
    (
        swarm_to_docent,
        [{"role": "user", "content": "look", "agentName": "a", "mode": "user", "images": ["aGk="]}],
        "message 0: images[0]: a Docent message holds no image",
    ),
    (
        swarm_to_docent,
        [{"role": "tool", "content": "x", "agentName": "a", "mode": "tool", "tool_call_id": "c-9"}],
        "message 0: tool_call_id: 'c-9' answers no tool call before it",
    ),
]


@pytest.mark.parametrize(
    ("convert", "messages", "error"),
    [*((letta_to_docent, messages, error) for messages, error in HOSTILE), *MORE_HOSTILE],
    ids=["image", "unanswered-result", "fragment", "call-by-user", "lone-result", "swarm-image", "swarm-lone-result"],
)
def test_strict_names_the_message_the_field_and_why_and_lenient_sets_it_aside(
    convert: Any, messages: list[dict[str, Any]], error: str
) -> None:
    with pytest.raises(ConversionError) as raised:
        convert(messages)
    assert str(raised.value) == error
    dumped = _checked(convert(messages, strict=False))
    (aside,) = dumped["metadata"]["chatschema"]["set_aside"]
    assert f"message {aside['index']}: {aside['field']}: {aside['reason']}" == error


def test_input_of_another_family_is_refused_with_its_place() -> None:
    with pytest.raises(ConversionError, match=r"^message 0: \$\.blocks: not a bridgic message: "):
        bridgic_to_docent([{"role": "user", "blocks": "hi"}])
    with pytest.raises(ConversionError, match=r"^message 0: \$: not a swarm message: 'agentName' is a required"):
        swarm_to_docent([{"role": "user", "content": "hi", "mode": "user"}])
    with pytest.raises(ConversionError, match=r"^\$: expected a list of swarm messages$"):
        swarm_to_docent({"role": "user"})


def test_a_content_list_is_kept_whole_in_metadata_with_what_docent_parts_cannot_hold() -> None:
    parts = [{"type": "text", "text": "Hi", "signature": "sig-1"}, {"type": "text", "text": "there", "signature": None}]
    messages = [
        _message("assistant_message", "m-1", content=parts),
        _message("user_message", "m-2", content=[{"type": "text", "text": "ok"}]),
        _message("assistant_message", "m-3", content="plain"),
    ]
    dumped = _checked(letta_to_docent(messages))
    reply, user, plain = dumped["transcripts"][0]["messages"]
    assert [p["text"] for p in reply["content"]] == ["Hi", "there"]
    assert reply["metadata"]["letta"][0]["content"] == parts  # the signature, and that it was a list
    assert user["metadata"]["letta"][0]["content"] == [{"type": "text", "text": "ok"}]
    assert "content" not in plain["metadata"]["letta"][0]  # a string: Docent's content says it all


# The way back: Docent to Letta


def _there_and_back(messages: list[dict[str, Any]], strict: bool = True) -> list[dict[str, Any]]:
    """Letta -> Docent -> (through docent's own model, as Docent would store it) -> Letta."""
    run = letta_to_docent(messages, strict=strict)
    stored = docent_run.AgentRun.model_validate(run.model_dump(mode="json")).model_dump(mode="json")
    assert docent_to_letta(run) == docent_to_letta(stored)
    return docent_to_letta(stored)


def test_a_strict_conversion_comes_back_exactly() -> None:
    event = _message("event_message", "m-9", event_type="compaction", event_data={"before": 10})
    conversation = [*CONVERSATION[:4], event, *CONVERSATION[4:]]
    assert _there_and_back(conversation) == conversation
    parts = [{"type": "text", "text": "a", "signature": "s"}, {"type": "text", "text": "b", "signature": None}]
    listed = [_message("assistant_message", "m-1", content=parts), _message("user_message", "m-2", content="hi")]
    assert _there_and_back(listed) == listed


def test_parallel_results_and_approvals_come_back_exactly() -> None:
    returns = [
        {
            "type": "tool",
            "tool_return": "a",
            "status": "success",
            "tool_call_id": "c-1",
            "stdout": ["x"],
            "stderr": None,
        },
        {"type": "tool", "tool_return": "b", "status": "error", "tool_call_id": "c-2", "stdout": None, "stderr": ["y"]},
    ]
    calls = _calls("m-1", _call("c-1", "f", '{"a":1}'), _call("c-2", "g", "{ }"))  # the JSON text, spacing and all
    request = _message("approval_request_message", "m-3", tool_call=_call("c-3", "rm", "{}"), tool_calls=None)
    decision = {"type": "approval", "tool_call_id": "c-3", "approve": True, "reason": None}
    ran = {
        "type": "tool",
        "tool_return": "ok",
        "status": "success",
        "tool_call_id": "c-3",
        "stdout": None,
        "stderr": None,
    }
    conversation = [
        calls,
        _result("m-2", "c-1", "a") | {"tool_returns": returns},
        request,
        _message("approval_response_message", "m-4", approvals=[decision, ran]),
    ]
    assert _there_and_back(conversation) == conversation


def test_every_example_and_stream_comes_back_exactly() -> None:
    for path in sorted((EXAMPLES / "LettaMessage" / "valid").glob("*.json")):
        message = json.loads(path.read_text())
        assert _there_and_back([message], strict=False) == [message], path.name
    for path in STREAMS:
        example = json.loads(path.read_text())
        stream = reassemble_sse("".join(example["sse"]), **example["options"])
        messages = [m.model_dump(mode="json", by_alias=True) for m in stream.messages]
        assert _there_and_back(messages, strict=path.stem not in LONE_RESULTS) == messages, path.stem


def test_what_lenient_set_aside_comes_back_at_its_place() -> None:
    bad = {"message_type": "bot_message", "id": "m-x"}
    conversation = [CONVERSATION[1], bad, CONVERSATION[0]]
    assert _there_and_back(conversation, strict=False) == conversation


def test_a_run_not_made_from_letta_is_refused() -> None:
    run = swarm_to_docent([{"role": "user", "content": "hi", "agentName": "a", "mode": "user"}])
    with pytest.raises(
        ConversionError, match=r"^message 0: metadata.letta: this Docent message was not made from Letta$"
    ):
        docent_to_letta(run)


def test_a_run_the_converter_got_wrong_is_its_error_not_an_invalid_run() -> None:
    conversion = Conversion(strict=True)
    conversion.messages.append({"role": "bot", "content": "x"})  # as a converter bug would write it
    with pytest.raises(ConversionError, match=r"^\$\.transcripts\[0\]\.messages\[0\]: the Docent run is invalid: "):
        conversion.finish("letta", {}, None)


def test_a_swarm_tool_call_id_answers_a_call_only_on_a_tool_message() -> None:
    history = [
        {"role": "user", "content": "again", "agentName": "a", "mode": "user", "tool_call_id": "call_1"},
        {"role": "tool", "content": "no call named", "agentName": "a", "mode": "tool"},
    ]
    user, tool = _checked(swarm_to_docent(history))["transcripts"][0]["messages"]
    assert user["tool_call_id"] is None and user["metadata"]["swarm"]["tool_call_id"] == "call_1"
    assert (tool["role"], tool["tool_call_id"], tool["function"]) == ("tool", None, None)


def test_a_message_nested_too_deep_for_any_reader_is_refused_with_its_place() -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(100_000):
        node["a"] = {}
        node = node["a"]
    message = _message("user_message", "m-1", content="hi", extra=deep)
    with pytest.raises(ConversionError, match=r"^message 0: \$: not a Letta message: "):
        letta_to_docent([message])


def test_a_message_nested_deeper_than_pydantic_core_dumps_converts_and_comes_back() -> None:
    # 254 levels is as deep as pydantic-core serializes; the readers take JSON to 1024 levels.
    deep: dict[str, Any] = {}
    for _ in range(600):
        deep = {"a": deep}
    event = _message("event_message", "m-9", event_type="compaction", event_data={"before": deep})
    conversation = [*CONVERSATION[:4], event, *CONVERSATION[4:]]
    run = letta_to_docent(conversation)
    assert docent_to_letta(run) == docent_to_letta(_checked(run)) == conversation
    call = {"block_type": "tool_call", "id": "t1", "name": "f", "arguments": {"x": deep}}
    dumped = _checked(bridgic_to_docent([{"role": "assistant", "blocks": [call], "extras": {}}]))
    assert dumped["transcripts"][0]["messages"][0]["tool_calls"][0]["arguments"] == {"x": deep}
    wrong = {"role": "assistant", "blocks": [{**call, "id": 7}], "extras": {}}
    aside = _checked(bridgic_to_docent([wrong], strict=False))["metadata"]["chatschema"]["set_aside"]
    assert [(a["index"], a["value"]) for a in aside] == [(0, wrong)]
