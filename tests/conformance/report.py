"""The conformance run: generate cases, ask every validator, compare, and report.

Validators ("sides"): jsonschema (the oracle: the plain `oneOf` validator), the tag-dispatching
validator `schemas.validator(name)` (`dispatch`), the fast backend of `chatschema validate`
(`jsonschema-rs`), the Pydantic model (Python and JSON input), the TypedDict adapter, the real system's own library where there is one, and two round-trip checks
(`roundtrip`: parse -> dump -> the dump validates and keeps every key; `typeddict-roundtrip`: the
TypedDict adapter's output keeps every key), and `real-dump`: what the real library writes back
from a valid payload it accepted is valid too. Code-generated cases add `pydantic-dump`: the model
built and dumped it, so it claims the dump is valid.

Cases of one type, in a fixed order from fixed seeds:
- `schema#i`: instances hypothesis-jsonschema generates from the bundled schema;
- `code#i` (and `code#i/exclude_unset`): dumps of models built from the generated code;
- `<origin>~<rule>@<path>`: mutations of every valid vector and generated instance. Every
  (rule, schema location) is applied at least once, a location of a union's branch being its own
  (`$.run_id` of a stop frame is not `$.run_id` of a message); a few more are drawn at random per instance.
- after `|`, features of the payload: `message_type=stop_reason`, the branch of a union it is;
  `sub-microsecond`, a date-time with digits beyond the microsecond.

A disagreement is a side whose verdict differs from jsonschema's (or, for round trips, a valid
case that does not survive). Each must be explained by a tests/allowlist.py entry for that side
whose `rules` patterns match the case id; an entry with `rules` that explains nothing fails the run.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import multiprocessing
import os
import random
import signal
import sys
import time
import warnings
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Any

from jsonschema import Draft202012Validator
from pydantic import TypeAdapter, ValidationError

from chatschema import schemas
from chatschema.validate.backends import fast_is_valid
from chatschema.validate.jobs import usable_cpus
from release.evolution.mutations import Coverage, Walker, json_key, mutations
from tests.allowlist import ALLOWLIST, KnownDisagreement
from tests.conformance.bundle import bundle, families, family_defs, real_view, type_names
from tests.conformance.real import REAL_SIDE, real_dump, real_parse
from tests.conformance.seeds import DEFAULT_SEED
from tests.conformance.strategies import code_strategy, generated_type, schema_strategy
from tests.conformance.strategies import draw as draw  # tests import it from here
from tests.roundtrip import beyond_microsecond, lost
from tests.vectors import Vector, all_vectors, model_adapter, typeddict_adapter

# the validators this run asks; allowlist entries of other sides (e.g. ajv) are checked elsewhere
SIDES = {
    "dispatch",
    "jsonschema-rs",
    "pydantic",
    "typeddict",
    "roundtrip",
    "typeddict-roundtrip",
    "docent",
    "letta-client",
    "bridgic-core",
    "real-dump",
}


@dataclass(frozen=True)
class Budget:
    schema: int  # instances generated from the schema, per type
    code: int  # instances built from the generated code, per type
    extra_mutations: int  # random mutations per valid instance beyond the first of each (rule, location)
    min_cases: int  # cases each family must reach


FULL = Budget(schema=60, code=30, extra_mutations=6, min_cases=1000)
SMALL = Budget(schema=4, code=3, extra_mutations=0, min_cases=0)


@dataclass
class Case:
    """One payload judged under one type. Its id says where it came from and, after `|`, any
    features of the payload an allowlist entry may need to name (e.g. `sub-microsecond`)."""

    origin: str
    name: str  # <family>/<Type>
    instance: Any
    claims_valid: bool = False  # a code-generated dump: the model built it

    @property
    def id(self) -> str:
        found = features(self.name, self.instance)
        return self.origin + ("|" + ",".join(found) if found else "")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@cache
def root_tag(name: str) -> str | None:
    """The tag property of `<family>/<Type>` if it is a tagged union (`message_type` of LettaStreamingResponse)."""
    family, type_name = name.split("/")
    discriminator = family_defs(family)[type_name].get("discriminator")
    return str(discriminator["propertyName"]) if discriminator else None


def branch_of(name: str, instance: Any) -> str | None:
    """`<tag>=<value>` for an instance of a tagged union whose tag is a string, e.g. `message_type=stop_reason`.

    Generated cases of a union (`schema#3`, `code#8`) do not say in their origin which branch they are,
    and a branch may disagree where its siblings do not (letta-client knows no `run_id` on a stop
    frame): the feature lets an allowlist entry name the branch and the path together."""
    tag = root_tag(name)
    if tag is None or not isinstance(instance, dict) or not isinstance(instance.get(tag), str):
        return None
    return f"{tag}={instance[tag]}"


def features(name: str, instance: Any) -> list[str]:
    """Features of a payload that explain known disagreements (see tests/allowlist.py)."""
    branch = branch_of(name, instance)
    found = [branch] if branch else []
    for text in _strings(instance):
        if beyond_microsecond(text):
            found.append("sub-microsecond")
            break
    return found


@dataclass
class Disagreement:
    case: Case
    side: str
    verdict: bool
    expected: bool
    entry: str | None  # the allowlist entry that explains it


@dataclass
class TypeStats:
    cases: int = 0
    valid: int = 0
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)  # agreeing verdicts per pair
    compared: Counter[tuple[str, str]] = field(default_factory=Counter)  # cases both sides judged
    kinds: Counter[str] = field(default_factory=Counter)  # cases per generator / mutation rule


@dataclass
class Result:
    budget: Budget
    seed: int
    stats: dict[str, TypeStats] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)
    hits: Counter[str] = field(default_factory=Counter)
    coverage: dict[str, Coverage] = field(default_factory=dict)
    missing: dict[str, list[str]] = field(default_factory=dict)
    generator_invalid: list[Case] = field(default_factory=list)
    constructor_rejected: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    # every case judged, with jsonschema's verdict: for validators outside this process (the npm package's)
    judged: list[tuple[Case, bool]] = field(default_factory=list)
    only: list[str] | None = None  # the families and types of a restricted run (--only)
    processes: set[int] = field(default_factory=set)  # the ids of the processes that judged the cases

    def absorb(self, part: Result) -> None:
        """Add the cases of `part`, a run of other types at the same seed and budget."""
        self.stats.update(part.stats)
        self.disagreements += part.disagreements
        self.hits.update(part.hits)
        for family, cov in part.coverage.items():
            mine = self.coverage.setdefault(family, Coverage())
            mine.types |= cov.types
            mine.branches |= cov.branches
            mine.enums |= cov.enums
        self.generator_invalid += part.generator_invalid
        self.constructor_rejected.update(part.constructor_rejected)
        self.judged += part.judged
        self.processes |= part.processes

    def whole(self, family: str) -> bool:
        """Whether the run tried every type of `family` (coverage and the case count are checked for it)."""
        return not self.only or family in self.only

    @property
    def unexplained(self) -> list[Disagreement]:
        return [d for d in self.disagreements if d.entry is None]

    def family_cases(self, family: str) -> int:
        return sum(s.cases for n, s in self.stats.items() if n.startswith(family + "/"))

    @property
    def stale_entries(self) -> list[KnownDisagreement]:
        """Entries that explain nothing; only a run of everything can tell (an --only run leaves most unhit)."""
        if self.only:
            return []
        return [e for e in ALLOWLIST if e.rules and e.side in SIDES and self.hits[e.id] == 0]

    @property
    def problems(self) -> list[str]:
        found = [
            f"unexplained: {d.side} says {'valid' if d.verdict else 'invalid'} on {d.case.id}" for d in self.unexplained
        ]
        found += [f"allowlist entry never hit: {e.id}" for e in self.stale_entries]
        found += [f"{fam}: not exercised: {', '.join(items)}" for fam, items in self.missing.items() if items]
        found += [f"generator produced a schema-invalid instance: {c.id}" for c in self.generator_invalid]
        found += [
            f"{fam}: only {self.family_cases(fam)} cases (< {self.budget.min_cases})"
            for fam in {n.split("/")[0] for n in self.stats}
            if self.whole(fam) and self.family_cases(fam) < self.budget.min_cases
        ]
        return found


# --- generation --------------------------------------------------------------------------------


def type_seed(seed: int, name: str, kind: str) -> int:
    return zlib.crc32(f"{seed}:{name}:{kind}".encode())


def _unique(values: list[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for v in values:
        key = json.dumps(v, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


# --- verdicts ------------------------------------------------------------------------------------


def _accepts(fn: Any, value: Any) -> bool:
    try:
        fn(value)
    except ValidationError:
        return False
    return True


def roundtrip_problems(name: str, instance: Any) -> list[str]:
    adapter = model_adapter(name)
    problems: list[str] = []
    for model in (adapter.validate_python(instance), adapter.validate_json(json.dumps(instance))):
        dumped = adapter.dump_python(model, mode="json")
        if not schemas.validator(name).is_valid(dumped):
            problems += [f"dump invalid: {v}" for v in schemas.violations(dumped, name)]
        problems += lost(instance, dumped)
        if adapter.validate_json(adapter.dump_json(model)) != model:
            problems.append("dump_json does not parse back to an equal model")
    return problems


def typeddict_roundtrip_problems(name: str, instance: Any) -> list[str]:
    out = typeddict_adapter(name).validate_python(instance)
    invalid = (
        [] if schemas.validator(name).is_valid(out) else [f"output invalid: {v}" for v in schemas.violations(out, name)]
    )
    return lost(instance, out) + invalid


_fast = cache(fast_is_valid)


@cache
def _real_view_validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(real_view(name), format_checker=schemas.FORMAT_CHECKER)


@cache
def _has_extensions(name: str) -> bool:
    """Whether the real system's view of `name` differs from the schema (it reaches a property marked
    as the project's own extension); where it does not, the schema's verdict is the real view's."""
    return real_view(name) != bundle(name)


