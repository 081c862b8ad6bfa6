"""The one list of known disagreements between a generated validator and the schema.

Each entry names the side that disagrees, why the two cannot agree, and the vectors that show
it. The conformance tests fail on a disagreement not listed here, and on a pattern that no
longer matches any disagreement, so the list cannot rot.
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
    vectors: frozenset[str]  # fnmatch patterns over vector ids (paths under tests/vectors/)

    def covers(self, vector_id: str) -> bool:
        """Whether this entry explains a disagreement on the vector with this id."""
        return any(fnmatch(vector_id, pattern) for pattern in self.vectors)


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
            }
        ),
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
    ),
]
