"""Compare two versions of every family: per type verdicts with witnesses, API changes, the bump needed."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from codegen import walk
from codegen.errors import CodegenError
from codegen.grammars import grammar_files, shipped_grammar
from codegen.load import GRAMMARS, SchemaFile
from codegen.render import shipped_schema
from codegen.versions import at_least, declared_bump, version_path

from .api import MAJOR, MINOR, ApiChange, api_entries, compare_api
from .canonical import ANNOTATIONS, FamilyTypes
from .monotone import monotone
from .rules import EITHER, NARROWED, WIDENED, Change, compare
from .source import WORK_TREE, DiffError, Snapshot, git, revision
from .witness import Budget, Side, Witness, changed_properties, search

ADDED, REMOVED, BOTH, UNPROVEN, UNCHANGED = "added", "removed", "both", "unproven", "unchanged"
UNKNOWN = "unknown"  # the witness search ran out of time before it could decide: taken as breaking
BUMP_OF = {
    REMOVED: MAJOR,
    NARROWED: MAJOR,
    BOTH: MAJOR,
    UNKNOWN: MAJOR,
    WIDENED: MINOR,
    ADDED: MINOR,
    UNPROVEN: "patch",
}
UNPROVEN_TEXT = "no payload found that tells the versions apart"


@dataclass
class TypeReport:
    """What happened to one named type."""

    name: str
    verdict: str  # added | removed | narrowed | widened | both | unproven | unknown | unchanged
    changes: list[Change] = field(default_factory=list)
    witnesses: list[Witness] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # annotation edits, moves, the $ref chain


@dataclass
class FamilyReport:
    """One family's comparison."""

    family: str
    base: str
    base_version: str | None
    version: str | None
    declared: str  # the bump from base_version to version
    types: list[TypeReport]
    api: list[ApiChange]
    api_note: str = ""
    # Where each type is defined in each version (for the line of a finding), and whether this
    # comparison is one of `--transitive`'s extra ones against an older release.
    old_files: dict[str, SchemaFile] = field(default_factory=dict)
    new_files: dict[str, SchemaFile] = field(default_factory=dict)
    grammar_files: dict[str, SchemaFile] = field(default_factory=dict)  # by stream name (streams.py)
    transitive: bool = False
    base_commit: str | None = None

    @property
    def needed(self) -> str:
        """The smallest semantic-version bump the changes need."""
        bumps = [BUMP_OF.get(t.verdict, "patch") for t in self.types if t.verdict != UNCHANGED or t.notes]
        bumps += [c.bump for c in self.api]
        for bump in ("major", "minor", "patch"):
            if bump in bumps:
                return bump
        return "none"

    @property
    def version_ok(self) -> bool:
        """Whether the declared bump covers the changes (a docs-only patch is not enforced)."""
        needed = self.needed
        return needed in ("none", "patch") or at_least(self.declared, needed)


def _annotation_edits(a: Any, b: Any) -> list[str]:
    """The annotations edited between two versions of a type, at each schema object both versions have
    at the same place (reached through lists of the same length only), in path order."""
    edits: list[tuple[walk.Path, str]] = []
    for path, node in walk.subschemas(a):
        other = _counterpart(a, b, path)
        if isinstance(other, dict):
            shown = "".join(f"/{p}" for p in path) or "/"
            edits += [
                (path, f"{k} changed at {shown}")
                for k in sorted(ANNOTATIONS)
                if node.get(k) != other.get(k) and k != "discriminator"
            ]
    return [text for _, text in sorted(edits, key=lambda edit: edit[0])]


def _counterpart(a: Any, b: Any, path: walk.Path) -> Any:
    """What stands in `b` at `path` of `a`, if both lead there alike (lists of the same length)."""
    for step in path:
        if isinstance(step, int):
            if not (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)):
                return None
        elif not (isinstance(a, dict) and isinstance(b, dict) and step in b):
            return None
        a, b = a[step], b[step]
    return b


