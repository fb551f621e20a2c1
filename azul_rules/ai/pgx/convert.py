"""Between the engine and the referee: :func:`to_state` (a game of a batch as the
referee's position) and :func:`from_state` (a position built by hand, into the engine)."""

from __future__ import annotations

from typing import Any, Final

from azul_rules.core._extras import extra

with extra("pgx", "azul_rules.ai.pgx"):
    import jax
    import jax.numpy as jnp
    import numpy as np

from azul_rules.ai.actions import (
    DEFAULT_MAX_ROUNDS,
    observation_size,
)
from azul_rules.ai.pgx.env import AzulEnv
from azul_rules.ai.pgx.state import _EMPTY, _FLOOR_SPACES, _MARKER, _OVER, AzulState
from azul_rules.core._accelerate import load_compiled
from azul_rules.core.board import PlayerBoard, pattern_line
from azul_rules.core.colors import COLORS, MARKER, Color, FloorItem
from azul_rules.core.errors import InvalidStateError
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.scoring import decide_outcome
from azul_rules.core.shown import number
from azul_rules.core.state import ACCELERATED, GameState

Array = jax.Array

# The referee's compiled core builds to_state's positions, when it is in use.
_core = load_compiled() if ACCELERATED else None


# -- back to the referee ---------------------------------------------------------------------


def to_state(state: AzulState, index: int | None = None) -> GameState:
    """Game ``index`` of a batch (``None``: the one game of an unbatched state) as the
    referee's position with external draws: between rounds the pgx state has already
    drawn, so its position is the referee's after the ``Refill`` of those factories.
    The compiled core builds it from the arrays' values (and ``apply`` on it starts from
    there); the Python core through ``GameState.make``."""
    fields: dict[str, Any] = {
        name: np.asarray(getattr(state, name))
        for name in ("factories", "center", "bag", "lid", "line_color", "line_count", "wall",
                     "floor", "score", "marker_holder", "start_player", "round", "phase",
                     "current_player")
    }  # fmt: skip
    if index is not None:
        fields = {name: value[index] for name, value in fields.items()}
    takes = (len(fields["factories"]) + 1) * 30
    grey = np.asarray(state.legal_action_mask).shape[-1] > takes
    if _core is not None:
        built: GameState = _core.state_of_position(grey, _position(fields))
        return built
    return _made(fields, grey)


def _position(fields: dict[str, Any]) -> tuple[Any, ...]:
    """A game's arrays as the plain data the compiled core builds a position from (the
    batch engine's ``Games.position``): counts by colour, -1 an empty line or space, 5
    the marker, the floor without its empty spaces."""
    boards = [
        (score, colors, counts, wall, [item for item in floor if item != _EMPTY])
        for score, colors, counts, wall, floor in zip(
            fields["score"].tolist(), fields["line_color"].tolist(),
            fields["line_count"].tolist(), fields["wall"].tolist(), fields["floor"].tolist(),
            strict=True,
        )
    ]  # fmt: skip
    return (int(fields["phase"]), int(fields["round"]), int(fields["current_player"]),
            int(fields["start_player"]), int(fields["marker_holder"]),
            fields["factories"].tolist(), fields["center"].tolist(), fields["bag"].tolist(),
            fields["lid"].tolist(), boards)  # fmt: skip


def _made(fields: dict[str, Any], grey: bool) -> GameState:
    """The position through ``GameState.make`` (the Python core)."""
    boards = tuple(_board(fields, seat) for seat in range(fields["score"].shape[0]))
    over = int(fields["phase"]) == _OVER
    variant = Variant.GREY if grey else Variant.COLORED
    marker = int(fields["marker_holder"])
    return GameState.make(
        players=boards,
        factories=tuple(_tiles(f) for f in fields["factories"]),
        center=_tiles(fields["center"]),
        bag=_tiles(fields["bag"]),
        lid=_tiles(fields["lid"]),
        current_player=int(fields["current_player"]),
        start_player=int(fields["start_player"]),
        phase=_PHASES[int(fields["phase"])],
        round=int(fields["round"]),
        variant=variant,
        marker_holder=None if marker == _EMPTY else marker,
        outcome=decide_outcome(boards) if over else None,
    )


_PHASES: Final = (Phase.FACTORY_OFFER, Phase.WALL_TILING, Phase.REFILL, Phase.GAME_OVER)


def _tiles(counts: Any) -> tuple[Color, ...]:
    return tuple(color for color, n in zip(COLORS, counts.tolist(), strict=True) for _ in range(n))


