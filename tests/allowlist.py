"""The one list of known disagreements between a generated validator and the schema.

Each entry names the side that disagrees, why the two cannot agree, and the vectors that show
it. The conformance tests fail on a disagreement not listed here, and on a pattern that no
longer matches any disagreement, so the list cannot rot.

`vectors` patterns are checked by tests/test_vectors.py; `rules` patterns match the ids of the
generated conformance cases (tests/conformance: `<family>/<Type>/schema#3~<rule>@<json path>`,
`<vector id>~<rule>@<path>`, ..., then the payload's features after `|`, e.g. `|message_type=stop_reason`
for a union's branch) and are checked by `nox -s conformance` and
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
    side: str  # "pydantic" or "typeddict"; "ajv" or "ajv-bundle" for the npm package (tests/test_typescript.py)
    reason: str
    vectors: frozenset[str] = frozenset()  # fnmatch patterns over vector ids (`<family>/<Type>/<verdict>/<file>`)
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
                "letta/*/invalid/missing_subtype.json",
            }
        ),
        rules=frozenset(
            {
                "*~remove-tag@*",  # a branch type used on its own, at the root or nested
                # every other key of LettaUsageStatistics has a default too, so `{}` is its tag missing
                "letta/LettaUsageStatistics/*~wrong-type/object@$",
                "letta/LettaUsageStatistics/*~wrong-type/object@$|*",
                "letta/LettaResponse/*~wrong-type/object@$.usage*",
                "letta/ResultMessage/*~wrong-type/object@$.usage*",  # Letta Code's result, alone or in a record
                "letta/WireMessage/*~wrong-type/object@$.usage*",
                # the same for the branches whose only required key is their tag
                *(
                    f"letta/{name}/*~wrong-type/object@$"
                    for name in (
                        "OmittedReasoningContent",
                        "InitializeControlRequest",
                        "InterruptControlRequest",
                        "BootstrapSessionStateRequest",
                        "RecoverPendingApprovalsControlRequest",
                        "ListMessagesControlRequest",
                        "CanUseToolResponseAllow",
                    )
                ),
            }
        ),
        accepts=True,
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
        rules=frozenset(
            {
                "letta/*~not/all-absent@*",
                "letta/*~wrong-type/object@*tool_call*",  # `{}` where a ToolCallDelta may stand
                "letta/ToolCallDelta/*~wrong-type/object@$",
                "letta/ToolCallDelta/*~wrong-type/object@$|*",
            }
        ),
        accepts=True,
    ),
    # --- generated conformance cases (tests/conformance) -----------------------------------------
    KnownDisagreement(
        id="date-time-sub-microsecond",
        side="roundtrip",
        reason=(
            "RFC 3339 allows any number of fraction digits; Python's datetime keeps microseconds. The models "
            "parse `date` into a datetime (so that it is checked and usable) and dump it with at most six digits: "
            "a value with non-zero digits beyond the microsecond comes back as a slightly different instant. "
            "Letta writes seconds precision. Cases whose payload holds such a date-time carry `|sub-microsecond`."
        ),
        rules=frozenset({"*|*sub-microsecond*"}),
        accepts=False,
    ),
    KnownDisagreement(
        id="docent-branch-tag-default",
        side="docent",
        reason=(
            "Docent's standalone classes default their tag (`role`, `type`, `item_type`), so `UserMessage` "
            "without `role` parses; its unions require the tag, and so does the schema on every branch."
        ),
        rules=frozenset({"docent/*~remove-tag@*"}),
        accepts=True,
    ),
    KnownDisagreement(
        id="docent-lax-coercion",
        side="docent",
        reason=(
            'Docent\'s models are lax pydantic: "3" and true become the integer 3 and 1, "true" becomes True. '
            "The schema describes the JSON Docent writes (real integers and booleans); what Docent makes of "
            "these payloads is valid (tests/test_docent_real.py checks its normalizations on the vectors)."
        ),
        rules=frozenset(
            {"docent/*~wrong-type/string-number@*", "docent/*~wrong-type/string-bool@*", "docent/*~wrong-type/bool@*"}
        ),
        accepts=True,
    ),
    KnownDisagreement(
        id="docent-lax-datetime",
        side="docent",
        reason=(
            "Docent's `created_at` is a pydantic datetime, which also takes unix numbers. The schema takes the JSON "
            "Docent writes (the ISO string of a datetime); what Docent makes of a number is valid (the vectors "
            "docent/Transcript/invalid/created_at_unix_number.json and docent/Timestamp/invalid/a_number.json)."
        ),
        rules=frozenset(
            {
                f"docent/{where}~wrong-type/{kind}@{at}"
                for kind in ("integer", "integral-float", "float")
                for where, at in (("*", "*.created_at"), ("Timestamp/*", "$"))
            }
        ),
        accepts=True,
    ),
    KnownDisagreement(
        id="docent-deprecated-dict-form",
        side="docent",
        reason=(
            "Docent still reads an agent run's `transcripts` and `transcript_groups` as objects keyed by id (a "
            "deprecated form it warns about) and turns them into lists; the schema takes the lists Docent writes "
            "(the vector docent/AgentRun/invalid/transcript_groups_keyed_by_id.json)."
        ),
        rules=frozenset(
            {
                "docent/AgentRun/*~wrong-type/object@$.transcripts",
                "docent/AgentRun/*~wrong-type/object@$.transcript_groups",
            }
        ),
        accepts=True,
    ),
    KnownDisagreement(
        id="bridgic-branch-tag-default",
        side="bridgic-core",
        reason=(
            "bridgic's standalone block classes default `block_type`; its ContentBlock union requires it, "
            "and so does the schema on every branch."
        ),
        rules=frozenset({"bridgic/*~remove-tag@*"}),
        accepts=True,
    ),
    KnownDisagreement(
        id="bridgic-lax-coercion",
        side="bridgic-core",
        reason=(
            'bridgic\'s models are lax pydantic: token counts take "12" and true; `timestamp` is a datetime '
            "that also takes unix numbers and number-like strings. The schema takes the JSON bridgic writes "
            "(integers; the ISO string of a datetime)."
        ),
        rules=frozenset(
            {
                "bridgic/*~wrong-type/string-number@*",
                "bridgic/*~wrong-type/bool@*_tokens*",
                "bridgic/*~wrong-type/integer@*.timestamp*",
                "bridgic/*~wrong-type/integral-float@*.timestamp*",
                "bridgic/*~wrong-type/float@*.timestamp*",
            }
        ),
        accepts=True,
    ),
    KnownDisagreement(
        id="letta-client-untagged",
        side="letta-client",
        reason=(
            "letta-client types every tag `Optional[Literal[...]] = None` and its union discriminators are "
            "metadata pydantic ignores: a payload without its tag, or with a null tag, parses as the first branch "
            "that fits. Letta's server unions require the tag, as the schema does."
        ),
        rules=frozenset(
            {
                "letta/*~remove-tag@*",
                "letta/*~remove-union-tag@*",
                "letta/*~null@*.message_type*",
                "letta/*~null@*.type*",
                "letta/*~null-for-absent@*.type*",  # a ToolResult's tag may be absent, but not null
                "letta/LettaStreamingResponse/*~wrong-type/object@$",  # `{}` parses as a branch with all defaults
                "letta/LettaUsageStatistics/*~wrong-type/object@$",
                "letta/LettaUsageStatistics/*~wrong-type/object@$|*",
                "letta/LettaResponse/*~wrong-type/object@$.usage*",
                # OmittedReasoningContent has no required key but its optional tag
                "letta/OmittedReasoningContent/*~wrong-type/object@$",
                "letta/MessageContentPart/*~wrong-type/object@$",
            }
        ),
        accepts=True,
    ),
    KnownDisagreement(
        id="letta-client-no-compaction-frames",
        side="letta-client",
        reason=(
            "letta-client's LettaStreamingResponse union has no event_message or summary_message branch, but "
            "Letta's server streams both with include_compaction_messages=true (letta_agent_v3.py L1229-1232, "
            "L1270-1278); the schema follows the server. Every tag of the union is a Literal, so no branch takes "
            "these frames: a client with strict response validation fails the stream on them (the default client "
            "constructs a SystemMessage carrying the frame's keys). Named by the frame's tag, whatever its origin."
        ),
        rules=frozenset(
            {
                "letta/LettaStreamingResponse/*|*message_type=event_message*",
                "letta/LettaStreamingResponse/*|*message_type=summary_message*",
            }
        ),
        accepts=False,
    ),
    KnownDisagreement(
        id="letta-client-stop-reason-cursor",
        side="letta-client",
        reason=(
            "letta-client's LettaStopReason has no `run_id` or `seq_id`, so it takes any value there as an unknown "
            "key (null, a number for `run_id`, a string for `seq_id`); background stop frames carry both, a string "
            "and an integer (Letta Code's stream-recovery tests), and Letta's server, replaying a background stream, "
            "only ever replaces a null `run_id`/`seq_id` with the run's id and the cursor. "
            "In the stream union the stop frame is named by its tag, whatever the case's origin."
        ),
        rules=frozenset(
            {
                "letta/LettaStopReason/*~*@$.run_id*",
                "letta/LettaStopReason/*~*@$.seq_id*",
                "letta/LettaResponse/*~*@$.stop_reason.run_id*",
                "letta/LettaResponse/*~*@$.stop_reason.seq_id*",
                "letta/LettaStreamingResponse/*~*@$.run_id|*message_type=stop_reason*",
                "letta/LettaStreamingResponse/*~*@$.seq_id|*message_type=stop_reason*",
            }
        ),
        accepts=True,
    ),
    KnownDisagreement(
        id="letta-client-lax-coercion",
        side="letta-client",
        reason=(
            'letta-client is lax pydantic: "3" and true become integers, "true" a boolean, and `date` takes unix '
            "numbers, a space separator and a bare date. Letta's server models are lax too; the schema follows "
            "the wire format Letta writes."
        ),
        rules=frozenset(
            {
                "letta/*~wrong-type/string-number@*",
                "letta/*~wrong-type/string-bool@*",
                "letta/*~wrong-type/bool@*",
                "letta/*~wrong-type/integer@*.date*",
                "letta/*~wrong-type/integral-float@*.date*",
                "letta/*~wrong-type/float@*.date*",
                "letta/*~break-format/space-separator@*",
                "letta/*~break-format/date-only@*",
            }
        ),
        accepts=True,
    ),
    KnownDisagreement(
        id="letta-client-naive-date",
        side="letta-client",
        reason=(
            "pydantic's datetime accepts a date-time without an offset (and dumps it naive, which is not RFC 3339). "
            "Letta's server reads a naive date as UTC and always writes an offset."
        ),
        rules=frozenset({"letta/*~break-format/no-offset@*"}),
        accepts=True,
    ),
    KnownDisagreement(
        id="letta-client-defaults-optional",
        side="letta-client",
        reason=(
            "letta-client types fields the server always fills (`source`, the usage counts) as Optional, so it "
            "accepts null there; the server writes a value (`non_reasoner_model`, 0), never null."
        ),
        rules=frozenset({"letta/*~null*@*.source*", "letta/*~null*@*tokens*", "letta/*~null*@*.step_count*"}),
        accepts=True,
    ),
    KnownDisagreement(
        id="letta-client-empty-tool-call-delta",
        side="letta-client",
        reason=(
            "letta-client's ToolCallDelta does not check that one of name, arguments, tool_call_id is present; "
            "Letta's server rejects an empty `tool_call` ('must contain either name or arguments'), as we do."
        ),
        rules=frozenset(
            {
                "letta/*~not/all-absent@*",
                "letta/*~wrong-type/object@*tool_call*",
                "letta/ToolCallDelta/*~wrong-type/object@$",
                "letta/ToolCallDelta/*~wrong-type/object@$|*",
            }
        ),
        accepts=True,
    ),
]
