"""The mutation runner's own pieces (tests/mutation): the mutants, the choice of tests, the scores."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from tests.mutation import equivalent
from tests.mutation.coverage_map import CoverageMap, collect, from_contexts
from tests.mutation.execute import run_pytest
from tests.mutation.mutants import Mutant, js_mutants, mutants, python_mutants
from tests.mutation.results import Outcome, group, load, save, scores, survivors, to_rerun

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


def _outcome(key: str, status: str, module: str = "chatschema/validate/a.py") -> Outcome:
    return Outcome(key, module, 1, "Lt -> LtE", status, 1, 0.1)


def test_scores_per_module_and_package_and_the_survivors(tmp_path: Path) -> None:
    a, b, c = "chatschema/validate/a.py", "chatschema/validate/b.py", "chatschema/jsontext.py"
    listed = {
        a: [_mutant(1, key="a1", module=a), _mutant(2, key="a2", module=a), _mutant(3, key="a3", module=a)],
        b: [_mutant(1, key="b1", module=b)],
        c: [_mutant(1, key="c1", module=c), _mutant(2, key="c2", module=c)],
    }
    outcomes = {
        "a1": _outcome("a1", "killed", a),
        "a2": _outcome("a2", "timeout", a),  # hung: caught
        "a3": _outcome("a3", "not covered", a),
        "b1": _outcome("b1", "survived", b),
        "c1": _outcome("c1", "killed", c),
    }
    found = {
        s.name: (s.killed, s.total, s.missing, s.share, s.share_of_others) for s in scores(listed, outcomes, {"b1"})
    }
    assert found == {
        a: (2, 3, 0, "66.7%", "66.7%"),
        b: (0, 1, 0, "0.0%", "-"),  # b1 judged equivalent
        c: (1, 1, 1, "100.0%", "100.0%"),  # c2 not run (sampled out)
        "validate/": (2, 4, 0, "50.0%", "66.7%"),
    }
    assert [o.key for o in survivors(listed, outcomes)] == ["a3", "b1"]
    assert group("chatschema/schemas/__init__.py") == "schemas/"
    assert group("npm/esm/index.js") == "npm/esm/index.js"
    path = tmp_path / "results.json"
    save(path, outcomes, {"commit": "abc"})
    assert load(path) == outcomes
    again = [m.key for m in to_rerun([m for ms in listed.values() for m in ms], load(path))]
    assert again == ["a3", "b1", "c2"]  # survivors, not covered, never run


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
    cmap = collect(package, {"toy.py": (str(package / "toy.py"), 0)}, passing, [], ROOT)
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
    assert run_pytest(tmp_path, env, [f"{node}test_hangs"], True, [], 2).status == "timeout"
    # A selected test that is gone (its parameter changed): every test of its file runs.
    run = run_pytest(tmp_path, env, [f"{node}test_in_process", f"{node}test_gone"], True, [], 30)
    assert (run.status, run.killer) == ("killed", f"{node}test_slow_failure")


def test_equivalent_entries_are_parsed(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("Text.\n\n- `jsontext.py:57` `Lt -> LtE`: within 64 bits\n- not an entry\n")
    (entry,) = equivalent.listed(doc)
    assert entry == equivalent.Equivalent("chatschema/jsontext.py", 57, "Lt -> LtE", "within 64 bits")
    named = [_mutant(57, key="x", module="chatschema/jsontext.py"), _mutant(58, key="y")]
    assert equivalent.keys([entry], named) == {"x"}


def test_every_equivalent_listed_in_the_docs_names_a_mutant_of_the_current_code() -> None:
    """An edit that moves or removes a listed mutant makes the list stale: it must be updated with the code."""
    entries = equivalent.listed(ROOT / "docs" / "testing.md")
    assert entries
    for module in sorted({e.module for e in entries}):
        found = mutants(module, (ROOT / module).read_text(encoding="utf-8"))  # Python or JavaScript
        named = {(m.line, m.description) for m in found}
        for entry in (e for e in entries if e.module == module):
            assert (entry.line, entry.change) in named, f"docs/testing.md: {entry} names no mutant of {module}"
