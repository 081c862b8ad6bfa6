"""Reference docs: one Markdown page per family and an index, rendered with jinja2 from the schemas.

Each type gets a section: its description, a property table (type, required, nullable, default,
deprecated, description), the branches and tags of a union, and one valid example taken from
schemas/<family>/examples/<Type>/valid/ (the first file in name order).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .escape import Escaped, md_code
from .examples import first_valid
from .inventory import EXTENSION, Family, TypeInfo, nullable, ref_target_name
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


@dataclass(frozen=True)
class TypeDoc:
    """One section of a family page."""

    info: TypeInfo
    type: Escaped
    bases: list[str]
    properties: list[PropertyDoc]
    branches: list[tuple[str, str]]  # (tag value, branch type name)
    example: str | None
    example_file: str | None
    extra_keys: Escaped
    extension: str

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
    if schema is True or schema == {}:
        return "any JSON value"
    if schema is False:
        return "nothing"
    if not isinstance(schema, dict):
        return "?"
    if "$ref" in schema:
        return _link(ref_target_name(schema["$ref"]))
    if "const" in schema:
        return md_code(json.dumps(schema["const"], ensure_ascii=False))
    if "enum" in schema:
        return " | ".join(md_code(json.dumps(v, ensure_ascii=False)) for v in schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " | ".join(type_expr(s) for s in schema[key])
    if "allOf" in schema:
        return " & ".join(type_expr(s) for s in schema["allOf"])
    types = schema.get("type")
    names = types if isinstance(types, list) else [types] if isinstance(types, str) else []
    if not names:
        return "any JSON value"
    parts: list[str] = []
    for t in names:
        if t == "array":
            items = schema.get("items")
            parts.append(f"array of {type_expr(items)}" if items is not None else "array")
        elif t == "object" and isinstance(schema.get("additionalProperties"), dict):
            parts.append(f"object of {type_expr(schema['additionalProperties'])}")
        elif t == "string" and "format" in schema:
            parts.append(f"string ({schema['format']})")
        elif t == "string" and "pattern" in schema:
            parts.append(f"string matching {md_code(schema['pattern'])}")
        else:
            parts.append(str(t))
    return " | ".join(parts)


def _example(root: Path, family: str, name: str) -> tuple[str | None, str | None]:
    path = first_valid(root, family, name)
    if path is None:
        return None, None
    payload = json.loads(path.read_text(encoding="utf-8"))
    return json.dumps(payload, indent=2, ensure_ascii=False), path.relative_to(root).as_posix()


def type_doc(root: Path, family: Family, t: TypeInfo) -> TypeDoc:
    """Everything a family page shows about one type."""
    schema = family.definition(t.name)
    properties: list[PropertyDoc] = []
    if t.kind == "object":
        required = family.required(t.name)
        for name, prop in family.properties(t.name).items():
            prop = prop if isinstance(prop, dict) else {}
            properties.append(
                PropertyDoc(
                    name=name,
                    type=_cell(type_expr(prop)),
                    required=name in required,
                    nullable=nullable(prop),
                    default=_cell(md_code(json.dumps(prop["default"], ensure_ascii=False)))
                    if "default" in prop
                    else Escaped(),
                    deprecated=bool(prop.get("deprecated")),
                    description=prop.get("description", ""),
                    extension=_extension(prop),
                )
            )
    bases = [ref_target_name(p["$ref"]) for p in schema.get("allOf", []) if isinstance(p, dict) and "$ref" in p]
    example, example_file = _example(root, family.name, t.name)
    additional = schema.get("additionalProperties", True)
    if additional is False:
        extra_keys = "Keys not listed here are rejected."
    elif isinstance(additional, dict):
        extra_keys = f"Other keys are allowed; their values are {type_expr(additional)}."  # escaped pieces
    else:
        extra_keys = "Keys not listed here are accepted and kept (as by the real system)."
    return TypeDoc(
        info=t,
        type=Escaped(type_expr({k: v for k, v in schema.items() if k not in ("oneOf", "discriminator")}))
        if t.kind != "union"
        else Escaped("object"),
        bases=bases,
        properties=properties,
        branches=[(b.tag_value, b.type_name) for b in t.branches],
        example=example,
        example_file=example_file,
        extra_keys=Escaped(extra_keys),
        extension=_extension(schema),
    )


def _extension(schema: Any) -> str:
    """The reason a type or property is the project's own addition, or "" (see inventory.EXTENSION)."""
    value = schema.get(EXTENSION, "") if isinstance(schema, dict) else ""
    return value if isinstance(value, str) else ""


def docs_files(root: Path, families: dict[str, Family]) -> dict[str, str]:
    """Every page, relative to generated/docs/."""
    files: dict[str, str] = {}
    summary: dict[str, list[TypeInfo]] = {}
    for name, family in sorted(families.items()):
        descriptions = {f.name: f.contents.get("description", "") for f in family.files}
        types = [type_doc(root, family, t) for t in family.types.values()]
        summary[name] = list(family.types.values())
        files[f"{name}.md"] = render("docs/family.md.jinja2", family=name, files=descriptions, types=types)
    files["index.md"] = render("docs/index.md.jinja2", families=summary)
    return files
