"""The round cycle after the factory offer: wall tiling (W1-W3), the floor (W4-W5, F1-F4),
the end of the game (E1-E4, R6) and the refill of the factories (R1-R5).

Pure functions on the parts of a state; ``state.apply`` calls them when the last tile of
a round is taken (or when a ``Refill`` is entered).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from azul_rules.board import PlayerBoard, pattern_line
from azul_rules.colors import MARKER, Color, Tiles, wall_column
from azul_rules.rng import draw_indices
from azul_rules.scoring import (
    Outcome,
    PlayerTiling,
    WallPlacement,
    decide_outcome,
    end_bonuses,
    floor_penalty,
    score_placement,
)

__all__ = ["draw_factories", "finish_game", "place_on_wall", "settle_floor", "tile_colored"]


def place_on_wall(
    board: PlayerBoard, row: int, column: int, lid: list[Color]
) -> tuple[PlayerBoard, WallPlacement]:
    """W1, W3: move one tile of complete pattern line ``row`` to ``(row, column)``,
    score it at once, and put the line's other tiles in ``lid``."""
    line = board.pattern_lines[row]
    color = line.color
    assert color is not None and line.count == line.capacity
    rows = list(board.wall)
    rows[row] = rows[row][:column] + (color,) + rows[row][column + 1 :]
    scored = score_placement(rows, row, column)
    lid.extend([color] * (line.capacity - 1))
    lines = board.pattern_lines
    lines = lines[:row] + (pattern_line(row, None, 0),) + lines[row + 1 :]
    placed = PlayerBoard(board.score + scored.points, lines, tuple(rows), board.floor)
    return placed, WallPlacement(
        row, column, color, scored.horizontal, scored.vertical, scored.points
    )


def tile_colored(
    player: int, board: PlayerBoard, lid: list[Color]
) -> tuple[PlayerBoard, PlayerTiling]:
    """W1-W3 on the coloured wall: complete lines, top to bottom, move one tile to the
    space of their colour (S5) and score it at once.  Incomplete lines keep their tiles
    (W2).  Returns the board and the tiling so far (before the floor)."""
    placements = []
    before = board.score
    for index, line in enumerate(board.pattern_lines):
        if line.color is not None and line.count == line.capacity:
            board, placed = place_on_wall(board, index, wall_column(index, line.color), lid)
            placements.append(placed)
    return board, PlayerTiling(player, before, tuple(placements), 0, board.score)


def settle_floor(
    board: PlayerBoard, tiling: PlayerTiling, lid: list[Color]
) -> tuple[PlayerBoard, PlayerTiling]:
    """W4-W5: subtract the floor's penalties (marker included, F3) from a score that
    already holds the round's placements, clamp at 0 once, and empty the floor: tiles
    to the lid, the marker back to its holder."""
    penalty = floor_penalty(len(board.floor))
    score = max(0, board.score - penalty)
    lid.extend(t for t in board.floor if t is not MARKER)
    settled = PlayerBoard(score, board.pattern_lines, board.wall, ())
    return settled, attrs.evolve(tiling, floor_penalty=penalty, score_after=score)


def finish_game(
    boards: Sequence[PlayerBoard], tilings: Sequence[PlayerTiling]
) -> tuple[tuple[PlayerBoard, ...], tuple[PlayerTiling, ...], Outcome]:
    """E2-E4: add each player's end bonuses and decide the winners."""
    final_boards = []
    final_tilings = []
    for board, tiling in zip(boards, tilings, strict=True):
        bonuses = end_bonuses(board.wall)
        score = board.score + bonuses.points
        final_boards.append(PlayerBoard(score, board.pattern_lines, board.wall, board.floor))
        final_tilings.append(
            PlayerTiling(
                tiling.player,
                tiling.score_before,
                tiling.placements,
                tiling.floor_penalty,
                score,
                bonuses,
                tiling.floor_lines,
            )
        )
    boards_out = tuple(final_boards)
    return boards_out, tuple(final_tilings), decide_outcome(boards_out)


def draw_factories(
    count: int, bag: Tiles, lid: Tiles, rng: int
) -> tuple[tuple[Tiles, ...], Tiles, Tiles, int]:
    """R2: fill ``count`` factories with 4 tiles each, drawn at random from the bag; when
    the bag runs out the lid is poured into it, and when both are empty the remaining
    factories stay short or empty.  Returns the factories, bag, lid and generator state.

    Each factory's four draws come from one step of the generator (``draw_indices``).
    """
    pool = list(bag)
    spare = lid
    factories = []
    for _ in range(count):
        if len(pool) < 4 and spare:
            # The bag runs out during this factory: draw what it holds, then the lid.
            drawn = pool
            pool, spare = list(spare), ()
        else:
            drawn = []
        want = min(4 - len(drawn), len(pool))
        if want:
            indices, rng = draw_indices(rng, tuple(range(len(pool), len(pool) - want, -1)))
            drawn.extend([pool.pop(i) for i in indices])
        drawn.sort()
        factories.append(tuple(drawn))
    return tuple(factories), tuple(pool), spare, rng