def real_expected(name: str, instance: Any, schema_verdict: bool | None = None) -> bool:
    """The schema's verdict as the real system should give it: the family's extensions
    (`x-chatschema-extension`) are unknown keys to it, accepted with any value. `schema_verdict`, the
    schema's own verdict on `instance` if known, is reused where no extension is in reach: validating
    again was two fifths of a small run's time."""
    if schema_verdict is not None and not _has_extensions(name):
        return schema_verdict
    return _real_view_validator(name).is_valid(instance)


def verdicts(case: Case) -> dict[str, bool | None]:
    name, x = case.name, case.instance
    got: dict[str, bool | None] = {
        "jsonschema": schemas.validator(name, dispatch=False).is_valid(x),
        "dispatch": schemas.validator(name).is_valid(x),
        "jsonschema-rs": _fast(name)(x),
        "pydantic": _accepts(model_adapter(name).validate_python, x),
        "pydantic-json": _accepts(model_adapter(name).validate_json, json.dumps(x)),
        "typeddict": _accepts(typeddict_adapter(name).validate_python, x),
    }
    family = name.split("/")[0]
    if family in REAL_SIDE:
        accepted, parsed = real_parse(name, x)
        got[REAL_SIDE[family]] = accepted
        if accepted and got["jsonschema"]:
            # what the real system writes back from a valid payload must be valid too
            got["real-dump"] = real_expected(name, real_dump(name, parsed))
    if case.claims_valid:
        got["pydantic-dump"] = True
    got["roundtrip"] = not roundtrip_problems(name, x) if got["jsonschema"] and got["pydantic"] else None
    got["typeddict-roundtrip"] = (
        not typeddict_roundtrip_problems(name, x) if got["jsonschema"] and got["typeddict"] else None
    )
    return got


