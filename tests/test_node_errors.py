"""Node's errors say what Python's say: an unknown schema name gets the same "did you mean" names,
an unknown union tag and a value outside an enum or const name the expected values, worded alike."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import pytest

from chatschema import schemas
from tests.node import HERE, PACKAGE, node_env, run_node

TAGGED = [
    ("docent/ChatMessage", {"role": "bot", "content": "hi"}),
    ("docent/ChatMessage", {"content": "hi"}),
    ("docent/ChatMessage", {"role": "assistant", "content": [{"type": "image", "url": "x"}]}),
    ("letta/LettaMessage", {"message_type": "tool_message", "id": "m", "date": "2025-10-01T12:30:47+00:00"}),
    ("bridgic/ContentBlock", {"block_type": "image"}),
    ("letta/LettaStreamingResponse", {"message_type": 3}),
]
VALUES = [
    (
        "letta/ToolReturnMessage",
        {
            "message_type": "tool_return_message",
            "id": "m",
            "date": "2025-10-01T12:30:47+00:00",
            "tool_return": "x",
            "status": "done",
            "tool_call_id": "c",
        },
    ),
    ("swarm/IToolCall", {"id": "c", "type": "custom", "function": {"name": "f", "arguments": {}}}),
    ("swarm/ISwarmMessage", {"role": "user", "agentName": "a", "mode": "agent", "content": "hi"}),
    # quoted as Python's repr quotes them: escapes for control characters, C1 and lone surrogates
    ("swarm/ISwarmMessage", {"role": "user", "agentName": "a", "mode": "\x01\x85\t'\udc00\ud800x", "content": "hi"}),
    ("swarm/ISwarmMessage", {"role": "user", "agentName": "a", "mode": "y" * 98, "content": "hi"}),  # 100 quoted
]
# "brid": names whose ratio is exactly the cutoff (0.5) are suggested, as difflib does
UNKNOWN_NAMES = [
    "docent/ChatMesage",
    "letta/toolcallmessage",
    "ChatMessage",
    "bridgic/Mesage",
    "nothing-like-it",
    "",
    "brid",
]


def _node(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = run_node(HERE / "entry.cjs", {"package": str(PACKAGE), "cases": cases})
    return result


@pytest.mark.parametrize(("name", "payload"), TAGGED + VALUES)
def test_expected_values_named_as_in_python(name: str, payload: dict[str, Any]) -> None:
    expected = [
        f"  {v.path}: {v.message}"
        for v in schemas.violations(payload, name)
        if v.keyword in ("discriminator", "enum", "const")
    ]
    assert expected, "the case must exercise a tag, enum or const message"
    [node] = _node([{"schema": name, "payload": payload}])
    assert node["valid"] is False
    lines = node["message"].splitlines()[1:]
    for line in expected:
        assert line in lines, f"Python says {line!r}; Node says {lines}"


def test_unknown_schema_suggests_the_same_names() -> None:
    node = _node([{"schema": name, "payload": {}} for name in UNKNOWN_NAMES])
    for name, result in zip(UNKNOWN_NAMES, node, strict=True):
        with pytest.raises(schemas.UnknownSchemaError) as python:
            schemas.schema_id(name)
        assert result["unknown"] == str(python.value), name
    assert "did you mean docent/ChatMessage" in node[0]["unknown"]
    assert "known families: bridgic, docent, letta, swarm" in node[4]["unknown"]


def test_violations_are_listed_in_payload_order_as_in_python() -> None:
    """Array indexes sort as numbers (`[2]` before `[10]`) on both sides."""
    payload = {"role": "user", "content": [{"type": "image"}] * 12}
    python = [v.path for v in schemas.violations(payload, "docent/ChatMessage")]
    assert python == [f"$.content[{i}]" for i in range(12)]
    [node] = _node([{"schema": "docent/ChatMessage", "payload": payload}])
    paths = list(dict.fromkeys(line.split(":", 1)[0].strip() for line in node["message"].splitlines()[1:]))
    assert [p for p in paths if p.startswith("$.content[")] == python  # ajv adds the union's own errors


def test_indexes_that_share_leading_digits_sort_as_numbers_whatever_sits_beside_them() -> None:
    """`[19]` before `[100]` and `[107]` before `[1005]`: the indexes part after a shared `1` or `10`,
    and the items at `[0]` and `[1]` are arrays, which a comparison that took the shared digits for
    a step of the pointer would read as the container of the rest."""
    content: list[Any] = [{"type": "text", "text": "ok"}] * 1006
    content[0] = content[1] = []
    for i in (19, 100, 107, 1005):
        content[i] = {"type": "image"}
    payload = {"role": "user", "content": content}
    python = [v.path for v in schemas.violations(payload, "docent/ChatMessage")]
    assert python == [f"$.content[{i}]" for i in (0, 1, 19, 100, 107, 1005)]
    [node] = _node([{"schema": "docent/ChatMessage", "payload": payload}])
    paths = list(dict.fromkeys(line.split(":", 1)[0].strip() for line in node["message"].splitlines()[1:]))
    assert paths == ["$.content", *python]  # ajv adds the union's own error, above the others


@pytest.mark.parametrize(
    ("name", "payload", "holder"),
    [
        ("docent/ToolParams", {"properties": {"9": 5, "10": 5}, "roperties": []}, "$.properties"),
        (
            "swarm/IToolFunction",
            {
                "name": "f",
                "description": "d",
                "parameters": {"type": "object", "properties": {"9": 5, "10": 5}, "roperties": []},
            },
            "$.parameters.properties",
        ),
    ],
)
def test_digit_keys_of_an_object_sort_as_text_beside_an_array_named_like_their_holder(
    name: str, payload: dict[str, Any], holder: str
) -> None:
    """Keys `9` and `10` of an object are names, not indexes: `['10']` before `['9']`, as Python sorts
    the paths. Beside the object sits an array under its name less the first letter (`roperties`),
    which a walk that lost one character of a step would take for the keys' holder."""
    python = [v.path for v in schemas.violations(payload, name)]
    assert python == [f"{holder}['10']", f"{holder}['9']"]
    [node] = _node([{"schema": name, "payload": payload}])
    assert node["paths"] == python


