"""Mutation testing (`nox -s mutation`): how many plausible bugs in the hand-written runtime do the tests catch?

    python -m tests.mutation [--module chatschema/jsontext.py ...] [--max 30] [--seed 1]
                             [--only-survivors] [--resume] [--results FILE] [--all-tests] [--timeout S]
                             [--tests PATH ...] [-- PYTEST ARGS]

Each mutant is one small change to one hand-written module (mutants.py: a comparison flipped,
`and`/`or` swapped, a `not` dropped, an integer moved by one, `True`/`False` swapped, `is`/`in`
negated, a regex quantifier changed; in JavaScript, `===`/`!==`, `<`/`<=`, `&&`/`||` and numbers),
written into a scratch copy of the repository, where the tests run (with PYTHONPATH and
CHATSCHEMA_TS_PACKAGE pointing into it, for the processes they start).

Baseline (baseline.py): before any mutant the selected tests run on the unmutated copy; a failing
test there stops the run, naming it. A mutant is killed only when a test that passed on the
baseline fails with it. A mutant whose tests do not finish within the time limit is a "timeout":
an outcome of its own, never a kill.

Python modules: the baseline runs under coverage.py with every test's node id as the context,
Python processes they start included (coverage_map.py); then each mutant runs only the tests that
run its line (a mutant evaluated at import: every test that runs the module), fastest first,
stopping at the first failure. A mutant no test reaches is a survivor, "not covered", without a
run. JavaScript modules (the npm package's ES modules): the baseline runs with each test's Node
processes writing V8's block coverage to a folder of the test's own (node_coverage.py); a mutant
runs the measured tests of each file one of whose tests ran its line, and those that loaded the
module in no measured process (a bundle, a browser, an environment of their own), fastest first.

By default every hand-written module of both packages is mutated, with every test file that uses
the runtime (suite.py). `--max N` samples N mutants per module (seeded; 0: all). Each outcome is
written to the results file (`.mutation/results.json`) with the mutant's digest (a hash of its
mutated function or lines) as it comes; an outcome counts only while that digest is unchanged.
`--only-survivors` re-runs every mutant the file does not record as killed for its current code;
`--resume` only those it has no outcome for (an interrupted run goes on); both reuse the baselines
kept for the same tree (cache.py). `--all-tests` runs every
test for every mutant (no coverage map: slow, to confirm a survivor). `--timeout` fixes the time
limit per mutant (default: 60 s plus three times its tests' baseline time). The score by behaviour,
killed / (mutants - equivalent - timeouts), is printed per module and per package (`validate/`)
with the time-outs, and the survivors with their lines, changes and digests; equivalent.py reads
the survivors judged equivalent.
mutmut was not used: it rewrites modules in place under `mutants/` and runs the tests against its
own import path, while the tests here also start the package as a command and load the npm package.
"""
