"""Conversions into Docent agent runs, with both ends checked against their schemas.

`letta_to_docent`, `bridgic_to_docent` and `swarm_to_docent` turn one conversation of their family
into a Docent `AgentRun`, and `docent_to_letta` takes a run made from Letta back to its messages;
`ConversionError` is the one error any conversion raises. The mapping,
field by field: docs/convert.md. `chatschema convert` is the command line (convert/command.py).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import ConversionError

if TYPE_CHECKING:
    from .back import docent_to_letta
    from .bridgic import bridgic_to_docent
    from .letta import letta_to_docent
    from .swarm import swarm_to_docent

__all__ = ["ConversionError", "bridgic_to_docent", "docent_to_letta", "letta_to_docent", "swarm_to_docent"]
# Imported on first use: they build the Docent models, which `chatschema validate` (importing the
# command line, and with it this package) does not need.
_LAZY = {
    "bridgic_to_docent": "bridgic",
    "docent_to_letta": "back",
    "letta_to_docent": "letta",
    "swarm_to_docent": "swarm",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