class Verdicts:
    """`verdicts` of the cases of one type, each payload judged once. The examples, and the first
    mutation of each (rule, location) of them, are the same at every seed: about three quarters of a
    small run's cases at its second seed, and some cases recur within a seed."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, bool, bytes], dict[str, bool | None]] = {}

    def of(self, case: Case) -> dict[str, bool | None]:
        """The verdicts of `case`: those of an earlier case of the same type, payload and claim if any.
        The payload is told apart by its `repr`, which keeps what JSON text would merge (1 and 1.0,
        a list and a tuple, the order of keys); the key is its digest, so memory stays small."""
        digest = hashlib.blake2b(repr(case.instance).encode("utf-8", "surrogatepass"), digest_size=16).digest()
        key = (case.name, case.claims_valid, digest)
        if key not in self._seen:
            self._seen[key] = verdicts(case)
        return dict(self._seen[key])


def explain(case: Case, side: str, verdict: bool) -> KnownDisagreement | None:
    base = side.removesuffix("-json")
    for entry in ALLOWLIST:
        if entry.side == base and entry.covers_case(case.id) and entry.accepts in (None, verdict):
            return entry
    return None


# --- the run -------------------------------------------------------------------------------------


def universe(family: str) -> dict[str, set[Any]]:
    defs = family_defs(family)
    branches = {(u, b["$ref"].rsplit("/", 1)[-1]) for u, d in defs.items() if "discriminator" in d for b in d["oneOf"]}
    enums: set[tuple[str, str]] = set()
    for dname, d in defs.items():
        enums |= {(dname, json_key(v)) for v in d.get("enum", [])}
        for prop, sub in d.get("properties", {}).items():
            if isinstance(sub, dict):  # not a boolean schema
                enums |= {(f"{dname}.{prop}", json_key(v)) for v in sub.get("enum", [])}
    return {"types": set(defs), "branches": branches, "enums": enums}


def run(
    budget: Budget = FULL,
    seed: int = DEFAULT_SEED,
    only: list[str] | None = None,
    log: Callable[[str], None] | None = None,
    jobs: int | None = None,
) -> Result:
    """Judge every selected type's cases at `seed`. Types are independent (each draws from seeds of
    its own), so `jobs` processes (default: one per usable core) judge them side by side; the result, merged
    in the order of the types, is the same as one process's."""
    return runs(budget, [seed], only, log, jobs)[0]


