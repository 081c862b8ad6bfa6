"""Issue 1 and 4: deep payloads get a verdict, never RecursionError; they round-trip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatschema import schemas
from chatschema._base import rebuild
from chatschema._rules import conform
from chatschema.bridgic import Message, TextBlock
from chatschema.convert import ConversionError, bridgic_to_docent
from chatschema.docent import parse_chat_message_json
from chatschema.jsontext import MAX_DEPTH, stdlib_loads

from .common import BACKENDS, PARSERS, counts, no_traceback, run


def nested(levels: int, inner: str = "") -> str:
    return "[" * levels + inner + "]" * levels


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("levels", [985, 1000, MAX_DEPTH - 1])
def test_deep_invalid_message_is_invalid_on_both_backends(tmp_path: Path, backend: str, levels: int) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text('{"role":"bot","x":' + nested(levels) + "}\n" + '{"role":"user","x":' + nested(levels) + "}\n")
    for extra in ([], ["--jobs", "2"], ["--schema", "auto"]):
        schema = [] if "--schema" in extra else ["--schema", "docent/ChatMessage"]
        code, out, err = run([*schema, "--backend", backend, *extra, str(path)])
        no_traceback(out + err)
        assert code == 1
        assert counts(err) == (2, 0, 2, 0)
        lines = out.splitlines()
        assert lines[0].startswith(f"{path}:1: $: unknown role 'bot', expected one of 'system'"), lines
        assert lines[1].startswith(f"{path}:2: $: 'content' is a required property"), lines


@pytest.mark.parametrize("parse_with", PARSERS)
def test_one_level_too_deep_is_malformed_everywhere(tmp_path: Path, parse_with: str) -> None:
    path = tmp_path / "deeper.jsonl"
    exactly = '{"role":"user","content":"x","x":' + nested(MAX_DEPTH - 1) + "}"  # 1 + 1023 = 1024 levels
    siblings = '{"role":"user","content":"x","y":[{},[]],"x":' + nested(MAX_DEPTH - 1) + "}"  # more brackets
    deeper = '{"role":"user","content":"x","x":' + nested(MAX_DEPTH) + "}"
    path.write_text(f"{exactly}\n{siblings}\n{deeper}\n")
    for backend in BACKENDS:
        _, out, err = run(["-s", "docent/ChatMessage", "--backend", backend, str(path)], parse_with=parse_with)
        assert counts(err) == (3, 2, 0, 1), out + err
        assert out.startswith(f"{path}:3: malformed: nesting too deep: more than 1024 levels")


def test_deep_value_in_a_typed_field_is_explained() -> None:
    payload: Any = stdlib_loads(b'{"role":"user","content":' + nested(1000).encode() + b"}")
    found = schemas.violations(payload, "docent/ChatMessage")
    assert [v.path for v in found] == ["$.content[0]"]
    assert len(found[0].message) < 200 and "is not of type 'object'" in found[0].message
    assert not schemas.is_valid(payload, "docent/ChatMessage")


def test_api_refuses_deeper_than_the_limit_with_a_violation() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    for payload in ({"role": "user", "content": deep}, {"role": "user", "content": "x", "metadata": {"a": deep}}):
        with pytest.raises(schemas.PayloadError) as caught:
            schemas.validate(payload, "docent/ChatMessage")
        assert [str(v) for v in caught.value.violations] == ["$: nesting too deep: more than 1024 levels"]
        assert caught.value.omitted == 0 and "(1 violation):" in str(caught.value)
        assert not schemas.is_valid(payload, "docent/ChatMessage")


def test_a_payload_containing_itself_is_too_deep_not_a_crash() -> None:
    loop: list[Any] = []
    loop.append(loop)
    cyclic: dict[str, Any] = {"role": "user", "content": "x"}
    cyclic["metadata"] = cyclic
    for payload in ({"role": "user", "content": loop}, cyclic):
        assert [v.keyword for v in schemas.violations(payload, "docent/ChatMessage")] == ["maxDepth"]


@pytest.mark.parametrize("levels", [255, 256, 600, MAX_DEPTH - 2])
def test_deep_payload_round_trips(levels: int) -> None:
    text = '{"role":"user","content":"x","metadata":{"a":' + nested(levels, "1") + "}}"
    message = parse_chat_message_json(text)
    dumped = message.model_dump_json()
    assert parse_chat_message_json(dumped).model_dump_json() == dumped
    assert dumped.count("[") == levels
    assert isinstance(message.model_dump(mode="json"), dict)


@pytest.mark.parametrize("levels", [255, 256, 600, MAX_DEPTH - 2])
def test_deep_extra_beside_a_date_time_dumps_as_a_shallow_one_does(levels: int) -> None:
    """A Letta message holds a datetime: the deep dump once fell back to a Python-mode dump that the
    standard library's encoder could not take (TypeError)."""
    from chatschema.letta import parse_letta_message_json

    head = '{"id":"message-1","date":"2025-10-01T12:30:45Z","message_type":"assistant_message","content":"x",'
    message = parse_letta_message_json(head + '"extra":' + nested(levels, "1") + ',"z":1}')
    shallow = parse_letta_message_json(head + '"extra":1,"z":1}')
    dumped = message.model_dump_json()
    assert dumped.replace(nested(levels, "1"), "1") == shallow.model_dump_json()
    assert parse_letta_message_json(dumped).model_dump_json() == dumped
    as_json = message.model_dump(mode="json")
    assert as_json["date"] == shallow.model_dump(mode="json")["date"] == "2025-10-01T12:30:45+00:00"
    assert list(as_json) == list(shallow.model_dump(mode="json"))


