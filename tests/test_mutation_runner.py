"""The mutation runner's own pieces (tests/mutation): the mutants, the choice of tests, the baseline,
the scores, the equivalent mutants and what a default run covers."""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import subprocess
import textwrap
from pathlib import Path

import pytest

from codegen.layout import is_generated
from tests.mutation import cache, equivalent
from tests.mutation.baseline import Baseline, run_plain
from tests.mutation.coverage_map import CoverageMap, collect, from_contexts
from tests.mutation.execute import Workspace, run_pytest
from tests.mutation.mutants import Mutant, js_mutants, mutants, python_mutants
from tests.mutation.node_coverage import LineIndex, collect_node, counted_spans
from tests.mutation.results import Outcome, group, load, not_run, save, scores, survivors, to_rerun
from tests.mutation.suite import LEFT_OUT, NOT_RUNTIME, runtime_modules, runtime_tests, suite_files

ROOT = Path(__file__).resolve().parent.parent

SOURCE = textwrap.dedent(
    '''\
    """Docstring [a]+ not mutated."""
    import re
    from typing import overload

    LIMIT = 3  # a module constant: evaluated at import
    PATTERN = re.compile(r"[a-z]+")


    def below(x: int, cap: int = 10) -> bool:
        """Docstring."""
        return x < LIMIT and (
            not x == cap
        )


    class Box:
        size: int = 2

        @overload
        def full(self, n: int, strict: bool = True) -> bool: ...

        def full(self, n: int) -> bool:
            return n >= self.size  # a comment kept
    '''
)


def _by(mutants: list[Mutant], description: str) -> Mutant:
    (found,) = [m for m in mutants if m.description == description]
    return found


def test_python_mutants_one_change_each_at_its_line() -> None:
    found = list(python_mutants("m.py", SOURCE))
    assert [(m.line, m.description) for m in found] == [
        (5, "3 -> 4"),
        (6, "regex quantifier '+' -> '*'"),
        (9, "10 -> 11"),
        (11, "And -> Or"),
        (11, "Lt -> LtE"),
        (12, "not dropped"),
        (12, "Eq -> NotEq"),
        (17, "2 -> 3"),
        (23, "GtE -> Gt"),
    ]  # docstrings, annotations and @overload stubs are never mutated
    original = SOURCE.splitlines()
    for mutant in found:
        changed = [n for n, (a, b) in enumerate(zip(original, mutant.source.splitlines(), strict=True), 1) if a != b]
        assert changed[0] == mutant.line, mutant
        assert "# a comment kept" in mutant.source
    assert len({m.key for m in found}) == len(found)


def test_python_mutants_change_behaviour() -> None:
    """Each mutated module, run, behaves as its description says."""
    found = list(python_mutants("m.py", SOURCE))

    def run(mutant: Mutant | None) -> dict[str, object]:
        space: dict[str, object] = {}
        exec(SOURCE if mutant is None else mutant.source, space)
        return space

    base = run(None)
    assert base["LIMIT"] == 3 and base["below"](2) is True and base["below"](3) is False  # type: ignore[operator]
    assert run(_by(found, "3 -> 4"))["LIMIT"] == 4
    assert run(_by(found, "Lt -> LtE"))["below"](3) is True  # type: ignore[operator]
    assert run(_by(found, "And -> Or"))["below"](5) is True  # type: ignore[operator]
    assert not run(_by(found, "not dropped"))["below"](1)  # type: ignore[operator]
    assert not run(_by(found, "Eq -> NotEq"))["below"](1)  # type: ignore[operator]
    assert run(_by(found, "10 -> 11"))["below"](2, 2) is False  # type: ignore[operator]
    assert run(_by(found, "regex quantifier '+' -> '*'"))["PATTERN"].pattern == "[a-z]*"  # type: ignore[attr-defined]
    box = run(_by(found, "GtE -> Gt"))["Box"]
    assert box().full(2) is False  # type: ignore[operator]


