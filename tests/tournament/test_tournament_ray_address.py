"""The ray backend and a Ray address where no cluster answers: a malformed address, an
unknown host, a port where nothing listens (a stopped head node), a port where
something else answers (a web server, a TLS server, a silent one), a host that never answers,
a stale ``ray start`` address behind ``auto``.  Each fails in seconds with one line naming
the address and what to check — exit 2 on the command line, :class:`RayClusterError`
from ``run`` — instead of Ray's minutes of retries and warnings.

Every case runs in a subprocess whose ``timeout`` fails the test if it hangs (Ray's own
wait is about 14 minutes); there is no assertion on wall-clock time.  The valid addresses
(a real local cluster's GCS) are tested in test_tournament_ray.py.
"""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests import fake_servers
from tests.extras import needs
from tests.fake_servers import closed_port

ray = needs("ray")

from azul_rules.core.shown import shown  # noqa: E402
from azul_rules.tournament import RayClusterError, TournamentError, check_ray_address  # noqa: E402
from azul_rules.tournament.cluster import REASONS, Target, _answers_http2, ray_target  # noqa: E402

# Reads what `ray start` left on this machine: beside the Ray cluster tests, not during them.
pytestmark = pytest.mark.xdist_group("ray")


HANG = 60
"""Seconds after which a case counts as hanging (Ray alone would wait ~14 minutes)."""


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "RAY_USE_TLS")}
    env.update(extra)
    return env


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "azul_rules", "tournament", "--bots", "random,greedy",
               "--games", "2", "--backend", "ray", "--no-progress", *args]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=HANG,
                          env=env or clean_env())  # fmt: skip


_API = """
import json, sys
from azul_rules.tournament import RayClusterError, check_ray_address, run
answers = []
for address, timeout in json.loads(sys.argv[1]):
    try:
        if timeout is None:
            run(["random", "greedy"], games=2, backend="ray", ray_address=address)
        else:
            check_ray_address(address, timeout=timeout)
        answers.append(None)
    except RayClusterError as error:
        answers.append([type(error).__name__, error.reason, error.address, str(error)])
print(json.dumps(answers))
"""


def api(cases: list[tuple[str | None, float | None]], **env: str) -> list[Any]:
    """``run(..., backend="ray", ray_address=A)`` (or ``check_ray_address(A,
    timeout=T)`` when a timeout is given) for each case, in one subprocess."""
    done = subprocess.run([sys.executable, "-c", _API, json.dumps(cases)], capture_output=True,
                          text=True, timeout=HANG, env=clean_env(**env))  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers: list[Any] = json.loads(done.stdout)
    return answers


def serve(answer: bytes | None) -> Iterator[int]:
    """A TCP server on 127.0.0.1 answering every connection with ``answer`` after the
    first bytes it receives (``None``: never a word)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    stop = threading.Event()

    def loop() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(HANG)
                if answer is None:
                    stop.wait()
                    continue
                conn.recv(4096)
                conn.sendall(answer)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(HANG)
        server.close()


def h2_frame(kind: int, flags: int, payload: bytes = b"", stream: int = 0) -> bytes:
    return len(payload).to_bytes(3, "big") + bytes((kind, flags)) + \
        stream.to_bytes(4, "big") + payload  # fmt: skip


@pytest.fixture(scope="module")
def web_server() -> Iterator[int]:
    """A real HTTP/1 server, as at the dashboard's port (8265) given by mistake."""
    with fake_servers.web_server() as port:
        yield port


@pytest.fixture(scope="module")
def http2_server() -> Iterator[int]:
    """A server answering HTTP/2's opening as an HTTP/2 (gRPC) server does: settings."""
    yield from serve(h2_frame(0x4, 0))


