"""Read schema files strictly: the source of truth must be plain, unambiguous JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SchemaProblem

FAMILY_PATTERN = "[a-z][a-z0-9_]*"


@dataclass(frozen=True)
class SchemaFile:
    """One parsed schema file of a family."""

    family: str
    path: Path  # relative to the repository root, e.g. schemas/docent/message.json
    text: str
    contents: dict[str, Any]

    @property
    def name(self) -> str:
        """File name inside the family folder, e.g. `message.json`."""
        return self.path.name


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(f"duplicate key {key!r}")
        seen[key] = value
    return seen


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_strict(text: str) -> Any:
    """Parse JSON, rejecting duplicate keys and NaN/Infinity, which JSON does not define."""
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)


def load_schemas(root: Path) -> tuple[list[SchemaFile], list[SchemaProblem]]:
    """Load every `schemas/<family>/*.json` under `root`, returning files and load problems."""
    files: list[SchemaFile] = []
    problems: list[SchemaProblem] = []
    schema_dir = root / "schemas"
    for path in sorted(schema_dir.glob("*/*.json")):
        rel = path.relative_to(root)
        family = path.parent.name
        if not Path(family).match(FAMILY_PATTERN) or not family.isidentifier():
            problems.append(SchemaProblem(str(rel), "", f"family folder {family!r} is not a lowercase identifier"))
            continue
        if not path.stem.isidentifier():
            problems.append(SchemaProblem(str(rel), "", "file name must be a Python identifier plus .json"))
            continue
        try:
            text = path.read_text(encoding="utf-8")
            contents = parse_strict(text)
        except UnicodeDecodeError as exc:
            problems.append(SchemaProblem(str(rel), "", f"not UTF-8: {exc.reason} at byte {exc.start}"))
            continue
        except json.JSONDecodeError as exc:
            problems.append(
                SchemaProblem(str(rel), "", f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
            )
            continue
        except ValueError as exc:
            problems.append(SchemaProblem(str(rel), "", f"invalid JSON: {exc}"))
            continue
        if not isinstance(contents, dict):
            problems.append(SchemaProblem(str(rel), "", "a schema file must be a JSON object"))
            continue
        files.append(SchemaFile(family, rel, text, contents))
    if not files and not problems:
        problems.append(SchemaProblem("schemas", "", "no schema files found (expected schemas/<family>/*.json)"))
    return files, problems
