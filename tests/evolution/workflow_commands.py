"""GitHub Actions workflow commands (`::error file=...,line=N,title=...::message`) read back by their
syntax, as the runner reads them: for the diff's `--format github` output wherever it is printed."""

from __future__ import annotations

import re
from dataclasses import dataclass

COMMAND = re.compile(
    r"::(error|warning|notice)(?: ((?:file|line|title)=[^,:\r\n]*(?:,(?:file|line|title)=[^,:\r\n]*)*))?::([^\r\n]*)"
)


@dataclass(frozen=True)
class Annotation:
    """One workflow command: its level, properties and message, unescaped."""

    level: str
    props: dict[str, str]
    message: str


def unescape(text: str) -> str:
    """A property or message as the runner decodes it (`%25` last, so `%253A` stays `%3A`)."""
    for code, char in (("%0A", "\n"), ("%0D", "\r"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


def parse(line: str) -> Annotation | None:
    """The annotation a line of output is, or None if the runner would not read it as one."""
    match = COMMAND.fullmatch(line)
    if match is None:
        return None
    props = dict(p.split("=", 1) for p in match[2].split(",")) if match[2] else {}
    return Annotation(match[1], {k: unescape(v) for k, v in props.items()}, unescape(match[3]))
