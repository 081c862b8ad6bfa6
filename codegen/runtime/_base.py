"""Base class of every generated Pydantic model (copied into chatschema by codegen)."""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic_core import PydanticSerializationError

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

    def model_dump_json(self, **kwargs: Any) -> str:
        """Pydantic's `model_dump_json`; a payload nested deeper than pydantic-core serializes (255
        levels) is dumped through the standard library, so every payload parsed (up to 1024 levels,
        `chatschema.jsontext`) can be dumped again."""
        try:
            return super().model_dump_json(**kwargs)
        except PydanticSerializationError as exc:
            if "depth" not in str(exc):
                raise
        indent = kwargs.pop("indent", None)
        ensure_ascii = kwargs.pop("ensure_ascii", False)
        return _deep_dumps(self.model_dump(mode="python", **kwargs), indent, ensure_ascii)

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """Pydantic's `model_dump`; `mode="json"` on a payload deeper than pydantic-core serializes
        (255 levels) gives the Python-mode dump, which is the same: the models hold JSON types only."""
        try:
            return super().model_dump(**kwargs)
        except ValueError as exc:
            if kwargs.get("mode") != "json" or "depth" not in str(exc):
                raise
        kwargs.pop("mode")
        return super().model_dump(mode="python", **kwargs)  # the models hold JSON types only

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


def _deep_dumps(data: Any, indent: int | None, ensure_ascii: bool) -> str:
    """JSON text of deeply nested data, with the recursion limit raised for the standard library's encoder."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * 1024 + 1000))
    try:
        separators = (",", ":") if indent is None else None
        return json.dumps(data, indent=indent, ensure_ascii=ensure_ascii, separators=separators, allow_nan=False)
    finally:
        sys.setrecursionlimit(limit)
