"""The packages as users receive them: the wheel and sdist (checked with `twine check`) and the npm
tarball (`npm pack` of npm/), all with pyproject.toml's version and the repository's LICENSE.

    python -m release.build [--outdir dist] [--no-isolation]

Used by `nox -s build` and by tests/test_packages.py, which installs what it builds.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parent.parent
NPM_PACKAGE = ROOT / "npm"


class BuildError(RuntimeError):
    """A build step failed or produced something inconsistent; the message says which."""


@dataclass(frozen=True)
class Artifacts:
    """What one build produced."""

    version: str
    wheel: Path
    sdist: Path
    npm: Path


def project_version() -> str:
    """The one version, pyproject.toml's `project.version`."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    version: str = data["project"]["version"]
    return version


def _run(cmd: list[str], cwd: Path = ROOT) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise BuildError(f"{' '.join(cmd[:4])}... failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def _one(outdir: Path, pattern: str) -> Path:
    found = sorted(outdir.glob(pattern))
    if len(found) != 1:
        raise BuildError(f"{outdir}: expected one {pattern}, found {[p.name for p in found]}")
    return found[0]


def _check_versions(version: str, wheel: Path, sdist: Path, npm: Path) -> None:
    """Every artefact carries `version`, in its name and in its own metadata."""
    with zipfile.ZipFile(wheel) as zf:
        metadata = zf.read(f"chatschema-{version}.dist-info/METADATA").decode("utf-8")
    with tarfile.open(sdist) as tf:
        member = tf.extractfile(f"chatschema-{version}/PKG-INFO")
        pkg_info = member.read().decode("utf-8") if member else ""
    with tarfile.open(npm) as tf:
        member = tf.extractfile("package/package.json")
        npm_version = json.loads(member.read())["version"] if member else None
    for name, text in ((wheel.name, metadata), (sdist.name, pkg_info)):
        if f"\nVersion: {version}\n" not in text:
            raise BuildError(f"{name}: metadata does not say Version: {version}")
    if npm_version != version:
        raise BuildError(f"{npm.name}: package.json version {npm_version!r}, pyproject.toml says {version!r}")


def license_texts(version: str, wheel: Path, sdist: Path, npm: Path) -> dict[str, str | None]:
    """The LICENSE file each artefact carries, by artefact name (None where it has none)."""
    found: dict[str, str | None] = {}
    with zipfile.ZipFile(wheel) as zf:
        name = f"chatschema-{version}.dist-info/licenses/LICENSE"
        found[wheel.name] = zf.read(name).decode("utf-8") if name in zf.namelist() else None
    for archive, member in ((sdist, f"chatschema-{version}/LICENSE"), (npm, "package/LICENSE")):
        with tarfile.open(archive) as tf:
            names = tf.getnames()
            extracted = tf.extractfile(member) if member in names else None
            found[archive.name] = extracted.read().decode("utf-8") if extracted else None
    return found


def _check_license(version: str, wheel: Path, sdist: Path, npm: Path) -> None:
    """Every artefact carries the repository's LICENSE, unchanged (MIT asks for the notice in every copy)."""
    expected = (ROOT / "LICENSE").read_text(encoding="utf-8")
    for name, text in license_texts(version, wheel, sdist, npm).items():
        if text != expected:
            raise BuildError(
                f"{name}: {'no LICENSE' if text is None else 'a LICENSE that differs from the repository'}"
            )


def pack_npm(outdir: Path) -> Path:
    """`npm pack` the npm package into `outdir` (which must exist); the tarball's path."""
    npm_bin = shutil.which("npm")
    if npm_bin is None:
        raise BuildError("npm not found: Node.js 20 with npm is needed for the npm tarball")
    _run([npm_bin, "pack", "--silent", "--pack-destination", str(outdir.resolve()), str(NPM_PACKAGE)])
    return _one(outdir, f"chatschema-{project_version()}.tgz")


def build(outdir: Path, *, isolated: bool = True, check: bool = True) -> Artifacts:
    """Build wheel, sdist and npm tarball into `outdir` (emptied first); `twine check` the Python ones."""
    version = project_version()
    shutil.rmtree(outdir, ignore_errors=True)
    outdir.mkdir(parents=True)
    _run(
        [
            sys.executable,
            "-m",
            "build",
            "--sdist",
            "--wheel",
            "--outdir",
            str(outdir),
            *([] if isolated else ["--no-isolation"]),
        ]
    )
    wheel = _one(outdir, f"chatschema-{version}-py3-none-any.whl")
    sdist = _one(outdir, f"chatschema-{version}.tar.gz")
    if check:
        _run([sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)])
    npm = pack_npm(outdir)
    _check_versions(version, wheel, sdist, npm)
    _check_license(version, wheel, sdist, npm)
    return Artifacts(version, wheel, sdist, npm)


def main(argv: list[str] | None = None) -> int:
    """`python -m release.build`: build everything, print one line per artefact."""
    parser = argparse.ArgumentParser(prog="python -m release.build", description=__doc__.splitlines()[0])
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist")
    parser.add_argument("--no-isolation", action="store_true", help="build with the installed hatchling")
    args = parser.parse_args(argv)
    try:
        built = build(args.outdir, isolated=not args.no_isolation)
    except BuildError as exc:
        sys.stderr.write(f"release.build: {exc}\n")
        return 1
    for path in (built.wheel, built.sdist, built.npm):
        sys.stdout.write(f"{path} ({path.stat().st_size:,} bytes, version {built.version})\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
