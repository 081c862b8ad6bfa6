"""Streams judged as streams: an edit of a stream grammar (`schemas/<family>/grammars/<Union>.json`)
or of a frame type, proven by a witness stream that one version's readers accept and the other's
reject.

A frame type added to the union, a frame type given another role, a terminal frame that moves: none
of these need narrow a single type, yet each breaks a reader of the other version. Each version's
grammar is read as a state machine over the frames' roles; the shortest streams whose verdicts
differ are found by walking both machines at once (over frames taken from each version's examples
and from the union's own witnesses), then replayed through the Python and the TypeScript readers of
each version (`replay.py`). Only a stream the readers agree on is a witness.
"""

from __future__ import annotations

import importlib
import json
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.grammars import GrammarFile, grammar_files, grammar_problems
from codegen.load import SchemaFile

from .canonical import FamilyTypes
from .engine import BOTH, REMOVED, UNCHANGED, UNPROVEN, TypeReport, valid_examples
from .replay import READERS, replay
from .rules import EITHER, NARROWED, WIDENED, Change
from .source import DiffError
from .witness import Side, Witness

STREAM = " (stream)"  # how a stream is named in reports: `letta/LettaStreamingResponse (stream)`
MAX_FRAMES = 6  # the longest witness stream searched for
DEAD = ""  # a machine that rejected the stream so far


def grammars(root: Path, types: FamilyTypes, label: str) -> dict[str, GrammarFile]:
    """The family's stream grammars under `root` (a version's checkout), by union, each checked
    against that version's union (DiffError naming the file and the problem otherwise)."""
    found, problems = grammar_files(root, types.family)
    for grammar in found:
        problems += grammar_problems(grammar, types.model)
    if problems:
        raise DiffError([f"{label}: {p}" for p in problems])
    return {g.name: g for g in found}


def as_schema_file(grammar: GrammarFile) -> SchemaFile:
    """A grammar as the findings place their lines in a file."""
    return SchemaFile(grammar.family, Path(grammar.rel), grammar.text, dict(grammar.contents))


@dataclass(frozen=True)
class Machine:
    """A grammar as the judge walks it."""

    tag: str
    roles: Mapping[str, str]  # tag -> role
    start: str
    next: Mapping[str, Mapping[str, str]]
    final: frozenset[str]

    @classmethod
    def of(cls, contents: Mapping[str, Any]) -> Machine:
        """The machine of a grammar file's contents."""
        roles = {tag: role for role, spec in contents["roles"].items() for tag in spec["tags"]}
        nexts = {name: dict(spec["next"]) for name, spec in contents["states"].items()}
        return cls(contents["tag"], roles, contents["start"], nexts, frozenset(contents["final"]))

    def step(self, state: str, ended: bool, frame: Mapping[str, Any], valid: bool) -> tuple[str, bool]:
        """The state after `frame`: DEAD where the frame is invalid, unknown or out of order."""
        role = self.roles.get(frame.get(self.tag, ""))
        if state == DEAD or not valid or role is None or role not in self.next[state]:
            return DEAD, ended
        return self.next[state][role], ended or role == "error"

    def accepts(self, state: str, ended: bool) -> bool:
        """Whether a stream may end here."""
        return state != DEAD and (ended or state in self.final)


# ---- what changed in the grammar ---------------------------------------------------------------


