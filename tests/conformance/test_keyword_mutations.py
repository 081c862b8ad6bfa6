"""The mutation rules of the validation vocabulary (release/evolution/mutations.py): on a small schema,
each rule makes the boundary payloads it names, and jsonschema judges them as the rule means."""

from __future__ import annotations

import json
import math
import unicodedata
from collections import defaultdict
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from codegen import walk
from codegen.native import VOCABULARY
from release.evolution.mutations import ANYTHING, COMBINING, EMOJI, NUMERIC, Walker, mutations
from tests.conformance.bundle import bundle, family_defs
from tests.vectors import all_vectors

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def probes(schema: dict[str, Any], instance: Any) -> dict[str, list[tuple[str, Any]]]:
    """Every mutation of `instance` under `schema`: rule -> [(JSON path, payload)], in order."""
    doc = {"$schema": DRAFT, **schema}
    assert Draft202012Validator(doc).is_valid(instance), "the instance to mutate must be valid"
    found: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    for m in mutations(instance, Walker(doc, "T", {}).walk(instance)):
        found[m.rule].append((m.where, m.build()))
    return found


def valid(schema: dict[str, Any], payload: Any) -> bool:
    return bool(Draft202012Validator({"$schema": DRAFT, **schema}).is_valid(payload))


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def check(schema: dict[str, Any], instance: Any, expected: dict[str, tuple[Any, bool]]) -> None:
    """Each rule made exactly one payload, the one expected, and jsonschema gives it the expected verdict."""
    found = probes(schema, instance)
    for rule, (payload, verdict) in expected.items():
        made = [p for _, p in found[rule]]
        assert made == [payload], (rule, made)
        assert json.dumps(made[0]) == json.dumps(payload), (rule, "1 and 1.0, key order: the very payload")
        assert valid(schema, payload) is verdict, (rule, payload)


STRING = {"type": "object", "properties": {"s": {"type": "string", "minLength": 2, "maxLength": 4}}}


def test_string_lengths_in_code_points() -> None:
    check(
        STRING,
        {"s": "abc"},
        {
            "bound/minLength-below": ({"s": "a"}, False),
            "bound/minLength-at": ({"s": "ab"}, True),
            "bound/minLength-inside": ({"s": "abc"}, True),
            "bound/maxLength-above": ({"s": "abcab"}, False),
            "bound/maxLength-at": ({"s": "abca"}, True),
            "bound/maxLength-inside": ({"s": "abc"}, True),
        },
    )


def test_string_length_traps() -> None:
    """What UTF-16 (JavaScript's length), UTF-8 bytes, graphemes or NFC would count otherwise."""
    check(
        STRING,
        {"s": "abc"},
        {
            "length/emoji-below-min": ({"s": EMOJI}, False),
            "length/combining-at-min": ({"s": COMBINING}, True),
            "length/emoji-at-max": ({"s": "abc" + EMOJI}, True),
            "length/combining-above-max": ({"s": "abc" + COMBINING}, False),
        },
    )
    assert utf16(EMOJI) == 2  # JavaScript counts the one code point short of minLength 2 as long enough
    assert utf16("abc" + EMOJI) == 5  # and the four at maxLength 4 as too long
    assert len(unicodedata.normalize("NFC", "abc" + COMBINING)) == 4  # five code points, four after NFC
    assert len(unicodedata.normalize("NFC", COMBINING)) == 1  # two code points, one character


def test_integer_bounds_step_by_one_and_one_point_zero_is_an_integer() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 10}}}
    check(
        schema,
        {"n": 5},
        {
            "bound/minimum-below": ({"n": -1}, False),
            "bound/minimum-at": ({"n": 0}, True),
            "bound/minimum-inside": ({"n": 1}, True),
            "bound/minimum-at-float": ({"n": 0.0}, True),
            "bound/maximum-above": ({"n": 11}, False),
            "bound/maximum-at": ({"n": 10}, True),
            "bound/maximum-inside": ({"n": 9}, True),
            "bound/maximum-at-float": ({"n": 10.0}, True),
        },
    )


