"""Edits of the real schemas (schemas/) for the evolution gate's catalogue (test_real_edits.py).

Each edit is one small change of one file's `$defs`, written as JSON-pointer operations (the
pointer starts at `$defs`: `/ContentText/required`), with what the gate must say about one named
type: its verdict, the rule ids of its findings and the modes (`--mode backward|forward|full`)
under which the gate fails.
"""

from __future__ import annotations

import datetime
import functools
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.load import SchemaFile, load_schemas
from release.evolution import accept
from release.evolution.canonical import FamilyTypes
from release.evolution.engine import BOTH, UNCHANGED, FamilyReport, TypeReport, compare_types
from release.evolution.findings import Finding, collect
from release.evolution.gate import MODES, parse_fail_on, resolve
from release.evolution.outcome import Outcome
from release.evolution.rules import NARROWED, WIDENED
from release.evolution.witness import Budget

ROOT = Path(__file__).resolve().parents[2]
Defs = dict[str, Any]
Op = Callable[[Defs], None]

# The modes under which the gate fails, by verdict: backward fails on narrowed, forward on widened.
BACKWARD = frozenset({"backward", "full"})
FORWARD = frozenset({"forward", "full"})
EVERY = frozenset(MODES)
NONE: frozenset[str] = frozenset()


def _steps(pointer: str) -> list[str]:
    return [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]


def _parent(defs: Defs, pointer: str) -> tuple[Any, str]:
    *path, last = _steps(pointer)
    node: Any = defs
    for step in path:
        node = node[int(step)] if isinstance(node, list) else node[step]
    return node, last


def put(pointer: str, value: Any) -> Op:
    """Set the member at `pointer` (added or replaced)."""

    def op(defs: Defs) -> None:
        parent, last = _parent(defs, pointer)
        parent[last] = value

    return op


def drop(pointer: str) -> Op:
    """Delete the member or item at `pointer` (it must be there)."""

    def op(defs: Defs) -> None:
        parent, last = _parent(defs, pointer)
        del parent[int(last) if isinstance(parent, list) else last]

    return op


def append(pointer: str, value: Any) -> Op:
    """Append `value` to the list at `pointer`."""

    def op(defs: Defs) -> None:
        parent, last = _parent(defs, pointer)
        parent[last].append(value)

    return op


def discard(pointer: str, value: Any) -> Op:
    """Remove `value` from the list at `pointer` (it must be there)."""

    def op(defs: Defs) -> None:
        parent, last = _parent(defs, pointer)
        parent[last].remove(value)

    return op


def then(*ops: Op) -> Op:
    """Several operations as one edit, in order."""

    def op(defs: Defs) -> None:
        for each in ops:
            each(defs)

    return op


def retag(pointer: str, tag: str) -> Op:
    """Give the tag property at `pointer` (a `const` with the same `default`) another value."""
    return then(put(f"{pointer}/const", tag), put(f"{pointer}/default", tag))


@dataclass(frozen=True)
class Edit:
    """One edit of a real schema file and what the gate must say about `type`."""

    id: str
    file: str  # <family>/<file name>, under schemas/
    change: Op
    type: str  # the named type judged
    verdict: str  # narrowed, widened, both or unchanged
    rule: str | None  # the rule id of the type's findings (None: no finding, the type is unchanged)
    fails: frozenset[str]  # the modes under which the gate fails
    slow: bool = False  # seconds of search (a large type searched to the end of its budget): the full catalogue only

    @property
    def family(self) -> str:
        """The family of the edited file."""
        return self.file.split("/")[0]


def copy_schemas(root: Path) -> None:
    """A copy of the repository's schemas/ under `root`."""
    shutil.copytree(ROOT / "schemas", root / "schemas")


def apply(edit: Edit, root: Path) -> None:
    """Make the edit in `root`'s copy of schemas/ (an edit that changes nothing is a mistake of the catalogue)."""
    path = root / "schemas" / edit.file
    doc = json.loads(path.read_text(encoding="utf-8"))
    before = json.dumps(doc, sort_keys=True)
    edit.change(doc["$defs"])
    assert json.dumps(doc, sort_keys=True) != before, f"{edit.id} changes nothing"
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def family_files(root: Path, family: str) -> list[SchemaFile]:
    """The family's files under `root`, loaded strictly (an edit must leave a tree that loads)."""
    files, problems = load_schemas(root)
    assert not problems, problems
    return [f for f in files if f.family == family]


