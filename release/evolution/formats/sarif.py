"""`--format sarif`: SARIF 2.1.0 for code scanning. Every rule id in `tool.driver.rules`; a result
per finding with its rule, level (error when it fails the gate), message, and the schema file and
line of the change; an accepted finding carries an external suppression with the entry's reason.
Accept-list and version problems are results of the rule `CS000` (gate-problem).
"""

from __future__ import annotations

import json
from typing import Any

from ..findings import Finding, details
from ..ids import ALL, GATE, RuleInfo
from ..outcome import Outcome

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
RULES = ALL
INDEX = {info.id: i for i, info in enumerate(RULES)}


def _rule(info: RuleInfo) -> dict[str, Any]:
    return {"id": info.id, "name": info.name, "shortDescription": {"text": info.summary}}


def _result(f: Finding) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": f.rule.id,
        "ruleIndex": INDEX[f.rule.id],
        "level": f.severity,
        "message": {"text": "\n".join(details(f))},
        "properties": {
            "type": f.subject,
            "verdict": f.verdict,
            "direction": f.direction,
            "pointer": f.pointer,
            "base": f.base,
            "fails": f.fails,
            "witnesses": f.witnesses,
        },
    }
    if f.file is not None:
        location: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": f.file}}}
        if f.line is not None:
            location["physicalLocation"]["region"] = {"startLine": f.line}
        location["logicalLocations"] = [{"fullyQualifiedName": f.subject, "kind": "type"}]
        result["locations"] = [location]
    if f.accepted is not None:
        result["suppressions"] = [{"kind": "external", "status": "accepted", "justification": f.accepted.reason}]
    return result


def render(outcome: Outcome) -> str:
    """The SARIF log as JSON text."""
    results = [_result(f) for f in outcome.findings]
    for problem in outcome.problems:
        location = {"artifactLocation": {"uri": problem.file}, "region": {"startLine": problem.line}}
        results.append(
            {
                "ruleId": GATE.id,
                "ruleIndex": INDEX[GATE.id],
                "level": "error",
                "message": {"text": problem.message},
                "locations": [{"physicalLocation": location}],
            }
        )
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "chatschema-evolution", "rules": [_rule(r) for r in RULES]}},
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
