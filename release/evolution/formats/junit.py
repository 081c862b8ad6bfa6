"""`--format junit`: JUnit XML, one testsuite per family and one testcase per type (and per API
subject that is not a type); a testcase fails with one `failure` element listing its failing
findings (one per testcase, as the JUnit schema allows); other findings go to its `system-out`.
Accept-list and version problems are failing testcases of a suite of their own, `gate`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..findings import Finding, details
from ..outcome import Outcome


def _testcase(suite: ET.Element, family: str, name: str, found: list[Finding]) -> bool:
    """Add one testcase; whether it fails."""
    case = ET.SubElement(suite, "testcase", classname=family, name=name)
    failing = [f for f in found if f.fails]
    if failing:
        ids = ", ".join(dict.fromkeys(f.rule.id for f in failing))
        failure = ET.SubElement(
            case, "failure", message=f"{len(failing)} finding(s) fail the gate: {ids}", type=failing[0].verdict
        )
        failure.text = "\n\n".join(f"[{f.rule.id} {f.rule.name}] " + "\n".join(details(f)) for f in failing)
    others = [f for f in found if not f.fails]
    if others:
        out = ET.SubElement(case, "system-out")
        out.text = "\n\n".join(f"[{f.rule.id} {f.severity}] " + "\n".join(details(f)) for f in others)
    return bool(failing)


def _family_suite(root: ET.Element, outcome: Outcome, family: str) -> None:
    suite = ET.SubElement(root, "testsuite", name=family)
    found = [f for f in outcome.findings if f.family == family]
    subjects = [f"{family}/{t.name}" for r in outcome.reports if r.family == family for t in r.types]
    subjects += [f.subject for f in found]
    failures = 0
    names = list(dict.fromkeys(subjects))
    for name in names:
        failures += _testcase(suite, family, name, [f for f in found if f.subject == name])
    suite.set("tests", str(len(names)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suite.set("skipped", "0")


def render(outcome: Outcome) -> str:
    """The JUnit XML document."""
    root = ET.Element("testsuites", name="schema evolution")
    for family in dict.fromkeys(r.family for r in outcome.reports):
        _family_suite(root, outcome, family)
    problems = outcome.problems
    if problems:
        suite = ET.SubElement(
            root,
            "testsuite",
            name="gate",
            tests=str(len(problems)),
            failures=str(len(problems)),
            errors="0",
            skipped="0",
        )
        for problem in problems:
            case = ET.SubElement(suite, "testcase", classname="gate", name=f"{problem.file}:{problem.line}")
            ET.SubElement(case, "failure", message=problem.message, type="gate").text = problem.message
    suites = root.findall("testsuite")
    root.set("tests", str(sum(int(s.get("tests", "0")) for s in suites)))
    root.set("failures", str(sum(int(s.get("failures", "0")) for s in suites)))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
