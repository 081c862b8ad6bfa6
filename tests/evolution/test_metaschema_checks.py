"""hypothesis-jsonschema's metaschema checks made by jsonschema-rs decide as jsonschema's own do, and
the instances drawn are the same (release/evolution/metaschema_checks.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis_jsonschema import _canonicalise
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.exceptions import SchemaError

from release.evolution import metaschema_checks
from release.evolution.metaschema_checks import quick_metaschema_checks
from tests.conformance.report import type_seed
from tests.conformance.seeds import DEFAULT_SEED
from tests.conformance.strategies import draw, schema_strategy

SCHEMAS: list[Any] = [
    {},
    True,
    False,
    {"type": "string", "pattern": "^a+$", "format": "date-time"},
    {"pattern": "\\p{L}"},  # valid in ECMA 262, not in Python's `re`: jsonschema's "regex" format decides
    {"pattern": "(?P<x>a)"},  # the other way round
    {"patternProperties": {"[": {}}},
    {"items": [{"type": "string"}], "additionalItems": False},  # draft 7's tuple: not a 2020-12 `items`
    {"prefixItems": [{"type": "string"}], "items": False},
    {"type": "strin"},
    {"type": ["string", "string"]},
    {"minimum": "1"},
    {"exclusiveMinimum": True},  # draft 4's spelling
    {"required": []},
    {"required": "x"},
    {"dependencies": {"a": ["b"]}},
    {"$ref": "not a uri reference"},  # jsonschema here does not check `uri-reference`; jsonschema-rs would
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
    {"properties": {"a": {"oneOf": [{"type": "integer"}, {"enum": "x"}]}}},
    {"allOf": [{"$defs": {"a": {"maxLength": -1}}}]},
]


def _outcome(cls: type[Any], schema: Any) -> str | None:
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("cls", [Draft202012Validator, Draft7Validator], ids=lambda c: c.__name__)
@pytest.mark.parametrize("schema", SCHEMAS, ids=json.dumps)
def test_the_same_schemas_pass_and_the_same_errors_are_raised(cls: type[Any], schema: Any) -> None:
    expected = _outcome(cls, schema)
    with quick_metaschema_checks():
        assert _outcome(cls, schema) == expected


def test_hypothesis_jsonschema_chooses_the_same_validator_classes() -> None:
    choose = getattr(_canonicalise, "__get_validator_class")  # noqa: B009  (its cache must not answer)

    def choice(schema: Any) -> str:
        choose.cache_clear()
        try:
            return _canonicalise.make_validator(schema).__class__.__name__
        except SchemaError:
            return "SchemaError"

    expected = [choice(s) for s in SCHEMAS]
    assert {"Draft202012Validator", "Draft7Validator", "Draft4Validator", "SchemaError"} <= set(expected)
    with quick_metaschema_checks():
        assert [choice(s) for s in SCHEMAS] == expected


def test_jsonschema_checks_only_what_jsonschema_rs_finds_invalid(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    original = metaschema_checks._ORIGINAL[Draft202012Validator]

    def counted(cls: type[Any], schema: Any) -> None:
        asked.append(schema)
        original.__func__(cls, schema)

    monkeypatch.setitem(metaschema_checks._ORIGINAL, Draft202012Validator, classmethod(counted))
    with quick_metaschema_checks():
        Draft202012Validator.check_schema({"type": "string"})
        with pytest.raises(SchemaError):
            Draft202012Validator.check_schema({"type": "strin"})
    assert asked == [{"type": "strin"}]
    assert Draft202012Validator.check_schema.__func__ is not counted  # restored on leaving


def test_restored_when_generation_fails() -> None:
    before = Draft202012Validator.__dict__["check_schema"]
    with pytest.raises(RuntimeError), quick_metaschema_checks():
        assert Draft202012Validator.__dict__["check_schema"] is not before
        raise RuntimeError
    assert Draft202012Validator.__dict__["check_schema"] is before
    assert Draft7Validator.check_schema.__func__ is metaschema_checks._ORIGINAL[Draft7Validator].__func__


@pytest.mark.parametrize("name", ["docent/ChatMessage", "swarm/ISwarmMessage"])
def test_the_same_instances_are_drawn(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = type_seed(DEFAULT_SEED, name, "schema")
    quick = draw(schema_strategy.__wrapped__(name), 6, seed)
    monkeypatch.setattr("tests.conformance.strategies.quick_metaschema_checks", _unchanged)
    assert draw(schema_strategy.__wrapped__(name), 6, seed) == quick


class _unchanged:
    """A context that changes nothing: jsonschema's own checks."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None
