"""The text report reads in one pass: nothing cut (long lines wrapped, witnesses folded and parsed
back whole), a union witness explained by the branch its tag selects, a TypeScript interface's
change said member by member, witnesses made of short ASCII values where the change allows, and
the failure line naming each category that failed."""

from __future__ import annotations

import datetime
import json
import re
import shutil
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from codegen.load import load_schemas
from release.evolution.api import ApiChange, api_entries, compare_api, member_changes
from release.evolution.canonical import FamilyTypes
from release.evolution.engine import FamilyReport, TypeReport, as_json, compare_types
from release.evolution.findings import Finding, collect, failure_line
from release.evolution.gate import VERDICT_CATEGORIES, resolve
from release.evolution.ids import API, VERDICTS
from release.evolution.report import WIDTH, api_lines, fold_json, render_text, wrap
from release.evolution.values import EMOJI
from release.evolution.witness import DATE, Budget, shrink

from .schemasets import diff_types, validator, write

ROOT = Path(__file__).resolve().parents[2]
HEAD = re.compile(r"^ *witness, (valid before, invalid now|invalid before, valid now):", re.M)


def report_witnesses(text: str) -> list[Any]:
    """Every witness in a text report, parsed back from its (possibly folded) JSON text."""
    decoder = json.JSONDecoder()
    return [decoder.raw_decode(text[m.end() :].lstrip())[0] for m in HEAD.finditer(text)]


def words(text: str) -> str:
    """`text` with every run of whitespace one space: what a wrapped text still holds."""
    return " ".join(text.split())


