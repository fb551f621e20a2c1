"""An engine run as a subprocess, spoken to in the engine protocol (version 1).

:class:`EngineProcess` starts the command, sends one request per line and waits for
one reply line, never longer than ``timeout`` seconds.  Anything wrong on the engine's
side — no reply in time, an early exit, a line that is not JSON or not of the expected
shape — raises :class:`~azul_rules.testing.protocol.ProtocolError` with the offending line and
the tail of the engine's standard error.  :meth:`EngineProcess.close` always ends the
process and everything it started (its process group on POSIX) and reaps it.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import IO, Any, Final, TextIO

from azul_rules.core.colors import Color
from azul_rules.core.moves import Move
from azul_rules.core.phases import Variant
from azul_rules.core.shown import clipped, shown
from azul_rules.testing.protocol import (
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    EngineInfo,
    ProtocolError,
    factories_doc,
    move_doc,
    read_hello,
    read_moves,
    read_view,
)

__all__ = ["DEFAULT_TIMEOUT", "EngineProcess", "Refusal", "check_timeout"]

DEFAULT_TIMEOUT: Final = 10.0
"""Seconds the referee waits for one reply."""

_STDERR_LINES: Final = 20
_QUEUED_LINES: Final = 4  # reply lines read ahead of the requests, each at most 1 MiB
_SHOWN: Final = 2000  # characters of an offending line shown in a report
_STDERR_SHOWN: Final = 500  # characters of a line of the engine's standard error shown
_MAX_CODE: Final = 60  # characters of a refusal's code (ILLEGAL_MOVE...) shown


def check_timeout(timeout: object) -> float:
    """``timeout`` as seconds to wait for one reply: a positive finite number no larger
    than ``threading.TIMEOUT_MAX`` (about 292 years); ``ValueError`` otherwise."""
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not 0 < timeout <= threading.TIMEOUT_MAX  # NaN and infinity fail this too
    ):
        raise ValueError(f"timeout must be a positive number of seconds, not {shown(timeout)}")
    return float(timeout)


@contextlib.contextmanager
def _owned(stream: IO[bytes]) -> Iterator[None]:
    """The reading of one of the engine's pipes by its thread, which closes it at the
    end.  Only that thread may close it: closed by another while the reader was between
    two lines, the reader's next ``readline`` raised ``ValueError: readline of closed
    file`` in the thread; and a ``close`` waits for a ``readline`` under way, which lasts
    as long as anything holds the pipe's other end (a process the engine started in a
    session of its own, out of reach of the kill)."""
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            stream.close()


class Refusal(Exception):
    """The engine answered ``{"ok": false, "error": {...}}`` to a move or a refill."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message


