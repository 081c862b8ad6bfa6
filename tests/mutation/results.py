"""Outcomes of mutants, kept in a results file between runs, and the score they make per module."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from .mutants import Mutant

KILLED = ("killed", "timeout")  # a mutant that makes the tests hang is caught: they never pass
NOT_COVERED = "not covered"


@dataclass(frozen=True)
class Outcome:
    key: str
    module: str
    line: int
    description: str
    status: str  # "killed", "timeout", "survived", "not covered" or "error"
    tests: int  # how many tests were selected for it
    seconds: float
    detail: str = ""  # the killing test, or why it was not run

    @property
    def killed(self) -> bool:
        return self.status in KILLED


def load(path: Path) -> dict[str, Outcome]:
    """The outcomes recorded in `path` by key ({} if there is no such file)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {item["key"]: Outcome(**item) for item in data["mutants"]}


def save(path: Path, outcomes: dict[str, Outcome], meta: dict[str, str]) -> None:
    """Write every outcome to `path`, in module and line order."""
    ordered = sorted(outcomes.values(), key=lambda o: (o.module, o.line, o.key))
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({**meta, "mutants": [asdict(o) for o in ordered]}, indent=1, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def to_rerun(mutants: Iterable[Mutant], previous: dict[str, Outcome]) -> list[Mutant]:
    """The mutants not already killed in `previous`: its survivors, and mutants of code changed since."""
    return [m for m in mutants if m.key not in previous or not previous[m.key].killed]


@dataclass(frozen=True)
class Score:
    name: str
    killed: int
    total: int  # mutants with an outcome
    missing: int  # mutants of the module with no outcome (not run: --max sampling)
    equivalent: int  # survivors judged equivalent (docs/testing.md)

    @property
    def share(self) -> str:
        return f"{self.killed / self.total:.1%}" if self.total else "-"

    @property
    def share_of_others(self) -> str:
        """Killed among the mutants not judged equivalent."""
        others = self.total - self.equivalent
        return f"{self.killed / others:.1%}" if others else "-"


def scores(mutants: dict[str, list[Mutant]], outcomes: dict[str, Outcome], equivalent: set[str]) -> list[Score]:
    """Per module and then per group (a package directory of several modules): killed / mutants with an outcome."""
    per_module: list[Score] = []
    for module, listed in mutants.items():
        known = [outcomes[m.key] for m in listed if m.key in outcomes]
        judged = sum(not o.killed and o.key in equivalent for o in known)
        per_module.append(Score(module, sum(o.killed for o in known), len(known), len(listed) - len(known), judged))
    groups: dict[str, list[Score]] = {}
    for score in per_module:
        groups.setdefault(group(score.name), []).append(score)
    per_group = [
        Score(name, *(sum(getattr(s, f) for s in members) for f in ("killed", "total", "missing", "equivalent")))
        for name, members in groups.items()
        if len(members) > 1
    ]
    return per_module + per_group


def group(module: str) -> str:
    """The group a module's score counts in: its package directory below the runtime (`validate/`), or itself."""
    relative = module.removeprefix("chatschema/")
    if relative != module and "/" in relative:
        return relative.rsplit("/", 1)[0] + "/"
    return module


def survivors(mutants: dict[str, list[Mutant]], outcomes: dict[str, Outcome]) -> list[Outcome]:
    """Outcomes of the listed mutants that are not killed, in module and line order."""
    found = [outcomes[m.key] for listed in mutants.values() for m in listed if m.key in outcomes]
    return [o for o in found if not o.killed]
