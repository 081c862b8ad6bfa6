"""The one list of known disagreements between a generated validator and the schema.

Each entry names the side that disagrees, why the two cannot agree, and the vectors that show
it. The conformance tests fail on a disagreement not listed here, and on a pattern that no
longer matches any disagreement, so the list cannot rot.

`vectors` patterns are checked by tests/test_vectors.py; `rules` patterns match the ids of the
generated conformance cases (tests/conformance: `<family>/<Type>/schema#3~<rule>@<json path>`,
`<vector id>~<rule>@<path>`, ...) and are checked by `nox -s conformance` and
tests/test_conformance.py. `side` is a validator of those runs: "pydantic", "typeddict",
"roundtrip", "typeddict-roundtrip", or a real system's library ("docent", "letta-client",
"bridgic-core"). `accepts`, when set, says which way the side errs: True if it accepts what the
schema rejects, False if it rejects (or, for round trips, fails) what the schema accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatch


@dataclass(frozen=True)
class KnownDisagreement:
    """Vectors on which `side` gives the opposite verdict of the schema, and why."""

    id: str
    side: str  # "pydantic" or "typeddict"
    reason: str
    vectors: frozenset[str] = frozenset()  # fnmatch patterns over vector ids (paths under tests/vectors/)
    rules: frozenset[str] = frozenset()  # fnmatch patterns over generated conformance case ids
    accepts: bool | None = None  # the side's verdict in the disagreement, if always the same

    def covers(self, vector_id: str) -> bool:
        """Whether this entry explains a disagreement on the vector with this id."""
        return any(fnmatch(vector_id, pattern) for pattern in self.vectors)

    def covers_case(self, case_id: str) -> bool:
        """Whether this entry explains a disagreement on the generated conformance case with this id."""
        return any(fnmatch(case_id, pattern) for pattern in self.rules)


ALLOWLIST: list[KnownDisagreement] = [
    KnownDisagreement(
        id="branch-tag-default",
        side="pydantic",
        reason=(
            "A union branch's model defaults its own tag so that `UserMessage(content=...)` works, "
            "as Docent's and bridgic's classes do; the schema requires the tag on every branch. Every union "
            "(ChatMessage, Content, ...) still rejects a missing tag, in Pydantic as in the schema."
        ),
        vectors=frozenset(
            {
                "docent/*Message/invalid/missing_role.json",
                "docent/Content*/invalid/missing_type.json",
                "docent/*Item/invalid/missing_item_type.json",
                "bridgic/T*Block/invalid/missing_block_type.json",
                # letta: the union-level untagged vectors are named untagged_*.json, so these hit branches only
                "letta/*/invalid/missing_message_type.json",
                "letta/*/invalid/missing_type.json",
            }
        ),
        rules=frozenset({"*~remove-tag@*"}),  # a branch type used on its own, at the root or nested
        accepts=True,
    ),
    KnownDisagreement(
        id="integral-float",
        side="pydantic",
        reason=(
            "JSON Schema counts 3.0 as an integer; Pydantic's strict int rejects any float. Lax ints "
            'would accept 3.0 but also "3" and true, which the schema rejects: the rarer case loses.'
        ),
        vectors=frozenset(
            {
                "docent/TranscriptBlockContentItem/valid/block_idx_integral_float.json",
                "bridgic/TokenUsage/valid/prompt_tokens_integral_float.json",
            }
        ),
        rules=frozenset({"*~wrong-type/integral-float@*"}),
        accepts=False,
    ),
    KnownDisagreement(
        id="integral-float-typeddict",
        side="typeddict",
        reason="As integral-float: the TypedDicts validate with the same strict int.",
        vectors=frozenset(
            {
                "docent/TranscriptBlockContentItem/valid/block_idx_integral_float.json",
                "bridgic/TokenUsage/valid/prompt_tokens_integral_float.json",
            }
        ),
        rules=frozenset({"*~wrong-type/integral-float@*"}),
        accepts=False,
    ),
    KnownDisagreement(
        id="letta-tool-call-delta-not-empty",
        side="typeddict",
        reason=(
            "Letta rejects a ToolCallDelta with none of name, arguments, tool_call_id (`{}`, or only unknown "
            "keys), and so do the schema (`not` of all three absent) and the Pydantic model (a model validator). "
            "A TypedDict can only mark each key NotRequired; it cannot say 'at least one of these keys', so the "
            "TypedDict adapter accepts the empty delta, also inside ToolCallMessage.tool_call / tool_calls."
        ),
        vectors=frozenset(
            {
                "letta/ToolCallDelta/invalid/empty_object.json",
                "letta/ToolCallDelta/invalid/only_unknown_key.json",
                "letta/*/invalid/tool_call_empty_object.json",
                "letta/ToolCallMessage/invalid/tool_calls_empty_object.json",
            }
        ),
        rules=frozenset({"letta/*~not/all-absent@*"}),
        accepts=True,
    ),
]