class EngineProcess:
    """One running engine.  Use it as a context manager, or call :meth:`close`.

    ``command`` is a command line (split like a POSIX shell would, without running a
    shell) or an argument list.  ``timeout`` is the most seconds to wait for one reply
    (see :func:`check_timeout`).  ``transcript``, when given, receives every line sent
    (``"> "`` before it) and received (``"< "``).  Raises :class:`ProtocolError` when the
    engine cannot start, ``ValueError`` for a timeout that is not a positive number of
    seconds.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        transcript: TextIO | None = None,
    ) -> None:
        self.timeout = check_timeout(timeout)
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as error:  # an unclosed quotation, a trailing escape
            raise ProtocolError(
                f"cannot read the engine command {shown(command, None)}: {error} (it is split as a "
                "POSIX shell would)"
            ) from None
        if not self.argv:
            raise ProtocolError("no engine command given")
        self.transcript = transcript
        self.info: EngineInfo | None = None
        self._next_id = 0
        self._last_line: str | None = None
        self._broken = False
        self._replies: queue.Queue[tuple[str, bytes]] = queue.Queue(maxsize=_QUEUED_LINES)
        self._closing = threading.Event()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=os.name == "posix",
            )
        except (OSError, ValueError) as error:  # ValueError: a null character in it
            reason = error.strerror if isinstance(error, OSError) else None
            raise ProtocolError(
                f"cannot start {shown(self.argv[0], None)}: {reason or error}"
            ) from None
        assert self._process.stdout is not None and self._process.stderr is not None
        self._threads = [
            threading.Thread(target=self._read_replies, args=(self._process.stdout,), daemon=True),
            threading.Thread(target=self._read_stderr, args=(self._process.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    # -- the requests --------------------------------------------------------------------

    def hello(self) -> EngineInfo:
        """``hello``: the protocol version and what the engine supports."""
        reply = self._expect_ok("hello", {"protocol": PROTOCOL_VERSION})
        try:
            self.info = read_hello(reply)
        except ProtocolError as error:
            raise self._error(error.message, "hello", reply) from None
        return self.info

    def new_game(
        self, players: int, variant: Variant, first_player: int,
        factories: Sequence[Sequence[Color]],
    ) -> None:  # fmt: skip
        """``new_game``: a game with these factories as dealt (R2)."""
        self._expect_ok(
            "new_game",
            {"players": players, "variant": variant.value, "first_player": first_player,
             "factories": factories_doc(factories)},
        )  # fmt: skip

    def legal_moves(self) -> tuple[Move, ...]:
        """``legal_moves``: the moves the engine holds legal now."""
        reply = self._expect_ok("legal_moves", {})
        try:
            return read_moves(reply)
        except ProtocolError as error:
            raise self._error(error.message, "legal_moves", reply) from None

    def apply(self, move: Move, player: int | None = None) -> None:
        """``apply``; raises :class:`Refusal` when the engine refuses the move."""
        self._expect_ok("apply", {"move": move_doc(move, player)}, refusable=True)

    def refill(self, factories: Sequence[Sequence[Color]]) -> None:
        """``refill``; raises :class:`Refusal` when the engine refuses the draw."""
        self._expect_ok("refill", {"factories": factories_doc(factories)}, refusable=True)

    def view(self, players: int) -> dict[str, object]:
        """``state``: the facts the engine reports (see ``protocol.comparable``)."""
        reply = self._expect_ok("state", {})
        try:
            return read_view(reply, players)
        except ProtocolError as error:
            raise self._error(error.message, "state", reply) from None

    def request(self, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return the engine's reply object (``ok`` checked to be a
        boolean, ``id`` to match when given)."""
        self._next_id += 1
        message = {"type": kind, "id": self._next_id, **fields}
        text = json.dumps(message, separators=(",", ":"))
        if self.transcript is not None:
            self.transcript.write(f"> {text}\n")
        data = (text + "\n").encode()
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(data)
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._ended(kind) from None
        return self._reply(kind, self._next_id)

    # -- closing -------------------------------------------------------------------------

    def close(self) -> None:
        """Say ``quit`` if the engine still listens, then end the process (and its
        process group) and reap it.  Safe to call twice.  The engine's output pipes
        are closed by the threads reading them, once they read their end (at once: the
        process is gone); a process the engine started in a session of its own still
        holds them open until it exits, and ``close`` waits at most a second for it."""
        process = self._process
        if self.running:
            try:
                saved, self.timeout = self.timeout, min(self.timeout, 1.0)
                self.request("quit", {})
                process.wait(timeout=1.0)
            except (ProtocolError, subprocess.TimeoutExpired):
                pass
            finally:
                self.timeout = saved
        self._closing.set()
        self._kill()
        if process.stdin is not None:  # written by this thread alone
            with contextlib.suppress(OSError):
                process.stdin.close()
        deadline = time.monotonic() + 1.0
        for thread in self._threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def _kill(self) -> None:
        process = self._process
        if os.name == "posix":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # the engine and all it started
        if process.poll() is None:
            process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # a process ignoring SIGKILL
            process.wait(timeout=5.0)

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:  # fmt: skip
        self.close()

    @property
    def running(self) -> bool:
        """True while the engine runs and has not broken the protocol (after a time-out
        or a bad reply its next replies cannot be trusted)."""
        return not self._broken and self._process.poll() is None

    @property
    def stderr_tail(self) -> str:
        """The last lines the engine wrote to its standard error."""
        return "\n".join(self._stderr)

    # -- reading -------------------------------------------------------------------------

    def _read_replies(self, stream: IO[bytes]) -> None:
        """Queue the engine's lines, at most a few ahead of the requests: an engine that
        writes lines nobody asked for fills its pipe and waits, instead of filling the
        referee's memory (a reply is one line per request).  The thread owns ``stream``
        and closes it when it ends (see :meth:`close`)."""
        with _owned(stream):
            while True:
                line = stream.readline(MAX_LINE_BYTES + 1)
                if not line:
                    self._queue(("eof", b""))
                    return
                if len(line) > MAX_LINE_BYTES:
                    self._queue(("long", line[:_SHOWN]))
                    return
                if not self._queue(("line", line)):
                    return

    def _queue(self, item: tuple[str, bytes]) -> bool:
        """Put ``item`` in the queue of replies, waiting while it is full; False when
        the engine is being closed (nobody will read it)."""
        while not self._closing.is_set():
            try:
                self._replies.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read_stderr(self, stream: IO[bytes]) -> None:
        """Keep the engine's last lines of standard error, each cut (the rest of a long
        one is read and dropped) and printable; owns ``stream``."""
        with _owned(stream):
            while True:
                line = stream.readline(8192)
                if not line:
                    return
                if not line.endswith(b"\n"):
                    while (rest := stream.readline(8192)) and not rest.endswith(b"\n"):
                        pass
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                self._stderr.append(clipped(text, _STDERR_SHOWN))

    def _reply(self, kind: str, expected_id: int) -> dict[str, Any]:
        try:
            what, line = self._replies.get(timeout=self.timeout)
        except queue.Empty:
            raise self._error(f"no reply within {self.timeout:g} s", kind) from None
        if what == "eof":
            raise self._ended(kind)
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        self._last_line = text
        if self.transcript is not None:
            self.transcript.write(f"< {text}\n")
        if what == "long":
            raise self._error(f"a reply line longer than {MAX_LINE_BYTES} bytes", kind, text)
        if text.startswith("\ufeff"):
            raise self._error(
                "a reply that is not JSON: it starts with a byte order mark (U+FEFF); write "
                "UTF-8 without one (in .NET: new UTF8Encoding(false))", kind, text,
            )  # fmt: skip
        try:
            reply = json.loads(text)
        except (ValueError, RecursionError) as error:  # not JSON, or a huge integer
            reason = str(error)
            if isinstance(error, json.JSONDecodeError):
                reason = error.msg
            elif "4300" in reason:
                reason = "an integer of more than 4300 digits"
            raise self._error(f"a reply that is not JSON ({reason})", kind, text) from None
        if not isinstance(reply, dict):
            raise self._error("a reply that is not a JSON object", kind, text)
        if not isinstance(reply.get("ok"), bool):
            raise self._error('$.ok: a reply needs "ok": true or false', kind, text)
        if "id" in reply and reply["id"] != expected_id:
            raise self._error(f"$.id: expected {expected_id}, got {shown(reply['id'])}", kind, text)
        if not reply["ok"]:
            refusal = reply.get("error")
            if not isinstance(refusal, dict) or not isinstance(refusal.get("code"), str):
                raise self._error('$.error: a refusal needs "error": {"code": ...}', kind, text)
        return reply

    def _expect_ok(
        self, kind: str, fields: dict[str, Any], *, refusable: bool = False
    ) -> dict[str, Any]:
        reply = self.request(kind, fields)
        if reply["ok"]:
            return reply
        refusal = reply["error"]
        message = refusal.get("message", "")
        message = clipped(message) if isinstance(message, str) else shown(message, None)
        code = clipped(refusal["code"], _MAX_CODE)
        if refusable:
            raise Refusal(code, message)
        raise self._error(f"the engine refused {kind}: {code}: {message}", kind, reply)

    # -- errors --------------------------------------------------------------------------

    def _ended(self, kind: str) -> ProtocolError:
        process = self._process
        try:
            status = process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        if status is None:  # its standard output is closed, but it runs on
            return self._error(
                "the engine closed its standard output without answering (it was still "
                "running)", kind,
            )  # fmt: skip
        return self._error(f"the engine exited (status {status}) without answering", kind,
                           status=status)  # fmt: skip

    def _error(
        self, message: str, kind: str, line: object = None, *, status: int | None = None
    ) -> ProtocolError:
        if line is not None and not isinstance(line, str):
            line = self._last_line
        if isinstance(line, str):
            line = clipped(line, _SHOWN)
        self._broken = True
        for thread in self._threads[1:]:  # let the last words on stderr arrive
            thread.join(timeout=0.2 if status is not None else 0.0)
        return ProtocolError(
            message, request=kind, line=line, stderr=self.stderr_tail, status=status
        )
