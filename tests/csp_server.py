"""A tiny static file server on localhost that sends a Content-Security-Policy header (the browser test).

It can also send SSE bodies as a streaming server does (`SseStreams`): `GET /sse/<name>` answers
`text/event-stream` in HTTP/1.1 chunks, one piece of the body each, written and flushed with a pause
between, so that the browser's `fetch` delivers the body in pieces cut where the test cut it. A held
body sends its last piece only once the page asks `GET /release/<name>`: a page that asks as soon as
it has a message proves that the message came before the end of the body.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# No 'unsafe-eval': a page whose scripts call eval or new Function is refused and reports it.
CSP = "script-src 'self'"


@dataclass
class SseStreams:
    """The bodies served at /sse/<name>, in pieces; the names whose last piece waits for a release."""

    pieces: dict[str, list[bytes]]
    held: set[str] = field(default_factory=set)
    pause: float = 0.002  # seconds between pieces
    wait: float = 20.0  # seconds a held body waits for its release (a page that never asks fails the test)
    timed_out: list[str] = field(default_factory=list)  # held bodies sent in full without a release
    _released: dict[str, threading.Event] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._released = {name: threading.Event() for name in self.pieces}

    def release(self, name: str) -> bool:
        event = self._released.get(name)
        if event is not None:
            event.set()
        return event is not None

    def send(self, name: str, write: Any) -> None:
        """Write the body's pieces as HTTP chunks (`write` takes bytes and flushes)."""
        pieces = self.pieces[name]
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            if last and name in self.held and not self._released[name].wait(self.wait):
                self.timed_out.append(name)
            if piece:  # an empty chunk would end the body
                write(b"%x\r\n%s\r\n" % (len(piece), piece))
                time.sleep(self.pause)
        write(b"0\r\n\r\n")


class _Handler(SimpleHTTPRequestHandler):
    csp = CSP
    streams: SseStreams | None = None

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", self.csp)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        route, _, name = self.path.lstrip("/").partition("/")
        if self.streams is not None and route == "release":
            self.send_response(204 if self.streams.release(name) else 404)
            self.end_headers()
        elif self.streams is not None and route == "sse" and name in self.streams.pieces:
            self._stream(self.streams, name)
        else:
            super().do_GET()

    def _stream(self, streams: SseStreams, name: str) -> None:
        self.protocol_version = "HTTP/1.1"  # for chunked transfer; this connection closes after it
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()

        def write(data: bytes) -> None:
            self.wfile.write(data)
            self.wfile.flush()

        try:
            streams.send(name, write)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page cancelled the body (an abort): what the test asks of it

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test reports what matters."""


@contextmanager
def serve(directory: Path, csp: str = CSP, streams: SseStreams | None = None) -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 (a free port) with the given policy, and `streams` if given;
    yields the base URL."""
    attributes = {"csp": csp, "streams": streams}
    handler = functools.partial(type("Handler", (_Handler,), attributes), directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