def grammar_changes(name: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Change]:
    """Each edit of the grammar that can change which streams are accepted, with its pointer."""
    owner = name + STREAM
    out = _role_changes(old, new, owner)
    for state in sorted(old["states"].keys() | new["states"].keys()):
        before = old["states"].get(state, {}).get("next", {})
        after = new["states"].get(state, {}).get("next", {})
        for role in sorted(before.keys() | after.keys()):
            a, b = before.get(role), after.get(role)
            where = f"/states/{state}/next/{role}"
            if a is None and b is not None:
                text = f"in state {state!r}, {_a(role)} frame is now allowed (to {b!r})"
                out.append(Change(where, text, WIDENED, kind="stream-transition-added", owner=owner))
            elif a is not None and b is None:
                text = f"in state {state!r}, {_a(role)} frame is no longer allowed"
                out.append(Change(where, text, NARROWED, kind="stream-transition-removed", owner=owner))
            elif a != b:
                text = f"in state {state!r}, {_a(role)} frame now leads to {b!r}, not {a!r}"
                out.append(Change(where, text, EITHER, kind="stream-transition-changed", owner=owner))
    for state in sorted(set(new["final"]) - set(old["final"])):
        out.append(
            Change("/final", f"the stream may now end in {state!r}", WIDENED, kind="stream-end-added", owner=owner)
        )
    for state in sorted(set(old["final"]) - set(new["final"])):
        text = f"the stream may no longer end in {state!r}"
        out.append(Change("/final", text, NARROWED, kind="stream-end-removed", owner=owner))
    if old["start"] != new["start"]:
        text = f"the stream starts in {new['start']!r}, not {old['start']!r}"
        out.append(Change("/start", text, EITHER, kind="stream-start-changed", owner=owner))
    return out


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeio" else f"a {word}"  # the roles: an error, a usage


def _role_changes(old: Mapping[str, Any], new: Mapping[str, Any], owner: str) -> list[Change]:
    before, after = Machine.of(old).roles, Machine.of(new).roles
    out = []
    for tag in sorted(before.keys() | after.keys()):
        a, b = before.get(tag), after.get(tag)
        if a == b:
            continue
        if b is not None:
            where = f"/roles/{b}/tags/{list(new['roles'][b]['tags']).index(tag)}"
        else:
            where = f"/roles/{a}"
        if a is None:
            out.append(
                Change(
                    where, f"frame {tag!r} joins the stream as a {b}", WIDENED, kind="stream-frame-added", owner=owner
                )
            )
        elif b is None:
            text = f"frame {tag!r} ({a}) leaves the stream"
            out.append(Change(where, text, NARROWED, kind="stream-frame-removed", owner=owner))
        else:
            text = f"frame {tag!r} plays {b}, not {a}"
            out.append(Change(where, text, EITHER, kind="stream-frame-role-changed", owner=owner))
    return out


# ---- the frames witness streams are made of -----------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """A frame, and whether each version's union accepts it."""

    data: Mapping[str, Any]
    valid_before: bool
    valid_now: bool


def frames(
    union: str,
    tag: str,
    roots: tuple[Path, Path],
    sides: tuple[Side, Side],
    extra: list[Any],
    usable: Callable[[Any], bool],
) -> list[Frame]:
    """The alphabet of the search: per tag, a frame both versions accept (else one each accepts),
    from both versions' examples and `extra` (the union's witnesses), `usable` ones first."""
    seen: set[str] = set()
    found: list[Frame] = []
    examples = [e for root in roots for e in valid_examples(root, sides[0].types.family).get(union, [])]
    for data in [*extra, *examples]:
        key = json.dumps(data, sort_keys=True)
        if not isinstance(data, dict) or key in seen:
            continue
        seen.add(key)
        data = _without_seq(data, sides, union)
        found.append(Frame(data, *(s.has(union) and s.validator(union).is_valid(data) for s in sides)))
    by_kind: dict[tuple[str, bool, bool], Frame] = {}
    for frame in sorted(found, key=lambda f: (not usable(f.data), len(json.dumps(f.data)))):
        by_kind.setdefault((str(frame.data.get(tag)), frame.valid_before, frame.valid_now), frame)
    return [f for f in by_kind.values() if f.valid_before or f.valid_now]


def _without_seq(data: dict[str, Any], sides: tuple[Side, Side], union: str) -> dict[str, Any]:
    """The frame without its seq_id where that changes no verdict: a witness stream has no numbering
    the readers would check for gaps."""
    if "seq_id" not in data:
        return data
    bare = {k: v for k, v in data.items() if k != "seq_id"}
    same = all(
        not s.has(union) or s.validator(union).is_valid(bare) == s.validator(union).is_valid(data) for s in sides
    )
    return bare if same else data