def compare_types(
    old: FamilyTypes,
    new: FamilyTypes,
    budget: Budget,
    names: Collection[str] | None = None,
    examples: tuple[Mapping[str, list[Any]], Mapping[str, list[Any]]] = ({}, {}),
) -> list[TypeReport]:
    """Every type of the family (or only `names` and the types they reach, each judged as in the
    whole comparison): its verdict, the rules that fired and the witnesses found. `examples`: each
    version's valid examples by type, where a change deeper down is tried first."""
    from .canonical import canonical

    own: dict[str, list[Change]] = {}
    for name in old.body.keys() & new.body.keys():
        if old.body[name] != new.body[name]:
            own[name] = compare(canonical(old.raw[name]), canonical(new.raw[name]))
    old_side, new_side = Side(old), Side(new)
    old_side.examples, new_side.examples = examples
    for side in (old_side, new_side):
        side.forced = {name: changed_properties(changes) for name, changes in own.items()}
    reports: list[TypeReport] = []
    witnesses_of: dict[str, list[Witness]] = {}
    decided: dict[str, bool] = {}  # a type's search ended before its time did
    verdicts: dict[str, str] = {}
    # Types a type reaches come first (their reach is a subset of its own), so their verdicts are known.
    judged = old.body.keys() | new.body.keys()
    if names is not None:  # a set closed under reach: every verdict a judged type looks up is judged too
        judged &= {n for name in names for n in (*old.reach(name), *new.reach(name))}
    order = sorted(judged, key=lambda n: (len(set(old.reach(n)) | set(new.reach(n))), n))
    for name in order:
        if name not in new.body:
            reports.append(TypeReport(name, REMOVED, notes=[f"type removed from {old.file_of[name].name}"]))
            continue
        if name not in old.body:
            reports.append(TypeReport(name, ADDED, notes=[f"type added in {new.file_of[name].name}"]))
            continue
        notes = _annotation_edits(old.raw[name], new.raw[name])
        if old.file_of[name].name != new.file_of[name].name:
            notes.append(f"moved from {old.file_of[name].name} to {new.file_of[name].name}")
        changes = list(own.get(name, []))
        changed_deep = {n for n in set(old.reach(name)) | set(new.reach(name)) if n in own and n != name}
        if changed_deep:
            chain = new.path_to(name, changed_deep) if name in new.edges else old.path_to(name, changed_deep)
            target = chain[-1]
            # `owner`: the type whose definition the change's pointer is in, to locate it in its file
            for c in own.get(target, []):
                changes.append(replace(c, rule=f"via {' -> '.join(chain)}: {c.rule}", owner=target))
            for other in sorted(changed_deep - {target}):
                changes.extend(replace(c, rule=f"via {other}: {c.rule}", owner=other) for c in own[other])
        reach_changed = set(old.reach(name)) != set(new.reach(name))
        if not changes and not reach_changed:
            reports.append(TypeReport(name, UNCHANGED, notes=notes))
            continue
        if name not in own and not reach_changed and all(verdicts.get(d) == UNPROVEN for d in changed_deep):
            # Every changed type it reaches accepts the same payloads as far as their own search
            # found: the same holds here, so no second search.
            notes.append(f"changed only through {', '.join(sorted(changed_deep))}, where {UNPROVEN_TEXT}")
            reports.append(TypeReport(name, UNPROVEN, changes, [], notes))
            verdicts[name] = UNPROVEN
            continue
        focus = frozenset(changed_deep | ({name} if name in own else set()))
        lifted = [w.payload for d in sorted(changed_deep) for w in witnesses_of.get(d, [])]
        deep = {} if name in own or reach_changed else {d: own[d] for d in changed_deep}
        only = _only_direction(old, new, name, deep, decided, witnesses_of)
        witnesses, out_of_time = search(old_side, new_side, name, changes, budget, focus, lifted, only)
        witnesses_of[name], decided[name] = witnesses, not out_of_time
        directions = sorted({w.direction for w in witnesses})
        verdict = BOTH if len(directions) == 2 else directions[0] if directions else UNPROVEN
        if only is not None and verdict == only:
            notes.append(f"only {only}, as far as the rules and searches of what it reaches show (monotone.py)")
        if out_of_time and verdict != BOTH:
            # a witness found stands; without one, nothing is known
            notes.append(f"the witness search ran out of its {budget.seconds:g} s before it could decide")
            verdict = verdict if directions else UNKNOWN
        reports.append(TypeReport(name, verdict, changes, witnesses, notes))
        verdicts[name] = verdict
    return sorted(reports, key=lambda r: r.name)


