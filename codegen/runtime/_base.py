"""Base class of every generated Pydantic model (copied into chatschema by codegen)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

TYPEDDICT_CONFIG = ConfigDict(strict=True, extra="allow")
"""Config of every generated TypedDict: strict like the models, and unknown keys kept (the schemas
accept them, so a TypedDict adapter must not drop them from what it returns)."""


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

    def model_post_init(self, context: Any, /) -> None:
        # A union branch defaults its tag (`TextBlock(text="hi")`), but the tag is part of the data:
        # count it as set, so a dump with `exclude_unset=True` still carries it and stays valid.
        tag = getattr(type(self), "__chatschema_tag__", None)
        if tag is not None:
            self.model_fields_set.add(tag)
