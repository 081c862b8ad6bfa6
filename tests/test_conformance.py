"""Conformance in depth, with a small budget: generated instances, mutations, the agreement report.

The same machinery as `nox -s conformance` (tests/conformance/), which runs a full budget and
prints the whole report. Seeds are fixed: a failure shows the cases and how to replay them.
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import Any

import pytest
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants
from jsonschema import Draft202012Validator

from chatschema import schemas
from release.evolution.mutations import Coverage, Walker, mutations
from tests.allowlist import ALLOWLIST
from tests.conformance import report
from tests.conformance.bundle import bundle, family_defs, type_names
from tests.conformance.report import (
    SIDES,
    SMALL,
    Case,
    Result,
    draw,
    format_report,
    replay,
    run,
    runs,
    universe,
    verdicts,
)
from tests.conformance.seeds import DEFAULT_SEED, commit_seed, derived_seeds
from tests.conformance.strategies import schema_strategy
from tests.node import HERE, PACKAGE, run_node
from tests.vectors import all_vectors

# the default seed, and one of this commit (a failure prints how to replay it: report.replay)
SEEDS = [DEFAULT_SEED, commit_seed()]


def small_run(seed: int = DEFAULT_SEED) -> Result:
    """The small run of one of SEEDS, made once: both seeds in one pass (`runs`)."""
    return _small_runs()[seed]


@cache
def _small_runs() -> dict[int, Result]:
    return dict(zip(SEEDS, runs(SMALL, SEEDS), strict=True))


@pytest.mark.parametrize("seed", SEEDS, ids=[f"default-seed-{SEEDS[0]}", f"commit-seed-{SEEDS[1]}"])
def test_conformance_small_budget(seed: int) -> None:
    result = small_run(seed)
    report = format_report(result)
    print(report)
    assert not result.problems, f"replay: {replay(result)}\n{report}"


def _verdicts(result: Result) -> list[Any]:
    """Everything a run found, in its order: its cases, disagreements, coverage, counts."""
    return [
        [(case.id, json.dumps(case.instance, sort_keys=True), valid) for case, valid in result.judged],
        [(d.case.id, d.side, d.verdict, d.expected, d.entry) for d in result.disagreements],
        result.hits,
        {family: (cov.types, cov.branches, cov.enums) for family, cov in result.coverage.items()},
        [case.id for case in result.generator_invalid],
        result.constructor_rejected,
        result.missing,
        {name: (s.cases, s.valid, s.pairs, s.compared, s.kinds) for name, s in result.stats.items()},
        result.problems,
    ]


def test_seeds_judged_in_one_pass_give_what_each_gives_alone() -> None:
    # `runs` judges a type at every seed in the same process, after its generators are built for
    # the first: each seed's draws and verdicts must still be those of a run of that seed alone.
    types = ["swarm/ITool", "swarm/IToolFunction"]  # two small ones: the test costs seconds, not a minute
    together = runs(SMALL, SEEDS, types, jobs=1)
    for seed, result in zip(SEEDS, together, strict=True):
        assert _verdicts(result) == _verdicts(run(SMALL, seed, types, jobs=2)), seed


def test_a_payload_met_again_is_not_judged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # the examples and their first mutations recur at every seed: judged once, in one pass
    judged: list[Case] = []

    def counted(case: Case) -> dict[str, bool | None]:
        judged.append(case)
        return verdicts(case)

    monkeypatch.setattr(report, "verdicts", counted)
    results = runs(SMALL, SEEDS, ["swarm/ITool"], jobs=1)
    cases = [case for result in results for case, _ in result.judged]
    distinct = {(c.claims_valid, repr(c.instance)) for c in cases}
    assert len(judged) == len(distinct) < len(cases) * 0.7
    assert {(c.claims_valid, repr(c.instance)) for c in judged} == distinct


def test_a_payload_is_told_apart_from_one_json_would_merge_it_with() -> None:
    seen = report.Verdicts()
    one, one_float = Case("x", "swarm/IToolFunction", {"name": 1}), Case("y", "swarm/IToolFunction", {"name": 1.0})
    assert seen.of(one) == verdicts(one) and seen.of(one_float) == verdicts(one_float)
    assert len(seen._seen) == 2


def test_types_judged_side_by_side_give_what_one_process_gives() -> None:
    alone = run(SMALL, DEFAULT_SEED, ["bridgic"], jobs=1)
    side_by_side = run(SMALL, DEFAULT_SEED, ["bridgic"], jobs=2)
    assert alone.processes == {os.getpid()}
    assert side_by_side.processes and os.getpid() not in side_by_side.processes
    assert len(alone.judged) > 100
    assert _verdicts(side_by_side) == _verdicts(alone)


def test_every_family_and_type_is_tried() -> None:
    result = small_run()
    assert set(result.stats) == set(schemas.names())
    assert all(s.cases > 0 for s in result.stats.values())


def test_every_case_is_judged_by_each_schema_validator() -> None:
    # the dispatching validator and the fast backend are held to the plain oneOf on every case
    for name, stats in small_run().stats.items():
        for side in ("dispatch", "jsonschema-rs"):
            assert stats.compared[("jsonschema", side)] == stats.cases, (name, side)
            assert stats.pairs[("jsonschema", side)] == stats.cases, (name, side)


def test_allowlist_rules_name_a_side_of_this_run() -> None:
    assert all(e.side in SIDES for e in ALLOWLIST if e.rules)
    assert len({e.id for e in ALLOWLIST}) == len(ALLOWLIST)
    assert all(e.reason and (e.vectors or e.rules) for e in ALLOWLIST)


@pytest.mark.parametrize("name", schemas.names())
def test_bundle_agrees_with_the_shipped_schema(name: str) -> None:
    """The self-contained document the generator sees validates exactly like the shipped schema."""
    bundled = Draft202012Validator(bundle(name), format_checker=Draft202012Validator.FORMAT_CHECKER)
    for vector in (v for v in all_vectors() if v.schema_name == name):
        assert bundled.is_valid(vector.load()) is vector.valid, vector.id


def test_a_seed_pins_the_draws_whatever_code_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hypothesis mixes the literals of the loaded local modules into its draws; the harness draws without
    them, so an edit to the code, or a module imported earlier or later, does not change a seed's cases."""
    strategy = schema_strategy("swarm/ISwarmMessage")
    plain = draw(strategy, 40, 7)
    literals = Constants(strings={f"x_literal_{i}" for i in range(50)} | {"user", "tool"}, integers=set(range(-9, 9)))
    monkeypatch.setattr(providers, "_get_local_constants", lambda: literals)
    providers.CONSTANTS_CACHE.cache.clear()
    assert draw(strategy, 40, 7) == plain


