"""The survivors judged equivalent (no input tells them from the original), as listed in docs/testing.md.

One bullet per mutant in that file: the module (below chatschema/, or npm/esm/...), the line and
the change it had when judged, the mutant's digest (mutants.py: a hash of the mutated function or
lines), and the reason, which is required:

    - `jsontext.py:57` `Lt -> LtE` `1a2b3c4d`: every integer literal of 19 characters is within 64 bits

An entry names the mutant with its digest, whatever its line is now: an edit elsewhere in the file
keeps it, an edit of the code around the mutant makes it stale (it names no mutant any more, and
the test suite says which, with its module and old line), to be judged again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .mutants import Mutant

_START = re.compile(r"^- `[\w/.]+:\d+` `")  # a bullet that is meant as an entry
_ENTRY = re.compile(
    r"^- `(?P<module>[\w/.]+):(?P<line>\d+)` `(?P<change>[^`]+)` `(?P<digest>[0-9a-f]{8})`: (?P<reason>\S.*)$"
)


@dataclass(frozen=True)
class Equivalent:
    """One listed survivor: where it was when judged, its digest, and why no test can kill it."""

    module: str  # relative to the repository, like Mutant.module
    line: int  # when judged: for readers, not for matching
    change: str
    digest: str
    reason: str

    def matches(self, mutant: Mutant) -> bool:
        """Whether `mutant` is the one judged: same module, change and digest (the line may have moved)."""
        return (mutant.module, mutant.digest, mutant.description) == (self.module, self.digest, self.change)

    def __str__(self) -> str:
        return f"{self.module}:{self.line} {self.change} ({self.digest})"


def parse(text: str) -> list[Equivalent]:
    """The entries in `text` (bullets in the form above, anywhere); a bullet like one without a digest or reason is refused."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if not _START.match(line):
            continue
        entry = _ENTRY.match(line)
        if entry is None:
            raise ValueError(
                f"line {number}: an equivalent mutant needs `module:line` `change` `digest`: reason: {line}"
            )
        module = entry["module"]
        if not module.startswith(("chatschema/", "npm/")):
            module = f"chatschema/{module}"
        found.append(Equivalent(module, int(entry["line"]), entry["change"], entry["digest"], entry["reason"]))
    return found


def listed(doc: Path) -> list[Equivalent]:
    """The entries of `doc` (see `parse`)."""
    return parse(doc.read_text(encoding="utf-8"))


def keys(entries: list[Equivalent], mutants: Iterable[Mutant]) -> set[str]:
    """The keys of the mutants the entries name."""
    by_digest = {(e.module, e.digest): e for e in entries}
    return {m.key for m in mutants if (e := by_digest.get((m.module, m.digest))) is not None and e.matches(m)}


def stale(entries: list[Equivalent], mutants: Iterable[Mutant], modules: Iterable[str]) -> list[Equivalent]:
    """The entries of `modules` that name none of `mutants` (every mutant of those modules): their code changed."""
    current = {(m.module, m.digest, m.description) for m in mutants}
    wanted = set(modules)
    return [e for e in entries if e.module in wanted and (e.module, e.digest, e.change) not in current]
