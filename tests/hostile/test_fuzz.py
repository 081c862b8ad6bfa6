"""Fuzzing the readers, the command and `parse_*_json` with the contract's invariants checked on
every draw, under both JSON parsers and both backends: random bytes, random splits of real
messages, random nesting. Bounded here; `nox -s fuzz` runs the same with many more examples
(HYPOTHESIS_PROFILE=fuzz)."""

from __future__ import annotations

import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from chatschema.docent import parse_chat_message_json
from chatschema.jsontext import MAX_DEPTH
from tests.vectors import all_vectors

from .common import BACKENDS, PARSERS, counts, no_traceback, parser, run, verdicts

settings.register_profile("suite", max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
settings.register_profile("fuzz", max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "suite")


@cache
def real_lines() -> list[bytes]:
    """Every valid and invalid vector of the message unions, one JSON line each."""
    unions = {"docent/ChatMessage", "letta/LettaMessage", "bridgic/ContentBlock"}
    return [json.dumps(v.load()).encode() for v in all_vectors() if v.schema_name in unions]


def _nesting(draw: st.DrawFn) -> bytes:
    levels = draw(st.sampled_from([1, 50, 255, 256, MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1]))
    opener, closer = draw(st.sampled_from([(b"[", b"]"), (b'{"a":', b"}")]))
    role = draw(st.sampled_from([b'"user"', b'"bot"', b"1"]))
    inner = opener * levels + b"0" + closer * draw(st.sampled_from([levels, levels - 1]))
    return b'{"role":' + role + b',"content":"x","x":' + inner + b"}"


@st.composite
def lines(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["real", "split", "bytes", "nesting", "json"]))
    if kind == "real":
        return draw(st.sampled_from(real_lines()))
    if kind == "split":
        line = draw(st.sampled_from(real_lines()))
        cut = draw(st.integers(0, len(line)))
        other = draw(st.sampled_from(real_lines()))
        return line[:cut] + other[draw(st.integers(0, len(other))) :]
    if kind == "bytes":
        return draw(st.binary(max_size=60)).replace(b"\n", b" ")
    if kind == "nesting":
        return _nesting(draw)
    value = draw(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
            lambda children: (
                st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
            ),
            max_leaves=20,
        )
    )
    return json.dumps(value).encode()


def expected_messages(data: bytes) -> int:
    """Lines the command must count: every line that is not blank (a BOM at the file's start is skipped)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return sum(1 for line in data.split(b"\n") if line.strip(b" \t\r\n"))  # JSON's whitespace: not \x0b, \x0c


def check_all(path: str, argv: list[str]) -> dict[str, str]:
    """Run every parser and backend; check the invariants; return the verdicts (all the same)."""
    seen: list[tuple[tuple[int, int, int, int], dict[str, str]]] = []
    for name in PARSERS:
        for backend in BACKENDS:
            code, out, err = run([*argv, "--backend", backend, path], parse_with=name)
            no_traceback(out + err)
            assert code in (0, 1), err
            seen.append((counts(err), verdicts(out)))
    assert all(result == seen[0] for result in seen), seen
    return seen[0][1]


@settings.get_profile(PROFILE)
@given(st.lists(lines(), max_size=12), st.sampled_from([b"\n", b"\r\n"]), st.booleans())
def test_jsonl_invariants(body: list[bytes], newline: bytes, bom: bool) -> None:
    data = (b"\xef\xbb\xbf" if bom else b"") + newline.join(body) + newline
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "fuzz.jsonl")
        path.write_bytes(data)
        check_all(str(path), ["-s", "auto"])
        _, _, err = run(["-s", "docent/ChatMessage", str(path)])
        assert counts(err)[0] == expected_messages(data)


def _one_value(piece: bytes) -> bool:
    try:
        json.loads(piece)
    except ValueError:
        return False
    return True


@settings.get_profile(PROFILE)
@given(st.lists(lines(), max_size=8), st.integers(0, 400), st.integers(0, 400))
def test_array_and_document_invariants(body: list[bytes], cut: int, start: int) -> None:
    whole = b"[" + b",".join(body) + b"]"
    data = whole[min(start, len(whole)) : max(len(whole) - cut, 0)] if cut or start else whole
    with tempfile.TemporaryDirectory() as tmp:
        array = Path(tmp, "fuzz.json")
        array.write_bytes(data)
        found = check_all(str(array), ["-s", "docent/ChatMessage", "--each"])
        if data == whole and all(_one_value(piece) for piece in body):  # a piece "a", "b" is two elements
            assert len([w for w in found if w.startswith(str(array) + "[")]) <= len(body)
        check_all(str(array), ["-s", "docent/ChatMessage"])


@settings.get_profile(PROFILE)
@given(lines())
def test_parse_json_same_verdict_with_either_parser(line: bytes) -> None:
    outcomes: list[Any] = []
    for name in PARSERS:
        with parser(name):
            try:
                outcomes.append(parse_chat_message_json(line).model_dump_json())
            except ValidationError as exc:
                outcomes.append(exc.errors()[0]["type"])
    assert outcomes[0] == outcomes[1]
