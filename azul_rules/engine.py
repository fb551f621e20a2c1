"""The reference engine: the referee itself, speaking the engine protocol (version 1).

Run it with ``python -m azul_rules.engine``; it reads requests on standard input, one
JSON object per line, and answers each with one line on standard output (see
``docs/engine-protocol.md``).  It supports every request, both walls and the full
``state`` view, so its transcripts show a complete, conforming exchange.

It never dies on bad input: a line that is not JSON, not a request, too long, a move
that is misshapen or illegal, a request before ``new_game`` — each is answered with
``{"ok": false, "error": {"code": ..., "message": ...}}`` and the engine reads on.  It
ends at ``quit`` or at the end of its input, with status 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, Final, NoReturn

from azul_rules.core.errors import FormatError, Result
from azul_rules.core.moves import Move, Refill
from azul_rules.core.phases import Variant
from azul_rules.core.shown import shown
from azul_rules.core.state import FACTORY_COUNTS, GameState, new_game
from azul_rules.formats.engine_protocol import MAX_LINE_BYTES, PROTOCOL_VERSION, referee_view
from azul_rules.formats.jsonio import move_from_dict, to_dict
from azul_rules.formats.jsontext import first_repeated, load

__all__ = ["ReferenceEngine", "RequestError", "command", "main"]

_Handler = Callable[[dict[str, Any]], dict[str, Any]]
_REPLY_OK: Final = {"ok": True}


class RequestError(Exception):
    """A request the engine cannot serve; becomes an ``{"ok": false}`` reply."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