@functools.cache
def base(family: str) -> FamilyTypes:
    """The family as it is in the repository: BASE of every edit, loaded once."""
    return FamilyTypes.of(family, family_files(ROOT, family))


@dataclass
class Judged:
    """The gate's view of one edit: the named type's report and findings, and each mode's outcome."""

    old: FamilyTypes
    new: FamilyTypes
    report: TypeReport
    findings: list[Finding]  # the named type's
    fails: dict[str, bool]  # mode -> whether the gate fails
    type_fails: dict[str, bool]  # mode -> whether one of the named type's findings fails it


def judge(edit: Edit, tmp: Path) -> Judged:
    """Compare the edited family with BASE and judge the findings as the command line does under
    `--mode MODE --fail-on unknown` (no API category: only the schema verdict can fail the gate).

    Only the named type and the types it reaches are compared, each judged as in a whole comparison.
    """
    copy_schemas(tmp)
    apply(edit, tmp)
    old, new = base(edit.family), FamilyTypes.of(edit.family, family_files(tmp, edit.family))
    types = compare_types(old, new, Budget(), names=[edit.type])
    version = (ROOT / "schemas" / edit.family / "VERSION").read_text(encoding="utf-8").strip()
    report = FamilyReport(edit.family, "BASE", version, version, "none", types, [])
    report.old_files, report.new_files = old.file_of, new.file_of
    fail_on = parse_fail_on(["unknown"], "--fail-on")
    subject = f"{edit.family}/{edit.type}"
    fails: dict[str, bool] = {}
    type_fails: dict[str, bool] = {}
    own: list[Finding] = []
    for mode in MODES:
        settings = {edit.family: resolve(mode, fail_on, None, None)}
        findings = collect([report], settings, False, [], datetime.date.today())
        fails[mode] = Outcome([report], findings, settings, accept.DEFAULT_PATH).failed
        own = [f for f in findings if f.subject == subject]
        type_fails[mode] = any(f.fails for f in own)
    [named] = [t for t in types if t.name == edit.type]
    return Judged(old, new, named, own, fails, type_fails)


# A bridgic content block with a tag of its own, for a union branch added.
IMAGE_BLOCK = {
    "title": "ImageBlock",
    "description": "An image given by URL.",
    "type": "object",
    "properties": {
        "block_type": {"const": "image", "default": "image", "description": "Tag."},
        "url": {"type": "string", "description": "Where the image is."},
    },
    "required": ["block_type", "url"],
}

STRING = {"type": "string", "description": "A string."}
# Only the date and the T of a timestamp: every timestamp BASE admits, and impossible dates too.
TIMESTAMP_PREFIX = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T"

