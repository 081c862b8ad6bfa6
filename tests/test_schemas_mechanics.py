"""chatschema.schemas' mechanics, pinned: shortened values, counts, and the cases a user's own schemas
can reach but the shipped ones do not (untagged `oneOf`, tags inherited through `allOf`,
`$dynamicRef`, malformed union tables, stray files beside the schema families)."""

from __future__ import annotations

import contextvars
import dataclasses
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from chatschema import _pointers, schemas
from chatschema.jsontext import MAX_DEPTH


def test_an_unknown_name_suggests_the_three_closest() -> None:
    error = schemas.UnknownSchemaError("letta/Message")
    assert error.close_matches == ["letta/SDKMessage", "letta/WireMessage", "letta/UserMessage"]
    assert str(error) == (
        "unknown schema 'letta/Message'; did you mean letta/SDKMessage, letta/WireMessage, letta/UserMessage?"
    )


def test_payload_error_counts_what_it_shows_and_what_it_omits() -> None:
    found = [schemas.Violation("$.role", "'bot' is not one of ['user']", "enum")]
    error = schemas.PayloadError("docent/ChatMessage", found)
    assert error.omitted == 0
    assert (
        str(error) == "payload is not a valid docent/ChatMessage (1 violation):\n  $.role: 'bot' is not one of ['user']"
    )
    assert str(schemas.PayloadError("docent/ChatMessage", found, 2)).startswith(
        "payload is not a valid docent/ChatMessage (3 violations, the first 1 shown):\n"
    )


def test_unions_are_immutable() -> None:
    """`unions()` is cached: a caller must not be able to change what every later caller sees."""
    union = schemas.unions()["docent/ChatMessage"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        union.tag = "kind"  # type: ignore[misc]


class _Long:
    def __repr__(self) -> str:
        return "L" * 50


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("a" * 98, "'" + "a" * 98 + "'"),  # 100 characters: quoted whole
        ("a" * 99, "'" + "a" * 27 + "..." + "a" * 28 + "'"),  # longer: cut to 60
        ([[[[1]]]], "[[[[...]]]]"),  # three levels shown
        ({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, "{'a': 1, 'b': 2, 'c': 3, 'd': 4, ...}"),  # four items
        ([1, 2, 3, 4, 5], "[1, 2, 3, 4, ...]"),
        (_Long(), "L" * 18 + "..." + "L" * 19),  # anything else: 40 characters
        ({k: "v" * 60 for k in "abcd"}, "{'a': '" + "v" * 27 + "..." + "v" * 28 + "', 'b': '" + "v" * 23 + "..."),
    ],
)
def test_short_repr_limits(value: Any, shown: str) -> None:
    assert schemas.short_repr(value) == shown
    assert len(shown) <= 100


# The union tables: which `oneOf`s are dispatched by their tag. The shipped schemas are all
# well-formed; a user's own schema may not be, and must then be validated as a plain `oneOf`.

_LETTA = schemas.schema_id("letta/LettaMessage").split("#")[0]


def _union(*branches: Any, tag: Any = "message_type") -> dict[str, Any]:
    return {"oneOf": list(branches), "discriminator": {"propertyName": tag}}


@pytest.mark.parametrize(
    "node",
    [
        [],  # not an object
        {"discriminator": {"propertyName": "message_type"}},  # no oneOf
        {"oneOf": {"$ref": "#/$defs/UserMessage"}, "discriminator": {"propertyName": "message_type"}},
        {"oneOf": [{"$ref": "#/$defs/UserMessage"}]},  # no discriminator
        {"oneOf": [], "discriminator": "message_type"},
        _union(tag=1),  # a tag that is not a string
        _union({"$ref": "#/$defs/UserMessage", "description": "more than a $ref"}),
        _union({"type": "object"}),
        _union({"$ref": "#/$defs/UserMessage"}, {"$ref": "#/$defs/UserMessage"}),  # one tag value twice
        _union({"$ref": "#/$defs/UserMessage"}, {"$ref": "tools.json#/$defs/ToolCall"}),  # a branch without the tag
    ],
)
def test_a_union_that_cannot_be_dispatched_has_no_table(node: Any) -> None:
    assert schemas._table(_LETTA, node) is None


