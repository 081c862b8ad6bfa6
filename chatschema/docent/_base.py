"""Behaviour of Docent messages that the schema cannot carry (copied into chatschema by codegen)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatschema._base import SchemaModel


class DocentMessage(SchemaModel):
    """Base of the Docent message classes: adds the `text` property Docent's messages have."""

    if TYPE_CHECKING:  # declared by every subclass; kept out of the runtime fields
        content: str | list[Any]

    @property
    def text(self) -> str:
        """The message's text: `content` itself if a string, else its text parts joined with newlines.

        Reasoning parts are left out, as Docent does. Not serialized.
        """
        if isinstance(self.content, str):
            return self.content
        return "\n".join(part.text for part in self.content if getattr(part, "type", None) == "text")
