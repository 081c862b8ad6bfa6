"""Witness payloads: valid under one version of a type and invalid under the other.

Candidates, in a fixed order and a bounded number: the values the rules point at (`probes`)
themselves, each version's first valid instance with the probes placed at every spot (so that a
witness at the bound a rule names comes before any other), instances generated from each
version's schema (hypothesis-jsonschema, derandomized), the probes placed in every valid instance,
then the conformance harness's mutations of them (tests/conformance/mutations.py). Each candidate
is judged by plain jsonschema against each version's own files through a `referencing` registry
(offline), never by the generator; a candidate jsonschema cannot judge (a schema of an old
revision with a keyword of the wrong kind) is no witness.
"""

from __future__ import annotations

import importlib
import json
import signal
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import islice
from types import FrameType
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, ValidationError

from codegen import walk
from codegen.lint_context import build_registry
from codegen.names import ref_target_name

from .canonical import FamilyTypes
from .instances import GENERATION_DRAFT, RFC3339, for_generation, rfc3339
from .mutations import Walker, mutations, path_text, replaced, without
from .rules import NARROWED, SAMPLES, WIDENED, Change
from .speedups import speedups
from .values import EMOJI, sample

UNROLL = 2  # how many times a type may recur on one path of the generation schema
SHOWN = 40  # characters of a probe's JSON text named in `found_by`; a longer probe is described
DATE = "2000-01-01T00:00:00Z"  # the one date-time a witness shows, where a date-time will do
PLAIN_RUN = 10  # `"a"` repeated up to this many times is tried, then as long as the string it replaces
REPEAT = 0.1  # seconds between expiries of a time limit, once it has expired


@dataclass(frozen=True)
class Budget:
    """Bounds of one type's search (all fixed: the search is deterministic)."""

    examples: int = 8  # instances generated from each version, reaching the changed types (cli.EXAMPLES)
    candidates: int = 1500  # payloads judged under both versions, at most (cli.CANDIDATES)
    seconds: float = 60.0  # the search's time, at most (cli.SECONDS): a pattern that backtracks cannot hang it