def test_a_well_formed_union_has_its_table() -> None:
    node = _union({"$ref": "#/$defs/UserMessage"}, {"$ref": "#/$defs/AssistantMessage"})
    assert schemas._table(_LETTA, node) == ("message_type", {"user_message": 0, "assistant_message": 1})


_TAGS = "https://example.test/tags.json"


def _tag_documents() -> dict[str, Any]:
    defs: dict[str, Any] = {
        "Base": {"type": "object", "properties": {"kind": {"const": "base"}}, "required": ["kind"]},
        "Optional": {"type": "object", "properties": {"kind": {"const": "optional"}}},  # not required
        "Derived": {"allOf": [{"type": "object"}, True, {"$ref": 1}, {"$ref": "#/$defs/Base"}]},
        "Cycle": {"allOf": [{"$ref": "#/$defs/Cycle"}]},
        "Chain0": {"allOf": [{"$ref": "#/$defs/Base"}]},
    }
    for level in range(1, 10):
        defs[f"Chain{level}"] = {"allOf": [{"$ref": f"#/$defs/Chain{level - 1}"}]}
    return {"$id": _TAGS, "$defs": defs}


@pytest.fixture
def tag_registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    document = _tag_documents()
    registry = Registry().with_resource(_TAGS, Resource.from_contents(document, default_specification=DRAFT202012))
    monkeypatch.setattr(schemas, "registry", lambda: registry.crawl())
    defs: dict[str, Any] = document["$defs"]
    return defs


def test_a_tag_is_found_through_allof_up_to_eight_levels(tag_registry: dict[str, Any]) -> None:
    assert schemas._tag_const(_TAGS, tag_registry["Base"], "kind") == "base"
    assert schemas._tag_const(_TAGS, tag_registry["Derived"], "kind") == "base"  # non-$ref parts skipped
    assert schemas._tag_const(_TAGS, tag_registry["Chain7"], "kind") == "base"  # Base is 8 $refs away
    assert schemas._tag_const(_TAGS, tag_registry["Chain8"], "kind") is None  # 9: too far
    assert schemas._tag_const(_TAGS, tag_registry["Cycle"], "kind") is None  # and a cycle ends
    assert schemas._tag_const(_TAGS, tag_registry["Optional"], "kind") is None  # a tag must be required


# Untagged `oneOf`: none in the shipped schemas, so only the dispatching validator itself can show
# that it keeps jsonschema's meaning (exactly one branch).


def _one_of(*branches: Any) -> Any:
    return schemas._DispatchValidator({"oneOf": list(branches)}, format_checker=schemas.FORMAT_CHECKER)


def _messages(validator: Any, instance: Any) -> list[str]:
    return [str(v) for v in schemas._collect(validator.iter_errors(instance), 20)[0]]


def test_an_untagged_one_of_accepts_exactly_one_branch() -> None:
    check = _one_of({"type": "string"}, {"type": "integer"})
    assert _messages(check, "x") == [] and _messages(check, 1) == []
    assert _messages(check, 1.5) == ["$: 1.5 is not of type 'string', 'integer'"]
    several = _one_of({"type": "integer"}, {"type": "string"}, {"type": "number"})
    assert _messages(several, 1) == ["$: 1 is valid under each of integer, number"]
    assert _messages(several, "x") == []
    assert _messages(_one_of({"type": "integer"}, {"type": "number"}), 1) == [
        "$: 1 is valid under each of integer, number"
    ]


def test_dispatch_false_counts_nothing_omitted_when_nothing_is() -> None:
    payload = {"role": "user", "content": [{"type": "image"}] * 3}
    found, omitted = schemas.violations_counted(payload, "docent/ChatMessage", dispatch=False)
    assert (len(found), omitted) == (3, 0)
    assert (found, omitted) == schemas.violations_counted(payload, "docent/ChatMessage")


