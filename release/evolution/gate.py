"""What fails the gate, per family: `--fail-on`, `--mode`, `--transitive` and the family's own
`schemas/<family>/compatibility.json`.

A finding falls in categories: `narrowed` (narrowed, removed, both), `widened` (widened, both),
`unknown` (a changed type with no witness either way: unproven, or the search out of time), `api`
(a code-level change needing a major bump). The gate fails on the union of the mode's directions
(backward: narrowed; forward: widened; full: both) and the `--fail-on` set. `--fail-on` defaults
to `narrowed,api,unknown` without a mode and to `api,unknown` with one, so an undecided type fails
closed unless `--fail-on` leaves `unknown` out. Each setting on the command line overrides the
family's file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NARROWED, WIDENED, API, UNKNOWN = "narrowed", "widened", "api", "unknown"
CATEGORIES = (NARROWED, WIDENED, API, UNKNOWN)
ANY = "any"
MODES: dict[str, frozenset[str]] = {
    "backward": frozenset({NARROWED}),  # new readers accept old payloads
    "forward": frozenset({WIDENED}),  # old readers accept new payloads
    "full": frozenset({NARROWED, WIDENED}),
}
DEFAULT_FAIL_ON = frozenset({NARROWED, API, UNKNOWN})
DEFAULT_FAIL_ON_WITH_MODE = frozenset({API, UNKNOWN})
CONFIG_NAME = "compatibility.json"
_CONFIG_KEYS = {"mode", "fail_on", "transitive"}

# The categories of each verdict of a type (engine.TypeReport.verdict).
VERDICT_CATEGORIES: dict[str, frozenset[str]] = {
    "narrowed": frozenset({NARROWED}),
    "removed": frozenset({NARROWED}),
    "widened": frozenset({WIDENED}),
    "both": frozenset({NARROWED, WIDENED}),
    "unproven": frozenset({UNKNOWN}),
    "unknown": frozenset({UNKNOWN}),
    "added": frozenset(),
    "unchanged": frozenset(),
}


@dataclass(frozen=True)
class Problem:
    """A line that fails the gate besides the findings (an accept-list entry, a version), and where."""

    file: str  # path from the repository root
    line: int  # 1-based
    message: str


class GateError(ValueError):
    """A bad setting: one line naming the file (or option) and the place."""


def parse_fail_on(values: list[str], where: str) -> frozenset[str]:
    """`--fail-on` values (each comma-separated, the option repeatable) as a set of categories."""
    out: set[str] = set()
    for value in values:
        for item in value.split(","):
            name = item.strip()
            if name == ANY:
                out |= set(CATEGORIES)
            elif name in CATEGORIES:
                out.add(name)
            else:
                choices = ", ".join((*CATEGORIES, ANY))
                raise GateError(f"{where}: {name!r} is not one of {choices}")
    return frozenset(out)


@dataclass(frozen=True)
class FamilyConfig:
    """What a family's compatibility.json sets (None: not set there)."""

    mode: str | None = None
    fail_on: frozenset[str] | None = None
    transitive: bool | None = None


@dataclass(frozen=True)
class Settings:
    """The gate of one family, as resolved from the command line, its file and the defaults."""

    mode: str | None
    fail_on: frozenset[str]
    transitive: bool
    source: str  # where the settings come from, for the report

    @property
    def failing(self) -> frozenset[str]:
        """The categories that fail the gate."""
        return (MODES[self.mode] if self.mode else frozenset()) | self.fail_on

    def describe(self) -> str:
        """One line: the mode and the categories that fail."""
        mode = f"mode {self.mode}{' transitive' if self.transitive else ''}" if self.mode else "no mode"
        shown = ", ".join(c for c in CATEGORIES if c in self.failing) or "nothing"
        return f"{mode}; fails on {shown} ({self.source})"


def read_config(root: Path, family: str) -> FamilyConfig | None:
    """The family's `schemas/<family>/compatibility.json`, or None when it has none."""
    shown = f"schemas/{family}/{CONFIG_NAME}"
    path = root / shown
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise GateError(f"diff: {shown}: cannot read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise GateError(f"diff: {shown}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    return _config(data, shown)


def _config(data: Any, shown: str) -> FamilyConfig:
    if not isinstance(data, dict):
        raise GateError(f"diff: {shown}: expected an object with {', '.join(sorted(_CONFIG_KEYS))}")
    for key in sorted(set(data) - _CONFIG_KEYS):
        raise GateError(f"diff: {shown}: /{key}: unknown setting (known: {', '.join(sorted(_CONFIG_KEYS))})")
    mode = data.get("mode")
    if mode is not None and mode not in MODES:
        raise GateError(f"diff: {shown}: /mode: {mode!r} is not one of {', '.join(MODES)}")
    fail_on = data.get("fail_on")
    if fail_on is not None:
        if not (isinstance(fail_on, list) and all(isinstance(v, str) for v in fail_on)):
            raise GateError(f"diff: {shown}: /fail_on: expected a list of strings")
        fail_on = parse_fail_on(fail_on, f"diff: {shown}: /fail_on")
    transitive = data.get("transitive")
    if transitive is not None and not isinstance(transitive, bool):
        raise GateError(f"diff: {shown}: /transitive: expected true or false")
    return FamilyConfig(mode, fail_on, transitive)


def resolve(
    mode: str | None, fail_on: frozenset[str] | None, transitive: bool | None, config: FamilyConfig | None
) -> Settings:
    """A family's settings: each given on the command line (not None) wins over the family's file."""
    config = config or FamilyConfig()
    from_file = [
        name
        for name, cli, file in (("mode", mode, config.mode), ("fail_on", fail_on, config.fail_on))
        if cli is None and file is not None
    ]
    if transitive is None and config.transitive is not None:
        from_file.append("transitive")
    chosen_mode = mode if mode is not None else config.mode
    default = DEFAULT_FAIL_ON_WITH_MODE if chosen_mode else DEFAULT_FAIL_ON
    chosen = fail_on if fail_on is not None else config.fail_on if config.fail_on is not None else default
    deep = transitive if transitive is not None else bool(config.transitive)
    source = f"{', '.join(from_file)} from {CONFIG_NAME}" if from_file else "command line and defaults"
    return Settings(chosen_mode, chosen, deep, source)
