"""The `chatschema` console script and `python -m chatschema`: `chatschema.cli.main`, imported here so
that Ctrl-C at any moment, while the validators load included, exits 130 without a traceback.

Nothing is imported at the top, not even `__future__`: a Ctrl-C that arrives while this module loads
would end in a traceback before `main` could catch it."""

INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def main(argv: list[str] | None = None) -> int:
    """Run the command; 130 if it is interrupted before it could report (see `cli.validate` after)."""
    try:
        from chatschema.cli import main as run

        return run(argv)
    except KeyboardInterrupt as stop:  # SIGTERM's Terminated carries its own status (143)
        return int(getattr(stop, "exit_status", INTERRUPTED))
