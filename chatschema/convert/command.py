"""`chatschema convert`: conversations of one family, read from files or stdin, written as Docent
agent runs, one JSON line per input, as each input is converted."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from chatschema._base import deep_json_text
from chatschema.jsontext import MAX_DEPTH, Malformed, loader, parse
from chatschema.unknown import Unknown
from chatschema.validate.report import printable_name

from .errors import ConversionError

SOURCES = ("bridgic", "letta", "swarm")
MAX_INPUT = 64 << 20  # bytes of one input (one conversation), by default
MAX_INPUT_LIMIT = 2**31 - 1  # an input is held whole in memory, as validate's messages are
FORMATS = ("auto", "json", "jsonl", "frames", "sse")
EPILOG = """\
input: each PATH is one conversation. JSON: an array of messages (for Letta, also a LettaResponse
object). JSONL: one message per line. Letta only: frames, a stream recorded as JSONL, one frame per
line (taken for JSONL holding a stop_reason, usage, ping or error frame, or a tool call fragment);
SSE, a recorded text/event-stream body. Both are reassembled first. An input with no message in it
(an empty file, `[]`, a stream that holds none) is an error, not an empty run. With --input auto, a
.json, .jsonl or .sse name says which; otherwise the text does: '[' is JSON, '{' is JSONL (or JSON
when it is a single object with "messages"), anything else SSE.

output: one Docent agent run per PATH, as one JSON line each, in order, to --output (default
stdout). Named after the file unless --name is given. A summary on stderr.
exit status: 0 every input converted; 1 an input could not be (one line on stderr naming the file,
the line or message, the field and why; the other inputs are still converted); 2 usage error.
"""


def add_parser(sub: Any) -> None:
    """The `convert` subcommand's arguments."""
    c = sub.add_parser(
        "convert",
        help="convert conversations into Docent agent runs (JSONL out)",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument("paths", nargs="+", metavar="PATH", help="conversations to read; '-' for stdin")
    c.add_argument("--from", dest="source", required=True, choices=SOURCES, help="the family of the input")
    c.add_argument("--to", dest="target", default="docent", choices=("docent",), help="the output (default docent)")
    c.add_argument("--output", "-o", default="-", help="where the runs go (default '-': stdout)")
    c.add_argument("--input", choices=FORMATS, default="auto", help="how the input is written (default auto)")
    c.add_argument("--lenient", action="store_true", help="set aside what has no counterpart, in the run's metadata")
    c.add_argument("--name", help="the run's name (default: the file's name without its extension)")
    c.add_argument("--max-bytes", type=int, default=MAX_INPUT, help=f"largest input read (default {MAX_INPUT:,})")
    c.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="inputs done, on stderr")
    c.add_argument("--quiet", "-q", action="store_true", help="no summary line")


@dataclass
class _Tally:
    read: int = 0
    converted: int = 0
    messages: int = 0
    set_aside: int = 0
    started: float = field(default_factory=time.perf_counter)

    def summary(self) -> str:
        seconds = time.perf_counter() - self.started
        return (
            f"chatschema convert: {self.read} read, {self.converted} converted, {self.read - self.converted} failed; "
            f"{self.messages} message{'' if self.messages == 1 else 's'}, {self.set_aside} set aside, in {seconds:.2f}s\n"
        )


def convert(args: argparse.Namespace, stdin: BinaryIO, out: TextIO, err: TextIO) -> int:
    """Run `chatschema convert`; returns the exit status."""
    problem = _usage_problem(args)
    if problem is not None:
        return _usage(err, problem)
    try:
        target = out if args.output == "-" else open(args.output, "w", encoding="utf-8")
    except OSError as exc:
        return _usage(err, f"cannot write {printable_name(args.output)}: {exc.strerror}")
    tally = _Tally()
    progress = args.progress if args.progress is not None else err.isatty()
    try:
        _convert_each(args, stdin, target, err, tally, progress)
    except OSError as exc:
        if target is out:
            raise  # standard output: the command line's handler says so
        return _usage(err, f"cannot write {printable_name(args.output)}: {exc.strerror or exc}")
    finally:
        if target is not out:
            with contextlib.suppress(OSError):  # a full disk fails the close too: reported above
                target.close()
    if progress:
        err.write("\r")
    if not args.quiet:
        err.write(tally.summary())
    return 0 if tally.converted == tally.read else 1


