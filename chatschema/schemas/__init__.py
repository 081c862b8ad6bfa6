"""The shipped schemas, validated offline with plain `jsonschema` (copied into chatschema by codegen).

Schemas are addressed as `<family>/<TypeName>`, for example `docent/ChatMessage`.
The registry is built from the JSON files inside this package; nothing is ever fetched.
"""

from __future__ import annotations

import calendar
import difflib
import json
import re
import reprlib
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from importlib.resources import files
from itertools import islice
from typing import Any, Literal, TypeVar, cast, overload
from urllib.parse import urljoin

from jsonschema import Draft202012Validator, FormatChecker, _keywords, validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator as _Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from chatschema import _pointers
from chatschema.jsontext import MAX_DEPTH, refused

__all__ = [
    "FORMAT_CHECKER",
    "MAX_VIOLATIONS",
    "PayloadError",
    "Union",
    "UnknownSchemaError",
    "Violation",
    "families",
    "formats_used",
    "is_date_time",
    "is_valid",
    "json_path",
    "names",
    "refs",
    "registry",
    "resources",
    "schema",
    "schema_id",
    "short_repr",
    "unions",
    "validate",
    "validator",
    "verdict_validator",
    "violations",
    "violations_counted",
]

DRAFT = "https://json-schema.org/draft/2020-12/schema"

MAX_VIOLATIONS = 20
"""At most this many violations are kept per payload; the others are only counted."""

# The project's one `format: date-time` rule (RFC 3339 section 5.6), shared with the npm package's
# ajv validator (npm/esm/formats.js) so both give the same verdicts: ASCII digits only,
# `T`/`Z` in either case, a mandatory offset, a real calendar day, no leap second (Python's datetime
# cannot hold one), nothing after the offset (Python's `$` would allow a trailing newline, ECMAScript's not).
_DATE_TIME = re.compile(
    r"([0-9]{4})-(0[1-9]|1[0-2])-([0-9]{2})[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?"
    r"([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
)


def is_date_time(value: str) -> bool:
    """Whether `value` is an RFC 3339 date-time under the project's rule (see `FORMAT_CHECKER`)."""
    match = _DATE_TIME.fullmatch(value)
    if match is None:
        return False
    year, month, day = int(match[1]), int(match[2]), int(match[3])
    return year >= 1 and 1 <= day <= calendar.monthrange(year, month)[1]


FORMAT_CHECKER = FormatChecker(formats=())
"""The formats the schemas use, each checked by the project's own rule, the same in Python and ajv."""


@FORMAT_CHECKER.checks("date-time")
def _check_date_time(instance: object) -> bool:
    return not isinstance(instance, str) or is_date_time(instance)