def test_mutants_know_what_runs_at_import_and_which_lines_run_them() -> None:
    found = list(python_mutants("m.py", SOURCE))
    at_import = {m.description for m in found if m.at_import}
    assert at_import == {"3 -> 4", "regex quantifier '+' -> '*'", "2 -> 3"}  # constants, class body
    # Part of a statement spanning lines 11-13: its first line counts too.
    assert _by(found, "Eq -> NotEq").lines == (11, 12)
    assert _by(found, "Lt -> LtE").lines == (11,)
    # A default is seen by the calls that run the function's body.
    assert _by(found, "10 -> 11").lines == (10, 11, 12, 13)


def test_cached_functions_and_what_they_call_count_as_run_at_import() -> None:
    """Their lines run in the first test only, while every later test uses their result."""
    source = textwrap.dedent(
        """\
        from functools import cache

        @cache
        def table():
            return helper(1)

        def helper(x):
            return x < 2

        def plain(x):
            return x > 3
        """
    )
    found = {m.description: m.at_import for m in python_mutants("m.py", source)}
    assert found == {"1 -> 2": True, "Lt -> LtE": True, "2 -> 3": True, "Gt -> GtE": False, "3 -> 4": False}


def test_keys_change_only_with_the_code_around_the_mutant() -> None:
    before = {m.description: m.key for m in python_mutants("m.py", SOURCE)}
    edited = SOURCE.replace("return n >= self.size", "return n >= self.size + 0")
    after = {m.description: m.key for m in python_mutants("m.py", edited)}
    assert before["GtE -> Gt"] != after["GtE -> Gt"]
    assert all(before[d] == after[d] for d in before if d != "GtE -> Gt")
    assert after["0 -> 1"] not in before.values()


def test_js_mutants_skip_comments_and_strings() -> None:
    source = '// a < b in a comment\nconst s = "x < 1";\nif (a === b && c < 2) { n += 1; }\n'
    found = list(js_mutants("index.js", source))
    assert [(m.line, m.description) for m in found] == [
        (3, "'===' -> '!=='"),
        (3, "'<' -> '<='"),
        (3, "'&&' -> '||'"),
        (3, "'2' -> '3'"),
        (3, "'1' -> '2'"),
    ]
    assert found[0].source.splitlines()[2] == "if (a !== b && c < 2) { n += 1; }"
    assert len({m.key for m in found}) == len(found)


def _mutant(line: int, at_import: bool = False, key: str = "k", module: str = "m.py") -> Mutant:
    return Mutant(module, line, (line,), at_import, "Lt -> LtE", key, "")


def test_coverage_map_from_contexts_and_the_tests_chosen() -> None:
    contexts = {
        "/copy/m.py": {1: ["u::imports"], 2: ["", "t::slow", "t::fast"], 3: ["t::slow"], 5: ["t::other", "gone"]},
        "/copy/n.py": {4: ["u::n"]},
    }
    durations = {"t::slow": 2.0, "t::fast": 0.1, "t::other": 1.0, "u::imports": 0.5, "u::n": 0.1, "t::constant": 0.2}
    cmap = from_contexts(contexts, {"m.py": ("/copy/m.py", 1)}, durations)
    # Line 1 of the copy is its header; "" (collection) and unknown contexts name no test.
    assert cmap.lines["m.py"] == {1: {"t::slow", "t::fast"}, 2: {"t::slow"}, 4: {"t::other"}}
    assert cmap.select(_mutant(1)) == ["t::fast", "t::slow"]  # fastest first
    assert cmap.select(_mutant(2)) == ["t::slow"]
    assert cmap.select(_mutant(3)) == []  # not covered
    # Evaluated at import: every test of the files whose tests run the module, including a test
    # that only reads a module constant (coverage gives the import, at collection, to no test).
    assert cmap.select(_mutant(3, at_import=True)) == ["t::fast", "t::constant", "t::other", "t::slow"]
    assert CoverageMap.from_json(cmap.to_json()) == cmap


def _outcome(key: str, status: str, module: str = "chatschema/validate/a.py", digest: str = "") -> Outcome:
    return Outcome(key, module, 1, "Lt -> LtE", status, 1, 0.1, digest=digest)


