"""The readable report: grouped by family and type, each verdict with its rules and witnesses."""

from __future__ import annotations

from .engine import ADDED, BOTH, REMOVED, UNCHANGED, UNKNOWN, UNPROVEN, UNPROVEN_TEXT, FamilyReport
from .ids import API, change_rule
from .rules import NARROWED, WIDENED, short

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


def render_text(reports: list[FamilyReport], width: int = 100) -> str:
    """The report as text lines."""
    lines: list[str] = []
    for r in reports:
        status = "ok" if r.version_ok else "NOT BUMPED ENOUGH"
        lines.append(
            f"{r.family}: version {r.base_version or '-'} at {r.base} -> {r.version or '-'} now: "
            f"changes need {r.needed}, declared {r.declared}: {status}"
        )
        shown = [t for t in r.types if t.verdict != UNCHANGED or t.notes]
        if not shown and not r.api:
            lines.append("  no changes")
        for t in shown:
            lines.append(f"  {r.family}/{t.name}: {WHO[t.verdict]}")
            for c in t.changes[:12]:
                where = f"{c.owner}: {c.where or '/'}" if c.owner else c.where or "/"
                lines.append(f"    - [{change_rule(c.kind).id}] {c.rule} (at {where}; usually {c.hint})")
            if len(t.changes) > 12:
                lines.append(f"    - ... {len(t.changes) - 12} more")
            for w in t.witnesses:
                lines.append(f"    witness, {WITNESS[w.direction]}: {short(w.payload, width)}")
                lines.append(f"      {w.found_by}; rejected: {w.rejected_because}")
            for note in t.notes[:6]:
                lines.append(f"    note: {note}")
        for a in r.api:
            lines.append(f"  API {a.change} ({a.bump}) [{API[a.change].id}]: {a.what}: {a.detail}")
        if r.api_note:
            lines.append(f"  API: {r.api_note}")
    return "\n".join(lines) + "\n"
