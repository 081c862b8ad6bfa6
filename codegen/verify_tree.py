"""Prove that a freshly generated tree works before its files are written.

Run as a script in a subprocess (`python -P verify_tree.py <tree> <schemas>` with the tree first
on PYTHONPATH), so that generated code is imported in a process of its own and never by codegen:
imports every module of the package that the families being verified can affect, builds a
validator for every type (which compiles every pattern the models and TypedDicts carry), checks
every example's verdict with the shipped schemas (schemas/<family>/examples/) and that each shipped
sample has its one bad line (unless nothing they depend on changed), and that each Letta stream
example reassembles as it says. Prints one line per problem, naming the example's file, and exits 1
if there is any.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
import traceback
from pathlib import Path
from types import GenericAlias
from typing import Any


def first_line(exc: BaseException) -> str:
    """`exc` on one line: its type and the first line of its message."""
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


def _import_all(tree: Path, families: set[str], every_family: set[str]) -> list[str]:
    """Import every module of the package under `tree` that `families` can affect (but those
    CHATSCHEMA_VERIFY_SKIP names): a module of another family, or a shared one that names none of
    `families`, imported as well the last time its family passed, with the same shared files."""
    problems: list[str] = []
    skipped = tuple(p for p in os.environ.get("CHATSCHEMA_VERIFY_SKIP", "").split(",") if p)
    named = re.compile(rf"\b(?:{'|'.join(map(re.escape, sorted(families)))})\b") if families else None
    for path in sorted((tree / "chatschema").rglob("*.py")):
        parts = path.relative_to(tree).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if module.endswith("__main__") or module in skipped or module.startswith(tuple(f"{p}." for p in skipped)):
            continue
        owner = parts[1] if len(parts) > 1 and parts[1] in every_family else None
        if families != every_family and (
            owner not in families if owner else named is None or not named.search(path.read_text(encoding="utf-8"))
        ):
            continue
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] != "chatschema":
                continue  # an optional extra's dependency (dask, ...) that this environment lacks
            problems.append(f"{_where(exc, tree)}import {module} failed: {first_line(exc)}")
        except Exception as exc:
            problems.append(f"{_where(exc, tree)}import {module} failed: {first_line(exc)}")
    return problems


def _validators(tree: Path, family: str, names: list[str]) -> list[str]:
    """Each named type's Pydantic and TypedDict validators build (which compiles every pattern they
    carry): one adapter over all of a flavour's types, and one per type only to name a failure."""
    from pydantic import TypeAdapter

    problems: list[str] = []
    for flavour in (f"chatschema.{family}", f"chatschema.{family}.typeddicts"):
        module = importlib.import_module(flavour)
        try:
            every: Any = GenericAlias(tuple, tuple(getattr(module, name) for name in names))
            TypeAdapter(every)
            continue
        except Exception:
            pass  # one type or more has none: which ones, below
        for name in names:
            try:
                TypeAdapter(getattr(module, name))
            except Exception as exc:
                problems.append(f"{_where(exc, tree)}{flavour}.{name}: no validator: {first_line(exc)}")
    return problems


def _type_examples(schemas_dir: Path, name: str) -> list[str]:
    """Each example of a type gets its verdict."""
    from chatschema import schemas

    problems: list[str] = []
    family, type_name = name.split("/")
    for verdict in ("valid", "invalid"):
        folder = schemas_dir / family / "examples" / type_name / verdict
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            shown = path.relative_to(schemas_dir.parent).as_posix()
            try:
                payload = json.loads(path.read_text(encoding="utf-8"))
                valid = schemas.is_valid(payload, name)  # the verdict alone: the reasons only when needed
                found = schemas.violations(payload, name) if verdict == "valid" and not valid else []
            except Exception as exc:
                problems.append(f"{shown}: {name}: validation failed: {first_line(exc)}")
                continue
            if verdict == "valid" and not valid:
                why = f": {found[0]}" if found else ""
                problems.append(f"{shown}: {name}: this valid example is invalid under the new schema{why}")
            elif verdict == "invalid" and valid:
                problems.append(f"{shown}: {name}: this invalid example is valid under the new schema")
    return problems


def _samples(tree: Path, families: set[str]) -> list[str]:
    """Each shipped sample file has exactly one invalid line under its schema, as its docs say."""
    from chatschema import schemas

    index = json.loads((tree / "chatschema" / "samples" / "index.json").read_text(encoding="utf-8"))
    problems: list[str] = []
    for name, entry in sorted(index.items()):
        if entry["schema"].split("/")[0] not in families:
            continue
        lines = (tree / "chatschema" / "samples" / name).read_text(encoding="utf-8").splitlines()
        bad = [
            i
            for i, line in enumerate(lines, 1)
            if line.strip() and schemas.violations(json.loads(line), entry["schema"])
        ]
        if len(bad) != 1:
            where = ", ".join(map(str, bad)) or "none"
            problems.append(
                f"{entry['source']}: {entry['schema']}: a sample has exactly one invalid line; under the new schema: {where}"
            )
    return problems


