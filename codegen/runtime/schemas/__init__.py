"""The shipped schemas, validated offline with plain `jsonschema` (copied into chatschema by codegen).

Schemas are addressed as `<family>/<TypeName>`, for example `docent/ChatMessage`.
The registry is built from the JSON files inside this package; nothing is ever fetched.
"""

from __future__ import annotations

import calendar
import difflib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

__all__ = [
    "FORMAT_CHECKER",
    "PayloadError",
    "UnknownSchemaError",
    "Violation",
    "families",
    "is_date_time",
    "names",
    "registry",
    "schema",
    "schema_id",
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


@cache
def validator(name: str) -> Draft202012Validator:
    """A cached `Draft202012Validator` for a named type, with formats checked."""
    _require_formats(FORMAT_CHECKER.checkers)
    return Draft202012Validator(schema(name), registry=registry(), format_checker=FORMAT_CHECKER)


def _require_formats(available: dict[str, Any]) -> None:
    """Fail loudly if a format the schemas use cannot be checked (jsonschema skips it silently)."""
    used = {
        value
        for _, contents in _documents().values()
        for value in _values_of(contents, "format")
        if isinstance(value, str)
    }
    missing = sorted(used - set(available))
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


def violations(instance: Any, name: str) -> list[Violation]:
    """Every violation of `instance` against the named schema, in payload order; empty if valid."""
    found = [v for error in validator(name).iter_errors(instance) for v in _explain(error)]
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
            allowed = [e.validator_value for errs in tag_errors.values() for e in errs]
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
