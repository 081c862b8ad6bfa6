"""Walk a valid instance alongside its schema; derive invalid instances from it (mutations).

`walk` resolves `$ref`, `allOf`, tagged `oneOf` (by the tag) and `anyOf` (the first branch the value
satisfies) and reports every object and value it meets with the schema that governs it. The same
walk records coverage: the `$defs` types, union branches and enum values a valid instance exercises.

Each mutation has a rule name (`remove-required`, `wrong-type/string-number`, ...) and the JSON
path it changed. Whether the result is invalid is decided by jsonschema, never assumed: a mutation
the schema still accepts is dropped by the caller.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from jsonschema import Draft202012Validator

Key = str | int

# wrong-type replacements, by rule name
REPLACEMENTS: dict[str, Any] = {
    "string-number": "3",
    "string-bool": "true",
    "string": "x",
    "integer": 3,
    "integral-float": 3.0,
    "float": 3.5,
    "bool": True,
    "array": [],
    "object": {},
}
BROKEN_DATE_TIMES = {
    "space-separator": "2024-05-01 12:00:00+00:00",
    "no-offset": "2024-05-01T12:00:00",
    "date-only": "2024-05-01",
    "month-13": "2024-13-01T12:00:00Z",
    "words": "yesterday",
}
EXTRA_KEY = "x_conformance_extra"


def path_text(keys: tuple[Key, ...]) -> str:
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys)


def location(keys: tuple[Key, ...]) -> str:
    """A path with list indices erased: where in the schema, not where in the instance."""
    return re.sub(r"\[\d+\]", "[]", path_text(keys))


@dataclass
class Node:
    keys: tuple[Key, ...]
    value: Any
    schema: dict[str, Any]  # the governing schema with refs, allOf and unions resolved
    properties: dict[str, Any] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    tag: str | None = None  # the union tag, if this object is a branch of a tagged union
    in_map: bool = False  # a value of an additionalProperties map
    via_union: bool = False  # reached through its tagged union (which requires the tag)


@dataclass
class Coverage:
    types: set[str] = field(default_factory=set)
    branches: set[tuple[str, str]] = field(default_factory=set)  # (union type, branch type)
    enums: set[tuple[str, str]] = field(default_factory=set)  # (owner type + location, json value)


def json_key(value: Any) -> str:
    return json.dumps(value)


class Walker:
    """Walks instances of one bundled type (see bundle.py)."""

    def __init__(self, bundled: dict[str, Any], root_name: str, family_defs: dict[str, Any]) -> None:
        self.doc = bundled
        self.family_defs = family_defs
        self.defs: dict[str, Any] = bundled.get("$defs", {})
        self.root_name = root_name
        self._validators: dict[str, Draft202012Validator] = {}

    def _deref(self, schema: dict[str, Any], cov: Coverage | None) -> tuple[dict[str, Any], str | None]:
        name = None
        while "$ref" in schema:
            ref = schema["$ref"]
            name = self.root_name if ref == "#" else ref.rsplit("/", 1)[-1]
            if cov is not None:
                cov.types.add(name)
            schema = self.doc if ref == "#" else self.defs[name]
        return schema, name

    def effective(self, schema: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
        """Properties and required keys, including those from `allOf` refs."""
        props: dict[str, Any] = {}
        req: set[str] = set()
        for part in schema.get("allOf", []):
            sub, _ = self._deref(part, None)
            p, r = self.effective(sub)
            props.update(p)
            req |= r
        props.update(schema.get("properties", {}))
        req |= set(schema.get("required", []))
        return props, req

    def _valid(self, value: Any, schema: dict[str, Any]) -> bool:
        key = json_key(schema)
        if key not in self._validators:
            self._validators[key] = Draft202012Validator(
                {**schema, "$defs": self.defs}, format_checker=Draft202012Validator.FORMAT_CHECKER
            )
        return self._validators[key].is_valid(value)

    def walk(self, value: Any, cov: Coverage | None = None) -> list[Node]:
        nodes: list[Node] = []
        if cov is not None:
            cov.types.add(self.root_name)
        self._walk(value, self.doc, (), cov, nodes, None, self.root_name, False)
        return nodes

    def _walk(
        self,
        value: Any,
        schema: dict[str, Any],
        keys: tuple[Key, ...],
        cov: Coverage | None,
        nodes: list[Node],
        tag: str | None,
        owner: str,
        in_map: bool,
        via_union: bool = False,
    ) -> None:
        schema, name = self._deref(schema, cov)
        owner = name or owner
        if "oneOf" in schema and "discriminator" in schema and isinstance(value, dict):
            tag_name = schema["discriminator"]["propertyName"]
            for branch in schema["oneOf"]:
                target, branch_name = self._deref(branch, None)
                props, _ = self.effective(target)
                if tag_name in value and props.get(tag_name, {}).get("const") == value[tag_name]:
                    if cov is not None:
                        cov.branches.add((owner, branch_name or "?"))
                    self._walk(value, branch, keys, cov, nodes, tag_name, owner, in_map, via_union=True)
                    return
            return
        if "anyOf" in schema:
            for branch in schema["anyOf"]:
                if self._valid(value, branch):
                    self._walk(value, branch, keys, cov, nodes, None, owner, in_map)
                    break
        props, req = self.effective(schema)
        if tag is None:
            tag = self._own_tag(owner)
        node = Node(keys, value, schema, props, req, tag, in_map, via_union)
        nodes.append(node)
        if "enum" in schema and cov is not None:
            cov.enums.add((f"{owner}", json_key(value)))
        if isinstance(value, dict):
            for k, v in value.items():
                if k in props:
                    self._walk(v, props[k], (*keys, k), cov, nodes, None, f"{owner}.{k}", False)
                elif isinstance(schema.get("additionalProperties"), dict):
                    self._walk(v, schema["additionalProperties"], (*keys, k), cov, nodes, None, f"{owner}.*", True)
        elif isinstance(value, list) and isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                self._walk(item, schema["items"], (*keys, i), cov, nodes, None, f"{owner}[]", False)

    def _own_tag(self, owner: str) -> str | None:
        """A branch type used on its own (not through its union) still has its union's tag."""
        for union in self.family_defs.values():
            if "discriminator" in union and any(
                b.get("$ref", "").endswith(f"/{owner}") for b in union.get("oneOf", [])
            ):
                tag: str = union["discriminator"]["propertyName"]
                return tag
        return None


