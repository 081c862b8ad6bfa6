"""Pydantic validation errors kept to a readable size whatever the payload.

Pydantic shortens the input it quotes, but not the tag of a discriminated union: a payload whose
`type` is a 1 MB string gives a 1 MB `union_tag_invalid` message. Every entry point that
chatschema owns (the generated parse functions, and the models' constructors, `model_validate` and
`model_validate_json`) passes its errors through `bounded`, which quotes such a tag as its start
and its length. A `TypeAdapter` of the TypedDicts is Pydantic's own, and is not covered.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from pydantic import ValidationError
    from pydantic_core import InitErrorDetails

TAG_LIMIT = 60
"""The longest tag quoted whole in an error message."""


def short_tag(tag: str) -> str:
    """`tag` if it is at most `TAG_LIMIT` characters, else its start, `...` and its length."""
    if len(tag) <= TAG_LIMIT:
        return tag
    return f"{tag[: TAG_LIMIT - 20]}... ({len(tag):,} characters)"


def bounded(exc: ValidationError) -> ValidationError:
    """`exc` itself, or, if it quotes a tag longer than `TAG_LIMIT`, the same errors (types,
    locations, inputs and contexts) with that tag shortened by `short_tag`. A custom error whose
    message holds one of its own placeholders as text (`{name}`) keeps its message, without its
    context: Pydantic would fill that text in a second time."""
    errors = exc.errors(include_url=False)
    if not any(_long_tag(error) for error in errors):
        return exc
    from pydantic import ValidationError

    details = [_details(error) for error in errors]
    shorter = ValidationError.from_exception_data(exc.title, details)
    # Pydantic words some errors of JSON input its own way ("a valid array", not "a valid list"),
    # and the error does not say which input it had: the wording that renders every kept message.
    rendered = shorter.errors(include_url=False)
    if any(e["msg"] != r["msg"] for e, r in zip(errors, rendered, strict=True) if not _long_tag(e)):
        shorter = ValidationError.from_exception_data(exc.title, details, input_type="json")
    return shorter


def raise_bounded(exc: ValidationError) -> NoReturn:
    """Raise `bounded(exc)`: `exc` itself, or its shortened copy in its place."""
    shorter = bounded(exc)
    if shorter is exc:
        raise exc
    raise shorter from None


def _long_tag(error: Any) -> bool:
    tag = (error.get("ctx") or {}).get("tag")
    return error["type"] == "union_tag_invalid" and isinstance(tag, str) and len(tag) > TAG_LIMIT


def _details(error: Any) -> InitErrorDetails:
    from pydantic_core import InitErrorDetails, PydanticCustomError

    context = dict(error.get("ctx") or {})
    if _long_tag(error):
        context["tag"] = short_tag(context["tag"])
    kind: Any = error["type"]
    if kind not in _known_types():  # a custom error: rebuilt from its rendered message
        kind = PydanticCustomError(kind, error["msg"], context or None)
        if kind.message() != error["msg"]:  # its text quotes a placeholder: kept, without the context
            kind, context = PydanticCustomError(kind.type, error["msg"]), {}
    details = InitErrorDetails(type=kind, loc=error["loc"], input=error["input"])
    if context:
        details["ctx"] = context
    return details


@cache
def _known_types() -> frozenset[str]:
    from typing import get_args

    from pydantic_core.core_schema import ErrorType

    return frozenset(get_args(ErrorType))
