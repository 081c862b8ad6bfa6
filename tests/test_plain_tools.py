"""Every named type as a standalone schema file (generated/schemas/<family>/<Type>.schema.json) that
any validator takes as is: no registry, no network, no wrapper. Plain jsonschema checks every one on
every vector; check-jsonschema, run as a user would from the command line, checks a few."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from chatschema import schemas
from tests.vectors import Vector, all_vectors

ROOT = Path(__file__).parent.parent
STANDALONE = ROOT / "generated" / "schemas"
CHECKED_WITH_CLI = [
    "docent/ChatMessage",
    "letta/LettaStreamingResponse",  # date-time formats
    "letta/ToolCallMessage",  # the untagged ToolCall | ToolCallDelta choice
    "bridgic/Message",
    "bridgic/TokenUsage",  # a pattern with a newline guard
    "swarm/ISwarmMessage",
]


def standalone(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((STANDALONE / f"{name}.schema.json").read_text(encoding="utf-8"))
    return document


def test_one_file_per_named_type_and_nothing_else() -> None:
    files = sorted(p.relative_to(STANDALONE).as_posix() for p in STANDALONE.glob("*/*.schema.json"))
    assert files == [f"{name}.schema.json" for name in schemas.names()]


@pytest.mark.parametrize("name", schemas.names())
def test_self_contained(name: str) -> None:
    document = standalone(name)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$ref"] == f"#/$defs/{name.split('/')[1]}"
    refs = set(schemas.refs(document))
    assert all(ref.startswith("#/$defs/") for ref in refs), refs
    # exactly the types it reaches: nothing dangling, nothing extra
    assert {ref.removeprefix("#/$defs/") for ref in refs} | {name.split("/")[1]} == set(document["$defs"])
    Draft202012Validator.check_schema(document)


def _by_schema() -> dict[str, list[Vector]]:
    grouped: dict[str, list[Vector]] = {}
    for v in all_vectors():
        grouped.setdefault(v.schema_name, []).append(v)
    return grouped


def test_plain_jsonschema_gives_every_vectors_verdict() -> None:
    wrong = []
    for name, vectors in _by_schema().items():
        validator = Draft202012Validator(standalone(name), format_checker=schemas.FORMAT_CHECKER)
        wrong += [v.id for v in vectors if validator.is_valid(v.load()) != v.valid]
    assert wrong == []


@pytest.mark.parametrize("name", CHECKED_WITH_CLI)
def test_check_jsonschema_gives_our_verdicts(name: str) -> None:
    vectors = _by_schema()[name]
    assert any(v.valid for v in vectors) and any(not v.valid for v in vectors)
    schemafile = STANDALONE / f"{name}.schema.json"
    cmd = [sys.executable, "-m", "check_jsonschema", "--output-format", "json", "--schemafile", str(schemafile)]
    proc = subprocess.run(
        [*cmd, *(str(v.path) for v in vectors)], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert proc.returncode == (0 if all(v.valid for v in vectors) else 1), proc.stderr
    report = json.loads(proc.stdout)
    rejected = {Path(e["filename"]).resolve() for e in report["errors"] + report["parse_errors"]}
    verdicts = {v.id: v.path.resolve() not in rejected for v in vectors}
    assert verdicts == {v.id: v.valid for v in vectors}
