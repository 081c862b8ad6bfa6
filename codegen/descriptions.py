"""Descriptions kept out of a generator's input and put back into its output.

A description edit is the most common schema edit, and the generators' output depends on a
description only where they write it. So each description the generators would read is replaced
by a numbered placeholder (an identifier no schema holds), the generator's output is cached under
that input, and the placeholders are then written back as the generator itself writes each
description: a Python docstring with datamodel-codegen's own escaping, a string literal by its own
`stable_repr`, a doc comment line by line as json-schema-to-typescript writes it and prettier then
trims it. An edit of descriptions alone then reuses the generators' cached output.

A placeholder found anywhere else is not guessed at: `restore` returns None, and the build runs the
generator on the real text instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from . import walk

PREFIX = "QzD"  # then a number and "Z": an identifier, which every writer copies as it is
_PLACEHOLDER = re.compile(PREFIX + r"\d+Z")
# A docstring line of a placeholder alone (as format_docstring writes one), or a string literal of one.
_DOCSTRING_LINE = re.compile(r"(?m)^([ \t]*)(" + _PLACEHOLDER.pattern + r")$")
_LITERAL = re.compile(r"'(" + _PLACEHOLDER.pattern + r")'")
# A doc comment line of a placeholder alone (json-schema-to-typescript's " * " and prettier's indent).
_COMMENT_LINE = re.compile(r"(?m)^([ \t]*) \* (" + _PLACEHOLDER.pattern + r")$")
_PLAIN_SPACE = frozenset(" \t\n")


def _literal(text: str) -> str:
    from datamodel_code_generator.python_literal import stable_repr

    return stable_repr(text)


def _jsdoc_line(line: str) -> str:
    """A middle line of a doc comment as prettier prints it: trimmed, but for the two spaces that
    end a Markdown line (a hard break)."""
    trimmed = line.rstrip(" \t")
    return f"{trimmed}  " if trimmed != "*" and line.endswith("  ") else trimmed


class Placeholders:
    """The descriptions replaced so far, by placeholder."""

    def __init__(self, plain_spaces_only: bool = False) -> None:
        self.texts: dict[str, str] = {}
        self._placeholders: dict[str, str] = {}  # the inverse of texts
        # prettier trims a comment line by JavaScript's idea of white space, which is not Python's:
        # for comments, a text with any other white space is kept as it is
        self._plain_spaces_only = plain_spaces_only

    def hide(self, definition: Any) -> Any:
        """`definition` (plain JSON) with each non-blank description replaced by a new placeholder."""
        return walk.transform(definition, self._hidden)

    def _hidden(self, _: Mapping[str, Any], node: dict[str, Any]) -> dict[str, Any]:
        text = node.get("description")
        if not isinstance(text, str) or not text.strip():  # a blank one is written as nothing: kept
            return node
        if self._plain_spaces_only and any((c.isspace() or c == "\ufeff") and c not in _PLAIN_SPACE for c in text):
            return node
        # one placeholder per text: the tools act on equal descriptions (a tuple's "Items:" line,
        # a merge of models that render alike), so equal texts stay equal
        placeholder = self._placeholders.setdefault(text, f"{PREFIX}{len(self._placeholders)}Z")
        self.texts[placeholder] = text
        node["description"] = placeholder
        return node

    def restore_python(self, source: str) -> str | None:
        """`source` (datamodel-codegen's output) with each placeholder written as the generator
        writes its description; None if one stands where the generator's writing is not known."""
        from datamodel_code_generator._python_syntax import escape_docstring

        def docstring_line(match: re.Match[str]) -> str:
            indent, text = match[1], self.texts[match[2]]
            escaped = escape_docstring(text) or ""
            # the generator's formatter strips every line's trailing white space
            return "\n".join(f"{indent}{line}".rstrip() if line else "" for line in escaped.split("\n"))

        def literal(match: re.Match[str]) -> str:
            return _literal(self.texts[match[1]])

        return self._restored(lambda: _LITERAL.sub(literal, _DOCSTRING_LINE.sub(docstring_line, source)))

    def restore_typescript(self, source: str) -> str | None:
        """`source` (json-schema-to-typescript's output, formatted) with each placeholder written as
        the tool writes its description; None if one stands where that is not known."""

        def comment_line(match: re.Match[str]) -> str:
            indent, text = match[1], self.texts[match[2]]
            return "\n".join(f"{indent} {_jsdoc_line('* ' + line)}" for line in text.split("\n"))

        return self._restored(lambda: _COMMENT_LINE.sub(comment_line, source))

    @staticmethod
    def _restored(substitute: Callable[[], str]) -> str | None:
        try:
            restored = substitute()
        except KeyError:  # a placeholder this build did not make
            return None
        # any trace of a placeholder (one the tool cut short, too) is a place not known
        return None if PREFIX in restored else restored


def holds_placeholder_text(value: Any) -> bool:
    """Whether a JSON value holds, decoded, the start of a placeholder (then none is used)."""
    return PREFIX in json.dumps(value, ensure_ascii=False)
