"""Findings: each schema edit of a changed type (or the type itself, when it has no edit to point
at) and each code-level API change, with its rule id, severity, file and line, JSON pointer,
direction and witness, and whether it fails the gate.

One finding per edit, not per type, so that an accepted break covers that kind of edit only: a new
kind of break in the same type is a new finding and fails again.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any

from codegen.load import SchemaFile
from codegen.versions import version_path

from .accept import Entry
from .api import MAJOR, ApiChange
from .engine import REMOVED, UNCHANGED, FamilyReport, TypeReport
from .gate import API, UNKNOWN, VERDICT_CATEGORIES, Problem, Settings
from .ids import API as API_RULES
from .ids import VERDICTS, RuleInfo, change_rule
from .locate import LocateError, escape, nearest, pointer_lines
from .rules import Change

ERROR, WARNING, NOTE = "error", "warning", "note"
VERDICT_WORDS = {
    "narrowed": "narrowed",
    "widened": "widened",
    "both": "narrowed and widened",
    "removed": "removed",
    "added": "added",
    "unproven": "changed, no payload found that tells the versions apart",
    "unknown": "unknown, the witness search ran out of time",
}


@dataclass
class Finding:
    """One finding of the gate."""

    rule: RuleInfo
    family: str
    subject: str  # family/Type (for an API change, the class or function it belongs to)
    verdict: str  # the type's verdict, or "api"
    categories: frozenset[str]  # narrowed, widened, unknown, api: what it can fail the gate as
    message: str
    pointer: str  # JSON pointer in `file` ("" when there is no file)
    file: str | None  # path from the repository root
    line: int | None
    base: str  # what it was compared with
    witnesses: list[dict[str, Any]] = field(default_factory=list)
    severity: str = NOTE
    fails: bool = False
    accepted: Entry | None = None
    covered: bool = False  # --check-version: the declared version bump covers it

    @property
    def direction(self) -> str:
        """narrowed, widened, both or none (what the witnesses show)."""
        found = sorted({w["direction"] for w in self.witnesses})
        return "both" if len(found) == 2 else found[0] if found else "none"


class _Lines:
    """Lines of pointers in schema files, each file scanned once."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int], dict[str, int]] = {}

    def find(self, schema: SchemaFile, pointer: str) -> tuple[str, int | None]:
        """The pointer (or its nearest enclosing one present) and its line in the file."""
        key = (schema.path.as_posix(), hash(schema.text))
        if key not in self._cache:
            try:
                self._cache[key] = pointer_lines(schema.text)
            except LocateError:
                self._cache[key] = {}  # the loader parsed it: never expected; the finding keeps no line
        found = nearest(self._cache[key], pointer)
        return (pointer, None) if found is None else found


def _witnesses(t: TypeReport) -> list[dict[str, Any]]:
    return [
        {"direction": w.direction, "payload": w.payload, "found_by": w.found_by, "rejected_because": w.rejected_because}
        for w in t.witnesses
    ]


def _place(report: FamilyReport, owner: str, where: str, lines: _Lines) -> tuple[str | None, str, int | None]:
    """File, pointer and line of `where` inside type `owner`: the new file, the old one for a type removed."""
    grammar = report.grammar_files.get(owner)
    schema = report.new_files.get(owner) or report.old_files.get(owner) or grammar
    if schema is None:
        return None, "", None
    pointer, line = lines.find(schema, where if grammar is not None else f"/$defs/{escape(owner)}{where}")
    return schema.path.as_posix(), pointer, line


def type_findings(report: FamilyReport, t: TypeReport, lines: _Lines) -> list[Finding]:
    """The findings of one changed type: one per schema edit, or one for the type itself."""
    subject = f"{report.family}/{t.name}"
    categories = VERDICT_CATEGORIES[t.verdict]
    edits: list[Change | None] = list(t.changes) if t.changes and t.verdict != REMOVED else [None]
    out = []
    for c in edits:
        rule = VERDICTS[t.verdict] if c is None else change_rule(c.kind)
        owner = t.name if c is None or not c.owner else c.owner
        file, pointer, line = _place(report, owner, "" if c is None else c.where, lines)
        verdict = VERDICT_WORDS[t.verdict]
        what = verdict if c is None else f"{verdict}: {c.rule} (usually {c.hint})"
        out.append(
            Finding(
                rule,
                report.family,
                subject,
                t.verdict,
                categories,
                f"{subject}: {what}",
                pointer,
                file,
                line,
                report.base,
                _witnesses(t),
            )
        )
    return out


