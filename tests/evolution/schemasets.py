"""Small schema sets for the evolution tests: a family `evo` written to a temporary repository root."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from codegen.load import SchemaFile, load_schemas
from release.evolution.canonical import FamilyTypes
from release.evolution.engine import TypeReport, compare_types
from release.evolution.witness import Budget

FAMILY = "evo"
DRAFT = "https://json-schema.org/draft/2020-12/schema"

Files = dict[str, dict[str, Any]]  # file name -> $defs


def write(root: Path, files: Files, version: str = "1.0.0") -> Path:
    """Write `schemas/t/<file>` for each file's `$defs` (and a VERSION) under `root`."""
    folder = root / "schemas" / FAMILY
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    for name, defs in files.items():
        doc = {"$schema": DRAFT, "$id": f"https://chatschema.dev/schemas/{FAMILY}/{name}", "$defs": defs}
        (folder / name).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    (folder / "VERSION").write_text(version + "\n", encoding="utf-8")
    return root


def family_types(root: Path) -> FamilyTypes:
    """The family `evo` as the diff engine reads it."""
    files, problems = load_schemas(root)
    assert not problems, problems
    return FamilyTypes.of(FAMILY, files)


def diff_types(tmp: Path, old: Files, new: Files, budget: Budget | None = None) -> dict[str, TypeReport]:
    """Every type's report between two schema sets."""
    a = family_types(write(tmp / "old", old))
    b = family_types(write(tmp / "new", new))
    return {r.name: r for r in compare_types(a, b, budget or Budget())}


def validator(root: Path, name: str) -> Draft202012Validator:
    """An independent validator of `evo/<name>` from the files under `root` (plain jsonschema, a
    `referencing` registry of those files, the project's date-time rule)."""
    return validator_of(family_types(root).files, name)


def validator_of(files: list[SchemaFile], name: str) -> Draft202012Validator:
    """An independent validator of the type `name` defined in one of `files` (see `validator`)."""
    registry: Registry[Any] = Registry().with_resources(
        (f.contents["$id"], Resource.from_contents(f.contents, default_specification=DRAFT202012)) for f in files
    )
    file_id = next(f.contents["$id"] for f in files if name in f.contents["$defs"])
    checker = importlib.import_module("chatschema.schemas").FORMAT_CHECKER
    return Draft202012Validator({"$ref": f"{file_id}#/$defs/{name}"}, registry=registry, format_checker=checker)
