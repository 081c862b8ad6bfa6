"""The `chatschema` console script and `python -m chatschema`: `chatschema.cli.main`, imported here so
that Ctrl-C at any moment, while the validators load included, exits 130 without a traceback."""

from __future__ import annotations

INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def main(argv: list[str] | None = None) -> int:
    """Run the command; 130 if it is interrupted before it could report (see `cli.validate` after)."""
    try:
        from chatschema.cli import main as run

        return run(argv)
    except KeyboardInterrupt:
        return INTERRUPTED
