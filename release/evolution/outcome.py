"""The result of one run of the gate, as every output format reads it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .engine import FamilyReport
from .findings import Finding
from .gate import Problem, Settings


@dataclass
class Outcome:
    """Reports, judged findings, each family's settings, and the lines that fail the gate besides findings."""

    reports: list[FamilyReport]
    findings: list[Finding]
    settings: dict[str, Settings]
    accept_file: str  # the accept list's path from the repository root
    problems: list[Problem] = field(default_factory=list)  # accept-list entries, versions not bumped enough

    @property
    def failed(self) -> bool:
        """Whether the gate fails (exit 1)."""
        return any(f.fails for f in self.findings) or bool(self.problems)
