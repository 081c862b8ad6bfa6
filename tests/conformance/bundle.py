"""One self-contained JSON Schema document per named type, with local refs only.

hypothesis-jsonschema resolves only local, non-recursive `$ref`s, so each type is bundled with
every `$defs` entry of its family (type names are unique within a family) and each
`file.json#/$defs/Name` reference rewritten to `#/$defs/Name`. The bundle validates exactly what
the shipped schema validates (checked in tests/test_conformance.py).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


@cache
def family_defs(family: str, root: Path = SCHEMAS) -> dict[str, dict[str, Any]]:
    """Every `$defs` entry of a family, by name, with refs made local to the bundle (`root`: the
    folder of the family folders, another than schemas/ for a test family)."""
    defs: dict[str, dict[str, Any]] = {}
    for path in sorted((root / family).glob("*.json")):
        for name, schema in json.loads(path.read_text(encoding="utf-8")).get("$defs", {}).items():
            if name in defs:
                raise ValueError(f"{family}/{name} is defined twice")
            defs[name] = _localize(schema)
    return defs


def _localize(node: Any) -> Any:
    if isinstance(node, dict):
        out = {k: _localize(v) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and "#/$defs/" in ref:
            out["$ref"] = "#/$defs/" + ref.rsplit("/", 1)[-1]
        return out
    if isinstance(node, list):
        return [_localize(v) for v in node]
    return node


def families(root: Path = SCHEMAS) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.is_dir())


def type_names(family: str, root: Path = SCHEMAS) -> list[str]:
    return sorted(family_defs(family, root))


def bundle(name: str, root: Path = SCHEMAS) -> dict[str, Any]:
    """A self-contained document for `<family>/<Type>`: the type itself plus the `$defs` it can reach
    (a type that refers to itself does so as `#`)."""
    family, type_name = name.split("/")
    defs = family_defs(family, root)
    reach: set[str] = set()
    todo = [type_name]
    while todo:
        current = todo.pop()
        if current in reach:
            continue
        reach.add(current)
        todo.extend(_refs(defs[current]))
    doc = copy.deepcopy(defs[type_name])
    doc["$schema"] = DRAFT
    others = {n: copy.deepcopy(defs[n]) for n in sorted(reach) if n != type_name}
    if others:
        doc["$defs"] = others
    return _self_refs(doc, type_name)


EXTENSION = "x-chatschema-extension"


def real_view(name: str) -> dict[str, Any]:
    """The bundle of `name` as the real system knows it: every property marked as the project's
    own addition (`x-chatschema-extension`) removed, so that it is just another unknown key."""

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: strip(v) for k, v in node.items() if k not in ("const", "default", "enum", "examples")}
            out.update({k: node[k] for k in ("const", "default", "enum", "examples") if k in node})
            props = node.get("properties")
            if isinstance(props, dict):
                added = {p for p, sub in props.items() if isinstance(sub, dict) and EXTENSION in sub}
                out["properties"] = {p: strip(sub) for p, sub in props.items() if p not in added}
                if isinstance(node.get("required"), list):
                    out["required"] = [p for p in node["required"] if p not in added]
            return out
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    result: dict[str, Any] = strip(bundle(name))
    return result


def _self_refs(doc: dict[str, Any], type_name: str) -> dict[str, Any]:
    # The root is the type itself: a ref to it (a recursive type's) is `#`.
    text = json.dumps(doc).replace(f'"#/$defs/{type_name}"', '"#"')
    result: dict[str, Any] = json.loads(text)
    return result


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"].rsplit("/", 1)[-1]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []
