"""Stream grammars: `schemas/<family>/grammars/<Union>.json` says how a stream of `<Union>` frames is
ordered (which frame plays which role, which roles may follow which, where the stream may end).

The readers follow the grammar (the Python reader reads its shipped copy, the npm reader a generated
module), and the evolution gate judges an edit of it by witness streams. A grammar is checked here
against its union, so that a frame type added to the union without a role fails generation.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jsonschema import Draft202012Validator

from .errors import SchemaProblem, pointer
from .load import GRAMMARS, parse_strict

if TYPE_CHECKING:
    from .model import FamilyModel

FOLDER = GRAMMARS
# The behaviours the readers have, each a role a frame type can play (chatschema.letta.stream).
ROLES = ("message", "ping", "error", "stop", "usage")

# The streams that have readers (chatschema.letta.stream, npm/esm/stream.js), which must have a
# grammar, and the frame types those readers can give each role that keeps a frame (the stop reason,
# the usage, the errors): a grammar may move other frame types between roles, not these.
READERS: dict[tuple[str, str], dict[str, frozenset[str]]] = {
    ("letta", "LettaStreamingResponse"): {
        "stop": frozenset({"stop_reason"}),
        "usage": frozenset({"usage_statistics"}),
        "error": frozenset({"error_message"}),
    },
}

_NAME = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}
SHAPE: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["description", "union", "tag", "roles", "start", "states", "final"],
    "properties": {
        "description": {"type": "string", "minLength": 1},
        "union": {"type": "string"},
        "tag": {"type": "string"},
        "roles": {
            "type": "object",
            "propertyNames": {"enum": list(ROLES)},
            "required": ["message"],
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["description", "tags"],
                "properties": {
                    "description": {"type": "string", "minLength": 1},
                    "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                    "dropped_as": _NAME,
                },
            },
        },
        "start": {"type": "string"},
        "states": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["description", "next"],
                "properties": {
                    "description": {"type": "string", "minLength": 1},
                    "next": {"type": "object", "propertyNames": {"enum": list(ROLES)}, "additionalProperties": _NAME},
                },
            },
        },
        "final": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
    },
}


@dataclass(frozen=True)
class GrammarFile:
    """One grammar file of a family, parsed."""

    family: str
    name: str  # the union it orders (the file's stem)
    rel: str  # path from the repository root
    text: str
    contents: Mapping[str, Any]


def grammar_files(root: Path, family: str) -> tuple[list[GrammarFile], list[SchemaProblem]]:
    """The family's grammars, parsed strictly (not yet checked against the schemas)."""
    folder = root / "schemas" / family / FOLDER
    found: list[GrammarFile] = []
    problems: list[SchemaProblem] = []
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        rel = path.relative_to(root).as_posix()
        if path.suffix != ".json" or not path.is_file() or path.is_symlink():
            problems.append(SchemaProblem(rel, "", "only stream grammars (<Union>.json) belong here", "stray-file"))
            continue
        try:
            text = path.read_text(encoding="utf-8")
            contents = parse_strict(text)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            problems.append(SchemaProblem(rel, "", f"cannot read the grammar: {exc}", "grammar"))
            continue
        if not isinstance(contents, dict):
            problems.append(SchemaProblem(rel, "", "a grammar is a JSON object", "grammar"))
            continue
        found.append(GrammarFile(family, path.stem, rel, text, contents))
    return found, problems


def grammar_problems(grammar: GrammarFile, family: FamilyModel) -> list[SchemaProblem]:
    """Why the grammar does not fit its shape, its union or itself (none: the readers can follow it)."""
    problems = [
        SchemaProblem(grammar.rel, pointer(*e.absolute_path), e.message, "grammar")
        for e in Draft202012Validator(SHAPE).iter_errors(grammar.contents)
    ]
    if problems:
        return problems
    return _union_problems(grammar, family) + _order_problems(grammar) + _reader_problems(grammar)


def _reader_problems(grammar: GrammarFile) -> list[SchemaProblem]:
    """A role the stream's readers keep a frame for, given to a frame type they cannot keep there."""
    playable = READERS.get((grammar.family, grammar.name), {})
    return [
        SchemaProblem(
            grammar.rel, pointer("roles", role, "tags", i), f"the readers cannot keep {tag!r} as {role}", "grammar"
        )
        for role, tags in playable.items()
        for i, tag in enumerate(grammar.contents["roles"].get(role, {}).get("tags", []))
        if tag not in tags
    ]


