"""Entry point of `python -m tests.mutation` (see the package's docstring)."""

from __future__ import annotations

import argparse
import datetime
import functools
import random
import subprocess
import sys
from pathlib import Path

from . import __doc__ as USAGE
from . import cache, equivalent
from .baseline import Baseline, run_plain
from .coverage_map import CoverageMap, collect
from .execute import Workspace
from .mutants import Mutant, mutants
from .node_coverage import collect_node
from .results import NOT_COVERED, Outcome, Score, load, not_run, save, scores, survivors, to_rerun
from .suite import runtime_modules, runtime_tests

ROOT = Path(__file__).resolve().parent.parent.parent
EQUIVALENT = ROOT / "docs" / "testing.md"  # the survivors judged equivalent, with the reason for each


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tests.mutation", description=USAGE, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--module", action="append", help="a hand-written module (repeat); default: the whole runtime")
    parser.add_argument("--max", type=int, default=30, help="mutants sampled per module, seeded (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, help="seconds per mutant (default: 60 + 3x its tests' baseline time)")
    parser.add_argument("--tests", nargs="*", help="test paths (default: every test file using the runtime)")
    parser.add_argument("--results", type=Path, default=ROOT / ".mutation" / "results.json", help="results file")
    parser.add_argument(
        "--only-survivors",
        action="store_true",
        help="run only the mutants the results file does not record as killed for their current code",
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


@functools.cache
def _mutants(module: str) -> list[Mutant]:
    """Every mutant of `module` as it is now (computed once per run)."""
    return mutants(module, (ROOT / module).read_text(encoding="utf-8"))


def _chosen(args: argparse.Namespace) -> dict[str, list[Mutant]]:
    rng = random.Random(args.seed)
    chosen: dict[str, list[Mutant]] = {}
    for module in args.module or runtime_modules():
        listed = list(_mutants(module))
        if args.max and len(listed) > args.max:
            listed = sorted(rng.sample(listed, args.max), key=lambda m: m.line)
        chosen[module] = listed
    return chosen


def _todo(
    args: argparse.Namespace, chosen: dict[str, list[Mutant]], outcomes: dict[str, Outcome]
) -> dict[str, list[Mutant]]:
    """The mutants to run: all, or (--only-survivors) those not killed for their current code, or
    (--resume) those with no outcome for their current code."""
    todo = {m: to_rerun(listed, outcomes) if args.only_survivors else listed for m, listed in chosen.items()}
    if args.resume:
        todo = {m: not_run(listed, outcomes) for m, listed in todo.items()}
    return todo


def _paths(args: argparse.Namespace, module: str, tree: Path) -> list[str]:
    """The test files for `module`'s mutants, as they are in `tree` (the scratch copy the tests run in:
    a test file added to the checkout during a run is not there)."""
    tests: list[str] = args.tests or runtime_tests(tree, node_only=module.endswith(".js"))
    return tests


class _Plan:
    """The baselines of a run (one per list of test paths) and the coverage maps that choose each
    mutant's tests: coverage.py's for the Python modules, V8's for the JavaScript ones."""

    def __init__(self, args: argparse.Namespace, space: Workspace) -> None:
        self.args = args
        self.space = space
        self.kept = cache.Kept()

    @property
    def cmap(self) -> CoverageMap | None:
        """The Python modules' coverage map, if measured."""
        return self.kept.cmap

    @property
    def baselines(self) -> dict[tuple[str, ...], Baseline]:
        """The baselines, per list of test paths."""
        return self.kept.baselines

    def prepare(self, todo: dict[str, list[Mutant]]) -> None:
        """Run the baselines the mutants to do need: the coverage runs first, then plain runs. A
        resumed run takes those recorded for the same tree instead (cache.py), and records new ones."""
        path = cache.cache_path(self.args.results)
        if self.args.resume or self.args.only_survivors:
            self.kept = cache.load(path, self.space.tree, self.args.pytest_args)
            if self.kept.baselines:
                print(f"## baselines recorded for this tree, from {path}", flush=True)
        self._run_python_coverage(todo)
        self._run_missing(todo)
        cache.save(path, self.space.tree, self.args.pytest_args, self.kept)

    def _run_python_coverage(self, todo: dict[str, list[Mutant]]) -> None:
        python = [m for m, listed in todo.items() if listed and not m.endswith(".js")]
        paths = _paths(self.args, python[0], self.space.path) if python else []
        kept = self.kept
        covered = kept.cmap is not None and set(python) <= set(kept.cmap.lines) and kept.coverage_paths == tuple(paths)
        if python and not self.args.all_tests and not covered:
            offsets = {m: (str(self.space.target(m)), self.space.header_lines(m)) for m in python}
            print(f"## baseline under coverage: {' '.join(paths)}", flush=True)
            kept.cmap, baseline = collect(self.space.path, offsets, paths, self.args.pytest_args, self.space.path)
            kept.coverage_paths = tuple(paths)
            kept.baselines[kept.coverage_paths] = baseline
            print(f"   {baseline.summary()}", flush=True)

    def _run_missing(self, todo: dict[str, list[Mutant]]) -> None:
        """The JavaScript modules' baselines under V8's coverage (a map for every module of the npm
        package that a mutant may be in), the others' plain."""
        scripts = sorted({m for m in [*runtime_modules(), *todo] if m.endswith(".js")})
        for module, listed in todo.items():
            key = tuple(_paths(self.args, module, self.space.path))
            mapped = module.endswith(".js") and not self.args.all_tests
            if not listed or (key in self.baselines and (not mapped or key in self.kept.node_maps)):
                continue
            if mapped:
                print(f"## baseline under Node's coverage: {' '.join(key)}", flush=True)
                self.kept.node_maps[key], self.baselines[key] = collect_node(
                    self.space.path, scripts, list(key), self.args.pytest_args, self.space.env()
                )
            else:
                print(f"## baseline: {' '.join(key)}", flush=True)
                self.baselines[key] = run_plain(self.space.path, self.space.env(), list(key), self.args.pytest_args)
            print(f"   {self.baselines[key].summary()}", flush=True)

    def outcome(self, mutant: Mutant) -> Outcome:
        """Run `mutant` against the tests that can kill it (that passed on the baseline) and say what came of it."""
        paths = tuple(_paths(self.args, mutant.module, self.space.path))
        baseline = self.baselines[paths]
        js = mutant.module.endswith(".js")
        if self.cmap is not None and not js and paths == self.kept.coverage_paths:
            tests = [t for t in self.cmap.select(mutant) if t in baseline.passed]
        elif js and paths in self.kept.node_maps:
            tests = [t for t in self.kept.node_maps[paths].select(mutant) if t in baseline.passed]
        else:
            tests = baseline.fastest_first()
        base = (mutant.key, mutant.module, mutant.line, mutant.description)
        if not tests:
            return Outcome(*base, NOT_COVERED, 0, 0.0, digest=mutant.digest)
        timeout = self.args.timeout or 60.0 + 3 * sum(baseline.durations.get(t, 0.0) for t in tests)
        run = self.space.run(mutant, tests, baseline.passed, self.args.pytest_args, timeout)
        return Outcome(*base, run.status, len(tests), run.seconds, run.killer, mutant.digest)

    def summary(self) -> dict[str, object]:
        """The baselines, for the results file."""
        return {
            " ".join(paths): {"passed": len(b.passed), "failed": len(b.failed), "seconds": round(b.seconds, 1)}
            for paths, b in self.baselines.items()
        }


def main(argv: list[str] | None = None) -> int:
    """Run the baselines and the mutants, print each outcome and the scores, and record them in the results file."""
    args = _parser().parse_args(argv)
    chosen = _chosen(args)
    outcomes = load(args.results)
    todo = _todo(args, chosen, outcomes)
    for module, listed in chosen.items():  # outcomes of mutants that no longer exist are dropped
        keys = {m.key for m in listed}
        outcomes = {k: o for k, o in outcomes.items() if o.module != module or k in keys or args.max}
    meta: dict[str, object] = {
        "commit": _git("rev-parse", "--short", "HEAD") + ("+changes" if _git("status", "--porcelain") else "")
    }
    with Workspace(ROOT) as space:
        plan = _Plan(args, space)
        plan.prepare(todo)
        meta["baselines"] = plan.summary()
        for module, listed in todo.items():
            print(f"## {module}: {len(listed)} of {len(chosen[module])} mutants", flush=True)
            for mutant in listed:
                outcome = outcomes[mutant.key] = plan.outcome(mutant)
                save(args.results, outcomes, meta)
                print(f"  {_line(outcome)}", flush=True)
    meta["date"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    meta["scores"] = [score.to_json() for score in _report(chosen, outcomes, meta)]
    save(args.results, outcomes, meta)
    return 0


def _line(outcome: Outcome) -> str:
    detail = f": {outcome.detail}" if outcome.detail else ""
    where = f"{outcome.module.rsplit('/', 1)[-1]}:{outcome.line}"
    if outcome.status == NOT_COVERED:
        return f"{'SURVIVED':8} {where}: {outcome.description} (not covered)"
    verdict = outcome.status if outcome.killed else outcome.status.upper()
    return f"{verdict:8} {where}: {outcome.description} ({outcome.tests} tests, {outcome.seconds:.1f}s){detail}"


def _report(chosen: dict[str, list[Mutant]], outcomes: dict[str, Outcome], meta: dict[str, object]) -> list[Score]:
    """Print the survivors, the equivalent entries gone stale, and the scores; return the scores."""
    entries = equivalent.listed(EQUIVALENT)
    every = {m: _mutants(m) for m in chosen}
    judged = equivalent.keys(entries, [m for listed in every.values() for m in listed])
    digests = {m.key: m.digest for listed in chosen.values() for m in listed}
    print(f"\n## survivors (commit {meta['commit']}, {meta['date']}); `digest` for {EQUIVALENT.name}")
    for outcome in survivors(chosen, outcomes):
        note = ", judged equivalent" if outcome.key in judged else ""
        where = f"{outcome.module}:{outcome.line}"
        print(f"  {where} `{outcome.description}` `{digests[outcome.key]}` ({outcome.status}{note})")
    for entry in equivalent.stale(entries, [m for listed in every.values() for m in listed], every):
        print(f"  stale entry in {EQUIVALENT.name} (its code changed; judge again): {entry}")
    for outcome in (o for o in outcomes.values() if o.killed and o.key in judged and o.digest == digests.get(o.key)):
        print(f"  listed as equivalent but killed by {outcome.detail}: {outcome.module}:{outcome.line}")
    found = scores(chosen, outcomes, judged)
    print("\n## score by behaviour: killed / (mutants - equivalent - timeouts)")
    print(f"{'module':34} {'mutants':>7} {'killed':>6} {'timeout':>7} {'equiv.':>6} {'survived':>8} {'score':>7}")
    for s in found:
        note = f"  ({s.missing} not run)" if s.missing else ""
        print(
            f"{s.name:34} {s.mutants:7} {s.killed:6} {s.timeouts:7} {s.equivalent:6} {s.survived:8}"
            f" {s.by_behaviour:>7}{note}"
        )
    return found


if __name__ == "__main__":
    sys.exit(main())
