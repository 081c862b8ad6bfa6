"""The largest schema the generator takes, refused beyond it with one line (rule `limits`).

Past these sizes a step of the generator runs out of stack (ajv's standalone code generation in
Node: 5,000 properties on one type, a ring of 300 types); each limit is about half of the smallest
size seen to fail, and a family at every limit at once generates (tests/test_hostile_schema.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .errors import SchemaProblem, pointer
from .lint_context import Context
from .model import NamedType

MAX_PROPERTIES = 1000  # properties one type declares (its own and its bases')
MAX_BRANCHES = 256  # branches of one tagged union
MAX_REF_DEPTH = 100  # named types in the longest chain of `$ref`s followed from one type


def limits(context: Context) -> Iterator[SchemaProblem]:
    """limits: a type with too many properties, a union with too many branches, or a `$ref` chain
    too deep for the generator."""
    for family, model in sorted(context.models.items()):
        covered: set[str] = set()  # a too-deep chain is reported once, at its first type in file order
        for name, t in model.types.items():
            at = SchemaProblem(f"schemas/{family}/{t.file}", pointer("$defs", name), "", "limits")
            if len(t.properties) > MAX_PROPERTIES:
                yield _problem(at, f"{len(t.properties)} properties; the generator takes at most {MAX_PROPERTIES}")
            if len(t.branches) > MAX_BRANCHES:
                yield _problem(at, f"a union of {len(t.branches)} branches; the generator takes at most {MAX_BRANCHES}")
            if name in covered:
                continue
            depth = ref_depth(model.types, name)
            if depth > MAX_REF_DEPTH:
                covered.update(t.closure)
                yield _problem(
                    at, f"its $refs lead {depth} named types deep; the generator follows at most {MAX_REF_DEPTH}"
                )


def _problem(at: SchemaProblem, message: str) -> SchemaProblem:
    return SchemaProblem(at.file, at.pointer, message, at.rule)


def ref_depth(types: Mapping[str, NamedType], start: str) -> int:
    """How many named types the longest chain of `$ref`s from `start` passes through, each type
    entered once (as a code generator that compiles each reference once descends), without recursion."""
    deepest = 0
    seen = {start}
    stack: list[tuple[str, Iterator[str], int]] = [(start, iter(sorted(types[start].refs)), 1)]
    while stack:
        _, targets, depth = stack[-1]
        deepest = max(deepest, depth)
        target = next((t for t in targets if t in types and t not in seen), None)
        if target is None:
            stack.pop()
            continue
        seen.add(target)
        stack.append((target, iter(sorted(types[target].refs)), depth + 1))
    return deepest