def stream_summary(result: Any) -> dict[str, Any]:
    """A reassembled Letta stream as plain JSON, in the stream examples' terms (`expected`); the
    npm package's side is codegen/stream_summary.cjs, which must compute the same."""

    def dump(model: Any) -> Any:
        return None if model is None else model.model_dump(mode="json", exclude_unset=True)

    summary = {
        "messages": [dump(m) for m in result.messages],
        "stop_reason": result.stop_reason.stop_reason if result.stop_reason else None,
        "usage": dump(result.usage),
        "errors": [dump(e) for e in result.errors],
        "cancelled": dump(result.cancelled),
        "done": result.done,
        "last_seq_id": result.last_seq_id,
        "frames": [
            [a.outcome, a.message] if a.message is not None else [a.outcome, a.reason] if a.reason else [a.outcome]
            for a in result.frames
        ],
    }
    if getattr(result, "unknown", None):  # frames of later types, kept with unknown="keep"
        summary["unknown"] = [u.raw for u in result.unknown]
    return summary


def stream_outcome(example: dict[str, Any]) -> dict[str, Any] | str:
    """What the package's reassembly makes of one stream example: its summary, or the StreamError's message."""
    from chatschema.letta.stream import StreamError, reassemble_sse

    try:
        return stream_summary(reassemble_sse("".join(example["sse"]), **example["options"]))
    except StreamError as exc:
        return f"StreamError: {exc}"


def stream_mismatch(example: dict[str, Any], got: dict[str, Any] | str) -> str:
    """Why `got` is not what the stream example expects, or ""."""
    if "raises" in example:
        ok = isinstance(got, str) and example["raises"] in got
        return "" if ok else f"expected a StreamError with {example['raises']!r}, got {str(got)[:200]}"
    return "" if got == example["expected"] else "the reassembly differs from `expected`"


def _streams(schemas_dir: Path) -> list[str]:
    problems: list[str] = []
    for path in sorted((schemas_dir / "letta" / "examples" / "streams").glob("*.json")):
        example = json.loads(path.read_text(encoding="utf-8"))
        why = stream_mismatch(example, stream_outcome(example))
        if why:
            problems.append(f"{path.relative_to(schemas_dir.parent).as_posix()}: {why}")
    return problems


def verify(tree: Path, schemas_dir: Path) -> list[str]:
    """Every problem found in the generated package under `tree`, judged by the examples beside
    the schemas in `schemas_dir` (type examples, samples, Letta stream examples)."""
    try:
        import chatschema
    except Exception as exc:
        return [f"{_where(exc, tree)}import chatschema failed: {first_line(exc)}"]
    if not str(Path(chatschema.__file__).resolve()).startswith(str(tree.resolve())):
        return [f"imported chatschema from {chatschema.__file__}, not from the new tree"]
    # CHATSCHEMA_VERIFY_FAMILIES: the families whose modules, validators and examples to check (default: all)
    every_family = set(chatschema.FAMILIES)
    families = set(os.environ.get("CHATSCHEMA_VERIFY_FAMILIES", "").split(",")) - {""} or every_family
    problems = _import_all(tree, families & every_family, every_family)
    if problems:
        return problems
    from chatschema import schemas

    # CHATSCHEMA_VERIFY_VALIDATED: families whose schemas and examples are, for validation, as they
    # were when their verdicts held (generate.validation_keys): their verdicts are not checked again
    validated = set(os.environ.get("CHATSCHEMA_VERIFY_VALIDATED", "").split(","))
    for family in sorted(families & every_family):
        names = [name for name in schemas.names() if name.split("/")[0] == family]
        problems += _validators(tree, family, [name.split("/")[1] for name in names])
        for name in names if family not in validated else []:
            problems += _type_examples(schemas_dir, name)
    problems += _samples(tree, families - validated)
    if "letta" in families & set(chatschema.FAMILIES):
        problems += _streams(schemas_dir)
    return problems


def main(argv: list[str]) -> int:
    """`verify_tree.py TREE SCHEMAS`: exit 0 if the tree works, else 1 with one line per problem."""
    tree, schemas_dir = Path(argv[0]), Path(argv[1])
    problems = verify(tree, schemas_dir)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    raise SystemExit(main(sys.argv[1:]))
