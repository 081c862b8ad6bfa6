"""The `chatschema` command: `chatschema validate --schema <family>/<Type> PATH...`.

Exit status: 0 if every message is valid, 1 if any is invalid or malformed, 2 for a usage error
(unknown schema or family, unreadable file, bad option).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import importlib.util
import io
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import suppress
from typing import Any, BinaryIO, NoReturn, TextIO, cast

from chatschema import schemas
from chatschema.jsontext import DEPTH_LIMIT, MAX_DEPTH
from chatschema.listing import list_samples, list_schemas, version
from chatschema.validate.backends import AUTO, BACKENDS, fast_available, message_types
from chatschema.validate.jobs import choose_jobs
from chatschema.validate.reader import JSON_SPACE, Chunk, read_array, read_document, read_lines
from chatschema.validate.report import Reporter, printable_name
from chatschema.validate.run import Options, run
from chatschema.validate.snapshot import FileChanged, Snapshot
from chatschema.validate.stop import exit_status, sigterm_raises

MAX_BYTES = 16 * 1024 * 1024
MAX_BYTES_LIMIT = 2**31 - 1  # a message is held whole in memory: 2 GiB is past any chat message
USAGE_ERROR = 2
# The output's reader stopped reading (`| head`): 128 + SIGPIPE, as for a command that signal ends; 1
# would say a message was invalid.
READER_GONE = 141

EPILOG = """\
input: with --each, every input ('-' for stdin included) is a top-level array of messages, read
element by element; without it, a .json file is one message and any other file, and '-', is JSONL:
one message per line, blank lines skipped.

--schema auto: each message is checked against the message types it names: a tagged union by the
tag value it carries (docent/ChatMessage and docent/DocentChatMessage by 'role', letta/LettaMessage
and letta/LettaStreamingResponse by 'message_type', bridgic/ContentBlock by 'block_type'), and a
family's untagged message type (bridgic/Message, swarm/ISwarmMessage: the type of its sample file)
by a key no other type declares (bridgic's 'blocks', swarm's 'agentName'), which then names that
type alone. A message valid under any type it names is valid; an invalid one is explained by the
first. --family limits the types to some families.

output: one line per invalid or malformed message, 'file:line: $.path: reason' ('file[index]'
for array elements), or JSONL records with --format json; a summary on stderr.

--unknown: a message whose tag is a string no branch of its union has (a type from a later
release) is invalid by default; 'warn' reports it as a warning line and counts it apart, 'allow'
only counts it. Neither fails the run.
exit status: 0 all valid (or of later types, with --unknown warn|allow), 1 any invalid or malformed
message, 2 usage error.
"""


MAIN_EPILOG = """\
exit status (every command): 0 success, every message valid; 1 an invalid or malformed message;
2 usage error (unknown schema or family, missing file, bad option); 130 or 143 stopped by Ctrl-C
or SIGTERM; 141 the output's reader stopped reading (`| head`). Output is never coloured.
"""


class _OneLineParser(argparse.ArgumentParser):
    """A usage error is one line, as every other error of the command is (argparse prints its usage
    block before it); `--help` still shows the whole usage. Subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        # an unrecognized argument is quoted raw by argparse: its control characters escaped, as a name's
        self.exit(USAGE_ERROR, f"{self.prog}: {printable_name(message)} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="chatschema",
        description="Validate chat messages against chatschema's schemas.",
        epilog=MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"chatschema {version()}")
    sub = parser.add_subparsers(dest="command")
    v = sub.add_parser(
        "validate",
        help="validate JSON / JSONL files or stdin",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    v.add_argument("paths", nargs="+", metavar="PATH", help="files to read; '-' for stdin")
    v.add_argument("--schema", "-s", required=True, help="<family>/<Type> (see 'chatschema schemas'), or 'auto'")
    v.add_argument("--family", action="append", default=[], help="with --schema auto: pick only from this family")
    v.add_argument("--each", action="store_true", help="the input is a JSON array: validate each element")
    v.add_argument("--format", choices=("text", "json"), default="text", help="output lines as text or JSONL")
    v.add_argument("--backend", choices=BACKENDS, default="jsonschema", help="validator (default: the reference)")
    v.add_argument(
        "--jobs",
        "-j",
        type=int,
        help="processes to use (0: one per CPU; default: one per CPU for files of a few MiB or more, else 1)",
    )
    v.add_argument(
        "--unknown",
        choices=("error", "warn", "allow"),
        default="error",
        help="a message whose tag names a type this version does not know: invalid (default), counted and "
        "reported as a warning, or counted only",
    )
    v.add_argument("--max-bytes", type=int, default=MAX_BYTES, help=f"largest message read (default {MAX_BYTES:,})")
    v.add_argument("--max-depth", type=int, default=MAX_DEPTH, help=f"deepest nesting (default {MAX_DEPTH})")
    v.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bar on stderr")
    v.add_argument("--quiet", "-q", action="store_true", help="no summary line")
    v.add_argument(
        "--count-only",
        action="store_true",
        help="count invalid messages without explaining them (no line per invalid message; faster)",
    )
    v.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="check on a Dask cluster: a scheduler address, or 'local' for a LocalCluster of --jobs workers; "
        "PATHs may then be globs and fsspec URLs (s3://, gs://, file://...); needs the 'dask' extra",
    )
    v.add_argument("--block-size", help="with --dask: bytes of JSONL per task (default 16MiB)")
    names = sub.add_parser("schemas", help="list the schema names", epilog=MAIN_EPILOG)
    names.add_argument("--family", action="append", default=[], help="only this family (repeatable)")
    names.add_argument("--format", choices=("text", "json"), default="text", help="names, or JSON records")
    shipped = sub.add_parser(
        "samples", help="list, or validate, the sample files shipped in the package", epilog=MAIN_EPILOG
    )
    shipped.add_argument("--family", action="append", default=[], help="only this family (repeatable)")
    shipped.add_argument("--validate", action="store_true", help="validate each sample against its schema")
    converters = _converters()
    if converters is not None:
        converters.add_parser(sub)
    return parser


