"""Shared by the suite: the slowest files run first, pytest's header names the conformance seeds of
this run (so that a failure of the small budget can be replayed), and a warm codegen cache for
scratch repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.codegen_cli import codegen_scratch, run_codegen
from tests.conformance.seeds import DEFAULT_SEED, commit_seed

# The slowest test files, longest first (by their tests' time in a CI run). nox -s tests hands out
# whole files in collection order (`--dist=loadfile --no-loadscope-reorder`): started first, they
# run beside the many short files, instead of one of them running alone at the end.
SLOWEST_FILES = (
    "tests/test_conformance.py",
    "tests/test_dispatch.py",
    "tests/conformance/test_vocab_family.py",
    "tests/evolution/test_ci.py",
    "tests/test_codegen.py",
    "tests/evolution/test_streams.py",
    "tests/test_tree_shaking.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slowest files' tests first, each file's tests in their own order."""
    rank = {path: i for i, path in enumerate(SLOWEST_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def pytest_report_header() -> str:
    """The header line: the default seed and this commit's (tests/test_conformance.py runs both)."""
    seed = commit_seed()
    return (
        f"conformance seeds: {DEFAULT_SEED} (default), {seed} (this commit's tree); "
        f"replay one: nox -s conformance -- --small --seed {seed}"
    )


@pytest.fixture(scope="session")
def codegen_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The codegen cache of this checkout's schemas, filled once per test process: a scratch
    repository that starts with a copy of it regenerates only the families its test changes, as a
    user's checkout does (a cold build of every family was 10 s of CPU per test)."""
    root = codegen_scratch(tmp_path_factory.mktemp("codegen-cache"))
    proc = run_codegen(root, "generate")
    assert proc.returncode == 0, proc.stderr
    return root / ".codegen-cache"
