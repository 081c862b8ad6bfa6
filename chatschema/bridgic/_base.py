"""Behaviour of bridgic messages that the schema cannot carry (copied into chatschema by codegen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, Self

from chatschema._base import SchemaModel

if TYPE_CHECKING:
    from chatschema.bridgic.models.content_block import ToolCallBlock
    from chatschema.bridgic.models.message import Role


class ToolCallLike(Protocol):
    """Anything with a tool call's `id`, `name` and `arguments`: a ToolCall, or bridgic's own."""

    @property
    def id(self) -> str | None: ...

    @property
    def name(self) -> str: ...

    @property
    def arguments(self) -> Mapping[str, Any]: ...


# A ToolCallDict (or any mapping with the three keys), or a ToolCall-like object.
ToolCallInput = Mapping[str, Any] | ToolCallLike


def _tool_call_block(call: object) -> ToolCallBlock:
    from chatschema.bridgic.models.content_block import ToolCallBlock

    if isinstance(call, Mapping):
        missing = [key for key in ("id", "name", "arguments") if key not in call]
        if missing:
            raise ValueError(f"tool call dict without {', '.join(map(repr, missing))}: {dict(call)!r}")
        fields = {key: call[key] for key in ("id", "name", "arguments")}
    elif all(hasattr(call, key) for key in ("id", "name", "arguments")):
        fields = {key: getattr(call, key) for key in ("id", "name", "arguments")}
    else:
        raise ValueError(f"not a tool call (a ToolCallDict or a ToolCall): {call!r}")
    return ToolCallBlock.model_validate({"block_type": "tool_call", **fields})


class BridgicMessage(SchemaModel):
    """Base of bridgic's Message: the `content` property and bridgic's constructors.

    `Message.from_text`, `Message.from_tool_call` and `Message.from_tool_result` take the
    same arguments as bridgic's classmethods and build the same messages. `extras` is copied;
    `extras=None` gives `{}` (bridgic would reject it).
    """

    if TYPE_CHECKING:  # declared by the generated subclass; kept out of the runtime fields
        blocks: list[Any]

    @property
    def content(self) -> str:
        """The text blocks' texts joined with a blank line (`"\\n\\n"`), as bridgic does. Not serialized.

        Setting it replaces the blocks with one text block; like bridgic, only when the message
        has no blocks or a single text block (else ValueError).
        """
        return "\n\n".join(block.text for block in self.blocks if getattr(block, "block_type", None) == "text")

    @content.setter
    def content(self, text: str) -> None:
        from chatschema.bridgic.models.content_block import TextBlock

        if self.blocks and (len(self.blocks) > 1 or getattr(self.blocks[0], "block_type", None) != "text"):
            raise ValueError(
                "the message has several blocks or a non-text block, so `content` cannot be set: set `blocks`"
            )
        self.blocks = [TextBlock(block_type="text", text=text)]

    @classmethod
    def from_text(cls, text: str, role: Role | str = "user", extras: Mapping[str, Any] | None = None) -> Self:
        """A message with one text block; `role` defaults to "user" (bridgic's Role enum works too)."""
        from chatschema.bridgic.models.content_block import TextBlock

        if isinstance(role, Enum):
            role = role.value
        return cls.model_validate(
            {"role": role, "blocks": [TextBlock(block_type="text", text=text)], "extras": dict(extras or {})}
        )

    @classmethod
    def from_tool_call(
        cls,
        tool_calls: ToolCallInput | Sequence[ToolCallInput],
        text: str | None = None,
        extras: Mapping[str, Any] | None = None,
    ) -> Self:
        """An assistant message calling tools: a text block first when `text` is not empty, then one
        ToolCallBlock per call.

        `tool_calls` is a ToolCallDict (a dict with `id`, `name`, `arguments`), a ToolCall (or any
        object with those attributes), or a list of either. Raises ValueError for anything else, and
        `pydantic.ValidationError` (a ValueError) for a null id or bad values, as bridgic does.
        """
        from chatschema.bridgic.models.content_block import TextBlock

        calls: Sequence[object]
        if isinstance(tool_calls, Sequence) and not isinstance(tool_calls, (str, bytes)):
            calls = tool_calls
        else:
            calls = [tool_calls]
        blocks: list[object] = [TextBlock(block_type="text", text=text)] if text else []
        blocks.extend(_tool_call_block(call) for call in calls)
        return cls.model_validate({"role": "assistant", "blocks": blocks, "extras": dict(extras or {})})

    @classmethod
    def from_tool_result(cls, tool_id: str, content: str, extras: Mapping[str, Any] | None = None) -> Self:
        """A tool message with one ToolResultBlock answering the call `tool_id`."""
        from chatschema.bridgic.models.content_block import ToolResultBlock

        block = ToolResultBlock(block_type="tool_result", id=tool_id, content=content)
        return cls.model_validate({"role": "tool", "blocks": [block], "extras": dict(extras or {})})