def test_exclusive_number_bounds_step_to_the_next_double() -> None:
    schema = {"properties": {"x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}}}
    check(
        schema,
        {"x": 0.5},
        {
            "bound/exclusiveMinimum-at": ({"x": 0}, False),
            "bound/exclusiveMinimum-inside": ({"x": math.nextafter(0.0, 1.0)}, True),
            "bound/exclusiveMaximum-at": ({"x": 1}, False),
            "bound/exclusiveMaximum-inside": ({"x": math.nextafter(1.0, 0.0)}, True),
        },
    )
    assert not probes(schema, {"x": 0.5})["bound/exclusiveMinimum-below"]  # "at" is already outside


def test_bounds_step_by_multiple_of() -> None:
    schema = {"properties": {"m": {"type": "number", "multipleOf": 0.01, "minimum": 0}}}
    check(
        schema, {"m": 1.5}, {"bound/minimum-below": ({"m": -0.01}, False), "bound/minimum-inside": ({"m": 0.01}, True)}
    )


def test_multiple_of_a_fraction() -> None:
    """0.3 is three tenths in decimal, but 0.3 / 0.1 is 2.9999999999999996 in doubles: jsonschema
    (the oracle) rejects it, as does JavaScript's `%`; 1e308 / 0.1 overflows."""
    schema = {"properties": {"w": {"type": "number", "multipleOf": 0.1}}}
    check(
        schema,
        {"w": 0.5},
        {
            "multipleOf/on-step": ({"w": 0.5}, True),
            "multipleOf/off-step": ({"w": 0.55}, False),
            "multipleOf/float-quotient": ({"w": 0.3}, False),
            "multipleOf/huge": ({"w": 1e308}, False),
        },
    )


def test_multiple_of_an_integer_and_integers_beyond_a_double() -> None:
    schema = {"properties": {"k": {"type": "integer", "multipleOf": 2, "minimum": -(2**70)}}}
    check(
        schema,
        {"k": 4},
        {
            "multipleOf/on-step": ({"k": 4}, True),
            "multipleOf/off-step": ({"k": 5}, False),
            "multipleOf/huge": ({"k": 1e308}, True),  # a whole double: an integer, and even
            # odd, though a double rounds it to the even 2**53
            "bigint/2^53+1": ({"k": 2**53 + 1}, False),
            "bigint/-2^53-1": ({"k": -(2**53) - 1}, False),
            "bigint/2^64+1": ({"k": 2**64 + 1}, False),
        },
    )
    assert float(2**53 + 1) == 2**53
    plain = {"properties": {"k": {"type": "integer", "minimum": 0}}}
    check(plain, {"k": 4}, {"bigint/2^53+1": ({"k": 2**53 + 1}, True), "bigint/-2^53-1": ({"k": -(2**53) - 1}, False)})


def test_a_bound_beyond_a_double() -> None:
    """A maximum of 2**63 - 1: a double holds neither it nor 2**63, the case just above it."""
    schema = {"properties": {"seq": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}}}
    check(
        schema,
        {"seq": 7},
        {"bound/maximum-above": ({"seq": 2**63}, False), "bound/maximum-at": ({"seq": 2**63 - 1}, True)},
    )
    assert not probes(schema, {"seq": 7})["bound/maximum-at-float"]  # no double is 2**63 - 1


ARRAY = {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3, "uniqueItems": True}


def test_item_counts_keep_items_distinct_where_they_must_be() -> None:
    check(
        ARRAY,
        [1, 2],
        {
            "bound/minItems-below": ([], False),
            "bound/minItems-at": ([1], True),
            "bound/minItems-inside": ([1, 2], True),
            "bound/maxItems-above": ([1, 2, 3, 5], False),
            "bound/maxItems-at": ([1, 2, 3], True),
            "bound/maxItems-inside": ([1, 2], True),
        },
    )


def test_unique_items_by_json_equality() -> None:
    check(
        ARRAY,
        [1, 2],
        {
            "uniqueItems/duplicate": ([1, 2, 1], False),
            "uniqueItems/duplicate-float": ([1, 2, 1.0], False),  # 1 and 1.0 are one number
        },
    )
    objects = {"type": "array", "uniqueItems": True}
    check(
        objects,
        [{"a": 1, "b": [2]}],
        {
            "uniqueItems/duplicate-reordered-object": ([{"a": 1, "b": [2]}, {"b": [2], "a": 1}], False),
            "uniqueItems/duplicate-float": ([{"a": 1, "b": [2]}, {"a": 1.0, "b": [2.0]}], False),
            "uniqueItems/bool-number-distinct": ([{"a": 1, "b": [2]}, {"a": True, "b": [2]}], True),
        },
    )
    # true is not 1 in JSON Schema, though it is in Python and in JavaScript's ==
    check(objects, [1, "1"], {"uniqueItems/bool-number-distinct": ([1, "1", True], True)})


def test_prefix_items_by_position() -> None:
    schema = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False}
    found = probes(schema, [1, "a"])
    assert found["prefixItems/wrong-type"] == [("$[0]", ["x", "a"]), ("$[1]", [1, 3])]
    check(
        schema,
        [1, "a"],
        {
            "prefixItems/swapped": (["a", 1], False),
            "prefixItems/short": ([1], True),  # a tuple of fewer items: valid without minItems
            "prefixItems/extra": ([1, "a", "a"], False),  # items: false
        },
    )
    assert all(not valid(schema, p) for _, p in found["prefixItems/wrong-type"])
    # each position is its own schema location (the harness applies each rule once per location)
    places = {m.location for m in mutations([1, "a"], Walker({"$schema": DRAFT, **schema}, "T", {}).walk([1, "a"]))}
    assert {"$[0]", "$[1]", "$[]"} <= places


