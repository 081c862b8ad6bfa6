"""Tag dispatch must give the plain `oneOf` verdict: a reusable check, and a corpus of mutated payloads.

`mismatches` runs over any `(schema name, payload)` pairs, so it can be pointed at other corpora
(the conformance corpus, a benchmark corpus) as well as at the test vectors.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Iterator
from typing import Any

from chatschema import schemas
from release.evolution.mutations import replaced

# Replacement values of other JSON types, tried in place of each value.
_OTHER_TYPES: list[Any] = [None, True, 0, 1.5, "x", [], {}, [1], {"k": "v"}]


def mismatches(cases: Iterable[tuple[str, Any]]) -> list[str]:
    """Every case where the dispatching, first-error and plain validators disagree on the verdict, or the
    dispatching and plain ones on the violations."""
    found = []
    for name, payload in cases:
        plain = schemas.validator(name, dispatch=False).is_valid(payload)
        fast = schemas.validator(name).is_valid(payload)
        first = schemas.verdict_validator(name).is_valid(payload)
        if plain != fast or plain != first:
            found.append(f"{name}: verdict dispatch={fast} first-error={first} oneOf={plain} for {payload!r:.300}")
            continue
        if not plain:
            explained = schemas.violations(payload, name, dispatch=False)
            dispatched = schemas.violations(payload, name)
            if explained != dispatched:
                found.append(f"{name}: violations differ for {payload!r:.300}: {dispatched} != {explained}")
    return found


def _tag_values() -> dict[str, set[str]]:
    """Tag property -> every tag value any union uses for it."""
    values: dict[str, set[str]] = {}
    for union in schemas.unions().values():
        values.setdefault(union.tag, set()).update(union.branches)
    return values


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _removed(payload: Any, path: tuple[Any, ...]) -> Any:
    out = copy.deepcopy(payload)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]  # a key, or a list element
    return out


def mutations(payload: Any, limit: int | None = None, seed: int = 0) -> list[Any]:
    """Payloads near `payload`: every tag set to every known and some unknown values or removed,
    every key removed, every value replaced by values of other JSON types, lists emptied or grown.

    With `limit`, every tag mutation is kept and the others are sampled (seeded) down to `limit`.
    """
    tagged = list(_mutations(payload, tags_only=True))
    others = list(_mutations(payload, tags_only=False))
    if limit is not None and len(tagged) + len(others) > limit:
        others = random.Random(seed).sample(others, max(0, limit - len(tagged)))
    return tagged + others


def _mutations(payload: Any, tags_only: bool) -> Iterator[Any]:
    tags = _tag_values()
    for path in _paths(payload):
        node = payload
        for step in path:
            node = node[step]
        key = path[-1] if path else None
        if isinstance(key, str) and key in tags:
            if tags_only:
                for value in [*sorted(tags[key]), "unknown", "", None, 1, ["text"], key.upper()]:
                    yield replaced(payload, path, value)
                yield _removed(payload, path)
            continue
        if tags_only:
            continue
        if path:
            yield _removed(payload, path)
        for value in _OTHER_TYPES:
            if type(value) is not type(node) or value != node:
                yield replaced(payload, path, value)
        if isinstance(node, list) and node:
            yield replaced(payload, path, [])
            yield replaced(payload, path, [*node, *node[:1]])
