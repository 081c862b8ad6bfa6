"""JSON text indented by two spaces, as `json.dumps(value, indent=2, ensure_ascii=False)` writes it.

The standard library's C encoder does not indent, and its pure-Python one takes most of the time
spent laying out generated documents (every standalone schema holds the types it references).
This writer gives the same bytes, about four times faster, for what a generated document holds:
dicts with string keys, lists, strings, numbers, booleans and null.
"""

from __future__ import annotations

from json.encoder import encode_basestring  # the C one where there is one, as json.dumps uses
from typing import Any

__all__ = ["indented_json"]


def indented_json(value: Any) -> str:
    """`value` as `json.dumps(value, indent=2, ensure_ascii=False)` writes it; TypeError on anything
    a generated document does not hold (a non-string key, a set, ...)."""
    parts: list[str] = []
    _write(value, parts, "\n")
    return "".join(parts)


def _write(value: Any, parts: list[str], newline: str) -> None:
    if isinstance(value, str):
        parts.append(encode_basestring(value))
    elif isinstance(value, dict):
        _write_object(value, parts, newline)
    elif isinstance(value, list | tuple):
        _write_array(value, parts, newline)
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        parts.append(int.__repr__(value))
    elif isinstance(value, float):
        parts.append(_number(value))
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _write_object(value: dict[Any, Any], parts: list[str], newline: str) -> None:
    if not value:
        parts.append("{}")
        return
    inner = newline + "  "
    opening = "{"
    for key, item in value.items():
        if not isinstance(key, str):
            raise TypeError(f"keys must be str, not {type(key).__name__}")
        parts.append(f"{opening}{inner}{encode_basestring(key)}: ")
        opening = ","
        _write(item, parts, inner)
    parts.append(newline + "}")


def _write_array(value: list[Any] | tuple[Any, ...], parts: list[str], newline: str) -> None:
    if not value:
        parts.append("[]")
        return
    inner = newline + "  "
    opening = "["
    for item in value:
        parts.append(opening + inner)
        opening = ","
        _write(item, parts, inner)
    parts.append(newline + "]")


def _number(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)
