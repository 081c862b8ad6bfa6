"""`python -m tests.conformance.vocab [--small] [--seed N] [--seeds N] [--only vocab/Type ...] [--keep DIR]`:
the conformance run on the test family `vocab` (tests/conformance/fixtures/vocab/).

The real families need not use every keyword of the validation vocabulary; `vocab` does (lengths,
bounds, steps, tuples, sets, maps, conditions, recursion, boolean schemas, ...). It is no shipped
family: a scratch copy of this working tree gets it under schemas/, is regenerated with this
checkout's codegen (`python -m codegen --root <copy> generate`) and runs `python -m
tests.conformance --only vocab` there, with every check of a real family's run (dispatch,
jsonschema-rs, Pydantic, TypedDict, round trips; no real system applies). The arguments are the
harness's; an `--only` that names no `vocab` type runs nothing. `--keep DIR` builds the copy in DIR
and leaves it there (to replay or inspect a failure: `cd DIR && python -m tests.conformance --only vocab`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.codegen_cli import run_codegen
from tests.conformance.seeds import DEFAULT_SEED

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
FAMILY = "vocab"
# never copied: version control, environments, caches, installed Node modules
SKIP = {".git", ".nox", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
SKIP |= {".hypothesis", ".codegen-cache", ".mutation", "dist", "build"}


def checkout_files(root: Path = ROOT) -> list[str]:
    """The working tree's files, by path from `root`: what git tracks or would (ignored files left
    out), as they are now; outside a git checkout, every file not under a SKIP folder."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout.decode("utf-8")
        names = [n for n in listed.split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = [
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if not SKIP & set(p.relative_to(root).parts) and (p.is_file() or p.is_symlink())
        ]
    return sorted(n for n in names if (root / n).is_file() and not SKIP & set(Path(n).parts))


def scratch_repository(dest: Path, families: tuple[str, ...] = (FAMILY,)) -> Path:
    """A copy of this working tree at `dest`, with the fixture families under schemas/ (not generated yet)."""
    for name in checkout_files():
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)  # times kept: codegen's cache keys examples by them
    for family in families:
        shutil.copytree(FIXTURES / family, dest / "schemas" / family, dirs_exist_ok=True)
    return dest


def generate(root: Path) -> subprocess.CompletedProcess[str]:
    """`python -m codegen generate` on the scratch repository `root`, with this checkout's codegen
    (and its Node tooling): the generated packages there then hold the fixture families too."""
    return run_codegen(root, "generate", cwd=root)


def conformance(root: Path, args: list[str], capture: bool = False) -> subprocess.CompletedProcess[str]:
    """`python -m tests.conformance ARGS` in the scratch repository `root`, on its own code and schemas."""
    return subprocess.run(
        [sys.executable, "-m", "tests.conformance", *args],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=capture,
        text=True,
        check=False,
    )


def selected(only: list[str] | None) -> list[str]:
    """What `--only` selects of the fixture family (all of it without `--only`)."""
    if not only:
        return [FAMILY]
    return [o for o in only if o == FAMILY or o.startswith(FAMILY + "/")]


def harness_args(args: argparse.Namespace) -> list[str]:
    """The harness's arguments for the scratch run: the same budget and seeds, `--only` the fixture family."""
    return [
        *(["--small"] if args.small else []),
        *["--seed", str(args.seed), "--seeds", str(args.seeds)],
        *(["--jobs", str(args.jobs)] if args.jobs is not None else []),
        *["--only", *selected(args.only)],
    ]


def main(argv: list[str] | None = None) -> int:
    """Build the scratch repository, generate it, run the harness there; its exit status (2 if generation fails)."""
    parser = argparse.ArgumentParser(prog="python -m tests.conformance.vocab", description=__doc__)
    parser.add_argument("--small", action="store_true", help="the test suite's small budget")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--seeds", type=int, default=1, metavar="N")
    parser.add_argument("--only", nargs="*", help="families or family/Type names; those of vocab run")
    parser.add_argument("--jobs", type=int, default=None, metavar="N", help="processes judging types side by side")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="build the scratch repository in DIR and keep it")
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs needs at least 1")
    if not selected(args.only):
        print(f"{FAMILY} (test family): not selected by --only", flush=True)
        return 0
    with tempfile.TemporaryDirectory(prefix="chatschema-vocab-") as tmp:
        root = args.keep.resolve() if args.keep else Path(tmp)
        print(f"{FAMILY} (test family): scratch repository {root}", file=sys.stderr, flush=True)
        scratch_repository(root)
        generated = generate(root)
        if generated.returncode != 0:
            print(f"{FAMILY} (test family): codegen failed\n{generated.stdout}{generated.stderr}", flush=True)
            return 2
        return conformance(root, harness_args(args)).returncode


if __name__ == "__main__":
    sys.exit(main())
