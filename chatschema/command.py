"""The `chatschema` console script and `python -m chatschema`: `chatschema.cli.main`, imported here so
that Ctrl-C at any moment, while the validators load included, exits 130 without a traceback.

Nothing is imported at the top, not even `__future__`: a Ctrl-C that arrives while this module loads
would end in a traceback before `main` could catch it."""

INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def _interrupt(exc: BaseException) -> KeyboardInterrupt | None:
    """The KeyboardInterrupt that `exc` is or was caused by, if any: Python 3.11 wraps one raised while
    a class is created (in `__set_name__`, e.g. as `ipaddress` loads) in a RuntimeError."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        cause = cause.__cause__
    return None


def main(argv: list[str] | None = None) -> int:
    """Run the command; 130 if it is interrupted before it could report (see `cli.validate` after)."""
    try:
        from chatschema.cli import main as run

        return run(argv)
    except BaseException as exc:
        stop = _interrupt(exc)
        if stop is None:
            raise
        return int(getattr(stop, "exit_status", INTERRUPTED))  # SIGTERM's Terminated carries its own (143)