def _union_problems(grammar: GrammarFile, family: FamilyModel) -> list[SchemaProblem]:
    g, rel = grammar.contents, grammar.rel
    union = family.types.get(g["union"])
    if g["union"] != grammar.name:
        return [
            SchemaProblem(rel, "/union", f"names {g['union']!r}; the file is named for {grammar.name!r}", "grammar")
        ]
    if union is None or union.union is None:
        return [SchemaProblem(rel, "/union", f"{family.name}/{g['union']} is not a tagged union", "grammar")]
    if union.union.tag != g["tag"]:
        return [SchemaProblem(rel, "/tag", f"the union's tag is {union.union.tag!r}", "grammar")]
    tags = set(union.union.table)
    problems = []
    placed: dict[str, str] = {}
    for role, spec in g["roles"].items():
        for i, tag in enumerate(spec["tags"]):
            where = pointer("roles", role, "tags", i)
            if tag not in tags:
                problems.append(SchemaProblem(rel, where, f"{tag!r} is no frame of {g['union']}", "grammar"))
            elif tag in placed:
                problems.append(SchemaProblem(rel, where, f"{tag!r} already plays {placed[tag]!r}", "grammar"))
            placed.setdefault(tag, role)
    for tag in sorted(tags - set(placed)):
        problems.append(SchemaProblem(rel, "/roles", f"frame {tag!r} of {g['union']} has no role", "grammar"))
    return problems


def _order_problems(grammar: GrammarFile) -> list[SchemaProblem]:
    """The order must be one the readers can follow: known states, and messages allowed from the
    start until some frame closes them for good (messages are merged, not stepped through)."""
    g, rel = grammar.contents, grammar.rel
    states: Mapping[str, Any] = g["states"]
    problems = [
        SchemaProblem(rel, where, f"no state {name!r}", "grammar")
        for where, name in [
            ("/start", g["start"]),
            *((pointer("final", i), s) for i, s in enumerate(g["final"])),
            *((pointer("states", s, "next", r), t) for s, spec in states.items() for r, t in spec["next"].items()),
        ]
        if name not in states
    ]
    problems += [
        SchemaProblem(rel, pointer("states", s, "next", r), f"no role {r!r} in /roles", "grammar")
        for s, spec in states.items()
        for r in spec["next"]
        if r not in g["roles"]
    ]
    if problems:
        return problems
    if "message" not in states[g["start"]]["next"]:
        problems.append(SchemaProblem(rel, "/start", "messages must be allowed where the stream starts", "grammar"))
    for name, spec in states.items():
        target = spec["next"].get("message")
        if target is not None and target != name:
            where = pointer("states", name, "next", "message")
            problems.append(SchemaProblem(rel, where, "a message leaves the state unchanged", "grammar"))
        if target is None and any("message" in states[s]["next"] for s in _reachable(states, name)):
            where = pointer("states", name)
            problems.append(SchemaProblem(rel, where, "once closed, messages cannot be allowed again", "grammar"))
    return problems


def _reachable(states: Mapping[str, Any], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for target in states[todo.pop()]["next"].values():
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def with_grammars(root: Path, families: dict[str, FamilyModel]) -> tuple[dict[str, FamilyModel], list[SchemaProblem]]:
    """Each family with its grammars attached, and every problem of a grammar."""
    out: dict[str, FamilyModel] = {}
    problems: list[SchemaProblem] = []
    for name, family in families.items():
        found, read_problems = grammar_files(root, name)
        problems += read_problems
        for fam, union in READERS:
            if fam == name and union in family.types and union not in {g.name for g in found}:
                rel = f"schemas/{name}/{FOLDER}/{union}.json"
                problems.append(SchemaProblem(rel, "", "missing: the stream readers follow it", "grammar"))
        for grammar in found:
            problems += grammar_problems(grammar, family)
        out[name] = dataclasses.replace(family, grammars=tuple(found))
    return out, problems


def shipped_grammar(grammar: GrammarFile) -> str:
    """The copy shipped in the Python package: the source plus a do-not-edit `$comment`."""
    comment = f"Generated copy of {grammar.rel}: do not edit; edit the source and run `nox -s generate`."
    return json.dumps({"$comment": comment, **grammar.contents}, indent=2, ensure_ascii=False) + "\n"
