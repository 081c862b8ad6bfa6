"""What the schemas define: families, their named types, and the tagged unions among them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .load import SchemaFile

ID_BASE = "https://chatschema.dev/schemas/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
# Marks a type or property that the project adds and the real system lacks; its value says why.
# Docs show it, and the conformance harness treats the real library's verdict on it as on an unknown key.
EXTENSION = "x-chatschema-extension"


def expected_id(family: str, file_name: str) -> str:
    """The `$id` a schema file must carry, derived from where it lives."""
    return f"{ID_BASE}{family}/{file_name}"


def ref_target_name(ref: str) -> str:
    """The `$defs` name a `$ref` of the form `[file.json]#/$defs/Name` points at."""
    return ref.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Branch:
    """One branch of a tagged union: the type it refers to and its tag value."""

    type_name: str
    tag_value: str


@dataclass(frozen=True)
class TypeInfo:
    """A named `$defs` entry, addressed as `<family>/<name>`."""

    family: str
    name: str
    file: str  # file name inside the family folder
    kind: str  # "object", "union" or "alias"
    description: str
    tag: str | None = None
    branches: tuple[Branch, ...] = ()

    @property
    def qualified(self) -> str:
        """The schema name used everywhere: `<family>/<TypeName>`."""
        return f"{self.family}/{self.name}"

    @property
    def module(self) -> str:
        """The generated module holding this type, e.g. `message` for message.json."""
        return self.file.removesuffix(".json")


@dataclass
class Family:
    """The schema files and named types of one family."""

    name: str
    files: list[SchemaFile] = field(default_factory=list)
    types: dict[str, TypeInfo] = field(default_factory=dict)
    version: str = "0.0.0"  # schemas/<family>/VERSION (codegen/versions.py)

    @property
    def unions(self) -> list[TypeInfo]:
        """The family's tagged unions, in file and definition order."""
        return [t for t in self.types.values() if t.kind == "union"]

    def definition(self, name: str) -> dict[str, Any]:
        """The raw `$defs` entry of a type of this family."""
        for f in self.files:
            if name in f.contents.get("$defs", {}):
                schema: dict[str, Any] = f.contents["$defs"][name]
                return schema
        raise KeyError(name)

    def properties(self, name: str) -> dict[str, Any]:
        """A type's properties, including those it takes from `allOf` `$ref`s."""
        schema = self.definition(name)
        props: dict[str, Any] = {}
        for part in schema.get("allOf", []):
            if "$ref" in part:
                props.update(self.properties(ref_target_name(part["$ref"])))
        props.update(schema.get("properties", {}))
        return props

    def pinned_consts(self, name: str) -> list[str]:
        """Own required `const` properties that are not the tag of a union the type is a branch of.

        A branch tag gets a default in Pydantic (so `ContentText(text=...)` works, as in the real
        systems); any other required const must be given, as the schema says.
        """
        schema = self.definition(name)
        tags = {u.tag for u in self.unions if any(b.type_name == name for b in u.branches)}
        return [
            prop
            for prop, sub in schema.get("properties", {}).items()
            if prop in schema.get("required", []) and isinstance(sub, dict) and "const" in sub and prop not in tags
        ]

    def required(self, name: str) -> set[str]:
        """A type's required keys, including those it takes from `allOf` `$ref`s."""
        schema = self.definition(name)
        req = set(schema.get("required", []))
        for part in schema.get("allOf", []):
            if "$ref" in part:
                req |= self.required(ref_target_name(part["$ref"]))
        return req


def nullable(schema: Any) -> bool:
    """Whether a property schema admits null (by type, enum, const or a union branch)."""
    if not isinstance(schema, dict):
        return schema is True
    types = schema.get("type")
    if types == "null" or (isinstance(types, list) and "null" in types):
        return True
    if None in schema.get("enum", []) or ("const" in schema and schema["const"] is None):
        return True
    return any(nullable(s) for key in ("anyOf", "oneOf") for s in schema.get(key, []))


def absent_only(schema: dict[str, Any]) -> list[str]:
    """Own properties that may be absent but never null: not required, not nullable, no default."""
    required = set(schema.get("required", []))
    return [
        name
        for name, prop in schema.get("properties", {}).items()
        if name not in required and "default" not in prop and not nullable(prop)
    ]


def absent_or_null(schema: dict[str, Any]) -> list[str]:
    """Own properties that may be absent or null, with no default: absent and null stay apart."""
    required = set(schema.get("required", []))
    return [
        name
        for name, prop in schema.get("properties", {}).items()
        if name not in required and "default" not in prop and nullable(prop)
    ]


def formatted(schema: dict[str, Any], fmt: str) -> list[str]:
    """Own properties that are a non-nullable string of the given `format`."""
    return [
        name
        for name, prop in schema.get("properties", {}).items()
        if isinstance(prop, dict) and prop.get("format") == fmt and prop.get("type") == "string"
    ]


def patterns(schema: dict[str, Any]) -> dict[str, str]:
    """Own properties constrained by a `pattern`, with the pattern."""
    return {
        name: prop["pattern"]
        for name, prop in schema.get("properties", {}).items()
        if isinstance(prop, dict) and isinstance(prop.get("pattern"), str)
    }


def _kind(schema: dict[str, Any]) -> str:
    if "oneOf" in schema and "discriminator" in schema:
        return "union"
    if schema.get("type") == "object":
        return "object"
    return "alias"


def build_inventory(files: list[SchemaFile]) -> dict[str, Family]:
    """Index the named types of already-linted files, family by family."""
    families: dict[str, Family] = {}
    for f in files:
        families.setdefault(f.family, Family(f.family)).files.append(f)
    for fam in families.values():
        for f in fam.files:
            for name, schema in f.contents.get("$defs", {}).items():
                kind = _kind(schema)
                tag = schema["discriminator"]["propertyName"] if kind == "union" else None
                branches = (
                    tuple(
                        Branch(t, str(fam.properties(t)[tag]["const"]))
                        for t in (ref_target_name(b["$ref"]) for b in schema["oneOf"])
                    )
                    if tag
                    else ()
                )
                fam.types[name] = TypeInfo(fam.name, name, f.name, kind, schema.get("description", ""), tag, branches)
    return families
