"""Prove that a freshly generated tree works before its files are written.

Run as a script in a subprocess (`python -P verify_tree.py <tree> <vectors>` with the tree first
on PYTHONPATH), so that generated code is imported in a process of its own and never by codegen:
imports every module of the package, builds a validator for every type (which compiles every
pattern the models and TypedDicts carry), and checks every test vector's verdict with the shipped
schemas. Prints one line per problem and exits 1 if there is any.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import traceback
from pathlib import Path


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def _where(exc: BaseException, tree: Path) -> str:
    """The generated file and line an exception came from, if it came from the tree."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.startswith(str(tree)):
            return f"{Path(frame.filename).relative_to(tree).as_posix()}:{frame.lineno}: "
    if isinstance(exc, SyntaxError) and exc.filename and exc.filename.startswith(str(tree)):
        return f"{Path(exc.filename).relative_to(tree).as_posix()}:{exc.lineno}: "
    return ""


def verify(tree: Path, vectors: Path) -> list[str]:
    """Every problem found in the generated package under `tree`."""
    problems: list[str] = []
    try:
        import chatschema
    except Exception as exc:
        return [f"{_where(exc, tree)}import chatschema failed: {_first_line(exc)}"]
    if not str(Path(chatschema.__file__).resolve()).startswith(str(tree.resolve())):
        return [f"imported chatschema from {chatschema.__file__}, not from the new tree"]
    package = tree / "chatschema"
    skipped = tuple(p for p in os.environ.get("CHATSCHEMA_VERIFY_SKIP", "").split(",") if p)
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(tree).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if module.endswith("__main__") or module in skipped or module.startswith(tuple(f"{p}." for p in skipped)):
            continue
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] != "chatschema":
                continue  # an optional extra's dependency (dask, ...) that this environment lacks
            problems.append(f"{_where(exc, tree)}import {module} failed: {_first_line(exc)}")
        except Exception as exc:
            problems.append(f"{_where(exc, tree)}import {module} failed: {_first_line(exc)}")
    if problems:
        return problems

    from pydantic import TypeAdapter

    from chatschema import schemas

    for name in schemas.names():
        family, type_name = name.split("/")
        for flavour in (f"chatschema.{family}", f"chatschema.{family}.typeddicts"):
            try:
                TypeAdapter(getattr(importlib.import_module(flavour), type_name))
            except Exception as exc:
                problems.append(f"{_where(exc, tree)}{flavour}.{type_name}: no validator: {_first_line(exc)}")
        for verdict in ("valid", "invalid"):
            folder = vectors / family / type_name / verdict
            for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
                shown = path.relative_to(vectors.parent.parent).as_posix()
                try:
                    payload = json.loads(path.read_text(encoding="utf-8"))
                    found = schemas.violations(payload, name)
                except Exception as exc:
                    problems.append(f"{shown}: {name}: validation failed: {_first_line(exc)}")
                    continue
                if found and verdict == "valid":
                    problems.append(f"{shown}: {name}: this valid vector is invalid under the new schema: {found[0]}")
                elif not found and verdict == "invalid":
                    problems.append(f"{shown}: {name}: this invalid vector is valid under the new schema")
    return problems


def main(argv: list[str]) -> int:
    """`verify_tree.py TREE VECTORS`: exit 0 if the tree works, else 1 with one line per problem."""
    tree, vectors = Path(argv[0]), Path(argv[1])
    problems = verify(tree, vectors)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    raise SystemExit(main(sys.argv[1:]))
