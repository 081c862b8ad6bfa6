"""The inputs of a comparison: `schemas/` (and the generated API) at a git revision or in the work tree."""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegen.load import SchemaFile, load_schemas
from codegen.versions import parse_version, version_path

from .api import LAYOUTS

WORK_TREE = "work tree"
# What a snapshot reads besides schemas/: the generated Python and TypeScript API (the Python
# package whole),
# and the npm package's ES modules, for its stream readers (streams.py replays witness streams).
_GENERATED = (*(path for layout in LAYOUTS for path in layout), "npm/esm")


class DiffError(Exception):
    """A comparison cannot be made (bad revision, a schema that does not load); one line each."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__("\n".join(lines))


def git(root: Path, *args: str) -> str:
    """Run git in `root`; raise DiffError with git's own message if it fails."""
    try:
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise DiffError(["diff: git is not installed"]) from exc
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DiffError([f"diff: git {' '.join(args)}: {message[-1] if message else 'failed'}"])
    return proc.stdout.decode("utf-8", "replace")


@dataclass
class Snapshot:
    """One version of the repository's schemas, loaded strictly, with its declared family versions."""

    label: str  # a revision as given (`HEAD`, `abc123`) or "work tree"
    root: Path  # a directory holding schemas/ (and the generated API) of this version
    files: list[SchemaFile]
    versions: dict[str, str | None]
    commit: str | None = None
    _keep: Any = field(default=None, repr=False)  # the temporary directory of a git revision

    def families(self) -> dict[str, list[SchemaFile]]:
        """Schema files by family."""
        out: dict[str, list[SchemaFile]] = {}
        for f in self.files:
            out.setdefault(f.family, []).append(f)
        return out


def _load(label: str, root: Path, shown_root: str) -> tuple[list[SchemaFile], dict[str, str | None]]:
    files, problems = load_schemas(root)
    if problems and not (len(problems) == 1 and problems[0].file == "schemas" and not files):
        raise DiffError([f"{label}: {p}" for p in problems])
    versions: dict[str, str | None] = {}
    for family in sorted({f.family for f in files}):
        path = root / version_path(family)
        text = path.read_text(encoding="utf-8") if path.is_file() else None
        if text is not None and parse_version(text) is None:
            raise DiffError(
                [f"{label}: {version_path(family)}: {text.strip()[:40]!r} is not a MAJOR.MINOR.PATCH version"]
            )
        versions[family] = text.strip() if text is not None else None
    return files, versions


def work_tree(root: Path) -> Snapshot:
    """The schemas as they are on disk now."""
    files, versions = _load(WORK_TREE, root, str(root))
    return Snapshot(WORK_TREE, root, files, versions)


def revision(root: Path, rev: str) -> Snapshot:
    """The schemas (and generated API) committed at `rev`, extracted to a temporary directory."""
    try:
        commit = git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").strip()
    except DiffError as exc:
        raise DiffError([f"diff: {rev!r} is not a commit of the repository at {root}"]) from exc
    present = set(git(root, "ls-tree", "--name-only", commit, "--", "schemas", *_GENERATED).split())
    tmp = tempfile.TemporaryDirectory(prefix="chatschema-diff-")
    if present:
        proc = subprocess.run(
            ["git", "-C", str(root), "archive", "--format=tar", commit, "--", *sorted(present)],
            capture_output=True,
            check=False,
        )
        if proc.returncode != 0:
            raise DiffError([f"diff: git archive {rev}: {proc.stderr.decode('utf-8', 'replace').strip()}"])
        with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
            tar.extractall(tmp.name, filter="data")
    files, versions = _load(rev, Path(tmp.name), rev)
    return Snapshot(rev, Path(tmp.name), files, versions, commit=commit, _keep=tmp)


def snapshot(root: Path, rev: str | None) -> Snapshot:
    """`rev` of the repository at `root`, or its work tree when `rev` is None."""
    return work_tree(root) if rev is None else revision(root, rev)
