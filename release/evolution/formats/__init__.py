"""The output formats of `python -m release.evolution --format ...`: each renders an `Outcome` as text."""

from __future__ import annotations

from collections.abc import Callable

from ..outcome import Outcome
from . import github, json_format, junit, sarif, text

FORMATS: dict[str, Callable[[Outcome], str]] = {
    "text": text.render,
    "json": json_format.render,
    "github": github.render,
    "junit": junit.render,
    "sarif": sarif.render,
}
