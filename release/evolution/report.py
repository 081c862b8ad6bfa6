"""The readable report: grouped by family and type, each verdict with its rules and witnesses."""

from __future__ import annotations

from .engine import ADDED, BOTH, REMOVED, UNCHANGED, UNKNOWN, UNPROVEN, UNPROVEN_TEXT, FamilyReport
from .rules import NARROWED, WIDENED, short

WHO = {
    NARROWED: "narrowed: breaks stored data and old producers read by new consumers (backward-incompatible)",
    WIDENED: "widened: breaks old consumers of new producers' payloads (forward-incompatible)",
    BOTH: "narrowed and widened: breaks both directions",
    REMOVED: "removed: every payload of this type loses its schema",
    ADDED: "added",
    UNPROVEN: f"changed in the schema text, but {UNPROVEN_TEXT}",
    UNKNOWN: "unknown: the witness search ran out of time before it could decide (taken as breaking)",
    UNCHANGED: "unchanged",
}
WITNESS = {NARROWED: "valid before, invalid now", WIDENED: "invalid before, valid now"}


def breaking(report: FamilyReport, fail_on: str) -> list[str]:
    """The verdicts and API changes that count as breaking under `--fail-on` (API majors always do)."""
    kinds = {
        "narrowed": {NARROWED, BOTH, REMOVED, UNKNOWN},
        "widened": {WIDENED, BOTH, UNKNOWN},
        "any": {NARROWED, WIDENED, BOTH, REMOVED, UNKNOWN},
    }
    found = [f"{report.family}/{t.name} {t.verdict}" for t in report.types if t.verdict in kinds[fail_on]]
    return found + [f"{report.family} API: {c.what} {c.change}" for c in report.api if c.bump == "major"]


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
                lines.append(f"    - {c.rule} (at {c.where or '/'}; usually {c.hint})")
            if len(t.changes) > 12:
                lines.append(f"    - ... {len(t.changes) - 12} more")
            for w in t.witnesses:
                lines.append(f"    witness, {WITNESS[w.direction]}: {short(w.payload, width)}")
                lines.append(f"      {w.found_by}; rejected: {w.rejected_because}")
            for note in t.notes[:6]:
                lines.append(f"    note: {note}")
        for a in r.api:
            lines.append(f"  API {a.change} ({a.bump}): {a.what}: {a.detail[:width]}")
        if r.api_note:
            lines.append(f"  API: {r.api_note}")
    return "\n".join(lines) + "\n"