def test_scores_per_module_and_package_and_the_survivors(tmp_path: Path) -> None:
    a, b, c = "chatschema/validate/a.py", "chatschema/validate/b.py", "chatschema/jsontext.py"
    listed = {
        a: [_mutant(n, key=f"a{n}", module=a) for n in (1, 2, 3, 4)],
        b: [_mutant(1, key="b1", module=b)],
        c: [_mutant(1, key="c1", module=c), _mutant(2, key="c2", module=c)],
    }
    outcomes = {
        "a1": _outcome("a1", "killed", a),
        "a2": _outcome("a2", "timeout", a),  # hung: apart, not a kill
        "a3": _outcome("a3", "not covered", a),
        "a4": _outcome("a4", "survived", a),
        "b1": _outcome("b1", "survived", b),
        "c1": _outcome("c1", "killed", c),
    }
    found = {
        s.name: (s.mutants, s.killed, s.timeouts, s.equivalent, s.survived, s.missing, s.by_behaviour)
        for s in scores(listed, outcomes, {"b1", "a2"})
    }
    assert found == {
        a: (4, 1, 1, 0, 2, 0, "33.3%"),  # a2 listed as equivalent but timed out: a time-out
        b: (1, 0, 0, 1, 0, 0, "-"),  # b1 judged equivalent
        c: (1, 1, 0, 0, 0, 1, "100.0%"),  # c2 not run (sampled out)
        "validate/": (5, 1, 1, 1, 2, 0, "33.3%"),
    }
    assert [o.key for o in survivors(listed, outcomes)] == ["a2", "a3", "a4", "b1"]
    assert group("chatschema/schemas/__init__.py") == "schemas/"
    assert group("npm/esm/index.js") == "npm/esm/index.js"
    path = tmp_path / "results.json"
    save(path, outcomes, {"commit": "abc"})
    assert load(path) == outcomes
    again = [m.key for m in to_rerun([m for ms in listed.values() for m in ms], load(path))]
    assert again == ["a2", "a3", "a4", "b1", "c2"]  # time-outs, survivors, not covered, never run


def test_a_timeout_is_not_a_kill() -> None:
    assert not _outcome("t", "timeout").killed and _outcome("k", "killed").killed
    m = "chatschema/x.py"
    listed = {m: [_mutant(1, key="t", module=m), _mutant(2, key="k", module=m), _mutant(3, key="s", module=m)]}
    outcomes = {"t": _outcome("t", "timeout", m), "k": _outcome("k", "killed", m), "s": _outcome("s", "survived", m)}
    (score,) = scores(listed, outcomes, set())
    assert (score.killed, score.timeouts, score.survived, score.by_behaviour) == (1, 1, 1, "50.0%")
    assert score.to_json()["by_behaviour"] == "50.0%"


TOY = """\
def inside(x):
    return x + 1


def outside(x):
    return x - 1
"""
TOY_TESTS = """\
import subprocess
import sys
import time

import toy


def test_in_process():
    assert toy.inside(1) == 2


def test_in_a_subprocess():
    code = "import toy; assert toy.outside(1) == 0"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_slow_failure():
    time.sleep(0.2)
    assert toy.inside(0) == 0


def test_fast_failure():
    assert toy.inside(0) == 0


def test_hangs():
    time.sleep(60)
"""


