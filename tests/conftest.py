"""pytest's header names the conformance seeds of this run, so that a failure of the small budget can be replayed."""

from __future__ import annotations

from tests.conformance.seeds import DEFAULT_SEED, commit_seed


def pytest_report_header() -> str:
    """The header line: the default seed and this commit's (tests/test_conformance.py runs both)."""
    seed = commit_seed()
    return (
        f"conformance seeds: {DEFAULT_SEED} (default), {seed} (this commit's tree); "
        f"replay one: nox -s conformance -- --small --seed {seed}"
    )
