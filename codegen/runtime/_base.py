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
    Dumps use the JSON key names, and so does validation: a key that is not a Python name (`class`,
    `a-b`) becomes an aliased field (`class_`), and the field's Python name is an unknown key in a
    payload, as it is for the schema (construct such a model with `Model(**{"class": ...})`).
    """

    model_config = ConfigDict(
        strict=True,
        extra="allow",
        serialize_by_alias=True,
        validate_by_alias=True,
        validate_by_name=False,
        # datamodel-codegen already renames a field that would shadow a BaseModel attribute
        # (`model_dump` -> `model_dump_`); the `model_` prefix itself is only a warning at import
        protected_namespaces=(),
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A union branch defaults its tag (`TextBlock(text="hi")`), but the tag is part of the data:
        # count it as set, so a dump with `exclude_unset=True` still carries it and stays valid. Only
        # branch classes get the hook: pydantic calls `model_post_init` after every validation of a
        # class that overrides it, which costs the untagged classes ~10% of parse speed for nothing.
        super().__init_subclass__(**kwargs)
        if "__chatschema_tag__" in cls.__dict__:
            cls.model_post_init = _count_tag_as_set  # type: ignore[method-assign]


def _count_tag_as_set(self: BaseModel, context: Any, /) -> None:
    self.model_fields_set.add(type(self).__chatschema_tag__)  # type: ignore[attr-defined]
