"""Two simple players for demonstrations and tests: a random one and a greedy one."""

from __future__ import annotations

import random

import attrs

from azul_rules.board import PlayerBoard
from azul_rules.colors import CENTER, FLOOR, Color, wall_column
from azul_rules.moves import PlaceTile, Take
from azul_rules.scoring import floor_penalty, score_placement
from azul_rules.state import GameState

__all__ = ["GreedyBot", "RandomBot", "placement_value", "take_value"]


@attrs.define
class RandomBot:
    """Plays a uniformly random legal move, from its own seeded generator."""

    seed: int = 0
    name: str = "random"
    _rng: random.Random = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def choose(self, state: GameState) -> Take | PlaceTile:
        """A random legal move."""
        return self._rng.choice(state.legal_moves())


@attrs.define
class GreedyBot:
    """Plays the take worth most right now (see :func:`take_value`); ties go to the
    first in ``legal_moves`` order."""

    name: str = "greedy"

    def choose(self, state: GameState) -> Take | PlaceTile:
        """The best move by its immediate value."""
        board = state.players[state.current_player]
        best: Take | PlaceTile | None = None
        best_value = float("-inf")
        for move in state.legal_moves():
            if isinstance(move, Take):
                value = take_value(state, board, move)
            else:
                value = placement_value(board, move)
            if value > best_value:
                best, best_value = move, value
        assert best is not None, "a game waiting for a move always has a legal one (T1)"
        return best


def placement_value(board: PlayerBoard, move: PlaceTile) -> float:
    """The points a grey-wall placement scores at once (W3)."""
    color = board.pattern_lines[move.line].color
    assert color is not None
    wall = list(board.wall)
    row = wall[move.line]
    wall[move.line] = row[: move.column] + (color,) + row[move.column + 1 :]
    return score_placement(wall, move.line, move.column).points


def take_value(state: GameState, board: PlayerBoard, move: Take) -> float:
    """A quick estimate of a take: tiles placed, plus the wall points of a line it
    completes, minus the floor points it costs."""
    assert isinstance(move.color, Color)
    source = state.center if move.source == CENTER else state.factories[move.source]
    taken = source.count(move.color)
    marker = 1 if move.source == CENTER and state.marker_holder is None else 0
    placed = 0
    completion = 0.0
    if move.line != FLOOR:
        line = board.pattern_lines[move.line]
        placed = min(taken, line.room)
        if placed == line.room:
            column = wall_column(move.line, move.color)
            row = board.wall[move.line]
            wall = list(board.wall)
            wall[move.line] = row[:column] + (move.color,) + row[column + 1 :]
            completion = score_placement(wall, move.line, column).points + 0.5 * line.capacity
    on_floor = len(board.floor)
    cost = floor_penalty(on_floor + marker + taken - placed) - floor_penalty(on_floor)
    return placed * 0.3 + completion - cost