def runs(
    budget: Budget,
    seeds: list[int],
    only: list[str] | None = None,
    log: Callable[[str], None] | None = None,
    jobs: int | None = None,
) -> list[Result]:
    """`run` at each seed, in one pass over the types: a process judges a type at every seed in
    turn, so the type's generators, which do not depend on the seed, are built once. Each seed's
    result is the one `run` gives, but for its `seconds`: the whole pass's."""
    started = time.monotonic()
    names = [
        f"{family}/{type_name}"
        for family in families()
        for type_name in type_names(family)
        if not only or any(f"{family}/{type_name}" == o or o == family for o in only)
    ]
    parts: dict[str, list[Result]] = {}
    for name, judged in _type_results(budget, seeds, names, jobs):
        parts[name] = judged
        if log:
            log(f"  {name}: " + "; ".join(f"{p.stats[name].cases} cases, {p.seconds:.1f}s" for p in judged))
    results = [_merged(Result(budget, seed, only=only), [parts[n][i] for n in names]) for i, seed in enumerate(seeds)]
    for result in results:
        result.seconds = time.monotonic() - started
    return results


def _merged(result: Result, parts: list[Result]) -> Result:
    """`result` with the types' parts absorbed in order, and what its whole families left unreached."""
    for part in parts:
        result.absorb(part)
    for family in families():
        cov = result.coverage.setdefault(family, Coverage())
        every = universe(family)
        if result.whole(family):
            result.missing[family] = sorted(
                [f"type {t}" for t in every["types"] - cov.types]
                + [f"branch {u}->{b}" for u, b in every["branches"] - cov.branches]
                + [f"enum {o}={v}" for o, v in every["enums"] - cov.enums]
            )
    return result


class WorkerDied(RuntimeError):
    """A process judging types ended without a result (killed, out of memory)."""


