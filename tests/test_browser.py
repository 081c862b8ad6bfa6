"""The npm package in a real browser, under a content-security policy that forbids eval.

A small app (tests/browser/app.js) is bundled by esbuild from the package installed in a consumer
project (tests/ts_project.py), served on localhost with `Content-Security-Policy: script-src 'self'`
(tests/csp_server.py) and loaded in Debian's headless Chromium driven by playwright-core
(tests/browser/run.cjs). The page validates every example under schemas/*/examples/ and reassembles every
Letta stream vector; verdicts, violations and stream results must equal Node's (tests/node.py, which
the TypeScript and stream tests hold equal to Python's). A control page that calls `new Function`
must be refused and reported, so that a page free of violations means something.

Without Chromium the test is skipped with the reason, except in CI (CI=true), where it fails:
.ci/run installs it (`apt-get install chromium`).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from codegen.typescript import node_executable
from tests.csp_server import serve
from tests.node import ajv_verdicts, node_stream_results, stream_inputs
from tests.ts_project import esbuild, make_project, run
from tests.vectors import all_vectors

ROOT = Path(__file__).parent.parent
BROWSER = Path(__file__).parent / "browser"
CHROMIUM = "/usr/bin/chromium"
SITE_FILES = ["index.html", "csp.js", "probe.html", "probe.js"]


def chromium() -> str:
    """The system Chromium; skip (fail in CI) when it is not installed."""
    found = CHROMIUM if Path(CHROMIUM).is_file() else shutil.which("chromium")
    if found is None:
        reason = "Chromium is not installed (apt-get install chromium): the browser test needs /usr/bin/chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def build_site(root: Path) -> Path:
    """Bundle the app from the installed package; the site folder holds the pages, the bundle and data.json."""
    project = make_project(root / "app", sources=BROWSER)
    shutil.copy(ROOT / "codegen" / "stream_summary.cjs", project / "stream_summary.cjs")
    site = root / "site"
    site.mkdir()
    proc = esbuild(project, "app.js", site / "app.js")
    assert proc.returncode == 0, f"esbuild could not bundle the app from the package:\n{proc.stderr}"
    for name in SITE_FILES:
        shutil.copy(BROWSER / name, site / name)
    vectors = [{"id": v.id, "schema": v.schema_name, "payload": v.load()} for v in all_vectors()]
    data = {"vectors": vectors, "streams": stream_inputs()}
    (site / "data.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return project


def open_pages(project: Path, executable: str, base: str, pages: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Each page's result global, CSP violations and uncaught errors, from one headless Chromium."""
    request = {"executable": executable, "pages": [{"url": base + p, "global": g} for p, g in pages]}
    shutil.copy(BROWSER / "run.cjs", project / "run.cjs")
    proc = run([node_executable(), "run.cjs"], cwd=project, stdin=json.dumps({**request, "timeout_ms": 60000}))
    assert proc.returncode == 0, proc.stderr
    result: list[dict[str, Any]] = json.loads(proc.stdout)
    return result


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the control page, the app page), each as `{result, csp_violations, page_errors}`."""
    executable = chromium()
    root = tmp_path_factory.mktemp("browser")
    project = build_site(root)
    with serve(root / "site") as base:
        probe, app = open_pages(project, executable, base, [("probe.html", "__probe"), ("index.html", "__chatschema")])
    return probe, app


def test_the_policy_refuses_eval_and_the_page_reports_it(browser: tuple[dict[str, Any], dict[str, Any]]) -> None:
    probe, _ = browser
    assert probe["result"] == {"outcome": "EvalError"}
    assert [v["directive"] for v in probe["csp_violations"]] == ["script-src"]
    assert probe["csp_violations"][0]["blocked"] == "eval"


def test_the_app_runs_without_eval(browser: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, app = browser
    assert app["csp_violations"] == [], "the package needs eval (new Function) in the browser"
    assert app["page_errors"] == []
    assert "error" not in app["result"], app["result"]["error"]


def test_browser_verdicts_equal_node(browser: tuple[dict[str, Any], dict[str, Any]]) -> None:
    verdicts = browser[1]["result"].get("verdicts", {})
    node = ajv_verdicts()
    assert sorted(verdicts) == sorted(v.id for v in all_vectors())
    differ = [
        vid
        for vid, got in verdicts.items()
        if got != {"valid": node[vid]["files"], "violations": node[vid]["violations"]}
    ]
    assert differ == [], f"{len(differ)} vectors get another verdict or violations in the browser: {differ[:5]}"


def test_browser_stream_reassembly_equals_node(browser: tuple[dict[str, Any], dict[str, Any]]) -> None:
    streams = browser[1]["result"].get("streams", {})
    assert streams == node_stream_results()


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), (None, pytest.skip.Exception)])
def test_without_chromium_ci_fails_and_a_developer_skips(
    monkeypatch: pytest.MonkeyPatch, ci: str | None, outcome: type[BaseException]
) -> None:
    monkeypatch.setattr("tests.test_browser.CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setenv("PATH", "/nonexistent")
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="Chromium is not installed"):
        chromium()