def replaced(instance: Any, keys: tuple[Key, ...], value: Any) -> Any:
    """A copy of `instance` with the value at `keys` replaced (the root if `keys` is empty)."""
    if not keys:
        return value
    out = copy.deepcopy(instance)
    target = out
    for k in keys[:-1]:
        target = target[k]
    target[keys[-1]] = value
    return out


def without(instance: Any, keys: tuple[Key, ...], names: list[str]) -> Any:
    """A copy of `instance` without the keys `names` of the object at `keys`."""
    out = copy.deepcopy(instance)
    target = out
    for k in keys:
        target = target[k]
    for n in names:
        target.pop(n, None)
    return out


def _nullable(schema: dict[str, Any]) -> bool:
    t = schema.get("type")
    return t == "null" or (isinstance(t, list) and "null" in t) or ("enum" in schema and None in schema["enum"])


@dataclass(frozen=True)
class Mutation:
    rule: str
    keys: tuple[Key, ...]
    build: Callable[[], Any]  # makes the mutated instance (a deep copy): only the chosen ones are built

    @property
    def where(self) -> str:
        return path_text(self.keys)

    @property
    def location(self) -> str:
        return location(self.keys)


def mutations(instance: Any, nodes: list[Node]) -> Iterator[Mutation]:
    """Every mutation of a valid instance, in a fixed order."""
    for node in nodes:
        keys, value, schema = node.keys, node.value, node.schema
        if isinstance(value, dict):
            for k in sorted(node.required & set(value)):
                rule = "remove-required"
                if k == node.tag:
                    rule = "remove-union-tag" if node.via_union else "remove-tag"
                yield Mutation(rule, (*keys, k), partial(without, instance, keys, [k]))
            if node.tag and node.tag in value:
                yield Mutation(
                    "unknown-tag", (*keys, node.tag), partial(replaced, instance, (*keys, node.tag), "x_unknown_tag")
                )
            for k, sub in sorted(node.properties.items()):
                if k not in value and isinstance(sub, dict) and not _nullable(sub):
                    yield Mutation("null-for-absent", (*keys, k), partial(replaced, instance, (*keys, k), None))
            extra = {**value, EXTRA_KEY: {"nested": [1, "a", None]}}
            closed = schema.get("additionalProperties") is False
            yield Mutation(
                "unknown-key-closed" if closed else "unknown-key",
                (*keys, EXTRA_KEY),
                partial(replaced, instance, keys, extra),
            )
            negated = schema.get("not", {})
            if (
                isinstance(negated, dict)
                and negated.get("properties")
                and all(v is False for v in negated["properties"].values())
            ):
                yield Mutation("not/all-absent", keys, partial(without, instance, keys, list(negated["properties"])))
        if value is not None and not (isinstance(value, dict) and not keys):
            yield Mutation("null", keys, partial(replaced, instance, keys, None))
        for rule, replacement in REPLACEMENTS.items():
            if replacement != value or type(replacement) is not type(value):
                yield Mutation(
                    f"wrong-type/{rule}", keys, partial(replaced, instance, keys, copy.deepcopy(replacement))
                )
        if "const" in schema and keys and keys[-1] != node.tag:
            yield Mutation("break-const", keys, partial(replaced, instance, keys, "x_not_the_const"))
        if "enum" in schema:
            yield Mutation("break-enum", keys, partial(replaced, instance, keys, "x_not_in_enum"))
        if schema.get("format") == "date-time":
            for rule, broken in BROKEN_DATE_TIMES.items():
                yield Mutation(f"break-format/{rule}", keys, partial(replaced, instance, keys, broken))
        if isinstance(schema.get("pattern"), str) and isinstance(value, str):
            yield Mutation("break-pattern/trailing-newline", keys, partial(replaced, instance, keys, value + "\n"))
            yield Mutation("break-pattern/prefix", keys, partial(replaced, instance, keys, "x" + value))
