"""Whether a type can only move the way the types it reaches move.

If a type reaches the changed types only through keywords that keep direction (`properties`,
`items`, `allOf`, `anyOf`, a tagged union's `oneOf` whose branches exclude one another by their tag,
...), a payload it accepts in one version and not the other must hold such a value of a changed
type: so when every changed type it reaches only narrowed, it can only narrow (and likewise for
widening). `not`, an `if` condition, `maxContains` over `contains`, `unevaluated*` and an untagged
`oneOf` (where a narrower branch can end an ambiguity and so accept more) break that, when a `$ref`
stands under them. The search of such a type stops at its first witness instead of spending its
whole budget on a direction that cannot exist.
"""

from __future__ import annotations

from typing import Any

from codegen.model import Union

from .canonical import FamilyTypes

_REVERSING = ("not", "if", "unevaluatedProperties", "unevaluatedItems")


def _exclusive(union: Union) -> bool:
    """A `oneOf` whose branches each require a distinct string tag: at most one branch can match."""
    values = [b.tag_value for b in union.branches]
    return (
        union.has_branches
        and union.tag is not None
        and all(values)
        and all(b.tag_required for b in union.branches)
        and len(set(values)) == len(values)
    )


def _has_ref(node: Any) -> bool:
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            if "$ref" in item:
                return True
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


def monotone(types: FamilyTypes, name: str) -> bool:
    """Whether `name` keeps the direction of every change in the types it reaches (see the module doc)."""
    exclusive = {(u.file, tuple(u.path)) for u in types.model.union_sites if _exclusive(u)}
    for reached in types.reach(name):
        named = types.model.types.get(reached)
        if named is None:
            return False
        where = types.file_of[reached].path.as_posix()
        todo: list[tuple[Any, tuple[str | int, ...]]] = [(types.raw[reached], ("$defs", reached))]
        while todo:
            node, path = todo.pop()
            if isinstance(node, list):
                todo.extend((item, (*path, i)) for i, item in enumerate(node))
                continue
            if not isinstance(node, dict):
                continue
            if any(key in node and _has_ref(node[key]) for key in _REVERSING):
                return False
            if "maxContains" in node and _has_ref(node.get("contains")):  # fewer matches can now pass
                return False
            if "oneOf" in node and _has_ref(node["oneOf"]) and (where, path) not in exclusive:
                return False
            todo.extend((value, (*path, key)) for key, value in node.items())
    return True