def _converters() -> Any:
    """`chatschema convert`'s module; None in a build without the docent family, which ships no converters."""
    if importlib.util.find_spec("chatschema.convert") is None:
        return None
    return importlib.import_module("chatschema.convert.command")


def _open(path: str, stdin: BinaryIO) -> BinaryIO:
    """The input to read: stdin, a regular file as it is now (`Snapshot`), or any other file as it comes.
    A regular file of size 0 is read as it comes too: procfs and sysfs files say 0 and hold text."""
    if path == "-":
        return stdin
    stream = open(path, "rb")
    status = os.fstat(stream.fileno())
    if stat.S_ISREG(status.st_mode) and status.st_size > 0:
        return cast(BinaryIO, Snapshot(stream, path))  # the reads the readers make: read, tell, fileno
    return stream


def _chunks(
    paths: list[str], each: bool, max_bytes: int, stdin: BinaryIO, err: TextIO, failed: list[str], spans: bool
) -> Iterator[Chunk]:
    """The chunks of every input; with `spans` (worker processes check them), JSONL chunks of a
    regular file name their lines' place in it instead of holding them."""
    for path in paths:
        name = "<stdin>" if path == "-" else path
        try:
            stream = _open(path, stdin)
        except OSError as exc:
            err.write(f"chatschema validate: cannot read {printable_name(path)}: {exc.strerror}\n")
            failed.append(path)
            continue
        try:
            if each:
                chunks = read_array(stream, name, max_bytes)
            elif path.endswith(".json"):
                chunks = read_document(stream, name, max_bytes)
            else:
                regular = spans and isinstance(stream, Snapshot)
                chunks = read_lines(stream, name, max_bytes, path=path if regular else None)
            empty = True
            for chunk in chunks:
                empty = empty and _blank(chunk)
                yield chunk
            if isinstance(stream, Snapshot):
                stream.check_still_there()
            if empty and each:
                err.write(f"chatschema validate: {printable_name(name)}: no message read (empty input or array)\n")
            elif empty and not path.endswith(".json"):
                err.write(f"chatschema validate: {printable_name(name)}: empty input, no message read\n")
        except FileChanged:
            raise  # the run stops (as when a worker finds it): see chatschema.validate.snapshot
        except OSError as exc:
            err.write(f"chatschema validate: error reading {printable_name(path)}: {exc.strerror or exc}\n")
            failed.append(path)
        finally:
            if stream is not stdin:
                stream.close()


def _blank(chunk: Chunk) -> bool:
    """Whether a JSONL chunk holds nothing but blank lines."""
    if chunk.span is not None:
        return chunk.blank
    if chunk.blob:
        return not chunk.blob.strip(JSON_SPACE) and not chunk.head.strip(JSON_SPACE)
    return all(isinstance(item, bytes) and not item.strip(JSON_SPACE) for item in chunk.items)


def _unreadable(path: str) -> str | None:
    """Why `path` cannot be validated, checked before reading anything; None if it can be read."""
    if path == "-":
        return None
    try:
        is_dir = stat.S_ISDIR(os.stat(path).st_mode)
    except OSError as exc:  # in the system's words: a symbolic link loop, a directory that may not be searched
        return (
            f"no such file: {printable_name(path)}"
            if exc.errno == errno.ENOENT
            else f"cannot read {printable_name(path)}: {exc.strerror}"
        )
    if is_dir:
        return f"{printable_name(path)} is a directory (give the files: e.g. {printable_name(os.path.join(path, '*.jsonl'))})"
    return None  # a regular file, a FIFO, a device or /dev/fd/N (`<(cmd)`) is streamed


def _usage(err: TextIO, message: str) -> int:
    err.write(f"chatschema validate: {message}\n")
    return USAGE_ERROR