# ---- the search ---------------------------------------------------------------------------------


def candidate_streams(
    old: Machine, new: Machine, alphabet: list[Frame], per_direction: int = 4
) -> list[tuple[str, list[Frame]]]:
    """The shortest streams the two machines judge differently, by direction (narrowed: accepted
    before, rejected now), at most `per_direction` of each, shortest first."""
    start = (old.start, False, new.start, False)
    queue: deque[tuple[tuple[str, bool, str, bool], list[Frame]]] = deque([(start, [])])
    seen = {start}
    found: dict[str, list[list[Frame]]] = {NARROWED: [], WIDENED: []}
    while queue:
        (a, a_end, b, b_end), stream = queue.popleft()
        if len(stream) == MAX_FRAMES or (a == DEAD and b == DEAD):
            continue
        for frame in alphabet:
            after = (
                *old.step(a, a_end, frame.data, frame.valid_before),
                *new.step(b, b_end, frame.data, frame.valid_now),
            )
            longer = [*stream, frame]
            # judged before the seen check: a stream can differ while coming back to a state seen
            # before (a message leaves the state as it was)
            before, now = old.accepts(after[0], after[1]), new.accepts(after[2], after[3])
            if before != now and len(found[NARROWED if before else WIDENED]) < per_direction:
                found[NARROWED if before else WIDENED].append(longer)
            if after not in seen:
                seen.add(after)
                queue.append((after, longer))
    return [(d, s) for d in (NARROWED, WIDENED) for s in found[d]]


def witness(
    direction: str, stream: list[Frame], roles: Mapping[str, str], tag: str, rejected: str, replayed: bool
) -> Witness:
    """A witness stream, said as its roles and how it was confirmed."""
    shown = ", ".join(f"{f.data.get(tag)} ({roles.get(str(f.data.get(tag)), 'unknown')})" for f in stream)
    how = (
        "replayed through the Python and TypeScript readers of both versions" if replayed else "judged by the grammars"
    )
    return Witness(direction, [dict(f.data) for f in stream], f"a stream of {shown}; {how}", rejected)


# ---- the verdict ------------------------------------------------------------------------------


def judge_streams(
    family: str,
    roots: tuple[Path, Path],
    types: tuple[FamilyTypes, FamilyTypes],
    reports: list[TypeReport],
    readers: tuple[Callable[[], Path], Callable[[], Path]],
    labels: tuple[str, str],
) -> list[TypeReport]:
    """A report per stream with a grammar in either version: its grammar's edits and its frames'
    verdict, proven by witness streams."""
    by_name = {r.name: r for r in reports}
    before, after = grammars(roots[0], types[0], labels[0]), grammars(roots[1], types[1], labels[1])
    out = []
    for union in sorted(before.keys() | after.keys()):
        old, new = before.get(union), after.get(union)
        name = union + STREAM
        if new is None:  # its readers, if it has any, no longer know how the stream is ordered
            out.append(TypeReport(name, REMOVED, notes=["the stream's grammar was removed"]))
            continue
        if old is None:  # the order it writes down was the readers' already
            out.append(
                TypeReport(name, UNCHANGED, notes=["the stream's grammar was added: nothing to compare it with"])
            )
            continue
        changes = grammar_changes(union, old.contents, new.contents)
        frames_report = by_name.get(union)
        if frames_report is not None and frames_report.verdict != UNCHANGED:
            hint = frames_report.verdict if frames_report.verdict in (NARROWED, WIDENED) else EITHER
            text = f"its frames changed ({union}: {frames_report.verdict})"
            changes.append(Change("", text, hint, kind="stream-frames-changed", owner=union))
        if not changes:
            out.append(TypeReport(name, UNCHANGED, notes=_unjudged_edits(old.contents, new.contents)))
            continue
        extra = [w.payload for w in frames_report.witnesses] if frames_report is not None else []
        search = _Search(family, union, roots, types, extra)
        witnesses, notes = search.run(Machine.of(old.contents), Machine.of(new.contents), readers, labels)
        directions = sorted({w.direction for w in witnesses})
        verdict = BOTH if len(directions) == 2 else directions[0] if directions else UNPROVEN
        out.append(TypeReport(name, verdict, changes, witnesses, notes))
    return out


