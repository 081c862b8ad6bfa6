"""Stream grammars (schemas/<family>/grammars/): checked against their union when the schemas are,
shipped to both readers, and followed by them."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from chatschema.letta.grammar import Grammar, letta_stream
from codegen.errors import CodegenError
from codegen.generate import checked_schemas
from codegen.grammars import GrammarFile, grammar_files, grammar_problems
from codegen.load import load_schemas
from codegen.model import build_models

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "schemas" / "letta" / "grammars" / "LettaStreamingResponse.json"
REAL: dict[str, Any] = json.loads(SOURCE.read_text(encoding="utf-8"))


def _problems(contents: dict[str, Any]) -> list[str]:
    files, _ = load_schemas(ROOT)
    family = build_models([f for f in files if f.family == "letta"])["letta"]
    rel = "schemas/letta/grammars/LettaStreamingResponse.json"
    grammar = GrammarFile("letta", "LettaStreamingResponse", rel, json.dumps(contents), contents)
    return [f"{p.pointer}: {p.message}" for p in grammar_problems(grammar, family)]


def _edited(edit: Any) -> dict[str, Any]:
    out = copy.deepcopy(REAL)
    edit(out)
    return out


def test_the_real_grammar_fits_its_union() -> None:
    assert _problems(REAL) == []


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda g: g["roles"]["ping"]["tags"].remove("ping"),
            "/roles: frame 'ping' of LettaStreamingResponse has no role",
        ),
        (
            lambda g: g["roles"]["ping"]["tags"].append("pong"),
            "/roles/ping/tags/1: 'pong' is no frame of LettaStreamingResponse",
        ),
        (
            lambda g: g["roles"]["ping"]["tags"].append("stop_reason"),
            "/roles/stop/tags/0: 'stop_reason' already plays 'ping'",
        ),
        (lambda g: g.update(tag="type"), "/tag: the union's tag is 'message_type'"),
        (
            lambda g: g.update(union="LettaMessage"),
            "/union: names 'LettaMessage'; the file is named for 'LettaStreamingResponse'",
        ),
        (lambda g: g.update(start="nowhere"), "/start: no state 'nowhere'"),
        (lambda g: g["states"]["open"]["next"].update(stop="gone"), "/states/open/next/stop: no state 'gone'"),
        (
            lambda g: g["states"]["open"]["next"].update(message="counted"),
            "/states/open/next/message: a message leaves the state unchanged",
        ),
        (
            lambda g: g["states"]["finished"]["next"].update(message="finished"),
            "/states/stopped: once closed, messages cannot be allowed again",
        ),
        (
            lambda g: g["states"]["open"]["next"].pop("message"),
            "/start: messages must be allowed where the stream starts",
        ),
        (lambda g: g["roles"].update(chunk={"description": "x", "tags": []}), "/roles: 'chunk' is not one of"),
        (lambda g: g.pop("final"), ": 'final' is a required property"),
        (
            lambda g: (
                g["roles"]["stop"]["tags"].clear(),
                g["roles"]["stop"]["tags"].append("usage_statistics"),
                g["roles"]["usage"]["tags"].clear(),
                g["roles"]["usage"]["tags"].append("stop_reason"),
            ),
            "/roles/stop/tags/0: the readers cannot keep 'usage_statistics' as stop",
        ),
    ],
)
def test_a_grammar_the_readers_cannot_follow_is_refused(edit: Any, expected: str) -> None:
    assert any(p.startswith(expected) for p in _problems(_edited(edit))), _problems(_edited(edit))


def test_a_frame_type_added_without_a_role_stops_generation(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    path = tmp_path / "schemas" / "letta" / "grammars" / "LettaStreamingResponse.json"
    path.write_text(json.dumps(_edited(lambda g: g["roles"]["usage"]["tags"].clear())), encoding="utf-8")
    with pytest.raises(CodegenError) as caught:
        checked_schemas(tmp_path)
    assert str(caught.value) == (
        "schemas/letta/grammars/LettaStreamingResponse.json: /roles: "
        "frame 'usage_statistics' of LettaStreamingResponse has no role [grammar]"
    )


def test_a_stream_with_readers_needs_its_grammar(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    (tmp_path / "schemas" / "letta" / "grammars" / "LettaStreamingResponse.json").unlink()
    with pytest.raises(CodegenError) as caught:
        checked_schemas(tmp_path)
    assert str(caught.value) == (
        "schemas/letta/grammars/LettaStreamingResponse.json: /: missing: the stream readers follow it [grammar]"
    )


def test_a_stray_file_among_the_grammars_is_refused(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    (tmp_path / "schemas" / "letta" / "grammars" / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(CodegenError, match=r"grammars/notes.txt: /: only stream grammars"):
        checked_schemas(tmp_path)


def test_the_python_reader_reads_the_shipped_copy_of_the_source() -> None:
    assert letta_stream() == Grammar.of(REAL)


def test_the_npm_reader_gets_the_same_grammar() -> None:
    meta = (ROOT / "npm" / "esm" / "validators" / "letta.meta.js").read_text(encoding="utf-8")
    line = next(x for x in meta.splitlines() if x.startswith("export const grammars = "))
    shipped = json.loads(line.removeprefix("export const grammars = ").removesuffix(";"))["LettaStreamingResponse"]
    assert shipped["roles"] == {r: {k: v for k, v in s.items() if k != "description"} for r, s in REAL["roles"].items()}
    assert shipped["next"] == {name: s["next"] for name, s in REAL["states"].items()}
    assert (shipped["start"], shipped["final"]) == (REAL["start"], REAL["final"])


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "cannot read the grammar: nested deeper than 64 levels, too deep to read"),
        (b'{"description": "\xff"}', "cannot read the grammar: 'utf-8' codec can't decode byte 0xff"),
        (b"", "cannot read the grammar: Expecting value"),
        (b"[]", "a grammar is a JSON object"),
    ],
    ids=["too-deep", "not-utf8", "empty", "not-an-object"],
)
def test_a_grammar_file_that_does_not_read_is_one_line(tmp_path: Path, data: bytes, expected: str) -> None:
    folder = tmp_path / "schemas" / "letta" / "grammars"
    folder.mkdir(parents=True)
    (folder / "LettaStreamingResponse.json").write_bytes(data)
    found, problems = grammar_files(tmp_path, "letta")
    assert found == [] and len(problems) == 1
    assert problems[0].message.startswith(expected), problems[0].message


def test_a_schema_file_too_deep_to_parse_is_one_problem(tmp_path: Path) -> None:
    (tmp_path / "schemas" / "evo").mkdir(parents=True)
    (tmp_path / "schemas" / "evo" / "a.json").write_bytes(b'{"$defs": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    _, problems = load_schemas(tmp_path)
    assert [str(p) for p in problems] == [
        "schemas/evo/a.json: /: invalid JSON: nested deeper than 64 levels, too deep to read"
    ]


def test_the_shipped_grammar_is_shared_and_cannot_be_reassigned() -> None:
    """`letta_stream()` is one object that every stream reader follows: assigning to it is refused,
    so no caller changes the order the readers accept."""
    grammar = letta_stream()
    assert letta_stream() is grammar
    with pytest.raises(AttributeError):
        grammar.start = "stopped"  # type: ignore[misc]
    assert letta_stream().start == "open"