def test_contains_counts() -> None:
    schema = {"type": "array", "contains": {"type": "string"}, "minContains": 1, "maxContains": 2}
    check(
        schema,
        [1, "a", 2],
        {
            "contains/none": ([1, 2], False),
            "bound/minContains-below": ([1, 2], False),
            "bound/minContains-at": ([1, "a", 2], True),
            "bound/minContains-inside": ([1, "a", 2, "a"], True),
            "bound/maxContains-above": ([1, "a", 2, "a", "a"], False),
            "bound/maxContains-at": ([1, "a", 2, "a"], True),
            "bound/maxContains-inside": ([1, "a", 2], True),
        },
    )
    check({"type": "array", "contains": {"type": "string"}, "minContains": 0}, ["a"], {"contains/none": ([], True)})


MAP = {
    "type": "object",
    "properties": {"a": {"type": "integer"}},
    "required": ["a"],
    "additionalProperties": {"type": "string"},
    "minProperties": 2,
    "maxProperties": 3,
}


def test_property_counts_drop_optional_keys_first_and_copy_entries() -> None:
    check(
        MAP,
        {"a": 1, "x": "s"},
        {
            "bound/minProperties-below": ({"a": 1}, False),
            "bound/minProperties-at": ({"a": 1, "x": "s"}, True),
            "bound/minProperties-inside": ({"a": 1, "x": "s", "xa": "s"}, True),
            "bound/maxProperties-above": ({"a": 1, "x": "s", "xa": "s", "xb": "s"}, False),
            "bound/maxProperties-at": ({"a": 1, "x": "s", "xa": "s"}, True),
            "bound/maxProperties-inside": ({"a": 1, "x": "s"}, True),
        },
    )