def _convert_each(
    args: argparse.Namespace, stdin: BinaryIO, target: TextIO, err: TextIO, tally: _Tally, progress: bool
) -> None:
    """Convert each input in turn, writing its run to `target` as it is done."""
    for path in args.paths:
        tally.read += 1
        run = _converted(args, path, stdin, err)
        if run is not None:
            tally.converted += 1
            tally.messages += sum(len(t.messages) for t in run.transcripts)
            tally.set_aside += len(run.metadata.get("chatschema", {}).get("set_aside", []))
            target.write(deep_json_text(run.model_dump(mode="json"), None, False) + "\n")
            target.flush()
        if progress:
            err.write(f"\rchatschema convert: {tally.read} of {len(args.paths)} inputs")
            err.flush()


def _usage_problem(args: argparse.Namespace) -> str | None:
    if args.input in ("sse", "frames") and args.source != "letta":
        return f"--input {args.input} reads Letta streams only (--from letta)"
    if args.paths.count("-") > 1:
        return "'-' (stdin) can be read only once"
    if not 1 <= args.max_bytes <= MAX_INPUT_LIMIT:
        return f"--max-bytes must be between 1 and {MAX_INPUT_LIMIT:,}"
    for path in args.paths:
        problem = None if path == "-" else _unusable(path)
        if problem is not None:
            return f"{printable_name(path)}: {problem}"
    if args.output != "-" and os.path.exists(args.output):
        inputs = [p for p in args.paths if p != "-"]
        if any(os.path.samefile(args.output, p) for p in inputs):  # opened for writing, it would be emptied first
            return f"--output {printable_name(args.output)} is also an input"
    return None


def _unusable(path: str) -> str | None:
    """Why the file at `path` cannot be an input, in the system's words (a symbolic link loop, a
    directory that may not be searched); None if it may be."""
    try:
        is_dir = stat.S_ISDIR(os.stat(path).st_mode)
    except OSError as exc:
        return "no such file" if exc.errno == errno.ENOENT else f"cannot read: {exc.strerror}"
    return "is a directory" if is_dir else None


def _usage(err: TextIO, message: str) -> int:
    err.write(f"chatschema convert: {message}\n")
    return 2


def _converted(args: argparse.Namespace, path: str, stdin: BinaryIO, err: TextIO) -> Any:
    """The run of one input, or None after one line on `err` saying why there is none."""
    name = "<stdin>" if path == "-" else printable_name(path)
    try:
        data = _read(stdin if path == "-" else None, path, args.max_bytes)
        source, lines = _source(data, _format(args.input, path, data), args.source == "letta", args.lenient)
        run_name = args.name if args.name is not None else (None if path == "-" else _run_name(path))
        run = _converter(args.source)(source, strict=not args.lenient, name=run_name)
    except _InputError as exc:
        err.write(f"chatschema convert: {name}{exc}\n")
        return None
    except OSError as exc:  # a file that cannot be read (a device, a failing disk)
        err.write(f"chatschema convert: {name}: cannot read: {exc.strerror}\n")
        return None
    except ConversionError as exc:
        where = f":{lines[exc.index]}" if lines and exc.index is not None else ""
        err.write(f"chatschema convert: {name}{where}: {exc}\n")
        return None
    return run


def _run_name(path: str) -> str:
    """The file's name without its extension; the bytes of a name that is not UTF-8 as `\\xff`
    escapes (the lone surrogates `os.fsdecode` gives them are not JSON text)."""
    return Path(path).stem.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _converter(source: str) -> Callable[..., Any]:
    """The conversion from `source`, imported only when a conversion runs (it builds the Docent
    models, which the other commands do not need)."""
    from . import bridgic_to_docent, letta_to_docent, swarm_to_docent

    return {"bridgic": bridgic_to_docent, "letta": letta_to_docent, "swarm": swarm_to_docent}[source]


class _InputError(Exception):
    """An input that cannot be read as a conversation; the text starts with ':LINE: ' or ': '."""


