"""`python -m tests.conformance [--small] [--seed N] [--seeds N] [--jobs N] [--only family/Type ...]`: run and print the report."""

from __future__ import annotations

import argparse
import sys

from chatschema.validate.stop import Terminated, exit_status, sigterm_raises
from tests.conformance.report import FULL, SMALL, WorkerDied, format_report, runs, summary_line
from tests.conformance.seeds import DEFAULT_SEED, derived_seeds

PROG = "python -m tests.conformance"


def main(argv: list[str] | None = None) -> int:
    """Run the budget at each seed, print each report and, for several seeds, one line per seed."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__)
    parser.add_argument("--small", action="store_true", help="the test suite's small budget")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--seeds", type=int, default=1, metavar="N", help="run N seeds: --seed and N-1 derived from it (fixed)"
    )
    parser.add_argument("--only", nargs="*", help="families or family/Type names (replays the same cases)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="processes judging types side by side (default: one per core)",
    )
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds needs at least 1")
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs needs at least 1")
    try:
        with sigterm_raises():  # `kill`, `timeout`: the workers are ended as for Ctrl-C
            results = runs(
                SMALL if args.small else FULL,
                derived_seeds(args.seed, args.seeds),
                args.only,
                log=lambda m: print(m, file=sys.stderr, flush=True),
                jobs=args.jobs,
            )
    except KeyboardInterrupt as stop:
        print(f"{PROG}: {'terminated' if isinstance(stop, Terminated) else 'interrupted'}", file=sys.stderr)
        return exit_status(stop)
    except WorkerDied as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    for result in results:
        print(format_report(result), flush=True)
    if len(results) > 1:
        print(f"\n== {len(results)} seeds")
        print("\n".join(f"  {summary_line(r)}" for r in results))
    return 1 if any(r.problems for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
