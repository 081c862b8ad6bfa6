"""The validation vocabulary of a schema object as short text, for the places people read.

Reference docs, Python docstrings and TypeScript comments say each constraint a property carries
(`minLength 1; uniqueItems`), where the types alone cannot (a `str` has no length, a TypeScript
`string[]` no uniqueness). The text names the keywords as JSON Schema does, so it reads the same
in every language and leads straight to the schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import walk
from .native import VOCABULARY

# Subschemas whose own constraints belong to the value's description too, with this prefix.
_NESTED = {"items": "items", "additionalProperties": "values"}


def constraint_phrases(schema: Any) -> list[str]:
    """Each vocabulary keyword of `schema` (and of its `items` and map values) as a phrase."""
    if not isinstance(schema, Mapping):
        return []
    phrases = [_phrase(key, value) for key, value in schema.items() if key in VOCABULARY]
    for key, label in _NESTED.items():
        phrases += [f"{label}: {p}" for p in constraint_phrases(schema.get(key))]
    return phrases


def constraint_note(schema: Any) -> str:
    """One sentence listing the constraints (see `constraint_phrases`), or "" if there are none."""
    phrases = constraint_phrases(schema)
    return f"Constraints: {'; '.join(phrases)}." if phrases else ""


def with_constraints(description: str, schema: Any) -> str:
    """`description` followed by its schema's constraint note, on a paragraph of its own."""
    note = constraint_note(schema)
    if not note:
        return description
    return f"{description}\n\n{note}" if description else note


def _phrase(key: str, value: Any) -> str:
    if value is True and key == "uniqueItems":
        return key
    return f"{key} {_compact(value)}"


def _compact(value: Any, limit: int = 80) -> str:
    text = json.dumps(walk.thaw(value), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."
