"""What a message is checked against (a named schema, or `auto`), and by which validator.

Two backends give the same verdicts:

- `jsonschema` (the reference): python-jsonschema with tag dispatch (`schemas.validator`);
- `fast`: jsonschema-rs (the `fast` extra), with every `format` the schemas use checked by the
  project's own rule (`schemas.FORMAT_CHECKER`), so that formats get the same verdicts too.

Either way, the errors of an invalid message are computed by the reference, so the reported
reasons do not depend on the backend, and a message the fast backend rejects is only reported
invalid if the reference rejects it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any
from urllib.parse import urljoin

from chatschema import schemas
from chatschema.unknown import is_unknown

BACKENDS = ("jsonschema", "fast")
AUTO = "auto"


class BackendUnavailable(RuntimeError):
    """The fast backend's packages are not installed."""


def fast_available() -> bool:
    try:
        import jsonschema_rs  # noqa: F401
    except ImportError:
        return False
    return True


# The project's `date-time` rule (`schemas.is_date_time`) as one pattern, which accepts exactly
# the same strings (tests/test_cli.py compares them on 50,000+), so jsonschema-rs need not call
# back into Python for each date (which made it 3x slower).
_YEAR = "(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])"  # not 0000
_LEAP_YEAR = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
_DATE = (
    f"(?:{_YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
    f"|02-(?:0[1-9]|1[0-9]|2[0-8]))|{_LEAP_YEAR}-02-29)"
)
_TIME = r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
DATE_TIME_PATTERN = f"^{_DATE}[Tt]{_TIME}$"
FORMAT_PATTERNS = {"date-time": DATE_TIME_PATTERN}


# jsonschema-rs judges a fractional `multipleOf` by its own rule (0.3 is a multiple of 0.1 there, not
# in python-jsonschema, the reference): such a step is renamed to this keyword, checked as the
# reference checks it.
FRACTIONAL_STEP = "x-chatschema-fractional-step"
_DATA = ("const", "default", "enum", "examples")


class _FractionalStep:
    """The reference's `multipleOf` for a fractional step, as a jsonschema-rs keyword."""

    def __init__(self, parent_schema: dict[str, Any], value: float, schema_path: list[str | int]) -> None:
        self.step = value

    def validate(self, instance: Any) -> None:
        if (
            isinstance(instance, int | float)
            and not isinstance(instance, bool)
            and not schemas.is_multiple(instance, self.step)
        ):
            raise ValueError(f"{instance!r} is not a multiple of {self.step!r}")


FAST_KEYWORDS: dict[str, Any] = {FRACTIONAL_STEP: _FractionalStep}
"""The keywords `for_fast_backend` introduces, for jsonschema-rs's `keywords=`."""


def for_fast_backend(node: Any) -> Any:
    """A schema with each `format` that has an equivalent pattern replaced by that pattern, and
    each fractional `multipleOf` by the reference's rule (FRACTIONAL_STEP)."""
    if isinstance(node, dict):
        out = {k: v if k in _DATA else for_fast_backend(v) for k, v in node.items()}
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt in FORMAT_PATTERNS:
            del out["format"]
            out["allOf"] = [*out.get("allOf", []), {"pattern": FORMAT_PATTERNS[fmt]}]
        if isinstance(node.get("multipleOf"), float):
            out[FRACTIONAL_STEP] = out.pop("multipleOf")
        return out
    if isinstance(node, list):
        return [for_fast_backend(item) for item in node]
    return node


@cache
def _rs_registry() -> Any:
    import jsonschema_rs

    return jsonschema_rs.Registry([(uri, for_fast_backend(contents)) for uri, contents in schemas.resources()])


def _format_functions() -> dict[str, Callable[[str], bool]]:
    """Formats without a pattern: checked by calling the reference's own check."""
    checker = schemas.FORMAT_CHECKER

    def make(fmt: str) -> Callable[[str], bool]:
        return lambda value: checker.conforms(value, fmt)

    return {fmt: make(fmt) for fmt in schemas.formats_used() if fmt not in FORMAT_PATTERNS}


@cache
def fast_is_valid(name: str) -> Callable[[Any], bool]:
    """jsonschema-rs's `is_valid` for a named schema, offline, formats checked as python-jsonschema does."""
    try:
        import jsonschema_rs
    except ImportError as exc:
        raise BackendUnavailable(
            "the fast backend needs the 'fast' extra: pip install '.[fast]' in a chatschema checkout"
        ) from exc
    validator = jsonschema_rs.Draft202012Validator(
        schemas.schema(name),
        registry=_rs_registry(),
        validate_formats=True,
        ignore_unknown_formats=False,
        formats=_format_functions(),
        pattern_options=jsonschema_rs.RegexOptions(),  # linear time on any input (lint refuses what it lacks)
        keywords=FAST_KEYWORDS,
    )
    is_valid: Callable[[Any], bool] = validator.is_valid
    return is_valid