def _unjudged_edits(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """What changed in a grammar that no stream tells apart: descriptions, and the reasons frames
    are dropped with (which readers report in their accounts)."""
    notes = []
    for role in sorted(old["roles"].keys() & new["roles"].keys()):
        a, b = old["roles"][role].get("dropped_as"), new["roles"][role].get("dropped_as")
        if a != b:
            notes.append(
                f"a {role} frame out of order is now dropped as {b or 'out_of_order'!r}, not {a or 'out_of_order'!r}"
            )
    if not notes and old != new:
        notes.append("the grammar's descriptions changed")
    return notes


class _Search:
    """The witness search of one stream between two versions."""

    def __init__(
        self,
        family: str,
        union: str,
        roots: tuple[Path, Path],
        types: tuple[FamilyTypes, FamilyTypes],
        extra: list[Any],
    ) -> None:
        self.family, self.union, self.roots, self.extra = family, union, roots, extra
        self.sides = (Side(types[0]), Side(types[1]))
        self.reader = READERS.get((family, union))

    def run(
        self,
        old: Machine,
        new: Machine,
        readers: tuple[Callable[[], Path], Callable[[], Path]],
        labels: tuple[str, str],
    ) -> tuple[list[Witness], list[str]]:
        """The witnesses (one per direction at most) and notes on what the readers did."""
        alphabet = frames(self.union, new.tag, self.roots, self.sides, self.extra, self._usable)
        candidates = candidate_streams(old, new, alphabet)
        roles = {**old.roles, **new.roles}
        if self.reader is None:
            shortest: dict[str, list[Frame]] = {}
            for direction, stream in candidates:
                shortest.setdefault(direction, stream)
            why = {NARROWED: "the new grammar rejects it", WIDENED: "the old grammar rejects it"}
            found = [witness(d, s, roles, new.tag, why[d], False) for d, s in sorted(shortest.items())]
            return found, [f"{self.family}/{self.union} has no stream readers to replay the witnesses through"]
        if not candidates:
            return [], []
        streams = [[dict(f.data) for f in s] for _, s in candidates]
        (before, now), missing = replay((readers[0](), readers[1]()), self.reader, streams, labels)
        witnesses: list[Witness] = []
        notes: list[str] = [missing] if missing else []
        for (_, stream), b, n in zip(candidates, before, now, strict=True):
            split = [
                label
                for outcome, label in ((b, labels[0]), (n, labels[1]))
                if (outcome[0] is None) != (outcome[1] is None)
            ]
            if split:
                if len(notes) < 3:
                    notes.append(
                        f"the Python and TypeScript readers of {split[0]} disagree on a stream of {len(stream)} frame(s)"
                    )
                continue
            if (b[0] is None) == (n[0] is None):
                continue  # the grammars tell it apart, the readers do not: the readers decide
            direction = NARROWED if b[0] is None else WIDENED
            if any(w.direction == direction for w in witnesses):
                continue
            side, rejected = (labels[1], n[0]) if direction == NARROWED else (labels[0], b[0])
            witnesses.append(witness(direction, stream, roles, new.tag, f"by the readers of {side}: {rejected}", True))
        return witnesses, notes

    def _usable(self, data: Any) -> bool:
        """Whether a frame makes a stream of its own in the readers at hand (tool-call fragments do
        not): such frames are tried first."""
        if self.reader is None:
            return True
        module = importlib.import_module(self.reader[0])  # the running checkout's: a guess, the replay decides
        try:
            result = module.reassemble([data], complete=False)
        except Exception:  # any refusal: tried later
            return False
        return not result.dropped
