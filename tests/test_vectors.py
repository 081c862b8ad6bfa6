"""Schema and generated code agree on every vector; valid vectors survive a lossless round trip."""

from __future__ import annotations

from datetime import datetime
from fnmatch import fnmatch
from typing import Any

import pytest
from pydantic import ValidationError
from rfc3339_validator import validate_rfc3339  # type: ignore[import-untyped]

from chatschema import schemas
from tests.allowlist import ALLOWLIST
from tests.vectors import Vector, all_vectors, model_adapter, typeddict_adapter

VECTORS = all_vectors()


def _accepts(adapter: Any, vector: Vector, mode: str) -> bool:
    try:
        if mode == "json":
            adapter.validate_json(vector.raw)
        else:
            adapter.validate_python(vector.load())
    except ValidationError:
        return False
    return True


def verdicts(vector: Vector) -> dict[str, bool]:
    """Each validator's verdict (True = accepted) on one vector."""
    payload = vector.load()
    return {
        "jsonschema": not schemas.violations(payload, vector.schema_name),
        "jsonschema-is_valid": schemas.validator(vector.schema_name).is_valid(payload),
        "pydantic": _accepts(model_adapter(vector.schema_name), vector, "python"),
        "pydantic-json": _accepts(model_adapter(vector.schema_name), vector, "json"),
        "typeddict": _accepts(typeddict_adapter(vector.schema_name), vector, "python"),
    }


def _allowed(vector: Vector, side: str) -> bool:
    side = side.removesuffix("-json")
    return any(e.side == side and e.covers(vector.id) for e in ALLOWLIST)


def test_vectors_exist() -> None:
    assert len(VECTORS) > 100


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.id)
def test_verdicts_agree(vector: Vector) -> None:
    got = verdicts(vector)
    assert got["jsonschema"] is vector.valid, schemas.violations(vector.load(), vector.schema_name)
    wrong = {side for side, ok in got.items() if ok is not vector.valid and not _allowed(vector, side)}
    assert not wrong, f"{vector.id}: expected {'valid' if vector.valid else 'invalid'}, got {got}"


def test_allowlist_entries_are_all_hit() -> None:
    """Every allowlist pattern must match at least one real disagreement, or be removed."""
    stale = []
    for entry in ALLOWLIST:
        for pattern in sorted(entry.vectors):
            hits = [v for v in VECTORS if fnmatch(v.id, pattern) and verdicts(v)[entry.side] is not v.valid]
            if not hits:
                stale.append(f"{entry.id}: {pattern}")
    assert not stale, "allowlist patterns that match no disagreement: " + ", ".join(stale)


def _same_instant(a: str, b: str) -> bool:
    if not (validate_rfc3339(a) and validate_rfc3339(b)):
        return False
    return datetime.fromisoformat(a.upper()) == datetime.fromisoformat(b.upper())


def _kept(original: Any, dumped: Any, where: str = "$") -> list[str]:
    """Places where `dumped` lost or changed something `original` had (added keys are fine)."""
    if isinstance(original, dict):
        if not isinstance(dumped, dict):
            return [f"{where}: became {type(dumped).__name__}"]
        lost = [f"{where}.{k}: dropped" for k in original if k not in dumped]
        return lost + [p for k in original if k in dumped for p in _kept(original[k], dumped[k], f"{where}.{k}")]
    if isinstance(original, list):
        if not isinstance(dumped, list) or len(dumped) != len(original):
            return [f"{where}: list changed"]
        return [p for i, (a, b) in enumerate(zip(original, dumped, strict=True)) for p in _kept(a, b, f"{where}[{i}]")]
    if isinstance(original, str) and isinstance(dumped, str) and _same_instant(original, dumped):
        return []  # a date-time dumps in ISO form: "Z" may come back as "+00:00"
    if original != dumped or (type(original) is bool and type(dumped) is not bool):
        return [f"{where}: {original!r} became {dumped!r}"]
    return []


VALID = [v for v in VECTORS if v.valid and not _allowed(v, "pydantic")]


@pytest.mark.parametrize("vector", VALID, ids=lambda v: v.id)
def test_round_trip_is_lossless(vector: Vector) -> None:
    adapter = model_adapter(vector.schema_name)
    payload = vector.load()
    for model in (adapter.validate_python(payload), adapter.validate_json(vector.raw)):
        dumped = adapter.dump_python(model, mode="json")
        assert schemas.violations(dumped, vector.schema_name) == []
        assert _kept(payload, dumped) == []
        assert adapter.validate_json(adapter.dump_json(model)) == model
