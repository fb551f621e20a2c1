"""Engines speaking the engine protocol (``docs/engine-protocol.md``), as implementations
for :func:`~azul_rules.testing.differential_machine`.

:func:`protocol_engine` gives a :class:`ProtocolEngine`: one engine process serving
every game, each game a :class:`ProtocolImplementation` comparing the engine's view,
legal moves and refusals with the referee's after every step.
"""

from __future__ import annotations

import atexit
from collections.abc import Sequence
from typing import cast

from azul_rules.core.board import PlayerBoard
from azul_rules.core.moves import Move, Refill
from azul_rules.core.phases import Phase
from azul_rules.core.state import GameState
from azul_rules.testing.conformance import (
    Difference,
    Step,
    move_set_differences,
    refusal_difference,
    view_differences,
)
from azul_rules.testing.engine_process import DEFAULT_TIMEOUT, EngineProcess, Refusal, check_timeout
from azul_rules.testing.protocol import EngineInfo

__all__ = ["ProtocolEngine", "ProtocolImplementation", "protocol_engine"]


class ProtocolEngine:
    """A factory of :class:`Implementation` objects backed by one engine process that
    speaks the engine protocol; see :func:`protocol_engine`.  The process starts at the
    first game, serves every game after it (each begins with ``new_game``), is started
    again if it has died, and is ended by :meth:`close` or at interpreter exit.

    :raises ValueError: for a ``timeout`` that is not a positive number of seconds.
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.timeout = check_timeout(timeout)
        self.command = command
        self.__name__ = "ProtocolEngine"
        self._process: EngineProcess | None = None
        self._info: EngineInfo | None = None
        atexit.register(self.close)

    def __call__(self) -> ProtocolImplementation:
        return ProtocolImplementation(self)

    def connect(self) -> tuple[EngineProcess, EngineInfo]:
        """The running engine and its ``hello``, started if need be.  A failed start or
        ``hello`` ends the process, so the next call starts it again (and raises
        :class:`~azul_rules.testing.protocol.ProtocolError` again if the engine still fails)."""
        process, info = self._process, self._info
        if process is not None and info is not None and process.running:
            return process, info
        self.close()
        process = EngineProcess(self.command, timeout=self.timeout)
        try:
            info = process.hello()
        except BaseException:
            process.close()
            raise
        self._process, self._info = process, info
        return process, info

    def close(self) -> None:
        """End the engine process (safe to call twice)."""
        process, self._process, self._info = self._process, None, None
        if process is not None:
            process.close()


class ProtocolImplementation:
    """One game on a protocol engine, as :func:`differential_machine` drives it:
    ``start``, ``play`` and ``scores``, plus ``differences()``, every fact of the engine's
    view, legal moves and refusals that differs from the referee's after the last step.

    :raises ~azul_rules.testing.protocol.ProtocolError: from its methods, when the engine
        breaks the protocol.
    """

    def __init__(self, engine: ProtocolEngine) -> None:
        self.engine = engine
        self.state: GameState | None = None
        self.step: Step | None = None
        self.refused: list[Difference] = []
        self._pending = False

    def start(self, state: GameState) -> None:
        """A new game: ``state`` is a fresh ``new_game`` (seeded, or with external draws
        and waiting for its first ``Refill``)."""
        process, _ = self.engine.connect()
        self.state, self.step, self.refused = state, None, []
        fresh = state.round == 1 and all(b == PlayerBoard() for b in state.players)
        if fresh and state.phase is Phase.REFILL:
            self._pending = True  # new_game goes with the first Refill
            return
        if not fresh or state.phase is not Phase.FACTORY_OFFER or state.center:
            raise ValueError(
                "the engine protocol starts games with new_game: start from a new game"
            )
        self._pending = False
        process.new_game(len(state.players), state.variant, state.current_player, state.factories)
        self.step = Step(None, Refill(state.factories), state)

    def play(self, move: Move) -> None:
        """Play the referee's legal ``move`` on the engine too (and, in a seeded game, the
        refill the referee drew inside it)."""
        process, _ = self.engine.connect()
        before = self.state
        assert before is not None, "start() first"
        after = before.apply(move)
        try:
            if self._pending and isinstance(move, Refill):
                self._pending = False
                n = len(before.players)
                process.new_game(n, before.variant, before.current_player, move.factories)
                self.state, self.step = after, Step(None, move, after)
                return
            if isinstance(move, Refill):
                process.refill(move.factories)
            else:
                process.apply(move, before.current_player)
            if before.rng_state is not None and _dealt_inside(before, after):
                process.refill(after.factories)
        except Refusal as refusal:
            self.refused.append(refusal_difference(before, move, refusal.code, refusal.message))
        self.state, self.step = after, Step(before, move, after)

    def scores(self) -> Sequence[int]:
        """The scores the engine reports."""
        process, _ = self.engine.connect()
        assert self.state is not None
        view = process.view(len(self.state.players))
        return tuple(
            cast(int, view[f"$.players[{i}].score"]) for i in range(len(self.state.players))
        )

    def differences(self) -> list[Difference]:
        """What differs between the engine and the referee after the last step."""
        if self.step is None:
            return []
        process, info = self.engine.connect()
        state = self.step.after
        found = list(self.refused)
        found += view_differences(self.step, process.view(len(state.players)))
        if info.legal_moves and state.phase in (Phase.FACTORY_OFFER, Phase.WALL_TILING):
            found += move_set_differences(state, process.legal_moves())
        return found


def _dealt_inside(before: GameState, after: GameState) -> bool:
    """A seeded game drew the next round's factories inside the last move (or found
    nothing to deal, R6)."""
    if after.round > before.round and after.phase is Phase.FACTORY_OFFER:
        return True
    ended = after.is_over and after.last_scoring is not before.last_scoring
    return ended and not any(b.has_complete_row() for b in after.players)


def protocol_engine(
    command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT
) -> ProtocolEngine:
    """An implementation for :func:`differential_machine` backed by a program that speaks
    the engine protocol (``docs/engine-protocol.md``), in any language::

        engine = protocol_engine("node my-engine.js")
        TestMyEngine = differential_machine(engine, variants=[Variant.COLORED]).TestCase

    Every step compares the engine's reported view, its legal moves (when it lists them)
    and its refusals with the referee's.  ``timeout`` bounds each reply, in seconds.

    :raises ValueError: for a ``timeout`` that is not a positive number.
    """
    return ProtocolEngine(command, timeout=timeout)
