"""What every lint rule reads: the loaded files, their resolved model, and each schema object's place."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from . import walk
from .errors import SchemaProblem, pointer
from .load import SchemaFile
from .model import FamilyModel


@dataclass(frozen=True)
class Site:
    """One schema object of a file: under a named type (`type_name`) or anywhere in the file."""

    file: SchemaFile
    type_name: str  # "" outside the named types
    path: walk.Path
    node: Mapping[str, Any]

    @property
    def type_root(self) -> walk.Path:
        """The path of the named type it belongs to."""
        return ("$defs", self.type_name)

    def problem(self, path: walk.Path, message: str, rule: str = "") -> SchemaProblem:
        """A problem at `path` (absolute, in the same file)."""
        return problem(self.file, path, message, rule)


def problem(file: SchemaFile, path: walk.Path, message: str, rule: str = "") -> SchemaProblem:
    """One problem: file, JSON pointer, message and rule."""
    return SchemaProblem(str(file.path), pointer(*path), message, rule)


def build_registry(files: list[SchemaFile]) -> Registry:
    """A registry of the files by `$id`; it never retrieves anything else."""
    resources = [
        (f.contents["$id"], Resource.from_contents(f.contents, default_specification=DRAFT202012))
        for f in files
        if isinstance(f.contents.get("$id"), str)
    ]
    return Registry().with_resources(resources)


@dataclass(frozen=True)
class Context:
    """The files lint checks (already valid 2020-12 schemas) and their model."""

    files: tuple[SchemaFile, ...]
    models: Mapping[str, FamilyModel]

    @functools.cached_property
    def registry(self) -> Registry:
        """The files by `$id`, for resolving `$ref`s as a validator would."""
        return build_registry(list(self.files))

    @functools.cached_property
    def typed_files(self) -> tuple[SchemaFile, ...]:
        """The files whose `$defs` hold types: only their types and references are checked further."""
        return tuple(f for f in self.files if isinstance(f.contents.get("$defs"), dict) and f.contents["$defs"])

    def types(self) -> Iterator[tuple[SchemaFile, str, Any]]:
        """Every `$defs` entry of the typed files: file, name, schema."""
        for f in self.typed_files:
            for name, schema in f.contents["$defs"].items():
                yield f, name, schema

    @functools.cached_property
    def type_sites(self) -> tuple[Site, ...]:
        """Every schema object under a named type, the type itself first."""
        return tuple(
            Site(f, name, path, node)
            for f, name, schema in self.types()
            for path, node in walk.subschemas(schema, ("$defs", name))
        )

    @functools.cached_property
    def file_sites(self) -> tuple[Site, ...]:
        """Every schema object of the typed files, from the file's root."""
        return tuple(
            Site(f, str(path[1]) if len(path) > 1 else "", path, node)
            for f in self.typed_files
            for path, node in walk.subschemas(f.contents)
        )
