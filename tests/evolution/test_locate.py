"""JSON pointer -> line in a schema file's text (the line of a finding's annotation)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from release.evolution.locate import LocateError, escape, nearest, pointer_lines

ROOT = Path(__file__).resolve().parents[2]
TEXT = """{
  "a": 1,
  "b": [
    {"x/y": null, "t~": "}]\\"{["},
    [2, 3.5e1],
    []
  ],
  "c": {
    "d":
      true
  }
}
"""


def test_each_member_is_on_its_key_s_line_and_each_item_on_its_own() -> None:
    assert pointer_lines(TEXT) == {
        "": 1,
        "/a": 2,
        "/b": 3,
        "/b/0": 4,
        "/b/0/x~1y": 4,
        "/b/0/t~0": 4,
        "/b/1": 5,
        "/b/1/0": 5,
        "/b/1/1": 5,
        "/b/2": 6,
        "/c": 8,
        "/c/d": 9,
    }


def test_a_pointer_not_in_the_text_falls_back_to_the_nearest_enclosing_one() -> None:
    lines = pointer_lines(TEXT)
    assert nearest(lines, "/c/d") == ("/c/d", 9)
    assert nearest(lines, "/c/gone/deeper") == ("/c", 8)
    assert nearest(lines, "/nothing") == ("", 1)
    assert nearest({}, "/x") is None


def test_escape_is_rfc_6901() -> None:
    assert escape("a/b~c") == "a~1b~0c"


def test_nesting_deeper_than_the_recursion_limit() -> None:
    depth = 5000
    lines = pointer_lines("[" * depth + "\n1" + "]" * depth)
    assert lines["/0" * depth] == 2


@pytest.mark.parametrize("bad", ['{"a" 1}', "[1, 2", '{"a": 1]', "{1: 2}", '["\\x"]', "[tru]"])
def test_text_that_is_not_json_is_an_error_not_a_wrong_line(bad: str) -> None:
    with pytest.raises(LocateError):
        pointer_lines(bad)


def _pointers(value: Any, at: str = "") -> list[str]:
    out = [at]
    if isinstance(value, dict):
        out += [p for k, v in value.items() for p in _pointers(v, f"{at}/{escape(k)}")]
    elif isinstance(value, list):
        out += [p for i, v in enumerate(value) for p in _pointers(v, f"{at}/{i}")]
    return out


def test_every_pointer_of_the_real_schemas_is_found_on_a_line_that_names_it() -> None:
    files = sorted((ROOT / "schemas").glob("*/*.json"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        lines, rows = pointer_lines(text), text.splitlines()
        for pointer in _pointers(json.loads(text)):
            assert pointer in lines, (path, pointer)
            last = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
            if pointer and not last.isdigit():  # a member: its key is on that line
                assert json.dumps(last, ensure_ascii=False)[1:-1] in rows[lines[pointer] - 1], (path, pointer)