def test_seeds_are_derived_the_same_every_time() -> None:
    assert derived_seeds(7, 4) == derived_seeds(7, 4)
    assert derived_seeds(7, 4)[0] == 7
    assert len(set(derived_seeds(7, 4))) == 4
    assert derived_seeds(7, 2) == derived_seeds(7, 4)[:2]
    assert commit_seed() == commit_seed()


def test_mutations_of_a_valid_vector_are_named_and_deterministic() -> None:
    vector = next(v for v in all_vectors() if v.schema_name == "letta/ToolCallMessage" and v.valid)
    walker = Walker(bundle("letta/ToolCallMessage"), "ToolCallMessage", family_defs("letta"))
    payload = vector.load()
    first = [(m.rule, m.where, json.dumps(m.build())) for m in mutations(payload, walker.walk(payload))]
    again = [(m.rule, m.where, json.dumps(m.build())) for m in mutations(payload, walker.walk(payload))]
    assert first == again
    rules = {rule for rule, _, _ in first}
    assert {
        "remove-required",
        "null",
        "unknown-key",
        "break-format/no-offset",
        "wrong-type/string-number",
    } <= rules
    assert payload == vector.load()  # mutations never change the original


def test_the_npm_package_agrees_on_every_case() -> None:
    """The package's precompiled validators (isValid and validate) and ajv over the per-file schemas
    give every generated and mutated case jsonschema's verdict (allowlist side "ajv")."""
    judged = small_run().judged
    cases = [{"schema": case.name, "payload": case.instance} for case, _ in judged]
    node = run_node(HERE / "cases.cjs", {"package": str(PACKAGE), "cases": cases})
    wrong = [
        f"{case.id}: {side} says {'valid' if got else 'invalid'}"
        for (case, expected), verdicts in zip(judged, node, strict=True)
        for side, got in (
            ("isValid", verdicts["valid"]),
            ("validate", not verdicts["thrown"]),
            ("files", verdicts["files"]),
        )
        if got is not expected and not any(e.side == "ajv" and e.covers_case(case.id) for e in ALLOWLIST)
    ]
    assert len(judged) > 1000
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.parametrize("family", sorted({n.split("/")[0] for n in schemas.names()}))
def test_the_examples_alone_cover_every_type_and_enum_value(family: str) -> None:
    """Coverage must not depend on the seed (the suite runs one derived from the commit): every $defs
    type and enum value is in some valid example. (Each union branch gets an instance drawn from the
    branch itself on every run, so branches need no example.)"""
    vectors = [v for v in all_vectors() if v.valid and not any(e.covers(v.id) for e in ALLOWLIST)]
    cov = Coverage()
    for type_name in type_names(family):
        name = f"{family}/{type_name}"
        walker = Walker(bundle(name), type_name, family_defs(family))
        for vector in (v for v in vectors if v.schema_name == name):
            walker.walk(vector.load(), cov)
    every = universe(family)
    assert every["types"] - cov.types == set()
    assert every["enums"] - cov.enums == set()
