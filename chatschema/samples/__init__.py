"""Sample files shipped with the package, one per family, each with one deliberately bad line.

`chatschema samples` lists them and `chatschema samples --validate` validates each against its
schema, so a new user sees both a clean run and what an error looks like without any data of
their own. The files live next to this module (`chatschema/samples/*.jsonl`).
"""

from __future__ import annotations

from pathlib import Path

SAMPLES: dict[str, str] = {
    "docent_transcript.jsonl": "docent/ChatMessage",
    "letta_stream.jsonl": "letta/LettaStreamingResponse",
    "bridgic_conversation.jsonl": "bridgic/Message",
    "swarm_history.jsonl": "swarm/ISwarmMessage",
}
"""File name -> the schema each line of it is meant for."""

DIRECTORY = Path(__file__).parent


def samples(families: tuple[str, ...] = ()) -> list[tuple[str, Path]]:
    """`(schema, path)` of each shipped sample file present, optionally only of some families."""
    return [
        (schema, DIRECTORY / name)
        for name, schema in SAMPLES.items()
        if (not families or schema.split("/")[0] in families) and (DIRECTORY / name).is_file()
    ]
