"""Reaching a Ray cluster, or saying at once why not.

``ray.init(address=...)`` waits a long time for an address where no cluster answers:
about 41 s an attempt (a 5 s connect, a 30 s wait for the cluster's id) and 20 attempts
(822 s for ``127.0.0.1:1`` with Ray 2.60), with three warnings each on standard error;
it waits as long on a port that answers, but not in HTTP/2 (a web server, a silent
service).  Before the ray backend connects, :func:`check_ray_address` asks the address
itself, in a few seconds at most:

1. its form: ``HOST:PORT`` (``[IPV6]:PORT``), ``ray://HOST:PORT`` (Ray Client), ``auto``
   or ``local``; ``None`` and ``auto`` mean what they mean to Ray (``RAY_ADDRESS``, or
   the cluster ``ray start`` last started on this machine);
2. its host's name (resolved within the time limit);
3. a TCP connection to its port (within the time limit);
4. HTTP/2's opening, the transport of Ray's gRPC (within the time limit): the client's
   preface, to which every HTTP/2 server answers with a SETTINGS frame.  A web server
   (the dashboard's port, say), a TLS server, a service that stays silent or closes
   fails here.  The step is skipped when ``RAY_USE_TLS`` is set (the cluster then
   speaks TLS first).

A port that speaks HTTP/2 but is not the cluster's GCS (another of Ray's gRPC ports, an
HTTP/2 proxy), or a cluster that wants a token Ray does not send, passes the check: it
is left to ``ray.init``, which refuses such a port by itself (Ray 2.60: about 21 s).

Any failure raises :class:`RayClusterError`, one line naming the address and what to
check.  The check changes nothing on the cluster: it sends no call, only HTTP/2's
opening, and closes the connection.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import threading
import time
from typing import Any, Final

import attrs

from azul_rules.core.shown import shown
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
    ``not-ray`` (something answers, but not in HTTP/2 as Ray's GCS would: a web server,
    a TLS server, a silent service), ``no-cluster`` (``auto`` and no cluster started on
    this machine) or ``ray-failed`` (``ray.init`` itself failed after the checks: an
    HTTP/2 port that is not the GCS, a missing token).  A :class:`TournamentError`, so a
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
        return f"{shown(self.address)}{where}"


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
            f"the Ray address must be a string, not {shown(address)}",
            address=None,
            reason="malformed",
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
            f"{shown(address)}{where} is not a Ray cluster address{why}: {_FORMS}",
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
    """Check that a Ray cluster could answer at ``address`` (see the module's text for the
    steps; each waits at most ``timeout`` seconds).  Returns at once when Ray would start
    a new local cluster.

    :raises RayClusterError: when no Ray cluster could answer at ``address``.
    :raises ValueError: for a ``timeout`` that is not a positive number of seconds.
    """
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout < 1e6:
        raise ValueError(f"timeout must be a positive number of seconds, not {shown(timeout)}")
    target = ray_target(address)
    if target is None:
        return
    addresses = _resolve(target, timeout)
    with _connect(target, addresses, timeout) as connection:
        if os.environ.get("RAY_USE_TLS", "0").lower() not in ("1", "true"):
            _answers_http2(target, connection, timeout)


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
            f"the name {shown(target.host)} was not resolved within "
            f"{timeout:g} s: check the host name and this machine's DNS",
        )
    if failure or not found:
        detail = f" ({failure[0].strerror or failure[0]})" if failure else ""
        raise _fail(
            target,
            "unknown-host",
            f"unknown host {shown(target.host)}{detail}: check "
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


# -- who answers: a server speaking HTTP/2 (as Ray's gRPC does), or something else -----

_OPENING: Final = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes((0, 0, 0, 4, 0, 0, 0, 0, 0))
"""HTTP/2's client preface and an empty SETTINGS frame (RFC 9113, section 3.4)."""


def _answers_http2(target: Target, sock: socket.socket, timeout: float) -> None:
    """Raise ``not-ray`` unless the peer answers HTTP/2's opening with the SETTINGS frame
    every HTTP/2 server sends first (a 9-byte header: type 4, no ACK flag, stream 0)."""
    deadline = time.monotonic() + timeout
    first = b""
    try:
        sock.sendall(_OPENING)
        while len(first) < 9 and (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            chunk = sock.recv(9 - len(first))
            if not chunk:
                break
            first += chunk
    except TimeoutError:
        pass
    except OSError as error:
        why = f"the connection opens, then fails ({error.strerror or error})"
        raise _not_ray(target, why) from None
    if len(first) == 9 and first[3] == 4 and not first[4] & 1 and first[5:] == bytes(4):
        return
    if first.startswith(b"HTTP/") or first.lstrip().startswith(b"<"):  # a status, or a page
        what = "it answers like a web server (HTTP/1, the dashboard?), not in gRPC"
    elif first[:1] in (b"\x15", b"\x16"):
        what = "it answers TLS (if the cluster uses TLS, set RAY_USE_TLS=1)"
    elif first:
        what = "it answers, but not in gRPC (HTTP/2)"
    elif time.monotonic() >= deadline:
        what = f"the connection opens but nothing answers within {timeout:g} s"
    else:
        what = "the connection opens, then closes without a word of gRPC (HTTP/2)"
    raise _not_ray(target, what)


def _not_ray(target: Target, what: str) -> RayClusterError:
    return _fail(
        target,
        "not-ray",
        f"{what}, so no Ray cluster is there: check the host, and that {target.port} "
        f"is the head node's {_port_hint(target)}, not the dashboard's or another's",
    )