class UnknownSchemaError(KeyError):
    """No shipped schema has this name; the message lists the closest names."""

    def __init__(self, name: str) -> None:
        _require_name(name)
        close = difflib.get_close_matches(name, names(), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; known families: {', '.join(families())}"
        self.name = name
        self.close_matches = close
        super().__init__(f"unknown schema {short_repr(name)}{hint}")

    def __str__(self) -> str:
        return str(self.args[0])


def _require_name(name: object) -> None:
    if not isinstance(name, str):
        raise TypeError(f"a schema name is a string such as 'docent/ChatMessage', not {type(name).__name__}")


@dataclass(frozen=True)
class Violation:
    """One reason a payload is invalid: where (a JSONPath into the payload) and why, the keyword,
    and in ajv's terms (as the npm package gives them): `instance_path`, a JSON Pointer into the
    payload (for `required`, the missing key's own: `/content`), `schema_path`, the failing
    keyword's location in the family bundle (`#/$defs/UserMessage/required`; empty for the
    package's own rules, `maxDepth` and `maxNumber`), and `params`, ajv's params of the keyword
    (`{"missingProperty": "content"}`). Two violations are equal when they say the same thing at
    the same place: path, message and keyword."""

    path: str
    message: str
    keyword: str
    instance_path: str = field(default="", compare=False)
    schema_path: str = field(default="", compare=False)
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        """The violation as the npm package's `violations()` gives it, and as `chatschema validate
        --format json` writes it: `path`, `message`, `keyword`, `instancePath`, `schemaPath`, `params`."""
        return {
            "path": self.path,
            "message": self.message,
            "keyword": self.keyword,
            "instancePath": self.instance_path,
            "schemaPath": self.schema_path,
            "params": self.params,
        }


class PayloadError(ValueError):
    """A payload is not valid under a schema; lists its violations (at most `MAX_VIOLATIONS`) with
    their JSONPath, and counts the others in `omitted`."""

    def __init__(self, schema_name: str, violations: list[Violation], omitted: int = 0) -> None:
        self.schema_name = schema_name
        self.violations = violations
        self.omitted = omitted
        total = len(violations) + omitted
        count = f"{total} violation{'s' if total != 1 else ''}"
        if omitted:
            count += f", the first {len(violations)} shown"
        lines = "\n".join(f"  {v}" for v in violations)
        super().__init__(f"payload is not a valid {schema_name} ({count}):\n{lines}")


@cache
def _documents() -> dict[str, tuple[str, dict[str, Any]]]:
    """Shipped schema files: `$id` -> (family, contents)."""
    docs: dict[str, tuple[str, dict[str, Any]]] = {}
    root = files(__name__)
    for family_dir in sorted(root.iterdir(), key=lambda p: p.name):
        if not family_dir.is_dir() or family_dir.name.startswith("_"):
            continue
        for entry in sorted(family_dir.iterdir(), key=lambda p: p.name):
            if entry.name.endswith(".json"):
                contents = json.loads(entry.read_text(encoding="utf-8"))
                docs[contents["$id"]] = (family_dir.name, contents)
    return docs


@cache
def _index() -> dict[str, str]:
    """`<family>/<TypeName>` -> absolute URI of its `$defs` entry."""
    index: dict[str, str] = {}
    for uri, (family, contents) in _documents().items():
        for type_name in contents.get("$defs", {}):
            index[f"{family}/{type_name}"] = f"{uri}#/$defs/{type_name}"
    return dict(sorted(index.items()))


def names() -> list[str]:
    """Every schema name, sorted: `["docent/AssistantMessage", ...]`."""
    return list(_index())


def families() -> list[str]:
    """The schema families shipped, sorted."""
    return sorted({name.partition("/")[0] for name in _index()})


def schema_id(name: str) -> str:
    """The absolute URI of a named type, e.g. `https://chatschema.dev/schemas/docent/message.json#/$defs/ChatMessage`.

    Raises `UnknownSchemaError` for an unknown name, `TypeError` for a name that is not a string.
    """
    _require_name(name)
    try:
        return _index()[name]
    except KeyError:
        raise UnknownSchemaError(name) from None


def refs(node: Any) -> Iterator[str]:
    """Every `$ref` in a schema document, as written (data keywords such as `const` are skipped)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            elif key not in ("const", "default", "enum", "examples"):
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def schema(name: str) -> dict[str, Any]:
    """A standalone schema for one type: a `$ref` to it, to be used with `registry()`."""
    return {"$schema": DRAFT, "$ref": schema_id(name)}


@cache
def registry() -> Registry:
    """A `referencing.Registry` of every shipped schema file; it retrieves nothing."""
    return (
        Registry()
        .with_resources(
            (uri, Resource.from_contents(contents, default_specification=DRAFT202012))
            for uri, (_, contents) in _documents().items()
        )
        .crawl()
    )


@overload
def validator(name: str, *, dispatch: Literal[False]) -> Draft202012Validator: ...
@overload
def validator(name: str, *, dispatch: bool = True) -> _Validator: ...
def validator(name: str, *, dispatch: bool = True) -> _Validator:
    """A cached validator for a named type, with formats checked.

    By default every tagged union (`oneOf` + `discriminator`) is validated by its tag: the
    validator reads the tag and validates only the branch it names, which gives the same verdict
    as the plain `oneOf` (the other branches all fail on their `const` tag) far faster. A missing
    or unknown tag gives the same verdict and, in `violations()`, the same explanation; the raw
    `oneOf` error then lists only the tag error of each branch. A payload that is not an object is
    handed to the plain `oneOf`. Each `$ref` is also resolved once rather than at every use (the
    schemas use no `$dynamicRef`). `dispatch=False` gives the plain `Draft202012Validator`.
    """
    _require_name(name)
    return _validator(name, dispatch)


@cache
def verdict_validator(name: str) -> _Validator:
    """A cached validator for a named type that gives the same verdicts as `validator(name)`,
    stopping at the first violation: for `is_valid` (its `iter_errors` does not explain unions)."""
    _require_name(name)
    _require_formats(FORMAT_CHECKER.checkers)
    return _VerdictValidator(schema(name), registry=registry(), format_checker=FORMAT_CHECKER)


@cache
def _validator(name: str, dispatch: bool) -> _Validator:
    _require_formats(FORMAT_CHECKER.checkers)
    cls = _DispatchValidator if dispatch else Draft202012Validator
    return cls(schema(name), registry=registry(), format_checker=FORMAT_CHECKER)


@dataclass(frozen=True)
class Union:
    """A tagged union: its name, tag property, and the type each tag value selects."""

    name: str
    tag: str
    branches: dict[str, str]  # tag value -> `<family>/<TypeName>` of the branch


def _resolve(uri: str, ref: str) -> tuple[str, dict[str, Any]]:
    """The absolute URI and the contents of a `$ref` found in the document at `uri`."""
    target = urljoin(uri, ref)
    contents: dict[str, Any] = registry().resolver().lookup(target).contents
    return target, contents


def _name_of(uri: str) -> str:
    by_uri = {v: k for k, v in _index().items()}
    return by_uri[uri]


@cache
def _union_tables() -> dict[int, tuple[dict[str, Any], str, dict[str, int]]]:
    """id(union schema) -> (the schema, tag property, tag value -> branch index).

    Only unions whose every branch is a `$ref` to an object with the tag as a required string
    `const` property are listed: for those, a tag value rules out every other branch.
    """
    tables: dict[int, tuple[dict[str, Any], str, dict[str, int]]] = {}
    for uri, (_, contents) in _documents().items():
        for node in contents.get("$defs", {}).values():
            table = _table(uri, node)
            if table is not None:
                tables[id(node)] = (node, *table)
    return tables


def _table(uri: str, node: Any) -> tuple[str, dict[str, int]] | None:
    if not isinstance(node, dict) or not isinstance(node.get("oneOf"), list):
        return None
    disc = node.get("discriminator")
    if not isinstance(disc, dict) or not isinstance(disc.get("propertyName"), str):
        return None
    tag: str = disc["propertyName"]
    mapping: dict[str, int] = {}
    for i, branch in enumerate(node["oneOf"]):
        if not isinstance(branch, dict) or set(branch) != {"$ref"}:
            return None
        const = _tag_const(*_resolve(uri, branch["$ref"]), tag)
        if const is None or const in mapping:
            return None
        mapping[const] = i
    return tag, mapping


def _tag_const(uri: str, target: dict[str, Any], tag: str, depth: int = 0) -> str | None:
    """The string `const` a branch requires for its tag, in its own keywords or an `allOf` `$ref` it extends."""
    prop = target.get("properties", {}).get(tag)
    const = prop.get("const") if isinstance(prop, dict) else None
    if isinstance(const, str) and tag in target.get("required", []):
        return const
    for part in target.get("allOf", []) if depth < 8 else []:
        if isinstance(part, dict) and isinstance(part.get("$ref"), str):
            found = _tag_const(*_resolve(uri, part["$ref"]), tag, depth + 1)
            if found is not None:
                return found
    return None


@cache
def unions() -> dict[str, Union]:
    """Every tagged union that validation dispatches by its tag, by name."""
    found: dict[str, Union] = {}
    for uri, (family, contents) in _documents().items():
        for type_name, node in contents.get("$defs", {}).items():
            table = _table(uri, node)
            if table is None:
                continue
            tag, mapping = table
            refs = node["oneOf"]
            branches = {value: _name_of(_resolve(uri, refs[i]["$ref"])[0]) for value, i in mapping.items()}
            found[f"{family}/{type_name}"] = Union(f"{family}/{type_name}", tag, branches)
    return dict(sorted(found.items()))


# Errors kept per union branch: enough to explain into the violations `violations_counted` shows
# (its `limit`), and every error at the value itself (as many as the branch has keywords: they tell
# whether the value has the branch's type); the others are explained one at a time, only to be
# counted, so memory is bounded by `limit` and the schema, whatever the number of violations.
# Never 0: a branch with no error kept would pass.
_branch_errors: ContextVar[int] = ContextVar("chatschema_branch_errors", default=MAX_VIOLATIONS)


def _first_errors(errors: Iterator[ValidationError]) -> tuple[list[ValidationError], int]:
    """The errors that explain into the first `_branch_errors` violations and those at the value
    itself, and how many violations the others would explain into."""
    kept: list[ValidationError] = []
    shown = omitted = 0
    cap = _branch_errors.get()
    for error in errors:
        if shown < cap or not error.relative_path:
            kept.append(error)
            shown += sum(1 for _ in _explain(error, [0]))  # an error may explain into none, or several
        else:
            tally = [0]
            omitted += sum(1 for _ in _explain(error, tally)) + tally[0]
    return kept, omitted


def _union_error(instance: Any, context: list[ValidationError], omitted: dict[int, int]) -> ValidationError:
    error = ValidationError(f"{short_repr(instance)} is not valid under any of the given schemas", context=context)
    error._chatschema_omitted = omitted  # type: ignore[attr-defined]  # read by _explain
    return error


def _omitted(error: ValidationError, branch: int) -> int:
    found: dict[int, int] = getattr(error, "_chatschema_omitted", {})
    return found.get(branch, 0)


def _capped_any_of(
    validator: Any, any_of: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """jsonschema's `anyOf`, keeping at most `_branch_errors` errors per branch."""
    context: list[ValidationError] = []
    omitted: dict[int, int] = {}
    for index, subschema in enumerate(any_of):
        errors, omitted[index] = _first_errors(validator.descend(instance, subschema, schema_path=index))
        if not errors:
            return
        context.extend(errors)
    yield _union_error(instance, context, omitted)


def _capped_one_of(
    validator: Any, one_of: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """jsonschema's `oneOf`, keeping at most `_branch_errors` errors per branch."""
    context: list[ValidationError] = []
    omitted: dict[int, int] = {}
    first_valid = -1
    for index, subschema in enumerate(one_of):
        errors, omitted[index] = _first_errors(validator.descend(instance, subschema, schema_path=index))
        if not errors:
            first_valid = index
            break
        context.extend(errors)
    if first_valid < 0:
        yield _union_error(instance, context, omitted)
        return
    more = [i for i in range(first_valid + 1, len(one_of)) if validator.evolve(schema=one_of[i]).is_valid(instance)]
    if more:
        branches = ", ".join(_branch_name(one_of[i], i) for i in [first_valid, *more])
        error = ValidationError(f"{short_repr(instance)} is valid under each of {branches}")
        error._chatschema_params = {"passingSchemas": [first_valid, more[0]]}  # type: ignore[attr-defined]  # ajv's
        yield error


def _dispatching_one_of(
    validator: Any, one_of: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """`oneOf` that validates only the branch the discriminator tag names (see `validator`)."""
    entry = _union_tables().get(id(schema))
    if entry is None or entry[0] is not schema or not isinstance(instance, dict):
        yield from _capped_one_of(validator, one_of, instance, schema)
        return
    _, tag, mapping = entry
    value = instance.get(tag, _MISSING)
    index = mapping.get(value) if isinstance(value, str) else None
    omitted: dict[int, int] = {}
    if index is not None:
        errors, omitted[index] = _first_errors(validator.descend(instance, one_of[index], schema_path=index))
    else:
        # Every branch fails on its tag alone; report just that, as the plain oneOf's errors would.
        errors = [_tag_error(tag, value, const, i) for const, i in mapping.items()]
    if errors:
        yield _union_error(instance, errors, omitted)


_MISSING = object()


def _tag_error(tag: str, value: object, const: str, index: int) -> ValidationError:
    """The error a branch gives for a missing or other tag (`required` or `const`), built without validating."""
    if value is _MISSING:
        return ValidationError(
            f"{tag!r} is a required property",
            validator="required",
            validator_value=[tag],
            schema_path=[index, "required"],
        )
    return ValidationError(
        f"{const!r} was expected",
        validator="const",
        validator_value=const,
        instance=value,
        path=[tag],
        schema_path=[index, "properties", tag, "const"],
    )


@cache
def _dynamic_refs() -> bool:
    """Whether any shipped schema uses `$dynamicRef` (where a `$ref`'s target may depend on the path)."""
    return any(
        any(True for _ in _values_of(contents, key)) for _, contents in _documents().values() for key in _DYNAMIC
    )


_DYNAMIC = ("$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor")
_plain_ref = cast(Callable[..., Iterator[ValidationError]], _keywords.ref)
_resolved_refs: dict[int, tuple[dict[str, Any], Any, Any]] = {}


def _cached_ref(validator: Any, ref: str, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """`$ref`, resolved once per schema location: the shipped schemas have no `$dynamicRef`, so a
    `$ref` always leads to the same place, and looking it up again each time is most of the cost."""
    hit = _resolved_refs.get(id(schema))
    if hit is None or hit[0] is not schema:
        resolver = getattr(validator, "_resolver", None)
        if resolver is None or _dynamic_refs():  # not a case the cache is right for: do as jsonschema does
            yield from _plain_ref(validator, ref, instance, schema)
            return
        resolved = resolver.lookup(ref)
        hit = _resolved_refs[id(schema)] = (schema, resolved.contents, resolved.resolver)
    yield from validator.descend(instance, hit[1], resolver=hit[2])


def is_multiple(value: float, step: float) -> bool:
    """JSON Schema's `multipleOf` as python-jsonschema decides it: an int step by the remainder, a
    float one by the quotient's being whole or, where the quotient overflows, exactly so."""
    if not isinstance(step, float):
        return not value % step
    try:
        quotient = value / step
        return int(quotient) == quotient
    except OverflowError:  # also an int too large for a float (10**400), where jsonschema raises
        return (Fraction(value) / Fraction(step)).denominator == 1


def _multiple_of(validator: Any, step: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "number") and not is_multiple(instance, step):
        yield ValidationError(f"{instance!r} is not a multiple of {step!r}")


_DispatchValidator: type[_Validator] = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    {"oneOf": _dispatching_one_of, "anyOf": _capped_any_of, "$ref": _cached_ref, "multipleOf": _multiple_of},
)
# `violations(..., dispatch=False)`: every branch of a union explains the payload, as the plain
# validator's do, but each keeps only its first errors (the plain `oneOf` keeps them all: 292 MB for
# one message of 5,000 bad parts).
_CappedValidator: type[_Validator] = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {"oneOf": _capped_one_of, "anyOf": _capped_any_of, "multipleOf": _multiple_of}
)


@cache
def _capped_validator(name: str) -> _Validator:
    _require_formats(FORMAT_CHECKER.checkers)
    return _CappedValidator(schema(name), registry=registry(), format_checker=FORMAT_CHECKER)


# A verdict needs one error, not an explanation: these unions stop at the first error of each
# branch, where jsonschema's (and the explaining ones above, which count every violation) walk
# the whole payload, so an invalid message with many violations is rejected at the first.
def _fails(validator: Any, instance: Any, subschema: Any, index: int) -> bool:
    return next(validator.descend(instance, subschema, schema_path=index), None) is not None


def _verdict_any_of(
    validator: Any, any_of: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if all(_fails(validator, instance, sub, i) for i, sub in enumerate(any_of)):
        yield ValidationError(f"{short_repr(instance)} is not valid under any of the given schemas")


def _verdict_one_of(
    validator: Any, one_of: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    entry = _union_tables().get(id(schema))
    if entry is not None and entry[0] is schema and isinstance(instance, dict):
        _, tag, mapping = entry
        value = instance.get(tag)
        index = mapping.get(value) if isinstance(value, str) else None
        if index is None or _fails(validator, instance, one_of[index], index):
            yield ValidationError(f"{short_repr(instance)} is not valid under any of the given schemas")
        return
    passing = (i for i, sub in enumerate(one_of) if not _fails(validator, instance, sub, i))
    if len(list(islice(passing, 2))) != 1:  # none, or more than one
        yield ValidationError(f"{short_repr(instance)} is not valid under exactly one of the given schemas")


_VerdictValidator: type[_Validator] = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    {"oneOf": _verdict_one_of, "anyOf": _verdict_any_of, "$ref": _cached_ref, "multipleOf": _multiple_of},
)


def resources() -> list[tuple[str, dict[str, Any]]]:
    """Every shipped schema file as `($id, contents)`, for building another validator's registry."""
    return [(uri, contents) for uri, (_, contents) in _documents().items()]


@cache
def formats_used() -> frozenset[str]:
    """Every `format` the shipped schemas use."""
    return frozenset(
        value
        for _, contents in _documents().values()
        for value in _values_of(contents, "format")
        if isinstance(value, str)
    )


def _require_formats(available: dict[str, Any]) -> None:
    """Fail loudly if a format the schemas use cannot be checked (jsonschema skips it silently)."""
    missing = sorted(formats_used() - set(available))
    if missing:
        raise RuntimeError(f"cannot check format(s) {missing}: add them to chatschema.schemas.FORMAT_CHECKER")


def _values_of(node: Any, key: str) -> Iterator[Any]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield v
            if k not in ("const", "default", "enum", "examples"):
                yield from _values_of(v, key)
    elif isinstance(node, list):
        for item in node:
            yield from _values_of(item, key)


def violations(instance: Any, name: str, *, dispatch: bool = True) -> list[Violation]:
    """The violations of `instance` against the named schema, in payload order; empty if valid.

    At most `MAX_VIOLATIONS` are returned (`violations_counted` also counts the others). A payload
    nested deeper than `jsontext.MAX_DEPTH` (1024) levels, or that contains itself, has one
    violation, `nesting too deep`; this never raises `RecursionError`.
    """
    return violations_counted(instance, name, dispatch=dispatch)[0]


def violations_counted(
    instance: Any, name: str, *, dispatch: bool = True, limit: int = MAX_VIOLATIONS
) -> tuple[list[Violation], int]:
    """The first `limit` violations (see `violations`) and how many more there are."""
    _require_name(name)
    check = _validator(name, True) if dispatch else _capped_validator(name)

    def work() -> tuple[list[Violation], int]:
        token = _branch_errors.set(max(limit, 1))  # set here: `_deep_safe` may run this in another thread
        try:
            return _collect(check.iter_errors(instance), limit)
        finally:
            _branch_errors.reset(token)

    return _deep_safe(instance, work, lambda refused: ([refused], 0))


def is_valid(instance: Any, name: str) -> bool:
    """Whether `instance` is valid under the named schema (tag dispatch; never `RecursionError`).

    It stops at the first violation, so it costs little on a payload with many."""
    check = verdict_validator(name).is_valid
    return _deep_safe(instance, lambda: bool(check(instance)), lambda refused: False)


def validate(instance: Any, name: str) -> None:
    """Raise `PayloadError` listing the violations if `instance` is not valid under `name`.

    A `name` that is not a string raises `TypeError`, an unknown one `UnknownSchemaError`.
    """
    found, omitted = violations_counted(instance, name)
    if found:
        raise PayloadError(name, found, omitted)


def _collect(errors: Iterator[ValidationError], limit: int) -> tuple[list[Violation], int]:
    """The first `limit` distinct violations of `errors`, sorted, and the number of the others.

    Of violations that say the same at the same place (two keywords alike, e.g. a type and the one
    it extends both want an object), the one whose keyword comes first in the bundle is kept, as
    in the npm package, whichever the validator met first."""
    kept: dict[Violation, Violation] = {}
    omitted = 0
    for error in errors:
        tally = [0]
        for found in _explain(error, tally):
            same = kept.get(found)
            if same is not None:
                if found.schema_path < same.schema_path:
                    kept[found] = found
                continue
            if len(kept) < limit:
                kept[found] = found
            else:
                omitted += 1
        omitted += tally[0]
    return sorted(kept.values(), key=lambda v: (_path_order(v.path), v.message)), omitted


def explained(errors: Iterable[ValidationError], *, whole: bool = False) -> list[Violation]:
    """The violations jsonschema's own `errors` explain into, as `violations` explains its own: a
    tagged union by the branch its tag selects, another union by the branch the payload came
    closest to; in payload order. For errors of a validator built elsewhere (another revision's
    schemas). `whole`: values and keys quoted in full, never cut (for a report that shows the
    payload whole)."""
    token = _whole.set(whole)
    try:
        return _collect(iter(errors), sys.maxsize)[0]
    finally:
        _whole.reset(token)


def _path_order(path: str) -> list[str | int]:
    """A JSONPath as it sorts in payload order: array indexes as numbers (`[2]` before `[10]`)."""
    parts: list[str | int] = list(_INDEX.split(path))
    parts[1::2] = [int(index) for index in parts[1::2]]
    return parts


_INDEX = re.compile(r"\[(\d+)\]")


_TOO_DEEP = Violation("$", f"nesting too deep: more than {MAX_DEPTH} levels", "maxDepth", params={"limit": MAX_DEPTH})


# jsonschema recurses a few frames per level of the payload (and `repr` one per level): a payload
# as deep as MAX_DEPTH needs a higher recursion limit and a larger C stack than the main thread's.
_DEEP_RECURSION = 40 * MAX_DEPTH + 5000
_DEEP_STACK = 512 * 1024 * 1024  # virtual: only the pages used are ever touched

T = TypeVar("T")


def _deep_safe(instance: Any, work: Callable[[], T], refuse: Callable[[Violation], T]) -> T:
    """`refuse(violation)` for a payload that breaks the JSON rules of depth or numbers (`_refused`);
    else `work()`, again in a thread with a large stack and recursion limit if it runs out of stack."""
    refused = _refused(instance)
    if refused is not None:
        return refuse(refused)
    try:
        return work()
    except RecursionError:
        pass
    box: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, _DEEP_RECURSION))
        try:
            box.append(work())
        except RecursionError:
            box.append(refuse(_TOO_DEEP))
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)
        finally:
            sys.setrecursionlimit(limit)

    with _DEEP_LOCK:
        size = threading.stack_size(_DEEP_STACK)
        try:
            thread = threading.Thread(target=target, name="chatschema-deep-validation")
            thread.start()
        except RuntimeError:  # no thread with such a stack here (a tight ulimit -v): refuse the depth
            return refuse(_TOO_DEEP)
        finally:
            threading.stack_size(size)
        thread.join()
    if failure:
        raise failure[0]
    return box[0]


