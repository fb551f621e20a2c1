"""Reaching a Ray cluster, or saying at once why not.

``ray.init(address=...)`` waits a long time for an address where no cluster answers:
about 40 s per attempt (a 5 s connect, a 30 s wait for the cluster's id) and 20 attempts,
with two warnings each on standard error.  Before the ray backend connects,
:func:`check_ray_address` asks the address itself, in a few seconds at most:

1. its form: ``HOST:PORT`` (``[IPV6]:PORT``), ``ray://HOST:PORT`` (Ray Client), ``auto``
   or ``local``; ``None`` and ``auto`` mean what they mean to Ray (``RAY_ADDRESS``, or
   the cluster ``ray start`` last started on this machine);
2. its host's name (resolved within the time limit);
3. a TCP connection to its port (within the time limit);
4. the first words of gRPC, Ray's protocol (within the time limit): the HTTP/2
   preface and a request, whose answer must come from a gRPC server (status 200).  A web
   server (the dashboard's port, say), a proxy or another service fails here.  This step
   is skipped when ``RAY_USE_TLS`` is set (the cluster then speaks TLS first).

Any failure raises :class:`RayClusterError`, one line naming the address and what to
check.  The check sends nothing Ray would not: an HTTP/2 connection asking a standard
health-check method, closed with GOAWAY.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import socket
import struct
import threading
import time
from typing import Any, Final

import attrs

from azul_rules.tournament.settings import TournamentError

__all__ = [
    "DEFAULT_TIMEOUT",
    "REASONS",
    "RayClusterError",
    "Target",
    "check_ray_address",
    "ray_target",
]

DEFAULT_TIMEOUT: Final = 5.0
"""Seconds each step of :func:`check_ray_address` may wait (name, connection, answer)."""

REASONS: Final = (
    "malformed",
    "unknown-host",
    "refused",
    "unreachable",
    "no-answer",
    "not-ray",
    "no-cluster",
    "ray-failed",
)


class RayClusterError(TournamentError):
    """The ray backend cannot reach or start its Ray cluster.  ``address`` is the address
    tried (``None``: a new local cluster), ``reason`` one of :data:`REASONS`:
    ``malformed`` (not an address), ``unknown-host``, ``refused`` (nothing listens on the
    port: a stopped head node, a wrong port), ``unreachable`` (no route to the host),
    ``no-answer`` (nothing answered within the time limit: a firewall, a wrong host),
    ``not-ray`` (something answers, but not Ray's gRPC: a web server, a proxy),
    ``no-cluster`` (``auto`` and no cluster started on this machine) or ``ray-failed``
    (``ray.init`` itself failed after the checks).  A :class:`TournamentError`, so a
    ``ValueError``; the command line prints its one line and exits 2."""

    def __init__(self, message: str, *, address: str | None, reason: str) -> None:
        super().__init__(message)
        self.address = address
        self.reason = reason


@attrs.frozen
class Target:
    """Where Ray will connect: ``host``, ``port``, the address as written, and where the
    address came from (``None``: given by the caller)."""

    host: str
    port: int
    address: str
    source: str | None = None

    def named(self) -> str:
        where = f" (from {self.source})" if self.source else ""
        return f"{self.address!r}{where}"


_HOST_PORT = re.compile(
    r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+(?:%[\w.-]+)?)\]|(?P<host>[\w.-]+))"
    r":(?P<port>[0-9]{1,5})"
)
_FORMS = (
    "give HOST:PORT, the head node's GCS address as 'ray start --head' prints it "
    "(e.g. 10.0.0.5:6379, or [fd00::5]:6379 for IPv6), ray://HOST:PORT for Ray "
    "Client, auto, or local"
)


def ray_target(address: str | None) -> Target | None:
    """The host and port Ray would connect to for ``address``, or ``None`` when Ray
    would start a new local cluster (``"local"``; ``None`` without ``RAY_ADDRESS`` or a
    ``ray start`` cluster) or the address is another scheme's (``name://``, handled by
    Ray's plugins).  Raises :class:`RayClusterError` (``malformed``, ``no-cluster``).

    ``None`` and ``"auto"`` follow Ray: ``RAY_ADDRESS`` when set, otherwise the cluster
    ``ray start`` last started on this machine (Ray's own lookup, when Ray is installed)."""
    source = None
    if address is None or address == "auto":
        from_env = os.environ.get("RAY_ADDRESS", "")
        if from_env:
            address, source = from_env, "RAY_ADDRESS"
        if address is None or address == "auto":
            return _started_cluster(address)
    if address == "local":
        return None
    if not isinstance(address, str):
        raise RayClusterError(
            f"the Ray address must be a string, not {address!r}", address=None, reason="malformed"
        )
    rest = address
    if "://" in address:
        scheme, _, rest = address.partition("://")
        if scheme != "ray":
            return None
    return _parse(rest, address, source)


def _parse(text: str, address: str, source: str | None) -> Target:
    match = _HOST_PORT.fullmatch(text)
    if match is None or not 0 < int(match["port"]) < 65536:
        where = f" (from {source})" if source else ""
        why = _bracket_hint(text) if match is None else f" (port {match['port']} is not 1-65535)"
        raise RayClusterError(
            f"{address!r}{where} is not a Ray cluster address{why}: {_FORMS}",
            address=address,
            reason="malformed",
        )
    host = match["ipv6"] or match["host"]
    return Target(host, int(match["port"]), address, source)


def _bracket_hint(text: str) -> str:
    """A hint for an IPv6 address written without its brackets (``::1:6379``)."""
    host, _, port = text.rpartition(":")
    try:
        ipaddress.IPv6Address(host)
    except ValueError:
        return ""
    return f" (an IPv6 address goes in brackets: [{host}]:{port})"


def _started_cluster(address: str | None) -> Target | None:
    """The cluster Ray finds for ``None``/``"auto"`` without ``RAY_ADDRESS``: the one
    ``ray start`` last started here (Ray's own lookup; skipped, leaving it to
    ``ray.init``, where this Ray version lacks it)."""
    try:
        from ray._private.services import canonicalize_bootstrap_address
    except ImportError:
        return None
    lookup: Any = canonicalize_bootstrap_address  # typed str, but None is Ray's default
    try:
        found = lookup(address)
    except ConnectionError:
        raise RayClusterError(
            "no Ray cluster to reach at 'auto': none was started on this machine; start "
            "one with 'ray start --head', or give its address (HOST:PORT)",
            address=address,
            reason="no-cluster",
        ) from None
    except Exception:
        return None
    if not isinstance(found, str):
        return None
    target = ray_target(found)
    if target is None:
        return None
    return attrs.evolve(target, source="the cluster 'ray start' last started here")


def check_ray_address(address: str | None, *, timeout: float = DEFAULT_TIMEOUT) -> None:
    """Raise :class:`RayClusterError` unless a Ray cluster could answer at ``address``
    (see the module's text for the steps; each waits at most ``timeout`` seconds).
    Returns at once when Ray would start a new local cluster."""
    target = ray_target(address)
    if target is None:
        return
    addresses = _resolve(target, timeout)
    with _connect(target, addresses, timeout) as connection:
        if os.environ.get("RAY_USE_TLS", "0").lower() not in ("1", "true"):
            _speaks_grpc(target, connection, timeout)


def _port_hint(target: Target) -> str:
    """Which port the address should name."""
    if target.address.startswith("ray://"):
        return "Ray Client port (10001 by default)"
    return "GCS port ('ray start --head' prints it; 6379 by default)"


def _fail(target: Target, reason: str, what: str) -> RayClusterError:
    return RayClusterError(
        f"cannot reach a Ray cluster at {target.named()}: {what}",
        address=target.address,
        reason=reason,
    )


def _resolve(target: Target, timeout: float) -> list[tuple[Any, ...]]:
    """The host's socket addresses, resolved in a helper thread so that a resolver that
    does not answer costs ``timeout`` seconds, not its own minutes."""
    found: list[tuple[Any, ...]] = []
    failure: list[OSError] = []

    def lookup() -> None:
        try:
            found.extend(socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM))
        except OSError as error:
            failure.append(error)

    worker = threading.Thread(target=lookup, name="ray-address-lookup", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise _fail(
            target,
            "no-answer",
            f"the name {target.host!r} was not resolved within "
            f"{timeout:g} s: check the host name and this machine's DNS",
        )
    if failure or not found:
        detail = f" ({failure[0].strerror or failure[0]})" if failure else ""
        raise _fail(
            target,
            "unknown-host",
            f"unknown host {target.host!r}{detail}: check "
            "the host name, or give the head node's IP address",
        )
    return found


def _connect(target: Target, addresses: list[tuple[Any, ...]], timeout: float) -> socket.socket:
    """A TCP connection to the first of ``addresses`` that takes one, all within
    ``timeout`` seconds; otherwise the most telling failure."""
    deadline = time.monotonic() + timeout
    errors: list[OSError] = []
    for family, kind, proto, _name, sockaddr in addresses:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        sock = socket.socket(family, kind, proto)
        sock.settimeout(remaining)
        try:
            sock.connect(sockaddr)
        except OSError as error:
            sock.close()
            errors.append(error)
            continue
        return sock
    raise _connect_failure(target, errors, timeout)


def _connect_failure(target: Target, errors: list[OSError], timeout: float) -> RayClusterError:
    if any(isinstance(e, ConnectionRefusedError) for e in errors):
        stale = (
            " (if that cluster has stopped, 'ray stop' forgets it)"
            if target.source and target.source.startswith("the cluster")
            else ""
        )
        return _fail(
            target,
            "refused",
            f"nothing listens on port {target.port} (connection refused): is the head "
            f"node running ('ray status' there), and is {target.port} its {_port_hint(target)}?"
            f"{stale}",
        )
    unreachable = [e for e in errors if not isinstance(e, TimeoutError)]
    if unreachable:
        return _fail(
            target,
            "unreachable",
            f"{unreachable[0].strerror or unreachable[0]}: "
            "check the host and this machine's network",
        )
    return _fail(
        target,
        "no-answer",
        f"no answer within {timeout:g} s: check the host, the port, and any firewall in between",
    )


# -- the first words of gRPC (HTTP/2, RFC 9113; header compression, RFC 7541) ----------

_PREFACE: Final = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_DATA, _HEADERS, _RST_STREAM, _SETTINGS, _GOAWAY = 0x0, 0x1, 0x3, 0x4, 0x7
_ACK = _END_STREAM = 0x1
_END_HEADERS = 0x4
_STATUSES: Final = {0x88: 200, 0x89: 204, 0x8A: 206, 0x8B: 304, 0x8C: 400, 0x8D: 404, 0x8E: 500}
"""The first byte of a header block that starts with ``:status`` from the static table."""
_MAX_READ: Final = 1 << 16


def _frame(kind: int, flags: int, payload: bytes = b"", stream: int = 0) -> bytes:
    return (
        struct.pack(">I", len(payload))[1:]
        + bytes((kind, flags))
        + struct.pack(">I", stream)
        + payload
    )


def _literal(name_index: int, value: str) -> bytes:
    """A header "without indexing" whose name is static-table entry ``name_index``."""
    encoded = value.encode("ascii", "replace")[:126]
    prefix = bytes((name_index,)) if name_index < 15 else bytes((15, name_index - 15))
    return prefix + bytes((len(encoded),)) + encoded


def _request(target: Target) -> bytes:
    """The client preface, empty settings, and a gRPC call of the standard health check
    (any gRPC server answers status 200, with a gRPC status of its own)."""
    headers = (
        b"\x83\x86"  # :method POST, :scheme http
        + _literal(4, "/grpc.health.v1.Health/Check")  # :path
        + _literal(1, f"{target.host}:{target.port}")  # :authority
        + _literal(31, "application/grpc")  # content-type
        + b"\x00\x02te\x08trailers"
    )
    return (
        _PREFACE
        + _frame(_SETTINGS, 0)
        + _frame(_HEADERS, _END_HEADERS, headers, stream=1)
        + _frame(_DATA, _END_STREAM, b"\x00\x00\x00\x00\x00", stream=1)
    )


def _speaks_grpc(target: Target, sock: socket.socket, timeout: float) -> None:
    """Raise ``not-ray`` unless the peer answers the request like a gRPC server.  Only a
    clear sign counts against it (not HTTP/2, or a non-200 status); anything unclear is
    left to Ray."""
    deadline = time.monotonic() + timeout
    try:
        sock.settimeout(timeout)
        sock.sendall(_request(target))
        verdict = _read_answer(sock, deadline)
    except TimeoutError:
        verdict = f"the connection opens but nothing answers within {timeout:g} s"
    except OSError as error:
        verdict = f"the connection opens, then fails ({error.strerror or error})"
    finally:
        with contextlib.suppress(OSError):
            sock.sendall(_frame(_GOAWAY, 0, bytes(8)))
    if verdict:
        raise _fail(
            target,
            "not-ray",
            f"{verdict}, so no Ray cluster is there: check the host, and that {target.port} "
            f"is the head node's {_port_hint(target)}, not the dashboard's or another's",
        )


def _read_answer(sock: socket.socket, deadline: float) -> str | None:
    """What is wrong with the peer's answer, or ``None`` if nothing clearly is."""
    buffer = b""
    first = True
    while len(buffer) < _MAX_READ:
        try:
            chunk = _receive(sock, deadline)
        except TimeoutError:
            if first and buffer:  # a few bytes, then silence: not HTTP/2's 9-byte frames
                return _not_http2(buffer)
            raise
        if not chunk:
            return (
                "the connection opens, then closes without a word of gRPC (HTTP/2)"
                if first
                else None
            )
        buffer += chunk
        while len(buffer) >= 9:
            size = int.from_bytes(buffer[:3], "big")
            kind, flags = buffer[3], buffer[4]
            if first and (kind != _SETTINGS or size > 16384):
                return _not_http2(buffer)
            first = False
            if len(buffer) < 9 + size:
                break
            payload, buffer = buffer[9 : 9 + size], buffer[9 + size :]
            if kind == _SETTINGS and not flags & _ACK:
                sock.sendall(_frame(_SETTINGS, _ACK))
            elif kind == _HEADERS:
                start = _header_block_start(flags)
                status = _STATUSES.get(payload[start]) if len(payload) > start else None
                if status is not None and status != 200:
                    return f"it answers HTTP/2 with status {status}, not gRPC (a proxy?)"
                return None
            elif kind in (_GOAWAY, _RST_STREAM):
                return None
    return None


def _receive(sock: socket.socket, deadline: float) -> bytes:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError
    sock.settimeout(remaining)
    return sock.recv(_MAX_READ)


def _header_block_start(flags: int) -> int:
    """Where a HEADERS frame's header block starts: after its pad length (flag PADDED)
    and its priority fields (flag PRIORITY)."""
    return (1 if flags & 0x8 else 0) + (5 if flags & 0x20 else 0)


def _not_http2(answer: bytes) -> str:
    if answer.startswith(b"HTTP/") or answer.lstrip().startswith(b"<"):
        return "it answers like a web server (HTTP/1, the dashboard?), not in gRPC"
    if answer.startswith((b"\x15\x03", b"\x16\x03")):
        return "it answers TLS (if the cluster uses TLS, set RAY_USE_TLS=1)"
    return "it answers, but not in gRPC (HTTP/2)"
