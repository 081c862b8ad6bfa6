"""Read schema files strictly: the source of truth must be plain, unambiguous JSON."""

from __future__ import annotations

import functools
import json
import keyword
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SchemaProblem
from .examples import EXAMPLES
from .layout import FAMILY_RUNTIMES, PYTHON_PACKAGE, runtime_files

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
_GENERATED_MODULES = frozenset({"models", "typeddicts", "schemas", "index"})  # index: docs/index.md


@functools.cache
def _runtime_names() -> tuple[frozenset[str], frozenset[str]]:
    """The names the hand-written runtime takes: modules and subpackages of chatschema/, and the
    npm package's own modules (npm/esm/<name>.js, beside which a family's entry point sits)."""
    python, typescript = set(), set()
    for rel in runtime_files(FAMILY_RUNTIMES):
        top, _, rest = rel.partition("/")
        first = rest.split("/", 1)[0]
        if top == PYTHON_PACKAGE:
            python.add(first.removesuffix(".py"))
        elif rest.startswith("esm/") and rest.endswith(".js"):
            typescript.add(rest.removeprefix("esm/").removesuffix(".js"))
    return frozenset(python), frozenset(typescript)


# Files a family folder may hold besides its schemas (and its examples and grammars folders):
# its version, and the evolution gate's settings (release/evolution/gate.py), read by nothing else.
FAMILY_FILES_NOT_SCHEMAS = frozenset({"VERSION", "compatibility.json"})
# The folder of a family's stream grammars (codegen/grammars.py), checked when the schemas are.
GRAMMARS = "grammars"


def family_name_problem(family: str) -> str:
    """Why a folder cannot name a family (a Python package and a TypeScript namespace), or ""."""
    if not re.fullmatch(FAMILY_PATTERN, family):
        return f"family folder {family!r} is not a lowercase identifier ([a-z][a-z0-9_]*)"
    if family in _RESERVED_WORDS:
        return f"family folder {family!r} is a reserved word in Python or TypeScript"
    taken, ts_modules = _runtime_names()
    if family in (taken | _GENERATED_MODULES) - FAMILY_RUNTIMES:
        return f"family folder {family!r} would replace chatschema.{family}, a module of the package itself"
    if family in ts_modules:
        return f"family folder {family!r} would replace {family}.js, a module of the npm package itself"
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


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"{text} is beyond a double (it would read as infinity)")
    return value


MAX_DEPTH = 64  # a schema nested deeper is refused here, before any recursive walk meets it


def _depth(value: Any) -> int:
    deepest, todo = 0, [(value, 1)]
    while todo:
        node, depth = todo.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, depth)
            todo.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def parse_strict(text: str) -> Any:
    """Parse JSON, rejecting duplicate keys, NaN/Infinity and numbers beyond a double, which JSON
    does not define (or every reader reads differently)."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants, parse_float=_finite)
    except RecursionError:  # a ValueError like every other way of not being readable JSON
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels, too deep to read") from None


def load_schemas(root: Path) -> tuple[list[SchemaFile], list[SchemaProblem]]:
    """Load every `schemas/<family>/*.json` under `root`, returning files and load problems."""
    files: list[SchemaFile] = []
    problems: list[SchemaProblem] = []
    schema_dir = root / "schemas"
    for path in sorted(schema_dir.glob("*/*")):
        rel = path.relative_to(root)
        family = path.parent.name
        if path.parent.is_symlink():
            problems.append(
                SchemaProblem(str(rel.parent), "", "a family folder is a real folder, not a link", "stray-file")
            )
            continue
        if path.name in FAMILY_FILES_NOT_SCHEMAS and path.is_file() and not path.is_symlink():
            continue
        if path.name in (EXAMPLES, GRAMMARS) and path.is_dir() and not path.is_symlink():
            continue
        if path.suffix != ".json" or path.is_symlink() or not path.is_file():
            # nothing else may sit in a family folder: the generator reads the folder, lint reads *.json
            problems.append(
                SchemaProblem(
                    str(rel), "", "only schema files (*.json, regular files, not links) belong here", "stray-file"
                )
            )
            continue
        if why := family_name_problem(family):
            problems.append(SchemaProblem(str(rel), "", why, "family-name"))
            continue
        if why := file_name_problem(path.stem):
            problems.append(SchemaProblem(str(rel), "", why, "file-name"))
            continue
        try:
            text = path.read_text(encoding="utf-8")
            contents = parse_strict(text)
        except OSError as exc:
            problems.append(SchemaProblem(str(rel), "", f"cannot read: {exc.strerror or exc}"))
            continue
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
        if _depth(contents) > MAX_DEPTH:
            problems.append(SchemaProblem(str(rel), "", f"nested deeper than {MAX_DEPTH} levels", "too-deep"))
            continue
        files.append(SchemaFile(family, rel, text, contents))
    if not files and not problems:
        problems.append(SchemaProblem("schemas", "", "no schema files found (expected schemas/<family>/*.json)"))
    return files, problems