def test_a_place_above_is_told_from_a_sibling_whose_path_goes_on_where_it_ends() -> None:
    """`/content/1` is not above `/content/0/text`, although the longer pointer has a `/` where the
    shorter ends: the item's error goes after the text's, as in Python."""
    payload = {"role": "user", "content": [{"type": "text", "text": 1}, {"type": "image"}]}
    python = [v.path for v in schemas.violations(payload, "docent/ChatMessage")]
    assert python == ["$.content[0].text", "$.content[1]"]
    [node] = _node([{"schema": "docent/ChatMessage", "payload": payload}])
    paths = list(dict.fromkeys(line.split(":", 1)[0].strip() for line in node["message"].splitlines()[1:]))
    assert paths == ["$.content", *python]  # ajv adds the union's own errors, above the others


def test_a_schema_name_that_is_not_a_string_is_a_type_error_as_in_python() -> None:
    names: list[Any] = [None, 5, ["docent/ChatMessage"], {"name": "docent/ChatMessage"}, True]
    node = _node([{"schema": name, "payload": {}} for name in names])
    for name, result in zip(names, node, strict=True):
        with pytest.raises(TypeError, match="a schema name is a string such as 'docent/ChatMessage'"):
            schemas.schema_id(name)
        assert result["typeError"].startswith("a schema name is a string such as 'docent/ChatMessage', not "), result
    kinds = [result["typeError"].rsplit(" ", 1)[1] for result in node]
    assert kinds == ["null", "number", "array", "object", "boolean"]  # JavaScript's words for them


