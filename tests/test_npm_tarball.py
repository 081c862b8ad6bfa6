"""The npm tarball (`npm pack` of npm/) as a user installs it into a fresh project: its package.json
against pyproject.toml, publint and @arethetypeswrong/cli (attw) on the tarball with nothing to
report, the consumer project (tests/consumer/) compiled by the oldest TypeScript the package states
(and not by the one before it), and one class per error for ES modules and CommonJS in one process.

Needs npm access: the linters and the TypeScript versions, pinned exactly here, are downloaded into
scratch projects (each install bounded by INSTALL_TIMEOUT); the package itself installs offline (its
dependencies are optional peers)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import tomllib
from pathlib import Path
from typing import Any

import pytest

from codegen.typescript import MIN_TYPESCRIPT, NODE_ENGINES, project_fields
from release.build import ROOT, pack_npm
from tests.node import HERE
from tests.test_ts_consumer import EXPECTED
from tests.ts_project import CONSUMER

PUBLINT = "0.3.25"
ATTW = "0.18.5"
# The last TypeScript before MIN_TYPESCRIPT's minor: it must fail on the package's declarations.
TOO_OLD_TYPESCRIPT = "4.9.5"
INSTALL_TIMEOUT = 300
QUIET = ["--no-audit", "--no-fund", "--loglevel=error"]


def run(cmd: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run a command, without colours (CI=true turns them on in Node tools); its result whatever the
    exit status (the caller asserts)."""
    env = {**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False, env=env)


def npm_install(project: Path, *specs: str) -> None:
    """`npm install` into a project folder (created with a minimal package.json if it has none)."""
    npm = shutil.which("npm")
    assert npm is not None, "Node.js 20 with npm is needed"
    project.mkdir(parents=True, exist_ok=True)
    if not (project / "package.json").exists():
        (project / "package.json").write_text('{"name": "scratch", "private": true}', encoding="utf-8")
    proc = run([npm, "install", *QUIET, *specs], project, timeout=INSTALL_TIMEOUT)
    assert proc.returncode == 0, f"npm install {' '.join(specs)}:\n{proc.stdout}{proc.stderr}"


def node() -> str:
    """The `node` on PATH."""
    found = shutil.which("node")
    assert found is not None, "Node.js 20 is needed"
    return found


