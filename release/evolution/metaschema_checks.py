"""hypothesis-jsonschema's metaschema checks, made by jsonschema-rs.

hypothesis-jsonschema (0.23.1, pinned) checks the schemas it is given, and each subschema it
canonicalises, against a metaschema (`check_schema`), both to reject bad schemas and to choose the
jsonschema validator class it then works with. jsonschema's check of a 2020-12 schema spends most of
its time resolving the metaschema's `$dynamicRef`s: building letta/WireMessage's generator and
drawing 4 instances took 60 s, 50 of them in those checks. jsonschema-rs gives the same verdict in a
fraction of that. Every format of the metaschemas is judged by jsonschema's own format checker (this
one does not check `uri-reference`; jsonschema-rs would), and a schema jsonschema-rs finds invalid
is checked by jsonschema as before, so the same schemas pass, the same errors are raised, the same
classes are chosen and the same instances are drawn.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import jsonschema_rs
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


def _conforms(checker: FormatChecker, name: str, value: Any) -> bool:
    return checker.conforms(value, name)


_compiled: dict[type[Any], Any] = {}


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


@contextmanager
def quick_metaschema_checks() -> Iterator[None]:
    """Within: `check_schema` of the drafts in SAME_DRAFT asks jsonschema-rs first, jsonschema only
    about a schema jsonschema-rs finds invalid (for its error). Not thread-safe: one thread generates."""
    saved = {cls: cls.__dict__["check_schema"] for cls in SAME_DRAFT}
    for cls in SAME_DRAFT:
        setattr(cls, "check_schema", classmethod(_quick_check))  # noqa: B010
    try:
        yield
    finally:
        for cls, method in saved.items():
            setattr(cls, "check_schema", method)  # noqa: B010