BRIDGIC = [
    Edit("bridgic-role-value-removed", "bridgic/message.json",
         discard("/Role/enum", "tool"),
         "Role", NARROWED, "CS206", BACKWARD),
    Edit("bridgic-role-value-added", "bridgic/message.json",
         append("/Role/enum", "developer"),
         "Role", WIDENED, "CS207", FORWARD),
    Edit("bridgic-tag-renamed-seen-from-union", "bridgic/content_block.json",
         retag("/TextBlock/properties/block_type", "plain_text"),
         "ContentBlock", BOTH, "CS208", EVERY),
    Edit("bridgic-union-branch-removed", "bridgic/content_block.json",
         drop("/ContentBlock/oneOf/2"),
         "ContentBlock", NARROWED, "CS220", BACKWARD),
    Edit("bridgic-union-branch-added", "bridgic/content_block.json",
         then(put("/ImageBlock", IMAGE_BLOCK), append("/ContentBlock/oneOf", {"$ref": "#/$defs/ImageBlock"})),
         "ContentBlock", WIDENED, "CS219", FORWARD),
    Edit("bridgic-pattern-removed", "bridgic/message.json",
         drop("/TokenUsage/properties/timestamp/pattern"),
         "TokenUsage", WIDENED, "CS224", FORWARD),
    Edit("bridgic-pattern-loosened", "bridgic/message.json",
         put("/TokenUsage/properties/timestamp/pattern", TIMESTAMP_PREFIX),
         "TokenUsage", WIDENED, "CS227", FORWARD),
    Edit("bridgic-minimum-added", "bridgic/message.json",
         put("/TokenUsage/properties/prompt_tokens/minimum", 0),
         "TokenUsage", NARROWED, "CS223", BACKWARD),
    Edit("bridgic-nullable-removed", "bridgic/tool_use.json",
         put("/ToolCall/properties/id/type", "string"),
         "ToolCall", NARROWED, "CS202", BACKWARD),
    Edit("bridgic-became-required", "bridgic/tool_use.json",
         append("/ToolCall/required", "arguments"),
         "ToolCall", NARROWED, "CS211", BACKWARD),
    Edit("bridgic-closed", "bridgic/message.json",
         put("/Message/additionalProperties", False),
         "Message", NARROWED, "CS217", BACKWARD),
    Edit("bridgic-min-items-added", "bridgic/message.json",
         put("/Message/properties/blocks/minItems", 1),
         "Message", NARROWED, "CS223", BACKWARD, slow=True),
    Edit("bridgic-max-length-deep-seen-from-response", "bridgic/content_block.json",
         put("/TextBlock/properties/text/maxLength", 10),
         "Response", NARROWED, "CS223", BACKWARD, slow=True),
    Edit("bridgic-type-set", "bridgic/message.json",
         put("/MessageChunk/properties/raw/type", "object"),
         "MessageChunk", NARROWED, "CS204", BACKWARD),
    Edit("bridgic-description-only", "bridgic/message.json",
         put("/Message/description", "A chat message: a role and its content blocks."),
         "Message", UNCHANGED, None, NONE),
]  # fmt: skip

DOCENT = [
    Edit("docent-became-required", "docent/parts.json",
         append("/ContentText/required", "refusal"),
         "ContentText", NARROWED, "CS211", BACKWARD),
    Edit("docent-became-optional", "docent/parts.json",
         discard("/ContentText/required", "text"),
         "ContentText", WIDENED, "CS212", FORWARD),
    Edit("docent-required-deep-seen-from-union", "docent/parts.json",
         append("/ContentReasoning/required", "summary"),
         "ChatMessage", NARROWED, "CS211", BACKWARD, slow=True),
    Edit("docent-enum-value-added", "docent/tool.json",
         append("/ToolCallContent/properties/format/enum", "html"),
         "ToolCallContent", WIDENED, "CS207", FORWARD),
    Edit("docent-null-enum-value-removed", "docent/tool.json",
         discard("/ToolCall/properties/type/enum", None),
         "ToolCall", NARROWED, "CS206", BACKWARD),
    Edit("docent-tag-renamed-seen-from-union", "docent/citation.json",
         retag("/ReadingResultItem/properties/item_type", "reading"),
         "CitationItem", BOTH, "CS208", EVERY),
    Edit("docent-union-branch-removed", "docent/citation.json",
         drop("/CitationItem/oneOf/4"),
         "CitationItem", NARROWED, "CS220", BACKWARD),
    Edit("docent-minimum-added", "docent/citation.json",
         put("/InlineCitation/properties/start_idx/minimum", 0),
         "InlineCitation", NARROWED, "CS223", BACKWARD),
    Edit("docent-type-added-to-items", "docent/message.json",
         put("/UserMessage/properties/tool_call_id/items/type", ["string", "integer"]),
         "UserMessage", WIDENED, "CS203", FORWARD),
    Edit("docent-allof-part-removed", "docent/message.json",
         drop("/DocentAssistantMessage/allOf"),
         "DocentAssistantMessage", WIDENED, "CS222", FORWARD),
    Edit("docent-allof-part-added", "docent/message.json",
         append("/DocentAssistantMessage/allOf", {"required": ["citations"]}),
         "DocentAssistantMessage", NARROWED, "CS221", BACKWARD),
    Edit("docent-anyof-branch-added", "docent/message.json",
         append("/MessageContent/anyOf", {"type": "null"}),
         "MessageContent", WIDENED, "CS219", FORWARD),
    Edit("docent-nullable-removed", "docent/parts.json",
         put("/ContentReasoning/properties/signature/type", "string"),
         "ContentReasoning", NARROWED, "CS202", BACKWARD),
    Edit("docent-property-added-to-open-object", "docent/tool.json",
         put("/ToolInfo/properties/version", STRING),
         "ToolInfo", NARROWED, "CS213", BACKWARD),
    Edit("docent-min-items-lowered", "docent/run.json",
         put("/AgentRun/properties/transcripts/minItems", 0),
         "AgentRun", WIDENED, "CS225", FORWARD, slow=True),
    Edit("docent-description-only", "docent/parts.json",
         put("/ContentText/properties/text/description", "The text of the part."),
         "ContentText", UNCHANGED, None, NONE),
]  # fmt: skip

