"""Stable rule ids: every kind of schema edit the rules name has an id, each edit below is named by
its kind, and the table in docs/evolution.md lists every id once, with the same name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from release.evolution import ids
from release.evolution.rules import compare
from release.evolution.streams import grammar_changes

ROOT = Path(__file__).resolve().parents[2]
S, N = {"type": "string"}, {"type": "null"}
IF = {"if": {"properties": {"k": {"const": 1}}}, "then": {"required": ["a"]}}

# kind -> (before, after): the smallest edit the rules name with that kind.
EDITS: dict[str, tuple[Any, Any]] = {
    "schema-replaced": ({"properties": {"p": True}}, {"properties": {"p": False}}),
    "json-type-removed": ({"type": ["string", "null"]}, S),
    "json-type-added": (S, {"type": ["string", "null"]}),
    "json-type-set": ({}, S),
    "json-type-unset": (S, {}),
    "enum-value-removed": ({"enum": [1, 2]}, {"enum": [1]}),
    "enum-value-added": ({"enum": [1]}, {"enum": [1, 2]}),
    "const-changed": ({"const": 1}, {"const": 2}),
    "const-added": ({}, {"const": 1}),
    "const-removed": ({"const": 1}, {}),
    "property-became-required": ({"properties": {"a": S}}, {"properties": {"a": S}, "required": ["a"]}),
    "property-became-optional": ({"properties": {"a": S}, "required": ["a"]}, {"properties": {"a": S}}),
    "property-added": ({"properties": {}}, {"properties": {"a": S}}),
    "property-removed": ({"properties": {"a": S}}, {"properties": {}}),
    "pattern-property-added": ({}, {"patternProperties": {"^x": S}}),
    "pattern-property-removed": ({"patternProperties": {"^x": S}}, {}),
    "additional-properties-closed": ({}, {"additionalProperties": False}),
    "additional-properties-opened": ({"additionalProperties": False}, {}),
    "union-branch-added": ({"anyOf": [S]}, {"anyOf": [S, N]}),
    "union-branch-removed": ({"oneOf": [S, N]}, {"oneOf": [S]}),
    "allof-part-added": ({"allOf": [S]}, {"allOf": [S, {"minLength": 1}]}),
    "allof-part-removed": ({"allOf": [S, {"minLength": 1}]}, {"allOf": [S]}),
    "constraint-added": ({}, {"minLength": 1}),
    "constraint-removed": ({"pattern": "^a"}, {}),
    "bound-changed": ({"minLength": 1}, {"minLength": 2}),
    "multiple-of-changed": ({"multipleOf": 2}, {"multipleOf": 4}),
    "pattern-changed": ({"pattern": "^a"}, {"pattern": "^b"}),
    "format-changed": ({"format": "date"}, {"format": "date-time"}),
    "unique-items-changed": ({}, {"uniqueItems": True}),
    "prefix-item-added": ({"prefixItems": []}, {"prefixItems": [S]}),
    "prefix-item-removed": ({"prefixItems": [S]}, {"prefixItems": []}),
    "dependent-required-added": ({}, {"dependentRequired": {"a": ["b"]}}),
    "dependent-required-removed": ({"dependentRequired": {"a": ["b"]}}, {}),
    "conditional-added": ({}, IF),
    "conditional-removed": (IF, {}),
    "conditional-without-if": ({"then": S}, {"then": N}),
    "local-definition-added": ({"$defs": {}}, {"$defs": {"L": S}}),
    "local-definition-removed": ({"$defs": {"L": S}}, {"$defs": {}}),
    "reference-added": ({}, {"$ref": "#/$defs/X"}),
    "reference-removed": ({"$ref": "#/$defs/X"}, {}),
    "reference-changed": ({"$ref": "#/$defs/X"}, {"$ref": "#/$defs/Y"}),
    "keyword-added": ({}, {"readOnly": True}),
    "keyword-removed": ({"readOnly": True}, {}),
    "keyword-changed": ({"readOnly": True}, {"readOnly": False}),
    "map-entry-added": ({"dependentSchemas": {"a": 1}}, {"dependentSchemas": {"a": 1, "b": 2}}),
    "map-entry-removed": ({"dependentSchemas": {"a": 1, "b": 2}}, {"dependentSchemas": {"a": 1}}),
}


def test_every_kind_of_edit_has_an_example_here() -> None:
    assert set(EDITS) == set(ids.CHANGES)


@pytest.mark.parametrize("kind", sorted(EDITS))
def test_each_edit_is_named_by_its_kind(kind: str) -> None:
    before, after = EDITS[kind]
    assert [c.kind for c in compare(before, after)] == [kind]


def _grammar(**changes: Any) -> dict[str, Any]:
    """A small grammar: messages until a stop, which ends the stream."""
    grammar: dict[str, Any] = {
        "tag": "t",
        "roles": {"message": {"tags": ["m"]}, "stop": {"tags": ["s"]}},
        "start": "open",
        "states": {"open": {"next": {"message": "open", "stop": "end"}}, "end": {"next": {}}},
        "final": ["end"],
    }
    grammar.update(changes)
    return grammar


# stream kind -> (before, after): the smallest grammar edit named with that kind.
STREAM_EDITS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "stream-frame-added": (_grammar(), _grammar(roles={"message": {"tags": ["m", "n"]}, "stop": {"tags": ["s"]}})),
    "stream-frame-removed": (_grammar(roles={"message": {"tags": ["m", "n"]}, "stop": {"tags": ["s"]}}), _grammar()),
    "stream-frame-role-changed": (_grammar(), _grammar(roles={"message": {"tags": []}, "stop": {"tags": ["s", "m"]}})),
    "stream-transition-added": (
        _grammar(),
        _grammar(states={"open": {"next": {"message": "open", "stop": "end"}}, "end": {"next": {"stop": "end"}}}),
    ),
    "stream-transition-removed": (
        _grammar(states={"open": {"next": {"message": "open", "stop": "end"}}, "end": {"next": {"stop": "end"}}}),
        _grammar(),
    ),
    "stream-transition-changed": (
        _grammar(),
        _grammar(states={"open": {"next": {"message": "open", "stop": "open"}}, "end": {"next": {}}}),
    ),
    "stream-end-added": (_grammar(), _grammar(final=["end", "open"])),
    "stream-end-removed": (_grammar(final=["end", "open"]), _grammar()),
    "stream-start-changed": (_grammar(), _grammar(start="end")),
}


def test_every_kind_of_stream_edit_has_an_example_here() -> None:
    assert set(STREAM_EDITS) | {"stream-frames-changed"} == set(ids.STREAMS)


@pytest.mark.parametrize("kind", sorted(STREAM_EDITS))
def test_each_stream_edit_is_named_by_its_kind(kind: str) -> None:
    before, after = STREAM_EDITS[kind]
    assert [c.kind for c in grammar_changes("U", before, after)] == [kind]


def test_kinds_survive_nesting_and_prefixes() -> None:
    """A rule lifted into another (`not`, `items`, `additionalProperties: ...`) keeps its kind."""
    changes = compare({"not": {"enum": [1]}, "items": S}, {"not": {"enum": [1, 2]}, "items": N})
    assert sorted(c.kind for c in changes) == ["enum-value-added", "json-type-added", "json-type-removed"]


def test_ids_are_unique_and_well_formed() -> None:
    assert len({r.id for r in ids.ALL}) == len(ids.ALL)
    assert len({r.name for r in ids.ALL}) == len(ids.ALL)
    assert all(re.fullmatch(r"CS\d{3}", r.id) and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name) for r in ids.ALL)
    assert set(ids.VERDICTS) == {"narrowed", "widened", "both", "removed", "added", "unproven", "unknown"}
    assert set(ids.API) == {"removed", "renamed", "changed", "added"}


def test_the_docs_table_lists_every_id_once() -> None:
    text = (ROOT / "docs" / "evolution.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(CS\d{3})` \| `([a-z0-9-]+)` \|", text, re.M)
    assert sorted(rows) == sorted((r.id, r.name) for r in ids.ALL)
