"""How fast the schema-edit loop is: `python -m codegen generate`, and the README's regenerate command
whole (`python3 -m nox -s generate`, with the checkout's nox environments), against one plain
datamodel-codegen call.

Everything runs in a scratch copy of the repository (schemas, codegen, both packages, generated, vectors), so that
edits and caches never touch the checkout. Each edit is new (a numbered sentence in a description),
so no cache holds the edited family. Each scenario runs `--repeat` times, round-robin with
the others, and the medians are printed as seconds and as ratios to the plain call of the same run,
so that the load of a shared machine weighs on all of them alike. The usual edit is a description's;
the "validation edited" scenarios add a `maxLength` instead, which the precompiled validators depend on.

    python bench/codegen.py [--repeat 5]       (or: nox -s bench_codegen)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from checkout import commit

ROOT = Path(__file__).resolve().parent.parent
README_REGENERATE = "python3 -m nox -s generate"


def _scratch(tmp: Path) -> Path:
    repo = tmp / "repo"
    for name in ("schemas", "chatschema", "npm", "generated"):
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    shutil.copytree(ROOT / "codegen", repo / "codegen", ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    (repo / "codegen" / "node" / "node_modules").symlink_to(ROOT / "codegen" / "node" / "node_modules")
    for name in ("pyproject.toml", "LICENSE", "noxfile.py"):
        shutil.copy(ROOT / name, repo / name)
    shutil.copytree(ROOT / "requirements", repo / "requirements")
    (repo / ".nox").symlink_to(ROOT / ".nox")  # the README's command reuses the checkout's nox environments
    return repo


def _timed(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> float:
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return elapsed


class Edits:
    """Schema files as they were, and edits never made before: a description gets a new number each
    time, so that no cache holds the edited family (toggling one edit would hit the cache)."""

    def __init__(self) -> None:
        self._originals: dict[Path, str] = {}
        self._count = 0

    def restore(self) -> None:
        for path, text in self._originals.items():
            path.write_text(text, encoding="utf-8")

    def edit(self, paths: list[Path], validation: bool = False) -> None:
        """A new sentence in each file's first description, or (`validation`) a new `maxLength` on its
        first string: an edit that changes what payloads are valid, so the validators are compiled again."""
        self._count += 1
        for path in paths:
            text = self._originals.setdefault(path, path.read_text(encoding="utf-8"))
            if validation:
                edited = text.replace('"type": "string"', f'"type": "string", "maxLength": {10**6 + self._count}', 1)
            else:
                edited = text.replace('"description": "', f'"description": "Edit {self._count}. ', 1)
            if edited == text:
                raise SystemExit(f"bench: nothing to edit in {path}")
            path.write_text(edited, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="runs per scenario (medians are printed)")
    args = parser.parse_args(argv)
    py = sys.executable
    if README_REGENERATE not in (ROOT / "README.md").read_text(encoding="utf-8"):
        raise SystemExit(f"the README no longer shows {README_REGENERATE!r}: update this benchmark")
    with tempfile.TemporaryDirectory(prefix="chatschema-bench-") as tmp_name:
        repo = _scratch(Path(tmp_name))
        codegen = [py, "-m", "codegen", "--root", str(repo), "generate"]
        schema = repo / "schemas" / "swarm" / "agent.json"
        cache = repo / ".codegen-cache"

        # The plain call reads the schema files alone (schemas/<family>/ also holds examples).
        plain_input = Path(tmp_name) / "plain-input"
        for source in (repo / "schemas").glob("*/*.json"):
            (plain_input / source.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(source, plain_input / source.parent.name / source.name)

        def plain() -> float:
            out = Path(tmp_name) / "plain"
            shutil.rmtree(out, ignore_errors=True)
            return _timed(
                [py, "-m", "datamodel_code_generator", "--input", str(plain_input), "--input-file-type",
                 "jsonschema", "--output-model-type", "pydantic_v2.BaseModel", "--output", str(out)],
                repo,
            )  # fmt: skip

        def clean_check() -> float:
            shutil.rmtree(cache, ignore_errors=True)
            return _timed([*codegen, "--check"], repo)

        def warm_check() -> float:
            return _timed([*codegen, "--check"], repo)

        edits = Edits()

        def edited(paths: list[Path], command: list[str], ok: int = 0, validation: bool = False) -> Callable[[], float]:
            """`command` after a new edit of each of `paths`, from an up-to-date tree and a warm cache."""

            def run() -> float:
                edits.restore()
                _timed(codegen, repo)
                edits.edit(paths, validation)
                return _timed(command, repo, ok=(ok,))

            return run

        readme = ["sh", "-c", README_REGENERATE]
        every_family = sorted((repo / "schemas").glob("*/*.json"))
        first_per_family = [
            min(p for p in every_family if p.parent == family) for family in sorted({p.parent for p in every_family})
        ]
        scenarios: dict[str, Callable[[], float]] = {
            "plain datamodel-codegen on schemas/ (1 call)": plain,
            "generate --check, clean cache": clean_check,
            "generate --check, warm cache, nothing changed": warm_check,
            "one family edited: build (--check)": edited([schema], [*codegen, "--check"], ok=1),
            "one family edited: generate (build, verify, write)": edited([schema], codegen),
            "one family edited: the README's command": edited([schema], readme),
            "every family edited: the README's command": edited(first_per_family, readme),
            "one family's validation edited: the README's command": edited([schema], readme, validation=True),
            "every family's validation edited: the README's command": edited(first_per_family, readme, validation=True),
        }
        _timed(codegen, repo)  # warm the OS and jinja caches once
        times: dict[str, list[float]] = {name: [] for name in scenarios}
        for _ in range(args.repeat):
            for name, run in scenarios.items():
                times[name].append(run())
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["plain datamodel-codegen on schemas/ (1 call)"]
    print(f"codegen benchmark at {commit()}: median of {args.repeat} runs each, round-robin, {os.cpu_count()} cores")
    print(f"{'scenario':<56} {'seconds':>8} {'ratio':>7}")
    for name, value in medians.items():
        print(f"{name:<56} {value:8.2f} {value / base:6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