def api_finding(report: FamilyReport, change: ApiChange, lines: _Lines) -> Finding:
    """The finding of one code-level change, placed at its class's type when there is one."""
    name = change.what.rsplit(" ", 1)[-1].split(".", 1)[0]
    subject = f"{report.family}/{name}"
    file, pointer, line = _place(report, name, "", lines)
    if file is None:  # a function or TypeScript-only type: the family's version file stands for it
        file, line = version_path(report.family), 1
    categories = frozenset({API}) if change.bump == MAJOR else frozenset()
    message = f"{subject}: API {change.change} ({change.bump}): {change.what}: {change.summary}"
    return Finding(
        API_RULES[change.change], report.family, subject, "api", categories, message, pointer, file, line, report.base
    )


def collect(
    reports: list[FamilyReport],
    settings: dict[str, Settings],
    check_version: bool,
    entries: list[Entry],
    today: datetime.date,
) -> list[Finding]:
    """Every finding of the reports, judged: severity, accepted, covered, and whether it fails."""
    lines = _Lines()
    out: list[Finding] = []
    for report in reports:
        found = [f for t in report.types if t.verdict != UNCHANGED for f in type_findings(report, t, lines)]
        found += [api_finding(report, c, lines) for c in report.api]
        for f in found:
            _judge(f, settings[report.family], check_version and report.version_ok, entries, today)
        out += found
    return out


def _judge(f: Finding, settings: Settings, covered: bool, entries: list[Entry], today: datetime.date) -> None:
    f.accepted = next(
        (e for e in entries if e.rule == f.rule.id and e.type == f.subject and not expired(e, today)), None
    )
    # An undecided type fits no bump: the declared version cannot cover it (the gate fails closed).
    f.covered = covered and UNKNOWN not in f.categories
    breaking = bool(f.categories & settings.failing)
    f.fails = breaking and not f.covered and f.accepted is None
    f.severity = ERROR if f.fails else WARNING if f.categories else NOTE


def expired(entry: Entry, today: datetime.date) -> bool:
    """Whether an entry is past its expiry date (an entry is valid through that day)."""
    return entry.expires is not None and today > entry.expires


def entry_problems(
    entries: list[Entry], findings: list[Finding], families: set[str], shown: str, today: datetime.date
) -> list[Problem]:
    """One per entry of the compared families that has expired or matches no finding."""
    problems = []
    for e in entries:
        if e.family not in families:
            continue  # another family's entry: not judged by this run
        if expired(e, today):
            why = f"expired on {e.expires}: fix the break or extend the date"
        elif not any(f.rule.id == e.rule and f.subject == e.type for f in findings):
            why = "matches no finding: remove it"
        else:
            continue
        problems.append(Problem(shown, e.line, f"diff: {e.label(shown)} {why}"))
    return problems


# How the failure line names each verdict's findings, in this order.
_LABELS = {
    "narrowed": "narrowed",
    "removed": "narrowed (type removed)",
    "both": "narrowed and widened",
    "widened": "widened",
    "unproven": "unknown",
    "unknown": "unknown",
    "api": "api",
}


def failure_line(findings: list[Finding]) -> str:
    """What failed: `diff: 2 finding(s) fail the gate: 1 narrowed (letta/A), 1 api (letta/B)`."""
    failing = [f for f in findings if f.fails]
    groups: dict[str, list[Finding]] = {label: [] for label in _LABELS.values()}
    for f in failing:
        groups[_LABELS[f.verdict]].append(f)
    parts = [
        f"{len(these)} {label} ({', '.join(dict.fromkeys(f.subject for f in these))})"
        for label, these in groups.items()
        if these
    ]
    return f"diff: {len(failing)} finding(s) fail the gate: {', '.join(parts)}"


WITNESS = {"narrowed": "valid before, invalid now", "widened": "invalid before, valid now"}


def details(f: Finding) -> list[str]:
    """The finding's message, then each witness (whole, never cut) and why the other version rejects it."""
    out = [f.message]
    for w in f.witnesses:
        payload = json.dumps(w["payload"], ensure_ascii=False, sort_keys=True)
        out.append(f"witness, {WITNESS[w['direction']]}: {payload} (rejected: {w['rejected_because']})")
    if f.accepted is not None:
        out.append(f"accepted ({f.accepted.rule} {f.accepted.type}): {f.accepted.reason}")
    return out