def test_the_limit_is_the_number_of_violations_shown_even_inside_unions() -> None:
    payload = {"role": "user", "content": [{"type": "image"}] * 30}
    found, omitted = schemas.violations_counted(payload, "docent/ChatMessage", limit=25)
    assert (len(found), omitted) == (25, 5)
    found, omitted = schemas.violations_counted(payload, "docent/ChatMessage", limit=1)
    assert (len(found), omitted) == (1, 29)
    found, omitted = schemas.violations_counted(payload, "docent/ChatMessage", limit=0)
    assert (len(found), omitted) == (0, 30)
    assert schemas.violations_counted(payload, "docent/ChatMessage") == schemas.violations_counted(
        payload, "docent/ChatMessage", limit=schemas.MAX_VIOLATIONS
    )


def test_too_deep_is_one_violation_and_nothing_omitted() -> None:
    deep: Any = []
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    assert schemas.violations_counted({"role": "user", "content": deep}, "docent/ChatMessage") == (
        [schemas.Violation("$", f"nesting too deep: more than {MAX_DEPTH} levels", "maxDepth")],
        0,
    )


def test_the_json_rules_violations_in_ajv_s_terms() -> None:
    """Nesting too deep gives its limit as `params`, as the npm package does; a number beyond a double
    has no parameter. Neither comes from a schema keyword (no `schemaPath`)."""
    deep: Any = []
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    (too_deep,) = schemas.violations({"role": "user", "content": deep}, "docent/ChatMessage")
    assert (too_deep.instance_path, too_deep.schema_path, too_deep.params) == ("", "", {"limit": MAX_DEPTH})
    (too_big,) = schemas.violations({"role": "user", "content": "x", "metadata": {"n": 10**400}}, "docent/ChatMessage")
    assert (too_big.keyword, too_big.instance_path, too_big.schema_path, too_big.params) == (
        "maxNumber",
        "/metadata/n",
        "",
        {},
    )


# The `$ref` cache: right only without `$dynamicRef`, and only for the schema object it was made for.


@pytest.fixture
def plain_refs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    plain = schemas._plain_ref

    def spy(validator: Any, ref: str, instance: Any, schema: Any) -> Iterator[Any]:
        calls.append(ref)
        return plain(validator, ref, instance, schema)

    monkeypatch.setattr(schemas, "_plain_ref", spy)
    monkeypatch.setattr(schemas, "_resolved_refs", {})
    return calls


def test_refs_are_resolved_once_without_dynamic_refs(plain_refs: list[str]) -> None:
    assert schemas._dynamic_refs() is False
    assert schemas.validator("docent/ChatMessage").is_valid({"role": "user", "content": "hi"})
    assert plain_refs == [] and schemas._resolved_refs


def test_with_a_dynamic_ref_every_ref_is_resolved_as_jsonschema_does(
    plain_refs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schemas, "_dynamic_refs", lambda: True)
    check = schemas.validator("docent/ChatMessage")
    assert check.is_valid({"role": "user", "content": "hi"})
    assert not check.is_valid({"role": "user", "content": 1})
    assert plain_refs and not schemas._resolved_refs


def test_dynamic_refs_are_found_in_any_document(monkeypatch: pytest.MonkeyPatch) -> None:
    documents = {
        "https://example.test/a.json": ("a", {"$defs": {"A": {"type": "object"}}}),
        "https://example.test/b.json": ("b", {"$defs": {"B": {"items": {"$dynamicRef": "#node"}}}}),
    }
    monkeypatch.setattr(schemas, "_documents", lambda: documents)
    assert schemas._dynamic_refs.__wrapped__() is True
    del documents["https://example.test/b.json"]
    assert schemas._dynamic_refs.__wrapped__() is False


