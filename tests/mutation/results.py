"""Outcomes of mutants, kept in a results file between runs, and the score they make per module.

An outcome is reused (by `--only-survivors`, `--resume` and the scores) only while the mutant's
digest is the one recorded with it: a mutant whose code changed since has no outcome.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from .mutants import Mutant

KILLED = "killed"  # a test that passed on the baseline failed
TIMEOUT = "timeout"  # the tests did not finish in time: not a kill, counted apart
NOT_COVERED = "not covered"


@dataclass(frozen=True)
class Outcome:
    """What one mutant's run gave, with the digest of the code it was run on."""

    key: str
    module: str
    line: int
    description: str
    status: str  # "killed", "timeout", "survived", "not covered" or "error"
    tests: int  # how many tests were selected for it
    seconds: float
    detail: str = ""  # the killing test, or why it was not run
    digest: str = ""  # Mutant.digest when it ran ("" in results files older than digests: never reused)

    @property
    def killed(self) -> bool:
        """Whether a test that passed on the baseline failed with the mutant."""
        return self.status == KILLED


def load(path: Path) -> dict[str, Outcome]:
    """The outcomes recorded in `path` by key ({} if there is no such file)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    names = {f.name for f in fields(Outcome)}
    return {item["key"]: Outcome(**{k: v for k, v in item.items() if k in names}) for item in data["mutants"]}


def save(path: Path, outcomes: dict[str, Outcome], meta: dict[str, object]) -> None:
    """Write `meta` and every outcome to `path`, in module and line order."""
    ordered = sorted(outcomes.values(), key=lambda o: (o.module, o.line, o.key))
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({**meta, "mutants": [asdict(o) for o in ordered]}, indent=1, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def recorded(outcomes: dict[str, Outcome], mutant: Mutant) -> Outcome | None:
    """The outcome recorded for `mutant`, if it was recorded for the same code (same digest)."""
    outcome = outcomes.get(mutant.key)
    return outcome if outcome is not None and outcome.digest == mutant.digest else None


def to_rerun(mutants: Iterable[Mutant], previous: dict[str, Outcome]) -> list[Mutant]:
    """The mutants `previous` does not record as killed for their current code: survivors, time-outs,
    mutants never run, and mutants whose code changed since (a kill is never inherited across an edit)."""
    return [m for m in mutants if (o := recorded(previous, m)) is None or not o.killed]


def not_run(mutants: Iterable[Mutant], previous: dict[str, Outcome]) -> list[Mutant]:
    """The mutants `previous` has no outcome for, for their current code (`--resume`)."""
    return [m for m in mutants if recorded(previous, m) is None]


@dataclass(frozen=True)
class Score:
    """One module's (or package's) counts. Every mutant with an outcome is in exactly one of
    killed, timeouts, equivalent and survived."""

    name: str
    mutants: int  # mutants with an outcome for their current code
    killed: int
    timeouts: int
    equivalent: int  # survivors judged equivalent (docs/testing.md)
    survived: int  # the others: survived, not covered, or the run failed ("error")
    missing: int = 0  # mutants of the module with no outcome (not run: --max sampling)

    @property
    def by_behaviour(self) -> str:
        """killed / (mutants - equivalent - timeouts): of the mutants that change behaviour and end, how many a test catches."""
        judged = self.mutants - self.equivalent - self.timeouts
        return f"{self.killed / judged:.1%}" if judged else "-"

    def to_json(self) -> dict[str, object]:
        """The counts and the score, for the results file."""
        return {**asdict(self), "by_behaviour": self.by_behaviour}


def _module_score(module: str, listed: list[Mutant], outcomes: dict[str, Outcome], equivalent: set[str]) -> Score:
    known = [o for m in listed if (o := recorded(outcomes, m)) is not None]
    killed = sum(o.killed for o in known)
    timeouts = sum(o.status == TIMEOUT for o in known)
    judged = sum(not o.killed and o.status != TIMEOUT and o.key in equivalent for o in known)
    survived = len(known) - killed - timeouts - judged
    return Score(module, len(known), killed, timeouts, judged, survived, len(listed) - len(known))


def scores(mutants: dict[str, list[Mutant]], outcomes: dict[str, Outcome], equivalent: set[str]) -> list[Score]:
    """Per module and then per group (a package directory of several modules)."""
    per_module = [_module_score(module, listed, outcomes, equivalent) for module, listed in mutants.items()]
    groups: dict[str, list[Score]] = {}
    for score in per_module:
        groups.setdefault(group(score.name), []).append(score)
    counts = ("mutants", "killed", "timeouts", "equivalent", "survived", "missing")
    per_group = [
        Score(name, *(sum(getattr(s, f) for s in members) for f in counts))
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
    """Outcomes (for the current code) of the listed mutants that are not killed, in module and line order."""
    found = [o for listed in mutants.values() for m in listed if (o := recorded(outcomes, m)) is not None]
    return [o for o in found if not o.killed]