_DEEP_LOCK = threading.Lock()


def _refused(node: Any) -> Violation | None:
    """The violation of a payload that JSON text read by `jsontext` could not hold: nested too deep
    (a container holding itself is), or with an integer beyond a double's range (which Python may
    also refuse to write in a message)."""
    problem = refused(node)
    if problem is None:
        return None
    path, reason, keyword = problem
    limit = {"limit": MAX_DEPTH} if keyword == "maxDepth" else {}
    return Violation(json_path(path), reason, keyword, _pointers.pointer(path), params=limit)


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxdict = _SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = 4
_SHORT.maxstring = 60
_SHORT.maxother = 40
_SHORT_LIMIT = 100  # characters of a value quoted in a message
# Whether messages quote values and keys whole (`explained(..., whole=True)`) rather than cut.
_whole: ContextVar[bool] = ContextVar("chatschema_whole_values", default=False)


def short_repr(value: Any) -> str:
    """`repr(value)` cut to about `_SHORT_LIMIT` characters with `...` (bounded whatever its size or depth)."""
    if isinstance(value, str) and len(value) <= _SHORT_LIMIT - 2:
        text = repr(value)
    else:
        text = _SHORT.repr(value)
    return text if len(text) <= _SHORT_LIMIT else text[: _SHORT_LIMIT - 3] + "..."


