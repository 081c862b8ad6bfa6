"""The evolution diff (`python -m release.evolution`) against `generate --check`, in one run: the wall
time of each and their ratio (the target: at most 2x), for four comparisons.

- the whole tree against the previous commit (`HEAD~1`);
- against `36522fb^` (before the conformance fixes, which changed bridgic and letta types, so
  witnesses are searched in two families): the whole tree judged, with changes to judge;
- a one-file edit (a property of letta's ToolCallMessage made required, in a scratch clone's work
  tree), regenerated first as the README's flow does (the target: less than the whole tree's);
- the same edit not regenerated, as the pre-commit hook meets it (the work tree's API and stream
  readers are built in memory first).

python bench/diff.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDITED = Path("schemas/letta/letta_message.json")


def timed(cwd: Path, module: str, *args: str) -> tuple[float, int]:
    """Wall time and exit status of `python -m module args` in `cwd`."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - start, proc.returncode


def _one_file_edit(clone: Path) -> None:
    """Make letta's ToolCallMessage.otid required in the clone's work tree."""
    path = clone / EDITED
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["$defs"]["ToolCallMessage"].setdefault("required", []).append("otid")
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    """Time each comparison and `generate --check` in one scratch clone; print the ratios."""
    with tempfile.TemporaryDirectory(prefix="chatschema-bench-diff-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "--quiet", "--shared", str(ROOT), str(clone)], check=True)
        for modules in ("codegen/node/node_modules", "npm/node_modules"):
            if (ROOT / modules).is_dir():
                (clone / modules).symlink_to(ROOT / modules)
        check, rc_check = timed(clone, "codegen", "generate", "--check")
        print(f"generate --check: {check:.1f} s (exit {rc_check})")
        runs = [("the whole tree against HEAD~1", ("HEAD~1",)), ("against 36522fb^ (4 families)", ("36522fb^",))]
        for what, args in runs:
            seconds, rc = timed(clone, "release.evolution", *args, "--format", "json")
            print(
                f"diff {what}: {seconds:.1f} s (exit {rc}); ratio to generate --check {seconds / check:.2f} (target <= 2)"
            )
        _one_file_edit(clone)
        stale, rc_stale = timed(clone, "release.evolution", "--format", "json")
        subprocess.run([sys.executable, "-m", "codegen", "generate"], cwd=clone, capture_output=True, check=True)
        seconds, rc = timed(clone, "release.evolution", "--format", "json")
        print(
            f"diff of a one-file edit ({EDITED}), regenerated: {seconds:.1f} s (exit {rc});"
            f" ratio to generate --check {seconds / check:.2f} (target: below the whole tree's)"
        )
        print(
            f"diff of the same edit, not regenerated (an in-memory build first): {stale:.1f} s (exit {rc_stale});"
            f" ratio to generate --check {stale / check:.2f}"
        )


if __name__ == "__main__":
    main()
