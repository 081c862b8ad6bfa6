"""The accept list: known breaks let through on purpose, each with a reason and an optional expiry.

`release/accepted.json` (or `--accept FILE`):

    {"accept": [{"rule": "CS211", "type": "letta/ToolCallMessage", "reason": "...", "expires": "2027-01-31"}]}

An entry matches the findings with its rule id on its type. It cannot rot: an entry that matches
no finding of the families compared fails the gate, and so does an entry past its expiry date
(valid through that day, UTC).
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .gate import GateError
from .ids import BY_ID, GATE
from .locate import pointer_lines

DEFAULT_PATH = "release/accepted.json"
_KEYS = {"rule", "type", "reason", "expires"}
_TYPE = re.compile(r"[a-z][a-z0-9_]*/[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Entry:
    """One accepted break."""

    number: int  # 1-based, as the file lists them
    rule: str
    type: str  # family/Type
    reason: str
    expires: datetime.date | None
    line: int = 1  # where the entry starts in the file

    @property
    def family(self) -> str:
        """The family of the entry's type."""
        return self.type.split("/", 1)[0]

    def label(self, shown: str) -> str:
        """How an error line names the entry."""
        return f"{shown}: entry {self.number} ({self.rule} {self.type})"


def load(path: Path, shown: str) -> list[Entry]:
    """The entries of an accept list (none when the file does not exist); GateError for a bad file."""
    if not path.is_file():
        return []
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise GateError(f"diff: {shown}: cannot read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise GateError(f"diff: {shown}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    if not isinstance(data, dict) or set(data) != {"accept"} or not isinstance(data["accept"], list):
        raise GateError(f'diff: {shown}: expected {{"accept": [entries]}}')
    lines = pointer_lines(text)
    return [replace(_entry(item, i, shown), line=lines[f"/accept/{i}"]) for i, item in enumerate(data["accept"])]


def _entry(item: Any, index: int, shown: str) -> Entry:
    where = f"diff: {shown}: /accept/{index}"
    if not isinstance(item, dict):
        raise GateError(f"{where}: expected an object with rule, type, reason and optionally expires")
    for key in sorted(set(item) - _KEYS):
        raise GateError(f"{where}/{key}: unknown key (known: {', '.join(sorted(_KEYS))})")
    for key in ("rule", "type", "reason"):
        if not isinstance(item.get(key), str) or not item[key].strip():
            raise GateError(f"{where}/{key}: a non-empty string is required")
    if item["rule"] not in BY_ID or item["rule"] == GATE.id:
        raise GateError(f"{where}/rule: {item['rule']!r} is not a rule id (docs/evolution.md lists them)")
    if not _TYPE.fullmatch(item["type"]):
        raise GateError(f"{where}/type: {item['type']!r} is not family/Type")
    expires = item.get("expires")
    date = None
    if expires is not None:
        try:
            if not isinstance(expires, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", expires):
                raise ValueError
            date = datetime.date.fromisoformat(expires)
        except ValueError:
            raise GateError(f"{where}/expires: {expires!r} is not a date YYYY-MM-DD") from None
    return Entry(index + 1, item["rule"], item["type"], item["reason"], date)


def today() -> datetime.date:
    """Today in UTC (an expiry date is the same for every CI runner's time zone)."""
    return datetime.datetime.now(datetime.UTC).date()
