"""`validate.backends.Checker`: the backend it builds, what `explain` returns, and the bounded cache of
explanations by tag."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from chatschema import schemas
from chatschema.validate import backends
from chatschema.validate.backends import Checker


def test_each_backend_builds_its_own_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Checker("docent/ChatMessage", "fast").is_valid is backends.fast_is_valid("docent/ChatMessage")
    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)  # the reference needs no jsonschema-rs
    check = Checker("docent/ChatMessage", "jsonschema")
    assert check.is_valid({"role": "user", "content": "hi"}) and not check.is_valid({"role": "bot"})


@pytest.mark.parametrize(
    ("union", "expected"),
    [
        ({"type": "object", "oneOf": [], "discriminator": {}, "title": "T", "description": "d"}, True),
        ({"type": "object", "oneOf": [], "required": ["role"]}, False),  # checks more than the tag
        ({"oneOf": []}, False),  # a non-object would be explained by each branch
        ({"type": "array", "oneOf": []}, False),
        ([], False),
    ],
)
def test_which_unions_are_explained_by_their_tag_alone(union: Any, expected: bool) -> None:
    assert backends.checks_only_the_tag(union) is expected


def test_every_shipped_message_union_is_explained_by_its_tag_alone() -> None:
    assert set(Checker("auto")._unions_by_name) == set(schemas.unions())


def test_explain_a_valid_message_under_auto() -> None:
    """The first union whose branch the message is valid under; no violations."""
    message = {"role": "assistant", "content": "x", "citations": None}
    assert Checker("auto").explain(message) == ("docent/ChatMessage", [], 0)
    assert Checker("docent/UserMessage").explain({"role": "user", "content": "x"}) == ("docent/UserMessage", [], 0)


def test_auto_explains_by_the_first_union_its_tag_fits() -> None:
    """`role: assistant` fits docent/ChatMessage and docent/DocentChatMessage: the first one explains,
    even when another gives more violations."""
    message = {"role": "assistant", "content": 1, "citations": 5}
    checker = Checker("auto")
    assert checker.candidates(message) == ["docent/ChatMessage", "docent/DocentChatMessage"]
    assert len(schemas.violations(message, "docent/DocentChatMessage")) == 2
    assert checker.explain(message) == (
        "docent/ChatMessage",
        [schemas.Violation("$.content", "1 is not of type 'string', 'array'", "type")],
        0,
    )


def test_explain_a_plain_type_a_message_with_no_tag() -> None:
    assert Checker("docent/UserMessage").explain({"role": "user"}) == (
        "docent/UserMessage",
        [schemas.Violation("$", "'content' is a required property", "required")],
        0,
    )


@pytest.mark.parametrize(
    ("families", "params"),
    [
        (("docent",), {"error": "tag", "tag": "role"}),
        (("letta",), {"error": "tag", "tags": ["message_type", "type"]}),
        ((), {"error": "tag", "tags": ["block_type", "role", "message_type", "type"]}),
    ],
)
def test_auto_names_the_tags_a_message_with_none_lacks(families: tuple[str, ...], params: Any) -> None:
    """One tag to pick by is `params.tag`, as a union's own missing tag; several are `params.tags`."""
    schema, (violation,), omitted = Checker("auto", families=families).explain({"x": 1})
    tags = params.get("tags") or [params["tag"]]
    assert (schema, omitted, violation.path, violation.keyword) == ("auto", 0, "$", "discriminator")
    assert violation.message == f"missing discriminator: no {' or '.join(map(repr, tags))} to pick a schema by"
    assert violation.params == params


def test_the_cache_of_explanations_by_tag_is_bounded() -> None:
    """A hostile stream of distinct unknown tags must not grow memory: 4,096 entries, then no more."""
    checker = Checker("docent/ChatMessage")
    for n in range(5000):
        _, found, omitted = checker.explain({"role": f"bot{n}"})
        assert omitted == 0
        assert list(found) == [
            schemas.Violation(
                "$", f"unknown role 'bot{n}', expected one of 'system', 'user', 'assistant', 'tool'", "discriminator"
            )
        ]
    assert len(checker._by_tag) == 4096
    # explained once per tag: the same violations, shared (an immutable tuple) until the cache is full
    assert checker.explain({"role": "bot7"})[1] is checker.explain({"role": "bot7", "x": 1})[1]
    assert isinstance(checker.explain({"role": "bot7"})[1], tuple)
