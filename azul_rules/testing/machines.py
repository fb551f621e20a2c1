"""Hypothesis state machines: random games played through the referee.

* :class:`GameMachine` plays legal moves and calls hooks a subclass fills in;
* :class:`RefereeMachine` checks the referee's invariants at every step;
* :func:`differential_machine` and :func:`spiel_differential_machine` play every move on
  another implementation of Azul too, and compare it with the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from azul_rules.core._extras import extra

with extra("testing", "azul_rules.testing"):
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from azul_rules.core.colors import COLORS
from azul_rules.core.errors import IllegalMoveError
from azul_rules.core.moves import Move
from azul_rules.core.phases import Variant
from azul_rules.core.shown import shown
from azul_rules.core.state import GameState, new_game
from azul_rules.testing.strategies import (
    checked_player_counts,
    checked_variants,
    illegal_moves,
    legal_moves,
)
from azul_rules.testing.tiles import tile_counts

__all__ = [
    "GameMachine",
    "Implementation",
    "RefereeMachine",
    "differential_machine",
    "spiel_differential_machine",
]


class Implementation(Protocol):
    """Another implementation of Azul, adapted for :func:`differential_machine`.

    ``start`` receives the referee's initial position (``azul_rules.to_dict(state)``
    gives it as JSON-ready data); ``play`` receives each legal move in turn (seeded
    refills happen inside the move that ends a round, as in the referee); ``scores``
    returns every player's score now.
    """

    def start(self, state: GameState) -> None: ...

    def play(self, move: Move) -> None: ...

    def scores(self) -> Sequence[int]: ...


class GameMachine(RuleBasedStateMachine):
    """Plays random games through the referee, one legal move per step, and calls
    :meth:`on_start` and :meth:`on_move` so that a subclass can check anything it likes
    (``apply`` leaving its input alone is always checked)."""

    player_counts: Sequence[int] = (2, 3, 4)
    variants: Sequence[Variant] = (Variant.COLORED, Variant.GREY)

    def __init__(self) -> None:
        super().__init__()
        self.state = new_game()

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        """A new game: players, variant and seed drawn."""
        self._new_game(data)

    @precondition(lambda self: self.state.is_over)
    @rule(data=st.data())
    def play_again(self, data: st.DataObject) -> None:
        """The game is over: a new one, so that a run plays on for all its steps
        (otherwise Hypothesis finds no rule to apply once a game ends)."""
        self._new_game(data)

    def _new_game(self, data: st.DataObject) -> None:
        players = data.draw(st.sampled_from(tuple(self.player_counts)), label="players")
        variant = data.draw(st.sampled_from(tuple(self.variants)), label="variant")
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        self.state = new_game(players, seed=seed, variant=variant)
        self.on_start(self.state)

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def play_legal_move(self, data: st.DataObject) -> None:
        """A legal move; its input state must not change."""
        before = self.state
        snapshot = hash(before), repr(before.players)
        move = data.draw(legal_moves(before), label="move")
        after = before.apply(move)
        assert (hash(before), repr(before.players)) == snapshot, "apply changed its input"
        self.state = after
        self.on_move(before, move, after)

    def on_start(self, state: GameState) -> None:
        """Called with each new game's first state."""

    def on_move(self, before: GameState, move: Move, after: GameState) -> None:
        """Called after each legal move."""


class RefereeMachine(GameMachine):
    """A :class:`GameMachine` that also checks the referee's invariants after every
    step: 20 tiles of each colour, no negative score, every listed legal move accepted
    by ``validate``, and labelled illegal moves refused with their code."""

    @rule(data=st.data())
    def refuse_illegal_move(self, data: st.DataObject) -> None:
        """A labelled illegal move is refused, with its code first."""
        move, code = data.draw(illegal_moves(self.state), label="illegal move")
        result = self.state.validate(move)
        assert result.code is code, f"{move}: expected {code.value}, got {result}"
        try:
            self.state.apply(move)
        except IllegalMoveError as error:
            assert error.result == result
        else:
            raise AssertionError(f"apply accepted the illegal move {move}")

    @invariant()
    def tiles_are_accounted_for(self) -> None:
        """S3: 20 tiles of each colour, always."""
        assert tile_counts(self.state) == dict.fromkeys(COLORS, 20)

    @invariant()
    def scores_are_never_negative(self) -> None:
        """W4: scores never drop below 0."""
        assert all(b.score >= 0 for b in self.state.players)

    @invariant()
    def legal_moves_are_all_valid(self) -> None:
        """Every listed move is accepted; none is listed twice."""
        moves = self.state.legal_moves()
        assert len(set(moves)) == len(moves)
        assert all(self.state.validate(m).ok for m in moves)


