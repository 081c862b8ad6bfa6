"""Hypothesis strategies: valid instances from the schemas, and instances built from the generated models.

From the schemas: hypothesis-jsonschema's `from_schema` over the bundled document of a type
(bundle.py). Where it cannot be trusted, the bundle is adjusted before it sees it:
- `format: date-time`: its own strategy only writes Python's `isoformat()`; RFC 3339 also allows
  `t`/`z`, `-00:00`, any number of fraction digits and odd offsets, so a custom format
  (`x-rfc3339`) generates all of those.
- it reads drafts 4 to 7 without recursive `$ref`s (`for_hypothesis`): a recursive type is
  unrolled, `prefixItems`, `dependentRequired` and `dependentSchemas` are written in draft 7's
  words, and where no draft 7 word says the same (`minContains`, `maxContains`) the draws are
  filtered through the schema. A schema that needs none of this is given as it is.
Everything it produces is still checked against the real schema (the oracle) before use.

From the code: `model_strategy` reads the generated Pydantic models' own field annotations
(not the schema) and builds instances through the model constructors; the size and bound
constraints of the validation vocabulary (`min_length`, `ge`, ...), where a field has them, shape
what it draws.
"""

from __future__ import annotations

import copy
import importlib
import json
import math
import random
import types
import typing
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction
from functools import cache, partial
from pathlib import Path
from typing import Any
from unittest.mock import patch

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from typing_extensions import TypeAliasType

from release.evolution.instances import RFC3339, for_generation, rfc3339
from release.evolution.speedups import speedups
from tests.conformance.bundle import SCHEMAS, bundle

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
def schema_strategy(name: str, root: Path = SCHEMAS) -> st.SearchStrategy[Any]:
    """Valid instances of `<family>/<Type>`, generated from its schema (`root`: see bundle.family_defs)."""
    bundled = bundle(name, root)
    if recursive(bundled):
        return recursive_strategy(bundled).filter(Draft202012Validator(bundled).is_valid)
    doc, approximate = for_hypothesis(bundled)
    with speedups():
        strategy = from_schema(for_generation(doc), custom_formats={RFC3339: rfc3339()})
    return strategy.filter(Draft202012Validator(bundled).is_valid) if approximate else strategy


# --- a 2020-12 bundle for hypothesis-jsonschema ---------------------------------------------------

DRAFT_7 = "http://json-schema.org/draft-07/schema#"
UNROLL = 2  # how many levels of a recursive type the pools below a generated instance hold
MARKER = "x-conformance-recursion:"  # drawn where a recursive type recurs, then replaced by a draw of it
# what hypothesis-jsonschema does not read: keywords after draft 7
LATER = frozenset({"prefixItems", "dependentRequired", "dependentSchemas", "minContains", "maxContains"})
# where a schema holds subschemas: one, a list, a map of them
_ONE = ("items", "additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else")
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_MAPS = ("properties", "patternProperties", "dependentSchemas")
_DATA = ("$defs", "const", "enum", "default", "examples")


def _subschemas(node: Any, change: Callable[[Any], Any]) -> Any:
    """A schema with `change` applied to each of its direct subschemas (not to `$defs`)."""
    if not isinstance(node, dict):
        return node
    out = dict(node)
    for key, value in node.items():
        if key in _ONE:
            out[key] = change(value)
        elif key in _LISTS and isinstance(value, list):
            out[key] = [change(v) for v in value]
        elif key in _MAPS and isinstance(value, dict):
            out[key] = {k: change(v) for k, v in value.items()}
    return out


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for key, value in node.items():
            if key not in _DATA:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _name(ref: str) -> str:
    """The type a bundle's local `$ref` names: `#` for the bundle's own type."""
    return "#" if ref == "#" else ref.rsplit("/", 1)[-1]


def _named(doc: dict[str, Any], name: str) -> Any:
    return doc if name == "#" else doc.get("$defs", {})[name]


def _reaches(doc: dict[str, Any], start: str, goal: str) -> bool:
    """Whether the type `start` refers to `goal`, at any remove."""
    seen: set[str] = set()
    todo = [_name(r) for r in _refs(_named(doc, start))]
    while todo:
        current = todo.pop()
        if current == goal:
            return True
        if current not in seen:
            seen.add(current)
            todo += [_name(r) for r in _refs(_named(doc, current))]
    return False


