"""A real uvicorn server of the web judge on a free local port, for the browser tests and
the load benchmark (``benchmarks/web_load.py``): the same server ``azul-rules serve``
runs, in a thread of the calling process."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["running_server"]


@contextmanager
def running_server(log_level: str = "warning", **app_options: Any) -> Iterator[str]:
    """Serve the judge on 127.0.0.1 (a free port) until the block ends; yields the
    page's address (``http://127.0.0.1:PORT/``).  ``app_options`` go to
    :func:`~azul_rules.web.create_app` (``body_timeout=1.0``...)."""
    import uvicorn

    from azul_rules.web import create_app
    from azul_rules.web.app import bind

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(**app_options), log_level=log_level, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web judge did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
