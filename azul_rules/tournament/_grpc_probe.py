"""One gRPC call's first words, enough to tell who answers at an address: a gRPC
server (and the gRPC status it gives the call), another HTTP/2 server, a web server, a
TLS server, or nothing.  Standard library only: HTTP/2 framing (RFC 9113) and the part
of its header compression (HPACK, RFC 7541) that gRPC servers use for their status.

Everything read is bounded: the peer's answer is read within ``timeout`` seconds and
``MAX_READ`` bytes a frame; what cannot be decoded (Huffman-coded strings, say) is
reported as unknown, never guessed.
"""

from __future__ import annotations

import contextlib
import socket
import time
from typing import Final

import attrs

__all__ = ["Answer", "call"]

MAX_READ: Final = 1 << 16
"""Bytes of buffered answer, at most (a frame larger than 16 KiB is not a server's
first frame)."""

_PREFACE: Final = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_DATA, _HEADERS, _RST_STREAM, _SETTINGS, _GOAWAY = 0x0, 0x1, 0x3, 0x4, 0x7
_ACK = _END_STREAM = 0x1
_END_HEADERS, _PADDED, _PRIORITY = 0x4, 0x8, 0x20
_STATIC_STATUS: Final = {8: 200, 9: 204, 10: 206, 11: 304, 12: 400, 13: 404, 14: 500}
"""HPACK static-table entries holding ``:status`` (RFC 7541, appendix A)."""
_STATIC_TABLE_SIZE: Final = 61


@attrs.frozen
class Answer:
    """What the peer answered.  ``kind``: ``grpc`` (HTTP/2 status 200), ``http2`` (another
    HTTP/2 status, in ``status``), ``http1``, ``tls``, ``other`` (bytes that are not
    HTTP/2), ``closed`` (closed without a word), ``silent`` (nothing within the time),
    ``failed`` (a socket error, in ``error``) or ``unclear`` (HTTP/2 whose status could
    not be read).  ``grpc_status``: the call's gRPC status code when it could be read."""

    kind: str
    status: int | None = None
    grpc_status: int | None = None
    error: str | None = None


def call(sock: socket.socket, authority: str, path: str, timeout: float) -> Answer:
    """Make the gRPC call ``path`` (an empty message) on the connected ``sock`` and read
    the answer's headers, within ``timeout`` seconds; then say goodbye (GOAWAY)."""
    deadline = time.monotonic() + timeout
    try:
        sock.settimeout(timeout)
        sock.sendall(_request(authority, path))
        return _Reader(sock, deadline).answer()
    except TimeoutError:
        return Answer("silent")
    except OSError as error:
        return Answer("failed", error=str(error.strerror or error))
    finally:
        with contextlib.suppress(OSError):
            sock.sendall(frame(_GOAWAY, 0, bytes(8)))


def frame(kind: int, flags: int, payload: bytes = b"", stream: int = 0) -> bytes:
    """An HTTP/2 frame."""
    header = len(payload).to_bytes(3, "big") + bytes((kind, flags)) + stream.to_bytes(4, "big")
    return header + payload


def _literal(name_index: int, value: str) -> bytes:
    """A header "without indexing" whose name is static-table entry ``name_index``."""
    encoded = value.encode("ascii", "replace")[:126]
    prefix = bytes((name_index,)) if name_index < 15 else bytes((15, name_index - 15))
    return prefix + bytes((len(encoded),)) + encoded


def _request(authority: str, path: str) -> bytes:
    """The client preface, empty settings, and the call on stream 1."""
    headers = (
        b"\x83\x86"  # :method POST, :scheme http (static entries 3 and 6)
        + _literal(4, path)  # :path
        + _literal(1, authority)  # :authority
        + _literal(31, "application/grpc")  # content-type
        + b"\x00\x02te\x08trailers"
    )
    return (
        _PREFACE
        + frame(_SETTINGS, 0)
        + frame(_HEADERS, _END_HEADERS, headers, stream=1)
        + frame(_DATA, _END_STREAM, bytes(5), stream=1)  # an empty, uncompressed message
    )