def _read(stdin: BinaryIO | None, path: str, limit: int) -> bytes:
    """The input's bytes, without a byte order mark at its very start (skipped, as validate does)."""
    if stdin is not None:
        data = _read_up_to(stdin, limit + len(codecs.BOM_UTF8) + 1)
    else:
        with open(path, "rb") as file:
            data = _read_up_to(file, limit + len(codecs.BOM_UTF8) + 1)
    data = data.removeprefix(codecs.BOM_UTF8)
    if len(data) > limit:
        raise _InputError(f": larger than --max-bytes ({limit:,} bytes)")
    return data


def _read_up_to(stream: BinaryIO, size: int) -> bytes:
    """Up to `size` bytes, to the end: one read of a pipe or a FIFO returns only what has arrived."""
    chunks: list[bytes] = []
    got = 0
    while got < size:
        chunk = stream.read(size - got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _format(chosen: str, path: str, data: bytes) -> str:
    if chosen != "auto":
        return chosen
    suffix = Path(path).suffix
    if suffix in (".json", ".jsonl", ".sse"):
        return suffix[1:]
    first = data.lstrip()[:1]
    if first == b"[":
        return "json"
    if first == b"{":
        return "json" if len(data.strip().splitlines()) == 1 and b'"messages"' in data else "jsonl"
    return "sse"


def _source(data: bytes, form: str, letta: bool, lenient: bool) -> tuple[Any, list[int]]:
    """What the converter takes, and for JSONL the line number of each message. A lenient run reads
    a stream's frames of later types too (the converter sets them aside)."""
    if not data.strip():  # whatever --input says: no text, no message
        raise _InputError(": empty input: no messages")
    unknown: Unknown = "keep" if lenient else "error"
    loads = loader()
    if form == "sse":
        if not letta:
            raise _InputError(": an SSE stream is a Letta recording: use --from letta, or JSON / JSONL input")
        from chatschema.letta.stream import StreamError, reassemble_sse

        try:
            return _with_messages(reassemble_sse(data, unknown=unknown)), []
        except StreamError as exc:
            raise _InputError(f": {exc}") from None
    if form == "json":
        try:
            document = parse(data, loads, MAX_DEPTH)
        except Malformed as exc:
            raise _InputError(f": not JSON: {exc}") from None
        if document == [] or (letta and isinstance(document, dict) and document.get("messages") == []):
            raise _InputError(": empty input: no messages")
        return document, []
    messages, lines = [], []
    for number, line in enumerate(data.splitlines(), 1):
        if line.strip():
            try:
                messages.append(parse(line, loads, MAX_DEPTH))
            except Malformed as exc:
                raise _InputError(f":{number}: not JSON: {exc}") from None
            lines.append(number)
    if not messages:
        raise _InputError(": empty input: no messages")
    if letta and (form == "frames" or (form == "jsonl" and any(_stream_only(m) for m in messages))):
        return _reassembled(messages, unknown), []
    return messages, lines


# Frames a Letta stream sends besides messages: a JSONL file holding one is a recorded stream.
_STREAM_FRAMES = frozenset({"stop_reason", "usage_statistics", "ping", "error_message"})


def _stream_only(frame: Any) -> bool:
    """Whether a line is a stream frame rather than a message: a frame that is not a message, or
    a tool call fragment (`tool_calls` a single delta, not a list)."""
    if not isinstance(frame, dict):
        return False
    fragment = frame.get("message_type") in ("tool_call_message", "approval_request_message") and isinstance(
        frame.get("tool_calls"), dict
    )
    return fragment or frame.get("message_type") in _STREAM_FRAMES


def _reassembled(frames: list[Any], unknown: Unknown) -> Any:
    from chatschema.letta.stream import StreamError, reassemble

    try:
        return _with_messages(reassemble(frames, unknown=unknown))
    except StreamError as exc:
        raise _InputError(f": {exc}") from None


def _with_messages(stream: Any) -> Any:
    """A reassembled stream that holds a message (or, read leniently, a frame of a later type)."""
    if not stream.messages and not stream.unknown:
        raise _InputError(": empty input: the stream holds no message")
    return stream
