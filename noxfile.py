"""Developer entry points. `nox -s generate` regenerates every generated file; `nox -s tests` runs everything CI runs.

Sessions that run the package install it editable: an edit of the hand-written runtime (chatschema/, npm/esm/)
is seen at once, by the tests and by the `chatschema` command, with no regeneration and no reinstall.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["tests"]

# Real systems we check our schemas against; installed without their (heavy) dependencies.
REAL_SYSTEMS = ["docent==0.1.88", "bridgic-core==0.3.0"]


def install_pinned(session: nox.Session, requirements: str) -> None:
    """`pip install -r requirements` (a file of exact pins), skipped when this environment holds
    that very file's pins: pip takes about 0.6 s to find nothing to do, a third of a regeneration
    after a schema edit. The stamp is written only once pip lists every pin as installed."""
    location = getattr(session.virtualenv, "location", None)
    stamp = Path(location, ".chatschema-installed") if location else None
    wanted = f"{requirements} {hashlib.sha256(Path(requirements).read_bytes()).hexdigest()}"
    if stamp is not None and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return
    session.install("-r", requirements)
    if stamp is None:
        return
    frozen = session.run("python", "-m", "pip", "freeze", silent=True, log=False)
    installed = {_pin(line) for line in str(frozen).splitlines()}
    pins = {_pin(line.split("#")[0]) for line in Path(requirements).read_text(encoding="utf-8").splitlines()}
    if pins - {""} <= installed:  # not so under `nox --no-install`, which skips the install above
        stamp.write_text(wanted, encoding="utf-8")


def _pin(line: str) -> str:
    """`name==version` with the name normalized as pip lists it; "" for a line that is no pin."""
    name, sep, version = line.strip().partition("==")
    return f"{name.strip().lower().replace('_', '-')}=={version.strip()}" if sep else ""


@nox.session
def generate(session: nox.Session) -> None:
    """Regenerate every generated file (in chatschema/, npm/ and generated/) from schemas/."""
    install_pinned(session, "requirements/codegen.txt")
    session.run("python", "-m", "codegen", "generate", *session.posargs)


@nox.session
def check(session: nox.Session) -> None:
    """Fail, with a diff, if a generated file is not what schemas/ + codegen/ produce."""
    install_pinned(session, "requirements/codegen.txt")
    session.run("python", "-m", "codegen", "generate", "--check")


@nox.session
def lint(session: nox.Session) -> None:
    """Check the schemas against the project's conventions."""
    install_pinned(session, "requirements/codegen.txt")
    session.run("python", "-m", "codegen", "lint")


@nox.session
def tests(session: nox.Session) -> None:
    """The whole suite: vectors, round trips, drift, schema lint, ruff, mypy, the real systems."""
    session.install("-r", "requirements/test.txt")
    session.install("--no-deps", *REAL_SYSTEMS)
    session.install("--no-deps", "-e", ".")
    # Node tooling for the TypeScript tests (ajv, json-schema-to-typescript, tsc): npm ci in codegen/node.
    session.run("python", "-m", "codegen", "setup-node")
    # CI must finish within 20 minutes on two cores: a worker per core, a test file's tests on one worker
    # (its module fixtures, a built package or a harness, are built once), the slowest files first
    # (tests/conftest.py); the slowest 25 tests are named
    default = ["--numprocesses=2", "--dist=loadfile", "--no-loadscope-reorder", "--durations=25"]
    session.run("pytest", *(session.posargs or default))


@nox.session
def docs_slow(session: nox.Session) -> None:
    """The doc blocks marked `<!-- doc-test: session docs_slow -->` (tests/doc_commands.py), which the
    normal suite reports as deferred: they download from PyPI and npm, run nox sessions, Spark or
    Chromium, or take minutes. Builds dist/ first (the install blocks install from it)."""
    session.install("-r", "requirements/test.txt", "pyspark==4.3.0", "nox==2026.10.20")  # blocks run `python3 -m nox`
    session.install("--no-deps", *REAL_SYSTEMS)
    session.install("--no-deps", "-e", ".")
    session.run("python", "-m", "codegen", "setup-node")
    session.run("python", "-m", "release.build", "--outdir", "dist")
    session.run(
        "pytest",
        "-q",
        "-rs",
        "tests/test_doc_commands.py",
        *session.posargs,
        env={"CHATSCHEMA_DOC_SESSION": "docs_slow"},
    )


