"""What the tests and `python -m tests.json_schema_suite` say about an outcome: the counts, each
artefact's disagreements with the suite, and whether a lint refusal is one the docs list."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from codegen.errors import SchemaProblem
from tests.json_schema_suite.judges import ARTEFACTS, Outcome, Verdict

ROOT = Path(__file__).parent.parent.parent
# A row of a docs table whose first cell names lint rules: "| `rule` | ..." or "| `a`, `b` | ...".
_RULE_ROW = re.compile(r"^\|\s*((?:`[a-z-]+`(?:,\s*)?)+)\s*\|(.*)\|\s*$", re.MULTILINE)
# In the `unsupported` row: the keywords every generator handles, "outside the set (`type`, ...)".
_SUPPORTED_SET = re.compile(r"outside the set \(([^()]*)\)")


@dataclass(frozen=True)
class Disagreement:
    """One test on which an artefact's verdict is not the suite's."""

    label: str  # the group, as Group.label names it
    test: str
    artefact: str
    expected: bool
    got: Verdict

    def __str__(self) -> str:
        got = self.got if isinstance(self.got, str) else _word(self.got)
        return f"{self.label} / {self.test!r}: {self.artefact} says {got[:300]}, the suite {_word(self.expected)}"


def _word(valid: bool) -> str:
    return "valid" if valid else "invalid"


def disagreements(outcome: Outcome, artefact: str) -> list[Disagreement]:
    """Every generated test on which `artefact` does not give the suite's verdict (none when its
    judge gave no verdicts: `outcome.broken` says why)."""
    if artefact not in outcome.verdicts:
        return []
    found = []
    for (group, test), got in zip(outcome.cases, outcome.verdicts[artefact], strict=True):
        if got is not test.expected(artefact):
            found.append(Disagreement(group.label, test.description, artefact, test.expected(artefact), got))
    return found


def summary(outcome: Outcome) -> str:
    """One line of counts: groups by fate, tests judged, disagreements per artefact."""
    per = ", ".join(
        f"{a} {len(disagreements(outcome, a)) if a in outcome.verdicts else 'no verdicts (judge failed)'}"
        for a in ARTEFACTS
    )
    return (
        f"{len(outcome.groups)} groups: {len(outcome.generated)} generated, {len(outcome.refused)} refused by lint, "
        f"{len(outcome.skipped)} not relocatable, {len(outcome.crashed)} crashed lint, "
        f"{len(outcome.failed)} failed generation; {len(outcome.cases)} tests judged; "
        f"disagreements: {per if outcome.cases else 'none judged'}"
    )


def documented_rules() -> dict[str, str]:
    """Every lint rule the docs' tables name in a row's first cell, with the rest of its row."""
    rules: dict[str, str] = {}
    for page in sorted((ROOT / "docs").glob("*.md")):
        for names, text in _RULE_ROW.findall(page.read_text(encoding="utf-8")):
            for name in re.findall(r"`([a-z-]+)`", names):
                rules[name] = rules.get(name, "") + text
    return rules


def is_documented(problem: SchemaProblem, rules: dict[str, str]) -> bool:
    """Whether a refusal names a rule the docs list and, for `unsupported`, a keyword the docs do not
    call supported (outside the set the row names) or name as unsupported themselves."""
    if problem.rule not in rules:
        return False
    if problem.rule != "unsupported":
        return True
    row = rules["unsupported"]
    keyword = problem.pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    supported = _SUPPORTED_SET.search(row)
    elsewhere = _SUPPORTED_SET.sub("", row)
    if supported is None:
        return f"`{keyword}`" in row
    return f"`{keyword}`" not in supported.group(1) or f"`{keyword}`" in elsewhere


def refusal_lines(outcome: Outcome) -> list[str]:
    """Each lint refusal, as `group: problem`."""
    return [f"{outcome.groups[n].label}: {p}" for n, problems in sorted(outcome.refused.items()) for p in problems]
