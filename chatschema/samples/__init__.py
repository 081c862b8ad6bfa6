"""Sample files shipped with the package, one or more per family, each with one deliberately bad line.

`chatschema samples` lists them and `chatschema samples --validate` validates each against its
schema, so a new user sees both a clean run and what an error looks like without any data of
their own. The files live next to this module (`chatschema/samples/*.jsonl`), copied by the
generator from `schemas/<family>/examples/<Type>/*.jsonl`, with `index.json` naming the schema
of each.
"""

from __future__ import annotations

import json
from pathlib import Path

DIRECTORY = Path(__file__).parent


def _index() -> dict[str, str]:
    index = json.loads((DIRECTORY / "index.json").read_text(encoding="utf-8"))
    return {name: entry["schema"] for name, entry in sorted(index.items())}


SAMPLES: dict[str, str] = _index()
"""File name -> the schema each line of it is meant for."""


def samples(families: tuple[str, ...] = ()) -> list[tuple[str, Path]]:
    """`(schema, path)` of each shipped sample file present, optionally only of some families."""
    return [
        (schema, DIRECTORY / name)
        for name, schema in SAMPLES.items()
        if (not families or schema.split("/")[0] in families) and (DIRECTORY / name).is_file()
    ]
