"""`python -m tests.conformance [--small] [--seed N] [--only family/Type ...]`: run and print the report."""

from __future__ import annotations

import argparse
import sys

from tests.conformance.report import DEFAULT_SEED, FULL, SMALL, format_report, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.conformance", description=__doc__)
    parser.add_argument("--small", action="store_true", help="the test suite's small budget")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--only", nargs="*", help="families or family/Type names (replays the same cases)")
    args = parser.parse_args(argv)
    result = run(
        SMALL if args.small else FULL, args.seed, args.only, log=lambda m: print(m, file=sys.stderr, flush=True)
    )
    print(format_report(result))
    return 1 if result.problems else 0


if __name__ == "__main__":
    sys.exit(main())