def _quote(value: Any) -> str:
    """A value quoted in a message: `short_repr`, or whole under `explained(..., whole=True)`."""
    return repr(value) if _whole.get() else short_repr(value)


_KIND = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer", float: "a number"}


def _kind(value: Any) -> str:
    return "null" if value is None else _KIND.get(type(value), type(value).__name__)


def _message(error: ValidationError) -> str:
    """jsonschema's message, with the value it quotes shortened (`_quote`)."""
    keyword, value, instance = error.validator, error.validator_value, error.instance
    shown = _quote(instance)
    if keyword == "type":
        types = value if isinstance(value, list) else [value]
        description = error.schema.get("description") if isinstance(error.schema, dict) else None
        if types == ["string"] and isinstance(description, str) and "JSON-encoded" in description:
            return f"expected a JSON-encoded string, got {_kind(instance)}: {shown}"
        return f"{shown} is not of type {', '.join(map(repr, types))}"
    if keyword == "enum":
        return f"{shown} is not one of {_quote(value)}"
    if keyword == "pattern":
        return f"{shown} does not match {_quote(value)}"
    if keyword == "format":
        return f"{shown} is not a {value!r}"
    if keyword == "not" and isinstance(value, dict) and len(value) == 1:
        keys = value.get("properties")
        if isinstance(instance, dict) and isinstance(keys, dict) and keys and all(v is False for v in keys.values()):
            return f"{shown} has none of {', '.join(map(repr, keys))}: at least one is required"
        if isinstance(instance, str) and isinstance(value.get("pattern"), str):
            return f"{shown} must not match {_quote(value['pattern'])}"
    text = error.message
    if _whole.get() or len(text) <= 2 * _SHORT_LIMIT:
        return text
    return f"{text[:_SHORT_LIMIT]}...{text[-_SHORT_LIMIT // 2 :]}"


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# In a quoted key: the quote, the backslash, control characters, line and paragraph separators and
# lone surrogates are escaped, so a key can neither end the output line nor reach the terminal raw.
_UNSAFE_KEY = re.compile("[\\\\'\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_KEY_LIMIT = 100  # characters of a key shown
_PATH_LIMIT = 1000  # characters of a path shown (a path 1024 levels deep is longer)


def _escape_key_char(found: re.Match[str]) -> str:
    char = found.group()
    return "\\" + char if char in "\\'" else f"\\u{ord(char):04x}"


def json_path(parts: Iterable[Any]) -> str:
    """The JSONPath of a location in a payload: `$.content[0].text`; a key that is not a plain name
    is quoted and escaped (`$['a b']`, `$['line\\u000a']`), a key longer than 100 characters and a
    path longer than 1000 are cut with `...` (except under `explained(..., whole=True)`), so a path
    is one short line whatever the payload's keys."""
    whole = _whole.get()
    out = ["$"]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
            continue
        key = str(part)
        if len(key) <= _KEY_LIMIT and _NAME.match(key):
            out.append(f".{key}")
        else:
            shown = key if whole or len(key) <= _KEY_LIMIT else key[:_KEY_LIMIT] + "..."
            out.append(f"['{_UNSAFE_KEY.sub(_escape_key_char, shown)}']")
    path = "".join(out)
    half = _PATH_LIMIT // 2
    return path if whole or len(path) <= _PATH_LIMIT else f"{path[:half]}...{path[-half:]}"


def _violation(error: ValidationError) -> Violation:
    keyword = _pointers.ajv_keyword(error)
    where = _pointers.pointer(error.absolute_path)
    params = _pointers.params(error)
    if keyword == "required" and isinstance(params.get("missingProperty"), str):
        where += f"/{_pointers.escape(params['missingProperty'])}"  # located at the missing key itself
    schema_path = _schema_path(error, keyword)
    return Violation(json_path(error.absolute_path), _message(error), keyword, where, schema_path, params)


def _schema_path(error: ValidationError, keyword: str | None = None) -> str:
    """Where the keyword that failed is, in the family bundle (`#/$defs/ToolCall/properties/id/type`):
    the location of the schema object that holds it, found by identity. For a validator over other
    schemas (`explained`), the path from that validator's root."""
    keyword = str(error.validator) if keyword is None else keyword
    hit = _schema_locations().get(id(error.schema))
    if hit is not None and hit[0] is error.schema:
        return f"{hit[1]}/{keyword}"
    if error.validator is None:  # a `false` subschema: jsonschema's path stops at the keyword holding it
        branch = getattr(error, "_chatschema_branch", None)  # a union's branch, noted by `_branches`
        steps = [*error.absolute_schema_path, *([] if branch is None else [branch])]
    else:
        steps = list(error.absolute_schema_path)[:-1]
    return "#" + "".join(f"/{_pointers.fragment(step)}" for step in steps) + f"/{keyword}"


@cache
def _schema_locations() -> dict[int, tuple[Any, str]]:
    """The location in its family bundle of every schema object of the shipped schemas, by identity."""
    return _pointers.schema_locations(
        (name, node) for _, contents in _documents().values() for name, node in contents.get("$defs", {}).items()
    )


def _branches(error: ValidationError) -> dict[int, list[ValidationError]]:
    grouped: dict[int, list[ValidationError]] = {}
    # jsonschema gives a `false` branch's error no path at all: those are the `false` branches, in order
    branches = error.validator_value if isinstance(error.validator_value, list) else []
    falses = iter([i for i, branch in enumerate(branches) if branch is False])
    for sub in error.context or []:
        if sub.relative_schema_path:
            where = int(sub.relative_schema_path[0])
        else:
            where = next(falses, len(branches))
            sub._chatschema_branch = where  # type: ignore[attr-defined]  # read by _schema_path
        grouped.setdefault(where, []).append(sub)
    return grouped


def _branch_name(subschema: Any, index: int) -> str:
    """A union branch's name: the type its `$ref` names, its title, or its position."""
    if isinstance(subschema, dict):
        ref = subschema.get("$ref")
        if isinstance(ref, str) and "/" in ref:
            return ref.rsplit("/", 1)[-1]
        title = subschema.get("title")
        if isinstance(title, str):
            return title
        kind = subschema.get("type")
        if isinstance(kind, str):
            return kind
    return f"branch {index}"


def _types_ruling_out(errors: list[ValidationError]) -> list[str] | None:
    """The types a union branch allows, if its errors rule the value out by its type alone (a
    `type` error at the value itself, or a union there whose every branch is ruled out so); else None."""
    for error in errors:
        if error.relative_path:
            continue
        if error.validator == "type":
            value: Any = error.validator_value
            return list(value) if isinstance(value, list) else [value]
        if error.validator in ("oneOf", "anyOf") and error.context:
            nested = [_types_ruling_out(errs) for errs in _branches(error).values()]
            if all(found is not None for found in nested):
                return [t for found in nested for t in found or []]
    return None


def _explain(error: ValidationError, tally: list[int]) -> Iterator[Violation]:
    """Turn a union failure into the errors of the branch the payload meant.

    A tagged union (`oneOf` + `discriminator`) is explained by its tag: missing, unknown,
    or the errors of the one branch whose tag matches. Other unions are explained by the
    branch the payload came closest to: the only one whose type it has, else the one with the
    fewest violations, named. `tally[0]` counts the violations left out of capped branches.
    """
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        yield _violation(error)
        return
    instance = error.instance
    disc = error.schema.get("discriminator") if isinstance(error.schema, dict) else None
    grouped = _branches(error)
    if isinstance(disc, dict) and isinstance(instance, dict):
        tag = disc["propertyName"]
        where = (json_path(error.absolute_path), _pointers.pointer(error.absolute_path))
        schema_path = _schema_path(error, "discriminator")
        if tag not in instance:
            params = {"error": "tag", "tag": tag}
            yield Violation(where[0], f"missing discriminator {tag!r}", "discriminator", where[1], schema_path, params)
            return
        tag_errors = {
            i: [e for e in errs if e.validator == "const" and list(e.relative_path) == [tag]]
            for i, errs in grouped.items()
        }
        matching = [i for i, errs in tag_errors.items() if not errs]
        if not matching:
            # a branch that extends another (allOf) may repeat its tag: name each value once
            allowed = list(dict.fromkeys(e.validator_value for errs in tag_errors.values() for e in errs))
            value = instance[tag]
            yield Violation(
                where[0],
                f"unknown {tag} {_quote(value)}, expected one of {', '.join(map(repr, allowed))}",
                "discriminator",
                where[1],
                schema_path,
                {"error": "mapping" if isinstance(value, str) else "tag", "tag": tag, "tagValue": value},
            )
            return
        for i in matching:
            tally[0] += _omitted(error, i)
            for sub in grouped[i]:
                yield from _explain(sub, tally)
        return
    if isinstance(disc, dict):
        return  # not an object: the union's own "type": "object" reports it
    types_of = {i: _types_ruling_out(errs) for i, errs in grouped.items()}
    plausible = {i: errs for i, errs in grouped.items() if types_of[i] is None}
    if len(plausible) == 1:
        [(i, errs)] = plausible.items()
        tally[0] += _omitted(error, i)
        for sub in errs:
            yield from _explain(sub, tally)
        return
    if not plausible:  # the payload has none of the branches' types: name them all
        types = dict.fromkeys(t for found in types_of.values() for t in found or [])
        yield Violation(
            json_path(error.absolute_path),
            f"{_quote(instance)} is not of type {', '.join(map(repr, types))}",
            "type",
            _pointers.pointer(error.absolute_path),
            _schema_path(error),  # the union's own keyword: no one branch's `type` says it
            {"type": list(types)},
        )
        return
    # Several branches fit the payload's type: explain the closest, and say which it was.
    explained: dict[int, tuple[list[Violation], int]] = {}
    for i, errs in plausible.items():
        sub_tally = [_omitted(error, i)]
        found = [v for sub in errs for v in _explain(sub, sub_tally)]
        explained[i] = (found, sub_tally[0])
    closest = min(explained, key=lambda i: (len(explained[i][0]) + explained[i][1], i))
    union = cast(dict[str, Any], error.schema)[str(error.validator)]
    names = [_branch_name(union[i], i) for i in sorted(grouped)]
    found, omitted = explained[closest]
    tally[0] += omitted
    note = f" (closest of {', '.join(names)}: {names[sorted(grouped).index(closest)]})"
    for violation in found:
        yield replace(violation, message=violation.message + note)
