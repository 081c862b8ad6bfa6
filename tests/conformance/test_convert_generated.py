"""Conversions on generated conversations, the suite's slice: 120 drawn messages per family (the full
count, 3,000, runs in `nox -s conformance`: tests/conformance/convert.py)."""

from __future__ import annotations

import pytest

from tests.conformance.convert import FAMILIES, check


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_generated_conversations_convert_with_both_ends_valid_and_nothing_lost(family: str) -> None:
    runs, written = check(family, 120, 20261127)
    assert runs > 5 and written > 0