def _type_results(
    budget: Budget, seeds: list[int], names: list[str], jobs: int | None
) -> Iterator[tuple[str, list[Result]]]:
    """Each type's own results (one per seed), as the types are done: in this process for one job,
    else in a pool of fresh interpreters (spawned: a fork of this process, which may hold threads, is
    not safe), the largest schemas first so that the processes end together."""
    jobs = min(jobs or usable_cpus(), len(names))
    if jobs <= 1:
        for name in names:
            yield name, type_results(budget, seeds, name)
        return
    largest_first = sorted(names, key=lambda n: len(json.dumps(bundle(n))), reverse=True)
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_worker_signals, initargs=(os.getpid(),))
    futures = {pool.submit(type_results, budget, seeds, name): name for name in largest_first}
    judged: set[str] = set()
    try:
        for future in as_completed(futures):
            try:
                part = future.result()
            except BrokenProcessPool:
                # the types are handed out in order: the first unjudged ones were running or queued
                running = ", ".join([name for name in largest_first if name not in judged][: jobs + 1])
                raise WorkerDied(
                    f"a process judging types ended without a result (one of {running}); "
                    f"replay with --jobs 1 --only <type>"
                ) from None
            judged.add(futures[future])
            yield futures[future], part
    except BaseException:
        # Ctrl-C, a failed type or a dead worker: the queued types are dropped and the workers ended
        # now, rather than after every queued type is judged.
        workers = list((getattr(pool, "_processes", None) or {}).values())  # no public way before 3.14
        for process in workers:
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)  # forgets the workers: they are listed first
        raise
    pool.shutdown()  # the workers exit on their own: coverage (the mutation runner) saves their data


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _worker_signals(parent: int) -> None:
    """In each worker: Ctrl-C is the main process's to handle, which ends the workers. On Linux a
    worker is also sent SIGTERM when the main process ends in a way it cannot handle (SIGKILL, a
    crash): otherwise it would judge its queued types, for hours at the full budget, with no reader."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0 and os.getppid() != parent:
        os._exit(1)  # the main process ended before the request: nobody will read this worker


def type_results(budget: Budget, seeds: list[int], name: str) -> list[Result]:
    """`type_result` at each seed, in this process (the type's generators are built once, and a
    case met at an earlier seed is not judged again)."""
    judged = Verdicts()
    return [type_result(budget, seed, name, judged) for seed in seeds]


def type_result(budget: Budget, seed: int, name: str, judged: Verdicts | None = None) -> Result:
    """The cases of one type (`family/Type`) at `seed`, judged: a Result of that type alone."""
    started = time.monotonic()
    part = Result(budget, seed, only=[name], processes={os.getpid()})
    cov = part.coverage.setdefault(name.split("/")[0], Coverage())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _run_type(part, name, _valid_vectors().get(name, []), cov, judged or Verdicts())
    part.seconds = time.monotonic() - started
    return part


@cache
def _valid_vectors() -> dict[str, list[Vector]]:
    """The valid vectors of each type, read once per process."""
    found: dict[str, list[Vector]] = defaultdict(list)
    for vector in all_vectors():
        if vector.valid:
            found[vector.schema_name].append(vector)
    return found


def _kind(origin: str) -> str:
    if "~" in origin:
        return origin.split("~", 1)[1].split("@", 1)[0]
    if "/schema#" in origin or "/branch:" in origin:
        return "from schema"
    if "/code#" in origin:
        return "from code"
    return "vector"


def _branches(family: str, type_name: str) -> list[str]:
    schema = family_defs(family)[type_name]
    if "discriminator" not in schema:
        return []
    return [b["$ref"].rsplit("/", 1)[-1] for b in schema["oneOf"]]


def _run_type(result: Result, name: str, vectors: list[Vector], cov: Coverage, judged: Verdicts) -> None:
    family = name.split("/")[0]
    stats = result.stats.setdefault(name, TypeStats())
    walker = Walker(bundle(name), name.split("/")[1], family_defs(family))
    rng = random.Random(type_seed(result.seed, name, "mutations"))

    # valid instances to mutate: the vectors (but not those of a known disagreement, whose mutations
    # would only repeat it), instances generated from the schema and from the code
    pool: list[Case] = [Case(v.id, name, v.load()) for v in vectors if not any(e.covers(v.id) for e in ALLOWLIST)]
    evaluated: list[Case] = []
    for i, x in enumerate(
        _unique(draw(schema_strategy(name), result.budget.schema, type_seed(result.seed, name, "schema")))
    ):
        case = Case(f"{name}/schema#{i}", name, x)
        if not schemas.validator(name).is_valid(x):
            result.generator_invalid.append(case)
            continue
        pool.append(case)
        evaluated.append(case)
    # a union also gets one instance of each branch, so that every branch is exercised
    for branch in _branches(family, name.split("/")[1]):
        for x in draw(schema_strategy(f"{family}/{branch}"), 1, type_seed(result.seed, name, branch)):
            case = Case(f"{name}/branch:{branch}#0", name, x)
            if schemas.validator(name).is_valid(x):
                pool.append(case)
                evaluated.append(case)
            else:
                result.generator_invalid.append(case)
    built = draw(code_strategy(name), result.budget.code, type_seed(result.seed, name, "code"))
    adapter: TypeAdapter[Any] = TypeAdapter(generated_type(name))
    for i, obj in enumerate(built):
        if not isinstance(obj, ValueError):
            try:  # a value of an alias is built without its validation (a model is validated when built)
                obj = adapter.validate_python(obj)
            except ValueError as exc:
                obj = exc
        if isinstance(obj, ValueError):
            result.constructor_rejected[name] += 1
            continue
        for suffix, dump in (
            ("", adapter.dump_python(obj, mode="json")),
            ("/exclude_unset", adapter.dump_python(obj, mode="json", exclude_unset=True)),
        ):
            case = Case(f"{name}/code#{i}{suffix}", name, dump, claims_valid=True)
            evaluated.append(case)
            if schemas.validator(name).is_valid(dump):
                pool.append(case)

    evaluated += _mutants(pool, walker, cov, rng, result.budget.extra_mutations)
    for case in evaluated:
        _judge(result, stats, case, judged.of(case))


def _mutants(pool: list[Case], walker: Walker, cov: Coverage, rng: random.Random, extra: int) -> list[Case]:
    """Mutations of every valid case of the pool: the first of each (rule, location), `extra` more at random."""
    # a (rule, location) of one branch of a union is not that of another: `$.run_id` of a stop frame
    # and of a message are different schema locations, each mutated at least once
    seen: set[tuple[str, str | None, str]] = set()
    out: list[Case] = []
    for origin in pool:
        nodes = walker.walk(origin.instance, cov)
        branch = branch_of(origin.name, origin.instance)
        candidates = list(mutations(origin.instance, nodes))
        chosen = [m for m in candidates if (m.rule, branch, m.location) not in seen]
        rest = [m for m in candidates if (m.rule, branch, m.location) in seen]
        chosen += rng.sample(rest, min(len(rest), extra))
        for m in chosen:
            seen.add((m.rule, branch, m.location))
            out.append(Case(f"{origin.origin}~{m.rule}@{m.where}", origin.name, m.build()))
    return out


def _judge(result: Result, stats: TypeStats, case: Case, got: dict[str, bool | None]) -> None:
    expected = bool(got["jsonschema"])
    result.judged.append((case, expected))
    stats.cases += 1
    stats.kinds[_kind(case.origin)] += 1
    stats.valid += expected
    judged = {s: v for s, v in got.items() if v is not None}
    for a, b in combinations(judged, 2):
        stats.compared[(a, b)] += 1
        stats.pairs[(a, b)] += judged[a] == judged[b]
    for side, verdict in judged.items():
        if side == "jsonschema":
            continue
        want = True if side in CHECKS else expected
        if side == "pydantic-dump":
            verdict, want = True, expected  # the model claims valid; the schema decides
        if side in REAL_SIDE.values():
            want = real_expected(case.name, case.instance, expected)
        if verdict == want:
            continue
        entry = explain(case, side, verdict)
        if entry is not None:
            result.hits[entry.id] += 1
        result.disagreements.append(Disagreement(case, side, verdict, want, entry.id if entry else None))


# --- the report ----------------------------------------------------------------------------------


def _short(x: Any, limit: int = 2000) -> str:
    text = json.dumps(x, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


def format_report(result: Result) -> str:
    """The agreement report: per family, the allowlist, the unexplained disagreements, the verdict."""
    lines = [
        f"chatschema conformance: seed {result.seed}, budget {result.budget}, {result.seconds:.0f}s",
        "",
    ]
    for family in sorted({n.split("/")[0] for n in result.stats}):
        lines += _family_section(result, family)
    lines += _allowlist_section(result)
    lines += _disagreement_section(result)
    problems = result.problems
    lines.append("")
    if problems:
        lines.append(f"FAILED: {len(problems)} problem(s). Replay: {replay(result)} --only <family/Type>")
    elif result.only:
        lines.append("OK: zero unexplained disagreements (an --only run: the allowlist's entries are not all checked).")
    else:
        lines.append("OK: zero unexplained disagreements; every allowlist entry hit; everything covered.")
    return "\n".join(lines)


def replay(result: Result) -> str:
    """The command that draws this run's cases again."""
    small = " --small" if result.budget == SMALL else ""
    return f"nox -s conformance --{small} --seed {result.seed}"