@pytest.mark.parametrize("parse_with", PARSERS)
@pytest.mark.parametrize("limit", [20, MAX_DEPTH])
def test_objects_nested_to_the_limit_are_read_one_more_is_malformed(
    tmp_path: Path, parse_with: str, limit: int
) -> None:
    """Objects count one level each, as arrays do (the message itself is the first)."""

    def objects(levels: int) -> str:
        return '{"a":' * levels + "1" + "}" * levels

    exactly = '{"role":"user","content":"x","metadata":' + objects(limit - 1) + "}"
    deeper = '{"role":"user","content":"x","metadata":' + objects(limit) + "}"
    path = tmp_path / "objects.jsonl"
    path.write_text(f"{exactly}\n{deeper}\n")
    _, out, err = run(["-s", "docent/ChatMessage", "--max-depth", str(limit), str(path)], parse_with=parse_with)
    assert counts(err) == (2, 1, 0, 1), out + err
    assert out.startswith(f"{path}:2: malformed: nesting too deep: more than {limit} levels")


class _Walked(list[Any]):
    """A list that counts how often it is walked, and stops a walk that re-walks shared parts as a tree."""

    walks = 0

    def __iter__(self) -> Any:
        _Walked.walks += 1
        if _Walked.walks > 10_000:
            raise AssertionError("a shared part was walked once per path to it")
        return super().__iter__()


def test_a_part_shared_under_many_keys_is_walked_once_per_depth_not_once_per_path() -> None:
    # `d = [d, d]` 40 times over: 2**40 paths, 41 lists. It used to hang the depth and number rules.
    shared: Any = _Walked()
    for _ in range(40):
        shared = _Walked([shared, shared])
    _Walked.walks = 0
    assert schemas.violations({"role": "user", "content": "hi", "extra": shared}, "docent/ChatMessage") == []
    assert _Walked.walks <= 2 * 41
    _Walked.walks = 0
    huge = {"role": "user", "content": "hi", "extra": [shared, _Walked([shared, 10**400])]}
    assert [v.path for v in schemas.violations(huge, "docent/ChatMessage")] == ["$.extra[1][1]"]
    too_deep: Any = []
    for _ in range(MAX_DEPTH):
        too_deep = [too_deep, too_deep]
    assert [v.keyword for v in schemas.violations({"role": "user", "content": too_deep}, "docent/ChatMessage")] == [
        "maxDepth"
    ]


def _cycle_below(levels: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A dict `levels` deep whose innermost dict holds a list holding the outermost: (outer, inner)."""
    outer: dict[str, Any] = {}
    inner = outer
    for _ in range(levels):
        inner["a"] = {}
        inner = inner["a"]
    inner["loop"] = [outer]
    return outer, inner


def test_a_cycle_deeper_than_pydantic_core_dumps_is_refused_not_copied_forever() -> None:
    outer, inner = _cycle_below(300)
    inner["leaf"] = "x"
    seen: list[str] = []

    def leaf(value: Any) -> Any:
        assert len(seen) < 10, "the copy went round the cycle"
        seen.append(value)
        return value

    with pytest.raises(ValueError, match=r"^Circular reference detected \(id repeated\)$"):
        rebuild(outer, leaf)
    shared = {"x": 1}
    assert rebuild({"a": shared, "b": [shared, (shared,)]}, leaf) == {"a": shared, "b": [shared, [shared]]}


def test_converting_conforming_or_dumping_a_deep_cycle_is_one_error() -> None:
    outer, _ = _cycle_below(300)
    call = {"block_type": "tool_call", "id": "t1", "name": "f", "arguments": outer}
    message = {"role": "assistant", "blocks": [call], "extras": {}}
    for strict in (True, False):
        with pytest.raises(ConversionError, match=r"^message 0: \$: not a bridgic message: Circular reference"):
            bridgic_to_docent([message], strict=strict)
    held = {"role": "user", "blocks": [TextBlock(text="hi")], "extras": outer}
    with pytest.raises(ValueError, match=r"^Circular reference detected"):
        conform(held, "bridgic/Message")
    model = Message.model_validate({**held, "blocks": [{"block_type": "text", "text": "hi"}]})  # Any takes it
    for dump in (model.model_dump_json, lambda: model.model_dump(mode="json")):
        with pytest.raises(ValueError, match=r"^Circular reference detected"):
            dump()


class _CountedDict(dict[str, Any]):
    """A dict that fails a test when its values are listed more than a few times."""

    listed = 0

    def values(self) -> Any:
        _CountedDict.listed += 1
        assert _CountedDict.listed < 10, "the walk went round the cycle"
        return super().values()


def test_conform_looks_in_each_container_of_a_cycle_once() -> None:
    _CountedDict.listed = 0
    outer, inner = _cycle_below(300)
    inner["counted"] = _CountedDict(loop=outer)
    payload = {"role": "user", "blocks": [{"block_type": "text", "text": "hi"}], "extras": outer}
    with pytest.raises(ValueError, match=r"^not a valid bridgic/Message: \$: nesting too deep: more than 1024 levels$"):
        conform(payload, "bridgic/Message")
