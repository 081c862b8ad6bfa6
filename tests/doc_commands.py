"""Shell commands in Markdown (README.md, docs/**/*.md): which fenced blocks run, and how.

A fenced block whose language is `sh`, `bash`, `shell` or `console` is a list of commands, one per
line (blank lines and `#` comments skipped; a `$ ` prompt is dropped). The comment line right above
the fence can say how it runs:

    <!-- doc-test: skip: needs PyPI and minutes (nox) -->   not run; the reason is reported
    <!-- doc-test: exit 1 -->                               each command must exit with 1

An unlabelled fence right after a shell block, marked `<!-- doc-test: output -->`, is that block's
output: every line the commands print on stdout must appear in it, in order (other lines, such as
the summary on stderr, may appear between them). Paths of the installed package's samples are
shown as `.../chatschema/samples/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SHELLS = {"sh", "bash", "shell", "console"}
_MARKER = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->")
_FENCE = re.compile(r"^(\s*)```(\S*)\s*$")


class MarkerError(ValueError):
    """A doc-test marker this module does not understand (one line naming the file and line)."""


@dataclass
class Block:
    """One shell block: where it is, its commands, and how it runs."""

    path: Path
    line: int  # of the opening fence, 1-based
    commands: list[str]
    skip: str = ""
    exit_code: int = 0
    output: list[str] | None = None
    name: str = ""  # the file as reports name it (default: its file name)

    @property
    def id(self) -> str:
        return f"{self.name or self.path.name}:{self.line}"


def _parse_marker(text: str, where: str) -> tuple[str, str]:
    if text.startswith("skip:") and text[5:].strip():
        return "skip", text[5:].strip()
    if m := re.fullmatch(r"exit (\d+)", text):
        return "exit", m[1]
    if text == "output":
        return "output", ""
    raise MarkerError(f"{where}: unknown doc-test marker {text!r} (skip: <reason> | exit <n> | output)")


def _commands(body: list[str]) -> list[str]:
    commands = []
    for raw in body:
        line = raw.strip()
        if line.startswith("$ "):
            line = line[2:]
        if line and not line.startswith("#"):
            commands.append(line)
    return commands


def shell_blocks(path: Path, name: str = "") -> list[Block]:
    """Every shell block of a Markdown file, with its marker and output block applied. `name` is how
    ids and errors name the file (default: its file name; give a path where two files share a name)."""
    name = name or path.name
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    marker: tuple[str, str] | None = None
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        found = _MARKER.search(lines[i])
        if found and not fence:
            marker = _parse_marker(found[1], f"{name}:{i + 1}")
            i += 1
            continue
        if not fence:
            if lines[i].strip():
                marker = None
            i += 1
            continue
        indent, lang = fence[1], fence[2]
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = [line.removeprefix(indent) for line in lines[i + 1 : end]]
        if marker is not None and marker[0] == "output":
            if lang or not blocks or blocks[-1].output is not None:
                raise MarkerError(f"{name}:{i + 1}: an output block must be unlabelled and follow a shell block")
            blocks[-1].output = body
        elif lang in SHELLS:
            block = Block(path, i + 1, _commands(body), name=name)
            if marker is not None and marker[0] == "skip":
                block.skip = marker[1]
            elif marker is not None and marker[0] == "exit":
                block.exit_code = int(marker[1])
            blocks.append(block)
        elif marker is not None:
            raise MarkerError(f"{name}:{i + 1}: doc-test marker on a {lang or 'plain'} block")
        marker = None
        i = end + 1
    return blocks


def in_order(wanted: list[str], shown: list[str]) -> list[str]:
    """The lines of `wanted` missing from `shown` (each must come after the one before)."""
    missing: list[str] = []
    at = 0
    for line in wanted:
        try:
            at = shown.index(line, at) + 1
        except ValueError:
            missing.append(line)
    return missing
