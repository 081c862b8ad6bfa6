"""Escapers: the only way a string from a schema reaches generated Python, TypeScript or Markdown.

A schema is untrusted input to the generator. Each function here
makes text safe for exactly one place in one target language and returns it as `Escaped`; the
jinja2 environment of codegen refuses to output a plain `str`, so a template that pastes a value
without choosing its escaper fails to render instead of emitting injectable code.
"""

from __future__ import annotations

import json
import keyword
import re
import unicodedata


class Escaped(str):
    """Text already made safe for the place it is rendered into."""

    __slots__ = ()


def _unprintable(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def py_literal(value: str) -> Escaped:
    """A Python string literal with the value of `value` (for code, not docstrings).

    `repr` always yields a valid literal: quotes and backslashes are escaped, unprintable and
    line-breaking characters (U+2028, lone surrogates, ...) become escape sequences, and printable
    non-BMP characters stay themselves (never surrogate pairs, which would change the value).
    """
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return Escaped(repr(value))


def py_docstring(text: str) -> Escaped:
    """`text` for the inside of a `\"\"\"...\"\"\"` docstring, reading as it was written.

    Backslashes and every double quote are escaped (so no run of quotes can close the string),
    and characters that are not printable (other than newlines) become escape sequences.
    """
    out: list[str] = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n" or ch.isprintable():
            out.append(ch)
        else:
            out.append(_unprintable(ch))
    return Escaped("".join(out))


def py_identifier(name: str) -> Escaped:
    """`name` as it stands, if it is a Python identifier that is not a keyword; else ValueError."""
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) or not name.isascii():
        raise ValueError(f"{name!r} is not a usable Python identifier")
    return Escaped(name)


_PLAIN = re.compile(r"[A-Za-z0-9_./#-]*")


def plain(value: str) -> Escaped:
    """`value` as it stands, if it holds only letters, digits and `_./#-` (names, paths, anchors)."""
    if not isinstance(value, str) or not _PLAIN.fullmatch(value):
        raise ValueError(f"{value!r} holds characters that need escaping here")
    return Escaped(value)


def js_string(value: str) -> Escaped:
    """A JavaScript / TypeScript string literal (double-quoted) with the value of `value`."""
    return Escaped(json.dumps(value, ensure_ascii=True))


def ts_comment(text: str) -> str:
    """`text` for the inside of a `/* ... */` (JSDoc) comment: no `*/` can end it early."""
    return text.replace("*/", "*\\/")


_HTML = str.maketrans({"<": "&lt;", ">": "&gt;", "&": "&amp;"})
_BACKTICKS = re.compile(r"`+")


def _one_line(text: str) -> str:
    # str.split() with no argument splits on every Unicode line break, U+2028 and U+0085 included.
    return " ".join(text.split())


def md_code(value: str, in_table: bool = False) -> Escaped:
    """`value` as a Markdown inline code span, whatever backticks or newlines it holds."""
    value = _one_line(value) if value.strip() else value.replace("\n", " ")
    longest = max((len(m) for m in _BACKTICKS.findall(value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") or not value.strip() else ""
    span = f"{fence}{pad}{value}{pad}{fence}"
    return Escaped(span.replace("|", "\\|") if in_table else span)


def md_text(text: str) -> Escaped:
    """Prose for a Markdown paragraph: written Markdown kept, raw HTML shown as text.

    Code spans are left alone (entities would show literally inside them); elsewhere `<`, `>` and
    `&` become entities, so a description cannot inject HTML or a script into rendered docs.
    """
    out: list[str] = []
    pos = 0
    while pos < len(text):
        m = _BACKTICKS.search(text, pos)
        if m is None:
            out.append(text[pos:].translate(_HTML))
            break
        out.append(text[pos : m.start()].translate(_HTML))
        close = re.compile(r"(?<!`)" + m.group() + r"(?!`)").search(text, m.end())
        if close is None:
            out.append(m.group().replace("`", "\\`"))
            pos = m.end()
            continue
        out.append(text[m.start() : close.end()])
        pos = close.end()
    return Escaped("".join(out))


def md_line(text: str) -> Escaped:
    """Prose for one line of Markdown (a list item): line breaks folded, HTML shown as text."""
    return md_text(_one_line(text))


def md_cell(text: str) -> Escaped:
    """Prose for a Markdown table cell: one line, `|` escaped, HTML shown as text."""
    return Escaped(md_line(text).replace("|", "\\|"))


def md_fence(text: str, lang: str = "") -> Escaped:
    """`text` as a fenced code block whose fence no line of `text` can close."""
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return Escaped(f"{fence}{lang}\n{text}\n{fence}")


def safe_text(text: str) -> bool:
    """Whether `text` is free of characters no generated file should carry (controls, lone surrogates)."""
    return not any(
        unicodedata.category(ch) in ("Cs", "Co", "Cn") or (unicodedata.category(ch) == "Cc" and ch not in "\n\t")
        for ch in text
    )
