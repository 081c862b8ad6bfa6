"""The survivors judged equivalent (no input tells them from the original), as listed in docs/testing.md.

One bullet per mutant in that file, module path below chatschema/ (or npm/esm/...), its line and its change:

    - `jsontext.py:57` `Lt -> LtE`: every integer literal of 19 characters is within 64 bits

The scores count them apart, and the test suite checks that each entry still names a mutant of the
current code, so a list gone stale after an edit fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .mutants import Mutant

_ENTRY = re.compile(r"^- `(?P<module>[\w/.]+):(?P<line>\d+)` `(?P<change>[^`]+)`: (?P<reason>\S.*)$")


@dataclass(frozen=True)
class Equivalent:
    module: str  # relative to the repository, like Mutant.module
    line: int
    change: str
    reason: str

    def matches(self, mutant: Mutant) -> bool:
        return (mutant.module, mutant.line, mutant.description) == (self.module, self.line, self.change)


def listed(doc: Path) -> list[Equivalent]:
    """The entries of `doc` (bullets in the form above, anywhere in the file)."""
    found = []
    for text in doc.read_text(encoding="utf-8").splitlines():
        entry = _ENTRY.match(text)
        if entry is not None:
            module = entry["module"]
            if not module.startswith(("chatschema/", "npm/")):
                module = f"chatschema/{module}"
            found.append(Equivalent(module, int(entry["line"]), entry["change"], entry["reason"]))
    return found


def keys(entries: list[Equivalent], mutants: list[Mutant]) -> set[str]:
    """The keys of the mutants the entries name (an entry naming several identical changes on a line names all)."""
    return {m.key for m in mutants for e in entries if e.matches(m)}