def _only_direction(
    old: FamilyTypes,
    new: FamilyTypes,
    name: str,
    deep: dict[str, list[Change]],
    decided: dict[str, bool],
    witnesses_of: dict[str, list[Witness]],
) -> str | None:
    """The one direction a type changed only through the types in `deep` (with their own changes)
    can move in: when each of them was decided, their witnesses and every rule's hint all point one
    way, and both versions keep direction on the way to them (monotone.py); None otherwise."""
    if not deep or not all(decided.get(d) for d in deep):
        return None
    found = {w.direction for d in deep for w in witnesses_of.get(d, [])}
    hints = {c.hint for changes in deep.values() for c in changes}
    if len(found) != 1 or hints != found or not (monotone(old, name) and monotone(new, name)):
        return None
    return found.pop()


def valid_examples(root: Path, family: str) -> dict[str, list[Any]]:
    """A version's valid examples (`schemas/<family>/examples/<Type>/valid/*.json`), by type."""
    out: dict[str, list[Any]] = {}
    for path in sorted((root / "schemas" / family / "examples").glob("*/valid/*.json")):
        try:
            out.setdefault(path.parent.parent.name, []).append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue  # an example that does not read is lint's to report, not the diff's
    return out


def _fresh(root: Path, snap: Snapshot, family: str) -> bool:
    """Whether the package holds exactly the shipped copies of the family's current schemas."""
    shipped = root / "chatschema" / "schemas" / family
    files = [f for f in snap.files if f.family == family]
    on_disk = sorted(p.name for p in shipped.glob("*.json")) if shipped.is_dir() else []
    if on_disk != sorted(f.name for f in files):
        return False
    if not all(
        (shipped / f.name).read_text(encoding="utf-8") == shipped_schema(family, f.name, f.contents) for f in files
    ):
        return False
    grammars, _ = grammar_files(snap.root, family)
    copies = shipped / GRAMMARS
    on_disk = sorted(p.name for p in copies.glob("*.json")) if copies.is_dir() else []
    if on_disk != sorted(f"{g.name}.json" for g in grammars):
        return False
    return all((copies / f"{g.name}.json").read_text(encoding="utf-8") == shipped_grammar(g) for g in grammars)


class ApiSource:
    """Where the generated API of a snapshot is read: its own generated files, or an in-memory build if stale."""

    def __init__(self, root: Path, snap: Snapshot) -> None:
        self.root, self.snap = root, snap
        self._built: tempfile.TemporaryDirectory[str] | None = None
        self._runtime_copied = False
        self.note = ""

    def entries(self, family: str) -> dict[str, str] | None:
        """The family's API entries (None if this version has no generated API)."""
        if (
            self.snap.label != WORK_TREE
            or not (self.root / "chatschema").is_dir()
            or _fresh(self.root, self.snap, family)
        ):
            return api_entries(self.snap.root, family)
        self.note = "the generated files were stale: the work tree's API was read from an in-memory build"
        return api_entries(self._build(), family)

    def _build(self) -> Path:
        """The work tree's generated files as `codegen generate` would write them now (built once)."""
        if self._built is None:
            from codegen.cache import CACHE_DIR, Cache
            from codegen.generate import build

            try:  # with generate's own cache: only the edited families are built again
                tree = build(self.root, Cache(self.root / CACHE_DIR))
            except (CodegenError, RuntimeError) as exc:
                raise DiffError([f"diff: the generated files are stale and cannot be rebuilt: {exc}"]) from exc
            self._built = tempfile.TemporaryDirectory(prefix="chatschema-diff-api-")
            for rel, data in tree.items():
                dest = Path(self._built.name) / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(data)
        return Path(self._built.name)

    def readers(self, family: str) -> Path:
        """Where this version's stream readers are: its own files, or, for a work tree whose generated
        files are stale, the build beside a copy of the hand-written runtime."""
        if self.snap.label != WORK_TREE or _fresh(self.root, self.snap, family):
            return self.snap.root
        built = self._build()
        if not self._runtime_copied:  # the hand-written runtime only: no stale generated file comes back
            from codegen.layout import runtime_files

            for rel, path in runtime_files({f.family for f in self.snap.files}).items():
                (built / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, built / rel)
            self._runtime_copied = True
        return built


