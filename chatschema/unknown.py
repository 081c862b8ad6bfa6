"""Payloads of a tagged union whose tag names a type this version does not know yet.

A server upgrade brings new message types (Letta added `summary_message`, `event_message` and
approvals in a few releases). Strict is right for a producer's tests: an unknown tag is an error,
which is every reader's default. A consumer in production turns on the lenient mode explicitly:

- the parse functions (`parse_letta_message(data, unknown="keep")`) give an `Unknown<Union>` (a
  subclass of `UnknownVariant`) for such a payload, keeping it as it came: its dump is the payload
  again, and its JSON dump the very text parsed. Type checkers see `LettaMessage | UnknownLettaMessage`
  and make the caller handle it. A tag the schemas know is validated in full either way: lenient is
  never "anything goes";
- `typeddict_adapter(name, unknown="keep")` does the same for the TypedDicts (the payload is kept
  as a dict);
- `lenient_schema(name)` and `validator(name, unknown="keep")` do it for plain `jsonschema`.

What counts as unknown: a JSON object whose tag is a string that no branch of the union has. A
missing tag, or a tag that is not a string, is an error in every mode.
"""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Collection, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

if TYPE_CHECKING:  # imported when used: the generated family modules import this one
    from jsonschema.protocols import Validator
    from pydantic import TypeAdapter

Unknown = Literal["error", "keep"]
"""What a reader does with an unknown tag: raise (`"error"`, the default) or keep the payload."""

MODES: tuple[Unknown, ...] = ("error", "keep")


def check_mode(unknown: object) -> bool:
    """Whether `unknown` keeps unknown variants; ValueError naming the modes for anything else."""
    if unknown not in MODES:
        raise ValueError(f"unknown is 'error' or 'keep', not {unknown!r}")
    return unknown == "keep"


class UnknownVariant:
    """A payload of union `union` whose tag (`tag_name`) names no type of this version.

    `raw` is the payload as it came (a dict); `tag` its tag value. `model_dump()` gives a copy of
    the payload and `model_dump_json()` the JSON text it was parsed from (byte for byte), or, for a
    payload given as a dict, its compact JSON. Two are equal when their class and payload are.
    """

    __slots__ = ("_json", "raw")
    union: ClassVar[str] = ""
    """The union, `<family>/<Type>`."""
    tag_name: ClassVar[str] = ""
    """The key that names the type."""
    known: ClassVar[frozenset[str]] = frozenset()
    """The tag values this version knows."""

    def __init__(self, raw: Mapping[str, Any], json_text: str | None = None) -> None:
        if not is_unknown(raw, self.tag_name, self.known):
            raise ValueError(f"not an unknown {self.union}: its {self.tag_name!r} is missing or known")
        self.raw: dict[str, Any] = dict(raw)
        self._json = json_text

    @property
    def tag(self) -> str:
        """The tag value this version does not know."""
        value: str = self.raw[self.tag_name]
        return value

    def model_dump(self, **_: Any) -> dict[str, Any]:
        """A copy of the payload (the keywords of a model's `model_dump` are accepted and change nothing)."""
        return copy.deepcopy(self.raw)

    def model_dump_json(self, **_: Any) -> str:
        """The JSON text the payload was parsed from, or its compact JSON if it came as a dict."""
        if self._json is not None:
            return self._json
        return json.dumps(self.raw, ensure_ascii=False, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, UnknownVariant) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash((type(self), self.tag))

    def __repr__(self) -> str:
        from chatschema.schemas import short_repr  # bounded, whatever the tag's size

        return f"{type(self).__name__}({self.tag_name}={short_repr(self.tag)}, {len(self.raw)} keys)"


V = TypeVar("V", bound=UnknownVariant)


def is_unknown(data: object, tag: str, known: Collection[str]) -> bool:
    """Whether `data` is an object whose `tag` is a string none of `known`."""
    if not isinstance(data, Mapping):
        return False
    value = data.get(tag)
    return isinstance(value, str) and value not in known


