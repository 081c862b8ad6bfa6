"""Code in Markdown (README.md, docs/**/*.md): which fenced blocks run, how, and what output they must print.

Two kinds of fenced block run:

- A block whose language is `sh`, `bash`, `shell` or `console` is a list of commands, one per line
  (blank lines and `#` comments skipped; a `$ ` prompt is dropped), each run by `bash -o pipefail`
  from the checkout root.
- A block whose language is `python` (or `py`) is a script, run in a fresh interpreter (the test
  environment's python, cwd the checkout root), on its own: it must define every name it uses.

`ts`, `js` and other blocks (json, yaml, plain) are not run: the TypeScript and Node APIs they show
are tested by the Node tests (tests/node/) and tests/test_packages.py.

HTML comments right above a fence say how it runs, one marker per comment (several comment lines
may stack):

    <!-- doc-test: exit 1 -->             each command (the script) must exit with 1 (default 0)
    <!-- doc-test: continues -->          (python) runs after the page's previous python block, in
                                          the same interpreter, so it may use that block's names
    <!-- doc-test: session docs_slow -->  run by `nox -s docs_slow` only (needs PyPI, nox, Chromium
                                          or minutes); the normal suite reports it as deferred

An unlabelled fence right after a block, marked `<!-- doc-test: output -->`, is that block's
output: it must be exactly what the commands print, stdout and stderr together in the order they
are printed (Python runs unbuffered, so the order is the terminal's), trailing spaces and trailing
blank lines aside. Two placeholders stand for what varies from run to run:

    …            (U+2026, within a line) any text on that line, e.g. `in …s (… msg/s)` for a
                 timing or `…/chatschema/samples/` for where the package is installed
    …            (a line of its own) any number of lines, e.g. the middle of a traceback

Every other character, numbers included, must match.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SHELLS = {"sh", "bash", "shell", "console"}
PYTHONS = {"python", "py"}
ANY = "…"
_MARKER = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->")
_FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
_MARKERS = "exit <n> | continues | session <name> | output"


class MarkerError(ValueError):
    """A doc-test marker this module does not understand (one line naming the file and line)."""


@dataclass
class Block:
    """One block that runs: where it is, its commands (shell) or code (python), and how it runs."""

    path: Path
    line: int  # of the opening fence, 1-based
    commands: list[str]
    lang: str = "shell"  # or "python"
    code: str = ""  # python: the script, padded so that its line numbers are the page's
    exit_code: int = 0
    output: list[str] | None = None
    session: str = ""  # the nox session that runs it ("": the normal suite)
    continues: Block | None = None  # python: the page's previous python block, run first
    name: str = ""  # the file as reports name it (default: its file name)

    @property
    def id(self) -> str:
        return f"{self.name or self.path.name}:{self.line}"

    def chain(self) -> list[Block]:
        """The python blocks one interpreter runs for this block, in order, this one last."""
        return [*(self.continues.chain() if self.continues else []), self]


def _parse_marker(text: str, where: str) -> tuple[str, str]:
    if m := re.fullmatch(r"exit (\d+)", text):
        return "exit", m[1]
    if m := re.fullmatch(r"session ([A-Za-z0-9_-]+)", text):
        return "session", m[1]
    if text in ("output", "continues"):
        return text, ""
    if text.startswith("skip"):
        raise MarkerError(f"{where}: no block is skipped: run it, or name the session that does (session <name>)")
    raise MarkerError(f"{where}: unknown doc-test marker {text!r} ({_MARKERS})")


def _commands(body: list[str]) -> list[str]:
    commands = []
    for raw in body:
        line = raw.strip()
        if line.startswith("$ "):
            line = line[2:]
        if line and not line.startswith("#"):
            commands.append(line)
    return commands


def _new_block(path: Path, name: str, at: int, lang: str, body: list[str], markers: dict[str, str]) -> Block:
    """The block a fence opens at line index `at`, with its markers applied."""
    block = Block(path, at + 1, _commands(body) if lang in SHELLS else [], name=name)
    if lang in PYTHONS:
        block.lang, block.code = "python", "\n" * (at + 1) + "\n".join(body) + "\n"
    block.exit_code = int(markers.get("exit", "0"))
    block.session = markers.get("session", "")
    return block


def _apply(blocks: list[Block], block: Block, markers: dict[str, str], where: str) -> None:
    if "continues" in markers:
        earlier = [b for b in blocks if b.lang == "python"]
        if block.lang != "python" or not earlier:
            raise MarkerError(f"{where}: `continues` needs a python block after another python block")
        block.continues = earlier[-1]
        block.session = block.session or block.continues.session
    blocks.append(block)


def _fence_end(lines: list[str], start: int) -> int:
    end = start + 1
    while end < len(lines) and lines[end].strip() != "```":
        end += 1
    return end


def shell_blocks(path: Path, name: str = "") -> list[Block]:
    """Every block of a Markdown file that runs (shell and python), with its markers and output block
    applied. `name` is how ids and errors name the file (default: its file name; give a path where two
    files share a name)."""
    name = name or path.name
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    markers: dict[str, str] = {}
    i = 0
    while i < len(lines):
        fence, found = _FENCE.match(lines[i]), _MARKER.fullmatch(lines[i].strip())
        if found and not fence:
            key, value = _parse_marker(found[1], f"{name}:{i + 1}")
            markers[key] = value
        elif not fence and lines[i].strip():
            markers = {}
        if not fence:
            i += 1
            continue
        lang, end = fence[2], _fence_end(lines, i)
        body = [line.removeprefix(fence[1]) for line in lines[i + 1 : end]]
        where = f"{name}:{i + 1}"
        if "output" in markers:
            if lang or len(markers) > 1 or not blocks or blocks[-1].output is not None:
                raise MarkerError(
                    f"{where}: an output block must be unlabelled, unmarked otherwise, and follow a block"
                )
            blocks[-1].output = body
        elif lang in SHELLS | PYTHONS:
            _apply(blocks, _new_block(path, name, i, lang, body, markers), markers, where)
        elif markers:
            raise MarkerError(f"{where}: doc-test marker on a {lang or 'plain'} block")
        markers = {}
        i = end + 1
    return blocks


@cache
def _line_pattern(shown: str) -> re.Pattern[str]:
    return re.compile(".+?".join(re.escape(part) for part in shown.rstrip().split(ANY)))


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the output block `shown` is what was `printed` (placeholders as the module says)."""
    shown, printed = _trim(shown), _trim(printed)

    @cache
    def at(s: int, p: int) -> bool:
        if s == len(shown):
            return p == len(printed)
        if shown[s].strip() == ANY:
            return at(s + 1, p) or (p < len(printed) and at(s, p + 1))
        return p < len(printed) and bool(_line_pattern(shown[s]).fullmatch(printed[p])) and at(s + 1, p + 1)

    return at(0, 0)


def _trim(lines: list[str]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def difference(shown: list[str], printed: list[str]) -> str:
    """A unified diff from the output shown in the docs to what was printed, for a failure message."""
    return "\n".join(difflib.unified_diff(_trim(shown), _trim(printed), "the docs show", "printed", lineterm=""))
