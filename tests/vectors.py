"""The language-neutral test vectors: the examples beside the schemas,
schemas/<family>/examples/<Type>/{valid,invalid}/*.json."""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

SCHEMAS = Path(__file__).parent.parent / "schemas"


@dataclass(frozen=True)
class Vector:
    """One payload and the verdict it must get under one named type."""

    family: str
    type_name: str
    valid: bool
    path: Path

    @property
    def schema_name(self) -> str:
        return f"{self.family}/{self.type_name}"

    @property
    def id(self) -> str:
        """`<family>/<Type>/<verdict>/<file>`, e.g. `docent/ChatMessage/valid/d1_user_string.json`."""
        return f"{self.family}/{self.type_name}/{self.path.parent.name}/{self.path.name}"

    @property
    def raw(self) -> bytes:
        return self.path.read_bytes()

    def load(self) -> Any:
        return json.loads(self.raw)


def all_vectors() -> list[Vector]:
    """Every vector on disk, sorted by path."""
    found = []
    for path in sorted(SCHEMAS.glob("*/examples/*/*/*.json")):
        family, type_name, verdict = path.parts[-5], path.parts[-3], path.parts[-2]
        if verdict in ("valid", "invalid"):
            found.append(Vector(family, type_name, verdict == "valid", path))
    return found


@cache
def model_adapter(schema_name: str) -> TypeAdapter[Any]:
    """A TypeAdapter over the generated Pydantic type (class or union alias) of a schema name."""
    family, type_name = schema_name.split("/")
    return TypeAdapter(getattr(importlib.import_module(f"chatschema.{family}"), type_name))


@cache
def typeddict_adapter(schema_name: str) -> TypeAdapter[Any]:
    """A TypeAdapter over the generated TypedDict (or alias) of a schema name."""
    family, type_name = schema_name.split("/")
    return TypeAdapter(getattr(importlib.import_module(f"chatschema.{family}.typeddicts"), type_name))
