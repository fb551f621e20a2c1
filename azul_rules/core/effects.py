"""What a legal move does, before it is played, and the compact notation of a move: the
words the web judge's check answer and the command line's ``check --json`` and ``moves``
share (P5, P6, F1, F2, W3)."""

from __future__ import annotations

from typing import Any

from azul_rules.core.colors import CENTER, FLOOR, FLOOR_SIZE, FLOOR_TOTALS
from azul_rules.core.moves import Move, PlaceTile, TableTake, Take
from azul_rules.core.position import Position
from azul_rules.core.scoring import score_placement

__all__ = ["move_effect", "move_notation"]


def move_notation(move: Move) -> str | None:
    """The compact notation of a take that names no player (``"3B2"``), else ``None``."""
    return str(move) if type(move) is Take and move.player is None else None


def move_effect(state: Position, move: Move) -> dict[str, Any] | None:
    """What a legal move does, before it is played: a take's tiles to its pattern line
    and to the floor (P5), the points those floor tiles cost now (F1: the floor's penalty
    after the take less before it; tiles past the seventh space go to the lid, F2) and
    whether it takes the starting player marker (P6); a grey wall placement's points
    (V1, W3).  ``None`` for a refill."""
    if isinstance(move, PlaceTile):
        board = state.players[state.current_player]
        wall = [list(row) for row in board.wall]
        wall[move.line][move.column] = board.pattern_lines[move.line].color
        return {"points": score_placement(wall, move.line, move.column).points}
    if not isinstance(move, Take | TableTake):
        return None
    board = state.players[state.current_player]
    source = state.center if move.source == CENTER else state.factories[move.source]
    count = source.count(move.color)
    if isinstance(move, TableTake):
        to_floor = move.placements.get(FLOOR, 0)
    elif move.line == FLOOR:
        to_floor = count
    else:
        line = board.pattern_lines[move.line]
        to_floor = count - min(count, line.capacity - line.count)
    marker = move.source == CENTER and state.marker_holder is None
    before = len(board.floor)
    after = min(FLOOR_SIZE, before + to_floor + marker)
    return {
        "to_line": count - to_floor,
        "to_floor": to_floor,
        "floor_penalty": FLOOR_TOTALS[after] - FLOOR_TOTALS[before],
        "marker": marker,
    }
