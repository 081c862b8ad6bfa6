"""Family versions: each family declares a semantic version in `schemas/<family>/VERSION`.

A plain one-line file beside the schemas, not a key inside a schema: the loader reads only
`*.json`, lint's rules stay as strict as they are, and `git log -- schemas/<family>/VERSION`
is exactly the family's release history (what `codegen diff release` reads).
"""

from __future__ import annotations

import re
from pathlib import Path

from .errors import SchemaProblem

SEMVER = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
BUMPS = ("none", "patch", "minor", "major")


def version_path(family: str) -> str:
    """Where a family's version lives, relative to the repository root."""
    return f"schemas/{family}/VERSION"


def parse_version(text: str) -> tuple[int, int, int] | None:
    """`"1.2.3\\n"` -> (1, 2, 3); None unless the text is exactly one MAJOR.MINOR.PATCH line."""
    match = SEMVER.fullmatch(text.strip()) if text.count("\n") <= 1 else None
    if match is None:
        return None
    major, minor, patch = (int(g) for g in match.groups())
    return major, minor, patch


def read_versions(root: Path, families: list[str]) -> tuple[dict[str, str], list[SchemaProblem]]:
    """Every family's declared version, and a problem for each missing or malformed VERSION file."""
    versions: dict[str, str] = {}
    problems: list[SchemaProblem] = []
    for family in families:
        rel = version_path(family)
        path = root / rel
        if not path.is_file():
            problems.append(SchemaProblem(rel, "", "missing: every family declares its semantic version (e.g. 1.0.0)"))
            continue
        text = path.read_text(encoding="utf-8")
        if parse_version(text) is None:
            problems.append(SchemaProblem(rel, "", f"{text.strip()[:40]!r} is not a MAJOR.MINOR.PATCH version"))
            continue
        versions[family] = text.strip()
    return versions, problems


def declared_bump(old: str | None, new: str) -> str:
    """The bump from `old` to `new`: none, patch, minor or major (a first version bumps nothing)."""
    a, b = parse_version(old or ""), parse_version(new)
    if a is None or b is None or b <= a:
        return "none"
    if b[0] > a[0]:
        return "major"
    if b[1] > a[1]:
        return "minor"
    return "patch"


def at_least(bump: str, needed: str) -> bool:
    """Whether `bump` is as large as `needed`."""
    return BUMPS.index(bump) >= BUMPS.index(needed)
