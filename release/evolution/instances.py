"""Instances for the witness search: RFC 3339 date-times in every spelling, and schemas prepared
for hypothesis-jsonschema, which would otherwise draw only the date-times Python prints and skip
the 2020-12 spellings of tuples and dependencies."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from hypothesis import strategies as st

# The format name hypothesis-jsonschema is given instead of "date-time", with `rfc3339` registered for it.
RFC3339 = "x-rfc3339"


@st.composite
def rfc3339(draw: st.DrawFn) -> str:
    """Any RFC 3339 date-time Python can represent (no leap second), in every spelling RFC 3339 allows."""
    moment = draw(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)))
    date = f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
    text = date + draw(st.sampled_from("Tt")) + f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    digits = draw(st.integers(0, 9))
    if digits:
        fraction = f"{moment.microsecond:06d}" + draw(st.text("0123456789", min_size=3, max_size=3))
        text += "." + fraction[:digits]
    offset = draw(st.sampled_from(["Z", "z", "+00:00", "-00:00", "offset"]))
    if offset == "offset":
        minutes = draw(st.integers(-(23 * 60 + 59), 23 * 60 + 59))
        sign = "-" if minutes < 0 else "+"
        offset = f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    return text + offset


# The draft hypothesis-jsonschema implements: a generation schema is written in it (see for_generation).
GENERATION_DRAFT = "http://json-schema.org/draft-07/schema#"
_DATA = frozenset({"const", "enum", "default", "examples"})


def for_generation(node: Any) -> Any:
    """`node` as hypothesis-jsonschema reads it: each `"format": "date-time"` drawn by `rfc3339`
    instead, and the 2020-12 keywords it would skip in their draft-07 spelling (`prefixItems` and
    `items` as a list of `items` and `additionalItems`, `dependentRequired` and `dependentSchemas`
    as `dependencies`). Values (`const`, `enum`, ...) are left as they are."""
    if isinstance(node, dict):
        out = {k: v if k in _DATA else for_generation(v) for k, v in node.items()}
        if out.get("format") == "date-time":
            out["format"] = RFC3339
        return _draft7(out)
    if isinstance(node, list):
        return [for_generation(v) for v in node]
    return node


def _draft7(node: dict[str, Any]) -> dict[str, Any]:
    prefix = node.get("prefixItems")
    if isinstance(prefix, list):
        rest = node.pop("items", None)
        node["items"] = node.pop("prefixItems")
        if rest is not None:
            node["additionalItems"] = rest
    required, schemas = node.get("dependentRequired"), node.get("dependentSchemas")
    if isinstance(required, dict) or isinstance(schemas, dict):
        node.pop("dependentRequired", None)
        node.pop("dependentSchemas", None)
        merged: dict[str, Any] = {}
        for name in sorted(set(required or {}) | set(schemas or {})):
            parts = [{"required": list((required or {}).get(name, []))}] if name in (required or {}) else []
            parts += [(schemas or {})[name]] if name in (schemas or {}) else []
            merged[name] = parts[0] if len(parts) == 1 else {"allOf": parts}
        node["dependencies"] = merged
    return node
