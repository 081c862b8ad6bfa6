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


def test_lines_that_do_not_parse_are_never_checked_in_the_hot_loop() -> None:
    """Blank and malformed lines cost a parse attempt, not a schema check (10 µs each on the reference)."""
    from chatschema.validate.run import Engine, Options

    engine = Engine(Options("docent/ChatMessage", backend="jsonschema"))
    checked: list[object] = []
    is_valid = engine.checker.is_valid

    def counting(value: object) -> bool:
        checked.append(value)
        return is_valid(value)

    engine.checker.is_valid = counting
    lines = [b"", b"{", USER.encode(), b"  ", b"[1,", USER.encode()] * 100
    suspects: list[int] = []
    parsed: dict[int, object] = {}
    assert engine._fast(list(lines), suspects, parsed) == 200
    assert len(checked) == 200
    assert suspects == [i for i, line in enumerate(lines) if line != USER.encode()]
    assert parsed == {}  # what did not parse is parsed again by the slow path, for its reason
    bot = b'{"role": "bot", "content": "x"}'
    suspects.clear()
    assert engine._fast([USER.encode(), bot], suspects, parsed) == 1
    assert suspects == [1] and parsed == {1: {"role": "bot", "content": "x"}}  # parsed once, explained from it


@pytest.mark.parametrize(("backend", "collector_on"), [("jsonschema", True), ("fast", False)])
def test_the_cycle_collector_is_off_only_where_nothing_makes_cycles(backend: str, collector_on: bool) -> None:
    """The fast backend's loop (orjson, jsonschema-rs) makes no reference cycles; the reference's
    errors do (`error.parent`), and left uncollected they held 930 MB for one bad line."""
    import gc

    from chatschema.validate.reader import Chunk
    from chatschema.validate.run import Engine, Options

    engine = Engine(Options("docent/ChatMessage", backend=backend))
    seen: list[bool] = []
    is_valid = engine.checker.is_valid

    def recording(value: object) -> bool:
        seen.append(gc.isenabled())
        return is_valid(value)

    engine.checker.is_valid = recording
    assert gc.isenabled()
    result = engine.check(Chunk("<test>", False, 1, [USER.encode(), b'{"role":"bot"}'], 0))
    assert (result.valid, result.invalid) == (1, 1)
    assert seen[:2] == [collector_on, collector_on]
    assert gc.isenabled()