def test_a_very_long_unknown_name_is_quick_and_quoted_short() -> None:
    name = "docent/" + "x" * 20_000
    [node] = _node([{"schema": name, "payload": {}}])
    with pytest.raises(schemas.UnknownSchemaError) as python:
        schemas.schema_id(name)
    for message in (node["unknown"], str(python.value)):
        assert message.startswith("unknown schema 'docent/xxx") and len(message) < 250, message[:300]
        assert message.endswith("; known families: bridgic, docent, letta, swarm")


def test_a_long_value_is_quoted_in_100_characters() -> None:
    payload = {"role": "user", "agentName": "a", "mode": "y" * 99, "content": "hi"}
    [node] = _node([{"schema": "swarm/ISwarmMessage", "payload": payload}])
    assert f"  $.mode: '{'y' * 96}... is not one of ['tool', 'user']" in node["message"].splitlines()


@pytest.mark.parametrize("numeric", [True, False], ids=["with numeric keys", "without"])
def test_keys_are_ordered_as_python_orders_their_paths(numeric: bool) -> None:
    """Node orders violations by their pointers where that is the paths' order (plain names, indexes)
    and by the paths elsewhere: names that begin one another (`$['a b!']` before `$['a b']`: `!` sorts
    before the quote), quoted, numeric and escaped keys. Without the numeric keys (which JavaScript
    lists first, wherever they are written) a quoted key meets the plain ones before it."""
    keys = ["ab", "a", "aB", "a_b", "A", "a b", "a b!", "10", "9", "é", "a.b", "a[1]", "Z", "_", "a/b", "a~b"]
    keys += ["b", "aa"]
    if not numeric:
        keys = [key for key in keys if not key.isdigit()]
    payload = {"type": "object", "properties": {key: 5 for key in keys}}
    python = [v.path for v in schemas.violations(payload, "docent/ToolParams")]
    assert len(python) == len(keys)
    [node] = _node([{"schema": "docent/ToolParams", "payload": payload}])
    assert node["paths"] == python


@pytest.mark.parametrize("bad", [20, 21, 22])
def test_a_payload_error_counts_what_it_leaves_out_as_python_does(bad: int) -> None:
    payload = {"type": "object", "properties": {}, "required": [1] * bad}  # one violation per item
    with pytest.raises(schemas.PayloadError) as python:
        schemas.validate(payload, "swarm/IToolParameters")
    [node] = _node([{"schema": "swarm/IToolParameters", "payload": payload}])
    assert node["message"].splitlines()[0] == str(python.value).splitlines()[0]
    assert len(node["paths"]) == len(python.value.violations) == min(bad, schemas.MAX_VIOLATIONS)
    shown = "" if bad == 20 else ", the first 20 shown"
    assert str(python.value).startswith(f"payload is not a valid swarm/IToolParameters ({bad} violations{shown})")


@pytest.mark.parametrize("entry", ["index.js", "esm/index.js"])
def test_console_log_shows_every_field_of_a_violation(entry: str) -> None:
    """A violation's fields are getters; Node's util.inspect (console.log) still shows each of them,
    in the CommonJS build and the ES module alike."""
    script = (
        "const util = require('node:util');"
        "import(require('node:url').pathToFileURL(process.argv[1]).href).then(({ violations }) => {"
        "  const [v] = violations('docent/ChatMessage', { role: 'user' });"
        "  process.stdout.write(util.inspect(v, { compact: true, breakLength: Infinity }));"
        "});"
    )
    node = shutil.which("node")
    assert node is not None
    proc = subprocess.run(
        [node, "-e", script, str(PACKAGE / entry)], capture_output=True, text=True, env=node_env(), check=True
    )
    assert proc.stdout == (
        "{ path: '$', message: '\"content\" is a required property', keyword: 'required', instancePath: '/content',"
        " schemaPath: '#/$defs/UserMessage/required', params: { missingProperty: 'content' } }"
    )