def test_additional_properties_as_a_schema() -> None:
    check(
        MAP,
        {"a": 1, "x": "s"},
        {
            "additionalProperties/new-entry": ({"a": 1, "x": "s", "xa": "s"}, True),
            "additionalProperties/bad-value": ({"a": 1, "x": "s", "xa": 3}, False),
        },
    )


def test_property_names() -> None:
    schema = {"type": "object", "propertyNames": {"maxLength": 3}, "additionalProperties": {"type": "integer"}}
    check(
        schema,
        {"ab": 1},
        {
            "propertyNames/bad-key": ({"ab": 1, "#bad key": 1}, False),
            "propertyNames/maxLength-above": ({"abab": 1}, False),
            "propertyNames/maxLength-at": ({"aba": 1}, True),
            "propertyNames/emoji-at-max": ({"ab" + EMOJI: 1}, True),
            "propertyNames/combining-above-max": ({"ab" + COMBINING: 1}, False),
        },
    )


def test_pattern_properties() -> None:
    schema = {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": False}
    check(
        schema,
        {"x-a": "v"},
        {
            "patternProperties/bad-value": ({"x-a": 3}, False),
            "patternProperties/new-key": ({"x-a": "v", "x-aa": "v"}, True),
            "patternProperties/unmatched-key": ({"#x-a": "v"}, False),
        },
    )


def test_dependent_required() -> None:
    schema = {"type": "object", "dependentRequired": {"edited": ["count"]}}
    check(
        schema,
        {"edited": "t", "count": 1},
        {
            "dependentRequired/missing": ({"edited": "t"}, False),
            "dependentRequired/trigger-removed": ({"count": 1}, True),
        },
    )


def test_dependent_schemas() -> None:
    schema = {
        "type": "object",
        "properties": {"anon": {"type": "boolean"}},
        "dependentSchemas": {"stake": {"properties": {"anon": {"const": False}}, "required": ["closes"]}},
    }
    check(
        schema,
        {"stake": 1, "closes": 2, "anon": False},
        {
            "dependentSchemas/trigger-removed": ({"closes": 2, "anon": False}, True),
            "dependentSchemas/missing": ({"stake": 1, "anon": False}, False),
            "dependentSchemas/violated": ({"stake": 1, "closes": 2, "anon": True}, False),
        },
    )


CONDITIONAL = {
    "type": "object",
    "properties": {"role": {"enum": ["user", "tool"]}, "call": {"type": "string"}},
    "required": ["role"],
    "if": {"properties": {"role": {"const": "tool"}}},
    "then": {"required": ["call"]},
    "else": {"properties": {"call": False}},
}


def test_if_then_else() -> None:
    check(
        CONDITIONAL,
        {"role": "tool", "call": "c"},
        {"if/then-missing": ({"role": "tool"}, False), "if/flip-to-else": ({"role": "user", "call": "c"}, False)},
    )
    check(
        CONDITIONAL,
        {"role": "user"},
        {"if/else-violated": ({"role": "user", "call": "x"}, False), "if/flip-to-then": ({"role": "tool"}, False)},
    )


def test_const_and_enum_by_json_equality() -> None:
    schema = {"type": "object", "properties": {"v": {"const": 1}, "f": {"enum": ["text", {"md": True, "t": False}]}}}
    check(
        schema,
        {"v": 1, "f": {"md": True, "t": False}},
        {
            "const/float-twin": ({"v": 1.0, "f": {"md": True, "t": False}}, True),
            "const/bool-number-swap": ({"v": True, "f": {"md": True, "t": False}}, False),
            "enum/reordered": ({"v": 1, "f": {"t": False, "md": True}}, True),
            "enum/bool-number-swap": ({"v": 1, "f": {"md": 1, "t": 0}}, False),
            "enum/nested-change": ({"v": 1, "f": {"md": False, "t": False}}, False),
        },
    )


def test_boolean_schemas() -> None:
    schema = {"type": "object", "properties": {"old": False, "raw": True}}
    check(
        schema,
        {},
        {
            "boolean-schema/false-present": ({"old": None}, False),
            "boolean-schema/true-anything": ({"raw": ANYTHING}, True),
        },
    )
    # a value under `true`: every replacement is valid
    found = probes(schema, {"raw": 1})
    assert found["wrong-type/object"] and all(valid(schema, p) for _, p in found["wrong-type/object"])


def test_keywords_of_a_type_apply_only_to_values_of_that_type() -> None:
    schema = {"type": "object", "additionalProperties": {"maxLength": 2, "minimum": 0, "maxItems": 1}}
    check(
        schema,
        {"a": "xy"},
        {
            # three keys, were their count a length (three items first: but maxItems 1 applies to arrays)
            "untyped/maxLength": ({"a": {"k0": 0, "k1": 0, "k2": 0}}, True),
            "untyped/minimum": ({"a": "-1"}, True),  # a string below the minimum, were it a number
            "untyped/maxItems": ({"a": "xx"}, True),  # two characters, were it an array
        },
    )
    found = probes(schema, {"a": "xy"})
    assert not found["bound/minimum-at"]  # a string has no numeric bounds
    assert [p for _, p in found["bound/maxLength-at"]] == [{"a": "xy"}]


def test_recursion_through_the_document_itself() -> None:
    tree = {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}, "maxItems": 1}}}
    found = probes(tree, {"kids": [{"kids": [{}]}]})
    assert ("$.kids[0].kids", {"kids": [{"kids": [{}, {}]}]}) in found["bound/maxItems-above"]
    assert not valid(tree, {"kids": [{"kids": [{}, {}]}]})
    extra = {"kids": [{"kids": [{"x_conformance_extra": {"nested": [1, "a", None]}}]}]}
    assert ("$.kids[0].kids[0].x_conformance_extra", extra) in found["unknown-key"]


