"""Running the command in-process under a chosen JSON parser, and reading its verdicts."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from chatschema import cli, jsontext

BACKENDS = ("jsonschema", "fast")
PARSERS = ("orjson", "stdlib")
USER = '{"role":"user","content":"hi"}'


@contextmanager
def parser(name: str) -> Iterator[None]:
    """Every read in the block goes through `name`: orjson, or the standard library made to match it."""
    with pytest.MonkeyPatch.context() as patch:
        if name == "stdlib":
            patch.setattr(jsontext, "_orjson_loads", lambda: None)
        yield


def run(argv: list[str], stdin: bytes = b"", parse_with: str = "orjson") -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `chatschema validate ARGV`, in this process."""
    out, err = io.StringIO(), io.StringIO()
    with parser(parse_with):
        args = cli._parser().parse_args(["validate", *argv])
        code = cli.validate(args, io.BytesIO(stdin), out, err)
    return code, out.getvalue(), err.getvalue()


SUMMARY = re.compile(r"(\d[\d,]*) read, (\d[\d,]*) valid, (\d[\d,]*) invalid, (\d[\d,]*) malformed")


def counts(err: str) -> tuple[int, int, int, int]:
    """(read, valid, invalid, malformed) from the summary line."""
    found = SUMMARY.search(err)
    assert found is not None, err
    read, valid, invalid, malformed = (int(g.replace(",", "")) for g in found.groups())
    assert read == valid + invalid + malformed
    return read, valid, invalid, malformed


def verdicts(out: str) -> dict[str, str]:
    """Location -> "malformed" or "invalid", from the text output."""
    found = {}
    for line in out.splitlines():
        where, _, rest = line.partition(": ")
        found[where] = "malformed" if rest.startswith("malformed: ") else "invalid"
    return found


def no_traceback(text: str) -> None:
    assert "Traceback" not in text and "RecursionError" not in text and "MemoryError" not in text, text