def test_a_stale_cache_entry_for_another_schema_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache is keyed by `id()`, which a freed schema's successor may reuse: the entry must be its own."""
    check = schemas.validator("docent/UserMessage")
    stale = ({"$ref": "elsewhere"}, {"type": "string"}, schemas.registry().resolver())
    monkeypatch.setattr(schemas, "_resolved_refs", {id(check.schema): stale})
    assert check.is_valid({"role": "user", "content": "hi"})
    assert not check.is_valid("a string")


def test_formats_used_are_those_written_outside_data_keywords() -> None:
    assert schemas.formats_used() == {"date-time"}
    node = {
        "format": "a",
        "examples": [{"format": "b"}],
        "properties": {"x": {"format": "c"}},
        "const": {"format": "d"},
    }
    assert list(schemas._values_of(node, "format")) == ["a", "c"]


def test_only_family_directories_hold_schemas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stray file or a private directory beside the families is not read (nor crashes the reader)."""
    for family in ("fam", "_private"):
        (tmp_path / family).mkdir()
        (tmp_path / family / "x.json").write_text(json.dumps({"$id": f"https://example.test/{family}.json"}))
    (tmp_path / "fam" / "notes.txt").write_text("not a schema")
    (tmp_path / "README").write_text("not a family")
    monkeypatch.setattr(schemas, "files", lambda _: tmp_path)
    assert schemas._documents.__wrapped__() == {
        "https://example.test/fam.json": ("fam", {"$id": "https://example.test/fam.json"})
    }


def test_a_value_of_none_of_a_unions_types_is_told_every_type_expected() -> None:
    """Not jsonschema's "is not valid under any of the given schemas"."""
    assert [str(v) for v in schemas.violations({"role": "user", "content": 1}, "docent/ChatMessage")] == [
        "$.content: 1 is not of type 'string', 'array'"
    ]
    message: dict[str, Any] = {"message_type": "tool_call_message", "id": "m", "date": "2024-01-01T00:00:00Z"}
    message["tool_call"] = {"name": "f", "arguments": "{}", "tool_call_id": "c"}
    assert [str(v) for v in schemas.violations({**message, "tool_calls": "x"}, "letta/LettaMessage")] == [
        "$.tool_calls: 'x' is not of type 'array', 'object', 'null'"
    ]
    either = _one_of({"type": ["string", "null"]}, {"type": "integer", "minimum": 5})
    assert _messages(either, 1.5) == ["$: 1.5 is not of type 'string', 'null', 'integer'"]
    assert _messages(either, 2) == ["$: 2 is less than the minimum of 5"]  # the one branch of its type


def test_not_rules_are_said_in_words() -> None:
    message: dict[str, Any] = {"message_type": "tool_call_message", "id": "m", "date": "2024-01-01T00:00:00Z"}
    assert [str(v) for v in schemas.violations({**message, "tool_call": {}}, "letta/LettaMessage")] == [
        "$.tool_call: {} has none of 'name', 'arguments', 'tool_call_id': at least one is required"
        " (closest of ToolCall, ToolCallDelta: ToolCallDelta)"
    ]
    check = schemas._DispatchValidator({"not": {"pattern": "\\n"}})
    assert _messages(check, "a\nb") == [r"$: 'a\nb' must not match '\\n'"]
    other = schemas._DispatchValidator({"not": {"type": "string"}})  # any other `not`: jsonschema's words
    assert _messages(other, "a") == ["$: 'a' should not be valid under {'type': 'string'}"]


def test_violations_outside_unions_are_capped_and_counted_too() -> None:
    message: dict[str, Any] = {"message_type": "tool_return_message", "id": "m", "date": "2024-01-01T00:00:00Z"}
    message |= {"tool_return": "x", "status": "success", "tool_call_id": "c", "stdout": [1] * 25}
    found, omitted = schemas.violations_counted(message, "letta/ToolReturnMessage")
    assert (len(found), omitted) == (20, 5)
    assert found[0] == schemas.Violation("$.stdout[0]", "1 is not of type 'string'", "type")


