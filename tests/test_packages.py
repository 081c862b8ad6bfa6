"""The packages as a user receives them: the wheel installed into a fresh virtual environment, the npm
tarball installed into a fresh npm project with a plain `npm install <tarball>`; both then used the
way the README says. Needs PyPI and npm access (the packages' own dependencies are downloaded)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from chatschema import schemas
from chatschema.samples import SAMPLES
from release.build import ROOT, Artifacts, build, license_texts, project_version

PINS = json.loads((Path(__file__).parent.parent / "codegen" / "node" / "package.json").read_text())["dependencies"]
TYPESCRIPT = PINS["typescript"]
AJV = {name: PINS[name] for name in ("ajv", "ajv-formats")}


def run(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    assert proc.returncode in ok, f"{' '.join(cmd)} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Artifacts:
    # The installed hatchling, no build isolation: the test needs no extra download to build.
    return build(tmp_path_factory.mktemp("dist"), isolated=False)


def test_one_version_everywhere(built: Artifacts) -> None:
    assert built.version == project_version()
    assert [p.name for p in (built.wheel, built.sdist, built.npm)] == [
        f"chatschema-{built.version}-py3-none-any.whl",
        f"chatschema-{built.version}.tar.gz",
        f"chatschema-{built.version}.tgz",
    ]


def test_every_artefact_carries_the_license(built: Artifacts) -> None:
    expected = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert expected.startswith("MIT License\n\nCopyright (c) 2026 The chatschema authors\n")
    texts = license_texts(built.version, built.wheel, built.sdist, built.npm)
    assert texts == {p.name: expected for p in (built.wheel, built.sdist, built.npm)}


def test_python_metadata(built: Artifacts) -> None:
    """The wheel's METADATA: the license as an SPDX expression with its file, author, keywords."""
    with zipfile.ZipFile(built.wheel) as zf:
        metadata = zf.read(f"chatschema-{built.version}.dist-info/METADATA").decode("utf-8")
    headers = metadata.split("\n\n", 1)[0].splitlines()
    for line in ("License-Expression: MIT", "License-File: LICENSE", "Author: The chatschema authors"):
        assert line in headers
    keywords = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["keywords"]
    assert f"Keywords: {','.join(sorted(keywords))}" in headers  # hatchling sorts them


def test_wheel_in_a_fresh_virtual_environment(built: Artifacts, tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    bin_dir = env / "bin"
    run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(built.wheel)],
        tmp_path,
    )
    command = str(bin_dir / "chatschema")
    assert run([command, "--version"], tmp_path).stdout == f"chatschema {built.version}\n"
    # the shipped samples, listed and validated: each has exactly one bad line
    listing = run([command, "samples"], tmp_path).stdout.splitlines()
    assert len(listing) == len(SAMPLES)
    paths = [line.split()[1] for line in listing]
    assert all(p.startswith(str(env)) for p in paths), "the samples come from the installed wheel"
    checked = run([command, "samples", "--validate"], tmp_path, ok=(1,))
    assert len(checked.stdout.splitlines()) == len(listing)
    first_schema = listing[0].split()[0]
    one = run([command, "validate", "--schema", first_schema, paths[0]], tmp_path, ok=(1,))
    assert one.stdout.count(f"{paths[0]}:") == 1
    families = ", ".join(f"chatschema.{f}" for f in schemas.families())
    probe = (
        f"import {families}, chatschema.schemas as s, sys; "
        "assert all(m.__file__.startswith(sys.prefix) for m in (chatschema.docent, s)); "
        "print(len(s.names()))"
    )
    assert run([str(bin_dir / "python"), "-I", "-c", probe], tmp_path).stdout.strip() == str(len(schemas.names()))


CONSUMER = """\
import { parse, validate, isValid, violations, PayloadError, UnknownSchemaError, schemaNames, type docent } from "chatschema";

const good: unknown = JSON.parse('{"role": "user", "content": "hello"}');
const bad: unknown = JSON.parse('{"role": "bot", "content": "hello"}');
const message: docent.ChatMessage = parse("docent/ChatMessage", good);
const results: string[] = [message.role];
if (isValid("docent/ChatMessage", good)) results.push(good.role);
try {
  validate("docent/ChatMessage", bad);
} catch (err) {
  if (err instanceof PayloadError) results.push(err.violations[0].message);
}
try {
  violations("docent/ChatMesage" as never, good);
} catch (err) {
  if (err instanceof UnknownSchemaError) results.push(err.message);
}
results.push(String(schemaNames.length));
console.log(JSON.stringify(results));
"""


def test_npm_tarball_in_a_fresh_project(built: Artifacts, tmp_path: Path) -> None:
    npm = shutil.which("npm")
    node = shutil.which("node")
    assert npm is not None and node is not None, "Node.js 20 with npm is needed"
    project = tmp_path / "consumer"
    project.mkdir()
    quiet = ["--no-audit", "--no-fund", "--loglevel=error"]
    run([npm, "init", "-y"], project)
    run([npm, "install", *quiet, str(built.npm)], project)
    run([npm, "install", *quiet, f"typescript@{TYPESCRIPT}"], project)
    installed = json.loads((project / "node_modules" / "chatschema" / "package.json").read_text())
    assert installed["version"] == built.version
    # ajv is an optional peer: validation needs none of it, only chatschema/ajv does
    assert not (project / "node_modules" / "ajv").exists()
    assert "Cannot find package 'ajv'" in run([node, "-e", 'require("chatschema/ajv")'], project, ok=(1,)).stderr
    (project / "consumer.ts").write_text(CONSUMER, encoding="utf-8")
    tsc = str(project / "node_modules" / "typescript" / "bin" / "tsc")
    compiled = run(
        [node, tsc, "--strict", "--module", "commonjs", "--target", "es2022", "--outDir", "out", "consumer.ts"],
        project,
        ok=(0, 1, 2),
    )
    assert compiled.returncode == 0, compiled.stdout
    out = json.loads(run([node, "out/consumer.js"], project).stdout)
    assert out == [
        "user",
        "user",
        "unknown role 'bot', expected one of 'system', 'user', 'assistant', 'tool'",
        "unknown schema 'docent/ChatMesage'; did you mean docent/ChatMessage, docent/DocentChatMessage, docent/SystemMessage?",
        str(len(schemas.names())),
    ]
    # and a type error is caught by tsc --strict against the installed declarations
    (project / "wrong.ts").write_text(
        'import type { docent } from "chatschema";\nconst m: docent.UserMessage = { role: "bot", content: 1 };\nexport { m };\n',
        encoding="utf-8",
    )
    wrong = run([node, tsc, "--strict", "--noEmit", "wrong.ts"], project, ok=(1, 2))
    assert "wrong.ts" in wrong.stdout
    # with the peers installed (at the pins the package is tested with), createAjv works, and a
    # later plain install keeps them and the package
    run([npm, "install", *quiet, *(f"{name}@{version}" for name, version in AJV.items())], project)
    run([npm, "install", *quiet], project)
    probe = 'const a = require("chatschema/ajv").createAjv(); console.log(a.validate({type: "string"}, 1));'
    assert run([node, "-e", probe], project).stdout == "false\n"
