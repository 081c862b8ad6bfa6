"""Base class of every generated Pydantic model (copied into chatschema by codegen)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class SchemaModel(BaseModel):
    """A model that agrees with its JSON Schema.

    Strict types: "3" is not an integer and "true" is not a boolean, as in JSON Schema.
    Unknown keys are kept and dumped again, because the schemas (like the systems they
    describe) accept them: a parse -> dump round trip loses nothing.
    Dumps use the JSON key names.
    """

    model_config = ConfigDict(
        strict=True,
        extra="allow",
        serialize_by_alias=True,
        validate_by_alias=True,
        validate_by_name=True,
    )
