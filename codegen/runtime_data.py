"""The runtime's data files (`codegen/runtime/**` other than Python, e.g. the shipped samples),
copied into the package byte for byte: JSONL has no room for a do-not-edit header."""

from __future__ import annotations

from pathlib import Path

RUNTIME = Path(__file__).parent / "runtime"
_SKIPPED = {"__pycache__"}


def runtime_data_files(package: str) -> dict[str, str]:
    """Every non-Python file under codegen/runtime/, by path relative to generated/."""
    return {
        f"{package}/{p.relative_to(RUNTIME).as_posix()}": p.read_text(encoding="utf-8")
        for p in sorted(RUNTIME.rglob("*"))
        if p.is_file() and p.suffix not in (".py", ".pyc") and not _SKIPPED.intersection(p.parts)
    }