KEYWORD_RULES = (
    "bound/",
    "length/",
    "multipleOf/",
    "bigint/",
    "uniqueItems/",
    "prefixItems/",
    "contains/",
    "propertyNames/",
    "patternProperties/",
    "dependentRequired/",
    "dependentSchemas/",
    "if/",
    "const/",
    "enum/",
    "boolean-schema/",
    "untyped/",
)


def _vocabulary_used(family: str) -> set[str]:
    """The keywords of the validation vocabulary that the family's schemas use."""
    return {k for d in family_defs(family).values() for _, node in walk.subschemas(d) for k in node if k in VOCABULARY}


def _rule_of(rule: str, keywords: set[str]) -> bool:
    """Whether a mutation rule probes one of `keywords` (the `bigint/` rules probe any numeric bound)."""
    return any(k in rule for k in keywords) or (rule.startswith("bigint/") and bool(keywords & set(NUMERIC)))


@pytest.mark.parametrize("family", ["bridgic", "docent", "letta", "swarm"])
def test_real_families_get_only_the_rules_of_the_keywords_they_use(family: str) -> None:
    """The rules follow the keywords: the real families use almost none of the vocabulary (Docent's
    AgentRun asks for one transcript: `minItems`; Letta Code's counters and durations are never
    negative: `minimum`), so their mutations are what they were, plus the rules of what they use
    (only maps, `additionalProperties` as a schema, get its two rules)."""
    used = _vocabulary_used(family)
    assert used == {"docent": {"minItems"}, "letta": {"minimum"}}.get(family, set())
    for vector in (v for v in all_vectors() if v.family == family and v.valid):
        name = vector.schema_name
        walker = Walker(bundle(name), vector.type_name, family_defs(family))
        payload = vector.load()
        rules = {m.rule for m in mutations(payload, walker.walk(payload))}
        stray = {r for r in rules if r.startswith(KEYWORD_RULES) and not _rule_of(r, used)}
        assert not stray, vector.id