def reference_is_valid(name: str) -> Callable[[Any], bool]:
    """The reference `is_valid` (python-jsonschema, tag dispatch) for a named schema; a payload
    too deep for the interpreter's stack is checked again with a larger one (`schemas.is_valid`)."""
    is_valid: Callable[[Any], bool] = schemas.verdict_validator(name).is_valid

    def check(message: Any) -> bool:
        try:
            return is_valid(message)
        except RecursionError:
            return schemas.is_valid(message, name)

    return check


def _reachable(uri: str) -> set[str]:
    """Every schema URI reachable by `$ref` from the one at `uri` (itself excluded)."""
    resolver = schemas.registry().resolver()
    seen: set[str] = set()
    todo = [uri]
    while todo:
        current = todo.pop()
        for ref in schemas.refs(resolver.lookup(current).contents):
            target = urljoin(current, ref)
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


@cache
def message_unions(families: tuple[str, ...] = ()) -> list[schemas.Union]:
    """The tagged unions `--schema auto` picks from: those no other union's branch contains, and
    those a family ships a sample file of.

    Nested unions (content parts, image sources, citation items) are left out, so a message is
    matched by its own tag, not by the tag of something it may contain. A union of messages that
    records of another union wrap (Letta's stream frames in Letta Code's records) stays, by its
    sample file.
    """
    from chatschema.samples import SAMPLES

    unions = [u for u in schemas.unions().values() if not families or u.name.split("/")[0] in families]
    inner: set[str] = set()
    for union in schemas.unions().values():
        for branch in union.branches.values():
            inner |= _reachable(schemas.schema_id(branch))
    inner -= {schemas.schema_id(name) for name in SAMPLES.values()}
    return [u for u in unions if schemas.schema_id(u.name) not in inner]


@dataclass(frozen=True)
class MessageType:
    """A schema `--schema auto` can pick for a message: a tagged union, matched by the tag value the
    message carries, or a family's untagged message type (its sample file's type, e.g.
    bridgic/Message), matched by a key that no other candidate declares."""

    name: str
    tag: str | None  # None: untagged
    values: tuple[str, ...]  # the union's tag values, in branch order
    keys: frozenset[str]  # every property it declares (of every branch, for a union)
    signature: frozenset[str] = frozenset()  # untagged: the keys only it declares

    def matches(self, message: dict[str, Any]) -> bool:
        """Whether `message` names this type by its tag, or carries one of its own keys."""
        if self.tag is not None:
            value = message.get(self.tag)
            return isinstance(value, str) and value in self.values  # tag values are strings
        return not self.signature.isdisjoint(message)


def _declared_keys(name: str) -> frozenset[str]:
    """The property names a named type declares: its own, its `allOf` bases', a union's branches'."""
    resolver = schemas.registry().resolver()
    keys: set[str] = set()
    todo, seen = [schemas.schema_id(name)], set()
    while todo:
        uri = todo.pop()
        if uri in seen:
            continue
        seen.add(uri)
        node = resolver.lookup(uri).contents
        if not isinstance(node, dict):
            continue
        keys |= set(node.get("properties") or {})
        parts = [part for part in node.get("allOf", []) + node.get("oneOf", []) if isinstance(part, dict)]
        for ref in [node.get("$ref"), *(part.get("$ref") for part in parts)]:
            if isinstance(ref, str):
                todo.append(urljoin(uri, ref))
    return frozenset(keys)


@cache
def message_types(families: tuple[str, ...] = ()) -> list[MessageType]:
    """What `--schema auto` picks from: the message unions and each family's untagged message type
    (the type of its sample file)."""
    from chatschema.samples import SAMPLES

    union_names = set(schemas.unions())
    untagged = sorted(
        {n for n in SAMPLES.values() if n not in union_names and (not families or n.split("/")[0] in families)}
    )
    found = [MessageType(u.name, u.tag, tuple(u.branches), _declared_keys(u.name)) for u in message_unions(families)]
    found += [MessageType(n, None, (), _declared_keys(n)) for n in untagged]
    return [t if t.tag is not None else replace(t, signature=_signature(t, found)) for t in found]


def _signature(own: MessageType, every: list[MessageType]) -> frozenset[str]:
    others: set[str] = set()
    for other in every:
        if other.name != own.name:
            others |= other.keys
    return (own.keys - others) or own.keys


_MISSING = object()


_ANNOTATIONS = {"title", "description", "discriminator", "$comment", "examples", "deprecated", "default"}


def checks_only_the_tag(union: Any) -> bool:
    """Whether a union's schema checks nothing but the object type and its `oneOf`: then a missing
    or unknown tag is the whole explanation, the same for every message."""
    return isinstance(union, dict) and set(union) - _ANNOTATIONS <= {"type", "oneOf"} and union.get("type") == "object"