def differential_machine(
    implementation: Callable[[], Implementation] | str,
    *,
    player_counts: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant] = (Variant.COLORED, Variant.GREY),
) -> type[GameMachine]:
    """A :class:`GameMachine` that also plays every move on a fresh ``implementation()``
    and fails as soon as its scores differ from the referee's (or, for an
    implementation with a ``differences()`` method such as :func:`protocol_engine`'s, as
    soon as that method lists one).  Only legal moves are
    played, so Hypothesis shrinks a failure to a short game quickly.

    Use it from a test module: ``TestMine = differential_machine(MyAdapter).TestCase``.

    ``implementation`` may also be the name of an OpenSpiel Azul game
    (``differential_machine("python_azul")``): that is
    :func:`spiel_differential_machine` with its defaults.

    :raises TypeError: for an ``implementation`` that is neither callable nor a name.
    :raises ValueError: for a name, as :func:`spiel_differential_machine`.
    """
    if isinstance(implementation, str):
        return spiel_differential_machine(
            implementation, player_counts=player_counts, variants=variants
        )
    if not callable(implementation):
        raise TypeError(
            "differential_machine() takes a callable returning an implementation, or the "
            f"name of an OpenSpiel Azul game, not {shown(implementation)}"
        )
    factory: Callable[[], Implementation] = implementation

    class DifferentialMachine(GameMachine):
        def on_start(self, state: GameState) -> None:
            self.other = factory()
            self.other.start(state)
            self._compare(state, None)

        def on_move(self, before: GameState, move: Move, after: GameState) -> None:
            self.other.play(move)
            self._compare(after, move)

        def _compare(self, state: GameState, move: Move | None) -> None:
            detailed = getattr(self.other, "differences", None)
            if callable(detailed):
                found = detailed()
                if found:
                    raise AssertionError(f"after {move}: " + "; ".join(map(str, found)))
                return
            expected = tuple(b.score for b in state.players)
            got = tuple(self.other.scores())
            if got != expected:
                raise AssertionError(
                    f"after {move}: the implementation's scores are {got}, the referee's "
                    f"{expected}{_describe_tiling(state)}"
                )

    DifferentialMachine.player_counts = tuple(player_counts)
    DifferentialMachine.variants = tuple(variants)
    DifferentialMachine.__name__ = (
        f"DifferentialMachine[{getattr(factory, '__name__', 'impl')}]"
    )
    return DifferentialMachine


def spiel_differential_machine(
    game: str = "python_azul",
    *,
    player_counts: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant | str] = (Variant.COLORED, Variant.GREY),
    parameters: Callable[[int, Variant], Mapping[str, Any]] | None = None,
    deal: Callable[[GameState, GameState | None], list[int]] | None = None,
    scores: Callable[[Any], Sequence[int]] | None = None,
) -> type[GameMachine]:
    """:func:`differential_machine` for an OpenSpiel Azul game loaded by name (needs the
    ``[openspiel]`` extra; ``import azul_rules.ai.spiel`` registers ``python_azul``).

    Besides the scores after every move, each step checks the player to move, the legal
    action ids (:mod:`azul_rules.ai.actions`), the end of the game and its winners; see
    :class:`azul_rules.ai.spiel.SpielImplementation` for ``parameters``, ``deal`` and
    ``scores``, needed by a game whose parameters, chance outcomes or observation
    differ from ``python_azul``'s.

    ``variants`` takes ``Variant`` values or the strings ``"colored"`` and ``"grey"``
    (``parameters`` receives ``Variant`` values).

    :raises ValueError: at once for a game OpenSpiel does not know, for player counts
        other than 2, 3 and 4, or for another variant, and for an empty or bare (not a
        list) ``player_counts`` or ``variants``.
    """
    import pyspiel

    from azul_rules.ai.spiel import SpielImplementation

    if not isinstance(game, str) or game not in pyspiel.registered_names():
        raise ValueError(
            f"OpenSpiel knows no game {shown(game)}: register it (import its module) first; "
            "python_azul is registered by importing azul_rules.ai.spiel"
        )
    counts = checked_player_counts(player_counts)
    walls = checked_variants(variants)

    def implementation() -> Implementation:
        return SpielImplementation(game, parameters=parameters, deal=deal, scores=scores)

    implementation.__name__ = game
    return differential_machine(implementation, player_counts=counts, variants=walls)


def _describe_tiling(state: GameState) -> str:
    """The referee's last tiling, for a failure message (rows and columns from 0)."""
    if state.last_scoring is None:
        return ""
    parts = []
    for tiling in state.last_scoring.players:
        placed = ", ".join(
            f"{p.color.name.lower()} at ({p.row}, {p.column}) runs "
            f"{p.horizontal}x{p.vertical} = {p.points}"
            for p in tiling.placements
        )
        parts.append(f"player {tiling.player}: {placed or 'nothing placed'}, "
                     f"floor -{tiling.floor_penalty}")  # fmt: skip
    return "; the referee's last tiling: " + "; ".join(parts)
