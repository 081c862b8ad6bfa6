"""The one error a conversion raises."""

from __future__ import annotations


class ConversionError(ValueError):
    """An input the converter cannot map (or that its schema refuses): which message, which field,
    and why, in one line."""

    def __init__(self, index: int | None, field: str, reason: str) -> None:
        self.index = index
        self.field = field
        self.reason = reason
        where = f"message {index}: " if index is not None else ""
        super().__init__(f"{where}{field}: {reason}")