@pytest.fixture(scope="module")
def status_server() -> Iterator[int]:
    """A web server that answers HTTP/2's opening with an HTTP/1 status line."""
    yield from serve(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")


@pytest.fixture(scope="module")
def tls_server() -> Iterator[int]:
    """A TLS server's answer to bytes that are no TLS greeting: an alert."""
    yield from serve(b"\x15\x03\x03\x00\x02\x02\x32")


@pytest.fixture(scope="module")
def closing_server() -> Iterator[int]:
    """A server that reads, then closes the connection without a word."""
    yield from serve(b"")


@pytest.fixture(scope="module")
def silent_server() -> Iterator[int]:
    """A server that takes the connection and never says a word."""
    yield from serve(None)


@pytest.fixture
def black_hole() -> Iterator[int]:
    """A port whose connections are never completed (a firewall's drop)."""
    with fake_servers.black_hole() as port:
        yield port


# -- the command line: exit 2, one line naming the address ----------------------------


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("::::", "is not a Ray cluster address: give HOST:PORT"),
        ("::1:6379", "an IPv6 address goes in brackets: [::1]:6379"),
        ("nosuchhost.invalid:6379", "unknown host 'nosuchhost.invalid'"),
        ("127.0.0.1:{closed}", "nothing listens on port {closed} (connection refused)"),
        ("127.0.0.1:{web}", "it answers like a web server (HTTP/1, the dashboard?)"),
    ],
)
def test_a_bad_ray_address_fails_the_command_at_once_with_one_line(
    address: str, says: str, web_server: int
) -> None:
    ports = {"closed": closed_port(), "web": web_server}
    address, says = address.format(**ports), says.format(**ports)
    done = cli("--ray-address", address)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("azul-rules: ")
    assert repr(address) in done.stderr and says in done.stderr, done.stderr


def test_a_bad_ray_address_file_is_never_created(tmp_path: Path) -> None:
    """The address is checked before the output file is opened."""
    out = tmp_path / "games.jsonl"
    done = cli("--ray-address", f"127.0.0.1:{closed_port()}", "--out", str(out))
    assert done.returncode == 2 and "connection refused" in done.stderr
    assert not out.exists()


def test_a_bad_ray_address_env_var_is_named() -> None:
    """Without an address (and with ``auto``) Ray takes RAY_ADDRESS: the error says so."""
    address = f"127.0.0.1:{closed_port()}"
    done = cli(env=clean_env(RAY_ADDRESS=address))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"at {address!r} (from RAY_ADDRESS): nothing listens" in done.stderr
    for answer in api([(None, None), ("auto", None)], RAY_ADDRESS=address):
        assert answer[:3] == ["RayClusterError", "refused", address]


def test_a_stale_ray_start_address_behind_auto_is_named(tmp_path: Path) -> None:
    """``auto`` (and no address) follow Ray to the cluster ``ray start`` last started on
    this machine; when it has stopped without ``ray stop``, its address file remains and
    Ray would wait for it: the check names it and says how to forget it."""
    port = closed_port()
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "ray_current_cluster").write_text(f"127.0.0.1:{port}\n")
    done = cli(env=clean_env(RAY_TMPDIR=str(tmp_path)))  # no --ray-address
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f":{port}' (from the cluster 'ray start' last started here)" in done.stderr
    assert "'ray stop' forgets it" in done.stderr
    for answer in api([("auto", None)], RAY_TMPDIR=str(tmp_path)):
        assert answer[:2] == ["RayClusterError", "refused"] and answer[2].endswith(f":{port}")


# -- the Python API: RayClusterError with the address and the reason ------------------


def test_every_kind_of_bad_address_raises_ray_cluster_error(
    web_server: int, status_server: int, tls_server: int, closing_server: int,
    silent_server: int, black_hole: int,
) -> None:  # fmt: skip
    closed = closed_port()
    cases: list[tuple[str, float | None, str, str]] = [
        ("::::", None, "malformed", "is not a Ray cluster address"),
        ("ray://", None, "malformed", "is not a Ray cluster address"),
        ("[::1]:0", None, "malformed", "(port 0 is not 1-65535)"),
        (" 10.0.0.5:6379", None, "malformed", "is not a Ray cluster address"),
        ("nosuchhost.invalid:6379", None, "unknown-host", "unknown host 'nosuchhost.invalid'"),
        (f"127.0.0.1:{closed}", None, "refused", "is the head node running"),
        (f"ray://127.0.0.1:{closed}", None, "refused", "its Ray Client port (10001"),
        (f"localhost:{web_server}", None, "not-ray", "it answers like a web server"),
        (f"127.0.0.1:{status_server}", None, "not-ray", "it answers like a web server"),
        (f"127.0.0.1:{tls_server}", None, "not-ray", "it answers TLS (if the cluster uses"),
        (f"127.0.0.1:{closing_server}", None, "not-ray", "then closes without a word"),
        (f"127.0.0.1:{silent_server}", 0.5, "not-ray", "nothing answers within 0.5 s"),
        (f"127.0.0.1:{black_hole}", 0.5, "no-answer", "no answer within 0.5 s"),
    ]
    answers = api([(address, timeout) for address, timeout, _, _ in cases])
    for (address, _, reason, says), answer in zip(cases, answers, strict=True):
        assert answer is not None, address
        kind, got_reason, got_address, message = answer
        assert (kind, got_reason, got_address) == ("RayClusterError", reason, address)
        assert message.count("\n") == 0 and repr(address) in message and says in message


