"""A copy of this checkout's files as git would commit them (uncommitted edits and new files too, not
what .gitignore leaves out): what the pre-commit tests turn into a repository of their own."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def copy_checkout(dest: Path) -> None:
    """Copy every tracked or unignored file of the checkout under `dest`, keeping its path."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    for rel in filter(None, listed.split("\0")):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)
