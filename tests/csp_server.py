"""A tiny static file server on localhost that sends a Content-Security-Policy header (the browser test)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# No 'unsafe-eval': a page whose scripts call eval or new Function is refused and reports it.
CSP = "script-src 'self'"


class _Handler(SimpleHTTPRequestHandler):
    csp = CSP

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", self.csp)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test reports what matters."""


@contextmanager
def serve(directory: Path, csp: str = CSP) -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 (a free port) with the given policy; yields the base URL."""
    handler = functools.partial(type("Handler", (_Handler,), {"csp": csp}), directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
