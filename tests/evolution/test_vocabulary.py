"""The validation vocabulary, keyword by keyword: each tightening, loosening and change judged with a
direction and a witness that one version's plain jsonschema accepts and the other's refuses (for a
narrowing: valid before, invalid now), and values of the wrong kind told by the generic rule."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from release.evolution.engine import BOTH, UNCHANGED, UNPROVEN
from release.evolution.rules import EITHER, NARROWED, WIDENED, compare
from release.evolution.values import EMOJI, same
from release.evolution.witness import Budget

from .schemasets import Files, diff_types, validator

FAST = Budget(examples=4, candidates=600)
Check = Callable[[dict[str, Any]], bool]  # on the witnesses' payloads, by direction


@dataclass(frozen=True)
class Case:
    """A schema edit: the type `T` before and after, the verdict and a fragment of a rule it names."""

    id: str
    old: Any
    new: Any
    verdict: str
    rule: str
    check: Check | None = None


def prop(schema: Any, **extra: Any) -> dict[str, Any]:
    """An object whose property `v` is `schema`."""
    return {"type": "object", "properties": {"v": schema}, **extra}


def at_v(direction: str, test: Callable[[Any], bool]) -> Check:
    """The witness of `direction` has a property `v` that passes `test`."""
    return lambda found: isinstance(found[direction], dict) and "v" in found[direction] and test(found[direction]["v"])


def emojis(n: int) -> Callable[[Any], bool]:
    return lambda v: v == EMOJI * n


S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741
N = {"type": "number"}
A = {"type": "array"}
O_AB = {"type": "object", "properties": {"a": S, "b": S}}
O_TITLE = {"type": "object", "properties": {"title": S, "b": S, "c": S}}

STRINGS = [
    Case(
        "minLength-raised",
        prop({**S, "minLength": 2}),
        prop({**S, "minLength": 3}),
        NARROWED,
        "minLength changed from 2 to 3",
        at_v(NARROWED, emojis(2)),  # two code points: four UTF-16 units, which a unit count would let through
    ),
    Case(
        "minLength-lowered",
        prop({**S, "minLength": 3}),
        prop({**S, "minLength": 2}),
        WIDENED,
        "minLength changed from 3 to 2",
        at_v(WIDENED, emojis(2)),
    ),
    Case(
        "minLength-added",
        prop(S),
        prop({**S, "minLength": 1}),
        NARROWED,
        "minLength 1 added",
        at_v(NARROWED, emojis(0)),
    ),
    Case("maxLength-raised", prop({**S, "maxLength": 3}), prop({**S, "maxLength": 5}), WIDENED, "maxLength changed"),
    Case(
        "maxLength-removed",
        prop({**S, "maxLength": 3}),
        prop(S),
        WIDENED,
        "maxLength 3 removed",
        at_v(WIDENED, emojis(4)),
    ),
    Case(
        "pattern-either",
        prop({**S, "pattern": "^[a-z]+$"}),
        prop({**S, "pattern": "^[0-9]+$"}),
        BOTH,
        "pattern changed",
    ),
]

NUMBERS = [
    Case(
        "maximum-widened", prop({**I, "maximum": 5}), prop({**I, "maximum": 9}), WIDENED, "maximum changed from 5 to 9"
    ),
    Case("minimum-removed", prop({**N, "minimum": 1.5}), prop(N), WIDENED, "minimum 1.5 removed"),
    Case(
        "exclusiveMinimum-raised",
        prop({**N, "exclusiveMinimum": 0.5}),
        prop({**N, "exclusiveMinimum": 0.6}),
        NARROWED,
        "exclusiveMinimum changed from 0.5 to 0.6",
        at_v(NARROWED, lambda v: 0.5 < v <= 0.6),
    ),
    Case("exclusiveMaximum-added", prop(N), prop({**N, "exclusiveMaximum": 3}), NARROWED, "exclusiveMaximum 3 added"),
    Case(
        "multipleOf-2-to-4",
        prop({**I, "multipleOf": 2}),
        prop({**I, "multipleOf": 4}),
        NARROWED,
        "multipleOf changed from 2 to 4",
        at_v(NARROWED, lambda v: v % 2 == 0 and v % 4 != 0),
    ),
    Case("multipleOf-4-to-2", prop({**I, "multipleOf": 4}), prop({**I, "multipleOf": 2}), WIDENED, "multipleOf"),
    Case("multipleOf-2-to-3", prop({**I, "multipleOf": 2}), prop({**I, "multipleOf": 3}), BOTH, "multipleOf"),
    Case(
        "multipleOf-cent-added",
        prop(N),
        prop({**N, "multipleOf": 0.01}),
        NARROWED,
        "multipleOf 0.01 added",
        at_v(NARROWED, lambda v: round(v * 100) != v * 100),
    ),
    Case(
        "multipleOf-cent-to-two",
        prop({**N, "multipleOf": 0.01}),
        prop({**N, "multipleOf": 0.02}),
        NARROWED,
        "0.01 to 0.02",
    ),
    Case("minimum-1-to-1.0", prop({**N, "minimum": 1}), prop({**N, "minimum": 1.0}), UNCHANGED, ""),
]

STRING_ITEMS = {**A, "items": S}
ARRAYS = [
    Case(
        "minItems-raised",
        prop({**STRING_ITEMS, "minItems": 1}),
        prop({**STRING_ITEMS, "minItems": 2}),
        NARROWED,
        "minItems",
    ),
    Case(
        "maxItems-lowered",
        prop({**STRING_ITEMS, "maxItems": 3}),
        prop({**STRING_ITEMS, "maxItems": 2}),
        NARROWED,
        "maxItems",
    ),
    Case("maxItems-removed", prop({**A, "maxItems": 1}), prop(A), WIDENED, "maxItems 1 removed"),
    Case(
        "uniqueItems-on",
        prop({**A, "items": I}),
        prop({**A, "items": I, "uniqueItems": True}),
        NARROWED,
        "uniqueItems became true",
        at_v(NARROWED, lambda v: v == [1, 1.0] and isinstance(v[1], float)),  # equal as JSON, not as written
    ),
    Case(
        "uniqueItems-on-objects",
        prop({**A, "items": {"type": "object"}, "uniqueItems": False}),
        prop({**A, "items": {"type": "object"}, "uniqueItems": True}),
        NARROWED,
        "uniqueItems became true",
        at_v(NARROWED, lambda v: len(v) == 2 and same(v[0], v[1]) and isinstance(v[0], dict)),
    ),
    Case("uniqueItems-off", prop({**A, "uniqueItems": True}), prop(A), WIDENED, "uniqueItems became false"),
    Case("prefixItems-added", prop(A), prop({**A, "prefixItems": [S]}), NARROWED, "prefixItems item 0 added"),
    Case(
        "prefixItems-item-added",
        prop({**A, "prefixItems": [S]}),
        prop({**A, "prefixItems": [S, I]}),
        NARROWED,
        "prefixItems item 1 added",
    ),
    Case(
        "prefixItems-item-added-closed",
        prop({**A, "prefixItems": [S], "items": False}),
        prop({**A, "prefixItems": [S, I], "items": False}),
        WIDENED,
        "prefixItems item 1 added",
    ),
    Case(
        "prefixItems-item-removed",
        prop({**A, "prefixItems": [S, I]}),
        prop({**A, "prefixItems": [S]}),
        WIDENED,
        "removed",
    ),
    Case(
        "prefixItems-item-changed",
        prop({**A, "prefixItems": [S, S]}),
        prop({**A, "prefixItems": [S, I]}),
        BOTH,
        "prefixItems item 1: type",
    ),
    Case("items-true-to-string", prop(A), prop(STRING_ITEMS), NARROWED, "type set to ['string']"),
    Case("items-string-to-false", prop(STRING_ITEMS), prop({**A, "items": False}), NARROWED, "schema changed"),
    Case("items-false-to-true", prop({**A, "items": False}), prop({**A, "items": True}), WIDENED, "schema changed"),
    Case(
        "contains-added",
        prop(A),
        prop({**A, "contains": S}),
        NARROWED,
        "contains",
        at_v(NARROWED, lambda v: not any(isinstance(x, str) for x in v)),
    ),
    Case("contains-removed", prop({**A, "contains": S}), prop(A), WIDENED, "contains"),
    Case("contains-changed", prop({**A, "contains": S}), prop({**A, "contains": I}), BOTH, "contains: type"),
    Case(
        "minContains-raised",
        prop({**A, "contains": S}),
        prop({**A, "contains": S, "minContains": 2}),
        NARROWED,
        "minContains 2 added",
    ),
    Case(
        "maxContains-added",
        prop({**A, "contains": S}),
        prop({**A, "contains": S, "maxContains": 2}),
        NARROWED,
        "maxContains 2 added",
        at_v(NARROWED, lambda v: sum(isinstance(x, str) for x in v) == 3),
    ),
    Case(
        "maxContains-raised",
        prop({**A, "contains": S, "maxContains": 1}),
        prop({**A, "contains": S, "maxContains": 2}),
        WIDENED,
        "maxContains changed from 1 to 2",
    ),
]

OBJECTS = [
    Case(
        "minProperties-added",
        O_AB,
        {**O_AB, "minProperties": 1},
        NARROWED,
        "minProperties 1 added",
        lambda f: f[NARROWED] == {},
    ),
    Case(
        "maxProperties-lowered", {**O_AB, "maxProperties": 2}, {**O_AB, "maxProperties": 1}, NARROWED, "maxProperties"
    ),
    Case("maxProperties-raised", {**O_AB, "maxProperties": 1}, {**O_AB, "maxProperties": 3}, WIDENED, "maxProperties"),
    Case(
        "patternProperties-added",
        O_AB,
        {**O_AB, "patternProperties": {"^x-": S}},
        NARROWED,
        "pattern property '^x-' added",
        lambda f: any(k.startswith("x-") for k in f[NARROWED]),
    ),
    Case(
        "patternProperties-added-closed",
        {**O_AB, "additionalProperties": False},
        {**O_AB, "patternProperties": {"^x-": S}, "additionalProperties": False},
        WIDENED,
        "pattern property '^x-' added",
    ),
    Case("patternProperties-removed", {**O_AB, "patternProperties": {"^x-": S}}, O_AB, WIDENED, "pattern property"),
    Case(
        "patternProperties-changed",
        {**O_AB, "patternProperties": {"^x-": S}},
        {**O_AB, "patternProperties": {"^x-": I}},
        BOTH,
        "type",
    ),
    Case(
        "propertyNames-added",
        {"type": "object"},
        {"type": "object", "propertyNames": {"maxLength": 3}},
        NARROWED,
        "propertyNames: maxLength 3 added",
        lambda f: any(len(k) > 3 for k in f[NARROWED]),
    ),
    Case(
        "propertyNames-changed",
        {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
        {"type": "object", "propertyNames": {"pattern": "^[a-z0-9]+$"}},
        WIDENED,
        "propertyNames: pattern changed",
    ),
    Case(
        "additionalProperties-true-to-string",
        O_AB,
        {**O_AB, "additionalProperties": S},
        NARROWED,
        "additionalProperties: type set to ['string']",
    ),
    Case(
        "additionalProperties-string-to-false",
        {**O_AB, "additionalProperties": S},
        {**O_AB, "additionalProperties": False},
        NARROWED,
        "additionalProperties closed",
        lambda f: any(isinstance(v, str) for k, v in f[NARROWED].items() if k not in ("a", "b")),
    ),
    Case(
        "additionalProperties-false-to-string",
        {**O_AB, "additionalProperties": False},
        {**O_AB, "additionalProperties": S},
        WIDENED,
        "additionalProperties opened",
    ),
    Case(
        "additionalProperties-loosened",
        {**O_AB, "additionalProperties": S},
        {**O_AB, "additionalProperties": {"type": ["string", "integer"]}},
        WIDENED,
        "additionalProperties: type 'integer' added",
    ),
    Case(
        "dependentRequired-added",
        O_AB,
        {**O_AB, "dependentRequired": {"a": ["b"]}},
        NARROWED,
        "dependentRequired 'a' -> 'b' added",
        lambda f: "a" in f[NARROWED] and "b" not in f[NARROWED],
    ),
    Case(
        "dependentRequired-dependency-added",  # a trigger named like an annotation is still a property name
        {**O_TITLE, "dependentRequired": {"title": ["b"]}},
        {**O_TITLE, "dependentRequired": {"title": ["b", "c"]}},
        NARROWED,
        "dependentRequired 'title' -> 'c' added",
        lambda f: {"title", "b"} <= set(f[NARROWED]) and "c" not in f[NARROWED],
    ),
    Case("dependentRequired-removed", {**O_AB, "dependentRequired": {"a": ["b"]}}, O_AB, WIDENED, "'a' -> 'b' removed"),
    Case(
        "dependentSchemas-added",
        O_AB,
        {**O_AB, "dependentSchemas": {"a": {"required": ["b"]}}},
        NARROWED,
        "when 'a' is present: property 'b' became required",
    ),
    Case(
        "dependentSchemas-removed",
        {**O_AB, "dependentSchemas": {"a": {"required": ["b"]}}},
        O_AB,
        WIDENED,
        "when 'a' is present: property 'b' became optional",
        lambda f: "a" in f[WIDENED] and "b" not in f[WIDENED],
    ),
    Case(
        "dependentSchemas-changed",
        {**O_AB, "dependentSchemas": {"a": {"properties": {"b": {"minLength": 2}}}}},
        {**O_AB, "dependentSchemas": {"a": {"properties": {"b": {"minLength": 3}}}}},
        NARROWED,
        "when 'a' is present: minLength changed from 2 to 3",
        lambda f: "a" in f[NARROWED] and f[NARROWED].get("b") == EMOJI * 2,
    ),
]

KIND = {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "x": S, "y": S}, "required": ["kind"]}
IF_A = {"properties": {"kind": {"const": "a"}}}
CONDITIONALS = [
    Case(
        "if-then-added",
        KIND,
        {**KIND, "if": IF_A, "then": {"required": ["x"]}},
        NARROWED,
        "if/then/else added",
        lambda f: f[NARROWED].get("kind") == "a" and "x" not in f[NARROWED],
    ),
    Case("if-then-removed", {**KIND, "if": IF_A, "then": {"required": ["x"]}}, KIND, WIDENED, "if/then/else removed"),
    Case(
        "then-changed",
        {**KIND, "if": IF_A, "then": {"required": ["x"]}},
        {**KIND, "if": IF_A, "then": {"required": ["x", "y"]}},
        NARROWED,
        "then: property 'y' became required",
    ),
    Case(
        "else-added",
        {**KIND, "if": IF_A, "then": {"required": ["x"]}},
        {**KIND, "if": IF_A, "then": {"required": ["x"]}, "else": {"required": ["y"]}},
        NARROWED,
        "else: property 'y' became required",
        lambda f: f[NARROWED].get("kind") == "b",
    ),
    Case(
        "if-changed",
        {**KIND, "if": IF_A, "then": {"required": ["x"]}},
        {**KIND, "if": {"properties": {"kind": {"const": "b"}}}, "then": {"required": ["x"]}},
        BOTH,
        "if: const changed",
    ),
]

POINT = {"x": 1, "y": [1, 2]}
VALUES = [
    Case("const-object-changed", prop({"const": POINT}), prop({"const": {"x": 1, "y": [2, 1]}}), BOTH, "const changed"),
    Case("const-1-to-1.0", prop({"const": 1}), prop({"const": 1.0}), UNCHANGED, ""),
    Case("const-object-1-to-1.0", prop({"const": POINT}), prop({"const": {"x": 1.0, "y": [1.0, 2]}}), UNCHANGED, ""),
    Case("const-1-to-true", prop({"const": 1}), prop({"const": True}), BOTH, "const changed from 1 to true"),
    Case("enum-same-numbers", prop({"enum": [1, 2.5]}), prop({"enum": [2.5, 1.0]}), UNCHANGED, ""),
    Case(
        "enum-array-removed",
        prop({"enum": [[1, 2], [3], None]}),
        prop({"enum": [[1, 2], None]}),
        NARROWED,
        "enum value [3] removed",
        at_v(NARROWED, lambda v: v == [3]),
    ),
    Case(
        "enum-object-added",
        prop({"enum": [{"a": 1}]}),
        prop({"enum": [{"a": 1}, {"a": 2}]}),
        WIDENED,
        'enum value {"a": 2} added',
    ),
    Case("enum-number-removed", prop({"enum": [1, 2, 3]}), prop({"enum": [1, 3]}), NARROWED, "enum value 2 removed"),
]

JSON_VALUE: dict[str, Any] = {
    "anyOf": [
        {"type": ["string", "number", "boolean", "null"]},
        {"type": "array", "items": {"$ref": "#/$defs/J"}},
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/J"}},
    ]
}
BOOLEANS = [
    Case("property-true-to-false", prop(True), prop(False), NARROWED, "schema changed from true to false"),
    Case("property-false-to-true", prop(False), prop(True), WIDENED, "schema changed from false to true"),
    Case("type-true-to-false", True, False, NARROWED, "schema changed"),
    Case("not-false-to-true", prop({"not": False}), prop({"not": True}), NARROWED, "inside not"),
    Case("allOf-true-to-false", prop({"allOf": [True]}), prop({"allOf": [False]}), NARROWED, "schema changed"),
]


def files(t: Any) -> Files:
    """`T` (and `J`, a recursive JSON value type, for the recursion cases) in one file."""
    return {"a.json": {"T": t, "J": JSON_VALUE}}


CASES = [*STRINGS, *NUMBERS, *ARRAYS, *OBJECTS, *CONDITIONALS, *VALUES, *BOOLEANS]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_keyword(tmp_path: Path, case: Case) -> None:
    report = diff_types(tmp_path, files(case.old), files(case.new), FAST)["T"]
    assert report.verdict == case.verdict, (case.id, report)
    rules = [c.rule for c in report.changes]
    assert not case.rule or any(case.rule in r for r in rules), rules
    if case.verdict == UNCHANGED:
        assert report.changes == [] and report.witnesses == []
        return
    directions = {NARROWED, WIDENED} if case.verdict == BOTH else {case.verdict}
    assert {w.direction for w in report.witnesses} == directions
    before, after = validator(tmp_path / "old", "T"), validator(tmp_path / "new", "T")
    for w in report.witnesses:
        assert (before.is_valid(w.payload), after.is_valid(w.payload)) == (
            w.direction == NARROWED,
            w.direction == WIDENED,
        )
    if case.check is not None:
        assert case.check({w.direction: w.payload for w in report.witnesses}), report.witnesses


def test_recursive_json_value_type(tmp_path: Path) -> None:
    """A `$defs` type that recurses through itself: a bound deep inside it narrows both it and its user."""
    bounded = {
        **JSON_VALUE,
        "anyOf": [*JSON_VALUE["anyOf"][:1], {**JSON_VALUE["anyOf"][1], "maxItems": 1}, JSON_VALUE["anyOf"][2]],
    }
    old = {"a.json": {"T": prop({"$ref": "#/$defs/J"}), "J": JSON_VALUE}}
    new = {"a.json": {"T": prop({"$ref": "#/$defs/J"}), "J": bounded}}
    reports = diff_types(tmp_path, old, new, FAST)
    for name in ("J", "T"):
        report = reports[name]
        assert report.verdict == NARROWED, report
        [w] = report.witnesses
        assert validator(tmp_path / "old", name).is_valid(w.payload)
        assert not validator(tmp_path / "new", name).is_valid(w.payload)


def test_a_keyword_of_the_wrong_kind_in_an_old_revision_is_told_not_crashed(tmp_path: Path) -> None:
    """An old revision lint never saw may hold `"minLength": "2"`: the generic rule names it, and as
    jsonschema cannot apply that version, no payload is a witness."""
    report = diff_types(tmp_path, files(prop({**S, "minLength": "2"})), files(prop({**S, "minLength": 3})), FAST)["T"]
    assert [c.rule for c in report.changes] == ["'minLength' changed from \"2\" to 3"]
    assert report.verdict == UNPROVEN and report.witnesses == []


WRONG_KIND = {
    "minLength": 2,
    "maxLength": 2,
    "minimum": 1,
    "maximum": 1,
    "exclusiveMinimum": 1,
    "exclusiveMaximum": 1,
    "multipleOf": 2,
    "minItems": 1,
    "maxItems": 1,
    "uniqueItems": True,
    "prefixItems": [S],
    "items": S,
    "contains": S,
    "minContains": 1,
    "maxContains": 1,
    "minProperties": 1,
    "maxProperties": 1,
    "patternProperties": {"^x": S},
    "propertyNames": S,
    "additionalProperties": S,
    "dependentRequired": {"a": ["b"]},
    "dependentSchemas": {"a": S},
    "if": S,
    "then": S,
    "else": S,
    "const": 1,
    "enum": [1],
    "required": ["a"],
    "type": "string",
    "pattern": "^a",
    "format": "date-time",
    "$defs": {"X": S},
}


@pytest.mark.parametrize("keyword", sorted(WRONG_KIND))
@pytest.mark.parametrize("wrong", ["2", 2.5, -1, None, [1, "x"], {"a": 1}, True])
def test_values_of_any_kind_never_crash_a_rule(keyword: str, wrong: Any) -> None:
    good = {"type": "object", keyword: WRONG_KIND[keyword]}
    bad = {"type": "object", keyword: wrong} if wrong is not None else {"type": "object"}
    for a, b in ((good, bad), (bad, good)):
        changes = compare(a, b)
        assert changes or same(a, b), (a, b)
        assert all(c.hint in (NARROWED, WIDENED, EITHER) for c in changes)
    mixed = {"type": "object", keyword: {"deep": [wrong, {"minLength": "x"}]}}
    assert compare(good, mixed) and compare(mixed, good)


def test_a_map_of_subschemas_of_the_wrong_kind_is_compared_entry_by_entry() -> None:
    changes = compare({"dependentSchemas": {"a": S, "b": S}}, {"dependentSchemas": {"a": 5, "c": S}})
    assert [(c.where, c.rule) for c in changes] == [
        ("/dependentSchemas/b", "'dependentSchemas' entry 'b' removed"),
        ("/dependentSchemas/c", "'dependentSchemas' entry 'c' added"),
        ("/dependentSchemas/a", 'schema changed from {"type": "string"} to 5'),
    ]


@pytest.mark.parametrize(
    ("keyword", "good", "wrong"),
    [
        *((k, 2, "2") for k in ("minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains")),
        *((k, 2, "2") for k in ("minProperties", "maxProperties", "minimum", "maximum", "multipleOf")),
        ("minLength", 2, -1),
        ("minItems", 2, 1.5),
        ("multipleOf", 2, 0),
        ("exclusiveMinimum", 1, True),  # draft 4's boolean form
        ("uniqueItems", True, "yes"),
        ("prefixItems", [S], S),
        ("items", S, 5),
        ("contains", S, [S]),
        ("propertyNames", S, "^a"),
        ("additionalProperties", S, "no"),
        ("dependentRequired", {"a": ["b"]}, {"a": "b"}),
        ("dependentSchemas", {"a": S}, ["a"]),
        ("required", ["a"], "a"),
        ("type", "string", 5),
        ("pattern", "^a", 5),
        ("enum", [1], 1),
    ],
)
def test_values_of_the_wrong_kind_are_told_by_the_generic_rule(keyword: str, good: Any, wrong: Any) -> None:
    """A value its rule cannot read falls back to the generic rule, usually either."""
    for a, b in ((good, wrong), (wrong, good)):
        [change] = compare({keyword: a}, {keyword: b})
        assert change.rule.startswith(f"'{keyword}' changed from ") and change.hint == EITHER, change


@pytest.mark.parametrize(
    ("old", "new", "hint"),
    [
        (2, 4, NARROWED),
        (4, 2, WIDENED),
        (2, 3, EITHER),
        (0.01, 0.02, NARROWED),
        (0.03, 0.01, WIDENED),
        (0.1, 0.25, EITHER),
    ],
)
def test_multiple_of_direction_is_exact(old: float, new: float, hint: str) -> None:
    """The step's ratio is taken from the decimal as written: 0.01 -> 0.02 doubles it (no float error)."""
    [change] = compare({"multipleOf": old}, {"multipleOf": new})
    assert change.hint == hint and change.probes