class ReferenceEngine:
    """The protocol's server side over the referee.  ``handle_line`` answers one line;
    subclasses may override :meth:`legal`, :meth:`play`, :meth:`deal` and :meth:`view`
    (the tests build engines with one rule bug each this way).

    Raises nothing: every bad line is answered with an ``{"ok": false}`` reply.
    """

    name = "azul_rules reference engine"
    variants: tuple[str, ...] = ("colored", "grey")
    lists_legal_moves = True

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.finished = False
        self._handlers: dict[str, _Handler] = {
            "hello": self._hello,
            "new_game": self._new_game,
            "legal_moves": self._legal_moves,
            "apply": self._apply,
            "state": self._state,
            "refill": self._refill,
            "quit": self._quit,
        }

    # -- what a subclass may change -----------------------------------------------------

    def legal(self, state: GameState) -> list[dict[str, Any]]:
        """The legal moves of ``state``, in the JSON move format."""
        return [_doc(move) for move in state.legal_moves()]

    def play(self, state: GameState, move: Move) -> GameState:
        """``state`` after the legal ``move``."""
        return state.apply(move)

    def deal(self, state: GameState, refill: Refill) -> GameState:
        """``state`` after the table's legal draw ``refill`` (R2)."""
        return state.apply(refill)

    def view(self, state: GameState) -> dict[str, Any]:
        """The ``state`` reply's view: everything the protocol lets an engine report."""
        return referee_view(state)

    # -- serving -------------------------------------------------------------------------

    def handle_line(self, line: bytes | str) -> dict[str, Any]:
        """The reply to one input line; never raises.  The line is read as strictly as
        any document (``jsontext.load``): not UTF-8, a byte order mark, not JSON, a
        number past 4,300 digits, ``NaN`` or nesting past Python's stack is
        ``bad_json``; a key given twice in an object is ``bad_request`` at its path."""
        try:
            text = line.decode("utf-8") if isinstance(line, bytes) else line
        except UnicodeDecodeError as error:
            return _refusal("bad_json", f"not a JSON object: not UTF-8 ({error.reason} at "
                            f"byte {error.start})")  # fmt: skip
        if text.startswith("\ufeff"):
            return _refusal("bad_json", "not a JSON object: the line starts with a byte order "
                            "mark (U+FEFF); send UTF-8 without one")  # fmt: skip
        try:
            request = load(text)
        except FormatError as error:
            reason = "; ".join(m for _, m in error.errors)
            for prefix in ("not JSON: ", "not acceptable JSON: "):
                reason = reason.removeprefix(prefix)
            return _refusal("bad_json", f"not a JSON object: {reason}")
        if (repeated := first_repeated(request)) is not None:
            path, keys = repeated
            return self._with_id(request, _refusal(
                "bad_request", f"{path}: the same key given twice: {keys}"))  # fmt: skip
        return self.handle(request)

    def handle(self, request: object) -> dict[str, Any]:
        """The reply to one decoded request; never raises."""
        if not isinstance(request, dict):
            return _refusal("bad_request", '$: a request is a JSON object with a "type"')
        kind = request.get("type")
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        try:
            if handler is None:
                raise RequestError(
                    "unknown_type",
                    f"$.type: {shown(kind)} is not a request of protocol {PROTOCOL_VERSION} "
                    f"(one of {', '.join(self._handlers)})",
                )
            reply = handler(request)
        except RequestError as error:
            reply = _refusal(error.code, error.message, **error.extra)
        except Exception as error:  # never die: say what went wrong and read on
            reply = _refusal("internal_error", f"{type(error).__name__}: {error}")
        return self._with_id(request, reply)

    @staticmethod
    def _with_id(request: object, reply: dict[str, Any]) -> dict[str, Any]:
        """``reply``, with the request's ``id`` first when it has a usable one."""
        if not isinstance(request, dict) or "id" not in request:
            return reply
        if type(request["id"]) is int or isinstance(request["id"], str):
            return {"id": request["id"], **reply}
        return reply

    def _hello(self, request: dict[str, Any]) -> dict[str, Any]:
        version = request.get("protocol", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION:
            raise RequestError(
                "unsupported_protocol",
                f"$.protocol: this engine speaks protocol {PROTOCOL_VERSION}, not {shown(version)}",
            )
        return {"ok": True, "protocol": PROTOCOL_VERSION, "engine": self.name,
                "legal_moves": self.lists_legal_moves, "variants": list(self.variants)}  # fmt: skip

    def _new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        players = request.get("players")
        if type(players) is not int or players not in FACTORY_COUNTS:
            raise RequestError(
                "bad_request", f"$.players: expected 2, 3 or 4, got {shown(players)}"
            )
        variant = request.get("variant", "colored")
        if variant not in ("colored", "grey"):
            raise RequestError(
                "bad_request", f'$.variant: expected "colored" or "grey", got {shown(variant)}'
            )
        first = request.get("first_player")
        if type(first) is not int or not 0 <= first < players:
            raise RequestError(
                "bad_request", f"$.first_player: expected 0 to {players - 1}, got {shown(first)}"
            )
        dealt = _refill(request)
        start = new_game(players, variant=Variant(variant), first_player=first, external_draws=True)
        _judge(start, dealt)
        self.state = self.deal(start, dealt)
        return _REPLY_OK

    def _legal_moves(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "moves": self.legal(self._game())}

    def _apply(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self._game()
        try:
            move = move_from_dict(request.get("move"))
        except FormatError as error:
            raise RequestError("bad_request", f"$.move: {error}") from None
        _judge(state, move)
        self.state = self.deal(state, move) if isinstance(move, Refill) else self.play(state, move)
        return _REPLY_OK

    def _state(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "state": self.view(self._game())}

    def _refill(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self._game()
        refill = _refill(request)
        _judge(state, refill)
        self.state = self.deal(state, refill)
        return _REPLY_OK

    def _quit(self, request: dict[str, Any]) -> dict[str, Any]:
        self.finished = True
        return _REPLY_OK

    def _game(self) -> GameState:
        if self.state is None:
            raise RequestError("no_game", "no game yet: send new_game first")
        return self.state


_DOCS: Final[dict[Move, dict[str, Any]]] = {}


def _doc(move: Move) -> dict[str, Any]:
    """``to_dict(move)``, kept: the same few hundred compact moves recur."""
    doc = _DOCS.get(move)
    if doc is None:
        doc = _DOCS[move] = to_dict(move)
    return doc


def _refill(request: dict[str, Any]) -> Refill:
    try:
        move = move_from_dict({"type": "refill", "factories": request.get("factories")})
    except FormatError as error:
        raise RequestError("bad_request", f"$.factories: {error}") from None
    assert isinstance(move, Refill)
    return move


def _judge(state: GameState, move: Move) -> None:
    """Refuse an illegal move with the referee's verdict (every violation)."""
    result: Result = state.validate(move)
    if not result.ok:
        raise RequestError(
            "illegal_move",
            "; ".join(f"{v.code.value} ({v.rule}): {v.message}" for v in result.violations),
            violations=[{"code": v.code.value, "rule": v.rule, "message": v.message}
                        for v in result.violations],
        )  # fmt: skip


def _refusal(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message, **extra}}


def serve(engine: ReferenceEngine, source: IO[bytes], sink: IO[str]) -> int:
    """Answer every line of ``source`` on ``sink`` until ``quit`` or the end of input."""
    while not engine.finished:
        line = source.readline(MAX_LINE_BYTES + 1)
        if not line:
            break
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest, in bounded memory
                line = source.readline(MAX_LINE_BYTES)
            reply = _refusal(
                "line_too_long", f"a request line is limited to {MAX_LINE_BYTES} bytes"
            )
        else:
            reply = engine.handle_line(line)
        try:
            sink.write(json.dumps(reply, separators=(",", ":")) + "\n")
            sink.flush()
        except BrokenPipeError:
            return 0
    return 0


def main(engine: ReferenceEngine | None = None) -> int:
    """Serve standard input and output; the exit status (0).  Raises nothing for bad
    input: every line is answered."""
    return serve(engine or ReferenceEngine(), sys.stdin.buffer, sys.stdout)


class _Arguments(argparse.ArgumentParser):
    """A wrong command line in one line on standard error, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def command(argv: Sequence[str] | None = None) -> int:
    """``python -m azul_rules.engine [--help]``: serve the protocol; ``--help`` says
    what it does instead of waiting for requests; any other argument is refused (exit
    status 2, not raised)."""
    parser = _Arguments(
        prog="python -m azul_rules.engine",
        description="The referee speaking the engine protocol, version "
        f"{PROTOCOL_VERSION} (docs/engine-protocol.md): one JSON request a line on standard "
        "input, one JSON reply a line on standard output, until a quit request or the end "
        "of the input.  For azul-rules differential --engine and for testing an engine's "
        "driver.",
    )
    try:
        parser.parse_args(argv)
    except SystemExit as exit_:
        return 2 if exit_.code else 0
    return main()


if __name__ == "__main__":
    sys.exit(command())
