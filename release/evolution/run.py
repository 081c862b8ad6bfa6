"""One run of the gate: compare, resolve each family's settings, judge the findings, render."""

from __future__ import annotations

import argparse
from pathlib import Path

from codegen.versions import version_path

from . import accept
from .cli import RELEASE
from .engine import FamilyReport, compare_release, compare_snapshots
from .findings import collect, entry_problems
from .formats import FORMATS
from .gate import GateError, Problem, Settings, parse_fail_on, read_config, resolve
from .outcome import Outcome
from .releases import transitive_reports
from .source import Snapshot, revision, work_tree
from .witness import Budget


def settings_of(
    args: argparse.Namespace, root: Path, families: list[str], fail_on: frozenset[str] | None
) -> dict[str, Settings]:
    """Each family's gate: the command line over its compatibility.json over the defaults."""
    return {f: resolve(args.mode, fail_on, args.transitive, read_config(root, f)) for f in families}


def compare(args: argparse.Namespace, root: Path, new: Snapshot, budget: Budget) -> list[FamilyReport]:
    """The work tree's comparison with BASE (or each family's previous release)."""
    if args.base == RELEASE:
        return compare_release(root, new, args.family, budget)
    return compare_snapshots(root, revision(root, args.base), new, args.family, budget)


def version_problems(reports: list[FamilyReport]) -> list[Problem]:
    """`--check-version`: one per comparison whose declared version bump does not cover its changes."""
    return [
        Problem(
            version_path(r.family),
            1,
            f"diff: {version_path(r.family)}: {r.version} is a {r.declared} bump from {r.base_version}, "
            f"the changes need {r.needed}" + (f" (against {r.base})" if r.transitive else ""),
        )
        for r in reports
        if not r.version_ok
    ]


def judge(args: argparse.Namespace, root: Path) -> tuple[Outcome, str]:
    """The outcome of the run and its rendering in `args.format`."""
    # Settings and the accept list are read first: a bad one is an error before minutes of search.
    fail_on = parse_fail_on(args.fail_on, "diff: --fail-on") if args.fail_on else None
    shown = args.accept or accept.DEFAULT_PATH
    if args.accept and not (root / shown).is_file():  # only the default list may be absent
        raise GateError(f"diff: --accept {shown}: no such file under {root}")
    entries = accept.load(root / shown, shown)
    new = work_tree(root)
    settings = settings_of(args, root, sorted(set(new.families()) | set(args.family or [])), fail_on)
    budget = Budget(max(args.examples, 0), max(args.candidates, 1), args.seconds)
    reports = compare(args, root, new, budget)
    families = list(dict.fromkeys(r.family for r in reports))
    for family in families:  # a family removed from the work tree has no file of its own left
        settings.setdefault(family, resolve(args.mode, fail_on, args.transitive, None))
    settings = {family: settings[family] for family in families}
    cache: dict[str, Snapshot] = {}
    for primary in list(reports):
        if settings[primary.family].transitive:
            reports += transitive_reports(root, new, primary.family, primary, budget, cache)
    today = accept.today()
    findings = collect(reports, settings, args.check_version, entries, today)
    outcome = Outcome(reports, findings, settings, shown)
    outcome.problems = entry_problems(entries, findings, set(families), shown, today)
    if args.check_version:
        outcome.problems += version_problems(reports)
    return outcome, FORMATS[args.format](outcome)
