"""The round cycle after the factory offer: wall tiling (W1-W3), the floor (W4-W5, F1-F4),
the end of the game (E1-E4, R6) and the refill of the factories (R1-R5).

Pure functions on the parts of a state; ``state.apply`` calls them when the last tile of
a round is taken (or when a ``Refill`` is entered).
"""

from __future__ import annotations

from collections.abc import Sequence

from azul_rules.board import PatternLine, PlayerBoard, Wall, pattern_line
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

__all__ = ["draw_factories", "finish_game", "tile_board"]


def tile_board(
    player: int, board: PlayerBoard, lid: list[Color]
) -> tuple[PlayerBoard, PlayerTiling]:
    """One player's coloured-wall tiling and floor (W1-W5).

    Complete lines, top to bottom, move one tile to the wall space of their colour and
    score it at once (W1, W3); their other tiles and the floor's tiles go to ``lid``
    (W5).  Incomplete lines keep their tiles (W2).  The floor's total is subtracted
    and the score clamped at 0 once (W4).
    """
    lines = list(board.pattern_lines)
    rows = list(board.wall)
    placements: list[WallPlacement] = []
    for index, line in enumerate(lines):
        if line.color is None or line.count < line.capacity:
            continue
        color = line.color
        column = wall_column(index, color)
        row = rows[index]
        rows[index] = row[:column] + (color,) + row[column + 1 :]
        scored = score_placement(rows, index, column)
        placements.append(
            WallPlacement(index, column, color, scored.horizontal, scored.vertical, scored.points)
        )
        lid.extend([color] * (line.capacity - 1))
        lines[index] = pattern_line(index, None, 0)
    return settle_floor(player, board, tuple(lines), tuple(rows), tuple(placements), lid)


def settle_floor(
    player: int,
    board: PlayerBoard,
    lines: tuple[PatternLine, ...],
    wall: Wall,
    placements: tuple[WallPlacement, ...],
    lid: list[Color],
    floor_lines: tuple[int, ...] = (),
) -> tuple[PlayerBoard, PlayerTiling]:
    """W4-W5: subtract the floor's penalties (marker included), clamp at 0 once, and
    empty the floor: tiles to the lid, the marker back to its holder."""
    gained = sum(p.points for p in placements)
    penalty = floor_penalty(len(board.floor))
    score = max(0, board.score + gained - penalty)
    lid.extend(t for t in board.floor if t is not MARKER)
    new_board = PlayerBoard(score, lines, wall, ())
    tiling = PlayerTiling(player, board.score, placements, penalty, score, None, floor_lines)
    return new_board, tiling


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
