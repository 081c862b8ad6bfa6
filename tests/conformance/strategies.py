"""Hypothesis strategies: valid instances from the schemas, and instances built from the generated models.

From the schemas: hypothesis-jsonschema's `from_schema` over the bundled document of a type
(bundle.py). Where it cannot be trusted, the bundle is adjusted before it sees it:
- `format: date-time`: its own strategy only writes Python's `isoformat()`; RFC 3339 also allows
  `t`/`z`, `-00:00`, any number of fraction digits and odd offsets, so a custom format
  (`x-rfc3339`) generates all of those.
Everything it produces is still checked against the real schema (the oracle) before use.

From the code: `model_strategy` reads the generated Pydantic models' own field annotations
(not the schema) and builds instances through the model constructors.
"""

from __future__ import annotations

import importlib
import json
import types
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from typing import Any
from unittest.mock import patch

from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants
from hypothesis_jsonschema import from_schema
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from typing_extensions import TypeAliasType

from release.evolution.instances import RFC3339, for_generation, rfc3339
from tests.conformance.bundle import bundle

_text = st.text(st.characters(codec="utf-8"), max_size=12)
_keys = st.text(st.characters(codec="utf-8"), max_size=8)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.floats(allow_nan=False, allow_infinity=False) | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=3),
    max_leaves=8,
)
json_objects = st.dictionaries(_keys, json_values, max_size=4)


def _no_constants() -> Constants:
    return Constants()


@contextmanager
def seed_pins_draws() -> Iterator[None]:
    """Draw with nothing but the seed deciding what comes out.

    Hypothesis (6.131) mixes into its draws the literals it finds in the source of every local module
    then in `sys.modules` (`providers._get_local_constants`: chatschema/, codegen/, release/, ...). So
    the same seed drew other cases after any edit to those files, after a change in which of them were
    imported (a lazy import, `--only` against the full run), and after other hypothesis tests of the
    same process had filled its constant cache. The pool is empty while the harness draws; hypothesis'
    own built-in constants stay. hypothesis is pinned (requirements/), so the private name is stable.
    """
    with patch.object(providers, "_get_local_constants", _no_constants):
        providers.CONSTANTS_CACHE.cache.clear()  # filled from local constants by earlier draws
        try:
            yield
        finally:
            providers.CONSTANTS_CACHE.cache.clear()


@cache
def schema_strategy(name: str) -> st.SearchStrategy[Any]:
    """Valid instances of `<family>/<Type>`, generated from its schema."""
    return from_schema(for_generation(bundle(name)), custom_formats={RFC3339: rfc3339()})


# --- from the code --------------------------------------------------------------------------


def generated_type(name: str) -> Any:
    family, type_name = name.split("/")
    return getattr(importlib.import_module(f"chatschema.{family}"), type_name)


def _offsets() -> st.SearchStrategy[timezone]:
    return st.integers(-(23 * 60 + 59), 23 * 60 + 59).map(lambda m: timezone(timedelta(minutes=m)))


def _metadata(tp: Any) -> tuple[Any, list[Any]]:
    if typing.get_origin(tp) is typing.Annotated:
        return typing.get_args(tp)[0], list(tp.__metadata__)
    return tp, []


def annotation_strategy(tp: Any) -> st.SearchStrategy[Any]:
    """Python values of a generated annotation: what a programmer may pass to a model constructor."""
    if isinstance(tp, TypeAliasType):
        return annotation_strategy(tp.__value__)
    tp, meta = _metadata(tp)
    if isinstance(tp, TypeAliasType):
        return annotation_strategy(tp.__value__)
    pattern = next((getattr(m, "pattern", None) for m in meta if getattr(m, "pattern", None)), None)
    if pattern is None:
        pattern = next(
            (
                getattr(x, "pattern", None)
                for m in meta
                for x in getattr(m, "metadata", [])
                if getattr(x, "pattern", None)
            ),
            None,
        )
    if tp is datetime:
        return st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=_offsets())
    if tp is str:
        return st.from_regex(pattern, fullmatch=True) if pattern else _text
    if tp is bool:
        return st.booleans()
    if tp is int:
        return st.integers(-(2**63), 2**63)
    if tp is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if tp is type(None):
        return st.none()
    if tp is Any:
        return json_values
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (types.UnionType, typing.Union):
        return st.one_of([annotation_strategy(a) for a in args if not _is_missing(a)])
    if origin is list:
        return st.lists(annotation_strategy(args[0]), max_size=3)
    if origin is dict:
        return st.dictionaries(_keys, annotation_strategy(args[1]), max_size=3)
    if tp is dict:
        return json_objects
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return model_strategy(tp)
    raise TypeError(f"no strategy for {tp!r}")


def _is_missing(tp: Any) -> bool:
    return getattr(tp, "__name__", "") == "MISSING" or repr(tp) == "MISSING"


def _optional_field(field: FieldInfo) -> bool:
    return not field.is_required()


@cache
def model_strategy(model: type[BaseModel]) -> st.SearchStrategy[Any]:
    """Instances of a generated model built with its constructor from its own field types (a ValueError
    from the constructor, e.g. a model validator, is returned as is for the caller to count)."""
    fields = {}
    for name, field in model.model_fields.items():
        strategy = annotation_strategy(field.annotation)
        fields[name] = (strategy, _optional_field(field))

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        kwargs = {}
        for name, (strategy, optional) in fields.items():
            if optional and draw(st.booleans()):
                continue  # leave it unset: its default (or MISSING) applies
            kwargs[name] = draw(strategy)
        try:
            return model(**kwargs)
        except ValueError as error:
            return error

    return build()


def code_strategy(name: str) -> st.SearchStrategy[Any]:
    """Instances of `<family>/<Type>` built from the generated Pydantic code (a model, or a value of an alias)."""
    return annotation_strategy(generated_type(name))


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


__all__ = ["UTC", "code_strategy", "json_values", "rfc3339", "schema_strategy"]
