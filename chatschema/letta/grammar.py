"""The order of a Letta stream's frames, as `schemas/letta/grammars/LettaStreamingResponse.json` says.

The grammar gives each frame type (by `message_type`) a role (message, ping, error, stop, usage), and
a small state machine over the roles: which may come in each state, and the states a complete stream
may end in. The reader (`chatschema.letta.stream`) steps it for each frame that is not a message, and
closes the stream to messages when it reaches a state that allows none.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

OUT_OF_ORDER = "out_of_order"  # why a frame is dropped when its role names no reason of its own


@dataclass(frozen=True)
class Grammar:
    """A stream grammar: the role of each tag, and the state machine over roles."""

    roles: Mapping[str, str]  # tag -> role
    dropped_as: Mapping[str, str]  # role -> why a frame of it is dropped where it may not come
    start: str
    next: Mapping[str, Mapping[str, str]]  # state -> role -> state
    final: frozenset[str]

    @classmethod
    def of(cls, contents: Mapping[str, Any]) -> Grammar:
        """A grammar from the contents of its file (descriptions and all)."""
        roles = {tag: role for role, spec in contents["roles"].items() for tag in spec["tags"]}
        dropped = {role: spec["dropped_as"] for role, spec in contents["roles"].items() if "dropped_as" in spec}
        nexts = {name: dict(spec["next"]) for name, spec in contents["states"].items()}
        return cls(roles, dropped, contents["start"], nexts, frozenset(contents["final"]))

    def role(self, tag: str) -> str | None:
        """The role of a frame type (None: the grammar does not know it)."""
        return self.roles.get(tag)

    def step(self, state: str, role: str) -> str | None:
        """The state after a frame of `role`, or None where that role may not come."""
        return self.next[state].get(role)

    def allows_messages(self, state: str) -> bool:
        """Whether messages may still come in `state`."""
        return "message" in self.next[state]

    def reason(self, role: str) -> str:
        """Why a frame of `role` is dropped where it may not come."""
        return self.dropped_as.get(role, OUT_OF_ORDER)


@cache
def letta_stream() -> Grammar:
    """The grammar of `letta/LettaStreamingResponse`, from the copy shipped in the package."""
    shipped = resources.files("chatschema.schemas") / "letta" / "grammars" / "LettaStreamingResponse.json"
    return Grammar.of(json.loads(shipped.read_text(encoding="utf-8")))
