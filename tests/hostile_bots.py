"""Bots that misbehave in every way a bot can, for ``tests/tournament/test_tournament_hostile.py``;
importable as ``tests.hostile_bots:Name`` (so that worker processes can build them)."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, ClassVar

import azul_rules as az
from azul_rules.core.bots import RandomBot


class OwnError(BaseException):
    """A bot's own ``BaseException`` subclass (not an ``Exception``)."""


class GeneratorExitBot:
    def choose(self, state: az.GameState) -> az.Move:
        raise GeneratorExit


class OwnBaseExceptionBot:
    def choose(self, state: az.GameState) -> az.Move:
        raise OwnError("deep in the search")


class InterruptBot:
    """Raises ``KeyboardInterrupt`` at the first move of the fourth bot it builds (the
    referee cannot tell it from the organiser's Ctrl-C); ``built`` counts the bots."""

    built = 0

    def __init__(self) -> None:
        InterruptBot.built += 1
        self.number = InterruptBot.built

    def choose(self, state: az.GameState) -> az.Move:
        if self.number == 4:
            raise KeyboardInterrupt
        return state.legal_moves()[0]


def own_error_factory() -> Any:
    raise OwnError("cannot load the weights")


class UnprintableError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


class UnprintableErrorBot:
    def choose(self, state: az.GameState) -> az.Move:
        raise UnprintableError


class EscapingErrorBot:
    """Raises an error whose message holds a terminal's escapes and a carriage return."""

    def choose(self, state: az.GameState) -> az.Move:
        raise ValueError("\x1b[31mred\x1b[0m\rover")


class RaisingTake(az.Take):
    """A ``Take`` whose equality and hash raise."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")


class RaisingTakeBot:
    def choose(self, state: az.GameState) -> az.Move:
        move = state.legal_moves()[0]
        assert isinstance(move, az.Take)
        return RaisingTake(move.source, move.color, move.line)


class Impostor:
    """Claims to be a ``Take`` to ``isinstance``."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return az.Take


class ImpostorBot:
    def choose(self, state: az.GameState) -> object:
        return Impostor()


class Int(int):
    """An integer of another type (as numpy's ``int64`` is)."""


class OddPartsBot:
    """Returns a real ``Take`` whose parts were set past its constructor: a
    ``source`` that is an ``int`` subclass."""

    def choose(self, state: az.GameState) -> az.Move:
        move = state.legal_moves()[0]
        assert isinstance(move, az.Take)
        odd = object.__new__(az.Take)
        for name in ("source", "color", "line", "player"):
            object.__setattr__(odd, name, getattr(move, name))
        object.__setattr__(odd, "source", Int(move.source))
        return odd


class HugeSourceBot:
    """Takes from factory 10**5000: a ``Take`` its constructor accepts, which no JSON
    text can hold (past 4,300 digits)."""

    def choose(self, state: az.GameState) -> az.Move:
        return az.Take(10**5000, az.Color.RED, 0)


class LongTypeNameBot:
    """Returns an object whose type has a name of 2 MB."""

    def choose(self, state: az.GameState) -> object:
        return type("X" * 2_000_000, (), {})()


class CheatingBot:
    """Gives itself 50 points (``object.__setattr__`` on a frozen board), then plays."""

    def choose(self, state: az.GameState) -> az.Move:
        board = state.players[state.current_player]
        object.__setattr__(board, "score", board.score + 50)
        return state.legal_moves()[0]


class ForgetfulSearchBot:
    """A "do and undo" search that replaces the state's centre and forgets to undo."""

    def choose(self, state: az.GameState) -> az.Move:
        move = state.legal_moves()[0]
        object.__setattr__(state, "center", ())
        return move


class UnhashablePartBot:
    """Puts a list where the state holds its factories."""

    def choose(self, state: az.GameState) -> az.Move:
        move = state.legal_moves()[0]
        object.__setattr__(state, "factories", [list(f) for f in state.factories])
        return move


class ForkingBot:
    """Forks at every move and lets the copy return into the referee (as a bot that
    forks a helper and forgets ``os._exit`` does); keeps each copy's exit status."""

    statuses: ClassVar[list[int]] = []

    def choose(self, state: az.GameState) -> az.Move:
        pid = os.fork()
        if pid:
            _, status = os.waitpid(pid, 0)
            ForkingBot.statuses.append(os.waitstatus_to_exitcode(status))
        return state.legal_moves()[0]


class PrintingBot:
    """Writes to standard output in every way: print, sys.__stdout__, the descriptor."""

    def choose(self, state: az.GameState) -> az.Move:
        print("thinking...")
        sys.__stdout__.write("more thoughts\n") if sys.__stdout__ is not None else None
        os.write(1, b"raw thoughts\n")
        return state.legal_moves()[0]


class SlowBot:
    """Half a second a move: a batch of such games lasts minutes."""

    def choose(self, state: az.GameState) -> az.Move:
        time.sleep(0.5)
        return state.legal_moves()[0]


class WrappedRandomBot:
    """``RandomBot`` behind a class of its own: the referee checks its moves as a
    stranger's."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)

    def choose(self, state: az.GameState) -> az.Move:
        return self.inner.choose(state)


class LineTamperingBot:
    """Gives its top pattern line 5 spaces (``object.__setattr__`` on a pattern line,
    which is shared by every board holding that line: the empty line of a new game)."""

    def choose(self, state: az.GameState) -> az.Move:
        line = state.players[state.current_player].pattern_lines[0]
        object.__setattr__(line, "capacity", 5)
        return state.legal_moves()[0]


class HugeLineBot:
    """Puts 2**31 tiles on its top pattern line, which a tiling would move to the lid."""

    def choose(self, state: az.GameState) -> az.Move:
        line = state.players[state.current_player].pattern_lines[0]
        object.__setattr__(line, "count", 2**31)
        object.__setattr__(line, "capacity", 2**31)
        return state.legal_moves()[0]
