"""`--format github`: GitHub Actions workflow commands, an annotation on the changed line of each
finding (`::error file=...,line=...,title=...::message`), and one for each accept-list or version
problem.

Escaping follows the runner: in the message `%`, `\\r`, `\\n` are percent-encoded; in a property
value `:` and `,` too.
"""

from __future__ import annotations

from ..findings import ERROR, WARNING, details
from ..outcome import Outcome

LEVELS = {ERROR: "error", WARNING: "warning"}  # anything else: notice


def escape_data(text: str) -> str:
    """A message as a workflow command carries it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (file, title) as a workflow command carries it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, file: str | None = None, line: int | None = None, title: str = "") -> str:
    """One workflow command line."""
    props = [(k, v) for k, v in (("file", file), ("line", str(line) if line else None), ("title", title)) if v]
    shown = ",".join(f"{k}={escape_property(v)}" for k, v in props)
    return f"::{level}{' ' + shown if shown else ''}::{escape_data(message)}"


def render(outcome: Outcome) -> str:
    """Every finding and problem as a workflow command, one per line."""
    lines = []
    for f in outcome.findings:
        title = f"{f.rule.id} {f.rule.name}: {f.subject}"
        lines.append(command(LEVELS.get(f.severity, "notice"), "\n".join(details(f)), f.file, f.line, title))
    for problem in outcome.problems:
        lines.append(command("error", problem.message, problem.file, problem.line, title="CS000 gate-problem"))
    return "".join(line + "\n" for line in lines)