def _looping(doc: dict[str, Any]) -> set[str]:
    """The types of a bundle that hold themselves, at any remove (`#`: the bundle's own type)."""
    return {n for n in ["#", *doc.get("$defs", {})] if _reaches(doc, n, n)}


def recursive(doc: dict[str, Any]) -> bool:
    """Whether a bundle has a type that holds itself (whether its `$ref`s form a cycle)."""
    return bool(_looping(doc))


def _inlined(node: Any, doc: dict[str, Any], looping: set[str], cut: bool) -> Any:
    """`node` with every `$ref` inlined, except one to a type of `looping`: MARKER and its name
    (`false` if `cut`: no instance goes deeper)."""
    out = _subschemas(node, lambda sub: _inlined(sub, doc, looping, cut))
    if not isinstance(out, dict):
        return out
    out.pop("$defs", None)
    out.pop("$schema", None)  # an inlined document (the type itself, `#`) is no document of its own
    ref = out.pop("$ref", None)
    if not isinstance(ref, str):
        return out
    name = _name(ref)
    if name in looping:
        resolved: Any = False if cut else {"const": MARKER + name}
    else:
        resolved = _inlined(_named(doc, name), doc, looping, cut)
    return {**out, "allOf": [*out.get("allOf", []), resolved]} if out else resolved


