"""Checks of Letta payloads that the generated models cannot express (copied into chatschema by codegen)."""

from __future__ import annotations

from typing import Self

from pydantic import model_validator

from chatschema._base import SchemaModel

_DELTA_KEYS = frozenset({"name", "arguments", "tool_call_id"})


class ToolCallDeltaBase(SchemaModel):
    """Base of ToolCallDelta: a fragment must carry at least one of its keys, as Letta requires."""

    @model_validator(mode="after")
    def _not_empty(self) -> Self:
        if not self.model_fields_set & _DELTA_KEYS:
            raise ValueError("a ToolCallDelta needs at least one of name, arguments, tool_call_id")
        return self
