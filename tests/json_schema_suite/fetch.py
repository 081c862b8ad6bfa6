"""The JSON-Schema-Test-Suite files, from the package index: python-jsonschema's source release
carries the suite (`json/`), at the version the suite was last synced into it.

The files are not committed; the first run downloads the sdist of the installed jsonschema
(`pip download --no-binary`, a few MB) and keeps its draft 2020-12 files and the suite's LICENSE
in a cache folder, which later runs read.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

DRAFT_FILES = "json/tests/draft2020-12/"


class SuiteUnavailable(RuntimeError):
    """The suite could not be downloaded (no route to the package index)."""


def cache_root() -> Path:
    """Where the extracted suite lives: beside codegen's key, in $XDG_CACHE_HOME (~/.cache)/chatschema."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "chatschema" / "json-schema-test-suite"


def suite_folder() -> Path:
    """The draft 2020-12 files of the suite shipped with the installed jsonschema, downloaded once."""
    version = importlib.metadata.version("jsonschema")
    folder = cache_root() / f"jsonschema-{version}"
    if not (folder / "LICENSE").is_file():
        _download(version, folder)
    return folder


def _download(version: str, folder: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="chatschema-suite-") as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:"]
        proc = subprocess.run(
            [*cmd, "--dest", tmp, f"jsonschema=={version}"], capture_output=True, text=True, check=False
        )
        sdists = sorted(Path(tmp).glob("jsonschema-*.tar.gz"))
        if proc.returncode != 0 or not sdists:
            raise SuiteUnavailable(f"cannot download the jsonschema {version} sdist: {proc.stderr.strip()[-300:]}")
        staging = Path(tempfile.mkdtemp(prefix="suite-", dir=_parent(folder)))
        with tarfile.open(sdists[0]) as archive:
            for member in archive.getmembers():
                inner = member.name.split("/", 1)[-1]
                name = inner.removeprefix(DRAFT_FILES)
                wanted = (inner.startswith(DRAFT_FILES) and "/" not in name) or inner == "json/LICENSE"
                if wanted and member.isfile() and name.endswith((".json", "LICENSE")):
                    source = archive.extractfile(member)
                    assert source is not None
                    (staging / Path(name).name).write_bytes(source.read())
        staging.rename(folder)  # whole or not at all: a run stopped midway leaves no half folder


def _parent(folder: Path) -> Path:
    folder.parent.mkdir(parents=True, exist_ok=True)
    return folder.parent
