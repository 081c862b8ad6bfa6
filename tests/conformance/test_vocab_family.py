"""The test family `vocab` (tests/conformance/fixtures/vocab/): a family that uses every keyword of the
validation vocabulary, so that the conformance harness meets each whether or not a real family does.

The schema, its examples, the instances drawn from it and the mutation rules it sets off are checked
here directly; `test_the_harness_agrees_on_the_vocab_family` runs the harness on it (small budget) in a
scratch copy of the repository with the family generated (tests/conformance/vocab.py), as
`nox -s conformance` does with the full budget.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from release.evolution.mutations import Coverage, Walker, json_key, mutations
from tests.codegen_cli import start_from_warm_cache
from tests.conformance.bundle import bundle, family_defs, type_names
from tests.conformance.seeds import DEFAULT_SEED
from tests.conformance.strategies import draw, recursive, schema_strategy
from tests.conformance.vocab import FAMILY, FIXTURES, conformance, generate, harness_args, scratch_repository, selected
from tests.conformance.vocab import main as vocab_main

FOLDER = FIXTURES / FAMILY
FILES = sorted(FOLDER.glob("*.json"))
VOCABULARY = {
    "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minItems", "maxItems", "uniqueItems", "prefixItems", "contains", "minContains", "maxContains",
    "minProperties", "maxProperties", "patternProperties", "propertyNames", "dependentRequired",
    "dependentSchemas", "if", "then", "else",
}  # fmt: skip
TYPED = {  # keywords that apply to values of one type only
    "string": {"minLength", "maxLength", "pattern"},
    "number": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    "array": {"minItems", "maxItems", "uniqueItems", "prefixItems", "contains"},
    "object": {"minProperties", "maxProperties", "patternProperties", "propertyNames", "required"},
}


def _documents() -> dict[str, dict[str, Any]]:
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in FILES}


@cache
def _registry() -> Registry:
    return Registry().with_resources((doc["$id"], Resource.from_contents(doc)) for doc in _documents().values())


def _validator(type_name: str) -> Draft202012Validator:
    file = next(name for name, doc in _documents().items() if type_name in doc["$defs"])
    ref = f"{_documents()[file]['$id']}#/$defs/{type_name}"
    return Draft202012Validator({"$ref": ref}, registry=_registry(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def _examples(valid: bool) -> Iterator[tuple[str, Path]]:
    for path in sorted((FOLDER / "examples").glob(f"*/{'valid' if valid else 'invalid'}/*.json")):
        yield path.parts[-3], path


def _schemas(node: Any) -> Iterator[Any]:
    """Every schema in a document (data keywords' values left out), booleans included."""
    yield node
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("const", "enum", "default", "examples", "required", "dependentRequired"):
                continue
            if key in ("properties", "patternProperties", "$defs", "dependentSchemas"):
                for sub in value.values():
                    yield from _schemas(sub)
            elif isinstance(value, list):
                for sub in value:
                    yield from _schemas(sub)
            elif isinstance(value, dict | bool):
                yield from _schemas(value)


def test_the_fixture_is_a_family_as_schemas_holds_them() -> None:
    assert (FOLDER / "VERSION").read_text(encoding="utf-8").strip()
    assert len(FILES) >= 2  # a reference across files too
    for path in FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(doc)
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert doc["$id"] == f"https://chatschema.dev/schemas/{FAMILY}/{path.name}"
        assert doc["description"]
        for name, schema in doc["$defs"].items():
            assert schema["title"] == name and schema["description"], name
            for sub in _schemas(schema):
                for prop, prop_schema in (sub.get("properties", {}) if isinstance(sub, dict) else {}).items():
                    assert not isinstance(prop_schema, dict) or prop_schema.get("description"), (name, prop)


def test_the_fixture_uses_every_keyword() -> None:
    used: set[str] = set()
    values: list[Any] = []
    untyped: set[str] = set()
    for doc in _documents().values():
        for sub in _schemas(doc):
            if not isinstance(sub, dict):
                continue
            used |= sub.keys()
            values += [sub["const"]] if "const" in sub else []
            values += sub.get("enum", [])
            if "type" not in sub:
                untyped |= sub.keys() & set().union(*TYPED.values())
    assert VOCABULARY <= used, VOCABULARY - used
    # const and enum hold values of other types than strings; keywords of a type on an untyped schema
    assert {type(v) for v in values} >= {str, int, dict}
    assert {"maxLength", "maximum", "maxItems", "maxProperties"} <= untyped
    booleans = {sub for doc in _documents().values() for sub in _schemas(doc) if isinstance(sub, bool)}
    assert booleans == {True, False}
    assert any(recursive(bundle(f"{FAMILY}/{t}", FIXTURES)) for t in type_names(FAMILY, FIXTURES))
    numbers = [sub for doc in _documents().values() for sub in _schemas(doc) if isinstance(sub, dict)]
    assert any(isinstance(s.get("multipleOf"), float) for s in numbers)  # a fractional step
    assert any(s.get("maximum", 0) > 2**53 for s in numbers)  # a bound beyond a double


@pytest.mark.parametrize("verdict", [True, False], ids=["valid", "invalid"])
def test_the_examples_get_their_verdict(verdict: bool) -> None:
    found = list(_examples(verdict))
    assert found
    for type_name, path in found:
        payload = json.loads(path.read_text(encoding="utf-8"))
        assert _validator(type_name).is_valid(payload) is verdict, path.name
        # the bundle the harness sees says the same
        bundled = bundle(f"{FAMILY}/{type_name}", FIXTURES)
        assert (
            Draft202012Validator(bundled, format_checker=Draft202012Validator.FORMAT_CHECKER).is_valid(payload)
            is verdict
        )


def test_the_examples_alone_cover_every_type_and_enum_value() -> None:
    """As for a real family (tests/test_conformance.py): coverage does not depend on the seed."""
    defs = family_defs(FAMILY, FIXTURES)
    cov = Coverage()
    for type_name, path in _examples(True):
        Walker(bundle(f"{FAMILY}/{type_name}", FIXTURES), type_name, defs).walk(json.loads(path.read_bytes()), cov)
    enums = {(n, json_key(v)) for n, d in defs.items() for v in d.get("enum", [])}
    for n, d in defs.items():
        enums |= {
            (f"{n}.{p}", json_key(v))
            for p, s in d.get("properties", {}).items()
            if isinstance(s, dict)
            for v in s.get("enum", [])
        }
    assert set(defs) <= cov.types
    assert enums <= cov.enums, enums - cov.enums


def test_the_examples_set_off_every_rule_both_ways() -> None:
    """The mutation rules of the vocabulary all fire on the examples, and their valid-side probes
    (at a bound, one inside) are judged valid somewhere, their outside ones invalid."""
    verdicts: dict[str, set[bool]] = {}
    defs = family_defs(FAMILY, FIXTURES)
    for type_name, path in _examples(True):
        bundled = bundle(f"{FAMILY}/{type_name}", FIXTURES)
        judge = Draft202012Validator(bundled, format_checker=Draft202012Validator.FORMAT_CHECKER)
        payload = json.loads(path.read_bytes())
        for m in mutations(payload, Walker(bundled, type_name, defs).walk(payload)):
            verdicts.setdefault(m.rule, set()).add(bool(judge.is_valid(m.build())))
    for keyword in ("minLength", "minItems", "minProperties", "minimum", "minContains"):
        assert verdicts[f"bound/{keyword}-below"] == {False}, keyword
        assert True in verdicts[f"bound/{keyword}-at"] and True in verdicts[f"bound/{keyword}-inside"], keyword
    for keyword in ("maxLength", "maxItems", "maxProperties", "maximum", "maxContains"):
        assert False in verdicts[f"bound/{keyword}-above"], keyword
        assert True in verdicts[f"bound/{keyword}-at"] and True in verdicts[f"bound/{keyword}-inside"], keyword
    for keyword in ("exclusiveMinimum", "exclusiveMaximum"):
        assert verdicts[f"bound/{keyword}-at"] == {False} and verdicts[f"bound/{keyword}-inside"] == {True}
    expected_invalid = [
        "length/emoji-below-min", "length/combining-above-max", "multipleOf/off-step", "multipleOf/float-quotient",
        "uniqueItems/duplicate", "uniqueItems/duplicate-float", "uniqueItems/duplicate-reordered-object",
        "prefixItems/wrong-type", "prefixItems/extra", "propertyNames/bad-key", "patternProperties/bad-value",
        "additionalProperties/bad-value", "dependentRequired/missing", "dependentSchemas/missing",
        "dependentSchemas/violated", "if/then-missing", "if/else-violated", "if/flip-to-then", "if/flip-to-else",
        "const/bool-number-swap", "enum/nested-change", "boolean-schema/false-present", "bigint/-2^53-1",
    ]  # fmt: skip
    expected_valid = [
        "length/emoji-at-max", "multipleOf/on-step", "prefixItems/short", "contains/none",
        "patternProperties/new-key", "additionalProperties/new-entry", "dependentRequired/trigger-removed",
        "dependentSchemas/trigger-removed", "const/float-twin", "enum/reordered", "boolean-schema/true-anything",
        "untyped/maximum", "bigint/2^53+1", "bound/minimum-at-float",
    ]  # fmt: skip
    assert [r for r in expected_invalid if False not in verdicts.get(r, set())] == []
    assert [r for r in expected_valid if True not in verdicts.get(r, set())] == []


@pytest.mark.parametrize("type_name", type_names(FAMILY, FIXTURES))
def test_instances_drawn_from_the_schema_are_valid(type_name: str) -> None:
    """hypothesis-jsonschema reads no 2020-12 keyword and no recursion: strategies.py translates and unrolls."""
    name = f"{FAMILY}/{type_name}"
    bundled = bundle(name, FIXTURES)
    drawn = draw(schema_strategy(name, FIXTURES), 3, DEFAULT_SEED)
    assert drawn
    for instance in drawn:
        assert Draft202012Validator(bundled).is_valid(instance), instance
    if type_name == "Tree":
        assert any(
            isinstance(x.get("replies"), list) and x["replies"] for x in draw(schema_strategy(name, FIXTURES), 8, 1)
        )


def test_the_scratch_run_selects_the_family() -> None:
    assert selected(None) == [FAMILY]
    assert selected(["letta/ToolCallMessage"]) == []
    assert selected(["letta", f"{FAMILY}/Money"]) == [f"{FAMILY}/Money"]
    assert vocab_main(["--only", "letta"]) == 0  # nothing of the family selected: nothing built or run
    parsed = argparse.Namespace(small=True, seed=7, seeds=2, only=None, jobs=None)
    assert harness_args(parsed) == ["--small", "--seed", "7", "--seeds", "2", "--only", FAMILY]
    parsed.jobs = 1
    assert harness_args(parsed) == ["--small", "--seed", "7", "--seeds", "2", "--jobs", "1", "--only", FAMILY]


@pytest.fixture(scope="module")
def scratch(codegen_cache: Path) -> Iterator[Path]:
    """A scratch repository with the vocab family under schemas/, generated (the real families from
    the warm cache)."""
    with tempfile.TemporaryDirectory(prefix="chatschema-vocab-") as tmp:
        root = scratch_repository(Path(tmp))
        start_from_warm_cache(root, codegen_cache)
        generated = generate(root)
        assert generated.returncode == 0, generated.stdout + generated.stderr
        yield root


def test_the_harness_agrees_on_the_vocab_family(scratch: Path) -> None:
    """The harness on the vocab family, small budget, default seed, every check of a real family's run."""
    args = harness_args(argparse.Namespace(small=True, seed=DEFAULT_SEED, seeds=1, only=None, jobs=None))
    proc = conformance(scratch, args, capture=True)
    assert proc.returncode == 0, (
        f"python -m tests.conformance.vocab {' '.join(args[:-2])}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    )
    assert f"== {FAMILY}:" in proc.stdout