def test_coverage_per_test_including_subprocesses_and_selected_runs(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    (package / "toy.py").write_text(TOY)
    tests = tmp_path / "test_toy.py"
    tests.write_text(TOY_TESTS)
    passing = [f"{tests}::test_in_process", f"{tests}::test_in_a_subprocess"]
    cmap, baseline = collect(package, {"toy.py": (str(package / "toy.py"), 0)}, passing, [], ROOT)
    assert {t.rsplit("::", 1)[1] for t in baseline.passed} == {"test_in_process", "test_in_a_subprocess"}
    node = "test_toy.py::"
    assert {n: {t.rsplit("::", 1)[1] for t in ts} for n, ts in cmap.lines["toy.py"].items()} == {
        2: {"test_in_process"},  # (imported in this process at collection: no test's line)
        1: {"test_in_a_subprocess"},  # measured in the test's child process, import included
        5: {"test_in_a_subprocess"},
        6: {"test_in_a_subprocess"},
    }
    # node ids, relative to the rootdir pytest picks (`tmpXXXX/test_toy.py::...` when the checkout is under /tmp too)
    assert all(t.split("::")[0].endswith("test_toy.py") for ts in cmap.lines["toy.py"].values() for t in ts)

    env = {"PYTHONPATH": os.pathsep.join([str(package), str(ROOT)])}  # ROOT: the plugin
    first = [f"{node}test_slow_failure", f"{node}test_fast_failure"]
    run = run_pytest(tmp_path, env, first, True, [], 30)
    assert (run.status, run.killer) == ("killed", f"{node}test_slow_failure")  # the order given, -x
    run = run_pytest(tmp_path, env, first[::-1], True, [], 30)
    assert (run.status, run.killer) == ("killed", f"{node}test_fast_failure")
    assert run_pytest(tmp_path, env, [f"{node}test_in_process"], True, [], 30).status == "survived"
    hung = run_pytest(tmp_path, env, [f"{node}test_hangs"], True, [], 2)
    assert (hung.status, hung.killer) == ("timeout", "no result after 2s")  # not "killed"
    # A selected test that is gone (its parameter changed): every test of its file runs.
    run = run_pytest(tmp_path, env, [f"{node}test_in_process", f"{node}test_gone"], True, [], 30)
    assert (run.status, run.killer) == ("killed", f"{node}test_slow_failure")


def test_v8_ranges_count_innermost_and_lines_are_found_by_their_code_in_utf16_units() -> None:
    functions = [
        {"ranges": [{"startOffset": 0, "endOffset": 100, "count": 1}]},
        {
            "ranges": [
                {"startOffset": 10, "endOffset": 50, "count": 2},
                {"startOffset": 20, "endOffset": 30, "count": 0},
            ]
        },
        {"ranges": [{"startOffset": 60, "endOffset": 70, "count": 0}]},
    ]
    assert counted_spans(functions) == [(0, 10), (10, 20), (30, 50), (50, 60), (70, 100)]
    index = LineIndex("ab\n  cd  \n\n\U0001f600x\ny")  # the emoji is two UTF-16 units
    assert index.lines([(13, 14)]) == {4}  # the `x` after it
    assert index.lines([(3, 5)]) == set()  # only the second line's leading spaces
    assert index.lines([(7, 11)]) == set()  # its trailing spaces, the newline, the empty line
    assert index.lines([(0, 16)]) == {1, 2, 4, 5}


TOY_JS = """\
export function inside(x) {
  if (x > 100) {
    return 0;
  }
  return x + 1;
}

export function outside(x) {
  return x - 1;
}
"""
TOY_JS_TESTS = """\
import json
import os
import subprocess
from pathlib import Path

TOY = (Path(__file__).parent / "package" / "toy.mjs").as_uri()


def node(code, env=None):
    script = f"import * as toy from {json.dumps(TOY)}; {code}"
    subprocess.run(["node", "--input-type=module", "-e", script], check=True, env=env)


def test_inside():
    node("if (toy.inside(1) !== 2) process.exit(1);")


def test_no_node():
    assert TOY


def test_own_environment():
    node("if (toy.outside(1) !== 0) process.exit(1);", env={"PATH": os.environ["PATH"]})
"""
TOY_JS_SHARED = """\
import json
import subprocess
from functools import cache
from pathlib import Path

TOY = (Path(__file__).parent / "package" / "toy.mjs").as_uri()


@cache
def shared():
    script = f"import * as toy from {json.dumps(TOY)}; console.log(toy.inside(1))"
    return subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True).stdout


def test_starts_it():
    assert shared() == "2\\n"


def test_reads_it_and_runs_its_own():
    assert shared() == "2\\n"
    script = f"import * as toy from {json.dumps(TOY)}; if (toy.outside(1) !== 0) process.exit(1);"
    subprocess.run(["node", "--input-type=module", "-e", script], check=True)
"""


def test_node_coverage_per_test_and_the_tests_it_cannot_see(tmp_path: Path) -> None:
    """Each test's Node processes are measured apart: a mutant runs the tests that ran its line, and
    those that loaded the module in no measured process (none, or with an environment of their own)."""
    package = tmp_path / "package"
    package.mkdir()
    (package / "toy.mjs").write_text(TOY_JS)
    (tmp_path / "test_toy_js.py").write_text(TOY_JS_TESTS)
    env = {"PYTHONPATH": str(ROOT)}  # the plugin
    cmap, baseline = collect_node(tmp_path, ["package/toy.mjs"], ["test_toy_js.py"], [], env)
    assert len(baseline.passed) == 3
    name = {t: t.rsplit("::", 1)[1] for t in baseline.passed}
    lines = {n: {name[t] for t in ts} for n, ts in cmap.lines["package/toy.mjs"].items()}
    assert lines[2] == lines[5] == {"test_inside"}
    assert 3 not in lines and 9 not in lines  # a block and a function that never ran
    assert {name[t] for t in cmap.always["package/toy.mjs"]} == {"test_no_node", "test_own_environment"}
    js = next(m for m in js_mutants("package/toy.mjs", TOY_JS) if m.line == 9)
    assert {name[t] for t in cmap.select(js)} == {"test_no_node", "test_own_environment"}
    js = next(m for m in js_mutants("package/toy.mjs", TOY_JS) if m.line == 5)
    assert {name[t] for t in cmap.select(js)} == {"test_inside", "test_no_node", "test_own_environment"}


def test_node_coverage_of_a_process_shared_by_a_file_s_tests(tmp_path: Path) -> None:
    """A process one test starts and another reads (a cached fixture) is measured as the first one's;
    the second, measured through a process of its own, is a candidate for what the shared one ran
    too, as every measured test of a file is for a line one of them ran."""
    package = tmp_path / "package"
    package.mkdir()
    (package / "toy.mjs").write_text(TOY_JS)
    (tmp_path / "test_toy_shared.py").write_text(TOY_JS_SHARED)
    cmap, baseline = collect_node(tmp_path, ["package/toy.mjs"], ["test_toy_shared.py"], [], {"PYTHONPATH": str(ROOT)})
    name = {t: t.rsplit("::", 1)[1] for t in baseline.passed}
    lines = {n: {name[t] for t in ts} for n, ts in cmap.lines["package/toy.mjs"].items()}
    assert lines[5] == {"test_starts_it", "test_reads_it_and_runs_its_own"}  # only the first one's process ran it
    assert 3 not in lines  # a line no test of the file ran


def _toy_tests(tmp_path: Path) -> tuple[Path, dict[str, str], str]:
    package = tmp_path / "package"
    package.mkdir()
    (package / "toy.py").write_text(TOY)
    (tmp_path / "test_toy.py").write_text(TOY_TESTS)
    return package, {"PYTHONPATH": os.pathsep.join([str(package), str(ROOT)])}, "test_toy.py::"


def test_no_run_leaves_hypothesis_s_folder_behind_not_even_one_ended_by_its_time_out(tmp_path: Path) -> None:
    """One folder per run (thousands in a full run) used to stay in the temporary folder."""
    _, env, node = _toy_tests(tmp_path)
    runs_tmp = tmp_path / "tmp"  # the temporary folder of the runs' pytest processes
    runs_tmp.mkdir()
    env = {**env, "TMPDIR": str(runs_tmp)}
    assert run_pytest(tmp_path, env, [f"{node}test_in_process"], True, [], 30).status == "survived"
    assert run_pytest(tmp_path, env, [f"{node}test_hangs"], True, [], 2).status == "timeout"
    baseline = run_plain(tmp_path, env, [f"{node}test_in_process"], [])  # a run of no mutant
    assert len(baseline.passed) == 1
    assert list(runs_tmp.iterdir()) == []


def test_a_test_failing_on_the_baseline_too_kills_nothing(tmp_path: Path) -> None:
    _, env, node = _toy_tests(tmp_path)
    fails, passes = f"{node}test_fast_failure", f"{node}test_in_process"
    # The baseline: test_fast_failure fails without any mutant, so its failure is no kill.
    run = run_pytest(tmp_path, env, [fails, passes], True, [], 30, baseline={passes})
    assert run.status == "survived" and fails in run.killer, run
    # Had it passed on the baseline, it would be the killer.
    run = run_pytest(tmp_path, env, [fails, passes], True, [], 30, baseline={passes, fails})
    assert (run.status, run.killer) == ("killed", fails)


def test_a_failing_baseline_stops_the_run_naming_its_tests(tmp_path: Path) -> None:
    package, _, _ = _toy_tests(tmp_path)
    tests = [f"{tmp_path / 'test_toy.py'}::test_in_process", f"{tmp_path / 'test_toy.py'}::test_fast_failure"]
    with pytest.raises(SystemExit, match=r"1 tests fail without any mutant \(baseline\):\n  .*test_fast_failure$"):
        collect(package, {"toy.py": (str(package / "toy.py"), 0)}, tests, [], ROOT)


def _entry(mutant: Mutant, reason: str = "no input tells them apart") -> str:
    return f"- `{mutant.module}:{mutant.line}` `{mutant.description}` `{mutant.digest}`: {reason}"


def test_equivalent_entries_are_parsed_and_need_a_digest_and_a_reason() -> None:
    text = "Text.\n\n- `jsontext.py:57` `Lt -> LtE` `0123abcd`: within 64 bits\n- not an entry\n"
    (entry,) = equivalent.parse(text)
    assert entry == equivalent.Equivalent("chatschema/jsontext.py", 57, "Lt -> LtE", "0123abcd", "within 64 bits")
    for bad in (
        "- `jsontext.py:57` `Lt -> LtE`: no digest",
        "- `jsontext.py:57` `Lt -> LtE` `0123abcd`:",
        "- `a.py:1` `x`",
    ):
        with pytest.raises(ValueError, match="needs `module:line` `change` `digest`: reason"):
            equivalent.parse(bad)


def test_an_equivalent_survives_a_shift_above_it_and_goes_stale_when_its_code_changes() -> None:
    found = mutants("chatschema/m.py", SOURCE)
    judged = _by(found, "Lt -> LtE")
    entries = equivalent.parse(_entry(judged))
    assert equivalent.keys(entries, found) == {judged.key}
    shifted = mutants("chatschema/m.py", SOURCE.replace("import re\n", "import re\nimport os\n\n\n"))
    assert _by(shifted, "Lt -> LtE").line == judged.line + 3
    assert equivalent.keys(entries, shifted) == {_by(shifted, "Lt -> LtE").key}
    assert equivalent.stale(entries, shifted, ["chatschema/m.py"]) == []
    edited = mutants("chatschema/m.py", SOURCE.replace("not x == cap", "not x == cap + 1"))
    assert equivalent.keys(entries, edited) == set()
    assert equivalent.stale(entries, edited, ["chatschema/m.py"]) == entries  # named with its module and old line
    # Another mutant's code edited (a class below): the entry still holds.
    other = mutants("chatschema/m.py", SOURCE.replace("n >= self.size", "n >= self.size * 1"))
    assert equivalent.keys(entries, other) == {_by(other, "Lt -> LtE").key}


def test_digests_are_unique_per_module_even_for_identical_lines() -> None:
    source = "if (a < 1) { x = 1; }\nfoo();\nif (a < 1) { x = 1; }\nfoo();\nif (a < 1) { x = 1; }\n"
    found = mutants("npm/esm/x.js", source)
    assert len({m.digest for m in found}) == len(found)
    assert all(re.fullmatch(r"[0-9a-f]{8}", m.digest) for m in found)


def test_only_survivors_reruns_a_killed_mutant_whose_code_changed() -> None:
    source = SOURCE
    before = mutants("chatschema/m.py", source)
    killed = {m.key: dataclasses.replace(_outcome(m.key, "killed"), digest=m.digest) for m in before}
    assert to_rerun(before, killed) == [] and not_run(before, killed) == []
    edited = source.replace("return n >= self.size", "return n >= self.size + 0")
    after = mutants("chatschema/m.py", edited)
    assert {m.description for m in to_rerun(after, killed)} == {"GtE -> Gt", "0 -> 1"}
    # A kill recorded under the same key for other code (another digest) is not inherited either.
    (moved,) = [m for m in before if m.description == "Lt -> LtE"]
    older = {**killed, moved.key: dataclasses.replace(killed[moved.key], digest="0000beef")}
    assert to_rerun(before, older) == [moved] and not_run(before, older) == [moved]


def test_every_equivalent_listed_in_the_docs_names_a_mutant_of_the_current_code() -> None:
    """An edit of a listed mutant's code makes its entry stale: it must be judged again (and its digest updated)."""
    entries = equivalent.listed(ROOT / "docs" / "testing.md")
    assert entries
    modules = sorted({e.module for e in entries})
    found = [m for module in modules for m in mutants(module, (ROOT / module).read_text(encoding="utf-8"))]
    stale = equivalent.stale(entries, found, modules)
    assert not stale, "docs/testing.md: stale equivalent entries (their code changed): " + "; ".join(map(str, stale))
    assert len({(e.module, e.digest) for e in entries}) == len(entries), "an entry listed twice"


def _imports_runtime(text: str) -> bool:
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "chatschema" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "chatschema":
            return True
    runs = r"import_module\(\s*[\"']chatschema|-m chatschema|\"-m\", \"chatschema\"|^from tests(\.node|\.ts_project) import"
    return re.search(runs, text, re.MULTILINE) is not None


def test_a_default_run_covers_every_runtime_module_and_every_test_file_using_it() -> None:
    """A new hand-written module, or a new test file using the runtime, is in the default run (or fails here)."""
    modules = set(runtime_modules())
    for path in sorted((ROOT / "chatschema").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if "__pycache__" not in rel and not is_generated(rel, path.read_bytes()):
            assert rel in modules, f"{rel}: a hand-written module the mutation runner does not mutate"
    assert {"npm/esm/core.js", "npm/esm/stream.js"} <= modules
    tests = set(runtime_tests(ROOT))
    assert "tests/test_dask.py" in tests
    for rel in suite_files(ROOT):
        if rel not in tests:
            assert rel in NOT_RUNTIME or rel in LEFT_OUT, f"{rel}: neither run by the mutation runner nor excluded"
    for rel, reason in [*NOT_RUNTIME.items(), *LEFT_OUT.items()]:
        assert (ROOT / rel).is_file() and reason, f"tests/mutation/suite.py: {rel} excluded but gone"
    # Every test file that starts Node on the npm package runs the ES modules' mutants.
    node = set(runtime_tests(ROOT, node_only=True))
    for rel in tests:
        text = (ROOT / rel).read_text(encoding="utf-8")
        if re.search(r"^from tests(\.node|\.ts_project) import", text, re.MULTILINE):
            assert rel in node, rel
    # also through a helper module of tests/ (the stream differential, the JSON Schema suite's judges),
    # but not by borrowing another test file's fixtures
    assert {"tests/test_stream_differential.py", "tests/json_schema_suite/test_json_schema_suite.py"} <= node
    assert "tests/test_letta_stream_accounting.py" in tests and "tests/test_letta_stream_accounting.py" not in node


def _installed_by(session: str) -> set[str]:
    """The arguments of every `session.install(...)` in one nox session (noxfile.py), as source text."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    [function] = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == session]
    return {
        ast.unparse(arg)
        for call in ast.walk(function)
        if isinstance(call, ast.Call) and ast.unparse(call.func) == "session.install"
        for arg in call.args
    }


def test_the_mutation_session_installs_what_the_suite_needs() -> None:
    """A default run's baseline runs the suite's test files, some of which import the real systems."""
    assert _installed_by("tests") <= _installed_by("mutation")


def test_excluded_test_files_run_no_runtime_code_but_the_generators() -> None:
    """A file excluded as generator-only that starts using the runtime fails here (move it, or give the reason)."""
    # These read the package's files, import generated modules to compare, lint the package, or name the helpers.
    reads = {"tests/test_codegen.py", "tests/test_layout.py", "tests/test_docs.py", "tests/test_static.py"}
    reads.add("tests/test_mutation_runner.py")
    for rel in NOT_RUNTIME:
        if rel not in reads:
            assert not _imports_runtime((ROOT / rel).read_text(encoding="utf-8")), rel


def _tiny_repository(tmp_path: Path) -> Path:
    root = tmp_path / "repository"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "m.py").write_text("X = 1\n")
    for command in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", "-C", str(root), *command], check=True)
    return root


def test_the_tree_key_changes_with_the_files_the_tests_run_on(tmp_path: Path) -> None:
    root = _tiny_repository(tmp_path)
    with Workspace(root) as first, Workspace(root) as second:
        assert first.tree == second.tree
    (root / "pkg" / "m.py").write_text("X = 2\n")
    with Workspace(root) as edited:
        assert edited.tree != first.tree


def test_baselines_are_kept_for_the_same_tree_and_arguments_only(tmp_path: Path) -> None:
    kept = cache.cache_path(tmp_path / "results.json")
    assert kept == tmp_path / "results.baselines.json"
    baseline = Baseline({"t.py::a": "passed", "t.py::b": "skipped"}, {"t.py::a": 0.5}, 3.0)
    cmap = CoverageMap({"pkg/m.py": {1: {"t.py::a"}}}, {"t.py::a": 0.5})
    node = CoverageMap({"npm/esm/m.js": {3: {"n.py::a"}}}, {"n.py::a": 0.5}, {"npm/esm/m.js": {"n.py::b"}})
    recorded = cache.Kept({("t.py",): baseline}, cmap, ("t.py",), {("n.py",): node})
    cache.save(kept, "tree-1", ["-q"], recorded)
    assert cache.load(kept, "tree-1", ["-q"]) == recorded
    assert cache.load(kept, "tree-2", ["-q"]) == cache.Kept()  # another tree
    assert cache.load(kept, "tree-1", []) == cache.Kept()  # other pytest arguments
    assert cache.load(tmp_path / "none.json", "tree-1", ["-q"]) == cache.Kept()


def test_a_resumed_run_reuses_the_baselines_of_its_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.mutation import __main__ as runner

    root = _tiny_repository(tmp_path)
    results = tmp_path / "results.json"
    args = runner._parser().parse_args(["--resume", "--results", str(results), "--tests", "t.py"])
    ran: list[str] = []
    cmap = CoverageMap({"pkg/m.py": {1: {"t.py::a"}}}, {"t.py::a": 0.5})
    baseline = Baseline({"t.py::a": "passed"}, {"t.py::a": 0.5}, 3.0)

    def fake_collect(*_: object) -> tuple[CoverageMap, Baseline]:
        ran.append("coverage")
        return cmap, baseline

    monkeypatch.setattr(runner, "collect", fake_collect)
    todo = {"pkg/m.py": mutants("pkg/m.py", "X = 1\n")}
    with Workspace(root) as space:
        runner._Plan(args, space).prepare(todo)  # nothing kept yet: the coverage run, then recorded
        assert ran == ["coverage"]
        plan = runner._Plan(args, space)
        plan.prepare(todo)
        assert ran == ["coverage"] and plan.cmap == cmap and plan.baselines == {("t.py",): baseline}
        other = {"pkg/other.py": mutants("pkg/other.py", "Y = 1\n")}
        runner._Plan(args, space).prepare(other)  # a module the kept map does not cover: measured again
        assert ran == ["coverage", "coverage"]


def test_class_creation_hooks_and_what_they_call_count_as_run_at_import() -> None:
    """`__init_subclass__` runs when a subclass is defined: in another module's import, which no
    test's coverage holds; so do the functions it calls. Other methods run when called."""
    source = textwrap.dedent(
        """\
        class Base:
            def __init_subclass__(cls, **kwargs):
                cls.flag = label(1)

            def method(self):
                return 5

        def label(x):
            return x < 2
        """
    )
    found = {m.description: m.at_import for m in python_mutants("m.py", source)}
    assert found == {"1 -> 2": True, "Lt -> LtE": True, "2 -> 3": True, "5 -> 6": False}
