"""Schema and generated code agree on every vector; valid vectors survive a lossless round trip."""

from __future__ import annotations

from fnmatch import fnmatch
from typing import Any

import pytest
from pydantic import ValidationError

from chatschema import schemas
from tests.allowlist import ALLOWLIST
from tests.roundtrip import lost
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
        if entry.side not in ("pydantic", "typeddict"):
            continue  # ajv entries: tests/test_typescript.py
        for pattern in sorted(entry.vectors):
            hits = [v for v in VECTORS if fnmatch(v.id, pattern) and verdicts(v)[entry.side] is not v.valid]
            if not hits:
                stale.append(f"{entry.id}: {pattern}")
    assert not stale, "allowlist patterns that match no disagreement: " + ", ".join(stale)


VALID = [v for v in VECTORS if v.valid and not _allowed(v, "pydantic")]


@pytest.mark.parametrize("vector", VALID, ids=lambda v: v.id)
def test_round_trip_is_lossless(vector: Vector) -> None:
    adapter = model_adapter(vector.schema_name)
    payload = vector.load()
    for model in (adapter.validate_python(payload), adapter.validate_json(vector.raw)):
        dumped = adapter.dump_python(model, mode="json")
        assert schemas.violations(dumped, vector.schema_name) == []
        assert lost(payload, dumped) == []
        assert adapter.validate_json(adapter.dump_json(model)) == model
