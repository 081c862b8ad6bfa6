"""Self-contained schema bundles (one per family) and the index of every named type.

A family's types have unique names (lint checks it) and `$ref`s never leave the family, so a
bundle is simply every file's `$defs` merged into one document, with each `$ref`
(`parts.json#/$defs/Content`, `#/$defs/Content`) rewritten to the bundle-local `#/$defs/Content`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .inventory import DRAFT, ID_BASE, Family

# Keywords whose values are data, not subschemas: a "$ref" key inside them is not a reference.
_DATA_KEYWORDS = {"const", "default", "enum", "examples"}


def bundle_id(family: str) -> str:
    """The `$id` of a family's bundle."""
    return f"{ID_BASE}{family}.bundle.json"


def bundle_path(family: str) -> str:
    """Where a family's bundle lives, relative to generated/."""
    return f"schemas/{family}.bundle.json"


def _local_ref(ref: str) -> str:
    """`parts.json#/$defs/Content` or `#/$defs/Content` -> `#/$defs/Content`."""
    _, _, fragment = ref.partition("#")
    if not fragment.startswith("/$defs/"):
        raise ValueError(f"$ref {ref!r} does not point at a named type")
    return "#" + fragment


def _rewrite(node: Any) -> Any:
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out[key] = _local_ref(value)
            elif key in _DATA_KEYWORDS:
                out[key] = value
            elif key in ("properties", "$defs", "patternProperties", "dependentSchemas") and isinstance(value, dict):
                out[key] = {name: _rewrite(sub) for name, sub in value.items()}
            else:
                out[key] = _rewrite(value)
        return out
    if isinstance(node, list):
        return [_rewrite(item) for item in node]
    return node


def bundle(family: Family) -> dict[str, Any]:
    """One self-contained 2020-12 document holding every named type of the family under `$defs`."""
    defs: dict[str, Any] = {}
    for f in family.files:
        for name, schema in f.contents.get("$defs", {}).items():
            defs[name] = _rewrite(schema)
    return {
        "$schema": DRAFT,
        "$id": bundle_id(family.name),
        "$comment": (
            f"Generated bundle of schemas/{family.name}/*.json: do not edit; edit the sources and run `nox -s generate`."
        ),
        "description": (
            f"Every named type of the {family.name!r} family in one self-contained document; "
            "validate against `<$id>#/$defs/<TypeName>`."
        ),
        "$defs": defs,
    }


def _refs(node: Any) -> Iterator[str]:
    """The `#/$defs/<Type>` names a rewritten schema points at (data keywords skipped)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.removeprefix("#/$defs/")
            elif key not in _DATA_KEYWORDS:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def standalone_path(family: str, type_name: str) -> str:
    """Where a type's standalone schema lives, relative to generated/."""
    return f"schemas/{family}/{type_name}.schema.json"


def standalone(family: Family, type_name: str, defs: dict[str, Any] | None = None) -> dict[str, Any]:
    """One type as a self-contained 2020-12 document any validator takes as is: a root `$ref` to
    the type, and under `$defs` the type and every type it reaches (nothing else, nothing remote).
    `defs` is the family bundle's `$defs`, if already built."""
    if defs is None:
        defs = bundle(family)["$defs"]
    reached: list[str] = []
    todo = [type_name]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.append(name)
            todo.extend(_refs(defs[name]))
    return {
        "$schema": DRAFT,
        "$id": f"{ID_BASE}{standalone_path(family.name, type_name).removeprefix('schemas/')}",
        "$comment": (
            f"Generated from schemas/{family.name}/*.json: do not edit; edit the sources and run `nox -s generate`."
        ),
        "title": f"{family.name}/{type_name}",
        "$ref": f"#/$defs/{type_name}",
        "$defs": {name: defs[name] for name in sorted(reached)},
    }


def standalone_files(families: dict[str, Family]) -> dict[str, str]:
    """Every named type's standalone schema, by path relative to generated/."""
    files: dict[str, str] = {}
    for fam_name, family in sorted(families.items()):
        defs = bundle(family)["$defs"]
        for t in sorted(family.types.values(), key=lambda t: t.name):
            files[standalone_path(fam_name, t.name)] = dump(standalone(family, t.name, defs))
    return files


def index(families: dict[str, Family]) -> dict[str, Any]:
    """Every schema name with its `$id`, source file, shipped copy and bundle location."""
    entries: dict[str, Any] = {}
    for fam_name, family in sorted(families.items()):
        for t in sorted(family.types.values(), key=lambda t: t.name):
            file_id = f"{ID_BASE}{fam_name}/{t.file}"
            entries[t.qualified] = {
                "$id": f"{file_id}#/$defs/{t.name}",
                "file": f"schemas/{fam_name}/{t.file}",
                "bundle": f"{bundle_path(fam_name)}#/$defs/{t.name}",
                "bundle_id": f"{bundle_id(fam_name)}#/$defs/{t.name}",
                "kind": t.kind,
            }
    return {
        "$comment": "Generated by chatschema codegen: do not edit.",
        "families": {
            name: {
                "version": fam.version,
                "bundle": bundle_path(name),
                "bundle_id": bundle_id(name),
                "files": [f"schemas/{name}/{f.name}" for f in fam.files],
            }
            for name, fam in sorted(families.items())
        },
        "schemas": entries,
    }


def dump(document: Any) -> str:
    """The stable JSON text of a generated document."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
