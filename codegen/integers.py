"""JSON Schema's numbers in generated Python: `int` and `float` in a generated annotation become
`Integer` and `Number`.

datamodel-codegen types `"type": "integer"` as `int`, which strict Pydantic refuses as `1.0`; JSON
Schema counts `1.0` as an integer. `chatschema._types.Integer` is an int that takes a float with no
fractional part. It types `"type": "number"` as `float`, which turns an integer into a float, so
`2**53 + 1` would not survive a round trip; `chatschema._types.Number` keeps an integer an int. The
rewrite is by syntax tree, so only the names change, wherever they stand (`int`, `list[int]`,
`float | None`, `dict[str, int]`).
"""

from __future__ import annotations

import ast
from pathlib import Path

RENAMED = {"int": "Integer", "float": "Number"}


def json_numbers(source: str) -> str:
    """`source` with every name `int` or `float` replaced by `Integer` or `Number` (imported), or as
    it is if none."""
    # read, not assigned: a field may be named `int` (a JSON key); its type never is
    names = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Name) and node.id in RENAMED and isinstance(node.ctx, ast.Load)
    ]
    spots = sorted(((node.lineno, node.col_offset, node.id) for node in names), reverse=True)
    if not spots:
        return source
    lines = source.splitlines(keepends=True)
    for lineno, col, name in spots:  # from the end, so earlier offsets stay right (offsets count UTF-8 bytes)
        line = lines[lineno - 1].encode("utf-8")
        lines[lineno - 1] = (line[:col] + RENAMED[name].encode() + line[col + len(name) :]).decode("utf-8")
    return _with_import("".join(lines), sorted({RENAMED[name] for *_, name in spots}))


def _with_import(source: str, names: list[str]) -> str:
    """The import placed after the `from __future__` line (or first), where ruff sorts it in."""
    line = f"from chatschema._types import {', '.join(names)}\n"
    marker = "from __future__ import annotations\n"
    if marker in source:
        return source.replace(marker, marker + line, 1)
    return line + source


def rewrite_tree(folder: Path) -> None:
    """Rewrite every module under `folder` in place."""
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if (fixed := json_numbers(text)) != text:
            path.write_text(fixed, encoding="utf-8")
