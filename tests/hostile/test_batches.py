"""The hot loop parses and checks messages in batches (`Engine._fast`): a bad line anywhere in a
block, at a batch's edges or in a row, is reported at its own line, and every line is counted once."""

from __future__ import annotations

import pytest

from chatschema.validate.run import _BATCH

from .common import BACKENDS, PARSERS, USER, counts, run, verdicts

BAD = {
    "malformed": '{"role":"user",',
    "invalid": '{"role":"bot","content":"hi"}',
    "blank": "",
    "null": "null",
    "too large": '{"role":"user","content":"' + "x" * 100 + '"}',
}
MAX_BYTES = 80  # a "too large" line is over it, every other line under it


def _file(size: int, bad: dict[int, str]) -> tuple[bytes, dict[str, str]]:
    """`size` lines, valid but for the 0-based positions in `bad`; and the verdicts expected per line."""
    lines, expected = [], {}
    for i in range(size):
        kind = bad.get(i)
        lines.append(USER if kind is None else BAD[kind])
        if kind in ("malformed", "too large"):
            expected[f"<stdin>:{i + 1}"] = "malformed"
        elif kind in ("invalid", "null"):
            expected[f"<stdin>:{i + 1}"] = "invalid"
    return ("\n".join(lines) + "\n").encode(), expected


EDGES = [0, 1, _BATCH - 1, _BATCH, _BATCH + 1, 2 * _BATCH - 1, 2 * _BATCH]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("parse_with", PARSERS)
def test_bad_lines_at_batch_edges_are_reported_where_they_are(backend: str, parse_with: str) -> None:
    size = 3 * _BATCH + 5
    kinds = ["malformed", "invalid", "blank", "null", "too large"]
    bad = {at: kinds[n % len(kinds)] for n, at in enumerate([*EDGES, size - 1])}
    bad.update({300: "malformed", 301: "malformed", 302: "invalid"})  # a run of bad lines
    data, expected = _file(size, bad)
    argv = ["--schema", "docent/ChatMessage", "--backend", backend, "--max-bytes", str(MAX_BYTES), "-"]
    code, out, err = run(argv, data, parse_with)
    assert code == 1
    assert verdicts(out) == expected
    blanks = sum(kind == "blank" for kind in bad.values())
    malformed = sum(v == "malformed" for v in expected.values())
    assert counts(err) == (size - blanks, size - blanks - len(expected), len(expected) - malformed, malformed)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_all_bad_batch_and_an_all_good_one(backend: str) -> None:
    size = 2 * _BATCH
    data, expected = _file(size, dict.fromkeys(range(_BATCH), "malformed"))
    code, out, err = run(["--schema", "docent/ChatMessage", "--backend", backend, "-"], data)
    assert code == 1
    assert verdicts(out) == expected
    assert counts(err) == (size, _BATCH, 0, _BATCH)


def test_no_shipped_schema_accepts_null() -> None:
    """The hot loop stands None in for a line that did not parse, relying on this."""
    from chatschema import schemas

    assert not [name for name in schemas.names() if schemas.validator(name).is_valid(None)]