def test_the_deep_validation_thread_returns_raises_or_gives_up_as_asked() -> None:
    """Work that runs out of stack is run again in a thread with a larger one: its result, its
    exception, or (out of stack there too) the too-deep answer reach the caller."""
    threads: list[str] = []

    def work(then: BaseException | None) -> Callable[[], str]:
        def run() -> str:
            threads.append(threading.current_thread().name)
            if len(threads) == 1:
                raise RecursionError
            if then is not None:
                raise then
            return "done"

        return run

    assert schemas._deep_safe([], work(None), lambda refused: "too deep") == "done"
    assert threads == ["MainThread", "chatschema-deep-validation"]
    threads.clear()
    with pytest.raises(KeyError, match="boom"):
        schemas._deep_safe([], work(KeyError("boom")), lambda refused: "too deep")
    threads.clear()
    assert schemas._deep_safe([], work(RecursionError()), lambda refused: "too deep") == "too deep"


def test_a_value_of_none_of_a_nested_unions_types_is_told_them_all() -> None:
    nested = _one_of({"anyOf": [{"type": "string"}, {"type": "array"}]}, {"type": "null"})
    assert _messages(nested, 1) == ["$: 1 is not of type 'string', 'array', 'null'"]


def test_the_branch_explained_does_not_depend_on_the_limit() -> None:
    """With one error kept per branch, a branch whose first error is not its type error must still
    count as ruled out by its type."""
    check = _one_of({"enum": ["a", "b"], "type": "string"}, {"type": "null"})

    def shown(cap: int) -> tuple[list[schemas.Violation], int]:
        schemas._branch_errors.set(cap)
        return schemas._collect(check.iter_errors(1), cap)

    expected = ([schemas.Violation("$", "1 is not of type 'string', 'null'", "type")], 0)
    assert contextvars.copy_context().run(shown, 1) == expected
    assert contextvars.copy_context().run(shown, 20) == expected


def test_not_rules_are_worded_only_for_the_values_they_apply_to() -> None:
    keys = schemas._DispatchValidator({"not": {"properties": {"a": False, "b": False}}})
    assert _messages(keys, 5) == ["$: 5 should not be valid under {'properties': {'a': False, 'b': False}}"]
    pattern = schemas._DispatchValidator({"not": {"pattern": "^x"}})
    assert _messages(pattern, 5) == ["$: 5 should not be valid under {'pattern': '^x'}"]


@pytest.mark.parametrize("length", [185, 186])
def test_a_long_message_keeps_its_start_and_end(length: int) -> None:
    """Messages up to 200 characters are whole; longer, their first 100 and last 50 characters."""
    message = f"{'x' * length!r} was expected"
    assert len(message) == length + 15
    [found] = _messages(schemas._DispatchValidator({"const": "x" * length}), 1)
    assert found == "$: " + (message if length + 15 <= 200 else f"{message[:100]}...{message[-50:]}")


def test_the_limit_holds_in_the_deep_validation_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A payload too deep for the caller's stack is validated in a thread: with the same limit."""
    started: list[str] = []

    class Recorded(threading.Thread):
        def start(self) -> None:
            started.append(self.name)
            super().start()

    monkeypatch.setattr(threading, "Thread", Recorded)
    deep: Any = []
    for _ in range(MAX_DEPTH - 30):
        deep = [deep]
    payload = {"role": "user", "content": [deep, *[{"type": "image"}] * 30]}
    found, omitted = schemas.violations_counted(payload, "docent/ChatMessage", limit=25)
    assert started == ["chatschema-deep-validation"]
    assert len(found) == 25
    every, none_omitted = schemas.violations_counted(payload, "docent/ChatMessage", limit=100)
    assert (len(every), none_omitted) == (31, 0) and set(found) < set(every) and omitted == 6


