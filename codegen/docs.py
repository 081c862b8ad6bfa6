"""Reference docs: one Markdown page per family and an index, rendered with jinja2 from the schemas.

Each type gets a section: its description, a property table (type, required, nullable, default,
deprecated, description), the branches and tags of a union, and one valid example taken from
schemas/<family>/examples/<Type>/valid/ (the first file in name order).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import walk
from .constraints import constraint_note
from .escape import Escaped, md_code
from .examples import first_valid, read_example
from .model import FamilyModel, NamedType, Property
from .names import ref_target_name
from .render import render


@dataclass(frozen=True)
class PropertyDoc:
    """One row of a property table."""

    name: str
    type: Escaped  # Markdown for a table cell
    required: bool
    nullable: bool
    default: Escaped
    deprecated: bool
    description: str
    extension: str  # why the project adds this property, if the real system lacks it
    constraints: str  # its validation keywords as a sentence ("" if none)


@dataclass(frozen=True)
class TypeDoc:
    """One section of a family page."""

    info: NamedType
    type: Escaped
    bases: list[str]
    properties: list[PropertyDoc]
    branches: list[tuple[str, str]]  # (tag value, branch type name)
    example: str | None
    example_file: str | None
    extra_keys: Escaped
    extension: str
    constraints: str  # the type's own validation keywords as a sentence ("" if none)

    @property
    def anchor(self) -> str:
        return self.info.name.lower()


def _cell(markdown: str) -> Escaped:
    """Markdown built from escaped pieces, made fit for a table cell (one line, `|` escaped)."""
    return Escaped(" ".join(markdown.split()).replace("|", "\\|"))


def _link(name: str) -> str:
    return f"[{name}](#{name.lower()})"


def type_expr(schema: Any) -> str:
    """A short, readable type of a schema node, linking named types."""
    return _shown(walk.fold(schema, _type_node, _SHOWN))


# The keywords whose subschemas a type expression shows.
_SHOWN = frozenset({"oneOf", "anyOf", "allOf", "items", "additionalProperties"})


def _shown(rendered: Any) -> str:
    """A subschema as `_type_node` rendered it; booleans are not rendered, and say it here."""
    if isinstance(rendered, str):
        return rendered
    return "any JSON value" if rendered is True else "nothing" if rendered is False else "?"


def _type_node(original: Mapping[str, Any], node: dict[str, Any]) -> str:
    """One schema object's type, its subschemas already rendered (`node`, otherwise as written)."""
    if "$ref" in node:
        return _link(ref_target_name(node["$ref"]))
    if "const" in node:
        return md_code(json.dumps(walk.thaw(node["const"]), ensure_ascii=False))
    if "enum" in node:
        return " | ".join(md_code(json.dumps(walk.thaw(v), ensure_ascii=False)) for v in node["enum"])
    for key in ("oneOf", "anyOf"):
        if key in node:
            return " | ".join(_shown(s) for s in node[key])
    if "allOf" in node:
        return " & ".join(_shown(s) for s in node["allOf"])
    types = node.get("type")
    names = types if isinstance(types, list | tuple) else [types] if isinstance(types, str) else []
    if not names:
        return "any JSON value"
    return " | ".join(_one_type(t, original, node) for t in names)


def _one_type(t: str, original: Mapping[str, Any], node: dict[str, Any]) -> str:
    if t == "array":
        return f"array of {_shown(node['items'])}" if node.get("items") is not None else "array"
    if t == "object" and isinstance(original.get("additionalProperties"), Mapping):
        return f"object of {_shown(node['additionalProperties'])}"
    if t == "string" and "format" in node:
        return f"string ({node['format']})"
    if t == "string" and "pattern" in node:
        return f"string matching {md_code(node['pattern'])}"
    return str(t)


def _example(root: Path, family: str, name: str) -> tuple[str | None, str | None]:
    path = first_valid(root, family, name)
    if path is None:
        return None, None
    payload = json.loads(read_example(root, path))
    return json.dumps(payload, indent=2, ensure_ascii=False), path.relative_to(root).as_posix()


def type_doc(root: Path, t: NamedType) -> TypeDoc:
    """Everything a family page shows about one type."""
    schema = t.definition
    example, example_file = _example(root, t.family, t.name)
    return TypeDoc(
        info=t,
        type=Escaped(type_expr({k: v for k, v in schema.items() if k not in ("oneOf", "discriminator")}))
        if t.kind != "union"
        else Escaped("object"),
        bases=list(t.bases),
        properties=[_property_doc(p) for p in t.properties] if t.kind == "object" else [],
        branches=[(b.tag_value, b.type_name) for b in t.branches],
        example=example,
        example_file=example_file,
        extra_keys=Escaped(_extra_keys(schema.get("additionalProperties", True))),
        extension=t.extension,
        constraints=constraint_note(schema),
    )


def _property_doc(p: Property) -> PropertyDoc:
    return PropertyDoc(
        name=p.name,
        type=_cell(type_expr(p.schema if isinstance(p.schema, Mapping) else {})),
        required=p.required,
        nullable=p.nullable,
        default=_cell(md_code(json.dumps(walk.thaw(p.default), ensure_ascii=False))) if p.has_default else Escaped(),
        deprecated=p.deprecated,
        description=p.description,
        extension=p.extension,
        constraints=constraint_note(p.schema),
    )


def _extra_keys(additional: Any) -> str:
    if additional is False:
        return "Keys not listed here are rejected."
    if isinstance(additional, Mapping):
        return f"Other keys are allowed; their values are {type_expr(additional)}."  # escaped pieces
    return "Keys not listed here are accepted and kept (as by the real system)."


def docs_files(root: Path, families: dict[str, FamilyModel]) -> dict[str, str]:
    """Every page, relative to generated/docs/."""
    files: dict[str, str] = {}
    summary: dict[str, list[NamedType]] = {}
    for name, family in sorted(families.items()):
        descriptions = dict(family.file_descriptions)
        types = [type_doc(root, t) for t in family.types.values()]
        summary[name] = list(family.types.values())
        files[f"{name}.md"] = render("docs/family.md.jinja2", family=name, files=descriptions, types=types)
    files["index.md"] = render("docs/index.md.jinja2", families=summary)
    return files
