"""Reading JSON text, with one behaviour for JSON edge cases whichever parser reads it.

`chatschema validate` and the `parse_*_json` functions of every family read JSON text this way.
orjson is used when it is installed (the `fast` extra); otherwise the standard library's json,
made to behave like it (Pydantic's own `validate_json` does not: see `validate_json` below):

- **duplicate keys**: the last value wins (as in json, orjson, Pydantic and JavaScript's JSON.parse);
- **NaN, Infinity, -Infinity**, and numbers too large for a double (`1e400`): malformed (not JSON);
- **lone surrogate escapes** (`"\\ud800"`) and bytes that are not UTF-8: malformed;
- **integers**: from -2**63 to 2**64 - 1 read exactly; beyond, as the nearest double (as orjson and
  JavaScript read them: `integer` fields accept them, being integral, while the strict Pydantic
  models ask for an int and refuse them); beyond the range of a double (about 1.8e308), malformed;
- **a byte order mark** at the start of a line: malformed (one at the start of a file is skipped);
- **nesting deeper than `max_depth`** (default and maximum 1024, the deepest orjson reads): malformed.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # pydantic is imported only when a model reads JSON, not by `chatschema validate`
    from pydantic import TypeAdapter

MAX_DEPTH = 1024  # the deepest orjson reads: at this limit, orjson checks it for free
DEPTH_LIMIT = MAX_DEPTH


class Malformed(ValueError):
    """The bytes are not one well-formed JSON message; the message says why."""

    def __init__(self, reason: str, too_deep: bool = False) -> None:
        super().__init__(reason)
        self.too_deep = too_deep


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"number {_clip(text)} is too large for a double")
    return value


_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1  # what orjson reads as an int


def _integer(text: str) -> int | float:
    """An integer literal as orjson reads it: exact within 64 bits, else the nearest double."""
    if len(text) < 19:  # at most 18 digits: always within 64 bits
        return int(text)
    value = int(text) if len(text) <= 4300 else _INT_MAX + 1  # int() refuses longer digit strings
    return value if _INT_MIN <= value <= _INT_MAX else _finite(text)


def _clip(text: str) -> str:
    return text if len(text) <= 40 else f"{text[:20]}...{text[-10:]} ({len(text)} characters)"


def _check_surrogates(node: Any) -> None:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            item.encode("utf-8")  # raises UnicodeEncodeError on a lone surrogate
        elif isinstance(item, dict):
            for key, value in item.items():
                key.encode("utf-8")
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)


def stdlib_loads(data: bytes) -> Any:
    """The standard library's json, with the same edge-case behaviour as orjson."""
    text = data.decode("utf-8")
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite, parse_int=_integer)
    except RecursionError:
        # json's C parser follows Python's recursion limit (about 1000); read as deep as orjson does
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(limit + 2 * DEPTH_LIMIT)
        try:
            value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite, parse_int=_integer)
        finally:
            sys.setrecursionlimit(limit)
    if "\\u" in text:
        try:
            _check_surrogates(value)
        except UnicodeEncodeError:
            raise ValueError("lone surrogate escape in a string (not UTF-8 text)") from None
    return value


@cache  # a failed import is slow, and parse_*_json asks on every call
def _orjson_loads() -> Callable[[bytes], Any] | None:
    try:
        import orjson
    except ImportError:
        return None
    return orjson.loads


def loader(prefer_orjson: bool = True) -> Callable[[bytes], Any]:
    """The fastest parser available: orjson, else the standard library's json made to match it."""
    found = _orjson_loads() if prefer_orjson else None
    return found if found is not None else stdlib_loads


def needs_depth_check(loads: Callable[[bytes], Any], max_depth: int) -> bool:
    """Whether parsed messages must be measured: not when orjson parsed them and the limit is its own."""
    return max_depth < DEPTH_LIMIT or loads is not _orjson_loads()


def depth(node: Any) -> int:
    """The nesting depth of a parsed value: 0 for a scalar, 1 for `{}` or `[]`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(node, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
            deepest = max(deepest, level + 1)
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
            deepest = max(deepest, level + 1)
    return deepest


def too_deep(data: bytes, value: Any, max_depth: int) -> bool:
    """Whether a parsed message is nested deeper than `max_depth` (cheap when it cannot be)."""
    if len(data) <= max_depth or data.count(b"{") + data.count(b"[") <= max_depth:
        return False
    return depth(value) > max_depth


def explain(data: bytes, error: BaseException, max_depth: int) -> str:
    """Why `data` could not be parsed, in words that do not depend on the parser."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not valid UTF-8 (byte {exc.start + 1})"
    if _is_too_deep(error):
        return f"nesting too deep: more than {max_depth} levels"
    if data.startswith(b"\xef\xbb\xbf"):
        return "starts with a byte order mark"
    return str(error)


