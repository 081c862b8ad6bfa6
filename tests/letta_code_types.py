"""Letta Code's own TypeScript types, for the conformance test of the Letta Code schemas.

The published packages are applications (the CLI pulls native modules, a React renderer, MCP, ...),
and the test needs only their type declarations. So each pinned tarball is fetched with `npm pack`,
checked against its pinned integrity, and only its `package.json` and `.d.ts` files are unpacked,
beside letta-client (which `@letta-ai/letta-code/protocol` imports) from codegen/node.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path, PurePosixPath

from codegen.typescript import node_modules, setup_node

# name -> (version, the registry's sha512 integrity of its tarball)
PINNED = {
    "@letta-ai/letta-code": (
        "0.32.18",
        "sha512-PkpJewqQAQq5faHW4wIfmbKyIMCapiIVbsYhXs9CalB1oyUzV8Gg7+ZhhjK52PdSNgP20juc2KP2pQEPfmA6SQ==",
    ),
    "@letta-ai/letta-code-sdk": (
        "0.1.14",
        "sha512-rSMp7kYwRZ4PAe3jET+PETFesuYCbeodEp6Qf7a5rLu97epqs+zNegSR+UUgq6c9+c5eqbuo+BsRThTKiSNJkA==",
    ),
}
CACHE = Path(__file__).parent.parent / ".letta-code-types"


def letta_code_modules() -> Path:
    """A node_modules folder with `@letta-ai/letta-code`, `@letta-ai/letta-code-sdk` (declarations
    only) and `@letta-ai/letta-client`; fetched once, then reused."""
    setup_node()
    # a folder named node_modules: the declarations import letta-client, found by walking up to one
    modules = CACHE / "-".join(version for version, _ in PINNED.values()) / "node_modules"
    if not (modules / ".complete").exists():
        shutil.rmtree(modules, ignore_errors=True)
        for name, (version, integrity) in PINNED.items():
            _unpack_declarations(_fetch(name, version, integrity), modules / name)
        (modules / "@letta-ai" / "letta-client").symlink_to(node_modules() / "@letta-ai" / "letta-client")
        (modules / ".complete").touch()
    return modules


def _fetch(name: str, version: str, integrity: str) -> Path:
    CACHE.mkdir(exist_ok=True)
    proc = subprocess.run(
        ["npm", "pack", f"{name}@{version}", "--json", "--pack-destination", str(CACHE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, f"npm pack {name}@{version} failed: {proc.stderr.strip()[-500:]}"
    packed = json.loads(proc.stdout)[0]
    assert packed["integrity"] == integrity, f"{name}@{version}: integrity {packed['integrity']}, pinned {integrity}"
    return CACHE / str(packed["filename"])


def _unpack_declarations(tarball: Path, target: Path) -> None:
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            path = PurePosixPath(member.name)
            inside = PurePosixPath(*path.parts[1:])  # below `package/`
            wanted = str(inside) == "package.json" or member.name.endswith(".d.ts")
            if not member.isfile() or not wanted or ".." in path.parts or path.is_absolute():
                continue
            source = archive.extractfile(member)
            assert source is not None
            out = target / inside
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(source.read())