def _version_at(root: Path, commit: str, family: str) -> str | None:
    try:
        return git(root, "show", f"{commit}:{version_path(family)}").strip() or None
    except DiffError:
        return None


def _introduced(root: Path, family: str, version: str, start: str) -> str | None:
    """The oldest commit of the run, back from `start`, whose VERSION is `version`: where it was declared."""
    intro = None
    for commit in git(root, "log", "--format=%H", start, "--", version_path(family)).split():
        if _version_at(root, commit, family) != version:
            break
        intro = commit
    return intro


def release_base(root: Path, family: str, current: str | None) -> tuple[str, str | None]:
    """The revision a family's current version is judged against, and the version declared there.

    That is the commit that declared the previous version (its release): every change since then
    must fit the bump from it to the current version. For a family's first version, the commit that
    declared it: any later change needs a bump.
    """
    if git(root, "rev-parse", "--is-shallow-repository").strip() == "true":
        raise DiffError(["diff release: the clone is shallow; the release history needs `git fetch --unshallow`"])
    if current is None:
        raise DiffError([f"diff: {version_path(family)} is missing"])
    head = _version_at(root, "HEAD", family)
    previous: str | None
    if head is not None and head != current:  # bumped in the work tree: HEAD's version is the previous one
        previous, start = head, "HEAD"
    else:
        intro = _introduced(root, family, current, "HEAD")
        if intro is None:
            raise DiffError([f"diff: no commit declares {version_path(family)} = {current}"])
        parents = git(root, "rev-list", "--parents", "-n", "1", intro).split()[1:]
        previous = _version_at(root, parents[0], family) if parents else None
        if previous is None or not parents:
            return intro, current
        start = parents[0]
    release = _introduced(root, family, previous, start)
    if release is None:
        raise DiffError([f"diff: no commit declares {version_path(family)} = {previous}"])
    return release, previous


def _grammar_files(family: str, old: Snapshot, new: Snapshot) -> dict[str, SchemaFile]:
    """Each stream's grammar file, by the stream's name in reports: the new one, else the old one."""
    from .streams import STREAM, as_schema_file

    out: dict[str, SchemaFile] = {}
    for snap in (old, new):
        found, _ = grammar_files(snap.root, family)  # checked where the streams are judged
        out.update({g.name + STREAM: as_schema_file(g) for g in found})
    return out


def _stream_reports(
    family: str,
    snaps: tuple[Snapshot, Snapshot],
    types: tuple[FamilyTypes, FamilyTypes],
    reports: list[TypeReport],
    apis: tuple[ApiSource, ApiSource],
) -> list[TypeReport]:
    from .streams import judge_streams  # it reads this module's verdicts

    readers = (lambda: apis[0].readers(family), lambda: apis[1].readers(family))
    labels = (snaps[0].label, snaps[1].label)
    return judge_streams(family, (snaps[0].root, snaps[1].root), types, reports, readers, labels)


