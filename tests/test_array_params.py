"""The `params` of array keywords the shipped schemas do not use, as `schemas.explained` gives them.

A family generated from other schemas (or errors of a validator built elsewhere) can fail
`uniqueItems` and `contains`; their violations carry ajv's params: `{i, j}` for a duplicate, as
ajv's generic search finds it (the last item equal to an earlier one, then the last such earlier
one: the pairs below are ajv's for a schema without `items`), and `{minContains[, maxContains]}`
for `contains` (also where too few or too many items match: ajv names `contains`, not the bound),
`minContains` 1 when the schema does not say it. Other keywords on an array have ajv's `{}`.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from chatschema import schemas


def _params(schema: dict[str, Any], instance: Any) -> list[tuple[str, dict[str, Any]]]:
    found = schemas.explained(Draft202012Validator(schema).iter_errors(instance))
    return [(v.keyword, v.params) for v in found]


@pytest.mark.parametrize(
    ("items", "pair"),
    [
        ([1, 1], {"i": 1, "j": 0}),
        ([1, 2, 1], {"i": 2, "j": 0}),
        ([1, 1, 2], {"i": 1, "j": 0}),
        ([1, 1, 2, 2], {"i": 3, "j": 2}),
        ([3, 1, 2, 1, 3], {"i": 4, "j": 0}),
        (["a", 1.0, "b", 1], {"i": 3, "j": 1}),
        ([{"a": [1]}, {"a": [1.0]}], {"i": 1, "j": 0}),
    ],
)
def test_a_duplicate_is_named_by_the_pair_ajv_names(items: list[Any], pair: dict[str, int]) -> None:
    assert _params({"type": "array", "uniqueItems": True}, items) == [("uniqueItems", pair)]


def test_contains_matched_by_too_few_or_too_many_items_is_named_contains_with_its_bounds() -> None:
    """jsonschema names the bound that failed (`minContains`, `maxContains`); a violation names
    `contains`, at `#/contains`, with both bounds, as ajv and the npm package do."""
    bounded = {"type": "array", "contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}
    for instance in ([1, "a"], [1, 2, 3, 4]):
        (found,) = schemas.explained(Draft202012Validator(bounded).iter_errors(instance))
        assert (found.keyword, found.schema_path, found.params) == (
            "contains",
            "#/contains",
            {"minContains": 2, "maxContains": 3},
        )


def test_contains_matched_by_no_item_names_its_bounds_minimum_one_by_default() -> None:
    some = {"type": "array", "contains": {"type": "integer"}}
    assert _params(some, ["a"]) == [("contains", {"minContains": 1})]
    bounded = {**some, "minContains": 2, "maxContains": 3}
    assert _params(bounded, ["a"]) == [("contains", {"minContains": 2, "maxContains": 3})]
    at_most = {**some, "maxContains": 1}
    assert _params(at_most, ["a", "b"]) == [("contains", {"minContains": 1, "maxContains": 1})]


def test_other_keywords_on_an_array_with_duplicates_have_no_params() -> None:
    assert _params({"not": {"type": "array"}}, [1, 1]) == [("not", {})]
    assert _params({"contains": {"type": "string"}}, [1, 1]) == [("contains", {"minContains": 1})]