def test_violations_are_in_payload_order() -> None:
    """Array indexes sort as numbers: `[2]` before `[10]`."""
    payload = {"role": "user", "content": [{"type": "image"}] * 12}
    assert [v.path for v in schemas.violations(payload, "docent/ChatMessage")] == [f"$.content[{i}]" for i in range(12)]
    assert schemas._path_order("$.a[10].b[2]") == ["$.a", 10, ".b", 2, ""]


def test_explained_locates_another_validator_s_keyword_from_that_validator_s_root() -> None:
    """Errors of a validator over other schemas than the shipped ones: `schemaPath` is the failing
    keyword's place in that validator's schema."""
    check = Draft202012Validator({"properties": {"a": {"items": {"type": "string"}}}})
    (found,) = schemas.explained(check.iter_errors({"a": [1]}))
    assert (found.path, found.instance_path, found.schema_path) == ("$.a[0]", "/a/0", "#/properties/a/items/type")


def test_the_schema_locations_are_found_once_not_per_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Locating a violation's keyword reads a table built once: walking every shipped schema per
    violation would cost more than the validation."""
    schemas.violations({"role": "user"}, "docent/ChatMessage")  # built by now
    walks: list[object] = []

    def walk(defs: object) -> dict[int, tuple[Any, str]]:
        walks.append(defs)
        return {}

    monkeypatch.setattr(_pointers, "schema_locations", walk)
    for _ in range(3):
        assert schemas.violations({"role": "user"}, "docent/ChatMessage")[0].schema_path.startswith("#/$defs/")
    assert walks == []


@pytest.mark.parametrize("union", ["anyOf", "oneOf"])
def test_a_false_branch_is_named_as_ajv_names_it(union: str) -> None:
    """jsonschema gives a `false` subschema's error no keyword and no branch: the violation names
    `false schema` at its branch, as ajv does (not `None`)."""
    check = Draft202012Validator({"properties": {"a": {union: [{"type": "string"}, False, {"type": "integer"}]}}})
    (found,) = schemas.explained(check.iter_errors({"a": []}))
    assert (found.path, found.keyword, found.schema_path) == (
        "$.a",
        "false schema",
        f"#/properties/a/{union}/1/false schema",
    )
    assert found.message == "False schema does not allow []"


def test_explained_reads_a_plain_validator_s_errors_by_the_tag_and_quotes_whole_on_request() -> None:
    check = schemas.validator("letta/LettaMessage", dispatch=False)
    reasoning = {"message_type": "reasoning_message", "id": "", "date": "2000-01-01T00:00:00Z"}
    # the branch the tag selects, not another branch's error
    assert [str(v) for v in schemas.explained(check.iter_errors(reasoning))] == [
        "$: 'reasoning' is a required property"
    ]
    long = {**reasoning, "reasoning": "", "source": "s" * 150}
    [cut] = [str(v) for v in schemas.explained(check.iter_errors(long))]
    assert "..." in cut and "s" * 150 not in cut  # as violations() quotes it
    whole = [str(v) for v in schemas.explained(check.iter_errors(long), whole=True)]
    assert whole == [f"$.source: '{'s' * 150}' is not one of ['reasoner_model', 'non_reasoner_model']"]
    assert schemas._whole.get() is False  # restored
    with_key = {**reasoning, "message_type": "user_message", "content": {"k" * 120: 1}}  # a value quoted
    assert "k" * 120 in str(schemas.explained(check.iter_errors(with_key), whole=True)[0])
    assert "k" * 120 not in str(schemas.explained(check.iter_errors(with_key))[0])


def test_explained_whole_names_a_long_key_and_a_long_path_whole() -> None:
    check = Draft202012Validator({"additionalProperties": {"type": "string"}})
    key = "k" * 150
    [whole] = schemas.explained(check.iter_errors({key: 1}), whole=True)
    assert whole.path == f"$['{key}']"
    [cut] = schemas.explained(check.iter_errors({key: 1}))
    assert cut.path == f"$['{'k' * 100}...']"
