"""Each named type of a family reduced to what decides which payloads are valid.

Annotations (titles, descriptions, examples, defaults, `deprecated`, the discriminator hint,
`x-` extensions) are dropped, `$ref`s become the bare type name (so moving a type to another
file changes nothing), sets (`required`, `enum`, `type` lists, `dependentRequired`'s lists) are
sorted, and numbers are JSON's (`1.0` is written `1`). Two versions of a
type accept the same payloads when the canonical bodies of the type and of every type it reaches
are equal; the converse is not assumed: a structural difference is only a place to look.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from codegen import walk
from codegen.load import SchemaFile
from codegen.model import FamilyModel, build_family
from codegen.names import ref_target_name

from .values import normal

# The annotations (x- extensions are dropped by their prefix) and the discriminator, a hint: neither decides validity.
ANNOTATIONS = frozenset(k for k in walk.ANNOTATIONS if not k.startswith("x-")) | {"discriminator"}


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def canonical(node: Any) -> Any:
    """`node` without annotations, with `$ref`s as type names and set-like keywords sorted."""
    return walk.transform(node, _canonical_node)


def _canonical_node(original: Mapping[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ANNOTATIONS or key.startswith("x-"):
            continue
        if key == "$ref" and isinstance(value, str):
            out[key] = ref_target_name(value)
        elif key == "enum" and isinstance(value, list):
            out[key] = sorted(normal(value), key=_key)
        elif key in ("required", "type") and isinstance(value, list) and all(isinstance(v, str) for v in value):
            out[key] = sorted(set(value), key=_key)
        elif key == "dependentRequired":  # names -> lists of names: data, even where a name is a keyword's
            out[key] = _dependencies(walk.thaw(original[key]))
        elif key == "const" or isinstance(value, float):
            out[key] = normal(value)  # one JSON number: 1.0 is 1
        else:
            out[key] = value
    return out


def _dependencies(value: Any) -> Any:
    """dependentRequired with each list of names sorted and without repeats."""
    if not isinstance(value, dict):
        return value
    names = {k: v for k, v in value.items() if isinstance(v, list) and all(isinstance(n, str) for n in v)}
    return {k: sorted(set(names[k])) if k in names else v for k, v in value.items()}


@dataclass
class FamilyTypes:
    """The named types of one family in one version (its resolved model), with their canonical bodies."""

    family: str
    files: list[SchemaFile]
    model: FamilyModel
    raw: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> $defs entry as written
    file_of: dict[str, SchemaFile] = field(default_factory=dict)
    body: dict[str, str] = field(default_factory=dict)  # name -> canonical JSON text
    doc: dict[str, str] = field(default_factory=dict)  # name -> full JSON text (annotations too)
    edges: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, family: str, files: list[SchemaFile]) -> FamilyTypes:
        """Index every `$defs` entry of the family's files."""
        ft = cls(family, files, build_family(family, files))
        by_name = {f.name: f for f in files}
        for name, t in ft.model.types.items():
            ft.raw[name] = walk.thaw(t.definition)
            ft.file_of[name] = by_name[t.file]
            ft.body[name] = _key(canonical(ft.raw[name]))
            ft.doc[name] = _key(ft.raw[name])
            ft.edges[name] = set(t.refs)
        return ft

    def reach(self, name: str) -> list[str]:
        """`name` and every type it reaches through `$ref`s, in breadth-first order."""
        t = self.model.types.get(name)
        return list(t.closure) if t is not None else [name]

    def path_to(self, start: str, targets: set[str]) -> list[str]:
        """The shortest `$ref` chain from `start` to one of `targets` (both ends included)."""
        prev: dict[str, str | None] = {start: None}
        queue = [start]
        for current in queue:
            if current in targets:
                chain = [current]
                while prev[chain[-1]] is not None:
                    chain.append(prev[chain[-1]])  # type: ignore[arg-type]
                return chain[::-1]
            for nxt in sorted(self.edges.get(current, ())):
                if nxt not in prev:
                    prev[nxt] = current
                    queue.append(nxt)
        return [start]
