"""Mutation testing (`nox -s mutation`): how many plausible bugs in the hand-written runtime do the tests catch?

    python -m tests.mutation [--module chatschema/jsontext.py ...] [--max 30] [--seed 1]
                             [--only-survivors] [--resume] [--results FILE] [--all-tests] [--timeout S]
                             [--tests PATH ...] [-- PYTEST ARGS]

Each mutant is one small change to one hand-written module (mutants.py: a comparison flipped,
`and`/`or` swapped, a `not` dropped, an integer moved by one, `True`/`False` swapped, `is`/`in`
negated, a regex quantifier changed; in JavaScript, `===`/`!==`, `<`/`<=`, `&&`/`||` and numbers),
written into a scratch copy of the repository, where the tests run (with PYTHONPATH and
CHATSCHEMA_TS_PACKAGE pointing into it, for the processes they start). A mutant is
killed if a test fails, or if the tests do not finish within the time limit (reported "timeout").

Python modules: the tests first run once under coverage.py with every test's node id as the
context, Python processes they start included (coverage_map.py); then each mutant runs only the
tests that run its line (a mutant evaluated at import: every test that runs the module), fastest
first, stopping at the first failure. A mutant no test reaches is a survivor, "not covered",
without a run. JavaScript has no coverage map: its mutants run every test in the list.

`--max N` samples N mutants per module (seeded; 0: all). Each outcome is written to the results
file (`.mutation/results.json`) as it comes; `--only-survivors` re-runs only the mutants that file
does not record as killed: its survivors, and mutants of code that changed since (a mutant's key
holds a digest of the function around it); `--resume` only those it has no outcome for (an
interrupted run goes on). `--all-tests` runs every test for every mutant (no
coverage map: slow, to confirm a survivor). `--timeout` fixes the time limit per mutant (default:
60 s plus three times its tests' measured time). The score is printed per module and per package
(`validate/`), with the survivors' lines and changes.
mutmut was not used: it rewrites modules in place under `mutants/` and runs the tests against its
own import path, while the tests here also start the package as a command and load the npm package.
"""