class _Reader:
    """Reads the peer's frames until the call's answer is known."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self.sock = sock
        self.deadline = deadline
        self.buffer = b""
        self.first = True
        self.status: int | None = None
        self.table = _Table()

    def answer(self) -> Answer:
        while True:
            try:
                chunk = self._receive()
            except TimeoutError:
                if self.status == 200:  # a gRPC answer whose end is slow to come
                    return Answer("grpc", 200)
                if self.first and self.buffer:  # a few bytes, then silence: not HTTP/2
                    return _not_http2(self.buffer)
                raise
            if not chunk:
                return Answer("closed") if self.first and not self.buffer else self._unclear()
            self.buffer += chunk
            found = self._frames()
            if found is not None:
                return found

    def _receive(self) -> bytes:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        self.sock.settimeout(remaining)
        return self.sock.recv(MAX_READ)

    def _unclear(self) -> Answer:
        if self.first:
            return _not_http2(self.buffer)
        return Answer("grpc" if self.status == 200 else "unclear", self.status)

    def _frames(self) -> Answer | None:
        """Consume the complete frames buffered; the answer once it is known."""
        while len(self.buffer) >= 9:
            size, kind, flags = (
                int.from_bytes(self.buffer[:3], "big"),
                self.buffer[3],
                self.buffer[4],
            )
            if self.first and (kind != _SETTINGS or size > 16384):
                return _not_http2(self.buffer)
            self.first = False
            if size > MAX_READ:
                return self._unclear()
            if len(self.buffer) < 9 + size:
                return None
            stream = int.from_bytes(self.buffer[5:9], "big") & 0x7FFFFFFF
            payload, self.buffer = self.buffer[9 : 9 + size], self.buffer[9 + size :]
            found = self._frame(kind, flags, stream, payload)
            if found is not None:
                return found
        return None

    def _frame(self, kind: int, flags: int, stream: int, payload: bytes) -> Answer | None:
        if kind == _SETTINGS and not flags & _ACK:
            self.sock.sendall(frame(_SETTINGS, _ACK))
        elif kind in (_GOAWAY, _RST_STREAM):
            return self._unclear()
        elif kind == _HEADERS and stream == 1:
            if not flags & _END_HEADERS:  # CONTINUATION frames: not worth following
                return self._unclear()
            return self._headers(flags, _header_block(flags, payload))
        return None

    def _headers(self, flags: int, block: bytes) -> Answer | None:
        headers = self.table.decode(block)
        if headers is None:
            return self._unclear()
        if self.status is None:
            self.status = next((_int(v) for n, v in headers if n == ":status"), None)
            if self.status is None:
                return Answer("unclear")
            if self.status != 200:
                return Answer("http2", self.status)
        if not flags & _END_STREAM:
            return None  # the trailers, with grpc-status, come after the message
        grpc_status = next((_int(v) for n, v in headers if n == "grpc-status"), None)
        return Answer("grpc", self.status, grpc_status)


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 6 else None


def _header_block(flags: int, payload: bytes) -> bytes:
    """A HEADERS frame's header block: without its pad length and padding (PADDED) and
    its priority fields (PRIORITY)."""
    padding = payload[0] if flags & _PADDED and payload else 0
    start = (1 if flags & _PADDED else 0) + (5 if flags & _PRIORITY else 0)
    return payload[start : max(start, len(payload) - padding)]


def _not_http2(answer: bytes) -> Answer:
    if answer.startswith(b"HTTP/") or answer.lstrip().startswith(b"<"):
        return Answer("http1")
    if answer.startswith((b"\x15\x03", b"\x16\x03")):
        return Answer("tls")
    return Answer("other")


class _Table:
    """The part of HPACK a gRPC server's status needs: indexed static ``:status``
    entries, literal headers with new names (not Huffman-coded), and the dynamic table
    they fill.  ``decode`` gives ``None`` for anything else."""

    def __init__(self) -> None:
        self.dynamic: list[tuple[str, str]] = []

    def decode(self, block: bytes) -> list[tuple[str, str]] | None:
        headers: list[tuple[str, str]] = []
        at = 0
        try:
            while at < len(block):
                byte = block[at]
                if byte & 0x80:  # indexed
                    index, at = _integer(block, at, 7)
                    headers.append(self._entry(index))
                elif byte & 0xC0 == 0x40:  # literal, incremental indexing
                    header, at = self._literal(block, at, 6)
                    self.dynamic.insert(0, header)
                    headers.append(header)
                elif byte & 0xE0 == 0x20:  # dynamic table size update
                    _, at = _integer(block, at, 5)
                else:  # literal without indexing, or never indexed
                    header, at = self._literal(block, at, 4)
                    headers.append(header)
        except (IndexError, ValueError):
            return None
        return headers

    def _entry(self, index: int) -> tuple[str, str]:
        if index in _STATIC_STATUS:
            return ":status", str(_STATIC_STATUS[index])
        if 0 < index <= _STATIC_TABLE_SIZE:
            return "", ""  # another static entry: not one gRPC's status needs
        return self.dynamic[index - _STATIC_TABLE_SIZE - 1]

    def _literal(self, block: bytes, at: int, prefix: int) -> tuple[tuple[str, str], int]:
        index, at = _integer(block, at, prefix)
        if index:
            name = self._entry(index)[0]
        else:
            name, at = _string(block, at)
        value, at = _string(block, at)
        return (name, value), at


def _integer(block: bytes, at: int, prefix: int) -> tuple[int, int]:
    """An HPACK integer with a ``prefix``-bit prefix at ``block[at]``, and where it ends."""
    limit = (1 << prefix) - 1
    value = block[at] & limit
    at += 1
    if value < limit:
        return value, at
    shift = 0
    while True:
        byte = block[at]
        at += 1
        value += (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at
        if shift > 28:
            raise ValueError("an HPACK integer too large")


def _string(block: bytes, at: int) -> tuple[str, int]:
    """A raw HPACK string (``ValueError`` for a Huffman-coded one)."""
    if block[at] & 0x80:
        raise ValueError("a Huffman-coded string")
    length, at = _integer(block, at, 7)
    if at + length > len(block):
        raise IndexError("a string past the header block")
    return block[at : at + length].decode("latin-1"), at + length
