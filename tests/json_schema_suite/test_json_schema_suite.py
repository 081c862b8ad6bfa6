"""The official JSON-Schema-Test-Suite (draft 2020-12) and the project's traps, through every artefact.

Each group is linted alone; the accepted ones are generated once as one scratch family, and every
test's data is judged by plain jsonschema (the shipped registry), the fast backend, `chatschema
validate`, the Pydantic models, the TypedDicts and the npm package's precompiled validators
(`isValid` and `violations`), each of which must give the suite's verdict. A lint refusal must be
one the docs list, and a schema lint accepts must generate.
"""

from __future__ import annotations

from textwrap import indent
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from codegen.names import DRAFT
from tests.json_schema_suite.fetch import suite_folder
from tests.json_schema_suite.harness import (
    Group,
    NotRelocatable,
    family_defs,
    load_groups,
    missing_files,
    payload,
)
from tests.json_schema_suite.judges import ARTEFACTS, Outcome, run_suite
from tests.json_schema_suite.report import disagreements, documented_rules, is_documented, refusal_lines, summary

# Why a group cannot move into a family file: its meaning depends on its document (harness.py).
NOT_RELOCATABLE = ("ties it to its document", "leaves the document", "names an anchor", "names no subschema")


@pytest.fixture(scope="module")
def groups() -> list[Group]:
    """Every group of the suite files present and of the traps."""
    return load_groups()


@pytest.fixture(scope="module")
def outcome(groups: list[Group], tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """Every group linted, generated and judged, once for the module."""
    return run_suite(groups, tmp_path_factory.mktemp("json_schema_suite"))


def test_the_suite_data_is_present() -> None:
    missing = missing_files()
    assert not missing, f"{suite_folder()} lacks {', '.join(missing)} (tests/json_schema_suite/fetch.py)"


def _verdict(validator: Draft202012Validator, instance: Any) -> bool | str:
    try:
        return validator.is_valid(instance)
    except Exception as exc:  # e.g. a pattern Python's re cannot compile: the same on both sides
        return type(exc).__name__


def test_relocation_keeps_every_verdict(groups: list[Group]) -> None:
    """The harness itself: a group's schema moved into a family file gives plain jsonschema's
    verdict on the original schema for every test (whether or not that is the suite's)."""
    changed = []
    for group in groups:
        try:
            defs = family_defs(group)
        except NotRelocatable:
            continue
        uri = "https://example.invalid/suite.json"
        doc = {"$schema": DRAFT, "$id": uri, "$defs": defs}
        registry: Registry[Any] = Registry().with_resource(uri, Resource.from_contents(doc))
        moved = Draft202012Validator({"$ref": f"{uri}#/$defs/{group.type_name}"}, registry=registry)
        original = Draft202012Validator(group.schema)
        for test in group.tests:
            if _verdict(original, test.data) != _verdict(moved, payload(test.data)):
                changed.append(f"{group.label} / {test.description!r}")
    assert not changed, "relocation changed the verdict of:\n" + "\n".join(changed)


def test_only_groups_tied_to_their_document_are_not_relocated(outcome: Outcome) -> None:
    odd = [
        f"{outcome.groups[n].label}: {why}"
        for n, why in outcome.skipped.items()
        if not any(kind in why for kind in NOT_RELOCATABLE)
    ]
    assert not odd, "\n".join(odd)
    assert len(outcome.groups) == (
        len(outcome.skipped)
        + len(outcome.refused)
        + len(outcome.crashed)
        + len(outcome.failed)
        + len(outcome.generated)
    )


def test_every_lint_refusal_names_a_rule_the_docs_list(outcome: Outcome) -> None:
    rules = documented_rules()
    assert "unsupported" in rules, "no docs table lists the `unsupported` lint rule"
    undocumented = [
        f"{outcome.groups[n].label}: {p}"
        for n, problems in sorted(outcome.refused.items())
        for p in problems
        if not is_documented(p, rules)
    ]
    assert not undocumented, (
        f"{summary(outcome)}\n{len(undocumented)} lint refusal(s) name no rule the docs list as unsupported:\n"
        + "\n".join(undocumented)
        + "\n\nall refusals:\n"
        + "\n".join(refusal_lines(outcome))
    )


def test_no_lint_accepted_group_fails_generation(outcome: Outcome) -> None:
    broken = [f"{outcome.groups[n].label}: lint raised {why}" for n, why in sorted(outcome.crashed.items())]
    broken += [f"{outcome.groups[n].label}:\n{indent(why, '    ')}" for n, why in sorted(outcome.failed.items())]
    assert not broken, f"{summary(outcome)}\n" + "\n".join(broken)


@pytest.mark.parametrize("artefact", ARTEFACTS)
def test_artefact_agrees_with_the_suite(outcome: Outcome, artefact: str) -> None:
    assert outcome.cases, f"nothing was generated, so nothing was judged: {summary(outcome)}"
    assert artefact not in outcome.broken, outcome.broken[artefact]
    if artefact == "fast" and all(v == "unavailable" for v in outcome.verdicts["fast"]):
        pytest.skip("jsonschema-rs is not importable: the fast backend cannot be judged")
    found = disagreements(outcome, artefact)
    assert not found, f"{summary(outcome)}\n{len(found)} disagreement(s) of {artefact}:\n" + "\n".join(
        str(d) for d in found
    )