def test_probes_sit_at_the_bound() -> None:
    [lower] = compare({"minLength": 2}, {"minLength": 3})
    assert {EMOJI * n for n in (1, 2, 3, 4)} <= set(lower.probes)
    [number] = compare({"maximum": 5}, {"maximum": 9})
    assert {4, 5, 6, 8, 9, 10, 7} <= {p for p in number.probes if isinstance(p, int)}
    [items] = compare({"items": S, "maxItems": 3}, {"items": S, "maxItems": 2})
    assert {len(p) for p in items.probes} == {1, 2, 3, 4} and all(isinstance(x, str) for p in items.probes for x in p)


@pytest.mark.parametrize(
    ("old", "new", "hint"),
    [
        ({"pattern": "^[a-z]+$"}, {"pattern": "^[0-9]+$"}, EITHER),  # neither: the report says so
        ({"maximum": 5}, {"maximum": 9}, WIDENED),
        ({"minLength": 2}, {"minLength": 3}, NARROWED),
        ({"uniqueItems": False}, {"uniqueItems": True}, NARROWED),
        ({}, {"contains": S}, NARROWED),
        ({"items": False, "prefixItems": [S]}, {"items": False, "prefixItems": [S, S]}, WIDENED),
        ({"additionalProperties": S}, {"additionalProperties": False}, NARROWED),
        ({}, {"dependentRequired": {"a": ["b"]}}, NARROWED),
        ({}, {"if": S, "then": I}, NARROWED),
        ({"if": S, "then": I}, {"if": I, "then": I}, EITHER),
        ({"const": {"a": 1}}, {"const": {"a": 2}}, EITHER),
        (True, False, NARROWED),
    ],
)
def test_hints(old: Any, new: Any, hint: str) -> None:
    """The direction each rule names (a hint: the witness decides the verdict)."""
    assert {c.hint for c in compare(old, new)} == {hint}


def test_json_equality_of_numbers_and_booleans() -> None:
    assert compare({"const": 1, "minimum": 2}, {"const": 1.0, "minimum": 2.0}) == []
    assert compare({"enum": [1, {"a": [2]}]}, {"enum": [{"a": [2.0]}, 1.0]}) == []
    assert [c.rule for c in compare({"const": True}, {"const": 1})] == ["const changed from true to 1"]
    assert [c.rule for c in compare({"enum": [0]}, {"enum": [False]})] == [
        "enum value 0 removed",
        "enum value false added",
    ]