def _board(fields: dict[str, Any], seat: int) -> PlayerBoard:
    lines = tuple(
        pattern_line(row, None if c == _EMPTY else COLORS[c], n)
        for row, (c, n) in enumerate(
            zip(
                fields["line_color"][seat].tolist(),
                fields["line_count"][seat].tolist(),
                strict=True,
            )
        )
    )
    wall = tuple(
        tuple(None if c == _EMPTY else COLORS[c] for c in row)
        for row in fields["wall"][seat].tolist()
    )
    floor: tuple[FloorItem, ...] = tuple(
        MARKER if c == _MARKER else COLORS[c] for c in fields["floor"][seat].tolist() if c != _EMPTY
    )
    return PlayerBoard(
        score=int(fields["score"][seat]), pattern_lines=lines, wall=wall, floor=floor
    )




MAX_ROUND: Final = 2**15 - 2
"""The last round :func:`from_state` takes: the engine counts rounds in 16 bits, and the
next round's number must fit too."""


def from_state(game: GameState, max_rounds: int = DEFAULT_MAX_ROUNDS) -> AzulState:
    """The referee's position ``game`` as the engine's state (one game, unbatched): a
    position built by hand (a full floor, a nearly empty bag...) can be stepped by the
    engine and held to the referee from there.  The inverse of :func:`to_state`.

    Only a position that can exist is taken: its counts then fit the engine's 8-bit
    fields (4 tiles a factory, 7 floor spaces, one marker, 20 tiles of a colour) and its
    scores its 16-bit ones (no wall earns more than 240 points with its bonuses, so a
    score stays below 32,767 whatever a round adds: ``SCORE_OUT_OF_REACH``).

    :raises InvalidStateError: (a ``ValueError``) for a position that cannot exist,
        with every problem of ``game.problems()``: a floor of 8, a centre of 150
        tiles, two markers, 9 tiles on a factory, a score no wall can have earned...
    :raises ValueError: for a position waiting for a ``Refill`` (the engine draws at
        once, so it never waits), or in a round past 32,766 (``MAX_ROUND``).
    """
    problems = game.problems()
    if problems:
        raise InvalidStateError(problems)
    if game.phase is Phase.REFILL:
        raise ValueError("from_state(): the engine never waits for a Refill; apply one first")
    if game.round > MAX_ROUND:
        raise ValueError(f"from_state(): round {number(game.round)} is past the engine's last, "
                         f"{MAX_ROUND}: it counts rounds in 16 bits")  # fmt: skip
    players = len(game.players)
    env = AzulEnv(players, max_rounds, grey=game.variant is Variant.GREY)
    boards = game.players

    def codes(items: Any) -> list[int]:
        return [_EMPTY if c is None else _MARKER if c is MARKER else int(c) for c in items]

    def counts(tiles: Any) -> list[int]:
        return [tiles.count(color) for color in COLORS]

    over = game.outcome is not None
    rewards = [0.0] * players
    if game.outcome is not None:
        from azul_rules.ai.actions import utilities

        rewards = utilities(game.outcome.winners, players)
    marker = _EMPTY if game.marker_holder is None else game.marker_holder
    state = AzulState(
        current_player=jnp.int32(game.current_player),
        observation=jnp.zeros(observation_size(players), jnp.float32),
        rewards=jnp.asarray(rewards, jnp.float32),
        terminated=jnp.bool_(over),
        truncated=jnp.bool_(not over and game.round > max_rounds),
        legal_action_mask=jnp.zeros(env._takes + 25 * env._grey, jnp.bool_),
        _step_count=jnp.int32(0),
        factories=jnp.asarray([counts(f) for f in game.factories], jnp.int8),
        center=jnp.asarray(counts(game.center), jnp.int8),
        bag=jnp.asarray(counts(game.bag), jnp.int8),
        lid=jnp.asarray(counts(game.lid), jnp.int8),
        line_color=jnp.asarray([codes(line.color for line in b.pattern_lines) for b in boards],
                               jnp.int8),
        line_count=jnp.asarray([[line.count for line in b.pattern_lines] for b in boards],
                               jnp.int8),
        wall=jnp.asarray([[codes(row) for row in b.wall] for b in boards], jnp.int8),
        floor=jnp.asarray([codes(b.floor) + [_EMPTY] * (_FLOOR_SPACES - len(b.floor))
                           for b in boards], jnp.int8),
        score=jnp.asarray([b.score for b in boards], jnp.int16),
        marker_holder=jnp.int8(marker),
        start_player=jnp.int8(game.start_player),
        round=jnp.int16(game.round),
        phase=jnp.int8(_PHASES.index(game.phase)),
    )  # fmt: skip
    mask = env._mask(state, over)
    state = state.replace(legal_action_mask=mask)
    observed: AzulState = state.replace(observation=env.observe(state))
    return observed