LETTA = [
    Edit("letta-format-removed", "letta/letta_message.json",
         drop("/LettaMessageBase/properties/date/format"),
         "LettaMessageBase", WIDENED, "CS224", FORWARD),
    # The project asserts `date-time` only (lint admits no other format): `date` checks nothing.
    Edit("letta-format-changed", "letta/letta_message.json",
         put("/LettaMessageBase/properties/date/format", "date"),
         "LettaMessageBase", WIDENED, "CS228", FORWARD),
    Edit("letta-pattern-added", "letta/letta_message.json",
         put("/LettaMessageBase/properties/id/pattern", "^message-"),
         "LettaMessageBase", NARROWED, "CS223", BACKWARD),
    Edit("letta-enum-value-added", "letta/stream.json",
         append("/LettaStopReason/properties/stop_reason/enum", "timeout"),
         "LettaStopReason", WIDENED, "CS207", FORWARD),
    Edit("letta-enum-value-removed-seen-from-union", "letta/stream.json",
         discard("/LettaStopReason/properties/stop_reason/enum", "cancelled"),
         "LettaStreamingResponse", NARROWED, "CS206", BACKWARD),
    Edit("letta-const-changed", "letta/letta_message.json",
         put("/EventMessage/properties/event_type/const", "summarization"),
         "EventMessage", BOTH, "CS208", EVERY),
    Edit("letta-type-added", "letta/tools.json",
         put("/ToolCall/properties/arguments/type", ["string", "object"]),
         "ToolCall", WIDENED, "CS203", FORWARD),
    Edit("letta-union-branch-removed", "letta/tools.json",
         drop("/Approval/oneOf/1"),
         "Approval", NARROWED, "CS220", BACKWARD),
    Edit("letta-minimum-added", "letta/letta_message.json",
         put("/CompactionStats/properties/context_window/minimum", 1),
         "CompactionStats", NARROWED, "CS223", BACKWARD),
    Edit("letta-maximum-added", "letta/letta_message.json",
         put("/CompactionStats/properties/messages_count_after/maximum", 1000),
         "CompactionStats", NARROWED, "CS223", BACKWARD),
    Edit("letta-anyof-branch-removed", "letta/letta_message.json",
         drop("/UserMessage/properties/content/anyOf/1"),
         "UserMessage", NARROWED, "CS220", BACKWARD),
    Edit("letta-nullable-removed", "letta/stream.json",
         put("/LettaUsageStatistics/properties/cached_input_tokens/type", "integer"),
         "LettaUsageStatistics", NARROWED, "CS202", BACKWARD),
    Edit("letta-nullable-added", "letta/stream.json",
         put("/LettaUsageStatistics/properties/completion_tokens/type", ["integer", "null"]),
         "LettaUsageStatistics", WIDENED, "CS203", FORWARD),
    Edit("letta-closed", "letta/stream.json",
         put("/LettaErrorMessage/additionalProperties", False),
         "LettaErrorMessage", NARROWED, "CS217", BACKWARD),
    Edit("letta-property-added-to-open-object", "letta/stream.json",
         put("/LettaSseCancelled/properties/reason", STRING),
         "LettaSseCancelled", NARROWED, "CS213", BACKWARD),
    Edit("letta-allof-part-removed", "letta/stream.json",
         drop("/LettaPing/allOf"),
         "LettaPing", WIDENED, "CS222", FORWARD),
    Edit("letta-became-optional", "letta/letta_message.json",
         discard("/ToolReturnMessage/required", "tool_call_id"),
         "ToolReturnMessage", WIDENED, "CS212", FORWARD),
    Edit("letta-max-length-added", "letta/stream.json",
         put("/LettaSseError/properties/code/maxLength", 3),
         "LettaSseError", NARROWED, "CS223", BACKWARD),
    Edit("letta-min-length-deep-seen-from-union", "letta/parts.json",
         put("/TextContent/properties/text/minLength", 1),
         "UserContentPart", NARROWED, "CS223", BACKWARD),
    Edit("letta-description-only", "letta/stream.json",
         put("/LettaPing/description", "A keep-alive frame of the stream."),
         "LettaPing", UNCHANGED, None, NONE),
]  # fmt: skip

