"""Base class of every generated Pydantic model (copied into chatschema by codegen)."""

from __future__ import annotations

import json
import math
import re
import sys
import warnings
from collections.abc import Callable
from datetime import datetime
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import PydanticSerializationError, to_jsonable_python

from chatschema._errors import raise_bounded

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

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise_bounded(exc)

    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]  # not a custom __init__: no per-instance call

    @classmethod
    def model_validate(cls, obj: Any, **kwargs: Any) -> Self:
        """Pydantic's `model_validate`, with a union tag quoted in an error bounded in size."""
        try:
            return super().model_validate(obj, **kwargs)
        except ValidationError as exc:
            raise_bounded(exc)

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **kwargs: Any) -> Self:
        """Pydantic's `model_validate_json`, with a union tag quoted in an error bounded in size."""
        try:
            return super().model_validate_json(json_data, **kwargs)
        except ValidationError as exc:
            raise_bounded(exc)

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
        return deep_json_text(_jsonable(super().model_dump(mode="python", **kwargs)), indent, ensure_ascii)

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """Pydantic's `model_dump`; `mode="json"` on a payload deeper than pydantic-core serializes
        (255 levels) gives the Python-mode dump with each value that is not JSON (a date-time) in
        the form Pydantic's JSON mode gives it."""
        try:
            return super().model_dump(**kwargs)
        except ValueError as exc:
            if kwargs.get("mode") != "json" or "depth" not in str(exc):
                raise
        kwargs.pop("mode")
        dumped: dict[str, Any] = _jsonable(super().model_dump(mode="python", **kwargs))
        return dumped

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A union branch defaults its tag (`TextBlock(text="hi")`), but the tag is part of the data:
        # count it as set, so a dump with `exclude_unset=True` still carries it and stays valid. Only
        # branch classes get the hook: pydantic calls `model_post_init` after every validation of a
        # class that overrides it, which costs the untagged classes ~10% of parse speed for nothing.
        super().__init_subclass__(**kwargs)
        if "__chatschema_tag__" in cls.__dict__:
            cls.model_post_init = _count_tag_as_set  # type: ignore[method-assign]

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # Pydantic warns only "deprecated" for `Field(deprecated=True)`: say which field it is and what
        # replaces it. The message is stored on the FieldInfo too, so a later model_rebuild keeps it, and
        # a subclass inherits it (naming the class that declares the field).
        super().__pydantic_init_subclass__(**kwargs)
        for name, info in cls.__pydantic_fields__.items():
            if info.deprecated is True:
                message = deprecation_message(cls.__name__, info.alias or name, info.description)
                info.deprecated = message
                setattr(cls, name, _DeprecatedField(name, message))


_REPLACEMENT = re.compile(r"\b[Uu]se (`[^`]+`(?:(?:,| or| and) `[^`]+`)*)")


def deprecation_message(model: str, key: str, description: str | None) -> str:
    """`ToolCallMessage.tool_call is deprecated; use `tool_calls` instead`, the replacement taken from
    the schema's description ("... Use `tool_calls`."); without one, the description itself."""
    match = _REPLACEMENT.search(description or "")
    if match is not None:
        return f"{model}.{key} is deprecated; use {match[1]} instead"
    return f"{model}.{key} is deprecated" + (f": {description}" if description else "")


class _DeprecatedField:
    """Data descriptor that warns with the field's message on access (as pydantic's own does)."""

    def __init__(self, name: str, message: str) -> None:
        self.name = name
        self.message = message

    def __get__(self, obj: BaseModel | None, owner: type[BaseModel] | None = None) -> Any:
        if obj is None:
            raise AttributeError(self.name)
        warnings.warn(self.message, DeprecationWarning, stacklevel=2)
        return obj.__dict__[self.name]

    def __set__(self, obj: Any, value: Any) -> None:  # a data descriptor, so it wins over __dict__
        raise AttributeError(self.name)


def _count_tag_as_set(self: BaseModel, context: Any, /) -> None:
    self.model_fields_set.add(type(self).__chatschema_tag__)  # type: ignore[attr-defined]


_JSON_LEAVES = (str, int, float, bool, type(None))


def rebuild(data: Any, leaf: Callable[[Any], Any]) -> Any:
    """`data` (dicts, lists and tuples nested to any depth) with each other value replaced by
    `leaf(value)`, tuples by lists; without recursion. A container inside itself is a ValueError,
    as pydantic-core says it (else the copy would grow until memory runs out)."""
    root: list[Any] = [None]
    todo: list[tuple[Any, Any, Any]] = [(data, root, 0)]  # (value, container to put it in, key)
    inside: set[int] = set()  # the containers on the path to the value at hand
    while todo:
        value, into, key = todo.pop()
        if into is None:  # every item of the container `value` (its id) is done
            inside.discard(value)
            continue
        if isinstance(value, dict | list | tuple):
            if id(value) in inside:
                raise ValueError("Circular reference detected (id repeated)")
            inside.add(id(value))
            todo.append((id(value), None, None))
        if isinstance(value, dict):
            copy: dict[Any, Any] = dict.fromkeys(value)  # keys in order now, values filled below
            into[key] = copy
            todo.extend((item, copy, name) for name, item in value.items())
        elif isinstance(value, list | tuple):
            items: list[Any] = [None] * len(value)
            into[key] = items
            todo.extend((item, items, i) for i, item in enumerate(value))
        else:
            into[key] = leaf(value)
    return root[0]


def to_json_value(data: Any) -> Any:
    """`data` with the models in it dumped by alias as JSON values, as `to_jsonable_python` gives
    it, at any depth: past the depth pydantic-core serializes, value by value."""
    try:
        return to_jsonable_python(data, by_alias=True)
    except ValueError as exc:  # pydantic-core raises a plain ValueError for depth here
        if "depth" not in str(exc):
            raise
    return rebuild(data, _json_value_of)


def _json_value_of(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)  # a chatschema model dumps at any depth
    return value if isinstance(value, _JSON_LEAVES) else to_jsonable_python(value, by_alias=True)


def _jsonable(data: Any) -> Any:
    """`data` (a Python-mode dump, nested to any depth) with every leaf that is not a JSON value (a
    date-time field's `datetime`) in the form the model's JSON mode gives it."""
    return rebuild(data, _json_leaf)


def _json_leaf(value: Any) -> Any:
    # A datetime is what `chatschema._types.DateTime`, the one non-JSON type a model holds, dumps as
    # ISO 8601 text in JSON mode; NaN and Infinity are null there; anything else as Pydantic's JSON
    # mode gives it.
    if isinstance(value, _JSON_LEAVES):
        return None if type(value) is float and not math.isfinite(value) else value
    return value.isoformat() if isinstance(value, datetime) else to_jsonable_python(value)


def deep_json_text(data: Any, indent: int | None, ensure_ascii: bool) -> str:
    """JSON text of deeply nested data, with the recursion limit raised for the standard library's encoder."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * 1024 + 1000))
    try:
        separators = (",", ":") if indent is None else None
        return json.dumps(data, indent=indent, ensure_ascii=ensure_ascii, separators=separators, allow_nan=False)
    finally:
        sys.setrecursionlimit(limit)