def parse(data: bytes, loads: Callable[[bytes], Any], max_depth: int = MAX_DEPTH) -> Any:
    """Parse one message; raises `Malformed` with the reason."""
    try:
        value = loads(data)
    except (ValueError, RecursionError, UnicodeError) as exc:
        raise Malformed(explain(data, exc, max_depth), too_deep=_is_too_deep(exc)) from None
    if needs_depth_check(loads, max_depth) and too_deep(data, value, max_depth):
        raise Malformed(f"nesting too deep: more than {max_depth} levels", too_deep=True)
    return value


def _is_too_deep(error: BaseException) -> bool:
    return isinstance(error, RecursionError) or "depth limit" in str(error) or "recursion" in str(error)


T = TypeVar("T")


def refused(value: Any) -> tuple[tuple[Any, ...], str, str] | None:
    """Why a parsed value (or one built in Python) breaks the rules above, which JSON text read here
    cannot: nested deeper than MAX_DEPTH (a container holding itself is), or an integer beyond a
    double's range. `(path, reason, keyword)`, the path as keys and indexes; None if it does not."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    huge = False
    # A value built in code may hold one container under many keys (`d = [d, d]` forty times over):
    # walked as a tree, 2**40 visits. Each container is walked again only from deeper than before.
    deepest: dict[int, int] = {}
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            huge = huge or (item.__class__ is int and _beyond_double(item))
            continue
        if level >= MAX_DEPTH:
            return (), f"nesting too deep: more than {MAX_DEPTH} levels", "maxDepth"
        if deepest.get(id(item), -1) >= level:
            continue
        deepest[id(item)] = level
        stack.extend((child, level + 1) for child in children)
    return _first_huge(value) if huge else None


def _beyond_double(value: int) -> bool:
    if value.bit_length() <= 1023:  # within a double's range, and cheap to tell
        return False
    try:
        float(value)
    except OverflowError:
        return True
    return False


def _first_huge(value: Any) -> tuple[tuple[Any, ...], str, str] | None:
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    walked: set[int] = set()  # a container met again holds nothing new (see `refused`)
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict | list | tuple):
            if id(item) in walked:
                continue
            walked.add(id(item))
        if item.__class__ is int and _beyond_double(item):
            digits = item.bit_length() * 30103 // 100000 + 1  # about: str() of it may be refused
            return path, f"integer of about {digits:,} digits: beyond a double's range (about 1.8e308)", "maxNumber"
        children = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list | tuple) else ()
        stack.extend((child, (*path, key)) for key, child in reversed(list(children)))
    return None


def validate_python(adapter: TypeAdapter[T], data: Any, title: str) -> T:
    """`adapter.validate_python(data)` under the same rules as JSON text: a value nested too deep, or
    holding an integer beyond a double's range, raises a `ValidationError` (never RecursionError)."""
    from pydantic import ValidationError
    from pydantic_core import InitErrorDetails, PydanticCustomError

    problem = refused(data)
    if problem is not None:
        path, reason, keyword = problem
        kind = PydanticCustomError("too_deep" if keyword == "maxDepth" else "number_too_large", reason)
        error = InitErrorDetails(type=kind, loc=tuple(path), input=None)
        raise ValidationError.from_exception_data(title, [error])
    return _validated(adapter, data)


def validate_json(adapter: TypeAdapter[T], data: str | bytes, title: str) -> T:
    """Read `data` under the rules above and validate it with `adapter`; malformed JSON raises a
    `ValidationError` of type `json_invalid`, as Pydantic's `validate_json` does.

    Not `adapter.validate_json`: Pydantic's parser reads NaN, Infinity and 1e400 (as inf), and stops
    at about 200 levels of nesting. With orjson this costs about 10% against it; without, about half.
    """
    from pydantic import ValidationError
    from pydantic_core import InitErrorDetails

    if not isinstance(data, str | bytes | bytearray | memoryview):
        raise TypeError(f"{title}: JSON text is a str or bytes, not {type(data).__name__}")
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    try:
        value = parse(raw, loader())
    except Malformed as exc:
        error = InitErrorDetails(type="json_invalid", loc=(), input=data, ctx={"error": str(exc)})
        raise ValidationError.from_exception_data(title, [error]) from None
    return _validated(adapter, value)


def _validated(adapter: TypeAdapter[T], value: Any) -> T:
    """`adapter.validate_python(value)`, its errors bounded in size (`chatschema._errors`)."""
    from pydantic import ValidationError

    from chatschema._errors import raise_bounded

    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        raise_bounded(exc)
