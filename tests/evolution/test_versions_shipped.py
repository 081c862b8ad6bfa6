"""Each family's version reaches every artefact: the Python package, the index, the npm package."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
from pathlib import Path

from codegen.versions import read_versions
from tests.node import PACKAGE, node_env

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = sorted(p.parent.name for p in (ROOT / "schemas").glob("*/VERSION"))


def declared() -> dict[str, str]:
    versions, problems = read_versions(ROOT, FAMILIES)
    assert not problems
    return versions


def test_every_family_declares_a_version() -> None:
    families = sorted(p.name for p in (ROOT / "schemas").iterdir() if p.is_dir())
    assert FAMILIES == families and set(declared()) == set(families)


def test_python_package_ships_the_versions() -> None:
    for family, version in declared().items():
        assert importlib.import_module(f"chatschema.{family}").VERSION == version


def test_npm_package_ships_the_versions() -> None:
    node = shutil.which("node")
    assert node is not None
    script = f"process.stdout.write(JSON.stringify(require({json.dumps(str(PACKAGE))}).versions))"
    proc = subprocess.run([node, "-e", script], capture_output=True, text=True, env=node_env(), check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == declared()


def test_a_missing_or_malformed_version_is_a_schema_problem(tmp_path: Path) -> None:
    (tmp_path / "schemas" / "a").mkdir(parents=True)
    (tmp_path / "schemas" / "b").mkdir()
    (tmp_path / "schemas" / "b" / "VERSION").write_text("1.0\n")
    versions, problems = read_versions(tmp_path, ["a", "b"])
    assert versions == {}
    assert [str(p) for p in problems] == [
        "schemas/a/VERSION: /: missing: every family declares its semantic version (e.g. 1.0.0)",
        "schemas/b/VERSION: /: '1.0' is not a MAJOR.MINOR.PATCH version",
    ]
