"""A type that reaches its changed types only through keywords that keep direction can only move as
they do: its search stops at its first witness (release/evolution/monotone.py). Where a keyword can
turn a narrowing into a widening (an untagged `oneOf`, `not`, an `if` condition, `maxContains`), the
search still looks both ways, and finds the reversal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from release.evolution.monotone import monotone
from release.evolution.rules import NARROWED

from .schemasets import diff_types, family_types, validator, write

OBJ: dict[str, Any] = {"type": "object", "description": "Any object."}
NEEDS_X: dict[str, Any] = {"type": "object", "required": ["x"], "description": "An object with x."}
STRING_X: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "string"}}, "description": "x a string."}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _outer(around: dict[str, Any]) -> dict[str, Any]:
    return {"title": "U", "description": "The outer type.", **around}


def _tagged(tag_required: bool = True) -> dict[str, Any]:
    def branch(tag: str) -> dict[str, Any]:
        return {
            "type": "object",
            "description": f"Branch {tag}.",
            "properties": {"k": {"const": tag, "description": "Tag."}, "x": {"type": "string", "description": "X."}},
            "required": ["k"] if tag_required else [],
        }

    union = {"type": "object", "oneOf": [_ref("A"), _ref("B")], "discriminator": {"propertyName": "k"}}
    return {"U": _outer(union), "A": branch("a"), "B": branch("b")}


@pytest.mark.parametrize(
    ("defs", "expected"),
    [
        ({"U": _outer({"type": "object", "properties": {"a": _ref("A")}}), "A": OBJ}, True),
        ({"U": _outer({"type": "array", "items": _ref("A")}), "A": OBJ}, True),
        ({"U": _outer({"allOf": [_ref("A")], "anyOf": [_ref("A"), OBJ]}), "A": OBJ}, True),
        (_tagged(), True),
        ({"U": _outer({"oneOf": [_ref("A"), _ref("B")]}), "A": OBJ, "B": NEEDS_X}, False),
        ({"U": _outer({"not": _ref("A")}), "A": OBJ}, False),
        ({"U": _outer({"if": _ref("A"), "then": OBJ}), "A": OBJ}, False),
        ({"U": _outer({"if": OBJ, "then": _ref("A")}), "A": OBJ}, True),
        ({"U": _outer({"type": "array", "contains": _ref("A"), "maxContains": 1}), "A": OBJ}, False),
        ({"U": _outer({"type": "array", "contains": _ref("A"), "minContains": 1}), "A": OBJ}, True),
        ({"U": _outer({"not": {"pattern": "\\n"}, "properties": {"a": _ref("A")}}), "A": OBJ}, True),
    ],
    ids=[
        "property",
        "items",
        "allOf-anyOf",
        "tagged-union",
        "untagged-oneOf",
        "not",
        "if-condition",
        "then",
        "maxContains",
        "minContains",
        "not-without-ref",
    ],
)
def test_which_keywords_keep_direction(tmp_path: Path, defs: dict[str, Any], expected: bool) -> None:
    types = family_types(write(tmp_path, {"t.json": defs}))
    assert monotone(types, "U") is expected


def test_a_narrowing_inside_a_tagged_union_only_narrows_and_the_search_stops_there(tmp_path: Path) -> None:
    old = _tagged()
    new = _tagged()
    new["A"] = {**new["A"], "required": ["k", "x"]}
    u = diff_types(tmp_path, {"t.json": old}, {"t.json": new})["U"]
    assert u.verdict == NARROWED
    assert "only narrowed, as far as the rules and searches of what it reaches show (monotone.py)" in u.notes
    [w] = u.witnesses
    assert validator(tmp_path / "old", "U").is_valid(w.payload)
    assert not validator(tmp_path / "new", "U").is_valid(w.payload)


def test_a_narrowing_inside_an_untagged_one_of_can_widen_it_and_is_found(tmp_path: Path) -> None:
    """{"x": 1} matched both branches before (so no branch alone: invalid); once A wants x a string,
    it matches only B: valid. {"y": 1, "z": 2} loses A to the new bound. A only narrowed; U both."""
    old = {"U": _outer({"oneOf": [_ref("A"), _ref("B")]}), "A": OBJ, "B": NEEDS_X}
    new = {**old, "A": {**STRING_X, "maxProperties": 1}}
    reports = diff_types(tmp_path, {"t.json": old}, {"t.json": new})
    assert reports["A"].verdict == NARROWED
    u = reports["U"]
    assert u.verdict == "both", u
    assert not any(n.startswith("only ") for n in u.notes)
