"""Per-family choices that the schemas cannot express: which hand-written base class adds behaviour."""

from __future__ import annotations

# Pydantic base class for every generated model: strict types, unknown keys kept.
DEFAULT_BASE = "chatschema._base.SchemaModel"

# type name -> base class, per family. The base classes live in the hand-written chatschema/.
BASE_CLASSES: dict[str, dict[str, str]] = {
    "docent": {
        name: "chatschema.docent._base.DocentMessage"
        for name in ("SystemMessage", "UserMessage", "AssistantMessage", "ToolMessage")
    },
    "bridgic": {"Message": "chatschema.bridgic._base.BridgicMessage"},
    "letta": {"ToolCallDelta": "chatschema.letta._base.ToolCallDeltaBase"},
}

# Families whose TypeScript types are closed (no `[k: string]: unknown` index signature), because
# the real system's own types are TypeScript interfaces: agent-swarm-kit rejects unknown keys in
# object literals at compile time, and so must our types. The schemas still accept unknown keys.
CLOSED_TS_FAMILIES: frozenset[str] = frozenset({"swarm"})
