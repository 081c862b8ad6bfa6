"""Issue 8: the fast backend's date-time pattern agrees with the reference on long fractions too."""

from __future__ import annotations

import pytest

from chatschema import schemas
from chatschema.validate.backends import fast_is_valid

CASES = [
    "2024-01-01T00:00:00.1234567890Z",
    "2024-01-01T00:00:00." + "9" * 40 + "+05:30",
    "2024-02-29T23:59:59.1z",
    "2023-02-29T00:00:00Z",
    "2024-01-01T00:00:00.Z",
    "2024-01-01T00:00:00Z\n",
]


@pytest.mark.parametrize("value", CASES)
def test_pattern_and_fast_backend_agree_with_the_rule(value: str) -> None:
    expected = schemas.is_date_time(value)
    message = {"message_type": "assistant_message", "id": "m", "date": value, "content": "x"}
    assert fast_is_valid("letta/LettaMessage")(message) == expected == schemas.is_valid(message, "letta/LettaMessage")