class Checker:
    """Checks parsed messages against one schema, or picks the schema by tag (`auto`).

    `is_valid` is the hot path; `explain` gives the schema used and the reference violations.
    """

    def __init__(self, schema: str, backend: str = "jsonschema", families: tuple[str, ...] = ()) -> None:
        self.schema = schema
        self.backend = backend
        lookup = schemas.registry().resolver().lookup
        self._unions_by_name = {
            n: u for n, u in schemas.unions().items() if checks_only_the_tag(lookup(schemas.schema_id(n)).contents)
        }
        self._by_tag: dict[tuple[str, bool, str], tuple[tuple[schemas.Violation, ...], int]] = {}
        build = fast_is_valid if backend == "fast" else reference_is_valid
        if schema == AUTO:
            self.types = message_types(families)
            if not self.types:
                raise ValueError(f"no message type to pick from in {', '.join(families) or 'any family'}")
            self.tests = {t.name: build(t.name) for t in self.types}
            self.is_valid: Callable[[Any], bool] = self._auto_is_valid
        else:
            schemas.schema_id(schema)  # raises UnknownSchemaError
            self.is_valid = build(schema)

    def candidates(self, message: Any) -> list[str]:
        """The message types the message names. A key only an untagged type declares names that
        type alone (a swarm message is also a valid Docent message); otherwise the unions whose
        tag value it carries."""
        if not isinstance(message, dict):
            return []
        named = [t for t in self.types if t.matches(message)]
        untagged = [t.name for t in named if t.tag is None]
        return untagged or [t.name for t in named]

    def _auto_is_valid(self, message: Any) -> bool:
        return any(self.tests[name](message) for name in self.candidates(message))

    def explain(self, message: Any) -> tuple[str, Sequence[schemas.Violation], int]:
        """The schema the message was checked against, the reference's first violations (empty:
        valid, at most `schemas.MAX_VIOLATIONS`) and the number of the others. Messages explained by
        their tag alone share one tuple of violations (the same object, from a cache).

        Under `auto`, a message whose tag no union knows is explained as a union explains an
        unknown tag, listing the values of every union with that tag.
        """
        if self.schema != AUTO:
            return (self.schema, *self._violations(message, self.schema))
        names = self.candidates(message)
        if not names:
            return self._no_candidate(message)
        for name in names:
            if self.tests[name](message):
                return name, [], 0
        return (names[0], *self._violations(message, names[0]))  # invalid under all: the first explains

    def _violations(self, message: Any, name: str) -> tuple[Sequence[schemas.Violation], int]:
        """`schemas.violations_counted`, but a union message with a missing or unknown tag (which
        is explained by its tag alone) is explained once per tag value, then from a cache."""
        union = self._unions_by_name.get(name)
        if union is not None and isinstance(message, dict):
            tag = message.get(union.tag, _MISSING)
            if tag is _MISSING or (tag.__class__ is str and tag not in union.branches):
                key = (name, tag is _MISSING, tag if isinstance(tag, str) else "")
                hit = self._by_tag.get(key)
                if hit is None:
                    found, omitted = schemas.violations_counted(message, name)
                    hit = (tuple(found), omitted)
                    if len(self._by_tag) < 4096:
                        self._by_tag[key] = hit
                return hit
        return schemas.violations_counted(message, name)

    def unknown_of(self, message: Any) -> tuple[str, str, str] | None:
        """For a message of a type from a later release: (the union, its tag, the tag's value). That
        is an object whose tag is a string no branch of the union has: the schema's union, or under
        `auto` a message union whose tag it carries when no message type matched it. Else None."""
        if not isinstance(message, dict):
            return None
        if self.schema != AUTO:
            union = schemas.unions().get(self.schema)
            if union is None or not is_unknown(message, union.tag, union.branches):
                return None
            return union.name, union.tag, message[union.tag]
        if self.candidates(message):
            return None
        for t in self.types:
            if t.tag is not None and is_unknown(message, t.tag, t.values):
                return t.name, t.tag, message[t.tag]
        return None

    def _no_candidate(self, message: Any) -> tuple[str, list[schemas.Violation], int]:
        if not isinstance(message, dict):
            # no one schema is used, so no schema location (`schema_path` empty)
            kind = schemas.Violation(
                "$", f"{schemas.short_repr(message)} is not of type 'object'", "type", params={"type": "object"}
            )
            return AUTO, [kind], 0
        unions = [t for t in self.types if t.tag is not None]
        for union in unions:
            if union.tag in message:
                same_tag = [u for u in unions if u.tag == union.tag]
                values = list(dict.fromkeys(v for u in same_tag for v in u.values))
                reason = (
                    f"unknown {union.tag} {schemas.short_repr(message[union.tag])}, "
                    f"expected one of {', '.join(map(repr, values))}"
                )
                value = message[union.tag]
                params = {"error": "mapping" if isinstance(value, str) else "tag", "tag": union.tag, "tagValue": value}
                where = f"#/$defs/{union.name.partition('/')[2]}/discriminator"
                return union.name, [schemas.Violation("$", reason, "discriminator", "", where, params)], 0
        tags = list(dict.fromkeys(u.tag for u in unions))
        reason = f"missing discriminator: no {' or '.join(map(repr, tags))} to pick a schema by"
        params = {"error": "tag", "tag": tags[0]} if len(tags) == 1 else {"error": "tag", "tags": tags}
        return AUTO, [schemas.Violation("$", reason, "discriminator", params=params)], 0
