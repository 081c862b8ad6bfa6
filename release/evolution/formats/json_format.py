"""`--format json`: the machine-readable report, versioned by `format_version` (docs/evolution.md).

Version 1: `families` (the per-family comparison: verdicts, changes with their rule ids, witnesses,
API changes, bumps), `findings` (one per finding, judged), `settings` (each family's gate),
`problems` (accept-list and version lines that fail the gate) and `failed`.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import as_json
from ..findings import Finding
from ..gate import CATEGORIES
from ..ids import change_rule
from ..outcome import Outcome

FORMAT_VERSION = 1


def finding(f: Finding) -> dict[str, Any]:
    """One finding as JSON."""
    accepted = None
    if f.accepted is not None:
        expires = f.accepted.expires.isoformat() if f.accepted.expires else None
        accepted = {"entry": f.accepted.number, "reason": f.accepted.reason, "expires": expires}
    return {
        "rule_id": f.rule.id,
        "rule": f.rule.name,
        "severity": f.severity,
        "fails": f.fails,
        "accepted": accepted,
        "covered_by_version": f.covered,
        "type": f.subject,
        "verdict": f.verdict,
        "categories": [c for c in CATEGORIES if c in f.categories],
        "direction": f.direction,
        "message": f.message,
        "file": f.file,
        "line": f.line,
        "pointer": f.pointer,
        "base": f.base,
        "witnesses": f.witnesses,
    }


def render(outcome: Outcome) -> str:
    """The JSON report as text."""
    families = as_json(outcome.reports)["families"]
    for shown, report in zip(families, outcome.reports, strict=True):
        shown["transitive"] = report.transitive
        by_type = {f"{report.family}/{t.name}": t for t in report.types}
        for t in shown["types"]:
            for c, change in zip(t["changes"], by_type[t["name"]].changes, strict=True):
                c["rule_id"] = change_rule(change.kind).id
    settings = {
        family: {
            "mode": s.mode,
            "transitive": s.transitive,
            "fail_on": [c for c in CATEGORIES if c in s.fail_on],
            "failing": [c for c in CATEGORIES if c in s.failing],
            "source": s.source,
        }
        for family, s in sorted(outcome.settings.items())
    }
    data = {
        "format_version": FORMAT_VERSION,
        "failed": outcome.failed,
        "settings": settings,
        "families": families,
        "findings": [finding(f) for f in outcome.findings],
        "problems": [{"file": p.file, "line": p.line, "message": p.message} for p in outcome.problems],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
