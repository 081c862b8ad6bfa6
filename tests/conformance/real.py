"""The real systems' own libraries as validators: does Docent / letta-client / bridgic-core accept a payload?

The type mappings are the ones the real-system tests use (tests/test_*_real.py). agent-swarm-kit
is TypeScript: the swarm family has no real validator here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

from pydantic import BaseModel, TypeAdapter

REAL_SIDE = {"docent": "docent", "letta": "letta-client", "bridgic": "bridgic-core"}


@cache
def _adapter(tp: Any) -> TypeAdapter[Any]:
    return TypeAdapter(tp)


def _docent(type_name: str) -> Callable[[Any], Any] | None:
    from tests.test_docent_real import DOCENT_TYPES, PARSERS

    if type_name in PARSERS:
        parser = PARSERS[type_name]

        def parse(payload: Any) -> Any:
            if not isinstance(payload, dict):
                raise TypeError("Docent's parse functions take dicts")
            return parser(payload)

        return parse
    return _adapter(DOCENT_TYPES[type_name]).validate_python if type_name in DOCENT_TYPES else None


def _letta(type_name: str) -> Callable[[Any], Any] | None:
    from tests.test_letta_real import SDK_TYPES

    return _adapter(SDK_TYPES[type_name]).validate_python if type_name in SDK_TYPES else None


def _bridgic(type_name: str) -> Callable[[Any], Any] | None:
    from bridgic.core.model import types as bt

    from tests.test_bridgic_real import BRIDGIC_TYPES

    if type_name == "ToolCallDict":

        def parse(payload: Any) -> Any:
            if not isinstance(payload, dict):
                raise TypeError("a ToolCallDict is a dict")
            return bt.Message.from_tool_call(cast(Any, payload))

        return parse
    return _adapter(BRIDGIC_TYPES[type_name]).validate_python if type_name in BRIDGIC_TYPES else None


@cache
def real_parser(name: str) -> Callable[[Any], Any] | None:
    """The real library's parse function for `<family>/<Type>`, or None where there is none."""
    family, type_name = name.split("/")
    finder = {"docent": _docent, "letta": _letta, "bridgic": _bridgic}.get(family)
    return finder(type_name) if finder else None


def real_parse(name: str, payload: Any) -> tuple[bool | None, Any]:
    """(whether the real library accepts the payload, what it parsed), or (None, None) where there is none."""
    parse = real_parser(name)
    if parse is None:
        return None, None
    try:
        return True, parse(payload)
    except Exception:  # a real library may raise anything on bad input; all of it is a rejection
        return False, None


def real_accepts(name: str, payload: Any) -> bool | None:
    return real_parse(name, payload)[0]


def real_dump(name: str, parsed: Any) -> Any:
    """What the real library writes back from what it parsed, in JSON form (letta-client: only the keys
    it was given, as its `to_dict()` does; bridgic's ToolCallDict: the tool call block it became)."""
    family, type_name = name.split("/")
    if family == "bridgic" and type_name == "ToolCallDict":
        block = parsed.blocks[0].model_dump(mode="json")
        return {k: v for k, v in block.items() if k != "block_type"}
    exclude_unset = family == "letta"
    if isinstance(parsed, BaseModel):
        return parsed.model_dump(mode="json", exclude_unset=exclude_unset)
    return _adapter(parsed.__class__).dump_python(parsed, mode="json", exclude_unset=exclude_unset)
