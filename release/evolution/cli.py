"""`python -m release.evolution`: argument parsing and exit codes (0 nothing breaking, 1 breaking or
not bumped enough, 2 usage or schema error)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .source import DiffError, revision, work_tree

RELEASE = "release"
# The search's default bounds (witness.Budget's defaults, restated: witness.py needs hypothesis).
EXAMPLES, CANDIDATES, SECONDS = 8, 1500, 60.0


def parser() -> argparse.ArgumentParser:
    """The command line of `python -m release.evolution`."""
    p = argparse.ArgumentParser(
        prog="python -m release.evolution",
        description="What a schema edit breaks, for whom, proven with a payload. Compare schemas/ at BASE with "
        "the work tree: per-type verdicts with witness payloads, code-level API changes and the semantic-version "
        "bump each family needs.",
    )
    p.add_argument("--root", type=Path, default=Path.cwd(), help="repository root (default: .)")
    p.add_argument(
        "base",
        nargs="?",
        default="HEAD",
        help=f"a git revision (default HEAD), or '{RELEASE}': each family's previous release, from the history of "
        "schemas/<family>/VERSION",
    )
    p.add_argument("--family", action="append", help="only this family (repeatable)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument(
        "--fail-on",
        choices=("narrowed", "widened", "any"),
        default="narrowed",
        help="which verdicts make the exit status 1 (default narrowed); API removals always do",
    )
    p.add_argument(
        "--check-version",
        action="store_true",
        help="exit 1 if a family's declared version was not bumped enough for its changes",
    )
    p.add_argument("--examples", type=int, default=EXAMPLES, help="instances generated per version and type")
    p.add_argument("--candidates", type=int, default=CANDIDATES, help="payloads judged per type, at most")
    p.add_argument(
        "--seconds",
        type=float,
        default=SECONDS,
        help=f"time of one type's witness search, at most (default {SECONDS:g}); past it the verdict is 'unknown'",
    )
    return p


# Exit statuses: nothing breaking, a breaking change (or a version not bumped enough), and a usage
# error, a schema that does not load or a failure of the diff itself: never taken for a verdict.
OK, BREAKING, ERROR = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = parser().parse_args(argv)
    try:
        return run_diff(args, args.root.resolve())
    except Exception as exc:  # a crash must not read as "breaking" (exit 1) to a CI gate
        name = type(exc).__name__
        print(
            f"diff: internal error, no verdict: {name}: {str(exc).splitlines()[0] if str(exc) else ''}", file=sys.stderr
        )
        return ERROR


def run_diff(args: argparse.Namespace, root: Path) -> int:
    """Run the comparison and print the report; returns the exit status."""
    # The engine needs hypothesis and the conformance harness (requirements/test.txt): loaded here,
    # so that `generate` and `lint` run with requirements/codegen.txt alone.
    from .engine import compare_release, compare_snapshots, dumps
    from .report import breaking, render_text
    from .witness import Budget

    budget = Budget(max(args.examples, 0), max(args.candidates, 1), args.seconds)
    try:
        new = work_tree(root)
        if args.base == RELEASE:
            reports = compare_release(root, new, args.family, budget)
        else:
            reports = compare_snapshots(root, revision(root, args.base), new, args.family, budget)
    except DiffError as exc:
        for line in exc.lines:
            print(line, file=sys.stderr)
        return ERROR
    sys.stdout.write(dumps(reports) if args.format == "json" else render_text(reports))
    status = OK
    # With --check-version, a breaking change that the declared version bump covers is allowed.
    broken = [b for r in reports if not (args.check_version and r.version_ok) for b in breaking(r, args.fail_on)]
    if broken:
        print(f"diff: {len(broken)} breaking change(s) under --fail-on {args.fail_on}", file=sys.stderr)
        status = BREAKING
    if args.check_version:
        for r in reports:
            if not r.version_ok:
                print(
                    f"diff: schemas/{r.family}/VERSION: {r.version} is a {r.declared} bump from {r.base_version}, "
                    f"the changes need {r.needed}",
                    file=sys.stderr,
                )
                status = BREAKING
    return status
