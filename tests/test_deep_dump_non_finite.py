"""A model's dumps give a non-finite float (NaN, Infinity, which the API accepts from Python values)
as JSON `null`, as Pydantic's JSON mode does, at any depth: past the 254 levels pydantic-core
serializes too."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from chatschema.docent import parse_chat_message


def nested(levels: int, leaf: Any) -> Any:
    for _ in range(levels):
        leaf = [leaf]
    return leaf


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("levels", [1, 300])
def test_a_non_finite_float_dumps_as_null_at_any_depth(value: float, levels: int) -> None:
    model = parse_chat_message({"role": "user", "content": "hi", "metadata": {"n": nested(levels, value)}})
    assert json.loads(model.model_dump_json())["metadata"] == {"n": nested(levels, None)}
    assert model.model_dump(mode="json")["metadata"] == {"n": nested(levels, None)}