class OutOfTime(BaseException):
    """A type's witness search ran past `Budget.seconds` (a BaseException: no `except Exception` on
    the way, in jsonschema or hypothesis, may take it for a failed candidate)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise OutOfTime in the block after `seconds` (a timer signal: it stops Python's regular
    expression engine too). No limit off the main thread or where there is no such timer."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    live = [True]  # cleared as the block ends: a repeat landing there (or at the restore) is ignored

    def expire(signum: int, frame: FrameType | None) -> None:
        if live[0]:
            raise OutOfTime

    previous = signal.signal(signal.SIGALRM, expire)
    # Repeated until the block ends: an expiry that lands in a finalizer (a weakref callback or a
    # __del__ the garbage collector runs) is printed and dropped by Python, and the block would run on.
    signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT)
    try:
        yield
    finally:
        live[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Witness:
    """A payload that one version accepts and the other rejects."""

    direction: str  # narrowed: valid before, invalid now; widened: the reverse
    payload: Any
    found_by: str  # how it was made
    rejected_because: str  # the rejecting version's first error, at its JSON location


def _format_checker() -> Any:
    # The project's own date-time rule (chatschema.schemas).
    return importlib.import_module("chatschema.schemas").FORMAT_CHECKER


class Side:
    """One version of a family: validators from its own files, generation schemas from its `$defs`."""

    def __init__(self, types: FamilyTypes) -> None:
        self.types = types
        self._registry = build_registry(types.files)
        self._validators: dict[str, Draft202012Validator] = {}
        self._screens: dict[str, Callable[[Any], bool]] = {}
        self._walkers: dict[str, Walker] = {}
        self.pools: dict[tuple[str, frozenset[str], int], list[Any]] = {}  # generated instances, reused
        self.examples: Mapping[str, list[Any]] = {}  # the version's valid examples, by type (schemas/<f>/examples/)
        # type -> property -> whether its items changed: what generation makes present (changed_properties)
        self.forced: dict[str, dict[str, bool]] = {}
        self._checker = _format_checker()

    def has(self, name: str) -> bool:
        """Whether the type exists in this version."""
        return name in self.types.raw

    def validator(self, name: str) -> Draft202012Validator:
        """A validator of `<family>/<name>` resolving `$ref`s through this version's files only."""
        if name not in self._validators:
            file_id = self.types.file_of[name].contents.get("$id", "")
            self._validators[name] = Draft202012Validator(
                {"$ref": f"{file_id}#/$defs/{name}"}, registry=self._registry, format_checker=self._checker
            )
        return self._validators[name]

    def screen(self, name: str) -> Callable[[Any], bool]:
        """A fast `is_valid` for sorting candidates (jsonschema-rs, date-time as the project's own
        mirror pattern); every witness is then confirmed by `validator`. Plain jsonschema without it."""
        if name not in self._screens:
            check: Callable[[Any], bool] = self.validator(name).is_valid
            try:
                import jsonschema_rs

                backends = importlib.import_module("chatschema.validate.backends")
                doc = backends.for_fast_backend({**self.local_defs[name], "$defs": self.local_defs})
                check = jsonschema_rs.Draft202012Validator(
                    doc, validate_formats=False, keywords=backends.FAST_KEYWORDS
                ).is_valid
            except (ImportError, ValueError):  # not installed, or a schema it refuses: the reference
                pass
            self._screens[name] = check
        return self._screens[name]

    @cached_property
    def local_defs(self) -> dict[str, Any]:
        """Every `$defs` entry with `$ref`s made local (`#/$defs/Name`), for the mutation walker."""
        return {name: _localize(schema) for name, schema in self.types.raw.items()}

    def walker(self, name: str) -> Walker:
        """The conformance harness's walker over this version of the type (one per type, reused)."""
        if name not in self._walkers:
            doc = {**self.local_defs[name], "$defs": self.local_defs}
            self._walkers[name] = Walker(doc, name, self.local_defs)
        return self._walkers[name]

    def generation_schema(self, name: str, focus: frozenset[str] = frozenset()) -> Any:
        """The type with every `$ref` inlined (a cycle unrolled UNROLL times), for hypothesis-jsonschema.

        Properties and arrays that lead to a `focus` type are made required and non-empty, so every
        instance reaches the changed types (such instances are still valid under the type itself).
        """
        schema, _ = self._inline(self.types.raw[name], [name], focus)
        schema = for_generation(self._force(schema, name, focus))
        return {**schema, "$schema": GENERATION_DRAFT} if isinstance(schema, dict) else schema

    def _inline(self, node: Any, stack: list[str], focus: frozenset[str]) -> tuple[Any, bool]:
        if not isinstance(node, dict):
            return node, False
        reached: dict[walk.Path, bool] = {}

        def inline(at: walk.Path, sub: Any) -> Any:
            out, reached[at] = self._inline(sub, stack, focus)
            return out

        out = walk.map_children(node, inline)
        reaches = any(reached.values())
        if reached.get(("items",)) and isinstance(out["items"], dict):
            out = _at_least_one_item(out)
        leads = [at[1] for at, r in reached.items() if r and len(at) == 2 and at[0] == "properties"]
        if leads:
            out["required"] = sorted(set(out.get("required", [])) | {str(n) for n in leads})
        ref = out.pop("$ref", None)
        if not isinstance(ref, str):
            return out, reaches
        target = self._one_branch(ref_target_name(ref), focus)
        if target not in self.types.raw:  # not a named type of the family: anything, as far as generation goes
            resolved: Any = True
        elif stack.count(target) > UNROLL:
            resolved = False
        else:
            inner = focus if stack.count(target) == 0 else frozenset()
            resolved, r = self._inline(self.types.raw[target], [*stack, target], inner)
            resolved = self._force(resolved, target, inner)
            reaches |= r or target in focus
        if not out:
            return resolved, reaches
        out["allOf"] = [*out.get("allOf", []), resolved]
        return out, reaches

    def _force(self, schema: Any, name: str, focus: frozenset[str]) -> Any:
        """A focus type's changed properties made present (and their arrays non-empty), when it has them."""
        wanted = self.forced.get(name, {}) if name in focus else {}
        if not wanted or not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
            return schema
        props = dict(schema["properties"])
        present = [p for p in sorted(wanted) if p in props]
        for p in present:
            if wanted[p] and isinstance(props[p], dict):
                props[p] = {**props[p], "minItems": max(props[p].get("minItems", 0), 1)}
        return {**schema, "properties": props, "required": sorted(set(schema.get("required", [])) | set(present))}

    def _one_branch(self, name: str, focus: frozenset[str]) -> str:
        """A nested tagged union stands for one branch (one leading to `focus` if any): still a subset
        of what the union accepts, and far cheaper to generate; the union's own search tries them all."""
        branches = _union_branches(self.types, name)
        if name in focus or not branches:
            return name
        return next((b for b in branches if focus & frozenset(self.types.reach(b))), branches[0])