def validate(args: argparse.Namespace, stdin: BinaryIO, out: TextIO, err: TextIO) -> int:
    """Run `chatschema validate`; returns the exit status."""
    families = tuple(args.family)
    if args.schema == AUTO:
        unknown = [f for f in families if f not in schemas.families()]
        if unknown:
            return _usage(err, f"unknown family {', '.join(unknown)}; known: {', '.join(schemas.families())}")
        if not message_types(families):
            return _usage(err, f"--schema auto: no message type to pick from in {', '.join(families)}")
    else:
        if families:
            return _usage(err, "--family goes with --schema auto")
        try:
            schemas.schema_id(args.schema)
        except schemas.UnknownSchemaError as exc:
            return _usage(err, str(exc))
    if not 1 <= args.max_depth <= DEPTH_LIMIT:
        return _usage(err, f"--max-depth must be between 1 and {DEPTH_LIMIT}")
    if not 1 <= args.max_bytes <= MAX_BYTES_LIMIT:
        return _usage(err, f"--max-bytes must be between 1 and {MAX_BYTES_LIMIT:,}")
    if args.jobs is not None and args.jobs < 0:
        return _usage(err, "--jobs must be 0 (one per CPU) or more")
    if args.block_size is not None and args.dask is None:
        return _usage(err, "--block-size goes with --dask")
    if args.dask is not None and "-" in args.paths:
        return _usage(err, "--dask reads files and URLs, not stdin ('-')")
    if args.dask is None:  # with --dask, each unreadable file or URL is reported and the rest checked
        for path in args.paths:
            problem = _unreadable(path)
            if problem is not None:
                return _usage(err, problem)
    if args.paths.count("-") > 1:
        return _usage(err, "'-' (stdin) can be read only once")
    backend = args.backend
    if backend == "fast" and not fast_available():
        err.write(
            "chatschema validate: the fast backend needs the 'fast' extra (pip install '.[fast]' in a chatschema checkout); "
            "using --backend jsonschema\n"
        )
        backend = "jsonschema"
    jobs = choose_jobs(args.jobs, args.paths, backend, err)
    options = Options(args.schema, backend, families, args.max_depth, not args.count_only, args.unknown)
    progress = args.progress if args.progress is not None else err.isatty()
    reporter = Reporter(out, err, args.format, progress, args.schema == AUTO, args.unknown != "error")
    if args.dask is not None:
        from chatschema.dask.command import run_on_dask

        return run_on_dask(args, options, reporter, err)
    reporter.expected_size = sum(os.path.getsize(p) for p in args.paths if p != "-" and os.path.isfile(p))
    failed: list[str] = []
    chunks = _chunks(args.paths, args.each, args.max_bytes, stdin, err, failed, spans=jobs > 1)
    try:
        for result in run(chunks, options, jobs):
            reporter.add(result)
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM
        reporter.finish()
        return exit_status(stop)
    except BrokenPipeError:
        raise
    except OSError as exc:  # FileChanged, here or in a worker (chatschema.validate.snapshot)
        reporter.finish()
        err.write(f"chatschema validate: {exc}\n")
        return USAGE_ERROR
    if args.quiet:
        out.flush()
    else:
        reporter.finish()
    if failed:
        return USAGE_ERROR
    return 0 if reporter.total.invalid == 0 and reporter.total.malformed == 0 else 1


def _stdin() -> BinaryIO:
    """Standard input, unbuffered. Under --jobs a thread reads it, and may be waiting for input when
    the command ends (Ctrl-C, SIGTERM): if that wait held a buffered reader's lock, the interpreter
    would abort at exit ("could not acquire lock for <stdin>")."""
    try:
        return open(0, "rb", buffering=0, closefd=False)
    except OSError:  # no standard input at all (file descriptor 0 closed)
        return io.BytesIO()


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.command is None:  # bare `chatschema`: what it can do
        parser.print_help(sys.stdout)
        return 0
    if args.command == "schemas":
        return list_schemas(args, sys.stdout, sys.stderr)
    if args.command == "samples":
        return list_samples(args, _stdin(), sys.stdout, sys.stderr)
    if args.command == "convert":
        return int(_converters().convert(args, _stdin(), sys.stdout, sys.stderr))
    return validate(args, _stdin(), sys.stdout, sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `chatschema` console script and of `python -m chatschema`."""
    if sys.stderr is None:  # started with standard error closed (`2>&-`): what goes there is dropped
        sys.stderr = open(os.devnull, "w", encoding="utf-8", errors="backslashreplace")
    if sys.stdout is None:  # started with standard output closed (`>&-`): no command can say its result
        sys.stderr.write("chatschema: standard output is closed\n")
        return USAGE_ERROR
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        with sigterm_raises():
            return _dispatch(parser, args)
    except BrokenPipeError:  # e.g. piped into `head`
        with suppress(OSError):
            sys.stdout.close()
        return READER_GONE
    except OSError as exc:  # writing failed (a full disk, /dev/full); each command reports what it cannot read
        with suppress(OSError):
            sys.stdout.close()  # not flushed again at exit, which would print a traceback
        sys.stderr.write(f"chatschema {args.command or ''}: cannot write standard output: {exc.strerror or exc}\n")
        return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
