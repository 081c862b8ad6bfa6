"""Conversions between families, with both ends checked against their schemas.

`letta_to_docent` turns a Letta conversation into a Docent agent run; `ConversionError` is the one
error any conversion raises. The mapping, field by field: docs/convert.md.
"""

from .errors import ConversionError
from .letta import letta_to_docent

__all__ = ["ConversionError", "letta_to_docent"]