def _union_branches(types: FamilyTypes, name: str) -> list[str]:
    """The branch types of a tagged union whose every branch is a `$ref` (none for anything else)."""
    t = types.model.types.get(name)
    if t is None or t.union is None or not all(b.ref for b in t.union.branches):
        return []
    return [b.type_name for b in t.union.branches]


def _at_least_one_item(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with `minItems` at least 1 (placed right after `items` when it had none)."""
    if "minItems" in schema:
        return {**schema, "minItems": max(schema["minItems"], 1)}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        out[key] = value
        if key == "items":
            out["minItems"] = 1
    return out


def changed_properties(changes: list[Change]) -> dict[str, bool]:
    """Top-level properties a type's own changes are in, each with whether the change is in its items
    (`items`, `prefixItems`, `contains`)."""
    out: dict[str, bool] = {}
    for c in changes:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in c.where.split("/")[1:]]
        if len(parts) >= 2 and parts[0] == "properties":
            in_items = len(parts) > 2 and parts[2] in ("items", "prefixItems", "contains")
            out[parts[1]] = out.get(parts[1], False) or in_items
    return out


def _localize(schema: Any) -> Any:
    """`$ref`s made local (`#/$defs/Name`), and boolean schemas in maps and lists of subschemas (and
    the type itself) as the objects they equal, which the walker can read: `true` as `{}`, `false`
    as `{"not": {}}` (`additionalProperties: false` and a boolean `items` stay: the walker reads them)."""
    return _object(walk.transform(schema, _local_ref))


def _object(schema: Any) -> Any:
    return {} if schema is True else {"not": {}} if schema is False else schema


def _local_ref(_: Mapping[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    if isinstance(node.get("$ref"), str) and "#/$defs/" in node["$ref"]:
        node["$ref"] = "#/$defs/" + ref_target_name(node["$ref"])
    for key, value in node.items():
        how = walk.keyword(key).walk
        if how is walk.Walk.SUBSCHEMA_MAP and isinstance(value, dict):
            node[key] = {k: _object(v) for k, v in value.items()}
        elif how in (walk.Walk.SUBSCHEMA, walk.Walk.SUBSCHEMAS) and isinstance(value, list):
            node[key] = [_object(v) for v in value]
    return node


def draw(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """Up to `count` examples of `strategy`, the same ones on every run."""
    found: list[Any] = []

    @settings(
        max_examples=count,
        database=None,
        derandomize=True,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    try:
        with warnings.catch_warnings(), speedups():
            warnings.simplefilter("ignore")
            collect()
    except (HypothesisException, SchemaError, ValueError, TypeError, RecursionError):
        pass  # a schema hypothesis-jsonschema cannot generate from (or that is not one): the other candidates remain
    return found


def generated(side: Side, name: str, count: int, focus: frozenset[str] = frozenset()) -> list[Any]:
    """Instances generated from one version of the type (the harness's date-time spelling strategy).

    A tagged union's instances are its branches' (each valid under the union, which picks the
    branch by its tag), drawn once per branch and shared with the branches' own searches: the
    union's whole schema is the slowest thing hypothesis-jsonschema can be given.
    """
    focus = focus & frozenset(side.types.reach(name))
    key = (name, focus, count)
    if key in side.pools:
        return side.pools[key]
    branches = _union_branches(side.types, name)
    if branches:
        leading = [b for b in branches if focus & frozenset(side.types.reach(b))] or branches
        pool = [v for b in leading for v in generated(side, b, max(count // len(leading), 2), focus)]
    else:
        try:
            with speedups():
                strategy = from_schema(side.generation_schema(name, focus), custom_formats={RFC3339: rfc3339()})
            pool = draw(strategy, count)
        except (HypothesisException, SchemaError, ValueError, TypeError, RecursionError):
            pool = []
    side.pools[key] = pool
    return pool


def _probe_values(changes: list[Change]) -> list[Any]:
    values: list[Any] = []
    for c in changes:
        values.extend(c.probes)
        for pattern in c.patterns:
            values.extend(_matches(pattern, 8, fullmatch=True))
    out: list[Any] = []
    seen: set[str] = set()
    for v in [*values, *SAMPLES.values()]:
        key = json.dumps(v, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def _shown(value: Any) -> str:
    """A probe for `found_by`: its JSON text, or what it is when that is long (the witness itself
    is shown whole)."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= SHOWN:
        return text
    if isinstance(value, str):
        return f"a string of {len(value)} characters"
    if isinstance(value, list):
        return f"an array of {len(value)} items"
    if isinstance(value, dict):
        return f"an object of {len(value)} properties"
    return text


def _matches(pattern: str, count: int, fullmatch: bool) -> list[str]:
    """Up to `count` strings matching `pattern` (none for a pattern Python's re cannot generate from)."""
    try:
        return [str(v) for v in draw(st.from_regex(pattern, fullmatch=fullmatch), count)]
    except Exception:
        return []


def _probe_names(changes: list[Change]) -> list[str]:
    """Property names worth adding or removing: the rules' own, then some matching their name patterns
    (a `patternProperties` or `propertyNames` pattern matches anywhere in a name)."""
    names = sorted({n for c in changes for n in c.names})
    for pattern in sorted({p for c in changes for p in c.name_patterns}):
        names += [n for n in _matches(pattern, 4, fullmatch=False) if n not in names]
    return names


def _placed(
    side: Side, label: str, name: str, value: Any, probes: list[Any], names: list[str]
) -> Iterator[tuple[Any, str]]:
    """`value` with each probe at each place the walker reaches (an object probe also merged into an
    object there), and each of `names` removed from or set to each probe in each object."""
    try:
        nodes = side.walker(name).walk(value)
    except Exception:  # a schema the walker cannot follow (see _judged): no placements
        return
    for node in nodes:
        for probe in probes:
            yield (
                replaced(value, node.keys, probe),
                f"{label} instance, {_shown(probe)} at {path_text(node.keys)}",
            )
            if isinstance(probe, dict) and probe and isinstance(node.value, dict):
                merged = {**node.value, **probe}
                yield (
                    replaced(value, node.keys, merged),
                    f"{label} instance, {_shown(probe)} merged at {path_text(node.keys)}",
                )
        if isinstance(node.value, dict):
            for n in names:
                if n in node.value:
                    yield without(value, node.keys, [n]), f"{label} instance without {path_text((*node.keys, n))}"
                for probe in probes:
                    at = (*node.keys, n)
                    yield replaced(value, at, probe), f"{label} instance, {_shown(probe)} at {path_text(at)}"


def _candidates(
    old: Side,
    new: Side,
    name: str,
    changes: list[Change],
    budget: Budget,
    focus: frozenset[str],
    lifted: Sequence[Any] = (),
) -> Iterator[tuple[Any, str]]:
    """Candidates in order: the rules' probes as the whole payload, each version's first valid
    instance with the probes placed (a witness at the rules' bound before any other; a third of the
    budget at most), each version's generated instances, the probes placed in every valid instance,
    then their mutations."""
    sides = [(s, label) for s, label in ((old, "BASE"), (new, "work tree")) if s.has(name)]
    probes = _probe_values(changes)
    names = _probe_names(changes)
    for probe in probes:
        yield probe, f"the rules' probe {_shown(probe)}"
    # A change deeper down whose own witnesses are known: placed in this type's examples before any
    # instance is generated (generating a large container type can take the whole budget).
    for s, label in sides if lifted else []:
        for example in s.examples.get(name, [])[:2]:
            if _judged(s.validator(name).is_valid, example):
                placed = _placed(s, f"{label} example", name, example, list(lifted), [])
                yield from islice(placed, budget.candidates // 6)
    valid: list[tuple[Side, str, list[Any]]] = []
    for s, label in sides:  # generated lazily: the search often ends before the second side is needed
        pool = generated(s, name, budget.examples, focus)
        guess = sample(s.types.raw[name])  # a valid instance when generation gives none (a schema it misreads)
        valid.append((s, label, [v for v in [*pool, guess] if _judged(s.validator(name).is_valid, v)]))
        for value in valid[-1][2][:1]:  # a third of the budget at most: generated instances follow
            yield from islice(_placed(s, label, name, value, probes, names), budget.candidates // 3)
        for value in pool:
            yield value, f"generated from the {label} schema"
    for s, label, pool in valid:
        for value in pool:
            yield from _placed(s, label, name, value, probes, names)
    for s, label, pool in valid:
        walker = s.walker(name)
        for value in pool:
            try:
                nodes = walker.walk(value)
            except Exception:  # as in _placed
                continue
            for m in mutations(value, nodes):
                yield m.build(), f"{label} instance, mutation {m.rule} at {m.where}"


def shrink(value: Any, keeps: Callable[[Any], bool], tries: int = 300) -> Any:
    """A smaller, plainer payload that still `keeps` its verdict: keys and items dropped one at a
    time, greedily, then each leaf and key made plainer (`plainer`)."""
    left = [tries]

    def attempt(trial: Any, rebuild: Callable[[Any], Any]) -> bool:
        left[0] -= 1
        return left[0] >= 0 and keeps(rebuild(trial))

    def smaller(v: Any, rebuild: Callable[[Any], Any]) -> Any:
        if isinstance(v, dict):
            for k in list(v):
                trial = {x: y for x, y in v.items() if x != k}
                if attempt(trial, rebuild):
                    v = trial
            for k in list(v):
                v = {**v, k: smaller(v[k], _in_dict(v, k, rebuild))}
        elif isinstance(v, list):
            i = 0
            while i < len(v) and left[0] > 0:
                shorter = v[:i] + v[i + 1 :]
                if attempt(shorter, rebuild):
                    v = shorter
                else:
                    i += 1
            for i in range(len(v)):
                v = [*v[:i], smaller(v[i], _in_list(v, i, rebuild)), *v[i + 1 :]]
        return v

    return plainer(smaller(value, lambda v: v), keeps, tries)


def _in_dict(v: dict[str, Any], k: str, rebuild: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda sub: rebuild({**v, k: sub})


def _in_list(v: list[Any], i: int, rebuild: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda sub: rebuild([*v[:i], sub, *v[i + 1 :]])


def _plainness(value: Any) -> tuple[int, int]:
    """How plain a leaf (not a boolean) reads, smaller being plainer: `""`, `"a"`, `"aa"`, ...; the
    fixed date; `0`, `1`; then other printable ASCII, then anything else (a generated `"\\U00093d8a"`
    or `"8450-08-23t04:22:30.78629Z"`), shorter first."""
    if isinstance(value, str):
        if value == "a" * len(value):
            return 0, len(value)
        if value == DATE:
            return 1, 0
        return 2 if _printable(value) else 3, len(value)
    if value in (0, 1):
        return 0, int(value)
    return 2, len(json.dumps(value))


def _printable(text: str) -> bool:
    return all(" " <= c <= "~" for c in text)


def _plainer_values(value: Any) -> list[Any]:
    """What a leaf is tried as, plainest first: `""`, `"a"`, `"aa"`, ... (a length bound kept), the
    fixed date; `0`, `1`. A string of emoji stays: it is a rule's probe at a length bound, showing
    that code points are counted."""
    if isinstance(value, bool):
        return []
    if isinstance(value, str):
        if value and set(value) == {EMOJI}:
            return []
        runs = [*range(min(len(value), PLAIN_RUN) + 1), len(value)]
        return [*("a" * n for n in dict.fromkeys(runs)), DATE]
    return [0, 1] if isinstance(value, int | float) else []


def plainer(value: Any, keeps: Callable[[Any], bool], tries: int = 300) -> Any:
    """`value` with each leaf replaced by the first value plainer than it (`_plainer_values`: `""`,
    `"a"`, `"aa"`, ..., the fixed date, `0`, `1`) and each key that is not printable ASCII renamed
    (`"a"`, `"b"`, ...), wherever
    the payload still `keeps` its verdict: a generated instance's random text, numbers and dates
    become values a reader takes in at a glance; a value the change needs (an emoji string at a
    length bound, a pattern's match) stays."""
    left = [tries]

    def attempt(trial: Any) -> bool:
        left[0] -= 1
        return left[0] >= 0 and keeps(trial)

    def plain(v: Any, rebuild: Callable[[Any], Any]) -> Any:
        if isinstance(v, dict):
            for k in list(v):
                if not _printable(k):
                    for name in (n for n in "abcdefgh" if n not in v):
                        renamed = {name if x == k else x: y for x, y in v.items()}
                        if attempt(rebuild(renamed)):
                            v, k = renamed, name
                            break
                v = {**v, k: plain(v[k], _in_dict(v, k, rebuild))}
        elif isinstance(v, list):
            for i in range(len(v)):
                v = [*v[:i], plain(v[i], _in_list(v, i, rebuild)), *v[i + 1 :]]
        else:
            for candidate in _plainer_values(v):
                if _plainness(candidate) < _plainness(v) and attempt(rebuild(candidate)):
                    return candidate
        return v

    return plain(value, lambda v: v)


def _reason(errors: Iterable[ValidationError]) -> str:
    """Why the version rejects the witness, explained as `chatschema validate` explains (a tagged
    union by the branch its tag selects), values quoted whole: each violation, in payload order."""
    found = importlib.import_module("chatschema.schemas").explained(errors, whole=True)
    return "; ".join(str(v) for v in found)


def _judged(check: Callable[[Any], bool], value: Any) -> bool | None:
    """`check(value)`, or None where the check cannot apply its schema: a keyword of the wrong kind in
    a revision lint never saw (`"minLength": "2"`) makes jsonschema raise, and no candidate is a
    witness under it."""
    try:
        return check(value)
    except Exception:
        return None


def _same_verdict(a: Callable[[Any], bool], b: Callable[[Any], bool], want: tuple[bool, bool], value: Any) -> bool:
    return (_judged(a, value), _judged(b, value)) == want


def search(
    old: Side,
    new: Side,
    name: str,
    changes: list[Change],
    budget: Budget | None = None,
    focus: frozenset[str] = frozenset(),
    lifted: Sequence[Any] = (),
    only: str | None = None,
) -> tuple[list[Witness], bool]:
    """At most one witness per direction for a type present in both versions, the first found, and
    whether the search ran out of time (`Budget.seconds`) before it ended.

    `focus`: the types whose own definition changed, which generated instances are made to reach.
    `lifted`: the witnesses of those types, tried first in the type's examples at every place.
    `only`: the one direction the type can move in (monotone.py): the search ends at its witness.
    """
    budget = budget or Budget()
    found: dict[str, Witness] = {}
    try:
        with time_limit(budget.seconds):
            _search(old, new, name, changes, budget, focus, lifted, only, found)
    except OutOfTime:
        return [found[d] for d in (NARROWED, WIDENED) if d in found], True
    return [found[d] for d in (NARROWED, WIDENED) if d in found], False


def _search(
    old: Side,
    new: Side,
    name: str,
    changes: list[Change],
    budget: Budget,
    focus: frozenset[str],
    lifted: Sequence[Any],
    only: str | None,
    found: dict[str, Witness],
) -> None:
    """The search of `search`, the witnesses put in `found` as they are found."""
    va, vb = old.validator(name), new.validator(name)
    sa, sb = old.screen(name), new.screen(name)
    seen: set[str] = set()
    for value, how in _candidates(old, new, name, changes, budget, focus, lifted):
        key = json.dumps(value, sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > budget.candidates:
            break
        before, after = _judged(sa, value), _judged(sb, value)
        direction = NARROWED if before and after is False else WIDENED if after and before is False else None
        if direction is None or direction in found:
            continue
        want = (direction == NARROWED, direction == WIDENED)
        if (_judged(va.is_valid, value), _judged(vb.is_valid, value)) != want:
            continue  # the screen and the reference disagree: only the reference counts
        small = shrink(value, partial(_same_verdict, sa, sb, want))
        if small is not value and (_judged(va.is_valid, small), _judged(vb.is_valid, small)) == want:
            value = small
        try:
            reason = _reason((vb if direction == NARROWED else va).iter_errors(value))
        except Exception:  # as in _judged
            reason = ""
        found[direction] = Witness(direction, value, how, reason)
        if len(found) == 2 or only in found:
            break
