"""The schema check of generated types whose Python types cannot say all their schema says.

codegen gives such a type (a `uniqueItems` array, an `if`/`then`, an `enum` of numbers, ...) a
check: a Pydantic model runs `conform` in a `mode="before"` model validator, a TypedDict is
decorated with `conforms_to`, a type alias carries `conformance` in its `Annotated` metadata. The
check validates the value, as JSON, against the type's shipped schema, so the generated type
accepts exactly what the schema accepts (copied into chatschema by codegen).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel, BeforeValidator, GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from chatschema import schemas
from chatschema._base import to_json_value

T = TypeVar("T")


def conform(data: Any, name: str) -> Any:
    """`data` unchanged if it is valid under the named schema; else ValueError naming the first
    violation (its JSONPath and reason), which Pydantic reports as a validation error."""
    payload = to_json_value(data) if _holds_models(data) else data
    if not schemas.is_valid(payload, name):
        found = schemas.violations(payload, name)
        raise ValueError(f"not a valid {name}: {found[0] if found else 'nesting too deep'}")
    return data


def _holds_models(data: Any) -> bool:
    """Whether Python code built `data` from models (a JSON payload holds none); iterative, as a
    payload may be nested deeper than Python's recursion limit, and each container looked in once,
    as Python code may also have put one inside itself."""
    todo = [data]
    seen: set[int] = set()
    while todo:
        item = todo.pop()
        if isinstance(item, BaseModel):
            return True
        if isinstance(item, dict | list | tuple) and id(item) not in seen:
            seen.add(id(item))
            todo.extend(item.values() if isinstance(item, dict) else item)
    return False


def conforms_to(name: str) -> Callable[[type[T]], type[T]]:
    """Class decorator of a generated TypedDict: its Pydantic validation also runs `conform`."""

    def get_schema(cls: type[Any], source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_before_validator_function(lambda data: conform(data, name), handler(source))

    def decorate(cls: type[T]) -> type[T]:
        setattr(cls, "__get_pydantic_core_schema__", classmethod(get_schema))  # noqa: B010 (a TypedDict class)
        return cls

    return decorate


def conformance(name: str) -> BeforeValidator:
    """Annotated metadata of a generated type alias: validation runs `conform` first."""
    return BeforeValidator(partial(conform, name=name))
