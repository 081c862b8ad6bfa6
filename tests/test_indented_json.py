"""codegen/indented.py writes what `json.dumps(value, indent=2, ensure_ascii=False)` writes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codegen.indented import indented_json

ROOT = Path(__file__).parent.parent

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


def _standard(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_any_json_value_is_written_as_json_dumps_writes_it(value: Any) -> None:
    assert indented_json(value) == _standard(value)


def test_every_generated_json_document_is_written_as_json_dumps_writes_it() -> None:
    documents = sorted((ROOT / "generated").rglob("*.json")) + sorted((ROOT / "npm" / "schemas").rglob("*.json"))
    assert len(documents) > 100
    for path in documents:
        value = json.loads(path.read_text(encoding="utf-8"))
        assert indented_json(value) == _standard(value), path


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        {"a": {}, "b": []},
        ("t", 1),
        '\u2028\x00"\\é😀\ud800',
        -0.0,
        1e16,
        5e-324,
        math.inf,
        -math.inf,
        True,
        2**70,
    ],
)
def test_edge_values_are_written_as_json_dumps_writes_them(value: Any) -> None:
    assert indented_json(value) == _standard(value)


@pytest.mark.parametrize("value", [{1: "a"}, {"a": {1, 2}}, object(), b"bytes"])
def test_what_a_generated_document_never_holds_is_a_type_error(value: Any) -> None:
    """Stricter than json.dumps on keys, which it would turn into strings: a schema's are strings."""
    with pytest.raises(TypeError):
        indented_json(value)
