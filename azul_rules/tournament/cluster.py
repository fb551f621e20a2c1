"""Reaching a Ray cluster, or saying at once why not.

``ray.init(address=...)`` waits a long time for an address where no cluster answers:
about 41 s an attempt (a 5 s connect, a 30 s wait for the cluster's id) and 20 attempts
(822 s for ``127.0.0.1:1`` with Ray 2.60), with three warnings each on standard error.
Before the ray backend connects, :func:`check_ray_address` asks the address itself, in
a few seconds at most:

1. its form: ``HOST:PORT`` (``[IPV6]:PORT``), ``ray://HOST:PORT`` (Ray Client), ``auto``
   or ``local``; ``None`` and ``auto`` mean what they mean to Ray (``RAY_ADDRESS``, or
   the cluster ``ray start`` last started on this machine);
2. its host's name (resolved within the time limit);
3. a TCP connection to its port (within the time limit);
4. the first words of Ray's protocol, gRPC over HTTP/2 (within the time limit): the
   call Ray makes first on a cluster (``GetClusterId``), whose answer must come from a
   gRPC server (HTTP status 200) that knows the call (any gRPC status but
   "unimplemented": a cluster with token authentication answers "unauthenticated").  A
   web server (the dashboard's port, say), a proxy, another of Ray's gRPC ports (a
   raylet's, the Ray Client's) or another service fails here; so does a cluster that
   wants a token Ray will not send (an explicit address without
   ``RAY_AUTH_MODE=token``).  A ``ray://`` address gets the standard gRPC health
   check instead; the step is skipped when ``RAY_USE_TLS`` is set (the cluster then
   speaks TLS first).

Any failure raises :class:`RayClusterError`, one line naming the address and what to
check.  The check changes nothing on the cluster: one read-only call, without
credentials, on a connection closed with GOAWAY (see ``_grpc_probe``).
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
from azul_rules.tournament import _grpc_probe
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
    "unauthenticated",
    "no-cluster",
    "ray-failed",
)


class RayClusterError(TournamentError):
    """The ray backend cannot reach or start its Ray cluster.  ``address`` is the address
    tried (``None``: a new local cluster), ``reason`` one of :data:`REASONS`:
    ``malformed`` (not an address), ``unknown-host``, ``refused`` (nothing listens on the
    port: a stopped head node, a wrong port), ``unreachable`` (no route to the host),
    ``no-answer`` (nothing answered within the time limit: a firewall, a wrong host),
    ``not-ray`` (something answers, but not Ray's GCS: a web server, a proxy, another
    of Ray's ports), ``unauthenticated`` (the cluster wants a token that Ray will not
    send: ``RAY_AUTH_MODE=token`` is missing), ``no-cluster`` (``auto`` and no cluster
    started on this machine) or ``ray-failed`` (``ray.init`` itself failed after the
    checks).  A :class:`TournamentError`, so a
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


# -- who answers: Ray's GCS, another gRPC server, or something else ---------------------

_HEALTH_CHECK: Final = "/grpc.health.v1.Health/Check"
_UNIMPLEMENTED: Final = 12
_UNAUTHENTICATED: Final = 16
_ANSWERS: Final = {
    "http1": "it answers like a web server (HTTP/1, the dashboard?), not in gRPC",
    "tls": "it answers TLS (if the cluster uses TLS, set RAY_USE_TLS=1)",
    "other": "it answers, but not in gRPC (HTTP/2)",
    "closed": "the connection opens, then closes without a word of gRPC (HTTP/2)",
}


def _gcs_method() -> str | None:
    """The path of the call Ray makes first on its GCS (``GetClusterId``), as this Ray
    version names it; ``None`` without Ray or where it has no such call."""
    try:
        from ray.core.generated import gcs_service_pb2

        service = gcs_service_pb2.DESCRIPTOR.services_by_name["NodeInfoGcsService"]
        method = service.methods_by_name["GetClusterId"]
    except (ImportError, KeyError, AttributeError):
        return None
    return f"/{service.full_name}/{method.name}"


def _speaks_grpc(target: Target, sock: socket.socket, timeout: float) -> None:
    """Raise unless the peer answers a gRPC call as Ray's GCS would: the call Ray makes
    first (on a Ray Client server, the standard health check), which a GCS answers with
    any gRPC status but "unimplemented" (``not-ray``); "unauthenticated" only where Ray
    will present a token (``unauthenticated``).  Only a clear sign counts against the
    peer; anything unclear is left to Ray."""
    path = None if target.address.startswith("ray://") else _gcs_method()
    host = f"[{target.host}]" if ":" in target.host else target.host
    answer = _grpc_probe.call(sock, f"{host}:{target.port}", path or _HEALTH_CHECK, timeout)
    verdict = _not_grpc(answer, timeout)
    if verdict:
        raise _fail(
            target,
            "not-ray",
            f"{verdict}, so no Ray cluster is there: check the host, and that {target.port} "
            f"is the head node's {_port_hint(target)}, not the dashboard's or another's",
        )
    if path is None:
        return
    if answer.grpc_status == _UNIMPLEMENTED:
        raise _fail(
            target,
            "not-ray",
            "a gRPC server answers, but not Ray's GCS (it does not know GetClusterId): "
            f"if {target.port} is the Ray Client port, write ray://{target.address}; "
            f"otherwise give the head node's {_port_hint(target)}",
        )
    if answer.grpc_status == _UNAUTHENTICATED and not _sends_token(target):
        raise RayClusterError(
            f"cannot join the Ray cluster at {target.named()}: it asks for a token (Ray's "
            "token authentication), and Ray sends none to an address given explicitly "
            "unless RAY_AUTH_MODE=token: set it, with the cluster's token in "
            "RAY_AUTH_TOKEN, in the file RAY_AUTH_TOKEN_PATH names, or in "
            "~/.ray/auth_token (on the head node, the address auto finds both)",
            address=target.address,
            reason="unauthenticated",
        )


def _not_grpc(answer: _grpc_probe.Answer, timeout: float) -> str | None:
    """What the answer shows is not gRPC, or ``None``."""
    if answer.kind == "silent":
        return f"the connection opens but nothing answers within {timeout:g} s"
    if answer.kind == "failed":
        return f"the connection opens, then fails ({answer.error})"
    if answer.kind == "http2":
        return f"it answers HTTP/2 with status {answer.status}, not gRPC (a proxy?)"
    return _ANSWERS.get(answer.kind)


def _sends_token(target: Target) -> bool:
    """Whether ``ray.init`` will present a token to ``target``: when ``RAY_AUTH_MODE``
    is ``token``, or (when a token is found) for the cluster ``ray start`` left on this
    machine; never otherwise (Ray's rule: an explicit address never turns it on)."""
    if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
        return True
    return target.source is not None and target.source != "RAY_ADDRESS"
