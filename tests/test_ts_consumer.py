"""The npm package as a TypeScript consumer uses it: tsc --strict, nodenext and bundler resolution, ESM and CJS.

tests/consumer/ is a small project (package.json `"type": "module"`, .mts ES modules, .cts CommonJS
modules) laid out with the generated package installed in node_modules (tests/ts_project.py).
Under `strict`, `verbatimModuleSyntax` and `exactOptionalPropertyTypes` it must compile with
`module`/`moduleResolution` `nodenext` and, separately, `preserve`/`bundler`: named, namespace and
family imports, per-family entry points, narrowing on `message_type`, `role` and `type`. The
package's own type tests (tests/node/types/*.ts: `validate` as an assertion function, `isValid`'s
and the per-type guards' false branches, `parse`, the Letta SDK helpers over the SDK's real types)
are compiled here too, under these stricter settings. `// @ts-expect-error` lines fail the compile
(TS2578) if a type gets looser. The nodenext output then runs in Node as ESM (out/esm.mjs) and as
CommonJS (out/cjs.cjs): an import that type-checks but does not exist at run time
(`import { letta } from "chatschema"`, which crashed before) fails here.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.node import HERE
from tests.ts_project import make_project, node_json, tsc

# What esm.mts and cjs.cts print (src/report.cts): the same from both module systems.
EXPECTED: dict[str, Any] = {
    "named": True,
    "valid": True,
    "invalid": False,
    "badDate": False,
    "thrown": ["$"],
    "violations": ["$.content"],
    "missing": [
        {
            "path": "$",
            "message": '"content" is a required property',
            "keyword": "required",
            "instancePath": "/content",
            "schemaPath": "#/$defs/UserMessage/required",
            "params": {"missingProperty": "content"},
        }
    ],
    "family": True,
    "entry": [False, True],
    "stream": "end_turn",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The consumer project; its sources include the package's type tests (tests/node/types/*.ts)."""
    project = make_project(tmp_path_factory.mktemp("consumer"))
    # letta_code.ts needs Letta Code's declarations, whose SDK wants lib esnext: test_ts_package compiles it
    type_tests = sorted(p for p in (HERE / "types").glob("*.ts") if p.name != "letta_code.ts")
    assert {"guards.ts", "sdk.ts"} <= {p.name for p in type_tests}
    for path in type_tests:
        shutil.copy(path, project / "src" / path.name)
    return project


@pytest.fixture(scope="module")
def nodenext(project: Path) -> str:
    """The nodenext build's errors (tsc emits out/ even when there are some)."""
    return tsc(project, "-p", "tsconfig.nodenext.json")


def test_compiles_with_nodenext_resolution(nodenext: str) -> None:
    assert nodenext == ""


def test_compiles_with_bundler_resolution(project: Path) -> None:
    assert tsc(project, "-p", "tsconfig.bundler.json") == ""


@pytest.mark.parametrize("script", ["out/esm.mjs", "out/cjs.cjs"])
def test_compiled_output_runs_in_node(project: Path, nodenext: str, script: str) -> None:
    assert (project / script).is_file(), nodenext
    assert node_json(project, script) == EXPECTED


def test_a_looser_type_fails_the_compile(project: Path) -> None:
    """The harness: an `@ts-expect-error` whose error is gone is itself an error, in this project's setup."""
    (project / "loose.mts").write_text(
        'import type { docent } from "chatschema";\n'
        "// @ts-expect-error: nothing wrong here\n"
        'export const ok: docent.ChatMessage = { role: "user", content: "hi" };\n',
        encoding="utf-8",
    )
    (project / "tsconfig.loose.json").write_text(
        '{"extends": "./tsconfig.bundler.json", "include": [], "files": ["loose.mts"]}', encoding="utf-8"
    )
    assert "loose.mts(2,1): error TS2578" in tsc(project, "-p", "tsconfig.loose.json")
