"""Entry point of `python -m tests.mutation` (see the package's docstring)."""

from __future__ import annotations

import argparse
import datetime
import random
import subprocess
import sys
import time
from pathlib import Path

from . import __doc__ as USAGE
from . import equivalent
from .coverage_map import CoverageMap, collect
from .execute import Workspace
from .mutants import Mutant, mutants
from .results import NOT_COVERED, Outcome, load, save, scores, survivors, to_rerun

ROOT = Path(__file__).resolve().parent.parent.parent
EQUIVALENT = ROOT / "docs" / "testing.md"  # the survivors judged equivalent, with the reason for each
DEFAULT_MODULES = [
    "chatschema/jsontext.py",
    "chatschema/schemas/__init__.py",
    "chatschema/validate/backends.py",
    "chatschema/validate/reader.py",
    "chatschema/validate/report.py",
    "chatschema/validate/run.py",
    "chatschema/letta/sse.py",
    "chatschema/letta/stream.py",
    "chatschema/cli.py",
    "npm/esm/core.js",
]
# Every test file that uses the runtime; with the coverage map each mutant runs only those reaching it.
PYTHON_TESTS = [
    "tests/hostile",
    "tests/test_api.py",
    "tests/test_bridgic_api.py",
    "tests/test_bridgic_real.py",
    "tests/test_cli.py",
    "tests/test_cli_conventions.py",
    "tests/test_dispatch.py",
    "tests/test_docent_real.py",
    "tests/test_formats.py",
    "tests/test_letta_real.py",
    "tests/test_letta_stream.py",
    "tests/test_letta_stream_api.py",
    "tests/test_node_errors.py",
    "tests/test_sse_reader.py",
    "tests/test_swarm_api.py",
    "tests/test_validate_api.py",
    "tests/test_vectors.py",
]
NODE_TESTS = [
    "tests/hostile/test_node.py",
    "tests/test_node_errors.py",
    "tests/test_typescript.py",
    "tests/test_letta_stream.py",
]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tests.mutation", description=USAGE, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--module", action="append", help="a hand-written module (repeat); default: the runtime's")
    parser.add_argument("--max", type=int, default=30, help="mutants sampled per module, seeded (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, help="seconds per mutant (default: 60 + 3x its tests' measured time)")
    parser.add_argument("--tests", nargs="*", help="test paths (default: every test file using the runtime)")
    parser.add_argument("--results", type=Path, default=ROOT / ".mutation" / "results.json", help="results file")
    parser.add_argument(
        "--only-survivors", action="store_true", help="run only the mutants the results file does not record as killed"
    )
    parser.add_argument(
        "--resume", action="store_true", help="run only the mutants the results file has no outcome for"
    )
    parser.add_argument("--all-tests", action="store_true", help="no coverage map: every mutant runs every test")
    parser.add_argument("pytest_args", nargs="*", help="after --: extra pytest arguments")
    return parser


def _git(*args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return proc.stdout.strip()


def _chosen(args: argparse.Namespace) -> dict[str, list[Mutant]]:
    rng = random.Random(args.seed)
    chosen: dict[str, list[Mutant]] = {}
    for module in args.module or DEFAULT_MODULES:
        listed = mutants(module, (ROOT / module).read_text(encoding="utf-8"))
        if args.max and len(listed) > args.max:
            listed = sorted(rng.sample(listed, args.max), key=lambda m: m.line)
        chosen[module] = listed
    return chosen


def _timeout(args: argparse.Namespace, cmap: CoverageMap | None, tests: list[str]) -> float:
    if args.timeout:
        return float(args.timeout)
    if cmap is None:
        return 1800.0
    return 60.0 + 3 * sum(cmap.durations.get(t, 0.0) for t in tests)


def main(argv: list[str] | None = None) -> int:
    """Run the mutants, print each outcome and the scores, and record them in the results file."""
    args = _parser().parse_args(argv)
    chosen = _chosen(args)
    outcomes = load(args.results)
    todo = {m: to_rerun(listed, outcomes) if args.only_survivors else listed for m, listed in chosen.items()}
    if args.resume:  # an interrupted run goes on where it stopped
        todo = {m: [mutant for mutant in listed if mutant.key not in outcomes] for m, listed in todo.items()}
    for module, listed in chosen.items():  # outcomes of mutants that no longer exist are dropped
        keys = {m.key for m in listed}
        outcomes = {k: o for k, o in outcomes.items() if o.module != module or k in keys or args.max}
    meta = {"commit": _git("rev-parse", "--short", "HEAD") + ("+changes" if _git("status", "--porcelain") else "")}
    python = [m for m, listed in todo.items() if listed and not m.endswith(".js")]
    with Workspace(ROOT) as space:
        cmap = None
        if python and not args.all_tests:
            offsets = {m: (str(space.target(m)), space.header_lines(m)) for m in python}
            start = time.perf_counter()
            print(f"## coverage of {' '.join(args.tests or PYTHON_TESTS)}", flush=True)
            cmap = collect(space.path, offsets, args.tests or PYTHON_TESTS, args.pytest_args, space.path)
            print(f"   {len(cmap.durations)} tests, {time.perf_counter() - start:.0f}s", flush=True)
        for module, listed in todo.items():
            is_js = module.endswith(".js")
            paths = args.tests or (NODE_TESTS if is_js else PYTHON_TESTS)
            print(f"## {module}: {len(listed)} of {len(chosen[module])} mutants", flush=True)
            for mutant in listed:
                select = cmap is not None and not is_js
                tests = cmap.select(mutant) if cmap is not None and select else paths
                if not tests:
                    outcome = Outcome(mutant.key, module, mutant.line, mutant.description, NOT_COVERED, 0, 0.0)
                else:
                    run = space.run(
                        mutant, tests, select, args.pytest_args, _timeout(args, cmap if select else None, tests)
                    )
                    count = len(tests) if select else 0
                    outcome = Outcome(
                        mutant.key, module, mutant.line, mutant.description, run.status, count, run.seconds, run.killer
                    )
                outcomes[mutant.key] = outcome
                save(args.results, outcomes, meta)
                print(f"  {_line(outcome)}", flush=True)
    meta["date"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    save(args.results, outcomes, meta)
    _report(chosen, outcomes, meta)
    return 0


def _line(outcome: Outcome) -> str:
    tests = f"{outcome.tests} tests" if outcome.tests else "all tests"
    detail = f": {outcome.detail}" if outcome.detail else ""
    where = f"{outcome.module.rsplit('/', 1)[-1]}:{outcome.line}"
    if outcome.status == NOT_COVERED:
        return f"{'SURVIVED':8} {where}: {outcome.description} (not covered)"
    verdict = outcome.status if outcome.killed else outcome.status.upper()
    return f"{verdict:8} {where}: {outcome.description} ({tests}, {outcome.seconds:.1f}s){detail}"


def _report(chosen: dict[str, list[Mutant]], outcomes: dict[str, Outcome], meta: dict[str, str]) -> None:
    judged = equivalent.keys(equivalent.listed(EQUIVALENT), [m for listed in chosen.values() for m in listed])
    print(f"\n## survivors (commit {meta['commit']}, {meta['date']})")
    for outcome in survivors(chosen, outcomes):
        note = ", judged equivalent" if outcome.key in judged else ""
        print(f"  {outcome.module}:{outcome.line}: {outcome.description} ({outcome.status}{note})")
    print(f"\n## score: killed / mutants run; equivalent survivors ({EQUIVALENT.name}); killed / the others")
    for score in scores(chosen, outcomes, judged):
        note = f"  ({score.missing} not run)" if score.missing else ""
        print(
            f"{score.name:42} {score.killed:4} / {score.total:<4} {score.share:>6}"
            f"  {score.equivalent:3} eq.  {score.share_of_others:>6}{note}"
        )


if __name__ == "__main__":
    sys.exit(main())
