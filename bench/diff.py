"""The evolution diff (`python -m release.evolution`) against `generate --check`, in one run: the wall
time of each and their ratio (the target: at most 2x), for three comparisons.

- the whole tree against the previous commit (`HEAD~1`);
- a one-file edit (a property of letta's ToolCallMessage made required, in a scratch clone's work
  tree, so its generated files are stale and the work tree's API and readers are rebuilt);
- against `36522fb^` (before the conformance fixes, which changed bridgic and letta types, so
  witnesses are searched in two families).

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
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - start, proc.returncode


def _one_file_edit(clone: Path) -> None:
    path = clone / EDITED
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["$defs"]["ToolCallMessage"].setdefault("required", []).append("otid")
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
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
            print(f"diff {what}: {seconds:.1f} s (exit {rc}); ratio to generate --check {seconds / check:.2f} (target <= 2)")
        _one_file_edit(clone)
        seconds, rc = timed(clone, "release.evolution", "--format", "json")
        print(f"diff of a one-file edit ({EDITED}), stale generated files: {seconds:.1f} s (exit {rc});"
              f" ratio to generate --check {seconds / check:.2f} (target: below the whole tree's)")


if __name__ == "__main__":
    main()
