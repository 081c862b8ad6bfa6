"""The project's format and regex choices give the same verdicts in Python and in ajv.

python-jsonschema and ajv differ by default: python-jsonschema checks `date-time` only when asked
(and then with rfc3339-validator, whose `$` takes a trailing newline), ajv-formats' date-time also
takes a space separator, and Python's `$` matches before a final newline. The project asserts formats
on both sides with one rule (chatschema.schemas.FORMAT_CHECKER / the package's formats.js) and keeps
patterns in the portable subset that lint enforces; these cases pin both decisions down.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from chatschema import schemas
from tests.node import HERE, PACKAGE, run_node

DATE_TIMES: dict[str, bool] = {
    "2025-10-01T12:30:45+00:00": True,
    "2025-10-01T12:30:45Z": True,
    "2025-10-01t12:30:45z": True,  # RFC 3339 allows lower case T and Z
    "2025-10-01T12:30:45.123456789-07:30": True,
    "2024-02-29T00:00:00Z": True,
    "2025-10-01T12:30:45Z\n": False,  # Python's `$` would take it
    "2025-10-01 12:30:45Z": False,  # ajv-formats would take it
    "2025-10-01T12:30:45+01": False,  # ajv-formats would take it
    "2025-10-01T12:30:45+0100": False,
    "2025-10-01T12:30:45": False,
    "2025-02-29T00:00:00Z": False,
    "2025-04-31T00:00:00Z": False,
    "0000-01-01T00:00:00Z": False,
    "2016-12-31T23:59:60Z": False,  # no leap seconds: Python's datetime cannot hold one
    "2025-10-01T24:00:00Z": False,
    "\uff12\uff10\uff12\uff15-10-01T12:30:45Z": False,  # fullwidth digits: Python's \\d would take them
    "": False,
    # each boundary of each field, on both sides (formats.js's ranges and calendar, Python's parser)
    "0001-01-01T00:00:00Z": True,
    "2025-00-01T00:00:00Z": False,
    "2025-09-30T09:59:59Z": True,
    "2025-12-31T10:00:00Z": True,
    "2025-13-01T00:00:00Z": False,
    "2025-10-00T00:00:00Z": False,
    "2025-10-32T00:00:00Z": False,
    "2025-04-30T00:00:00Z": True,
    "2025-06-31T00:00:00Z": False,
    "2025-09-31T00:00:00Z": False,
    "2025-11-31T00:00:00Z": False,
    "2025-01-31T00:00:00Z": True,
    "2025-07-31T00:00:00Z": True,
    "2025-08-31T00:00:00Z": True,
    "2023-02-28T00:00:00Z": True,
    "2024-02-30T00:00:00Z": False,
    "2000-02-29T00:00:00Z": True,  # divisible by 400: a leap year
    "1900-02-29T00:00:00Z": False,  # by 100 but not 400: not one
    "2025-10-01T19:00:00Z": True,
    "2025-10-01T20:00:00Z": True,
    "2025-10-01T23:00:00Z": True,
    "2025-10-01T30:00:00Z": False,
    "2025-10-01T12:59:00Z": True,
    "2025-10-01T12:60:00Z": False,
    "2025-10-01T12:00:60Z": False,
    "2025-10-01T12:30:45.Z": False,
    "2025-10-01T12:30:45.0Z": True,
    "2025-10-01T12:30:45+09:00": True,
    "2025-10-01T12:30:45+10:00": True,
    "2025-10-01T12:30:45-19:00": True,
    "2025-10-01T12:30:45+20:00": True,
    "2025-10-01T12:30:45+23:59": True,
    "2025-10-01T12:30:45-24:00": False,
    "2025-10-01T12:30:45+30:00": False,
    "2025-10-01T12:30:45+05:60": False,
    "2025-10-01T12:30:45Z ": False,
    " 2025-10-01T12:30:45Z": False,
    "12025-10-01T12:30:45Z": False,
    "225-10-01T12:30:45Z": False,
    "2025-1-01T12:30:45Z": False,
    "2025-10-1T12:30:45Z": False,
    "2025-10-01T1:30:45Z": False,
    "2025-10-01T12:3:45Z": False,
    "2025-10-01T12:30:4Z": False,
    "2025-10-01T12:30:45+1:00": False,
    "2025-10-01T12:30:45+01:0": False,
    "2025-10-01X12:30:45Z": False,
}

TIMESTAMPS: dict[str, bool] = {
    "2025-10-01T12:30:45": True,
    "2025-10-01T12:30:45.123456+02:00": True,
    "2025-10-01T12:30:45\n": False,
    "2025-10-01T12:30:45Z\n": False,
    "2025-10-01T12:30:45.1234567": False,
    "\uff12\uff10\uff12\uff15-10-01T12:30:45": False,
}


@cache
def node_verdicts() -> dict[str, list[bool]]:
    result: dict[str, list[bool]] = run_node(
        HERE / "formats.cjs",
        {"package": str(PACKAGE), "date_times": list(DATE_TIMES), "timestamps": list(TIMESTAMPS)},
    )
    return result


def _letta(date: Any) -> dict[str, Any]:
    return {"id": "message-1", "message_type": "system_message", "content": "x", "date": date}


@pytest.mark.parametrize("index", range(len(DATE_TIMES)))
def test_date_time_rule_is_the_same_in_python_and_node(index: int) -> None:
    value, expected = list(DATE_TIMES.items())[index]
    assert schemas.is_date_time(value) is expected, repr(value)
    assert schemas.FORMAT_CHECKER.conforms(value, "date-time") is expected, repr(value)
    assert schemas.validator("letta/SystemMessage").is_valid(_letta(value)) is expected, repr(value)
    assert node_verdicts()["isDateTime"][index] is expected, repr(value)
    assert node_verdicts()["letta"][index] is expected, repr(value)


@pytest.mark.parametrize("index", range(len(TIMESTAMPS)))
def test_bridgic_timestamp_pattern_is_the_same_in_python_and_node(index: int) -> None:
    value, expected = list(TIMESTAMPS.items())[index]
    payload = {"model": "m", "timestamp": value}
    assert schemas.validator("bridgic/TokenUsage").is_valid(payload) is expected, repr(value)
    assert node_verdicts()["bridgic"][index] is expected, repr(value)


def test_format_checker_checks_every_format_the_schemas_use() -> None:
    assert set(schemas.FORMAT_CHECKER.checkers) == {"date-time"}
    assert schemas.FORMAT_CHECKER.conforms(3, "date-time")  # a non-string is the `type` keyword's business
