"""The API applies the rules of JSON text to the values it is given:
nesting to 1024 levels and integers within a double's range, in `schemas` and in `parse_x`; any
other input is a verdict or a documented exception."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from chatschema import schemas
from chatschema.docent import parse_chat_message, parse_chat_message_json

HUGE = 10**5000  # str() of it raises ValueError (4,300 digits at most), which jsonschema's messages call


def _user(**extra: Any) -> dict[str, Any]:
    return {"role": "user", "content": "hi", **extra}


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"role": "user", "content": HUGE}, "$.content"),
        ({"role": HUGE}, "$.role"),
        (_user(metadata={"n": [1, 2**1100]}), "$.metadata.n[1]"),
        (_user(metadata={"n": -(2**1100)}), "$.metadata.n"),
    ],
)
def test_an_integer_beyond_a_double_is_one_violation(payload: dict[str, Any], path: str) -> None:
    assert not schemas.is_valid(payload, "docent/ChatMessage")
    [violation] = schemas.violations(payload, "docent/ChatMessage")
    assert violation.path == path and violation.keyword == "maxNumber"
    assert "beyond a double's range" in violation.message
    with pytest.raises(schemas.PayloadError, match="beyond a double's range"):
        schemas.validate(payload, "docent/ChatMessage")
    with pytest.raises(pydantic.ValidationError, match="beyond a double's range") as caught:
        parse_chat_message(payload)
    assert caught.value.errors()[0]["type"] == "number_too_large"


def test_integers_within_a_double_are_left_to_the_schema() -> None:
    largest = int(1.7976931348623157e308)  # the largest double, as an integer: 1,024 bits
    assert schemas.is_valid(_user(metadata={"n": largest, "m": -largest, "k": 2**1023}), "docent/ChatMessage")
    assert parse_chat_message(_user(metadata={"n": largest})).metadata == {"n": largest}
    for beyond in (2**1024 - 1, largest * 2):  # 1,024 bits too, but past the largest double; 1,025 bits
        assert not schemas.is_valid(_user(metadata={"n": beyond}), "docent/ChatMessage")
    assert schemas.violations({"role": HUGE}, "docent/ChatMessage")[0].message == (
        "integer of about 5,001 digits: beyond a double's range (about 1.8e308)"
    )
    assert schemas.violations({"role": 2**1024}, "docent/ChatMessage")[0].message.startswith(
        "integer of about 309 digits"
    )
    # 100,000 bits: 30,103 digits; the estimate (bits x 0.30103, plus one) says 30,104
    assert schemas.violations({"role": 2**99_999}, "docent/ChatMessage")[0].message.startswith(
        "integer of about 30,104 "
    )


def _nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def test_parse_applies_the_depth_rule_to_dicts_and_cycles() -> None:
    deepest = parse_chat_message(_user(x=_nested(1023)))  # the message is a level: 1,024 in all
    assert deepest.model_dump_json().count("[") == 1023  # and it can be dumped again
    for too_deep in (_user(x=_nested(1024)), _user(metadata={"x": _nested(1023)}), _user(x=_nested(100_000))):
        with pytest.raises(pydantic.ValidationError, match="nesting too deep: more than 1024 levels") as caught:
            parse_chat_message(too_deep)
        assert caught.value.errors()[0]["type"] == "too_deep"
        assert schemas.violations(too_deep, "docent/ChatMessage")[0].keyword == "maxDepth"
    cyclic = _user()
    cyclic["metadata"] = cyclic
    with pytest.raises(pydantic.ValidationError, match="nesting too deep"):
        parse_chat_message(cyclic)
    assert not schemas.is_valid(cyclic, "docent/ChatMessage")


@pytest.mark.parametrize("text", [None, 5, 1.5, ["{}"], {"role": "user"}])
def test_parse_json_of_what_is_not_text_is_a_type_error(text: Any) -> None:
    with pytest.raises(TypeError, match="JSON text is a str or bytes"):
        parse_chat_message_json(text)
    assert parse_chat_message_json(bytearray(b'{"role":"user","content":"hi"}')).role == "user"  # type: ignore[call-overload]