def compare_snapshots(
    root: Path,
    old: Snapshot,
    new: Snapshot,
    families: list[str] | None = None,
    budget: Budget | None = None,
    old_api: ApiSource | None = None,
    new_api: ApiSource | None = None,
) -> list[FamilyReport]:
    """Compare every family (or the named ones) of two snapshots."""
    budget = budget or Budget()
    old_fams, new_fams = old.families(), new.families()
    names = sorted(set(old_fams) | set(new_fams)) if families is None else families
    old_api = old_api or ApiSource(root, old)
    new_api = new_api or ApiSource(root, new)
    reports = []
    for family in names:
        if family not in old_fams and family not in new_fams:
            raise DiffError([f"diff: no family {family!r} (known: {', '.join(sorted(set(old_fams) | set(new_fams)))})"])
        old_types = FamilyTypes.of(family, old_fams.get(family, []))
        new_types = FamilyTypes.of(family, new_fams.get(family, []))
        examples = (valid_examples(old.root, family), valid_examples(new.root, family))
        types = compare_types(old_types, new_types, budget, examples=examples)
        types += _stream_reports(family, (old, new), (old_types, new_types), types, (old_api, new_api))
        before, after = old_api.entries(family), new_api.entries(family)
        if before is not None and after is not None:
            for side, other in ((before, after), (after, before)):  # TypeScript only once both versions have it
                if not any(k.startswith("TypeScript") for k in side):
                    for k in [k for k in other if k.startswith("TypeScript")]:
                        del other[k]
        api = compare_api(family, before or {}, after or {}) if before is not None and after is not None else []
        note = "" if before is not None and after is not None else "no generated API to compare in one version"
        note = new_api.note or note
        bv, v = old.versions.get(family), new.versions.get(family)
        report = FamilyReport(family, old.label, bv, v, declared_bump(bv, v or ""), types, api, note)
        report.old_files, report.new_files = old_types.file_of, new_types.file_of
        report.grammar_files = _grammar_files(family, old, new)
        report.base_commit = old.commit
        reports.append(report)
    return reports


def compare_release(
    root: Path, new: Snapshot, families: list[str] | None, budget: Budget | None = None
) -> list[FamilyReport]:
    """Compare each family with its previous release (see `release_base`)."""
    reports = []
    cache: dict[str, Snapshot] = {}
    new_api = ApiSource(root, new)
    for family in families or sorted(new.families()):
        rev, declared_base = release_base(root, family, new.versions.get(family))
        if rev not in cache:
            cache[rev] = revision(root, rev)
        base = cache[rev]
        [report] = compare_snapshots(root, base, new, [family], budget, ApiSource(root, base), new_api)
        report.base = f"release {declared_base} ({rev[:12]})"
        report.base_version = declared_base
        report.declared = (
            declared_bump(declared_base, report.version or "") if declared_base != report.version else "none"
        )
        reports.append(report)
    return reports


def as_json(reports: list[FamilyReport]) -> dict[str, Any]:
    """The machine-readable report (`--format json`)."""
    return {
        "families": [
            {
                "family": r.family,
                "base": r.base,
                "base_version": r.base_version,
                "version": r.version,
                "declared_bump": r.declared,
                "needed_bump": r.needed,
                "version_ok": r.version_ok,
                "types": [
                    {
                        "name": f"{r.family}/{t.name}",
                        "verdict": t.verdict,
                        "changes": [{"where": c.where, "rule": c.rule, "hint": c.hint} for c in t.changes],
                        "witnesses": [
                            {
                                "direction": w.direction,
                                "payload": w.payload,
                                "found_by": w.found_by,
                                "rejected_because": w.rejected_because,
                            }
                            for w in t.witnesses
                        ],
                        "unproven": t.verdict == UNPROVEN,
                        "notes": t.notes,
                    }
                    for t in r.types
                    if t.verdict != UNCHANGED or t.notes
                ],
                "api": [
                    {"what": c.what, "change": c.change, "detail": c.detail, "bump": c.bump, "members": list(c.members)}
                    for c in r.api
                ],
                "api_note": r.api_note,
            }
            for r in reports
        ]
    }


def dumps(reports: list[FamilyReport]) -> str:
    """The JSON report as text."""
    return json.dumps(as_json(reports), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


__all__ = ["EITHER", "NARROWED", "UNKNOWN", "UNPROVEN_TEXT", "WIDENED", "FamilyReport", "TypeReport", "compare_release"]
