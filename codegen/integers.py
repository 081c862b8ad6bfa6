"""JSON Schema's integers in generated Python: `int` in a generated annotation becomes `Integer`.

datamodel-codegen types `"type": "integer"` as `int`, which strict Pydantic refuses as `1.0`; JSON
Schema counts `1.0` as an integer. `chatschema._types.Integer` is an int that takes a float with no
fractional part. The rewrite is by syntax tree, so only the name `int` changes, wherever it stands
(`int`, `list[int]`, `int | None`, `dict[str, int]`).
"""

from __future__ import annotations

import ast
from pathlib import Path

IMPORT = "from chatschema._types import Integer\n"


def json_integers(source: str) -> str:
    """`source` with every name `int` replaced by `Integer` (imported), or as it is if none."""
    # read, not assigned: a field may be named `int` (a JSON key); its type never is
    names = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Name) and node.id == "int" and isinstance(node.ctx, ast.Load)
    ]
    spots = sorted(((node.lineno, node.col_offset) for node in names), reverse=True)
    if not spots:
        return source
    lines = source.splitlines(keepends=True)
    for lineno, col in spots:  # from the end, so earlier offsets stay right (offsets count UTF-8 bytes)
        line = lines[lineno - 1].encode("utf-8")
        lines[lineno - 1] = (line[:col] + b"Integer" + line[col + 3 :]).decode("utf-8")
    return _with_import("".join(lines))


def _with_import(source: str) -> str:
    """The import placed after the `from __future__` line (or first), where ruff sorts it in."""
    marker = "from __future__ import annotations\n"
    if marker in source:
        return source.replace(marker, marker + IMPORT, 1)
    return IMPORT + source


def rewrite_tree(folder: Path) -> None:
    """Rewrite every module under `folder` in place."""
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if (fixed := json_integers(text)) != text:
            path.write_text(fixed, encoding="utf-8")
