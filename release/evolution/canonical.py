"""Each named type of a family reduced to what decides which payloads are valid.

Annotations (titles, descriptions, examples, defaults, `deprecated`, the discriminator hint,
`x-` extensions) are dropped, `$ref`s become the bare type name (so moving a type to another
file changes nothing), and sets (`required`, `enum`, `type` lists) are sorted. Two versions of a
type accept the same payloads when the canonical bodies of the type and of every type it reaches
are equal; the converse is not assumed: a structural difference is only a place to look.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from codegen.inventory import ref_target_name
from codegen.load import SchemaFile

ANNOTATIONS = frozenset(
    {"title", "description", "examples", "$comment", "default", "deprecated", "readOnly", "writeOnly", "discriminator"}
)
_NAMED_SUBSCHEMAS = ("properties", "patternProperties", "dependentSchemas", "$defs")


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def canonical(node: Any) -> Any:
    """`node` without annotations, with `$ref`s as type names and set-like keywords sorted."""
    if isinstance(node, list):
        return [canonical(v) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ANNOTATIONS or key.startswith("x-"):
            continue
        if key == "$ref" and isinstance(value, str):
            out[key] = ref_target_name(value)
        elif key == "const":
            out[key] = value
        elif key == "enum" and isinstance(value, list):
            out[key] = sorted(value, key=_key)
        elif key in ("required", "type") and isinstance(value, list):
            out[key] = sorted(set(value), key=_key)
        elif key in _NAMED_SUBSCHEMAS and isinstance(value, dict):
            out[key] = {name: canonical(sub) for name, sub in value.items()}
        else:
            out[key] = canonical(value)
    return out


def refs(node: Any) -> set[str]:
    """Names of the types a (canonical) schema refers to directly."""
    if isinstance(node, list):
        return {r for v in node for r in refs(v)}
    if not isinstance(node, dict):
        return set()
    found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
    for key, value in node.items():
        if key not in ("const", "enum"):
            found |= refs(value)
    return found


@dataclass
class FamilyTypes:
    """The named types of one family in one version."""

    family: str
    files: list[SchemaFile]
    raw: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> $defs entry as written
    file_of: dict[str, SchemaFile] = field(default_factory=dict)
    body: dict[str, str] = field(default_factory=dict)  # name -> canonical JSON text
    doc: dict[str, str] = field(default_factory=dict)  # name -> full JSON text (annotations too)
    edges: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, family: str, files: list[SchemaFile]) -> FamilyTypes:
        """Index every `$defs` entry of the family's files."""
        ft = cls(family, files)
        for f in files:
            for name, schema in f.contents.get("$defs", {}).items():
                if not isinstance(schema, dict | bool):
                    continue
                ft.raw[name] = schema if isinstance(schema, dict) else {"not": {}} if schema is False else {}
                ft.file_of[name] = f
                body = canonical(ft.raw[name])
                ft.body[name] = _key(body)
                ft.doc[name] = _key(ft.raw[name])
                ft.edges[name] = refs(body)
        return ft

    def reach(self, name: str) -> list[str]:
        """`name` and every type it reaches through `$ref`s, in breadth-first order."""
        seen = [name]
        i = 0
        while i < len(seen):
            for nxt in sorted(self.edges.get(seen[i], ())):
                if nxt not in seen:
                    seen.append(nxt)
            i += 1
        return seen

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