@pytest.fixture(scope="module")
def tarball(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The packed npm package."""
    return pack_npm(tmp_path_factory.mktemp("pack"))


@pytest.fixture(scope="module")
def consumer(tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/consumer/ with the package's type tests (tests/node/types/guards.ts), the tarball and
    the oldest TypeScript installed, and the one before it beside them under another name."""
    project = tmp_path_factory.mktemp("consumer")
    shutil.copytree(CONSUMER, project, dirs_exist_ok=True)
    shutil.copy(HERE / "types" / "guards.ts", project / "src" / "guards.ts")
    npm_install(
        project, str(tarball), f"typescript@{MIN_TYPESCRIPT}", f"typescript-old@npm:typescript@{TOO_OLD_TYPESCRIPT}"
    )
    return project


def manifest(tarball: Path) -> dict[str, Any]:
    """The tarball's package.json."""
    with tarfile.open(tarball) as tf:
        member = tf.extractfile("package/package.json")
        assert member is not None
        data: dict[str, Any] = json.loads(member.read())
    return data


def test_package_json_says_what_pyproject_says(tarball: Path) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    got = manifest(tarball)
    assert (got["version"], got["license"]) == (project["version"], project["license"])
    assert got["author"] == ", ".join(a["name"] for a in project["authors"])
    assert got["keywords"] == [*project["keywords"], "typescript"]
    assert got["description"][0].isupper() and "codegen" not in got["description"]
    assert got["type"] == "commonjs" and got["engines"] == {"node": NODE_ENGINES}
    # no link is made up: package.json has the ones pyproject.toml has
    urls = project.get("urls", {})
    assert {"homepage": "Homepage" in urls, "repository": "Repository" in urls, "bugs": "Issues" in urls} == {
        field: field in got for field in ("homepage", "repository", "bugs")
    }


def test_links_come_from_pyproject_urls() -> None:
    """Once pyproject.toml has [project.urls], package.json gets the same links (none is invented)."""
    project = {"license": "MIT", "authors": [{"name": "A"}, {"name": "B"}], "keywords": ["k"]}
    assert project_fields(project) == {"license": "MIT", "author": "A, B", "keywords": ["k", "typescript"]}
    urls = {"Homepage": "https://h.test", "Repository": "https://r.test/x", "Issues": "https://r.test/x/issues"}
    assert project_fields({**project, "urls": urls}) == {
        "license": "MIT",
        "author": "A, B",
        "keywords": ["k", "typescript"],
        "homepage": "https://h.test",
        "repository": {"type": "git", "url": "git+https://r.test/x"},
        "bugs": "https://r.test/x/issues",
    }


def test_only_optional_peers(tarball: Path) -> None:
    """Nothing is installed with the package: ajv only for chatschema/ajv, TypeScript only for types."""
    got = manifest(tarball)
    assert "dependencies" not in got
    assert got["peerDependencies"] == {"ajv": "^8.20.0", "ajv-formats": "^3.0.1", "typescript": f">={MIN_TYPESCRIPT}"}
    assert all(got["peerDependenciesMeta"][name] == {"optional": True} for name in got["peerDependencies"])


@pytest.fixture(scope="module")
def linters(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch project with publint and attw."""
    tools = tmp_path_factory.mktemp("linters")
    npm_install(tools, f"publint@{PUBLINT}", f"@arethetypeswrong/cli@{ATTW}")
    return tools / "node_modules" / ".bin"


def test_publint_has_nothing_to_say(tarball: Path, linters: Path) -> None:
    """No error, warning or suggestion (--strict makes a warning fail; a suggestion is only printed)."""
    proc = run([str(linters / "publint"), "run", str(tarball), "--strict"], tarball.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.rstrip().endswith("All good!"), proc.stdout


def test_attw_finds_no_problem(tarball: Path, linters: Path) -> None:
    """Every entry point resolves to matching JavaScript and types under node10, node16 (from ESM
    and from CommonJS) and bundler resolution."""
    proc = run([str(linters / "attw"), str(tarball), "--format", "json"], tarball.parent)
    report = json.loads(proc.stdout)
    assert report["problems"] == {}, json.dumps(report["problems"], indent=1)
    assert proc.returncode == 0, proc.stderr
    resolved = report["analysis"]["entrypoints"]["./stream"]["resolutions"]
    assert set(resolved) == {"node10", "node16-cjs", "node16-esm", "bundler"}


def test_oldest_typescript_compiles_the_consumer(consumer: Path) -> None:
    """MIN_TYPESCRIPT compiles tests/consumer/ (ES modules and CommonJS, nodenext) with the type
    tests, and its output runs as the newest TypeScript's does (tests/test_ts_consumer.py)."""
    tsc = str(consumer / "node_modules" / "typescript" / "bin" / "tsc")
    assert run([node(), tsc, "--version"], consumer).stdout.split()[-1] == MIN_TYPESCRIPT
    proc = run([node(), tsc, "-p", "tsconfig.nodenext.json"], consumer)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for script in ("out/esm.mjs", "out/cjs.cjs"):
        ran = run([node(), script], consumer)
        assert ran.returncode == 0, ran.stderr
        assert json.loads(ran.stdout) == EXPECTED


def test_typescript_before_the_oldest_fails(consumer: Path) -> None:
    """The minimum is tight: 4.9 cannot read the declarations (`export type *` is TypeScript 5.0's)."""
    tsc = str(consumer / "node_modules" / "typescript-old" / "bin" / "tsc")
    proc = run([node(), tsc, "-p", "tsconfig.nodenext.json", "--noEmit"], consumer)
    assert "node_modules/chatschema/esm/letta.d.ts(6,1): error TS1383" in proc.stdout, proc.stdout


def _dual(consumer: Path) -> dict[str, Any]:
    shutil.copy(HERE / "dual_package.mjs", consumer / "dual_package.mjs")
    proc = run([node(), "dual_package.mjs"], consumer)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def test_one_class_for_both_module_formats(consumer: Path) -> None:
    """Loaded through `import` and `require` in one process, every entry point exports the same class
    objects, and an error thrown by either format is `instanceof` the other's class."""
    got = _dual(consumer)
    assert got["classes"] and all(got["classes"].values()), got["classes"]
    assert {"chatschema:PayloadError", "chatschema/stream:StreamError", "chatschema:UnknownSchemaError"} <= set(
        got["classes"]
    )
    assert got["instanceof"] == {
        name: [True, True] for name in ("PayloadError", "letta PayloadError", "UnknownSchemaError", "StreamError")
    }


def test_a_second_class_would_be_seen(consumer: Path) -> None:
    """The harness: a CommonJS entry with its own copy of a class (as an esbuild build of core.js
    would have) fails both checks."""
    core = consumer / "node_modules" / "chatschema" / "core.js"
    original = core.read_text(encoding="utf-8")
    core.write_text(
        'const esm = require("./esm/core.js");\n'
        "module.exports = { ...esm, PayloadError: class PayloadError extends Error {} };\n",
        encoding="utf-8",
    )
    try:
        got = _dual(consumer)
    finally:
        core.write_text(original, encoding="utf-8")
    assert got["classes"]["chatschema/letta:PayloadError"] is False
    # the runtime throws the ES module's class, which is not the CommonJS entry's copy
    assert got["instanceof"]["PayloadError"] == [True, False]
