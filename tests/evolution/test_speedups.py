"""hypothesis-jsonschema's metaschema checks made by jsonschema-rs decide as jsonschema's own do, its
canonical JSON written by the C encoder is the same text, and the instances drawn are the same
(release/evolution/speedups.py)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis_jsonschema import _canonicalise, _encode, _from_schema, from_schema
from jsonschema import Draft7Validator, Draft202012Validator
from jsonschema.exceptions import SchemaError

from release.evolution import speedups as module
from release.evolution.speedups import canonical_json, speedups
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
    with speedups():
        assert _outcome(cls, schema) == expected


def test_hypothesis_jsonschema_chooses_the_same_validator_classes() -> None:
    choose = getattr(_canonicalise, "__get_validator_class")  # its cache must not answer

    def choice(schema: Any) -> str:
        choose.cache_clear()
        try:
            return _canonicalise.make_validator(schema).__class__.__name__
        except SchemaError:
            return "SchemaError"

    expected = [choice(s) for s in SCHEMAS]
    assert {"Draft202012Validator", "Draft7Validator", "Draft4Validator", "SchemaError"} <= set(expected)
    with speedups():
        assert [choice(s) for s in SCHEMAS] == expected


def test_jsonschema_checks_only_what_jsonschema_rs_finds_invalid(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    original = module._ORIGINAL[Draft202012Validator]

    def counted(cls: type[Any], schema: Any) -> None:
        asked.append(schema)
        original.__func__(cls, schema)

    key: type[Any] = Draft202012Validator
    monkeypatch.setitem(module._ORIGINAL, key, classmethod(counted))
    with speedups():
        Draft202012Validator.check_schema({"type": "string"})
        with pytest.raises(SchemaError):
            Draft202012Validator.check_schema({"type": "strin"})
    assert asked == [{"type": "strin"}]
    assert Draft202012Validator.__dict__["check_schema"] is original  # restored on leaving


def test_restored_when_generation_fails() -> None:
    before = Draft202012Validator.__dict__["check_schema"]
    with pytest.raises(RuntimeError), speedups():
        assert Draft202012Validator.__dict__["check_schema"] is not before
        raise RuntimeError
    assert Draft202012Validator.__dict__["check_schema"] is before
    assert Draft7Validator.__dict__["check_schema"] is module._ORIGINAL[Draft7Validator]
    assert all(m.encode_canonical_json is _encode.encode_canonical_json for m in module.ENCODER_USERS)
    assert _encode.encode_canonical_json is not canonical_json
    assert all(_from_schema.__dict__[name] is module._ORIGINAL_BUILDERS[name] for name in module.BUILDERS)


def test_a_value_strategy_is_built_once_per_schema_however_often_objects_draw_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[Any] = []
    original = _from_schema.array_schema

    def counted(custom_formats: Any, alphabet: Any, schema: Any) -> Any:
        built.append(schema)
        return original(custom_formats, alphabet, schema)

    monkeypatch.setattr(_from_schema, "array_schema", counted)
    monkeypatch.setattr(module, "_built", {})
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"enum": ["a", "b"]}}},
    }
    with speedups():
        strategy = from_schema(schema)
    drawn = draw(strategy, 30, 1)
    assert len(drawn) == 30 and sum(bool(x.get("tags")) for x in drawn) > 5
    assert len(built) == 1, built  # not once per draw of the key


VALUES: list[Any] = [
    1.0,
    -0.0,
    2.5,
    1e300,
    1e16,
    5e-324,
    123456789012345678.0,
    3,
    True,
    None,
    'é\u2028"x"',
    [],
    [1.0, {"b": [3.5, 2.0], "a": None}],
    (1, 2.0),
    {"z": 1, "a": {"m": [{"y": 0.5, "x": 1.0}]}},
    {1.0: "a float key"},
    {"n": math.inf},
    [math.nan],
    {"e": {"enum": [1, 1.0, "1"]}},
]


def _text(encode: Any, value: Any) -> str:
    try:
        return str(encode(value))
    except Exception as exc:  # a non-finite float: the same error both ways
        return type(exc).__name__


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_the_same_canonical_json(value: Any) -> None:
    assert _text(canonical_json, value) == _text(_encode.encode_canonical_json, value)


def test_the_same_canonical_json_of_every_subschema_of_a_shipped_union() -> None:
    from release.evolution.instances import for_generation
    from tests.conformance.bundle import bundle

    found: list[Any] = []

    def every(node: Any) -> None:
        found.append(node)
        for sub in node.values() if isinstance(node, dict) else node if isinstance(node, list) else []:
            every(sub)

    every(for_generation(bundle("letta/LettaStreamingResponse")))
    assert len(found) > 500
    assert [canonical_json(s) for s in found] == [_encode.encode_canonical_json(s) for s in found]


@pytest.mark.parametrize("name", ["docent/ChatMessage", "swarm/ISwarmMessage"])
def test_the_same_instances_are_drawn(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = type_seed(DEFAULT_SEED, name, "schema")
    quick = draw(schema_strategy.__wrapped__(name), 6, seed)
    monkeypatch.setattr("tests.conformance.strategies.speedups", _unchanged)
    assert draw(schema_strategy.__wrapped__(name), 6, seed) == quick


class _unchanged:
    """A context that changes nothing: jsonschema's own checks."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None