def test_a_port_speaking_http2_passes_the_check(http2_server: int) -> None:
    """HTTP/2's opening answered with settings, as Ray's GCS answers it: the check lets
    the address through (what else is wrong there, ``ray.init`` says by itself)."""
    assert api([(f"127.0.0.1:{http2_server}", 5.0), (f"ray://127.0.0.1:{http2_server}", 5.0)]) \
        == [None, None]  # fmt: skip


def test_ray_cluster_error_is_a_tournament_error() -> None:
    """Code that catches TournamentError (or ValueError) keeps catching it."""
    assert issubclass(RayClusterError, TournamentError) and issubclass(RayClusterError, ValueError)
    error = RayClusterError("x", address="h:1", reason="refused")
    assert (error.address, error.reason, str(error)) == ("h:1", "refused", "x")
    assert "refused" in REASONS


@pytest.mark.parametrize("timeout", [0, -1.0, math.nan, math.inf, True])
def test_the_check_wants_a_positive_number_of_seconds(timeout: float) -> None:
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds"):
        check_ray_address("10.0.0.5:6379", timeout=timeout)


@pytest.mark.parametrize(
    ("address", "target"),
    [
        ("10.0.0.5:6379", ("10.0.0.5", 6379)),
        ("head-node.example:6379", ("head-node.example", 6379)),
        ("[fd00::5]:6379", ("fd00::5", 6379)),
        ("ray://10.0.0.5:10001", ("10.0.0.5", 10001)),
        ("local", None),
        ("anyscale://my-cluster", None),  # another scheme: Ray's plugins decide
    ],
)
def test_the_address_forms_ray_takes(address: str, target: tuple[str, int] | None) -> None:
    found = ray_target(address)
    assert (found if found is None else (found.host, found.port)) == target


# -- fuzzing: any address text, any answer ----------------------------------------------

ADDRESS_TEXT = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"(ray://)?(\[[0-9a-f:]{0,12}\]|[a-z0-9.:-]{0,12}):[0-9]{0,6}", fullmatch=True),
)


@given(ADDRESS_TEXT)
def test_any_address_text_is_a_target_or_one_line_naming_it(text: str) -> None:
    """No network here: the form alone decides between a target and ``malformed``."""
    assume(text != "auto")
    try:
        target = ray_target(text)
    except RayClusterError as error:
        assert (error.reason, error.address) == ("malformed", text)
        assert "\n" not in str(error) and shown(text) in str(error)  # quoted cut
        return
    if target is not None:
        assert 0 < target.port < 65536 and target.host and not any(c.isspace() for c in target.host)
    else:
        assert text == "local" or ("://" in text and not text.startswith("ray://"))


FRAME = st.builds(
    h2_frame, st.integers(0, 9), st.integers(0, 255), st.binary(max_size=20), st.integers(0, 3)
)


ANSWERS = st.one_of(
    st.binary(max_size=200),
    st.lists(FRAME, max_size=6).map(b"".join),
    st.lists(FRAME, max_size=6).map(lambda frames: h2_frame(0x4, 0) + b"".join(frames)),
)


@given(ANSWERS)
def test_any_answer_to_the_opening_is_judged_in_bounded_time(answer: bytes) -> None:
    """Whatever a peer answers (then closing), the check accepts it or raises ``not-ray``
    in one line: never another exception, never a hang."""
    for address in ("h:1", "ray://h:1"):
        ours, theirs = socket.socketpair()
        with ours, theirs:
            theirs.sendall(answer)
            theirs.shutdown(socket.SHUT_WR)
            try:
                _answers_http2(Target("h", 1, address), ours, timeout=1.0)
            except RayClusterError as error:
                assert error.reason == "not-ray" and "\n" not in str(error)
            else:
                assert answer[3:4] == b"\x04" and answer[5:9] == bytes(4)


def test_settings_arriving_in_pieces_are_still_http2() -> None:
    """The first frame's header is read whole, however the peer's bytes arrive; the
    check sent HTTP/2's preface first."""
    settings = h2_frame(0x4, 0)
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(settings[:4])
        rest = threading.Timer(0.2, theirs.sendall, (settings[4:],))
        rest.start()
        _answers_http2(Target("h", 1, "h:1"), ours, timeout=5.0)
        rest.join()
        assert theirs.recv(24) == b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
