"""Lint rules over references and unions: every `$ref` resolves inside its family, no `$ref` cycle
stays in place, and every union is tagged (read from the resolved model, codegen/model.py)."""

from __future__ import annotations

import keyword
from collections.abc import Iterator
from urllib.parse import urljoin

from referencing.exceptions import Unresolvable

from . import walk
from .errors import SchemaProblem, pointer
from .lint_context import Context
from .model import Branch, Union
from .names import expected_id, ref_target_file


def _other_module(ref: str) -> str | None:
    """The generated module a cross-file `$ref` imports (`tool` for `tool.json#/...`), if any.

    datamodel-codegen renames an imported module whose name equals a field of the importing
    module (`content` -> `content_1`), so such names are refused up front.
    """
    target = ref.split("#", 1)[0]
    if not target:
        return None
    return target.rsplit("/", 1)[-1].removesuffix(".json")


def module_clashes(context: Context) -> Iterator[SchemaProblem]:
    """A cross-file `$ref`'s module may not share its name with a property of the referring file."""
    for f in context.typed_files:
        sites = [s for s in context.file_sites if s.file is f]
        names = {prop for s in sites for prop in (s.node.get("properties") or {}) if isinstance(prop, str)}
        for site in sites:
            ref = site.node.get("$ref")
            if isinstance(ref, str) and (module := _other_module(ref)) in names:
                yield site.problem(
                    (*site.path, "$ref"),
                    f"module {module!r} (from {module}.json) clashes with a property of this file; rename the file",
                )


def resolved_refs(context: Context) -> Iterator[SchemaProblem]:
    """Every `$ref` resolves among the local files, inside its own family."""
    for site in context.file_sites:
        ref = site.node.get("$ref")
        if not isinstance(ref, str):
            continue
        base = expected_id(site.file.family, site.file.name)
        try:
            resolved = context.registry.resolver(base_uri=base).lookup(ref)
        except Unresolvable:
            yield site.problem(
                (*site.path, "$ref"), f"dangling $ref {ref!r}: no such schema among the local files", "ref-resolve"
            )
            continue
        if not urljoin(base, ref).startswith(expected_id(site.file.family, "")) or resolved is None:
            yield site.problem(
                (*site.path, "$ref"), f"$ref {ref!r} leaves the {site.file.family!r} family", "ref-resolve"
            )


def unions(context: Context) -> Iterator[SchemaProblem]:
    """A union is a `oneOf` of `$ref`s with a discriminator hint; each branch has a unique required const tag."""
    for model in context.models.values():
        for union in model.union_sites:
            yield from _union_problems(union)


def _union_problems(union: Union) -> Iterator[SchemaProblem]:
    def at(*sub: str | int, message: str, rule: str = "union") -> SchemaProblem:
        return SchemaProblem(union.file, pointer(*union.path, *sub), message, rule)

    if not union.has_branches:
        yield at("discriminator", message="a discriminator hint belongs on a oneOf union")
        return
    if union.tag is None:
        yield at("oneOf", message='union without a discriminator hint: add "discriminator": {"propertyName": <tag>}')
        return
    if union.has_mapping:
        yield at("discriminator", "mapping", message="no mapping: tags come from each branch's const")
    if not union.object_typed:
        yield at("type", message='a tagged union also declares "type": "object"')
    tag = union.tag
    if not tag.isidentifier() or keyword.iskeyword(tag) or tag.startswith("_"):
        # Pydantic looks a discriminator up by its Python field name: an aliased tag is read from the wrong key
        yield at("discriminator", "propertyName", message=f"union tag {tag!r} must be a Python name", rule="tag-name")
    seen: dict[str, int] = {}
    for branch in union.branches:
        yield from (at("oneOf", branch.index, message=m) for m in _branch_problems(tag, branch, seen))


def _branch_problems(tag: str, branch: Branch, seen: dict[str, int]) -> Iterator[str]:
    if not branch.ref:
        yield "each union branch is a bare $ref to a named type"
        return
    if not branch.resolved:
        return  # reported as a dangling $ref
    name = branch.type_name
    if not branch.tag_value:
        yield f"branch {name} needs property {tag!r} with a non-empty string const"
        return
    if not branch.tag_required:
        yield f"branch {name} must list its tag {tag!r} in required"
    if not branch.tag_restated:
        # ajv's discriminator reads the tag from the branch's own properties and required only.
        yield (
            f"branch {name} must restate its tag {tag!r} in its own properties and required, "
            "not only through allOf (ajv's discriminator does not follow allOf)"
        )
    if branch.tag_value in seen:
        yield f"tag value {tag}={branch.tag_value!r} is used by branches {seen[branch.tag_value]} and {branch.index}"
    seen[branch.tag_value] = branch.index


Node = tuple[str, str, str]  # family, file, type name
Edge = tuple[Node, str, walk.Path]  # target, file path, pointer of the `$ref`


def ref_cycles(context: Context) -> Iterator[SchemaProblem]:
    """ref-cycle: `$ref` cycles that never pass through an object's property or an array's item.

    Such a cycle validates nothing and recurses forever: python-jsonschema until RecursionError,
    Node until its stack overflows, while a compiled validator may call everything valid.
    """
    edges = _in_place_edges(context)
    reported: set[frozenset[Node]] = set()
    done: set[Node] = set()

    def visit(node: Node, stack: list[Node]) -> Iterator[SchemaProblem]:
        for target, file, path in edges.get(node, []):
            if target in stack:
                cycle = stack[stack.index(target) :]
                if frozenset(cycle) not in reported:
                    reported.add(frozenset(cycle))
                    names = " -> ".join(n for _, _, n in [*cycle, target])
                    message = (
                        f"$ref cycle {names} never passes through a property or an array item: "
                        "no payload can ever finish validating"
                    )
                    yield SchemaProblem(file, pointer(*path), message, "ref-cycle")
            elif target not in done:
                yield from visit(target, [*stack, target])
        done.add(node)

    for node in sorted(edges):
        if node not in done:
            yield from visit(node, [node])


def _in_place_edges(context: Context) -> dict[Node, list[Edge]]:
    """Each type's `$ref`s that apply to the same instance, to the type they name."""
    by_name = {(f.family, f.name) for f in context.files}
    edges: dict[Node, list[Edge]] = {}
    for f in context.files:
        for name, schema in (f.contents.get("$defs") or {}).items():
            for path, node in walk.subschemas(schema, ("$defs", name), through=walk.IN_PLACE):
                ref = node.get("$ref")
                if not isinstance(ref, str):
                    continue
                fragment = ref.partition("#")[2]
                target_file = ref_target_file(ref, f.name)
                if fragment.startswith("/$defs/") and (f.family, target_file) in by_name:
                    target = (f.family, target_file, fragment.removeprefix("/$defs/"))
                    edges.setdefault((f.family, f.name, name), []).append((target, str(f.path), (*path, "$ref")))
    return edges