def draw(strategy: Any, count: int, seed: int) -> list[Any]:
    """`count` examples of a strategy, the same ones for the same seed (no database, no shrinking)."""
    found: list[Any] = []
    if count <= 0:
        return found

    @settings(
        max_examples=count,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    @hypothesis_seed(seed)
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    with seed_pins_draws(), speedups():
        collect()
    return found


POOL = 6  # instances of a recursive type drawn per depth, for the levels above to hold


def recursive_strategy(doc: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Instances of a recursive bundle (hypothesis-jsonschema reads no recursive `$ref`).

    Each type that holds itself is drawn from its own schema with MARKER where it recurs (a small
    schema: cheap to draw), and each marker replaced by an instance of the type it names. Those come
    from pools drawn beforehand, from the bottom up: instances that stop there (`false` where the
    type would recur), then UNROLL times instances whose markers hold ones of the pool below. One
    example holding a whole tree would outgrow what hypothesis draws for one example, which drops it:
    the pools keep the trees deep. The pools are the same for every seed of the run (a seed of the
    bundle's own); the level on top, and which pool members it holds, follow the seed. The caller
    filters the result through the schema (a recursion beside other keywords, `{"$ref": "#",
    "maxItems": 2}`, is not checked by the markers)."""
    looping = sorted(_looping(doc))

    def level(name: str, cut: bool) -> st.SearchStrategy[Any]:
        schema, _ = for_hypothesis({**_inlined(_named(doc, name), doc, set(looping), cut), "$schema": DRAFT_7})
        with speedups():
            return from_schema(for_generation(schema), custom_formats={RFC3339: rfc3339()})

    seed = zlib.crc32(json.dumps(doc, sort_keys=True).encode())
    rng = random.Random(seed)
    pools = {name: draw(level(name, True), POOL, seed) for name in looping}
    for depth in range(1, UNROLL + 1):
        below = {name: list(pool) for name, pool in pools.items()}
        for name in looping:
            drawn = draw(level(name, False), POOL, seed + depth)
            pools[name] += [_filled(x, partial(_choice, rng, below)) for x in drawn]

    @st.composite
    def instance(draw_from: st.DrawFn) -> Any:
        top = draw_from(level("#", False))
        return _filled(top, lambda n: draw_from(st.sampled_from(pools[n])))

    return instance()


def _choice(rng: random.Random, pools: dict[str, list[Any]], name: str) -> Any:
    return rng.choice(pools[name])


def _filled(value: Any, pick: Callable[[str], Any]) -> Any:
    """`value` with each MARKER replaced by `pick(<the type it names>)`."""
    if isinstance(value, str) and value.startswith(MARKER):
        return copy.deepcopy(pick(value.removeprefix(MARKER)))
    if isinstance(value, list):
        return [_filled(v, pick) for v in value]
    if isinstance(value, dict):
        return {k: _filled(v, pick) for k, v in value.items()}
    return value


def _draft7(node: Any) -> Any:
    """A 2020-12 schema in draft 7's words, as far as they go (see `for_hypothesis`)."""
    out = _subschemas(node, _draft7)
    if not isinstance(out, dict):
        return out
    if "prefixItems" in out:
        out["additionalItems"] = out.pop("items", True)
        out["items"] = out.pop("prefixItems")
    dependencies: dict[str, Any] = {k: list(v) for k, v in out.pop("dependentRequired", {}).items()}
    for key, sub in out.pop("dependentSchemas", {}).items():
        dependencies[key] = {"allOf": [{"required": dependencies[key]}, sub]} if key in dependencies else sub
    if dependencies:
        out["dependencies"] = dependencies
    low, high = out.pop("minContains", 1), out.pop("maxContains", None)
    if low == 0 and "contains" in out and not isinstance(out.get("items"), list):
        # no matching item at all: a subset of what `maxContains` allows (its boundary cases are mutations)
        out["items"] = {"allOf": [out.get("items", True), {"not": out.pop("contains")}]}
    elif "contains" in out and (low != 1 or high is not None):
        out["x-approximate"] = True  # draft 7's `contains` says at least one: the draws are filtered
    if "$defs" in out:
        out["$defs"] = {k: _draft7(v) for k, v in out["$defs"].items()}
    return out


def _uses(node: Any, keywords: frozenset[str]) -> bool:
    if isinstance(node, dict):
        return bool(keywords & node.keys()) or any(_uses(v, keywords) for k, v in node.items() if k not in _DATA[1:])
    return isinstance(node, list) and any(_uses(v, keywords) for v in node)


def for_hypothesis(doc: dict[str, Any]) -> tuple[Any, bool]:
    """A bundle with no recursion as hypothesis-jsonschema (drafts 4 to 7) can read it, and whether
    what it then draws only approximates the schema (to be filtered through it).

    `prefixItems` and `items` become draft 7's `items` list and `additionalItems`; `dependentRequired`
    and `dependentSchemas` become `dependencies`. `minContains` and `maxContains` have no draft 7
    form: with `minContains` 0 the items are drawn matching none (a subset), otherwise `contains`
    stays (at least one) and, unless that is exactly the rule, the draws are approximate. A bundle
    that needs none of this comes back as it is (the same draws as ever for the same seed)."""
    if not _uses(doc, LATER):
        return doc, False
    out = _draft7(doc)
    return {**out, "$schema": DRAFT_7}, _uses(out, frozenset({"x-approximate"}))


# --- from the code --------------------------------------------------------------------------


def generated_type(name: str) -> Any:
    """The generated Pydantic type (a model or an alias) of `<family>/<Type>`."""
    family, type_name = name.split("/")
    return getattr(importlib.import_module(f"chatschema.{family}"), type_name)


def _offsets() -> st.SearchStrategy[timezone]:
    return st.integers(-(23 * 60 + 59), 23 * 60 + 59).map(lambda m: timezone(timedelta(minutes=m)))


def _metadata(tp: Any) -> tuple[Any, list[Any]]:
    if typing.get_origin(tp) is typing.Annotated:
        return typing.get_args(tp)[0], list(tp.__metadata__)
    return tp, []


_BOUNDS = ("min_length", "max_length", "ge", "gt", "le", "lt", "multiple_of")
_BUILDING: set[Any] = set()  # models and aliases whose strategy is being built (a recursive type meets itself)


def _constraints(meta: list[Any]) -> dict[str, Any]:
    """The size and bound constraints among annotation metadata (annotated-types' MinLen, Ge, ...,
    also inside a `Field(...)`), by pydantic's names: what the validation vocabulary becomes."""
    found: dict[str, Any] = {}
    for m in meta:
        inner = getattr(m, "metadata", None)
        for x in [m, *(inner if isinstance(inner, list) else [])]:
            for attr in _BOUNDS:
                if getattr(x, attr, None) is not None:
                    found.setdefault(attr, getattr(x, attr))
    return found


def _pattern(meta: list[Any]) -> str | None:
    found = [getattr(x, "pattern", None) for m in meta for x in [m, *(getattr(m, "metadata", None) or [])]]
    return next((p for p in found if isinstance(p, str)), None)


def _within(low: Any, high: Any) -> Callable[[Any], bool]:
    return lambda x: (low is None or len(x) >= low) and (high is None or len(x) <= high)


def _number(tp: Any, bounds: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Numbers within a field's bounds (and on its steps)."""
    low = bounds.get("ge", bounds.get("gt"))
    high = bounds.get("le", bounds.get("lt"))
    step = bounds.get("multiple_of")
    if step is not None:
        lo = None if low is None else math.ceil(Fraction(str(low)) / Fraction(str(step)))
        hi = None if high is None else math.floor(Fraction(str(high)) / Fraction(str(step)))
        return st.integers(lo, hi).map(lambda k: tp(k * step))
    if tp is int:
        lo = None if low is None else math.floor(low) + 1 if "gt" in bounds else math.ceil(low)
        hi = None if high is None else math.ceil(high) - 1 if "lt" in bounds else math.floor(high)
        return st.integers(-(2**63) if lo is None else lo, 2**63 if hi is None else hi)
    return st.floats(
        low, high, allow_nan=False, allow_infinity=False, exclude_min="gt" in bounds, exclude_max="lt" in bounds
    )


def _bounded(tp: Any, bounds: dict[str, Any], meta: list[Any]) -> st.SearchStrategy[Any]:
    """Values of `tp` within the constraints of the validation vocabulary (a field's `min_length`, `ge`, ...)."""
    low, high = bounds.get("min_length"), bounds.get("max_length")
    top = high if high is not None else (low or 0) + 12
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is str:
        pattern = _pattern(meta)
        text = (
            st.from_regex(pattern)
            if pattern
            else st.text(st.characters(codec="utf-8"), min_size=low or 0, max_size=top)
        )
        return text.filter(_within(low, high))
    if tp in (int, float):
        return _number(tp, bounds)
    if origin is list:
        return st.lists(annotation_strategy(args[0]), min_size=low or 0, max_size=min(top, (low or 0) + 3))
    if origin is dict:
        items = annotation_strategy(args[1])
        return st.dictionaries(_keys, items, min_size=low or 0, max_size=min(top, (low or 0) + 3))
    return annotation_strategy(tp)


def _alias(tp: TypeAliasType, constraints: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    if tp in _BUILDING:  # a recursive alias: drawn lazily, once the strategy exists
        return st.deferred(lambda: annotation_strategy(tp.__value__, constraints))
    _BUILDING.add(tp)
    try:
        return annotation_strategy(tp.__value__, constraints)
    finally:
        _BUILDING.discard(tp)


def annotation_strategy(tp: Any, constraints: tuple[Any, ...] = ()) -> st.SearchStrategy[Any]:
    """Python values of a generated annotation: what a programmer may pass to a model constructor.
    `constraints`: a field's own metadata (`Field(max_length=...)`), which applies to the value."""
    if isinstance(tp, TypeAliasType):
        return _alias(tp, constraints)
    tp, meta = _metadata(tp)
    if isinstance(tp, TypeAliasType):
        return _alias(tp, constraints)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        return st.one_of([annotation_strategy(a, (*constraints, *meta)) for a in args if not _is_missing(a)])
    bounds = _constraints([*constraints, *meta])
    if bounds:
        return _bounded(tp, bounds, [*constraints, *meta])
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
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin is list:
        return st.lists(annotation_strategy(args[0]), max_size=3)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(annotation_strategy(args[0]), max_size=3).map(tuple)
        return st.tuples(*(annotation_strategy(a) for a in args))
    if origin in (set, frozenset):
        return st.frozensets(annotation_strategy(args[0]), max_size=3).map(origin)
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


def model_strategy(model: type[BaseModel]) -> st.SearchStrategy[Any]:
    """Instances of a generated model built with its constructor from its own field types (a ValueError
    from the constructor, e.g. a model validator, is returned as is for the caller to count). A model
    that holds itself (a tree) is drawn lazily where it recurs."""
    if model in _BUILDING:
        return st.deferred(lambda: model_strategy(model))
    return _model_strategy(model)


@cache
def _model_strategy(model: type[BaseModel]) -> st.SearchStrategy[Any]:
    fields = {}
    _BUILDING.add(model)
    try:
        for name, field in model.model_fields.items():
            strategy = annotation_strategy(field.annotation, tuple(field.metadata))
            fields[name] = (strategy, _optional_field(field))
    finally:
        _BUILDING.discard(model)

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
    """JSON text with keys sorted, characters as they are."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


__all__ = ["UTC", "code_strategy", "json_values", "rfc3339", "schema_strategy"]
