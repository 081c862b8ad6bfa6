"""The resolved model of the schemas: every family's named types, properties and unions, built once.

Loading gives files of JSON; this resolves them, once, into what every other part of codegen asks
about: which types a family has and of what kind, each property's merged facts (inherited through
`allOf` `$ref`s or its own, required, nullable, default, const, ...), each union's tag and branches,
the types each type reaches, and the family's bundle. Lint's union rule, the emitters and the diff
read these facts here and compute none of them again.

The model is immutable (frozen dataclasses, tuples, mapping proxies). It is built from any loaded
files, linted or not (lint reads it too, and the diff reads old revisions that lint never saw):
whatever does not resolve is simply absent. Schema JSON for an external tool is derived from it
with `walk.thaw` or `walk.transform`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from . import walk
from .load import SchemaFile
from .names import DRAFT, EXTENSION, ID_BASE, ref_target_file, ref_target_name

if TYPE_CHECKING:
    from .grammars import GrammarFile

_NOTHING: Mapping[str, Any] = MappingProxyType({})
# Keywords a Property has a field for; everything else is in its `validation`.
_PROPERTY_FACTS = frozenset({"default", "const", "enum", "format", "pattern"}) | walk.ANNOTATIONS


@dataclass(frozen=True)
class Property:
    """One property of a named type, as the type sees it (its own, or inherited through `allOf`)."""

    name: str
    owner: str  # the type whose `properties` declare it
    schema: Any  # the property's schema, frozen (a mapping, or a boolean)
    required: bool  # required by the type (its own `required` or a base's)
    required_by_owner: bool  # listed in the owner's own `required`
    nullable: bool
    description: str
    extension: str  # why the project adds it, if the real system lacks it ("" if it does not)
    deprecated: bool
    has_default: bool
    default: Any
    has_const: bool
    const: Any
    enum: tuple[Any, ...] | None
    format: str | None
    pattern: str | None
    validation: Mapping[str, Any]  # every other keyword: type, $ref, items, anyOf, ...

    @property
    def absent_only(self) -> bool:
        """May be absent, never null, and has no default (Pydantic's MISSING)."""
        return not self.required_by_owner and not self.has_default and not self.nullable

    @property
    def absent_or_null(self) -> bool:
        """May be absent or null, with no default: absent and null stay apart."""
        return not self.required_by_owner and not self.has_default and self.nullable


@dataclass(frozen=True)
class Branch:
    """One branch of a union: the named type it refers to and its tag value."""

    index: int
    ref: str  # the branch's `$ref` ("" when the branch is not a bare `$ref`)
    type_name: str  # the type the `$ref` names
    resolved: bool  # the family defines that type
    tag_value: str  # the branch's `const` of the tag ("" if it has none, or not a string)
    tag_required: bool  # the branch (or a base) lists the tag in `required`
    tag_restated: bool  # the branch's own `properties` and `required` name the tag


@dataclass(frozen=True)
class Union:
    """A `oneOf` or a discriminator hint, wherever it stands: a tagged union once lint passed."""

    file: str  # the schema file, relative to the repository root
    path: walk.Path  # where it stands in the file
    has_branches: bool  # `oneOf` is a list
    tag: str | None  # the discriminator's propertyName; None without a usable hint
    has_mapping: bool  # the hint carries a `mapping`
    object_typed: bool  # `"type": "object"` beside it
    branches: tuple[Branch, ...]

    @property
    def table(self) -> Mapping[str, str]:
        """Tag value -> branch type."""
        return MappingProxyType({b.tag_value: b.type_name for b in self.branches})


@dataclass(frozen=True)
class NamedType:
    """A named `$defs` entry, addressed as `<family>/<name>`."""

    family: str
    name: str
    file: str  # file name inside the family folder
    kind: str  # "object", "union" or "alias"
    title: str
    description: str
    extension: str
    deprecated: bool
    definition: Mapping[str, Any]  # the `$defs` entry as written, frozen (a boolean as {} or {"not": {}})
    properties: tuple[Property, ...]  # inherited ones first, in `allOf` order, then its own
    own_properties: tuple[str, ...]
    required: frozenset[str]
    bases: tuple[str, ...]  # the object types its `allOf` `$ref`s name: it has their properties
    also_one_of: tuple[str, ...]  # the unions its `allOf` `$ref`s name: it is also one of their branches
    refs: frozenset[str]  # the type names its `$ref`s name (data skipped)
    closure: tuple[str, ...]  # itself and every type name it reaches, breadth first
    union: Union | None  # its own union, when kind is "union"

    @property
    def qualified(self) -> str:
        """The schema name used everywhere: `<family>/<TypeName>`."""
        return f"{self.family}/{self.name}"

    @property
    def module(self) -> str:
        """The generated module holding this type, e.g. `message` for message.json."""
        return self.file.removesuffix(".json")

    @property
    def tag(self) -> str | None:
        """A union's tag property."""
        return self.union.tag if self.union is not None else None

    @property
    def branches(self) -> tuple[Branch, ...]:
        """A union's branches, in `oneOf` order."""
        return self.union.branches if self.union is not None else ()

    def property(self, name: str) -> Property | None:
        """The property of that name, own or inherited."""
        return next((p for p in self.properties if p.name == name), None)

    def own(self) -> Iterator[Property]:
        """The properties its own `properties` declare, in schema order."""
        by_name = {p.name: p for p in self.properties}
        return (by_name[name] for name in self.own_properties)


@dataclass(frozen=True)
class FamilyModel:
    """The resolved named types of one family."""

    name: str
    version: str
    files: tuple[SchemaFile, ...]
    types: Mapping[str, NamedType]  # in file and definition order
    union_sites: tuple[Union, ...]  # every `oneOf` or discriminator hint, named type or not
    grammars: tuple[GrammarFile, ...] = ()  # its stream grammars (codegen/grammars.py), once checked

    @property
    def file_descriptions(self) -> Mapping[str, str]:
        """Each file's own description, by file name."""
        return MappingProxyType({f.name: _text(f.contents.get("description")) for f in self.files})

    @property
    def unions(self) -> tuple[NamedType, ...]:
        """The family's tagged unions, in file and definition order."""
        return tuple(t for t in self.types.values() if t.kind == "union")

    def required(self, name: str) -> frozenset[str]:
        """A type's required keys, its own and its bases'."""
        return self.types[name].required

    def properties(self, name: str) -> Mapping[str, Property]:
        """A type's properties by name, its own and its bases'."""
        return MappingProxyType({p.name: p for p in self.types[name].properties})

    @functools.cached_property
    def bundle(self) -> Mapping[str, Any]:
        """One self-contained 2020-12 document holding every named type under `$defs` (frozen)."""
        defs = {name: walk.freeze(walk.transform(t.definition, _local_refs)) for name, t in self.types.items()}
        return MappingProxyType(
            {
                "$schema": DRAFT,
                "$id": bundle_id(self.name),
                "$comment": (
                    f"Generated bundle of schemas/{self.name}/*.json: do not edit; edit the sources and run "
                    "`nox -s generate`."
                ),
                "description": (
                    f"Every named type of the {self.name!r} family in one self-contained document; "
                    "validate against `<$id>#/$defs/<TypeName>`."
                ),
                "$defs": MappingProxyType(defs),
            }
        )

    def bundle_json(self) -> dict[str, Any]:
        """A plain copy of the bundle (dicts and lists), to write or to hand to a tool."""
        plain: dict[str, Any] = walk.thaw(self.bundle)
        return plain


def bundle_id(family: str) -> str:
    """The `$id` of a family's bundle."""
    return f"{ID_BASE}{family}.bundle.json"


def _local_refs(_: Mapping[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """`parts.json#/$defs/Content` or `#/$defs/Content` -> `#/$defs/Content`: every name is unique in a family."""
    ref = node.get("$ref")
    if isinstance(ref, str):
        fragment = ref.partition("#")[2]
        if not fragment.startswith("/$defs/"):
            raise ValueError(f"$ref {ref!r} does not point at a named type")
        node["$ref"] = "#" + fragment
    return node


# --- building ------------------------------------------------------------------------------------

Place = tuple[str, str]  # (file name, type name)


def _schema(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict | MappingProxyType) else _NOTHING


def _list(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, list | tuple) else ()


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def admits_null(schema: Any) -> bool:
    """Whether a schema admits null: by its type, enum or const, or through an anyOf / oneOf branch."""
    if not isinstance(schema, Mapping):
        return schema is True
    if walk.ALTERNATIVES.isdisjoint(schema):
        return _null_here(schema)
    return any(_null_here(node) for _, node in walk.subschemas(schema, through=walk.ALTERNATIVES))


def _null_here(node: Mapping[str, Any]) -> bool:
    types = node.get("type")
    if types == "null" or "null" in _list(types):
        return True
    if None in _list(node.get("enum")) or ("const" in node and node["const"] is None):
        return True
    return any(branch is True for key in walk.ALTERNATIVES for branch in _list(node.get(key)))


def _kind(schema: Mapping[str, Any]) -> str:
    if "oneOf" in schema and "discriminator" in schema:
        return "union"
    if schema.get("type") == "object":
        return "object"
    return "alias"


class _Resolver:
    """The raw definitions of one family by place, with each one's merged properties and required."""

    def __init__(self, files: tuple[SchemaFile, ...]) -> None:
        self.defs: dict[Place, Mapping[str, Any]] = {}
        self._merged: dict[Place, tuple[dict[str, Place], set[str]]] = {}
        self._properties: dict[tuple[str, Place, bool], Property] = {}
        for f in files:
            for name, schema in _schema(f.contents.get("$defs")).items():
                if isinstance(schema, bool):
                    schema = {} if schema else {"not": {}}
                if isinstance(schema, Mapping):
                    self.defs.setdefault((f.name, name), walk.freeze(schema))

    def target(self, ref: str, file: str) -> Place:
        """Where a `$ref` written in `file` points."""
        return ref_target_file(ref, file), ref_target_name(ref)

    def all_of(self, place: Place) -> Iterator[Place]:
        """The places of a definition's `allOf` `$ref`s that resolve."""
        for part in _list(self.defs[place].get("allOf")):
            ref = _schema(part).get("$ref")
            if isinstance(ref, str) and self.target(ref, place[0]) in self.defs:
                yield self.target(ref, place[0])

    def bases(self, place: Place) -> Iterator[Place]:
        """The places of a definition's base types: its `allOf` `$ref`s but to unions (a union has
        no properties to inherit; a type that names one is also one of its branches)."""
        return (base for base in self.all_of(place) if _kind(self.defs[base]) != "union")

    def property(self, name: str, owner: Place, required: bool) -> Property:
        """The property `name` declared by `owner`, as a type that requires it or not sees it (made once)."""
        key = (name, owner, required)
        if key not in self._properties:
            self._properties[key] = _property(name, owner, self, required)
        return self._properties[key]

    def merged(self, place: Place) -> tuple[dict[str, Place], set[str]]:
        """Each property's declaring place (bases first, in `allOf` order; own ones last) and the
        required keys, through `allOf` `$ref`s (a cycle is followed once)."""
        if place not in self._merged:
            self._merged[place] = self._merge(place, frozenset())
        return self._merged[place]

    def _merge(self, place: Place, seen: frozenset[Place]) -> tuple[dict[str, Place], set[str]]:
        owners: dict[str, Place] = {}
        required = {r for r in _list(self.defs[place].get("required")) if isinstance(r, str)}
        for base in self.bases(place):
            if base not in seen:
                base_owners, base_required = self._merge(base, seen | {place})
                owners.update(base_owners)
                required |= base_required
        owners.update({name: place for name in _schema(self.defs[place].get("properties"))})
        return owners, required


def _property(name: str, owner: Place, resolver: _Resolver, required: bool) -> Property:
    schema = _schema(resolver.defs[owner].get("properties"))[name]
    facts = _schema(schema)
    owner_required = _list(resolver.defs[owner].get("required"))
    return Property(
        name=name,
        owner=owner[1],
        schema=schema,
        required=required,
        required_by_owner=name in owner_required,
        nullable=admits_null(schema),
        description=_text(facts.get("description")),
        extension=_text(facts.get(EXTENSION)),
        deprecated=bool(facts.get("deprecated")),
        has_default="default" in facts,
        default=facts.get("default"),
        has_const="const" in facts,
        const=facts.get("const"),
        enum=_list(facts["enum"]) if "enum" in facts else None,
        format=facts["format"] if isinstance(facts.get("format"), str) else None,
        pattern=facts["pattern"] if isinstance(facts.get("pattern"), str) else None,
        validation=MappingProxyType({k: v for k, v in facts.items() if k not in _PROPERTY_FACTS}),
    )


def _union(file: SchemaFile, place: Place, path: walk.Path, node: Mapping[str, Any], resolver: _Resolver) -> Union:
    disc = node.get("discriminator")
    tag = disc.get("propertyName") if isinstance(disc, Mapping) else None
    tag = tag if isinstance(tag, str) else None
    return Union(
        file=str(file.path),
        path=path,
        has_branches=isinstance(node.get("oneOf"), list | tuple),
        tag=tag,
        has_mapping=isinstance(disc, Mapping) and "mapping" in disc,
        object_typed=node.get("type") == "object",
        branches=tuple(_branch(i, b, place[0], tag, resolver) for i, b in enumerate(_list(node.get("oneOf")))),
    )


def _branch(index: int, branch: Any, file: str, tag: str | None, resolver: _Resolver) -> Branch:
    ref = _schema(branch).get("$ref")
    if not isinstance(ref, str) or len(_schema(branch)) != 1:
        return Branch(index, "", "", False, "", False, False)
    target = resolver.target(ref, file)
    if target not in resolver.defs or tag is None:
        return Branch(index, ref, target[1], target in resolver.defs, "", False, False)
    owners, required = resolver.merged(target)
    tag_schema = _schema(_schema(resolver.defs[owners[tag]].get("properties")).get(tag)) if tag in owners else {}
    const = tag_schema.get("const")
    own = resolver.defs[target]
    return Branch(
        index=index,
        ref=ref,
        type_name=target[1],
        resolved=True,
        tag_value=const if isinstance(const, str) else "",
        tag_required=tag in required,
        tag_restated=tag in _schema(own.get("properties")) and tag in _list(own.get("required")),
    )


def _closure(name: str, edges: Mapping[str, frozenset[str]]) -> tuple[str, ...]:
    seen = [name]
    for current in seen:  # grows while it is read: breadth first
        seen.extend(n for n in sorted(edges.get(current, ())) if n not in seen)
    return tuple(seen)


def _named_type(
    family: str, place: Place, resolver: _Resolver, union: Union | None, refs: frozenset[str], closure: tuple[str, ...]
) -> NamedType:
    schema = resolver.defs[place]
    owners, required = resolver.merged(place)
    kind = _kind(schema)
    return NamedType(
        family=family,
        name=place[1],
        file=place[0],
        kind=kind,
        title=_text(schema.get("title")),
        description=_text(schema.get("description")),
        extension=_text(schema.get(EXTENSION)),
        deprecated=bool(schema.get("deprecated")),
        definition=schema,
        properties=tuple(resolver.property(n, owner, n in required) for n, owner in owners.items()),
        own_properties=tuple(_schema(schema.get("properties"))),
        required=frozenset(required),
        bases=tuple(name for _, name in resolver.bases(place)),
        also_one_of=tuple(p[1] for p in resolver.all_of(place) if _kind(resolver.defs[p]) == "union"),
        refs=refs,
        closure=closure,
        union=union if kind == "union" else None,
    )


def build_family(name: str, files: list[SchemaFile], version: str = "0.0.0") -> FamilyModel:
    """Resolve one family's files (any loaded files: what does not resolve is left out)."""
    ordered = tuple(files)
    resolver = _Resolver(ordered)
    sites: list[Union] = []
    found: dict[str, tuple[Place, Union | None, frozenset[str]]] = {}  # the first definition of each name
    for f in ordered:
        for place in (p for p in resolver.defs if p[0] == f.name):
            nodes = list(walk.subschemas(resolver.defs[place], ("$defs", place[1])))
            own_sites = [
                _union(f, place, path, node, resolver)
                for path, node in nodes
                if "discriminator" in node or "oneOf" in node
            ]
            sites += own_sites
            root = next((s for s in own_sites if s.path == ("$defs", place[1])), None)
            refs = frozenset(ref_target_name(n["$ref"]) for _, n in nodes if isinstance(n.get("$ref"), str))
            found.setdefault(place[1], (place, root, refs))
    edges = {n: refs for n, (_, _, refs) in found.items()}
    types = {
        n: _named_type(name, place, resolver, root, refs, _closure(n, edges))
        for n, (place, root, refs) in found.items()
    }
    return FamilyModel(name, version, ordered, MappingProxyType(types), tuple(sites))


def build_models(files: list[SchemaFile], versions: Mapping[str, str] | None = None) -> dict[str, FamilyModel]:
    """Every family's model, by family name, in the order the files came."""
    by_family: dict[str, list[SchemaFile]] = {}
    for f in files:
        by_family.setdefault(f.family, []).append(f)
    return {
        name: build_family(name, family_files, (versions or {}).get(name, "0.0.0"))
        for name, family_files in by_family.items()
    }
