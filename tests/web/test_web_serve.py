"""``azul-rules serve`` itself: a real process serving on a free local port, answering the
page and the API, refusing hostile bodies in words, and stopping cleanly."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.extras import needs

needs("uvicorn")
needs("starlette")

COMMAND = [sys.executable, "-m", "azul_rules", "serve"]


def _request(
    url: str, body: bytes | None = None, kind: str = "application/json"
) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    if body is not None:
        request.add_header("Content-Type", kind)
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            return reply.status, reply.headers["Content-Type"], reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


@contextmanager
def _serving() -> Iterator[str]:
    """``azul-rules serve`` on a free port until the block ends (then SIGTERM); yields
    the page's address.  The server must stop cleanly, with nothing on its standard
    error but uvicorn's own lines."""
    server = subprocess.Popen(
        [*COMMAND, "--port", "0", "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("azul-rules: the web judge is at http://127.0.0.1:"), line
        yield line.split(" at ")[1].split()[0]
    finally:
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=30)
    # uvicorn shuts down gracefully, then ends by the signal it was sent, as is the custom.
    assert server.returncode in (0, -signal.SIGTERM)
    assert "Traceback" not in errors and "ERROR" not in errors, errors


def test_serve_answers_the_page_and_the_api_then_stops() -> None:
    with _serving() as base:
        status, kind, page = _request(base)
        assert status == 200 and kind.startswith("text/html") and b"Azul" in page
        body = json.dumps(
            {
                "state": json.loads(Path("examples/round-2-position.json").read_text()),
                "move": "2B3",
                "lang": "fr",
            }
        ).encode()
        status, kind, answer = _request(base + "api/v1/check", body)
        assert status == 200 and json.loads(answer)["ok"] is True
        status, kind, answer = _request(base + "api/v1/check", b'{"state": [[[')
        assert status == 400 and kind == "application/problem+json"
        status, kind, answer = _request(base + "api/v1/check", b" " * 300_000)
        assert status == 413 and json.loads(answer)["type"].endswith(":too-large")


def test_web_serve_refuses_a_wrong_lang_on_every_get_route() -> None:
    """A real ``azul-rules serve``: ``?lang=de`` and ``lang`` given twice are a 400 on the
    GET routes too (health, the description and the schemas used to answer 200)."""
    routes = ["health", "openapi.json", "schemas/position.json", "rules", "rules/P3"]
    with _serving() as base:
        for route in routes:
            for query, problem in [
                ("lang=de", 'expected en or fr, got "de"'),
                ("lang=fr&lang=en", "given twice"),
            ]:
                status, kind, answer = _request(f"{base}api/v1/{route}?{query}")
                assert (status, kind) == (400, "application/problem+json"), route
                assert json.loads(answer)["errors"] == [{"path": "?lang", "problem": problem}]
            assert _request(f"{base}api/v1/{route}?lang=fr")[0] == 200


def test_a_taken_port_is_one_line_and_exit_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*COMMAND, "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
    assert done.returncode == 2
    assert done.stderr.startswith(f"azul-rules: cannot listen on 127.0.0.1 port {port}: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_port_out_of_range_is_one_line_and_exit_2() -> None:
    done = subprocess.run([*COMMAND, "--port", "70000"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "azul-rules: --port 70000: expected 0 to 65535\n"
