"""Opening the files the command line and the tournament read and write, so that no
file can make them wait for ever or read without end.

* A named pipe (FIFO) that no process writes is refused at once with ``ENXIO`` ("it is
  a named pipe (FIFO) that no process writes"), where opening it would wait for a
  writer; one that a process holds open for writing (a shell's ``<(...)``) is read.
* A FIFO that no process reads is refused at once as a destination ("... that no
  process reads"), where opening it would wait for a reader.
* Callers read up to a limit (``stream.read(limit + 1)``, ``readline(limit + 1)``), so
  that a device such as ``/dev/zero`` or ``/dev/urandom`` ends as a file too long does.

Standard library only; every error is an ``OSError`` whose ``strerror`` says why.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from typing import IO, Final

__all__ = ["NO_READER", "NO_WRITER", "kind_of", "open_input", "open_output", "write_all"]

NO_WRITER: Final = "it is a named pipe (FIFO) that no process writes"
NO_READER: Final = "it is a named pipe (FIFO) that no process reads"

_NONBLOCK: Final = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC: Final = getattr(os, "O_CLOEXEC", 0)
_PROBE: Final = 1 << 16


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, for a message."""
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "not a regular file"


def open_input(path: str) -> IO[bytes]:
    """``path`` opened for reading, buffered (``peek`` and ``readline`` work).  Opened
    without waiting: a FIFO is then read once, without waiting either -- end of file
    there means that no process holds it open for writing (``OSError``, ``ENXIO``);
    nothing yet means that one does, and the bytes it sends are waited for as usual."""
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC)
    try:
        first = _first_bytes(fd) if stat.S_ISFIFO(os.fstat(fd).st_mode) else b""
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return io.BufferedReader(_Prefixed(fd, first))


def _first_bytes(fd: int) -> bytes:
    """What a FIFO holds already (``b""``: nothing yet, a writer holds it open);
    ``OSError`` when it has no writer."""
    try:
        first = os.read(fd, _PROBE)
    except BlockingIOError:
        return b""
    if not first:
        raise OSError(errno.ENXIO, NO_WRITER)
    return first


class _Prefixed(io.RawIOBase):
    """A descriptor's bytes, after ``first`` (the bytes read to probe a FIFO)."""

    def __init__(self, fd: int, first: bytes) -> None:
        super().__init__()
        self._fd = fd
        self._first = first

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._first:
            size = min(len(buffer), len(self._first))
            buffer[:size] = self._first[:size]
            self._first = self._first[size:]
            return size
        return os.readv(self._fd, [buffer])

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self._fd)
            finally:
                super().close()


def open_output(path: str, *, append: bool = False) -> int:
    """A descriptor writing to ``path`` (created if need be; emptied unless ``append``).
    Opened without waiting, so that a FIFO without a reader fails (``ENXIO``, its
    ``strerror`` saying so) instead of waiting; blocking again once open, so that
    writes to a slow reader wait rather than fail."""
    mode = os.O_APPEND if append else os.O_TRUNC
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | mode | _NONBLOCK | _CLOEXEC, 0o666)
    except OSError as error:
        if error.errno == errno.ENXIO and _is_fifo(path):  # a socket gives ENXIO too
            raise OSError(errno.ENXIO, NO_READER) from None
        raise
    os.set_blocking(fd, True)
    return fd


def _is_fifo(path: str) -> bool:
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd`` (a pipe may take it in parts)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