SWARM = [
    Edit("swarm-enum-value-added", "swarm/message.json",
         append("/BaseMessageRole/enum", "developer"),
         "BaseMessageRole", WIDENED, "CS207", FORWARD),
    Edit("swarm-enum-value-removed-seen-through-ref", "swarm/message.json",
         discard("/SwarmMessageRole/enum", "resque"),
         "ISwarmMessage", NARROWED, "CS206", BACKWARD),
    Edit("swarm-const-changed", "swarm/tool.json",
         put("/IToolCall/properties/type/const", "fn"),
         "IToolCall", BOTH, "CS208", EVERY),
    Edit("swarm-const-removed", "swarm/tool.json",
         drop("/IToolCall/properties/type/const"),
         "IToolCall", WIDENED, "CS210", FORWARD),
    Edit("swarm-became-required", "swarm/agent.json",
         append("/IAgentTool/required", "docNote"),
         "IAgentTool", NARROWED, "CS211", BACKWARD, slow=True),
    Edit("swarm-type-unset", "swarm/agent.json",
         drop("/IAgentTool/properties/type/type"),
         "IAgentTool", WIDENED, "CS205", FORWARD, slow=True),
    Edit("swarm-max-items-added", "swarm/message.json",
         put("/IBaseMessage/properties/images/maxItems", 4),
         "IBaseMessage", NARROWED, "CS223", BACKWARD, slow=True),
    Edit("swarm-nullable-added", "swarm/message.json",
         put("/IBaseMessage/properties/content/type", ["string", "null"]),
         "IBaseMessage", WIDENED, "CS203", FORWARD, slow=True),
    Edit("swarm-nullable-removed", "swarm/message.json",
         put("/ISwarmMessage/properties/payload/type", "object"),
         "ISwarmMessage", NARROWED, "CS202", BACKWARD, slow=True),
    Edit("swarm-allof-part-added", "swarm/message.json",
         append("/IOutlineMessage/allOf", {"required": ["tool_calls"]}),
         "IOutlineMessage", NARROWED, "CS221", BACKWARD, slow=True),
    Edit("swarm-closed", "swarm/tool.json",
         put("/IToolRequest/additionalProperties", False),
         "IToolRequest", NARROWED, "CS217", BACKWARD),
    Edit("swarm-property-removed-from-open-object", "swarm/tool.json",
         drop("/IToolParameters/properties/required"),
         "IToolParameters", WIDENED, "CS214", FORWARD),
    Edit("swarm-became-optional", "swarm/message.json",
         discard("/ISwarmMessage/required", "agentName"),
         "ISwarmMessage", WIDENED, "CS212", FORWARD, slow=True),
    Edit("swarm-format-added", "swarm/message.json",
         put("/IBaseMessage/properties/tool_call_id/format", "date-time"),
         "IBaseMessage", NARROWED, "CS223", BACKWARD),
    Edit("swarm-min-items-added-deep", "swarm/tool.json",
         put("/IToolProperty/properties/enum/minItems", 1),
         "ITool", NARROWED, "CS223", BACKWARD, slow=True),
    Edit("swarm-description-only", "swarm/tool.json",
         put("/ITool/description", "A tool an agent may call."),
         "ITool", UNCHANGED, None, NONE),
]  # fmt: skip

EDITS: list[Edit] = [*BRIDGIC, *DOCENT, *LETTA, *SWARM]
