"""hypothesis-jsonschema's two slowest steps, done by faster means that give the same results.

hypothesis-jsonschema (0.23.1, pinned) spent most of the time it took to build letta/WireMessage's
generator and draw 4 instances (60 s) in two things, which `speedups()` replaces while it is active:

- `check_schema`: it checks the schemas it is given, and each subschema it canonicalises, against a
  metaschema, to reject bad schemas and to choose the validator class it works with. jsonschema's
  check of a 2020-12 schema spends its time resolving the metaschema's `$dynamicRef`s (50 of the
  60 s). jsonschema-rs checks first, every format judged by jsonschema's own format checker (this one
  does not check `uri-reference`; jsonschema-rs would); jsonschema checks only what jsonschema-rs
  finds invalid. So the same schemas pass and the same errors are raised.
- its canonical JSON text (integer-valued floats written as integers), which keys its caches and
  orders subschemas: written by the stdlib's pure-Python encoder. The same text comes from the C
  encoder once such floats are made integers (for a float key or a non-finite float, its own way).

Building and drawing letta/WireMessage took 4.3 s with both (same draws).

It also builds each strategy once: an object's strategy builds the strategy of each key's value
anew at every draw of the key (`merged_as_strategies`, `__from_schema`: resolve, canonicalise, merge),
which was most of the time the conformance harness spent drawing. Within `speedups()` both are
remembered by their arguments: the schemas' canonical JSON (the text its own caches key by and
canonicalisation starts from) and the very alphabet and custom-format objects.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import jsonschema_rs
from hypothesis_jsonschema import _canonicalise, _encode, _from_schema
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker

# every format the specification defines: none is left to jsonschema-rs's own checks
FORMATS = (
    "date", "date-time", "duration", "email", "hostname", "idn-email", "idn-hostname", "ipv4", "ipv6", "iri",
    "iri-reference", "json-pointer", "regex", "relative-json-pointer", "time", "uri", "uri-reference",
    "uri-template", "uuid",
)  # fmt: skip
# the drafts hypothesis-jsonschema meets: 2020-12 (a schema without `$schema`) and 7 (generation schemas)
SAME_DRAFT: dict[type[Any], Any] = {
    Draft202012Validator: jsonschema_rs.Draft202012Validator,
    Draft7Validator: jsonschema_rs.Draft7Validator,
}
_ORIGINAL = {cls: cls.__dict__["check_schema"] for cls in SAME_DRAFT}
# the modules that call the canonical encoder by its name
ENCODER_USERS = (_canonicalise, _encode, _from_schema)
_original_encoder = _encode.encode_canonical_json
_c_encoder = json.JSONEncoder(sort_keys=True)
_compiled: dict[type[Any], Any] = {}


def _conforms(checker: FormatChecker, name: str, value: Any) -> bool:
    return checker.conforms(value, name)


def _metaschema_validator(cls: type[Any]) -> Any:
    """jsonschema-rs over `cls`'s metaschema, with `cls`'s format checker (compiled once)."""
    if cls not in _compiled:
        formats = {name: partial(_conforms, cls.FORMAT_CHECKER, name) for name in FORMATS}
        _compiled[cls] = SAME_DRAFT[cls](cls.META_SCHEMA, validate_formats=True, formats=formats)
    return _compiled[cls]


def _quick_check(cls: type[Any], schema: Any, *args: Any, **kwargs: Any) -> None:
    if not args and not kwargs and _metaschema_validator(cls).is_valid(schema):
        return  # valid: jsonschema would raise nothing
    _ORIGINAL[cls].__func__(cls, schema, *args, **kwargs)


class _Unusual(Exception):
    """A value the C encoder would write otherwise (a float key, a non-finite float)."""


def _integral_floats(value: Any) -> Any:
    """`value` with each integer-valued float an integer (a copy)."""
    kind = type(value)
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _Unusual
            out[key] = _integral_floats(item)
        return out
    if kind is list or kind is tuple:
        return [_integral_floats(item) for item in value]
    if kind is float:
        if not math.isfinite(value):
            raise _Unusual
        return int(value) if value == int(value) else value
    return value


def canonical_json(value: Any) -> str:
    """hypothesis-jsonschema's `encode_canonical_json(value)`, by the C encoder."""
    try:
        return _c_encoder.encode(_integral_floats(value))
    except _Unusual:
        return _original_encoder(value)


# the strategy builders of hypothesis-jsonschema that object draws call again and again (by their
# names in _from_schema), and what each built: {key: (alphabet, custom formats, strategy)}
BUILDERS = ("merged_as_strategies", "__from_schema")
_ORIGINAL_BUILDERS = {name: _from_schema.__dict__[name] for name in BUILDERS}
_built: dict[tuple[str, str, int, int], tuple[Any, Any, Any]] = {}


def _remembered(name: str) -> Callable[..., Any]:
    """hypothesis-jsonschema's builder `name`, returning what it built before for the same arguments.
    The alphabet and formats are kept with the strategy, so their ids cannot be reused by others."""

    def remembered(schemas: Any, *, alphabet: Any, custom_formats: Any) -> Any:
        key = (name, canonical_json(schemas), id(alphabet), id(custom_formats))
        found = _built.get(key)
        if found is None:
            build = _ORIGINAL_BUILDERS[name]
            found = (alphabet, custom_formats, build(schemas, alphabet=alphabet, custom_formats=custom_formats))
            _built[key] = found
        return found[2]

    return remembered


_REMEMBERED = {name: _remembered(name) for name in BUILDERS}


@contextmanager
def speedups() -> Iterator[None]:
    """Within: hypothesis-jsonschema's metaschema checks, canonical JSON and strategy building made
    as above. Not thread-safe: one thread generates."""
    checks = {cls: cls.__dict__["check_schema"] for cls in SAME_DRAFT}
    encoders = {module: getattr(module, "encode_canonical_json") for module in ENCODER_USERS}  # noqa: B009
    builders = {name: _from_schema.__dict__[name] for name in BUILDERS}
    for cls in SAME_DRAFT:
        setattr(cls, "check_schema", classmethod(_quick_check))  # noqa: B010
    for module in ENCODER_USERS:
        setattr(module, "encode_canonical_json", canonical_json)  # noqa: B010
    for name in BUILDERS:
        setattr(_from_schema, name, _REMEMBERED[name])
    try:
        yield
    finally:
        for cls, method in checks.items():
            setattr(cls, "check_schema", method)  # noqa: B010
        for module, encoder in encoders.items():
            setattr(module, "encode_canonical_json", encoder)  # noqa: B010
        for name, builder in builders.items():
            setattr(_from_schema, name, builder)
