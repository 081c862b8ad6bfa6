"""Stable rule ids of the evolution diff's findings: one per verdict, per kind of schema edit (the
`kind` of a `rules.Change`) and per kind of code-level API change.

The ids are a contract with the accept lists and CI annotations that name them: an id is never
reused for another meaning, and a new kind gets a new number. docs/evolution.md lists them (a test
keeps the table and this module in step).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleInfo:
    """One rule: its id, its kebab-case name and what it means, in one line."""

    id: str
    name: str
    summary: str


# Verdicts of a named type: the id of a finding about a type with no schema edit of its own to
# point at (a type added or removed, a type whose reach changed).
VERDICTS: dict[str, RuleInfo] = {
    "narrowed": RuleInfo("CS101", "narrowed", "some payload valid before is invalid now"),
    "widened": RuleInfo("CS102", "widened", "some payload invalid before is valid now"),
    "both": RuleInfo("CS103", "narrowed-and-widened", "payloads change verdict in both directions"),
    "removed": RuleInfo("CS104", "named-type-removed", "a named type was removed"),
    "added": RuleInfo("CS105", "named-type-added", "a named type was added"),
    "unproven": RuleInfo("CS106", "changed-no-witness", "the schema text changed, no payload tells the versions apart"),
    "unknown": RuleInfo("CS107", "search-out-of-time", "the witness search ran out of time before it could decide"),
}

# Kinds of schema edit (`Change.kind`, set by each rule in rules.py).
CHANGES: dict[str, RuleInfo] = {
    info.name: info
    for info in (
        RuleInfo("CS201", "schema-replaced", "a boolean schema replaced, or replaced by one"),
        RuleInfo("CS202", "json-type-removed", "a JSON type removed from `type`"),
        RuleInfo("CS203", "json-type-added", "a JSON type added to `type`"),
        RuleInfo("CS204", "json-type-set", "`type` set where any type was allowed"),
        RuleInfo("CS205", "json-type-unset", "`type` dropped: any type allowed"),
        RuleInfo("CS206", "enum-value-removed", "an `enum` value removed"),
        RuleInfo("CS207", "enum-value-added", "an `enum` value added"),
        RuleInfo("CS208", "const-changed", "the `const` value changed"),
        RuleInfo("CS209", "const-added", "a `const` added"),
        RuleInfo("CS210", "const-removed", "a `const` removed"),
        RuleInfo("CS211", "property-became-required", "a property became required"),
        RuleInfo("CS212", "property-became-optional", "a property became optional"),
        RuleInfo("CS213", "property-added", "a property declared"),
        RuleInfo("CS214", "property-removed", "a property no longer declared"),
        RuleInfo("CS215", "pattern-property-added", "a `patternProperties` entry added"),
        RuleInfo("CS216", "pattern-property-removed", "a `patternProperties` entry removed"),
        RuleInfo("CS217", "additional-properties-closed", "`additionalProperties` became false"),
        RuleInfo("CS218", "additional-properties-opened", "`additionalProperties` no longer false"),
        RuleInfo("CS219", "union-branch-added", "a `oneOf` or `anyOf` branch added"),
        RuleInfo("CS220", "union-branch-removed", "a `oneOf` or `anyOf` branch removed"),
        RuleInfo("CS221", "allof-part-added", "an `allOf` part added"),
        RuleInfo("CS222", "allof-part-removed", "an `allOf` part removed"),
        RuleInfo(
            "CS223", "constraint-added", "a constraint keyword added (bound, pattern, format, enum, contains, ...)"
        ),
        RuleInfo("CS224", "constraint-removed", "a constraint keyword removed"),
        RuleInfo("CS225", "bound-changed", "a length, count or number bound raised or lowered"),
        RuleInfo("CS226", "multiple-of-changed", "the `multipleOf` step changed"),
        RuleInfo("CS227", "pattern-changed", "the `pattern` changed"),
        RuleInfo("CS228", "format-changed", "the `format` changed"),
        RuleInfo("CS229", "unique-items-changed", "`uniqueItems` switched"),
        RuleInfo("CS230", "prefix-item-added", "a `prefixItems` item added"),
        RuleInfo("CS231", "prefix-item-removed", "a `prefixItems` item removed"),
        RuleInfo("CS232", "dependent-required-added", "a `dependentRequired` pair added"),
        RuleInfo("CS233", "dependent-required-removed", "a `dependentRequired` pair removed"),
        RuleInfo("CS234", "conditional-added", "an `if`/`then`/`else` added"),
        RuleInfo("CS235", "conditional-removed", "an `if`/`then`/`else` removed"),
        RuleInfo("CS236", "conditional-without-if", "`then` or `else` changed where there is no `if`"),
        RuleInfo("CS237", "local-definition-added", "a type's own `$defs` entry added"),
        RuleInfo("CS238", "local-definition-removed", "a type's own `$defs` entry removed"),
        RuleInfo("CS239", "reference-added", "a `$ref` added"),
        RuleInfo("CS240", "reference-removed", "a `$ref` removed"),
        RuleInfo("CS241", "reference-changed", "a `$ref` retargeted"),
        RuleInfo("CS242", "keyword-added", "another keyword added"),
        RuleInfo("CS243", "keyword-removed", "another keyword removed"),
        RuleInfo("CS244", "keyword-changed", "another keyword's value changed"),
        RuleInfo("CS245", "map-entry-added", "an entry of another keyword's map of subschemas added"),
        RuleInfo("CS246", "map-entry-removed", "an entry of another keyword's map of subschemas removed"),
    )
}

# Edits of a stream: its grammar (schemas/<family>/grammars/) or its frames, judged by witness
# streams (streams.py).
STREAMS: dict[str, RuleInfo] = {
    info.name: info
    for info in (
        RuleInfo("CS401", "stream-frame-added", "a frame type given a role in the stream's grammar"),
        RuleInfo("CS402", "stream-frame-removed", "a frame type no longer in the stream's grammar"),
        RuleInfo("CS403", "stream-frame-role-changed", "a frame type given another role"),
        RuleInfo("CS404", "stream-transition-added", "a role allowed in a state where it was not"),
        RuleInfo("CS405", "stream-transition-removed", "a role no longer allowed in a state"),
        RuleInfo("CS406", "stream-transition-changed", "a role leading to another state"),
        RuleInfo("CS407", "stream-end-added", "a state where the stream may end added"),
        RuleInfo("CS408", "stream-end-removed", "a state where the stream may end removed"),
        RuleInfo("CS409", "stream-start-changed", "the state the stream starts in changed"),
        RuleInfo("CS410", "stream-frames-changed", "a frame type of the stream's union changed"),
    )
}

# Code-level API changes (`ApiChange.change`).
API: dict[str, RuleInfo] = {
    "removed": RuleInfo("CS301", "api-removed", "a class, field, alias, function or TypeScript type removed"),
    "renamed": RuleInfo("CS302", "api-renamed", "a class renamed (same members)"),
    "changed": RuleInfo("CS303", "api-changed", "a field's type or optionality, an alias or a signature changed"),
    "added": RuleInfo("CS304", "api-added", "an API entry added"),
}

# Not a finding of a type: an accept-list entry expired or matching nothing, a version not bumped enough.
GATE = RuleInfo(
    "CS000", "gate-problem", "an accept-list entry expired or matches nothing, or a version is not bumped enough"
)

ALL: tuple[RuleInfo, ...] = (GATE, *VERDICTS.values(), *CHANGES.values(), *STREAMS.values(), *API.values())
BY_ID: dict[str, RuleInfo] = {info.id: info for info in ALL}


def change_rule(kind: str) -> RuleInfo:
    """The rule of a kind of schema or stream edit (a KeyError for a kind these tables lack: a bug,
    caught by the tests)."""
    return CHANGES[kind] if kind in CHANGES else STREAMS[kind]
