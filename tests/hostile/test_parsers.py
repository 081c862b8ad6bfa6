"""Issue 3: one rule for numbers and depth, whichever parser reads the JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from pydantic import ValidationError

from chatschema import jsontext
from chatschema.letta import parse_letta_streaming_response_json

from .common import BACKENDS, PARSERS, counts, parser, run

LITERALS = [
    "0",
    "-0",
    "18446744073709551615",  # 2**64 - 1: the largest exact
    "18446744073709551616",
    "-9223372036854775808",  # -2**63: the smallest exact
    "-9223372036854775809",
    "123456789012345678901234567890",
    "1" + "0" * 308,
    "1" + "0" * 309,  # beyond a double
    "-" + "9" * 400,
    "1" + "0" * 5000,
    "1e308",
    "1e309",
    "1.5",
    "-1E-400",
]


@pytest.mark.parametrize("literal", LITERALS)
def test_stdlib_reads_numbers_as_orjson_does(literal: str) -> None:
    data = f'{{"n":{literal}}}'.encode()
    try:
        expected = orjson.loads(data)
    except orjson.JSONDecodeError:
        with pytest.raises(ValueError):
            jsontext.stdlib_loads(data)
        return
    got = jsontext.stdlib_loads(data)
    assert got == expected and type(got["n"]) is type(expected["n"])


@pytest.mark.parametrize("digits", [4299, 4300, 4301, 4302])
def test_integers_past_pythons_digit_limit_get_the_double_reason(digits: int) -> None:
    """Python's int() refuses more than 4,300 digits with its own message; the reader's stays the same."""
    with pytest.raises(
        ValueError, match=r"^number 10000000000000000000\.\.\.0000000000 \(\d+ characters\) is too large"
    ):
        jsontext.stdlib_loads(b'{"n":1' + b"0" * (digits - 1) + b"}")


@pytest.mark.parametrize("length", [39, 40, 41, 42])
def test_a_long_number_is_shortened_in_the_reason(length: int) -> None:
    """Up to 40 characters the number is quoted whole; beyond, its first 20 and last 10 and its length."""
    literal = "1" + "0" * (length - 5) + "e999"
    with pytest.raises(ValueError) as caught:
        jsontext.stdlib_loads(f'{{"n":{literal}}}'.encode())
    shown = literal if length <= 40 else f"{literal[:20]}...{literal[-10:]} ({length} characters)"
    assert str(caught.value).startswith(f"number {shown} is too large for a double")


@pytest.mark.parametrize("backend", BACKENDS)
def test_big_integers_get_one_verdict(tmp_path: Path, backend: str) -> None:
    lines = [f'{{"role":"user","content":"x","n":{literal}}}' for literal in LITERALS]
    path = tmp_path / "numbers.jsonl"
    path.write_text("\n".join(lines) + "\n")
    results = [run(["-s", "docent/ChatMessage", "--backend", backend, str(path)], parse_with=p) for p in PARSERS]
    assert counts(results[0][2]) == counts(results[1][2]) == (len(LITERALS), len(LITERALS) - 4, 0, 4)
    locations = [[line.split(": ")[0] for line in out.splitlines()] for _, out, _ in results]
    assert locations[0] == locations[1]


@pytest.mark.parametrize("value", ["5", "18446744073709551616", "1" + "0" * 30, "1" + "0" * 400])
def test_parse_json_gives_the_same_verdict_with_either_parser(value: str) -> None:
    text = '{"message_type":"usage_statistics","completion_tokens":' + value + ',"prompt_tokens":1,"total_tokens":1}'
    outcomes = []
    for name in PARSERS:
        with parser(name):
            try:
                parse_letta_streaming_response_json(text)
                outcomes.append("valid")
            except ValidationError as exc:
                outcomes.append(exc.errors()[0]["type"])
    assert outcomes[0] == outcomes[1]
    # an integer, read exactly or as the nearest (integral) double, as JSON Schema counts it; only
    # one beyond a double's range is refused
    assert (outcomes[0] == "valid") == (len(value) < 400)


@pytest.mark.parametrize(("data", "byte"), [(b"\xff", 1), (b'{"a":"\xc3"}', 7), (b'{"a":"ok"}\xe2\x82', 11)])
def test_a_bad_utf8_reason_names_the_first_bad_byte_counted_from_one(data: bytes, byte: int) -> None:
    for loads in (jsontext.stdlib_loads, orjson.loads):
        with pytest.raises(jsontext.Malformed) as caught:
            jsontext.parse(data, loads)
        assert str(caught.value) == f"not valid UTF-8 (byte {byte})"


@pytest.mark.parametrize(
    ("value", "levels"),
    [(1, 0), ("x", 0), ({}, 1), ([], 1), ({"a": {}}, 2), ([{"a": 1}], 2), ({"a": [{}]}, 3), ({"a": {"b": {}}}, 3)],
)
def test_depth_counts_objects_and_arrays_alike(value: object, levels: int) -> None:
    assert jsontext.depth(value) == levels


@pytest.mark.parametrize("loads", [jsontext.stdlib_loads, orjson.loads])
def test_objects_nested_one_level_too_deep_are_malformed(loads: Any) -> None:
    assert jsontext.parse(b'{"a":{"b":{}}}', loads, max_depth=3) == {"a": {"b": {}}}
    with pytest.raises(jsontext.Malformed, match="nesting too deep: more than 3 levels"):
        jsontext.parse(b'{"a":{"b":{"c":{}}}}', loads, max_depth=3)
