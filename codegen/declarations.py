"""json-schema-to-typescript's declarations for each family, from the cache where its input is as it
was, descriptions aside (codegen/descriptions.py).

The tool reads each family's input with its descriptions replaced by placeholders, so its output,
cached as `json2ts-<family>`, is keyed by everything it depends on except the descriptions, which
are written back afterwards. A family whose output holds a placeholder where the tool's writing is
not known is compiled again from the real text; either way the result is what the tool writes from
the real text.
"""

from __future__ import annotations

import json
from typing import Any

from .cache import Cache, digest
from .descriptions import Placeholders, holds_placeholder_text
from .families import CLOSED_TS_FAMILIES
from .model import FamilyModel
from .typescript import NodeJob, ts_input


def _compile(inputs: dict[str, dict[str, Any]]) -> NodeJob | None:
    return NodeJob("json2ts.cjs", inputs) if inputs else None


class Declarations:
    """json-schema-to-typescript running in Node for some families, while the caller does other work."""

    def __init__(self, families: dict[str, FamilyModel], stamp: str, cache: Cache | None) -> None:
        self._families, self._cache = families, cache
        self._placeholders: dict[str, Placeholders] = {}
        self._keys: dict[str, str] = {}
        self._texts: dict[str, str] = {}  # the tool's output, placeholders and all
        inputs: dict[str, dict[str, Any]] = {}
        for name, family in sorted(families.items()):
            schema = ts_input(family)
            hiding = None if holds_placeholder_text(schema) else Placeholders(True)
            tool_input = {
                "schema": hiding.hide(schema) if hiding is not None else schema,
                "additionalProperties": name not in CLOSED_TS_FAMILIES,
            }
            if hiding is None:
                inputs[name] = tool_input
                continue
            self._placeholders[name] = hiding
            self._keys[name] = digest(stamp, json.dumps(tool_input, ensure_ascii=False))
            hit = cache.get(f"json2ts-{name}", self._keys[name], ("d.ts",)) if cache is not None else None
            if hit is not None and "d.ts" in hit:
                self._texts[name] = hit["d.ts"].decode("utf-8")
            else:
                inputs[name] = tool_input
        self._job = _compile(inputs)

    def result(self) -> dict[str, str]:
        """TypeScript declarations per family; RuntimeError if json-schema-to-typescript failed."""
        fresh: dict[str, str] = self._job.result() if self._job is not None else {}
        for name, text in fresh.items():
            if self._cache is not None and name in self._placeholders:
                self._cache.put(f"json2ts-{name}", self._keys[name], {"d.ts": text.encode("utf-8")})
        self._texts.update(fresh)
        declarations: dict[str, str] = {}
        again: dict[str, dict[str, Any]] = {}
        for name, text in self._texts.items():
            hiding = self._placeholders.get(name)
            restored = hiding.restore_typescript(text) if hiding is not None else text
            if restored is not None:
                declarations[name] = restored
            else:
                real = ts_input(self._families[name])
                again[name] = {"schema": real, "additionalProperties": name not in CLOSED_TS_FAMILIES}
        job = _compile(again)
        declarations.update(job.result() if job is not None else {})
        return dict(sorted(declarations.items()))
