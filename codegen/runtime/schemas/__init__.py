"""The shipped schemas, validated offline with plain `jsonschema` (copied into chatschema by codegen).

Schemas are addressed as `<family>/<TypeName>`, for example `docent/ChatMessage`.
The registry is built from the JSON files inside this package; nothing is ever fetched.
"""

from __future__ import annotations

import calendar
import difflib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Literal, cast, overload
from urllib.parse import urljoin

from jsonschema import Draft202012Validator, FormatChecker, _keywords, validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator as _Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

__all__ = [
    "FORMAT_CHECKER",
    "PayloadError",
    "Union",
    "UnknownSchemaError",
    "Violation",
    "families",
    "formats_used",
    "is_date_time",
    "names",
    "refs",
    "registry",
    "resources",
    "schema",
    "schema_id",
    "unions",
    "validate",
    "validator",
    "violations",
]

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# The project's one `format: date-time` rule (RFC 3339 section 5.6), shared with the npm package's
# ajv validator (generated/typescript/formats.js) so both give the same verdicts: ASCII digits only,
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
        close = difflib.get_close_matches(name, names(), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; known families: {', '.join(families())}"
        self.name = name
        self.close_matches = close
        super().__init__(f"unknown schema {name!r}{hint}")

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Violation:
    """One reason a payload is invalid: where (a JSONPath into the payload) and why."""

    path: str
    message: str
    keyword: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class PayloadError(ValueError):
    """A payload is not valid under a schema; lists every violation with its JSONPath."""

    def __init__(self, schema_name: str, violations: list[Violation]) -> None:
        self.schema_name = schema_name
        self.violations = violations
        count = f"{len(violations)} violation{'s' if len(violations) != 1 else ''}"
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
    return sorted({name.split("/", 1)[0] for name in _index()})


def schema_id(name: str) -> str:
    """The absolute URI of a named type, e.g. `https://chatschema.dev/schemas/docent/message.json#/$defs/ChatMessage`."""
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
    return _validator(name, dispatch)


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


_plain_one_of = cast(Callable[..., Iterator[ValidationError]], _keywords.oneOf)


def _dispatching_one_of(
    validator: Any, one_of: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """`oneOf` that validates only the branch the discriminator tag names (see `validator`)."""
    entry = _union_tables().get(id(schema))
    if entry is None or entry[0] is not schema or not isinstance(instance, dict):
        yield from _plain_one_of(validator, one_of, instance, schema)
        return
    _, tag, mapping = entry
    value = instance.get(tag, _MISSING)
    index = mapping.get(value) if isinstance(value, str) else None
    if index is not None:
        errors = list(validator.descend(instance, one_of[index], schema_path=index))
    else:
        # Every branch fails on its tag alone; report just that, as the plain oneOf's errors would.
        errors = [_tag_error(tag, value, const, i) for const, i in mapping.items()]
    if errors:
        yield ValidationError(f"{instance!r} is not valid under any of the given schemas", context=errors)


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


_DispatchValidator: type[_Validator] = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {"oneOf": _dispatching_one_of, "$ref": _cached_ref}
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
    """Every violation of `instance` against the named schema, in payload order; empty if valid."""
    found = [v for error in validator(name, dispatch=dispatch).iter_errors(instance) for v in _explain(error)]
    return sorted(set(found), key=lambda v: (v.path, v.message))


def validate(instance: Any, name: str) -> None:
    """Raise `PayloadError` listing every violation if `instance` is not valid under `name`."""
    found = violations(instance, name)
    if found:
        raise PayloadError(name, found)


def _violation(error: ValidationError) -> Violation:
    return Violation(error.json_path, error.message, str(error.validator))


def _branches(error: ValidationError) -> dict[int, list[ValidationError]]:
    grouped: dict[int, list[ValidationError]] = {}
    for sub in error.context or []:
        grouped.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    return grouped


def _explain(error: ValidationError) -> Iterator[Violation]:
    """Turn a union failure into the errors of the branch the payload meant.

    A tagged union (`oneOf` + `discriminator`) is explained by its tag: missing, unknown,
    or the errors of the one branch whose tag matches. Other unions are explained by the
    single branch whose type the payload has, when there is one.
    """
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        yield _violation(error)
        return
    instance = error.instance
    disc = error.schema.get("discriminator") if isinstance(error.schema, dict) else None
    grouped = _branches(error)
    if isinstance(disc, dict) and isinstance(instance, dict):
        tag = disc["propertyName"]
        if tag not in instance:
            yield Violation(error.json_path, f"missing discriminator {tag!r}", "discriminator")
            return
        tag_errors = {
            i: [e for e in errs if e.validator == "const" and list(e.relative_path) == [tag]]
            for i, errs in grouped.items()
        }
        matching = [i for i, errs in tag_errors.items() if not errs]
        if not matching:
            # a branch that extends another (allOf) may repeat its tag: name each value once
            allowed = list(dict.fromkeys(e.validator_value for errs in tag_errors.values() for e in errs))
            yield Violation(
                error.json_path,
                f"unknown {tag} {instance[tag]!r}, expected one of {', '.join(map(repr, allowed))}",
                "discriminator",
            )
            return
        for i in matching:
            for sub in grouped[i]:
                yield from _explain(sub)
        return
    if isinstance(disc, dict):
        return  # not an object: the union's own "type": "object" reports it
    plausible = [
        errs for errs in grouped.values() if not any(e.validator == "type" and not e.relative_path for e in errs)
    ]
    if len(plausible) == 1:
        for sub in plausible[0]:
            yield from _explain(sub)
    else:
        yield _violation(error)
