"""Lint of `pattern`s: the portable subset on which Python's `re`, ECMAScript and Rust's regex agree,
and a compile check under both Python and ECMAScript (Node)."""

from __future__ import annotations

import json
import re
import subprocess
import warnings
from collections.abc import Iterator
from typing import Protocol

from .errors import SchemaProblem
from .lint_context import Context, Site

NO_NEWLINE = {"pattern": "\\n"}


class Memo(Protocol):
    """Where lint remembers checks that passed, by a unit name and the text they depended on."""

    def known(self, unit: str, text: str) -> bool: ...

    def remember(self, unit: str, text: str) -> None: ...


def _pattern_sites(context: Context) -> list[tuple[Site, tuple[str, ...], str]]:
    """Every regular expression in the schemas: each `pattern`, and each key of `patternProperties`,
    with its site and its place there."""
    found: list[tuple[Site, tuple[str, ...], str]] = []
    for site in context.type_sites:
        if isinstance(site.node.get("pattern"), str):
            found.append((site, ("pattern",), site.node["pattern"]))
        if isinstance(site.node.get("patternProperties"), dict):
            found += [(site, ("patternProperties", key), key) for key in site.node["patternProperties"]]
    return found


def portable_patterns(context: Context) -> Iterator[SchemaProblem]:
    """pattern-portable: a pattern whose verdicts could differ between Python, ECMAScript and Rust."""
    for site, place, pattern in _pattern_sites(context):
        guarded = place == ("pattern",) and site.node.get("not") == NO_NEWLINE
        for message in pattern_problems(pattern, guarded):
            yield site.problem((*site.path, *place), message, "pattern-portable")


def compiled_patterns(context: Context, memo: Memo | None) -> Iterator[SchemaProblem]:
    """pattern-invalid: a pattern Python's `re` or ECMAScript refuses; pattern-redos: one whose
    matching time can grow faster than linearly (both remembered in `memo` when all pass)."""
    found = _pattern_sites(context)
    patterns = [pattern for _, _, pattern in found]
    known = memo is not None and memo.known("patterns", json.dumps(patterns))
    verdicts = [("", "")] * len(patterns) if known else judged_patterns(patterns)
    if memo is not None and not any(a or b for a, b in verdicts):
        memo.remember("patterns", json.dumps(patterns))
    for (site, place, _), (invalid, redos) in zip(found, verdicts, strict=True):
        if invalid:
            yield site.problem((*site.path, *place), invalid, "pattern-invalid")
        elif redos:
            yield site.problem((*site.path, *place), redos, "pattern-redos")


def _python_verdict(pattern: str) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # `--` in a class: reported by pattern_problems
            re.compile(pattern)
    except re.error as exc:
        return f"pattern {pattern!r} is not a valid regular expression for Python's re: {exc}"
    return ""