def summary_line(result: Result) -> str:
    """One line per run: the seed, the cases, the disagreements and the verdict."""
    problems = result.problems
    verdict = f"FAILED ({len(problems)} problem(s))" if problems else "OK"
    return (
        f"seed {result.seed}: {sum(s.cases for s in result.stats.values()):,} cases, "
        f"{len(result.disagreements) - len(result.unexplained):,} disagreements explained, "
        f"{len(result.unexplained)} unexplained, {result.seconds:.0f}s: {verdict}"
    )


def _family_total(result: Result, names: list[str]) -> TypeStats:
    total = TypeStats()
    for n in names:
        s = result.stats[n]
        total.cases += s.cases
        total.valid += s.valid
        total.pairs.update(s.pairs)
        total.compared.update(s.compared)
        total.kinds.update(s.kinds)
    return total


def _family_section(result: Result, family: str) -> list[str]:
    names = sorted(n for n in result.stats if n.startswith(family + "/"))
    total = _family_total(result, names)
    lines = [f"== {family}: {total.cases} cases ({total.valid} valid, {total.cases - total.valid} invalid)"]
    made = ", ".join(f"{k} {v}" for k, v in sorted(total.kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    lines.append(f"  cases by origin / mutation rule: {made}")
    sides = sorted({side for pair in total.compared for side in pair}, key=_side_order)
    verdict_sides = [x for x in sides if x not in CHECKS]
    checks = [x for x in sides if x in CHECKS]
    columns = [("jsonschema", o) for o in verdict_sides[1:]] + [("jsonschema", c) for c in checks]
    header = [f"js~{o}" for o in verdict_sides[1:]] + [CHECKS[c] for c in checks]
    lines.append(f"  {'type':<26} {'cases':>6} " + " ".join(f"{h:>19}" for h in header))
    for n in names:
        s = result.stats[n]
        cells = [_cell(s, a, b) for a, b in columns]
        lines.append(f"  {n.split('/')[1]:<26} {s.cases:>6} " + " ".join(f"{c:>19}" for c in cells))
    lines.append("  verdicts agreeing between each pair of validators (agreeing / judged by both):")
    for a, b in combinations(verdict_sides, 2):
        key = (a, b) if total.compared[(a, b)] else (b, a)
        if total.compared[key]:
            lines.append(f"    {a:>14} ~ {b:<14} {total.pairs[key]:>7} / {total.compared[key]}")
    for c in checks:
        key = ("jsonschema", c)
        lines.append(f"    {CHECKS[c]:>31} {total.pairs[key]:>7} / {total.compared[key]}")
    lines += _coverage_lines(result, family)
    rejected = sum(v for k, v in result.constructor_rejected.items() if k.startswith(family + "/"))
    if rejected:
        lines.append(f"  code-generated: {rejected} constructor calls rejected by the model itself (not counted)")
    lines.append("")
    return lines


def _coverage_lines(result: Result, family: str) -> list[str]:
    cov = result.coverage.get(family)
    if cov is None or family not in result.missing:
        return []
    every = universe(family)
    return [
        f"  coverage: {len(cov.types & every['types'])}/{len(every['types'])} $defs types, "
        f"{len(cov.branches & every['branches'])}/{len(every['branches'])} union branches, "
        f"{len(cov.enums & every['enums'])}/{len(every['enums'])} enum values"
        + ("" if not result.missing[family] else "; MISSING: " + ", ".join(result.missing[family]))
    ]


def _allowlist_section(result: Result) -> list[str]:
    lines = ["== allowlist (tests/allowlist.py)"]
    for entry in ALLOWLIST:
        if entry.rules and entry.side in SIDES and result.only and not result.hits[entry.id]:
            state = "not hit (not checked in an --only run)"
        elif entry.rules and entry.side in SIDES:
            state = f"hit {result.hits[entry.id]} times" if result.hits[entry.id] else "NEVER HIT (remove or fix it)"
        else:
            state = "not a case of this run (vectors: tests/test_vectors.py)"
        lines.append(f"  {entry.id:<44} [{entry.side}] {state}")
    lines.append("")
    return lines


def _disagreement_section(result: Result) -> list[str]:
    unexplained = result.unexplained
    lines = [
        f"== disagreements: {len(result.disagreements)} explained by the allowlist, {len(unexplained)} unexplained"
    ]
    groups: dict[tuple[str, str, str, bool], list[Disagreement]] = defaultdict(list)
    for d in unexplained:
        rule = (
            d.case.id.split("~", 1)[1].split("@")[0] if "~" in d.case.id else d.case.id.rsplit("/", 1)[-1].split("#")[0]
        )
        groups[(d.case.name, d.side, rule, d.verdict)].append(d)
    for (name, side, rule, verdict), items in sorted(groups.items()):
        smallest = min(items, key=lambda d: len(json.dumps(d.case.instance)))
        lines.append(
            f"  {name} [{side} {'accepts' if verdict else 'rejects'}, jsonschema {'accepts' if smallest.expected else 'rejects'}]"
            f" rule {rule}: {len(items)} case(s); smallest: {smallest.case.id}"
        )
        lines.append(f"      {_short(smallest.case.instance)}")
        if side == "roundtrip":
            lines.append(f"      {roundtrip_problems(name, smallest.case.instance)[:3]}")
        if side == "typeddict-roundtrip":
            lines.append(f"      {typeddict_roundtrip_problems(name, smallest.case.instance)[:3]}")
        if side in REAL_SIDE.values():
            lines.append(
                f"      if {side} lacks what the schema checks here because the project added it, mark the property "
                '"x-chatschema-extension": "<why>" (docs/editing-schemas.md); if the real system does check it, '
                "the schema is wrong; if it is a known laxity of the real system, add an entry to tests/allowlist.py"
            )
    for case in result.generator_invalid[:20]:
        lines.append(f"  generator produced an invalid instance: {case.id}: {_short(case.instance)}")
    return lines


def _cell(s: TypeStats, a: str, b: str) -> str:
    key = (a, b) if s.compared[(a, b)] else (b, a)
    return f"{s.pairs[key]}/{s.compared[key]}" if s.compared[key] else "-"


CHECKS = {
    "pydantic-dump": "code dumps valid",
    "roundtrip": "model round trip ok",
    "typeddict-roundtrip": "TypedDict keeps all",
    "real-dump": "real dump valid",
}
_ORDER = [
    "jsonschema",
    "dispatch",
    "jsonschema-rs",
    "pydantic",
    "pydantic-json",
    "typeddict",
    "docent",
    "letta-client",
    "bridgic-core",
]


def _side_order(side: str) -> tuple[int, str]:
    return (_ORDER.index(side) if side in _ORDER else len(_ORDER), side)
