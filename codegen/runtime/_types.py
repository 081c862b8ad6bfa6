"""Field types that keep generated models in agreement with JSON Schema formats (copied into chatschema by codegen)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, PlainSerializer, PlainValidator
from rfc3339_validator import validate_rfc3339  # type: ignore[import-untyped]


def _parse_date_time(value: Any) -> datetime:
    # Only what `format: date-time` accepts: an RFC 3339 string with an offset (or an aware
    # datetime from Python code). Pydantic's own datetime also takes unix numbers and a
    # space separator, which the schema rejects.
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a date-time needs a time-zone offset")
        return value
    if isinstance(value, str) and validate_rfc3339(value.upper()):  # RFC 3339 allows `t` and `z`, as jsonschema does
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
    if not validate_rfc3339(value.upper()):
        raise ValueError(f"{value!r} is not an RFC 3339 date-time")
    return value


DateTimeStr = Annotated[str, AfterValidator(_check_date_time_str)]
"""A `format: date-time` string in a TypedDict: checked as the schema checks it, kept as written."""