def leaves(value: Any) -> Iterator[Any]:
    """Every key and scalar of a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from leaves(v)
    else:
        yield value


def plain(value: Any) -> bool:
    """A short printable ASCII string, a small number, a boolean or null."""
    if isinstance(value, str):  # as long as a date, or a tag such as "transcript_supplement"
        return len(value) <= 24 and all(" " <= c <= "~" for c in value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return abs(value) <= 100
    return True


def assert_whole(text: str, types: list[TypeReport], api: list[ApiChange]) -> None:
    """Nothing of the report is cut: no line past the width, every witness parses back, every
    rule, explanation and API member is there word for word."""
    assert "..." not in text
    assert all(len(line) <= WIDTH for line in text.splitlines()), max(text.splitlines(), key=len)
    shown = [w.payload for t in types for w in t.witnesses]
    assert shown and report_witnesses(text) == shown
    flat = words(text)
    for t in types:
        for c in t.changes:
            assert words(c.rule) in flat
        for w in t.witnesses:
            assert words(f"{w.found_by}; rejected: {w.rejected_because}") in flat
    for a in api:
        for part in a.members or (a.detail,):
            assert words(part) in flat


# --- the real Letta edit: ReasoningMessage.signature required, ReasoningMessage.source gains "x_model"


def _letta_edit(doc: dict[str, Any]) -> None:
    reasoning = doc["$defs"]["ReasoningMessage"]
    reasoning["required"].append("signature")
    reasoning["properties"]["source"]["enum"].append("x_model")


def _letta(dest: Path, edit: Callable[[dict[str, Any]], None] | None) -> FamilyTypes:
    shutil.copytree(ROOT / "schemas" / "letta", dest / "schemas" / "letta", ignore=shutil.ignore_patterns("examples"))
    if edit is not None:
        path = dest / "schemas" / "letta" / "letta_message.json"
        doc = json.loads(path.read_text(encoding="utf-8"))
        edit(doc)
        path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    files, problems = load_schemas(dest)
    assert not problems, problems
    return FamilyTypes.of("letta", files)


def _letta_api() -> list[ApiChange]:
    """The API change of the edit, on the generated entries as shipped (their new text edited alike)."""
    old = api_entries(ROOT, "letta")
    assert old is not None
    new = dict(old)
    for kind in ("Pydantic", "TypedDict"):
        signature, source = f"{kind} field ReasoningMessage.signature", f"{kind} field ReasoningMessage.source"
        new[signature] = "str | None (required)" if kind == "Pydantic" else "str | None"
        new[source] = old[source].replace("'non_reasoner_model']", "'non_reasoner_model', 'x_model']")
    ts = "TypeScript interface ReasoningMessage"
    new[ts] = (
        old[ts]
        .replace("signature?: string | null", "signature: string | null")
        .replace('| "non_reasoner_model";', '| "non_reasoner_model" | "x_model";')
    )
    return compare_api("letta", old, new)


@pytest.fixture(scope="module")
def letta(tmp_path_factory: pytest.TempPathFactory) -> FamilyReport:
    tmp = tmp_path_factory.mktemp("letta")
    types = compare_types(_letta(tmp / "old", None), _letta(tmp / "new", _letta_edit), Budget())
    return FamilyReport("letta", "HEAD", "2.0.0", "2.0.0", "none", types, _letta_api())


def _type(report: FamilyReport, name: str) -> TypeReport:
    return next(t for t in report.types if t.name == name)


def test_the_letta_report_is_whole_and_every_witness_parses_back(letta: FamilyReport) -> None:
    text = render_text([letta])
    changed = [t for t in letta.types if t.witnesses]
    assert {t.name for t in changed} == {
        "LettaMessage",
        "LettaResponse",
        "LettaStreamingResponse",
        "ReasoningMessage",
        # Letta Code's records that carry a Letta message or frame
        "MessageWire",
        "StreamEvent",
        "TranscriptBackfillMessage",
        "TranscriptSupplementMessage",
        "WireMessage",
    }
    assert_whole(text, changed, letta.api)
    # the json format keeps each witness as JSON data
    data = as_json([letta])["families"][0]["types"]
    assert [w["payload"] for t in data for w in t["witnesses"]] == [w.payload for t in changed for w in t.witnesses]


def test_a_union_witness_is_explained_by_the_branch_its_tag_selects(letta: FamilyReport) -> None:
    narrowed = {t.name: next(w for w in t.witnesses if w.direction == "narrowed") for t in letta.types if t.witnesses}
    for name in ("LettaMessage", "LettaStreamingResponse", "ReasoningMessage"):
        assert narrowed[name].payload["message_type"] == "reasoning_message"
        assert narrowed[name].rejected_because == "$: 'signature' is a required property"
    assert narrowed["LettaResponse"].rejected_because == "$.messages[0]: 'signature' is a required property"
    widened = next(w for w in _type(letta, "LettaMessage").witnesses if w.direction == "widened")
    assert widened.rejected_because == "$.source: 'x_model' is not one of ['reasoner_model', 'non_reasoner_model']"


def test_letta_witnesses_are_short_ascii_values(letta: FamilyReport) -> None:
    witnesses = [w for t in letta.types for w in t.witnesses]
    assert witnesses
    for w in witnesses:
        assert all(plain(v) for v in leaves(w.payload)), w.payload
    message = _type(letta, "ReasoningMessage").witnesses
    assert message[0].payload == {
        "date": DATE,
        "id": "",
        "message_type": "reasoning_message",
        "reasoning": "",
    }
    assert message[1].payload == {**message[0].payload, "signature": None, "source": "x_model"}


def test_the_letta_failure_line_names_each_category(letta: FamilyReport) -> None:
    settings = {"letta": resolve(None, None, None, None)}
    findings = collect([letta], settings, False, [], datetime.date(2026, 1, 1))
    assert failure_line(findings) == (
        "diff: 23 finding(s) fail the gate: 18 narrowed and widened (letta/LettaMessage, letta/LettaResponse, "
        "letta/LettaStreamingResponse, letta/MessageWire, letta/ReasoningMessage, letta/StreamEvent, "
        "letta/TranscriptBackfillMessage, letta/TranscriptSupplementMessage, letta/WireMessage), "
        "5 api (letta/ReasoningMessage)"
    )
    ts = next(f for f in findings if "TypeScript interface" in f.message)
    assert ts.message == (
        "letta/ReasoningMessage: API changed (major): TypeScript interface ReasoningMessage: "
        'source?: "reasoner_model" | "non_reasoner_model"  ->  '
        'source?: "reasoner_model" | "non_reasoner_model" | "x_model"; '
        "signature?: string | null  ->  signature: string | null"
    )


# --- TypeScript interfaces: the members that changed, one line each


def test_a_typescript_interface_change_is_said_member_by_member(letta: FamilyReport) -> None:
    [ts] = [a for a in letta.api if a.what == "TypeScript interface ReasoningMessage"]
    assert ts.members == (
        'source?: "reasoner_model" | "non_reasoner_model"  ->  source?: "reasoner_model" | "non_reasoner_model" | "x_model"',
        "signature?: string | null  ->  signature: string | null",
    )
    head = "  API changed (major) [CS303]: TypeScript interface ReasoningMessage:"
    assert api_lines(ts) == [
        head,
        '      source?: "reasoner_model" | "non_reasoner_model"',
        '      ->  source?: "reasoner_model" | "non_reasoner_model" | "x_model"',
        head,
        "      signature?: string | null  ->  signature: string | null",
    ]
    assert api_lines(ts, width=200)[1] == f"{head} signature?: string | null  ->  signature: string | null"
    assert ts.detail.count("export interface ReasoningMessage {") == 2  # the json format keeps both whole


def test_members_added_and_removed_are_said_as_such() -> None:
    old = 'export interface M { role: "user"; n?: number | null; f?: { a: string; b: (x: number) => void }; }'
    new = 'export interface M extends B { role: "user"; f?: { a: string; b: (x: number) => string }; s: "a;b"; }'
    assert member_changes(old, new) == (
        "export interface M  ->  export interface M extends B",
        "member removed: n?: number | null",
        "f?: { a: string; b: (x: number) => void }  ->  f?: { a: string; b: (x: number) => string }",
        'member added: s: "a;b"',
    )
    change = compare_api("evo", {"TypeScript interface M": old}, {"TypeScript interface M": new})[0]
    assert change.summary == "; ".join(change.members) and API[change.change].id == "CS303"
    assert member_changes("export type A = string;", "export type A = number;") == ()


# --- synthetic schema sets


TAG = {"type": "string", "description": "Tag."}
A = {
    "title": "A",
    "description": "A.",
    "type": "object",
    "properties": {"kind": {"const": "a", "description": "Tag."}, "signature": TAG},
    "required": ["kind"],
}
B = {
    "title": "B",
    "description": "B.",
    "type": "object",
    "properties": {"kind": {"const": "b", "description": "Tag."}, "content": TAG},
    "required": ["kind", "content"],
}
U = {
    "title": "U",
    "description": "U.",
    "type": "object",
    "oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
    "discriminator": {"propertyName": "kind"},
}
W = {
    "title": "W",
    "description": "W.",
    "type": "object",
    "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/U"}, "description": "Items."}},
    "required": ["items"],
}


def test_a_synthetic_union_is_explained_by_its_tag_branch(tmp_path: Path) -> None:
    before = {"a.json": {"A": A, "B": B, "U": U, "W": W}}
    after = {"a.json": {"A": {**A, "required": ["kind", "signature"]}, "B": B, "U": U, "W": W}}
    found = diff_types(tmp_path, before, after, Budget(seconds=20, candidates=400))
    # the other branch's error ('content' is required, first in sort order) is not the explanation
    [u] = found["U"].witnesses
    assert (u.payload, u.rejected_because) == ({"kind": "a"}, "$: 'signature' is a required property")
    [w] = found["W"].witnesses
    assert (w.payload, w.rejected_because) == (
        {"items": [{"kind": "a"}]},
        "$.items[0]: 'signature' is a required property",
    )
    reports = [FamilyReport("evo", "HEAD", "1.0.0", "1.0.0", "none", list(found.values()), [])]
    assert "rejected: $: 'signature' is a required property" in render_text(reports)


# --- shrinking: witness values made plain while the verdict holds


@cache
def _validators(tmp: Path) -> tuple[Callable[[Any], bool], Callable[[Any], bool]]:
    props = {
        "s": {"type": "string", "minLength": 3},
        "d": {"type": "string", "format": "date-time"},
        "n": {"type": "number", "maximum": 10},
        "e": {"type": "string", "maxLength": 3, "description": "Emoji at a bound."},
        "m": {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1},
        "k": {"enum": ["x", "y"]},
    }
    t = {"title": "T", "description": "T.", "type": "object", "properties": props, "required": list(props)}
    narrower = {**props, "k": {"enum": ["x"]}, "e": {"type": "string", "maxLength": 2}}
    old = validator(write(tmp / "old", {"a.json": {"T": t}}), "T")
    new = validator(write(tmp / "new", {"a.json": {"T": {**t, "properties": narrower}}}), "T")
    return old.is_valid, new.is_valid


def test_random_generated_values_are_made_plain(tmp_path: Path) -> None:
    was, now = _validators(tmp_path)

    def narrowed(v: Any) -> bool:
        return was(v) and not now(v)

    generated = {
        "s": "\U00093d8a\x10xy\u00e9",
        "d": "8450-08-23t04:22:30.78629Z",
        "n": -8372.4431,
        "e": EMOJI * 2,
        "m": {"\U000b558d\x0f": 8450},
        "k": "y",
        "extra": [{"\u00fc": "\x88"}],
    }
    assert narrowed(generated)
    small = shrink(generated, narrowed)
    assert narrowed(small)
    assert small == {"s": "aaa", "d": DATE, "n": 0, "e": EMOJI * 2, "m": {"a": 0}, "k": "y"}
    # an emoji string at a length bound stays: it shows code points are counted
    assert shrink({**generated, "k": "x", "e": EMOJI * 3}, narrowed)["e"] == EMOJI * 3


# --- folding and wrapping


def test_a_folded_witness_parses_back_and_keeps_every_character() -> None:
    value = {"messages": [{"text": "é" * 30, "n": [1, 2, {"deep": ["x" * 50, None]}]}], "z": "a b"}
    for width in (20, 60, 100, 1000):
        lines = fold_json(value, "    witness, valid before, invalid now: ", 4, width)
        assert json.loads("\n".join(lines).split(": ", 1)[1]) == value
        # a line past the width holds one member that cannot be broken
        assert all(len(line) <= width or line.strip().count('"') <= 4 for line in lines)
    assert fold_json(value, "w: ", 0, 1000) == ["w: " + json.dumps(value, ensure_ascii=False, sort_keys=True)]


def test_long_lines_wrap_at_spaces_and_keep_every_word() -> None:
    line = "    - [CS211] via A -> B -> C: property 'x' became required (at C: /properties/x; usually narrowed)" * 2
    lines = wrap(line, 60)
    assert len(lines) > 1 and all(len(row) <= 60 for row in lines)
    assert words("\n".join(lines)) == words(line) and lines[1].startswith(" " * 8)
    long_word = "    " + "x" * 200
    assert wrap(long_word, 60) == [long_word]


# --- the failure line: each category named


def _finding(verdict: str, subject: str) -> Finding:
    rule = VERDICTS.get(verdict) or API["changed"]
    categories = VERDICT_CATEGORIES.get(verdict, frozenset({"api"}))
    return Finding(rule, "evo", subject, verdict, categories, subject, "", None, None, "HEAD", fails=True)


@pytest.mark.parametrize(
    ("verdict", "label"),
    [
        ("narrowed", "narrowed"),
        ("removed", "narrowed (type removed)"),
        ("both", "narrowed and widened"),
        ("widened", "widened"),
        ("unproven", "unknown"),
        ("unknown", "unknown"),
        ("api", "api"),
    ],
)
def test_the_failure_line_names_each_category(verdict: str, label: str) -> None:
    found = [_finding(verdict, "evo/T"), _finding(verdict, "evo/T"), _finding(verdict, "evo/U")]
    assert failure_line(found) == f"diff: 3 finding(s) fail the gate: 3 {label} (evo/T, evo/U)"


def test_the_failure_line_lists_categories_in_order_and_skips_passing_findings() -> None:
    passing = _finding("widened", "evo/P")
    passing.fails = False
    found = [_finding("api", "evo/A"), _finding("widened", "evo/W"), passing, _finding("narrowed", "evo/N")]
    assert (
        failure_line(found) == "diff: 3 finding(s) fail the gate: 1 narrowed (evo/N), 1 widened (evo/W), 1 api (evo/A)"
    )
