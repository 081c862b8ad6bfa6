"""One consumer code reads violations from both languages: for every invalid example, the records of
`chatschema validate --format json` and the npm package's `violations()` (as JSON) locate each
violation alike: the same `instancePath`, `keyword`, `params` and `schemaPath`.

Where the two differ, they differ as docs/typescript.md says: ajv reports every branch of an
untagged union (`anyOf`, or `oneOf` without a discriminator) and the union's own error, where Python
explains the union by the branch the value came closest to (those violations are among Node's), or,
when the value has none of the branches' types, by one `type` violation at the union itself
(`schemaPath` the union's keyword, `params.type` every branch's types). And a string ending in a
newline fails a pattern ending in `$` in ajv (ECMAScript's `$`) but not in Python, where only the
schemas' `not: {pattern: "\\n"}` beside it fails: Node reports both, Python the `not` alone.
"""

from __future__ import annotations

import io
import json
from collections import defaultdict
from functools import cache
from typing import Any

from chatschema import cli, schemas
from tests.node import HERE, PACKAGE, run_node
from tests.vectors import Vector, all_vectors

INVALID = [v for v in all_vectors() if not v.valid]
UNIONS = ("anyOf", "oneOf")
Record = dict[str, Any]


def _key(record: Record) -> tuple[str, str, str, str]:
    return record["instancePath"], record["keyword"], record["schemaPath"], json.dumps(record["params"], sort_keys=True)


@cache
def python_records() -> dict[str, list[Record]]:
    """Each example's `errors` as `chatschema validate --format json` writes them, one run per schema."""
    by_schema: dict[str, list[Vector]] = defaultdict(list)
    for vector in INVALID:
        by_schema[vector.schema_name].append(vector)
    found: dict[str, list[Record]] = {}
    for name, vectors in by_schema.items():
        lines = b"".join(json.dumps(v.load()).encode() + b"\n" for v in vectors)
        out, err = io.StringIO(), io.StringIO()
        args = cli._parser().parse_args(["validate", "--schema", name, "--format", "json", "--quiet", "-"])
        assert cli.validate(args, io.BytesIO(lines), out, err) == 1, err.getvalue()
        records = [json.loads(line) for line in out.getvalue().splitlines()]
        assert [r["line"] for r in records] == list(range(1, len(vectors) + 1))
        for vector, record in zip(vectors, records, strict=True):
            assert "omitted" not in record, f"{vector.id}: more than {schemas.MAX_VIOLATIONS} violations"
            found[vector.id] = record["errors"]
    return found


@cache
def node_violations() -> dict[str, list[Record]]:
    """Each example's `violations()` in the npm package, as JSON."""
    cases = [{"schema": v.schema_name, "payload": v.load()} for v in INVALID]
    got: list[list[Record]] = run_node(HERE / "violations.cjs", {"package": str(PACKAGE), "cases": cases})
    return {v.id: found for v, found in zip(INVALID, got, strict=True)}


def _union_wide(record: Record) -> bool:
    """Python's one `type` violation for a value that has none of an untagged union's types."""
    return record["keyword"] == "type" and record["schemaPath"].rsplit("/", 1)[-1] in UNIONS


def _explained_alike(record: Record, node: list[Record]) -> bool:
    """Node says what a union-wide `type` violation says: the union's own error at the same place,
    and each branch's `type` error there, naming the same types between them."""
    here = [n for n in node if n["instancePath"] == record["instancePath"]]
    own = [n for n in here if n["keyword"] in UNIONS and n["schemaPath"] == record["schemaPath"]]
    named: set[str] = set()
    for n in here:
        if n["keyword"] == "type":
            named.update(n["params"]["type"] if isinstance(n["params"]["type"], list) else [n["params"]["type"]])
    return bool(own) and named == set(record["params"]["type"])


def _below_a_union(found: Record, node: list[Record]) -> bool:
    """Whether a Node violation is the error of an untagged union, or lies at or below one's place
    (a branch Python's explanation left out)."""
    if found["keyword"] in UNIONS:
        return True
    at = found["instancePath"]
    return any(n["keyword"] in UNIONS and (at + "/").startswith(n["instancePath"] + "/") for n in node)


def _final_newline(found: Record, records: list[Record]) -> bool:
    """A `pattern` violation that only ECMAScript's `$` gives, beside the `not` Python gives too."""
    return found["keyword"] == "pattern" and any(
        r["keyword"] == "not" and r["instancePath"] == found["instancePath"] for r in records
    )


def test_both_languages_locate_every_violation_alike() -> None:
    python, node = python_records(), node_violations()
    union_wide = 0
    for vector in INVALID:
        records, found = python[vector.id], node[vector.id]
        assert records and found, vector.id
        keys = {_key(n) for n in found}
        for record in records:
            if _key(record) in keys:
                continue
            assert _union_wide(record) and _explained_alike(record, found), (
                f"{vector.id}: Python's {record} is not among Node's {found}"
            )
            union_wide += 1
        matched = {_key(r) for r in records}
        for n in found:
            explained = _below_a_union(n, found) or _final_newline(n, records)
            assert _key(n) in matched or explained, f"{vector.id}: Node's {n} is not Python's {records}"
    assert union_wide < len(INVALID) // 10, "the documented difference is the exception"


def test_a_missing_key_is_located_at_the_key_on_both_sides() -> None:
    python, node = python_records(), node_violations()
    seen = 0
    for vector in INVALID:
        for side in (python[vector.id], node[vector.id]):
            for record in side:
                if record["keyword"] == "required":
                    missing = record["params"]["missingProperty"]
                    assert record["instancePath"].endswith("/" + missing.replace("~", "~0").replace("/", "~1"))
                    assert record["schemaPath"].endswith("/required")
                    seen += 1
    assert seen > 100


def test_schema_paths_point_into_the_bundle() -> None:
    """Every schemaPath (both sides) resolves in the family's bundle to the keyword that failed."""
    bundles = {f: json.loads((PACKAGE / "schemas" / f"{f}.bundle.json").read_text("utf-8")) for f in schemas.families()}
    python, node = python_records(), node_violations()
    for vector in INVALID:
        for record in [*python[vector.id], *node[vector.id]]:
            node_ = bundles[vector.family]
            steps = record["schemaPath"].removeprefix("#/").split("/")
            assert record["schemaPath"].startswith("#/$defs/"), record
            for step in steps:
                step = step.replace("~1", "/").replace("~0", "~")
                node_ = node_[int(step)] if isinstance(node_, list) else node_[step]
            assert steps[-1] == record["keyword"] or record["keyword"] == "type", record  # type: a union-wide one


def test_a_keyword_of_an_inline_items_schema_is_located_under_items() -> None:
    """`items` holds one schema, not a map of named ones: its keywords sit at `.../items/<keyword>`
    (no invalid example fails inside an inline `items` schema)."""
    payload = {
        "message_type": "usage_statistics",
        "completion_tokens": 1,
        "prompt_tokens": 1,
        "total_tokens": 2,
        "step_count": 1,
        "run_ids": ["run-1", 1],
    }
    [violation] = schemas.violations(payload, "letta/LettaUsageStatistics")
    assert (violation.instance_path, violation.schema_path) == (
        "/run_ids/1",
        "#/$defs/LettaUsageStatistics/properties/run_ids/items/type",
    )
