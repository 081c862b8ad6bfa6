"""The catalogue of schema edits: each a pair of small schema sets, the verdict, the rule that names
the edit, and a witness re-checked here with plain jsonschema against each version's own files."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from release.evolution.engine import ADDED, BOTH, REMOVED, UNCHANGED, UNPROVEN, compare_types
from release.evolution.rules import NARROWED, WIDENED
from release.evolution.witness import Budget

from .schemasets import Files, diff_types, family_types, validator

STR = {"type": "string", "description": "A string."}
INT = {"type": "integer", "description": "An integer."}


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "title": "T",
        "description": "A type.",
        "type": "object",
        "properties": props,
        "required": required or [],
        **extra,
    }


MSG = obj({"role": {"const": "user", "description": "Tag."}, "text": STR, "n": INT}, ["role"])


def msg(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(MSG)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def prop(name: str, schema: Any) -> dict[str, Any]:
    out = copy.deepcopy(MSG)
    if schema is None:
        del out["properties"][name]
    else:
        out["properties"][name] = schema
    return out


def tagged(*branches: str) -> dict[str, Any]:
    return {
        "title": "U",
        "description": "A union.",
        "type": "object",
        "oneOf": [{"$ref": f"#/$defs/{b}"} for b in branches],
        "discriminator": {"propertyName": "kind"},
    }


def branch(tag: str, **props: Any) -> dict[str, Any]:
    return obj({"kind": {"const": tag, "description": "Tag."}, **props}, ["kind"])


UNION = {"U": tagged("A", "B"), "A": branch("a", a=STR), "B": branch("b", b=INT), "C": branch("c")}


def chain(leaf: dict[str, Any]) -> Files:
    return {
        "a.json": {
            "A": obj({"b": {"$ref": "b.json#/$defs/B", "description": "B."}}),
            "C": obj({"d": {"$ref": "b.json#/$defs/D", "description": "D."}}),
        },
        "b.json": {
            "B": obj({"c": {"type": "array", "items": {"$ref": "a.json#/$defs/C"}, "description": "Cs."}}),
            "D": obj({"x": leaf}, ["x"]),
        },
    }


def shared(extra_required: bool) -> Files:
    s = obj({"kind": {"const": "s", "description": "Tag."}, "v": STR}, ["kind", "v"] if extra_required else ["kind"])
    return {
        "a.json": {
            "U1": tagged("S", "A"),
            "U2": {**tagged("S", "B"), "title": "U2"},
            "S": s,
            "A": branch("a"),
            "B": branch("b"),
        }
    }


def tree(required: list[str]) -> Files:
    node = obj(
        {"name": STR, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "description": "Kids."}},
        required,
    )
    return {"a.json": {"Node": node}}


def one(t: dict[str, Any], **others: Any) -> Files:
    return {"a.json": {"T": t, **others}}


# (id, old files, new files, type, verdict, rule fragment)
CASES: list[tuple[str, Files, Files, str, str, str]] = [
    ("add-optional-open", one(MSG), one(prop("extra", STR)), "T", NARROWED, "property 'extra' added"),
    (
        "add-optional-closed",
        one(msg(additionalProperties=False)),
        one({**prop("extra", STR), "additionalProperties": False}),
        "T",
        WIDENED,
        "property 'extra' added",
    ),
    ("remove-optional-open", one(MSG), one(prop("text", None)), "T", WIDENED, "property 'text' removed"),
    (
        "remove-optional-closed",
        one(msg(additionalProperties=False)),
        one({**prop("text", None), "additionalProperties": False}),
        "T",
        NARROWED,
        "property 'text' removed",
    ),
    (
        "optional-to-required",
        one(MSG),
        one(msg(required=["role", "text"])),
        "T",
        NARROWED,
        "property 'text' became required",
    ),
    (
        "required-to-optional",
        one(msg(required=["role", "text"])),
        one(MSG),
        "T",
        WIDENED,
        "property 'text' became optional",
    ),
    (
        "add-required",
        one(MSG),
        one({**prop("id", STR), "required": ["role", "id"]}),
        "T",
        NARROWED,
        "property 'id' became required",
    ),
    (
        "remove-required-closed",
        one({**prop("id", STR), "required": ["role", "id"], "additionalProperties": False}),
        one(msg(additionalProperties=False)),
        "T",
        BOTH,
        "property 'id' removed",
    ),
    (
        "nullable-to-non-nullable",
        one(prop("text", {"type": ["string", "null"], "description": "S."})),
        one(MSG),
        "T",
        NARROWED,
        "type 'null' removed",
    ),
    (
        "non-nullable-to-nullable",
        one(MSG),
        one(prop("text", {"type": ["string", "null"], "description": "S."})),
        "T",
        WIDENED,
        "type 'null' added",
    ),
    (
        "type-widened",
        one(MSG),
        one(prop("n", {"type": "number", "description": "N."})),
        "T",
        WIDENED,
        "type 'number' added",
    ),
    (
        "type-narrowed",
        one(prop("n", {"type": "number", "description": "N."})),
        one(MSG),
        "T",
        NARROWED,
        "type 'number' removed",
    ),
    ("type-changed", one(MSG), one(prop("n", STR)), "T", BOTH, "type 'string' added"),
    (
        "enum-value-added",
        one(prop("text", {"enum": ["a", "b"]})),
        one(prop("text", {"enum": ["a", "b", "c"]})),
        "T",
        WIDENED,
        'enum value "c" added',
    ),
    (
        "enum-value-removed",
        one(prop("text", {"enum": ["a", "b"]})),
        one(prop("text", {"enum": ["a"]})),
        "T",
        NARROWED,
        'enum value "b" removed',
    ),
    (
        "const-changed",
        one(MSG),
        one(prop("role", {"const": "human"})),
        "T",
        BOTH,
        'const changed from "user" to "human"',
    ),
    (
        "union-branch-added",
        {"a.json": UNION},
        {"a.json": {**UNION, "U": tagged("A", "B", "C")}},
        "U",
        WIDENED,
        "union branch C added",
    ),
    (
        "union-branch-removed",
        {"a.json": UNION},
        {"a.json": {**UNION, "U": tagged("A")}},
        "U",
        NARROWED,
        "union branch B removed",
    ),
    (
        "tag-value-renamed",
        {"a.json": UNION},
        {"a.json": {**UNION, "B": branch("bee", b=INT)}},
        "U",
        BOTH,
        'const changed from "b" to "bee"',
    ),
    (
        "pattern-changed",
        one(prop("text", {"type": "string", "pattern": "^[a-z]+$"})),
        one(prop("text", {"type": "string", "pattern": "^[a-z0-9]+$"})),
        "T",
        WIDENED,
        "pattern changed",
    ),
    ("pattern-added", one(MSG), one(prop("text", {"type": "string", "pattern": "^[a-z]*$"})), "T", NARROWED, "pattern"),
    ("format-added", one(MSG), one(prop("text", {"type": "string", "format": "date-time"})), "T", NARROWED, "format"),
    (
        "max-length-lowered",
        one(prop("text", {"type": "string", "maxLength": 5})),
        one(prop("text", {"type": "string", "maxLength": 2})),
        "T",
        NARROWED,
        "maxLength changed from 5 to 2",
    ),
    (
        "min-length-lowered",
        one(prop("text", {"type": "string", "minLength": 3})),
        one(prop("text", {"type": "string", "minLength": 1})),
        "T",
        WIDENED,
        "minLength changed from 3 to 1",
    ),
    (
        "minimum-raised",
        one(prop("n", {"type": "integer", "minimum": 0})),
        one(prop("n", {"type": "integer", "minimum": 10})),
        "T",
        NARROWED,
        "minimum changed from 0 to 10",
    ),
    (
        "maximum-raised",
        one(prop("n", {"type": "integer", "maximum": 10})),
        one(prop("n", {"type": "integer", "maximum": 100})),
        "T",
        WIDENED,
        "maximum changed from 10 to 100",
    ),
    (
        "min-items-added",
        one(prop("text", {"type": "array", "items": STR})),
        one(prop("text", {"type": "array", "items": STR, "minItems": 1})),
        "T",
        NARROWED,
        "minItems 1 added",
    ),
    (
        "items-type-changed",
        one(prop("text", {"type": "array", "items": STR})),
        one(prop("text", {"type": "array", "items": INT})),
        "T",
        BOTH,
        "type 'integer' added",
    ),
    (
        "anyof-null-added",
        one(prop("text", {"anyOf": [STR]})),
        one(prop("text", {"anyOf": [STR, {"type": "null"}]})),
        "T",
        WIDENED,
        "anyOf branch",
    ),
    (
        "additional-properties-closed",
        one(MSG),
        one(msg(additionalProperties=False)),
        "T",
        NARROWED,
        "additionalProperties closed",
    ),
    (
        "additional-properties-opened",
        one(msg(additionalProperties=False)),
        one(MSG),
        "T",
        WIDENED,
        "additionalProperties opened",
    ),
    ("three-refs-deep", chain(STR), chain(INT), "A", BOTH, "via A -> B -> C -> D: type"),
    ("three-refs-deep-leaf", chain(STR), chain(INT), "D", BOTH, "type 'integer' added"),
    ("shared-by-two-unions-1", shared(False), shared(True), "U1", NARROWED, "property 'v' became required"),
    ("shared-by-two-unions-2", shared(False), shared(True), "U2", NARROWED, "property 'v' became required"),
    ("cycle-through-arrays", tree([]), tree(["name"]), "Node", NARROWED, "property 'name' became required"),
    (
        "equivalent-rewrite",
        one(prop("text", {"type": "string", "enum": ["a"]})),
        one(prop("text", {"type": "string", "const": "a"})),
        "T",
        UNPROVEN,
        'const "a" added',
    ),
    ("description-only", one(MSG), one({**MSG, "description": "Another text."}), "T", UNCHANGED, ""),
    ("default-only", one(MSG), one(prop("text", {**STR, "default": "hi"})), "T", UNCHANGED, ""),
    ("type-removed", one(MSG, X=obj({})), one(MSG), "X", REMOVED, ""),
    ("type-added", one(MSG), one(MSG, X=obj({})), "X", ADDED, ""),
    (
        "file-move",
        {"a.json": {"T": obj({"x": {"$ref": "#/$defs/X", "description": "X."}}), "X": obj({"v": STR})}},
        {
            "a.json": {"T": obj({"x": {"$ref": "b.json#/$defs/X", "description": "X."}})},
            "b.json": {"X": obj({"v": STR})},
        },
        "X",
        UNCHANGED,
        "",
    ),
]


def test_catalogue_covers_at_least_thirty_edit_kinds() -> None:
    assert len({case[0] for case in CASES}) == len(CASES) >= 30


@pytest.mark.parametrize(("case", "old", "new", "name", "verdict", "rule"), CASES, ids=[c[0] for c in CASES])
def test_edit(tmp_path: Path, case: str, old: Files, new: Files, name: str, verdict: str, rule: str) -> None:
    report = diff_types(tmp_path, old, new)[name]
    assert report.verdict == verdict, (case, report)
    rules = [c.rule for c in report.changes]
    assert any(rule in r for r in rules) if rule else True, rules
    if verdict in (NARROWED, WIDENED, BOTH):
        directions = {NARROWED, WIDENED} if verdict == BOTH else {verdict}
        assert {w.direction for w in report.witnesses} == directions
        before, after = validator(tmp_path / "old", name), validator(tmp_path / "new", name)
        for w in report.witnesses:
            assert (before.is_valid(w.payload), after.is_valid(w.payload)) == (
                w.direction == NARROWED,
                w.direction == WIDENED,
            )
    else:
        assert report.witnesses == []
    if verdict == UNCHANGED:
        assert report.changes == []


def test_description_edit_is_noted(tmp_path: Path) -> None:
    report = diff_types(tmp_path, one(MSG), one({**MSG, "description": "Another text."}))["T"]
    assert report.notes == ["description changed at /"]


def test_file_move_is_noted(tmp_path: Path) -> None:
    _, old, new, *_ = next(c for c in CASES if c[0] == "file-move")
    assert diff_types(tmp_path, old, new)["X"].notes == ["moved from a.json to b.json"]


def test_same_witnesses_every_run(tmp_path: Path) -> None:
    first = diff_types(tmp_path / "1", one(MSG), one(prop("n", STR)))["T"].witnesses
    second = diff_types(tmp_path / "2", one(MSG), one(prop("n", STR)))["T"].witnesses
    assert first == second and first


def test_named_types_are_judged_as_in_the_whole_comparison(tmp_path: Path) -> None:
    whole = diff_types(tmp_path, chain(STR), chain(INT))
    old, new = family_types(tmp_path / "old"), family_types(tmp_path / "new")
    for names, judged in ((["D"], {"D"}), (["B", "D"], {"B", "C", "D"})):
        some = compare_types(old, new, Budget(), names=names)  # each type with the types it reaches
        assert {r.name for r in some} == judged
        assert all(r == whole[r.name] and r.verdict == BOTH for r in some)


def test_a_change_deep_inside_is_tried_first_in_the_examples_of_the_types_that_reach_it(tmp_path: Path) -> None:
    """A container type changed only through a type deep inside it gets that type's witnesses placed
    in its own examples before any instance of it is generated (generating a large container, such
    as Docent's AgentRun, took its whole time budget)."""
    diff_types(tmp_path, chain(STR), chain(INT))
    old, new = family_types(tmp_path / "old"), family_types(tmp_path / "new")
    example = {"b": {"c": [{"d": {"x": "s"}}]}}
    reports = {r.name: r for r in compare_types(old, new, Budget(), examples=({"A": [example]}, {}))}
    a = reports["A"]
    assert a.verdict == BOTH
    assert all(w.found_by.startswith("BASE example instance, ") for w in a.witnesses), a.witnesses
    before, after = validator(tmp_path / "old", "A"), validator(tmp_path / "new", "A")
    for w in a.witnesses:
        assert (before.is_valid(w.payload), after.is_valid(w.payload)) == (
            w.direction == NARROWED,
            w.direction == WIDENED,
        )
    # without examples the same verdict, found another way
    plain = {r.name: r for r in compare_types(old, new, Budget())}["A"]
    assert plain.verdict == BOTH and not any(w.found_by.startswith("BASE example") for w in plain.witnesses)
