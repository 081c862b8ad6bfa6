"""What fails the gate: `--fail-on` as a set, `--mode` and `--transitive`, and a family's
schemas/<family>/compatibility.json under the command line (release/evolution/gate.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from release.evolution.gate import (
    API,
    NARROWED,
    UNKNOWN,
    WIDENED,
    FamilyConfig,
    GateError,
    parse_fail_on,
    read_config,
    resolve,
)
from tests.codegen_cli import run_evolution

from .schemasets import family_types, write
from .test_gate import NARROWER, V1, WIDER, commit, repo

FAST = ("--seconds", "20", "--candidates", "400")


def evolution(root: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    """Run the diff with --format json: exit status, the report, stderr."""
    proc = run_evolution(root, *args, "--format", "json", *FAST)
    return proc.returncode, json.loads(proc.stdout) if proc.stdout else {}, proc.stderr


def config(root: Path, data: Any) -> None:
    (root / "schemas" / "evo" / "compatibility.json").write_text(json.dumps(data), encoding="utf-8")


def test_fail_on_is_a_set_comma_separated_or_repeated() -> None:
    assert parse_fail_on(["narrowed,api"], "x") == {NARROWED, API}
    assert parse_fail_on(["widened", "unknown"], "x") == {WIDENED, UNKNOWN}
    assert parse_fail_on(["any"], "x") == {NARROWED, WIDENED, API, UNKNOWN}
    with pytest.raises(GateError, match="'sideways' is not one of narrowed, widened, api, unknown, any"):
        parse_fail_on(["narrowed,sideways"], "x")


def test_mode_and_fail_on_combine_and_the_command_line_wins() -> None:
    assert resolve(None, None, None, None).failing == {NARROWED, API, UNKNOWN}  # the default fails closed
    assert resolve("forward", None, None, None).failing == {WIDENED, API, UNKNOWN}
    assert resolve("full", frozenset({API}), None, None).failing == {NARROWED, WIDENED, API}
    assert resolve(None, frozenset({NARROWED}), None, None).failing == {NARROWED}  # no api, no unknown
    from_file = FamilyConfig("forward", frozenset({UNKNOWN}), True)
    settings = resolve(None, None, None, from_file)
    assert settings.failing == {WIDENED, UNKNOWN} and settings.transitive
    assert settings.source == "mode, fail_on, transitive from compatibility.json"
    overridden = resolve("backward", None, False, from_file)
    assert overridden.failing == {NARROWED, UNKNOWN} and not overridden.transitive
    assert overridden.source == "fail_on from compatibility.json"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{", "invalid JSON at line 1 column 2"),
        ([], "expected an object with fail_on, mode, transitive"),
        ({"mode": "sideways"}, "/mode: 'sideways' is not one of backward, forward, full"),
        ({"fail_on": "narrowed"}, "/fail_on: expected a list of strings"),
        ({"fail_on": ["nope"]}, "/fail_on: 'nope' is not one of"),
        ({"transitive": "yes"}, "/transitive: expected true or false"),
        ({"modes": "full"}, "/modes: unknown setting"),
    ],
)
def test_a_bad_compatibility_file_is_one_line_naming_file_and_place(tmp_path: Path, data: Any, message: str) -> None:
    root = write(tmp_path, V1)
    path = root / "schemas" / "evo" / "compatibility.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    with pytest.raises(GateError) as caught:
        read_config(root, "evo")
    assert str(caught.value).startswith("diff: schemas/evo/compatibility.json: ") and message in str(caught.value)


def test_a_bad_setting_exits_2_with_one_line(tmp_path: Path) -> None:
    root = repo(tmp_path)
    config(root, {"mode": "sideways"})
    proc = run_evolution(root)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (
        "diff: schemas/evo/compatibility.json: /mode: 'sideways' is not one of backward, forward, full\n"
    )
    proc = run_evolution(root, "--fail-on", "narrowed,bogus")
    assert proc.returncode == 2 and proc.stderr.splitlines() == [
        "diff: --fail-on: 'bogus' is not one of narrowed, widened, api, unknown, any"
    ]


def test_modes_on_a_narrowing_and_a_widening(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, NARROWER)
    assert evolution(root, "--mode", "forward")[0] == 0  # old readers accept new payloads: still true
    status, report, err = evolution(root, "--mode", "backward")
    assert status == 1 and err == "diff: 1 finding(s) fail the gate: 1 narrowed (evo/T)\n"
    [finding] = report["findings"]
    assert (finding["rule_id"], finding["severity"], finding["direction"]) == ("CS211", "error", "narrowed")
    write(root, WIDER)
    assert evolution(root, "--mode", "backward")[0] == 0
    assert evolution(root, "--mode", "forward")[0] == 1
    assert evolution(root, "--mode", "full")[0] == 1
    assert evolution(root)[0] == 0  # the default fails on narrowed, not widened
    status, report, _ = evolution(root)
    assert [f["severity"] for f in report["findings"]] == ["warning"]  # a break, outside the gate


def test_the_family_file_sets_the_mode_and_the_command_line_overrides_it(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, NARROWER)
    config(root, {"mode": "forward"})
    status, report, _ = evolution(root)
    assert status == 0 and report["settings"]["evo"]["failing"] == ["widened", "api", "unknown"]
    assert report["settings"]["evo"]["source"] == "mode from compatibility.json"
    assert evolution(root, "--mode", "backward")[0] == 1
    assert evolution(root, "--fail-on", "narrowed")[0] == 1  # fail-on adds to the file's mode
    write(root, WIDER)  # (rewrites the family folder: the file again after it)
    config(root, {"mode": "forward", "fail_on": []})
    assert evolution(root)[0] == 1
    assert evolution(root, "--mode", "backward", "--fail-on", "api")[0] == 0


def _equivalent_pattern(root: Path) -> None:
    """`^a+$` rewritten as `^aa*$`: the same strings, a different schema text."""
    for pattern, message in (("^a+$", "pattern"), ("^aa*$", None)):
        x = {"type": "string", "pattern": pattern, "description": "S."}
        write(root, {"a.json": {"T": {**V1["a.json"]["T"], "properties": {"x": x}}}})
        if message:
            commit(root, message)


def test_an_undecided_type_fails_closed_unless_unknown_is_left_out(tmp_path: Path) -> None:
    root = repo(tmp_path)
    _equivalent_pattern(root)
    status, report, err = evolution(root)
    assert [t["verdict"] for t in report["families"][0]["types"]] == ["unproven"]
    assert status == 1 and err == "diff: 1 finding(s) fail the gate: 1 unknown (evo/T)\n"
    assert report["findings"][0]["rule_id"] == "CS227" and report["findings"][0]["categories"] == ["unknown"]
    assert evolution(root, "--fail-on", "narrowed,api")[0] == 0
    assert evolution(root, "--mode", "full", "--fail-on", "api")[0] == 0
    assert evolution(root, "--mode", "full")[0] == 1
    assert evolution(root, "--check-version")[0] == 1  # no version bump covers an undecided type
    assert evolution(root, "--check-version", "--fail-on", "narrowed,api")[0] == 0


def _releases(root: Path) -> None:
    """Release 1.0.0: `x` a string; release 1.1.0: also null (widened); the work tree: a string again."""
    write(root, WIDER, version="1.1.0")
    commit(root, "release 1.1.0")
    write(root, V1, version="1.1.0")


def test_transitive_judges_every_earlier_release(tmp_path: Path) -> None:
    root = repo(tmp_path)
    _releases(root)
    status, report, _ = evolution(root, "release")  # against the previous release, 1.0.0: unchanged
    assert status == 0 and report["findings"] == []
    status, report, err = evolution(root, "release", "--transitive")
    assert status == 1, err
    assert [(r["base_version"], r["transitive"]) for r in report["families"]] == [("1.0.0", False), ("1.1.0", True)]
    [finding] = report["findings"]
    assert finding["base"].startswith("release 1.1.0 (") and finding["verdict"] == "narrowed"
    config(root, {"transitive": True})
    assert evolution(root, "release")[0] == 1
    assert evolution(root, "release", "--no-transitive")[0] == 0


def _api_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A run whose comparison finds one code-level change needing a major bump, and no schema verdict."""
    from release.evolution import run
    from release.evolution.api import ApiChange
    from release.evolution.engine import FamilyReport, TypeReport

    root = write(tmp_path, V1)
    change = ApiChange("evo", "Pydantic field T.x", "changed", "str | None = None  ->  str | None = ''", "major")
    report = FamilyReport("evo", "HEAD", "1.0.0", "1.0.0", "none", [TypeReport("T", "unchanged")], [change])
    report.new_files = family_types(root).file_of

    def compare(*_: object) -> list[FamilyReport]:
        return [report]

    monkeypatch.setattr(run, "compare", compare)
    return root


