"""How the fast backend (jsonschema-rs) is built so that its verdicts are the reference's: formats
become the project's patterns, or calls to the reference's checks, and none is skipped."""

from __future__ import annotations

import sys
from typing import Any

import jsonschema_rs
import pytest
from jsonschema import FormatChecker

from chatschema import schemas
from chatschema.validate import backends


def test_fast_is_available_exactly_when_jsonschema_rs_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    assert backends.fast_available() is True
    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)  # import now raises ImportError
    assert backends.fast_available() is False
    with pytest.raises(backends.BackendUnavailable, match=r"needs the 'fast' extra"):
        backends.fast_is_valid.__wrapped__("docent/ChatMessage")


def test_formats_with_a_pattern_become_that_pattern_outside_data_keywords() -> None:
    node = {
        "properties": {"at": {"type": "string", "format": "date-time", "allOf": [{"minLength": 1}]}},
        "items": [{"format": "date-time"}, {"format": "email"}],
        "examples": [{"format": "date-time"}],
        "const": {"format": "date-time"},
    }
    assert backends.for_fast_backend(node) == {
        "properties": {"at": {"type": "string", "allOf": [{"minLength": 1}, {"pattern": backends.DATE_TIME_PATTERN}]}},
        "items": [{"allOf": [{"pattern": backends.DATE_TIME_PATTERN}]}, {"format": "email"}],
        "examples": [{"format": "date-time"}],
        "const": {"format": "date-time"},
    }


_DOC = "https://example.test/formats.json"


def _even(value: object) -> bool:
    return not isinstance(value, str) or len(value) % 2 == 0


@pytest.fixture
def even_format(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A user's schema with a format the project has no pattern for, checked by the reference's checker."""
    checker = FormatChecker(formats=())
    checker.checks("even")(_even)
    document = {"$id": _DOC, "$defs": {"T": {"type": "string", "format": "even"}, "D": {"format": "date-time"}}}
    monkeypatch.setattr(schemas, "FORMAT_CHECKER", checker)
    monkeypatch.setattr(schemas, "formats_used", lambda: frozenset({"even", "date-time"}))
    monkeypatch.setattr(schemas, "schema", lambda name: {"$ref": f"{_DOC}#/$defs/{name}"})
    registry = jsonschema_rs.Registry([(_DOC, backends.for_fast_backend(document))])
    monkeypatch.setattr(backends, "_rs_registry", lambda: registry)
    return document


def test_a_format_without_a_pattern_calls_the_reference_check(even_format: dict[str, Any]) -> None:
    assert set(backends._format_functions()) == {"even"}  # date-time is a pattern: no call back
    check = backends.fast_is_valid.__wrapped__("T")
    assert check("ab") is True
    assert check("abc") is False
    dates = backends.fast_is_valid.__wrapped__("D")
    assert dates("2024-01-01T00:00:00Z") and not dates("2024-01-01")


def test_a_format_nothing_can_check_is_an_error_not_skipped(
    even_format: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schemas, "formats_used", lambda: frozenset({"date-time"}))  # no check for "even"
    with pytest.raises(jsonschema_rs.ValidationError, match="Unknown format: 'even'"):
        backends.fast_is_valid.__wrapped__("T")
