"""`--format text`: the readable report, then each family's gate settings and the accepted breaks."""

from __future__ import annotations

from ..outcome import Outcome
from ..report import render_text, wrap


def render(outcome: Outcome) -> str:
    """The report as text lines."""
    lines = [render_text(outcome.reports).rstrip("\n")]
    for family, settings in sorted(outcome.settings.items()):
        lines += wrap(f"{family}: gate: {settings.describe()}")
    for f in outcome.findings:
        if f.accepted is not None:
            until = f" (until {f.accepted.expires})" if f.accepted.expires else ""
            lines += wrap(f"  accepted [{f.rule.id}] {f.message}: {f.accepted.reason}{until}")
    return "\n".join(lines) + "\n"
