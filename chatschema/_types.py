"""Field types that keep generated models in agreement with JSON Schema formats (copied into chatschema by codegen)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, PlainSerializer, PlainValidator

from chatschema.schemas import is_date_time


def _parse_date_time(value: Any) -> datetime:
    # Only what `format: date-time` accepts under the project's rule (chatschema.schemas.is_date_time,
    # shared with jsonschema and ajv): an RFC 3339 string with an offset (or an aware
    # datetime from Python code). Pydantic's own datetime also takes unix numbers and a
    # space separator, which the schema rejects.
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a date-time needs a time-zone offset")
        return value
    if isinstance(value, str) and is_date_time(value):
        try:
            return datetime.fromisoformat(value.upper())
        except ValueError:
            raise ValueError(f"{value!r} is an RFC 3339 date-time Python cannot represent (leap second?)") from None
    raise ValueError(f"{value!r} is not an RFC 3339 date-time")


DateTime = Annotated[
    datetime,
    PlainValidator(_parse_date_time, json_schema_input_type=str),
    PlainSerializer(lambda v: v.isoformat(), return_type=str, when_used="json"),
]
"""An RFC 3339 date-time, exactly as JSON Schema's `format: date-time` defines it; dumps as ISO 8601 text."""


def _check_date_time_str(value: str) -> str:
    if not is_date_time(value):
        raise ValueError(f"{value!r} is not an RFC 3339 date-time")
    return value


DateTimeStr = Annotated[str, AfterValidator(_check_date_time_str)]
"""A `format: date-time` string in a TypedDict: checked as the schema checks it, kept as written."""


def _integral(value: Any) -> Any:
    # JSON Schema's number model: 1.0 is the integer 1 (Pydantic's strict int refuses it)
    if type(value) is float and value.is_integer():
        return int(value)
    return value


Integer = Annotated[int, BeforeValidator(_integral)]
"""A JSON Schema integer: an int, or a float with no fractional part (`1.0`), read as an int."""

Number = int | float
"""A JSON Schema number: an integer stays an int (as a float, `2**53 + 1` would not survive a round
trip), anything else is a float."""
