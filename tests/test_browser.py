"""The npm package in a real browser, under a content-security policy that forbids eval.

A small app (tests/browser/app.js) is bundled by esbuild from the package installed in a consumer
project (tests/ts_project.py), served on localhost with `Content-Security-Policy: script-src 'self'`
(tests/csp_server.py) and loaded in Debian's headless Chromium driven by playwright-core
(tests/browser/run.cjs). The page validates every example under schemas/*/examples/ and reassembles every
Letta stream vector; verdicts, violations and stream results must equal Node's (tests/node.py, which
the TypeScript and stream tests hold equal to Python's). A control page that calls `new Function`
must be refused and reported, so that a page free of violations means something.

The page also `fetch`es every Letta stream vector from the server, sent in HTTP chunks cut at hostile
places (inside UTF-8 characters, after each CR, inside `data:`), flushed with a pause between, and
feeds `response.body` to `reassembleSseStream`: its events must be Node's (tests/node.py), and where
Node yields a message before the body's last two bytes, the server holds them back until the page
has a message (which it could not have if the reader waited for the end).

Without Chromium the test is skipped with the reason, except in CI (CI=true), where it fails:
.ci/run installs it (`apt-get install chromium`).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from codegen.typescript import node_executable
from tests.csp_server import SseStreams, serve
from tests.node import ajv_verdicts, node_stream_events, node_stream_results, stream_inputs
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


ABORTED = "aborted-background_parallel_calls"  # an example fetched again, to abort at its first message
RAW = ["unicode_line_separators_in_json", "whatwg_line_endings_and_fields"]  # read chunk by chunk too


def hostile_pieces(raw: bytes) -> list[bytes]:
    """`raw` cut inside each UTF-8 character, after each CR, inside each `data:` (as
    tests/node/stream_async.cjs cuts it), and before its last two bytes."""
    cuts = {i for i in range(1, len(raw)) if raw[i] & 0xC0 == 0x80 or raw[i - 1] == 0x0D}
    for at in re.finditer(rb"data:", raw):
        cuts |= {at.start() + 2, at.start() + 4}
    bounds = [0, *sorted(c for c in cuts | {len(raw) - 2} if 0 < c < len(raw)), len(raw)]
    return [raw[a:b] for a, b in itertools.pairwise(bounds)]


def sse_streams() -> tuple[SseStreams, list[dict[str, Any]]]:
    """What the server sends at /sse/<name>, and what the page fetches: every stream example, held
    where Node yields a message before the source's last chunk."""
    events = node_stream_events()["vectors"]
    pieces: dict[str, list[bytes]] = {}
    held = {ABORTED}
    fetched = []
    for vector in stream_inputs():
        name = vector["name"]
        pieces[name] = hostile_pieces(vector["sse"].encode("utf-8"))
        early = events[name]["early"]["ReadableStream"]
        if early:
            held.add(name)
        fetched.append({"name": name, "options": vector["options"], "held": early})
    pieces[ABORTED] = pieces[ABORTED.split("-", 1)[1]]
    return SseStreams(pieces, held), fetched


def build_site(root: Path, fetched: list[dict[str, Any]]) -> Path:
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
    data = {"vectors": vectors, "streams": stream_inputs(), "fetched": fetched, "abort": ABORTED, "raw": RAW}
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


Browser = tuple[dict[str, Any], dict[str, Any], SseStreams]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    """(the control page, the app page), each as `{result, csp_violations, page_errors}`, and the
    server's streams (which held bodies were sent without a release)."""
    executable = chromium()
    root = tmp_path_factory.mktemp("browser")
    streams, fetched = sse_streams()
    project = build_site(root, fetched)
    with serve(root / "site", streams=streams) as base:
        probe, app = open_pages(project, executable, base, [("probe.html", "__probe"), ("index.html", "__chatschema")])
    return probe, app, streams


def test_the_policy_refuses_eval_and_the_page_reports_it(browser: Browser) -> None:
    probe, _, _ = browser
    assert probe["result"] == {"outcome": "EvalError"}
    assert [v["directive"] for v in probe["csp_violations"]] == ["script-src"]
    assert probe["csp_violations"][0]["blocked"] == "eval"


def test_the_app_runs_without_eval(browser: Browser) -> None:
    _, app, _ = browser
    assert app["csp_violations"] == [], "the package needs eval (new Function) in the browser"
    assert app["page_errors"] == []
    assert "error" not in app["result"], app["result"]["error"]


def test_browser_verdicts_equal_node(browser: Browser) -> None:
    verdicts = browser[1]["result"].get("verdicts", {})
    node = ajv_verdicts()
    assert sorted(verdicts) == sorted(v.id for v in all_vectors())
    differ = [
        vid
        for vid, got in verdicts.items()
        if got != {"valid": node[vid]["files"], "violations": node[vid]["violations"]}
    ]
    assert differ == [], f"{len(differ)} vectors get another verdict or violations in the browser: {differ[:5]}"


def test_browser_stream_reassembly_equals_node(browser: Browser) -> None:
    streams = browser[1]["result"].get("streams", {})
    assert streams == node_stream_results()


def test_browser_reads_fetched_streams_as_they_arrive_as_node_does(browser: Browser) -> None:
    _, app, streams = browser
    fetched = app["result"].get("fetched", {})
    events = node_stream_events()["vectors"]
    assert sorted(fetched) == sorted(events)
    differ = [name for name, got in fetched.items() if got["log"] != events[name]["log"]]
    assert differ == [], f"events in the browser other than Node's: {differ}"
    assert {name for name, got in fetched.items() if got["early"]} == streams.held - {ABORTED}
    assert streams.timed_out == [], "held bodies the page never released: no message before their end"
    assert len(streams.held) >= 20


def test_browser_abort_throws_an_abort_error_as_fetch_does(browser: Browser) -> None:
    aborted = browser[1]["result"].get("aborted")
    assert aborted == {"seen": ["message"], "error": {"name": "AbortError", "DOMException": True}}


def test_the_server_delivers_bodies_in_pieces(browser: Browser) -> None:
    """Not which pieces (the network may join some), but never the whole body at once."""
    chunks = browser[1]["result"].get("chunks", {})
    for name in RAW:
        assert sum(chunks[name]) == sum(map(len, browser[2].pieces[name]))
        assert len(chunks[name]) >= 2, chunks


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
