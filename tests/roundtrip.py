"""What a parse -> dump round trip may change: nothing but the spelling of a date-time's offset."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from chatschema import schemas

# group 1: the fraction, group 2: the offset
DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)$")


def beyond_microsecond(text: str) -> str:
    """The non-zero fraction digits of a date-time past the sixth, which Python's datetime drops."""
    match = DATE_TIME.match(text)
    return (match.group(1) or "")[7:].rstrip("0") if match else ""


def _same_instant(a: str, b: str) -> bool:
    """The same instant, to the last fraction digit."""
    if not (schemas.is_date_time(a) and schemas.is_date_time(b)):
        return False
    try:
        same = datetime.fromisoformat(a.upper()) == datetime.fromisoformat(b.upper())
    except ValueError:
        return False
    return same and beyond_microsecond(a) == beyond_microsecond(b)


def lost(original: Any, dumped: Any, where: str = "$") -> list[str]:
    """Places where `dumped` lost or changed something `original` had (keys it adds are fine)."""
    if isinstance(original, dict):
        if not isinstance(dumped, dict):
            return [f"{where}: became {type(dumped).__name__}"]
        out = [f"{where}.{k}: dropped" for k in original if k not in dumped]
        return out + [p for k in original if k in dumped for p in lost(original[k], dumped[k], f"{where}.{k}")]
    if isinstance(original, list):
        if not isinstance(dumped, list) or len(dumped) != len(original):
            return [f"{where}: list changed"]
        return [p for i, (a, b) in enumerate(zip(original, dumped, strict=True)) for p in lost(a, b, f"{where}[{i}]")]
    if isinstance(original, str) and isinstance(dumped, str) and _same_instant(original, dumped):
        return []  # a date-time dumps in ISO form: "Z" may come back as "+00:00"
    numbers_equal = (
        isinstance(original, int | float)
        and isinstance(dumped, int | float)
        and bool not in (type(original), type(dumped))
        and original == dumped
    )
    if numbers_equal:
        return []  # 3 and 3.0 are the same JSON number
    if original != dumped or type(original) is not type(dumped):
        return [f"{where}: {original!r} became {dumped!r}"]
    return []
