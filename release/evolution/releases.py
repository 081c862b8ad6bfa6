"""`--transitive`: a family judged against every earlier release, not only its base.

A family's releases are the commits where `schemas/<family>/VERSION` took a new value (its
history, oldest first); each is compared with the work tree like the base is, and its findings
count like the base's. With `--check-version`, the bump from that release to the current version
must cover the changes since it.
"""

from __future__ import annotations

from pathlib import Path

from codegen.versions import declared_bump, version_path

from .engine import ApiSource, FamilyReport, compare_snapshots
from .source import DiffError, Snapshot, git, revision
from .witness import Budget


def release_commits(root: Path, family: str) -> list[tuple[str, str]]:
    """(commit, version) of each release of the family up to HEAD, oldest first."""
    out: list[tuple[str, str]] = []
    last: str | None = None
    for commit in git(root, "log", "--reverse", "--format=%H", "HEAD", "--", version_path(family)).split():
        try:
            version = git(root, "show", f"{commit}:{version_path(family)}").strip() or None
        except DiffError:  # the file deleted at that commit: no release there
            version = None
        if version is not None and version != last:
            out.append((commit, version))
        last = version
    return out


def transitive_reports(
    root: Path, new: Snapshot, family: str, primary: FamilyReport, budget: Budget, cache: dict[str, Snapshot]
) -> list[FamilyReport]:
    """The family compared with each of its releases other than the primary comparison's base."""
    new_api = ApiSource(root, new)
    out = []
    for commit, version in release_commits(root, family):
        if commit == primary.base_commit:
            continue
        if commit not in cache:
            cache[commit] = revision(root, commit)
        base = cache[commit]
        if family not in base.families():
            continue  # the release predates the family's schemas in this layout
        [report] = compare_snapshots(root, base, new, [family], budget, ApiSource(root, base), new_api)
        report.base = f"release {version} ({commit[:12]})"
        report.base_version = version
        report.declared = declared_bump(version, report.version or "")
        report.transitive = True
        out.append(report)
    return out
