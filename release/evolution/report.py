"""The readable report: grouped by family and type, each verdict with its rules and witnesses.

Nothing in it is cut: a line longer than the width is wrapped at spaces (a word longer than the
width stays whole), and a witness is folded as JSON (an object or array one member a line, as
deep as it takes), so every character of it is there and the folded text parses back.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

from .api import ApiChange
from .engine import ADDED, BOTH, REMOVED, UNCHANGED, UNKNOWN, UNPROVEN, UNPROVEN_TEXT, FamilyReport, TypeReport
from .ids import API, change_rule
from .rules import NARROWED, WIDENED
from .witness import Witness

WIDTH = 100  # characters a line of the report takes, at most, where it can be broken
WHO = {
    NARROWED: "narrowed: breaks stored data and old producers read by new consumers (backward-incompatible)",
    WIDENED: "widened: breaks old consumers of new producers' payloads (forward-incompatible)",
    BOTH: "narrowed and widened: breaks both directions",
    REMOVED: "removed: every payload of this type loses its schema",
    ADDED: "added",
    UNPROVEN: f"changed in the schema text, but {UNPROVEN_TEXT}",
    UNKNOWN: "unknown: the witness search ran out of time before it could decide",
    UNCHANGED: "unchanged",
}
WITNESS = {NARROWED: "valid before, invalid now", WIDENED: "invalid before, valid now"}


def wrap(line: str, width: int = WIDTH) -> list[str]:
    """`line` broken at spaces into lines of at most `width` (a longer word stays whole), each
    continuation indented four more than the line."""
    if len(line) <= width:
        return [line]
    text = line.lstrip(" ")
    indent = " " * (len(line) - len(text))
    return textwrap.wrap(
        text,
        width,
        initial_indent=indent,
        subsequent_indent=indent + "    ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def fold_json(value: Any, prefix: str, indent: int, width: int = WIDTH, suffix: str = "") -> list[str]:
    """`value` as JSON (keys sorted) after `prefix`: on one line when it fits in `width`, else its
    members one a line, indented two more than `indent`, each folded the same way, the closing
    bracket at `indent`. The lines, without `prefix`, parse back to `value`."""
    flat = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if len(prefix) + len(flat) + len(suffix) <= width or not isinstance(value, dict | list) or not value:
        return [prefix + flat + suffix]
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        members = [(f"{pad}{json.dumps(k, ensure_ascii=False)}: ", v) for k, v in sorted(value.items())]
        brackets = "{}"
    else:
        members = [(pad, v) for v in value]
        brackets = "[]"
    lines = [prefix + brackets[0]]
    for i, (head, member) in enumerate(members):
        lines += fold_json(member, head, indent + 2, width, "," if i < len(members) - 1 else "")
    return [*lines, " " * indent + brackets[1] + suffix]


def witness_lines(w: Witness, width: int = WIDTH) -> list[str]:
    """A witness, whole: after its heading, or on a line of its own below it, or folded; then how it
    was found and why the other version rejects it."""
    head = f"    witness, {WITNESS[w.direction]}:"
    flat = json.dumps(w.payload, ensure_ascii=False, sort_keys=True)
    if len(head) + 1 + len(flat) <= width:
        lines = [f"{head} {flat}"]
    elif 6 + len(flat) <= width:
        lines = [head, f"      {flat}"]
    else:
        lines = fold_json(w.payload, head + " ", 4, width)
    return lines + wrap(f"      {w.found_by}; rejected: {w.rejected_because}", width)


def api_lines(change: ApiChange, width: int = WIDTH) -> list[str]:
    """A code-level change: one line per changed member of a TypeScript interface, else one line;
    a long one with what changed below its heading, before and after (`->`) on lines of their own."""
    head = f"  API {change.change} ({change.bump}) [{API[change.change].id}]: {change.what}:"
    lines: list[str] = []
    for part in change.members or (change.detail,):
        if len(head) + 1 + len(part) <= width:
            lines.append(f"{head} {part}")
            continue
        lines.append(head)
        before, arrow, after = part.partition("  ->  ")
        if 6 + len(part) <= width or not arrow:
            lines += wrap(f"      {part}", width)
        else:
            lines += [*wrap(f"      {before}", width), *wrap(f"      ->  {after}", width)]
    return lines


def type_lines(family: str, t: TypeReport, width: int = WIDTH) -> list[str]:
    """One changed type: its verdict, every rule that fired, every witness, every note."""
    lines = wrap(f"  {family}/{t.name}: {WHO[t.verdict]}", width)
    for c in t.changes:
        where = f"{c.owner}: {c.where or '/'}" if c.owner else c.where or "/"
        lines += wrap(f"    - [{change_rule(c.kind).id}] {c.rule} (at {where}; usually {c.hint})", width)
    for w in t.witnesses:
        lines += witness_lines(w, width)
    for note in t.notes:
        lines += wrap(f"    note: {note}", width)
    return lines


def render_text(reports: list[FamilyReport], width: int = WIDTH) -> str:
    """The report as text lines, none longer than `width` where it can be broken, nothing cut."""
    lines: list[str] = []
    for r in reports:
        status = "ok" if r.version_ok else "NOT BUMPED ENOUGH"
        lines += wrap(
            f"{r.family}: version {r.base_version or '-'} at {r.base} -> {r.version or '-'} now: "
            f"changes need {r.needed}, declared {r.declared}: {status}",
            width,
        )
        shown = [t for t in r.types if t.verdict != UNCHANGED or t.notes]
        if not shown and not r.api:
            lines.append("  no changes")
        for t in shown:
            lines += type_lines(r.family, t, width)
        for a in r.api:
            lines += api_lines(a, width)
        if r.api_note:
            lines += wrap(f"  API: {r.api_note}", width)
    return "\n".join(lines) + "\n"
