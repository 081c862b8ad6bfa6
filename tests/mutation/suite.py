"""What a default run covers: every hand-written runtime module, and every test file that uses the runtime.

Both lists are derived, so a new module or test file is in the next run: the modules from
codegen.layout (the hand-written files of both packages), the tests from `tests/**/test_*.py`
less the files below, each with the reason it cannot kill a runtime mutant or is left out.
tests/test_mutation_runner.py checks that the exclusions still exist and do not run the runtime.
"""

from __future__ import annotations

import ast
from pathlib import Path

from codegen.layout import FAMILY_RUNTIMES, runtime_files

# Test files that only test the generator or the repository, never the runtime's behaviour.
NOT_RUNTIME: dict[str, str] = {
    "tests/test_codegen.py": "the generator: drift check, regeneration, schema lint errors",
    "tests/test_layout.py": "where the generator reads and writes: the runtime's files, not what they do",
    "tests/test_lint_portability.py": "the generator's lint rules",
    "tests/test_model.py": "the generator's resolved model and keyword table",
    "tests/test_docs.py": "the generated reference docs",
    "tests/test_static.py": "ruff and mypy over the code: its text, not its behaviour",
    "tests/test_mutation_runner.py": "this runner",
    "tests/evolution/test_api_diff.py": "the release tooling's diff of two versions' generated API",
    "tests/evolution/test_gate.py": "the release tooling's version gate",
    "tests/evolution/test_history.py": "the release tooling over this repository's schema commits",
}
# Test files that do run the runtime, left out with a reason.
LEFT_OUT: dict[str, str] = {
    "tests/test_packages.py": "builds the wheel and the npm tarball and installs them from PyPI and npm into fresh "
    "environments: needs the network, and minutes per run; the runtime they hold is what the other tests run in place",
    "tests/test_npm_tarball.py": "packs the npm package and installs it with linters and TypeScript versions from npm "
    "into fresh projects: needs the network; the runtime it holds is what the other tests run in place",
    "tests/test_precommit.py": "pre-commit installs the hook from PyPI into an environment of its own: needs the "
    "network; the command it runs is tested in place by tests/test_cli.py",
}
# A test file that starts Node on the npm package imports one of these helpers, itself or through
# another module of tests/ (tests/stream_differential.py, tests/json_schema_suite/judges.py, ...).
_NODE_HELPERS = frozenset({"tests.node", "tests.ts_project"})


def runtime_modules() -> list[str]:
    """Every hand-written module of both packages (every family's), by path from the repository root:
    the `.py` files under chatschema/ and the ES modules under npm/esm/. None is excluded."""
    return sorted(
        rel
        for rel in runtime_files(FAMILY_RUNTIMES)
        if (rel.startswith("chatschema/") and rel.endswith(".py"))
        or (rel.startswith("npm/esm/") and rel.endswith(".js"))
    )


def suite_files(root: Path) -> list[str]:
    """Every test file of the suite, by path from `root`."""
    return sorted(p.relative_to(root).as_posix() for p in (root / "tests").rglob("test_*.py"))


def runtime_tests(root: Path, node_only: bool = False) -> list[str]:
    """The test files that use the runtime (`node_only`: those that start Node on the npm package)."""
    found = [t for t in suite_files(root) if t not in NOT_RUNTIME and t not in LEFT_OUT]
    if node_only:
        found = [t for t in found if _starts_node(root, _module_name(t), set())]
    return found


def _module_name(rel: str) -> str:
    return rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _module_file(root: Path, name: str) -> Path | None:
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _tests_imports(source: str) -> set[str]:
    """The modules of tests/ that `source` imports (`from tests.x import y` may name module `tests.x.y`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            if module.split(".")[0] == "tests":
                found.update([module, *(f"{module}.{alias.name}" for alias in node.names)])
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "tests")
    return found


def _starts_node(root: Path, name: str, seen: set[str]) -> bool:
    """Whether module `name` of tests/ imports a Node helper, itself or through the helper modules it
    imports (a test file that borrows another test file's fixtures does not run that file's tests)."""
    if name in _NODE_HELPERS:
        return True
    path = _module_file(root, name)
    if name in seen or path is None or (seen and path.name.startswith("test_")):
        return False
    seen.add(name)
    return any(_starts_node(root, imported, seen) for imported in _tests_imports(path.read_text(encoding="utf-8")))
