"""Stand-ins for the wrong things a Ray address can point at, shared by
``tests/tournament/test_tournament_ray_address.py`` and ``benchmarks/ray_address.py``: a port where
nothing listens, a web server, and a port that never completes a connection."""

from __future__ import annotations

import contextlib
import http.server
import socket
import threading
from collections.abc import Iterator


def closed_port() -> int:
    """A port where nothing listens (as after ``ray stop`` on a head node)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@contextlib.contextmanager
def web_server() -> Iterator[int]:
    """A real HTTP/1 server's port, as the dashboard's (8265) given by mistake."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def black_hole() -> Iterator[int]:
    """A port whose connections are never completed: its accept queue is full, so the
    kernel drops new ones, as a firewall drops them."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port = server.getsockname()[1]
        fillers = [socket.socket() for _ in range(3)]
        for filler in fillers:
            filler.setblocking(False)
            filler.connect_ex(("127.0.0.1", port))
        try:
            yield port
        finally:
            for filler in fillers:
                filler.close()
