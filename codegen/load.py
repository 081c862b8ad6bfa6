"""Read schema files strictly: the source of truth must be plain, unambiguous JSON."""

from __future__ import annotations

import json
import keyword
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SchemaProblem
from .families import FAMILY_RUNTIMES

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


# Words that cannot name a module in Python or a namespace in TypeScript / JavaScript.
_RESERVED_WORDS = frozenset(keyword.kwlist) | frozenset(
    """await break case catch class const continue debugger default delete do else enum export extends
    false finally for function if implements import in instanceof interface let new null package private
    protected public return static super switch this throw true try typeof var void while with yield
    any boolean declare never number object string symbol type undefined unknown""".split()
)
# Names the package's own modules and a family's generated subpackages already use.
_RUNTIME = Path(__file__).parent / "runtime"
_GENERATED_MODULES = frozenset({"models", "typeddicts", "schemas"})


def family_name_problem(family: str) -> str:
    """Why a folder cannot name a family (a Python package and a TypeScript namespace), or ""."""
    if not re.fullmatch(FAMILY_PATTERN, family):
        return f"family folder {family!r} is not a lowercase identifier ([a-z][a-z0-9_]*)"
    if family in _RESERVED_WORDS:
        return f"family folder {family!r} is a reserved word in Python or TypeScript"
    taken = {p.stem for p in _RUNTIME.glob("*.py")} | {p.name for p in _RUNTIME.iterdir() if p.is_dir()}
    if family in (taken | _GENERATED_MODULES) - FAMILY_RUNTIMES:
        return f"family folder {family!r} would replace chatschema.{family}, a module of the package itself"
    return ""


def file_name_problem(stem: str) -> str:
    """Why a schema file name cannot name a generated module (`<stem>.py`), or ""."""
    if not stem.isidentifier() or not stem.isascii():
        return "file name must be a Python identifier plus .json"
    if stem.startswith("_") or stem in _RESERVED_WORDS:
        return f"file name {stem!r} cannot name a generated module (a reserved word or a leading underscore)"
    return ""


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
        if why := family_name_problem(family):
            problems.append(SchemaProblem(str(rel), "", why, "family-name"))
            continue
        if why := file_name_problem(path.stem):
            problems.append(SchemaProblem(str(rel), "", why, "file-name"))
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
