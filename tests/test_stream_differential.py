"""The Python and JavaScript Letta stream readers agree on every case of tests/stream_differential.py:
two cuts of every example under every variant in the suite, and the 200,000-frame stream; `nox -s
fuzz` runs 25 cuts of each (CHATSCHEMA_STREAM_CUTS)."""

from __future__ import annotations

import os
import random

from tests.stream_differential import cases, disagreements, long_stream

CUTS = int(os.environ.get("CHATSCHEMA_STREAM_CUTS", "2"))


def test_the_two_readers_agree_on_every_cut_variant() -> None:
    found = cases(random.Random(32), CUTS)
    assert len(found) >= 200
    assert disagreements(found) == []


def test_the_two_readers_agree_on_200_000_frames() -> None:
    assert disagreements([long_stream(200_000)]) == []
