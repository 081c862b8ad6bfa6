"""`python -m release.evolution`: argument parsing and exit codes (0 nothing breaking, 1 breaking or
not bumped enough, 2 usage or schema error)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .source import DiffError

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
    p.add_argument(
        "--format",
        choices=("text", "json", "github", "junit", "sarif"),
        default="text",
        help="text (default), json (versioned), github (workflow annotations), junit (XML) or sarif (2.1.0)",
    )
    p.add_argument(
        "--fail-on",
        action="append",
        metavar="SET",
        help="what fails the gate (exit 1): narrowed, widened, api, unknown or any, comma-separated or "
        "repeated (default narrowed,api,unknown; api,unknown with a mode); overrides compatibility.json",
    )
    p.add_argument(
        "--mode",
        choices=("backward", "forward", "full"),
        help="fail on narrowed (backward), widened (forward) or both (full), besides --fail-on; overrides "
        "schemas/<family>/compatibility.json",
    )
    p.add_argument(
        "--transitive",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="judge against every earlier release of the family too (each commit where its VERSION changed)",
    )
    p.add_argument(
        "--accept",
        metavar="FILE",
        default=None,
        help="the accept list of known breaks, from the repository root (default release/accepted.json)",
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
    """Run the comparison, print the report in the chosen format; returns the exit status."""
    # The engine needs hypothesis and the conformance harness (requirements/evolution.txt): loaded here,
    # so that `generate` and `lint` run with requirements/codegen.txt alone.
    from .gate import GateError
    from .run import judge

    try:
        outcome, text = judge(args, root)
    except DiffError as exc:
        for line in exc.lines:
            print(line, file=sys.stderr)
        return ERROR
    except GateError as exc:
        print(str(exc), file=sys.stderr)
        return ERROR
    sys.stdout.write(text)
    if any(f.fails for f in outcome.findings):
        from .findings import failure_line

        print(failure_line(outcome.findings), file=sys.stderr)
    for problem in outcome.problems:
        print(problem.message, file=sys.stderr)
    return BREAKING if outcome.failed else OK