def test_an_api_only_change_fails_only_when_api_is_in_the_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from release.evolution import cli

    root = str(_api_only(monkeypatch, tmp_path))
    assert cli.main(["--root", root, "--fail-on", "narrowed"]) == 0
    assert "API changed (major) [CS303]: Pydantic field T.x" in capsys.readouterr().out
    assert cli.main(["--root", root]) == 1  # the default: api is in the set
    assert capsys.readouterr().err == "diff: 1 finding(s) fail the gate: 1 api (evo/T)\n"
    assert cli.main(["--root", root, "--mode", "forward"]) == 1
    assert cli.main(["--root", root, "--mode", "full", "--fail-on", "unknown"]) == 0
    capsys.readouterr()
    assert cli.main(["--root", root, "--fail-on", "any", "--format", "json"]) == 1
    [finding] = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["rule_id"], finding["categories"], finding["file"]) == ("CS303", ["api"], "schemas/evo/a.json")


def test_lint_leaves_the_settings_file_alone(tmp_path: Path) -> None:
    from tests.codegen_cli import run_codegen

    root = write(tmp_path, V1)
    config(root, {"mode": "full", "transitive": True})
    proc = run_codegen(root, "lint")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (root / "schemas" / "evo" / "settings.json").write_text('{"mode": "full"}', encoding="utf-8")
    assert run_codegen(root, "lint").returncode != 0  # any other JSON file there is read as a schema