def keep_unknown(cls: type[V], data: object, unknown: object) -> V | None:
    """The unknown variant of `data` if `unknown` keeps them and its tag is unknown; else None."""
    if not check_mode(unknown):
        return None
    if isinstance(data, cls):
        return data
    if isinstance(data, UnknownVariant):  # of another union: its payload may be unknown here too
        data = data.raw
    if is_unknown(data, cls.tag_name, cls.known):
        assert isinstance(data, Mapping)
        return cls(data)
    return None


def keep_unknown_json(cls: type[V], data: str | bytes, unknown: object) -> V | None:
    """For a JSON document: its unknown variant if `unknown` keeps them and its tag is unknown, else
    None (parse it as usual). JSON is read under `chatschema.jsontext`'s rules in every mode."""
    if not check_mode(unknown) or not isinstance(data, str | bytes | bytearray):
        return None  # not text: the usual parse says what JSON text is
    from chatschema import jsontext

    try:
        text = data.decode("utf-8") if isinstance(data, bytes | bytearray) else data
        parsed = jsontext.parse(text.encode("utf-8", "surrogatepass"), jsontext.loader())
    except (UnicodeDecodeError, jsontext.Malformed):
        return None  # the usual parse says why, as a json_invalid ValidationError
    return cls(parsed, text) if is_unknown(parsed, cls.tag_name, cls.known) else None


def lenient_schema(name: str) -> dict[str, Any]:
    """The schema of union `name` (`<family>/<Type>`) that also accepts unknown variants: an object
    whose tag is a string no branch has is valid; anything else is judged by the union itself (so
    its errors are the union's). Resolve it with `chatschema.schemas.registry()`."""
    from chatschema import schemas

    union = _union(name)
    unknown_tag = {"type": "string", "not": {"enum": sorted(union.branches)}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "if": {"type": "object", "required": [union.tag], "properties": {union.tag: unknown_tag}},
        "then": True,
        "else": {"$ref": schemas.schema_id(name)},
    }


def validator(name: str, *, unknown: Unknown = "error") -> Validator:
    """`chatschema.schemas.validator(name)` for union `name`; with `unknown="keep"`, over
    `lenient_schema(name)` (the same registry, format checks and explanations of known tags)."""
    from chatschema import schemas

    strict = schemas.validator(name)
    if not check_mode(unknown):
        return strict
    _union(name)
    return strict.evolve(schema=lenient_schema(name))


def typeddict_adapter(name: str, *, unknown: Unknown = "error") -> TypeAdapter[Any]:
    """A `pydantic.TypeAdapter` of the TypedDict union `name` (`<family>/<Type>`), whose
    `validate_python` gives the schema's verdicts and returns the dict; with `unknown="keep"` an
    unknown variant is returned as it came, a known tag still validated in full."""
    return _typeddict_adapter(name, check_mode(unknown))


@cache
def _typeddict_adapter(name: str, keep: bool) -> TypeAdapter[Any]:
    from typing import Annotated, Union

    from pydantic import Discriminator, Tag, TypeAdapter

    union = _union(name)
    if not keep:
        return TypeAdapter(_typeddict(name))
    known = frozenset(union.branches)
    unknown_key = "\0unknown"  # the branch of unknown tags: `which` returns it for no known value

    def which(data: Any) -> str | None:
        value = data.get(union.tag) if isinstance(data, dict) else None
        if not isinstance(value, str):
            return None  # pydantic then says the tag could not be read
        return value if value in known else unknown_key

    branches = [Annotated[_typeddict(branch), Tag(value)] for value, branch in union.branches.items()]
    branches.append(Annotated[dict[str, Any], Tag(unknown_key)])
    lenient: Any = Annotated[Union[tuple(branches)], Discriminator(which)]  # noqa: UP007 (built at run time)
    return TypeAdapter(lenient)


def _typeddict(name: str) -> Any:
    """The TypedDict (or TypedDict union) of `<family>/<Type>`."""
    family, type_name = name.split("/", 1)
    return getattr(importlib.import_module(f"chatschema.{family}.typeddicts"), type_name)


def _union(name: str) -> Any:
    from chatschema import schemas

    found = schemas.unions().get(name)
    if found is None:
        schemas.schema_id(name)  # UnknownSchemaError for a name that is no schema
        raise ValueError(f"{name} is not a tagged union (see chatschema.schemas.unions())")
    return found