@nox.session
def build(session: nox.Session) -> None:
    """The packages as users receive them, in dist/: wheel + sdist (`twine check`ed) and the npm tarball
    (`npm pack`), all with pyproject.toml's version (release/build.py)."""
    session.install("-r", "requirements/build.txt")
    session.run("python", "-m", "release.build", "--outdir", "dist", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Validation benchmark: messages/s of every validator, `chatschema validate` on 1,000,000 messages, Dask,
    stream reassembly, `chatschema convert` against `validate`, the default `--jobs` against one and two
    processes, the npm package's `violations()` against ajv's all-errors validator on invalid payloads, and
    the schema-edit loop (bench_codegen's benchmark, 3 rounds).

    Arguments go to bench/run.py, e.g. `nox -s bench -- --count 5000 --e2e-count 200000`.
    """
    session.install("-r", "requirements/test.txt", "nox==2026.10.20")  # nox: the README's regenerate command, timed
    session.install("--no-deps", "-e", ".")
    session.run("python", "bench/run.py", *session.posargs)
    session.run("python", "bench/streams.py")
    session.run("python", "bench/convert.py")
    session.run("python", "bench/long_lines.py")
    session.run("python", "bench/jobs.py")
    session.run("python", "-m", "codegen", "setup-node")
    session.run("python", "bench/diff.py")
    session.run("python", "bench/violations.py")
    session.run("python", "bench/codegen.py", "--repeat", "3")


@nox.session
def bench_codegen(session: nox.Session) -> None:
    """Schema-edit loop benchmark: generate (clean, warm, after a schema edit) against one plain
    datamodel-codegen call, as ratios from one run. `nox -s bench_codegen -- --repeat 9`."""
    session.install("-r", "requirements/codegen.txt", "nox==2026.10.20")  # nox: the README's command is timed whole
    session.run("python", "-m", "codegen", "setup-node")
    session.run("python", "bench/codegen.py", *session.posargs)


@nox.session
def bench_ts(session: nox.Session) -> None:
    """npm package benchmark: load time, first validation, isValid messages/s in Node and headless Chromium,
    bundle size per family, for a baseline commit's package beside today's. `nox -s bench_ts -- --baseline REV`."""
    session.install("-r", "requirements/test.txt")
    session.run("python", "-m", "codegen", "setup-node")
    session.run("python", "bench/ts.py", *session.posargs)


@nox.session
def diff(session: nox.Session) -> None:
    """What the schema edits since BASE break, for whom, with witness payloads: `nox -s diff -- BASE [--check-version]`.

    BASE is a git revision (default HEAD) or `release` (each family's previous release).
    """
    session.install("-r", "requirements/evolution.txt")  # the gate's own pins, not the suite's
    session.install("--no-deps", "-e", ".")
    session.run("python", "-m", "release.evolution", *session.posargs)


@nox.session
def evolution_catalogue(session: nox.Session) -> None:
    """Every edit of the real schemas in the evolution gate's catalogue (tests/evolution/real_edits.py),
    the slow ones too: the suite runs the edits not marked slow. Two to three minutes on 2 cores.
    """
    session.install("-r", "requirements/test.txt")
    session.install("--no-deps", "-e", ".")
    session.run(
        "pytest", "-q", "tests/evolution/test_real_edits.py", *session.posargs, env={"CHATSCHEMA_REAL_EDITS": "all"}
    )


@nox.session
def conformance(session: nox.Session) -> None:
    """Generated instances, mutations and the agreement report, full budget (~1,000+ cases per family).

    Then the same on the test family `vocab` (tests/conformance/fixtures/vocab/), which uses every keyword
    of the validation vocabulary: in a scratch copy of the repository with the family generated
    (tests/conformance/vocab.py). `nox -s conformance -- --only letta/ToolCallMessage` replays one
    type's cases (seeds are fixed; `--only vocab` the test family's); `-- --small` runs the test suite's
    budget; `-- --seed N` draws other cases; `-- --seeds N` runs N seeds; `-- --jobs N` judges types in N
    processes (default: one per core). Last, 3,000 generated messages
    per family converted into Docent agent runs (tests/conformance/convert.py).
    """
    session.install("-r", "requirements/test.txt")
    session.install("--no-deps", *REAL_SYSTEMS)
    session.install("--no-deps", "-e", ".")
    session.run("python", "-m", "codegen", "setup-node")  # the test family's scratch copy is generated
    session.run("python", "-m", "tests.conformance", *session.posargs)
    session.run("python", "-m", "tests.conformance.vocab", *session.posargs)
    session.run("python", "-m", "tests.conformance.convert")  # generated conversations into Docent runs


@nox.session
def fuzz(session: nox.Session) -> None:
    """The hostile-input fuzz test with many more examples than the suite runs (tests/hostile/test_fuzz.py),
    and the two Letta stream readers compared on 25 cuts of every example variant, not 2."""
    session.install("-r", "requirements/test.txt")
    session.install("--no-deps", "-e", ".")
    session.run("python", "-m", "codegen", "setup-node")
    session.run(
        "pytest",
        "-q",
        "tests/hostile/test_fuzz.py",
        "tests/test_stream_differential.py",
        *session.posargs,
        env={"HYPOTHESIS_PROFILE": "fuzz", "CHATSCHEMA_STREAM_CUTS": "25"},
    )


@nox.session
def mutation(session: nox.Session) -> None:
    """Mutation testing of the hand-written runtime (both packages); prints the score by behaviour per module.

    CPU-heavy: a baseline run of the tests, then a test run per mutant. `nox -s mutation -- --max 0`
    is the full run (every mutant of every runtime module); `-- --module chatschema/letta/stream.py
    --tests tests/test_letta_stream.py` one module with some tests (docs/testing.md).
    """
    session.install("-r", "requirements/test.txt")
    session.install("--no-deps", *REAL_SYSTEMS)  # the baseline runs the suite's tests, which import them
    session.install("--no-deps", "-e", ".")
    session.run("python", "-m", "codegen", "setup-node")
    session.run("python", "-m", "tests.mutation", *session.posargs)