def judged_patterns(patterns: list[str]) -> list[tuple[str, str]]:
    """For each pattern: why Python's `re` or ECMAScript's `RegExp` (with the `u` flag, as ajv
    compiles it) refuses it, and why it may backtrack catastrophically (codegen/node/patterns.cjs,
    with recheck), each "" if not."""
    python = [_python_verdict(p) for p in patterns]
    if not patterns:
        return []
    from .typescript import NODE_DIR, node_executable, setup_node  # Node only when there are patterns

    setup_node()
    proc = subprocess.run(
        [node_executable(), str(NODE_DIR / "patterns.cjs")],
        input=json.dumps(patterns),
        capture_output=True,
        text=True,
        check=False,
        cwd=NODE_DIR,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the ECMAScript pattern check failed: {proc.stderr.strip()}")
    node: list[dict[str, str]] = json.loads(proc.stdout)
    return [
        (
            why
            or (
                f"pattern {p!r} is not a valid ECMAScript regular expression (u flag): {js['syntax']}"
                if js["syntax"]
                else ""
            ),
            f"pattern {p!r}: {js['redos']}: rewrite it without nested or overlapping repetition"
            if js["redos"] and not why
            else "",
        )
        for p, why, js in zip(patterns, python, node, strict=True)
    ]


def invalid_patterns(patterns: list[str]) -> list[str]:
    """For each pattern, why Python's `re` or ECMAScript refuses it, or "" (see `judged_patterns`)."""
    return [invalid for invalid, _ in judged_patterns(patterns)]


# Escapes whose meaning differs between Python's `re` (Unicode-aware by default) and ECMAScript
# regular expressions as ajv compiles them (`u` flag), or that only one of the two knows.
_PORTABLE_ESCAPES_ONLY = {
    "d": "\\d matches any Unicode digit in Python, only 0-9 in ECMAScript: write [0-9]",
    "D": "\\D differs between Python and ECMAScript (Unicode digits): write [^0-9]",
    "w": "\\w is Unicode-aware in Python, ASCII in ECMAScript: write the class out, e.g. [A-Za-z0-9_]",
    "W": "\\W differs between Python and ECMAScript (Unicode): write the class out",
    "s": "\\s matches different whitespace in Python and ECMAScript: list the characters, e.g. [ \\t\\n\\r]",
    "S": "\\S differs between Python and ECMAScript: list the characters",
    "b": "\\b differs between Python and ECMAScript (Unicode word characters)",
    "B": "\\B differs between Python and ECMAScript (Unicode word characters)",
    "A": "\\A is Python-only: use ^",
    "Z": "\\Z is Python-only",
    "z": "\\z is not a regex escape in Python or ECMAScript",
}
_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")


def pattern_problems(pattern: str, newline_excluded: bool = False) -> list[str]:
    """Why a `pattern` could get different verdicts in python-jsonschema (`re`), ajv (ECMAScript) or
    the generated models (pydantic-core's Rust regex).

    Allowed: a portable subset. No `\\d`, `\\w`, `\\s`, `\\b` (and their negations), no Python-only
    syntax, no look-around (Rust's regex has none). A `$` anchor only where the same schema excludes
    newlines (`"not": {"pattern": "\\n"}`, `newline_excluded`): Python's `$` also matches before a
    trailing newline, ECMAScript's and Rust's do not; without newlines they agree.
    """
    problems: list[str] = []
    if "(?P" in pattern:
        problems.append(f"pattern {pattern!r}: (?P...) named groups are Python-only: use a plain group")
    if any(look in pattern for look in _LOOKAROUND):
        problems.append(f"pattern {pattern!r}: look-around is not supported by pydantic-core's Rust regex")
    return problems + list(_scan(pattern, newline_excluded))


def _scan(pattern: str, newline_excluded: bool) -> Iterator[str]:
    """The problems found reading the pattern a character at a time (inside and outside classes)."""
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if in_class and pattern[i : i + 2] in ("--", "&&", "~~", "||") and pattern[i + 2 : i + 3] != "]":
            yield (
                f"pattern {pattern!r}: {pattern[i : i + 2]!r} inside [...] is a set operation in pydantic-core's Rust "
                "regex and literal text elsewhere: escape one of the two characters"
            )
        if not in_class and ch == ".":
            yield (
                f"pattern {pattern!r}: . matches \\r and U+2028/U+2029 in Python but not in ECMAScript: "
                "write the class you mean, e.g. [^\\n]"
            )
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt in _PORTABLE_ESCAPES_ONLY and not (in_class and nxt == "b"):
                yield f"pattern {pattern!r}: {_PORTABLE_ESCAPES_ONLY[nxt]}"
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]":
                i += 1  # a leading ] is a literal member
        elif ch == "$" and not newline_excluded:
            yield (
                f"pattern {pattern!r}: $ also matches before a trailing newline in Python but not in ECMAScript: "
                'add "not": {"pattern": "\\\\n"} beside the pattern so no string with a newline gets that far'
            )
        i += 1
