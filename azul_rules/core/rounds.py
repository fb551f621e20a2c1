"""The round cycle after the factory offer: wall tiling (W1-W3), the floor (W4-W5, F1-F4),
the end of the game (E1-E4, R6) and the refill of the factories (R1-R5).

Pure functions on the parts of a state; ``state.apply`` calls them when the last tile of
a round is taken (or when a ``Refill`` is entered).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final, cast

from azul_rules.core.board import (
    ACCEPT_EMPTY,
    PatternLine,
    PlayerBoard,
    complete_line,
    new_board,
    pattern_line,
)
from azul_rules.core.colors import COLORS, MARKER, Color, Tiles
from azul_rules.core.rng import GAMMA, MASK, MIX_1, MIX_2, step
from azul_rules.core.scoring import (
    Outcome,
    PlayerTiling,
    WallPlacement,
    count_bonuses,
    decide_outcome,
    floor_penalty,
    new_tiling,
    runs,
)

__all__ = ["draw_factories", "finish_game", "place_on_wall", "settle_floor", "tile_colored"]


def place_on_wall(
    board: PlayerBoard, row: int, column: int, lid: list[Color]
) -> tuple[PlayerBoard, WallPlacement]:
    """W1, W3: move one tile of complete pattern line ``row`` to ``(row, column)``,
    score it at once, and put the line's other tiles in ``lid``."""
    line = complete_line(board, row)
    color = line.color
    assert color is not None
    rows = list(board.wall)
    rows[row] = rows[row][:column] + (color,) + rows[row][column + 1 :]
    horizontal, vertical, points = runs(rows, row, column)
    lid.extend([color] * (line.capacity - 1))
    lines = list(board.pattern_lines)
    lines[row] = _EMPTY_LINES[row]
    accepting = board.accepting | ACCEPT_EMPTY[row][rows[row]]  # a full line accepted none
    placed = new_board(board.score + points, tuple(lines), tuple(rows), board.floor, accepting)
    return placed, _tuple_new(WallPlacement, (row, column, color, horizontal, vertical, points))


def tile_colored(
    player: int, board: PlayerBoard, lid: list[Color]
) -> tuple[PlayerBoard, PlayerTiling]:
    """W1-W5 on the coloured wall, for one player.

    Complete lines, top to bottom, move one tile to the space of their colour (S5) and
    score it at once (W3); their other tiles go to ``lid``; incomplete lines keep their
    tiles (W2).  Then the floor: its penalties (marker included, F3) are subtracted and
    the score clamped at 0 once (W4); its tiles go to ``lid``, the marker to its holder
    (W5).  The same steps as :func:`place_on_wall` and :func:`settle_floor`, building
    the new board once: this runs for every player at the end of every round.
    """
    score = before = board.score
    lines = board.pattern_lines
    accepting = board.accepting
    placements = []
    rows: list[tuple[Color | None, ...]] = []  # the wall and lines, once a line is full
    changed: list[PatternLine] = []
    for index in _ROWS:
        line = lines[index]
        if line.count > index:  # full: pattern line ``index`` holds index + 1 tiles (S6)
            color: Color = line.color  # type: ignore[assignment]  # a full line has one
            if not rows:
                rows, changed = list(board.wall), list(lines)
            column = (color + index) % 5
            row = rows[index]
            rows[index] = row = row[:column] + (color,) + row[column + 1 :]
            horizontal, vertical, points = runs(rows, index, column)
            placements.append(
                _tuple_new(WallPlacement, (index, column, color, horizontal, vertical, points))
            )
            score += points
            lid += _LEFT_OVER[index][color]  # a full line keeps one tile for the wall
            changed[index] = _EMPTY_LINES[index]
            accepting |= ACCEPT_EMPTY[index][row]  # the emptied line (P2, P3)
    floor = board.floor
    penalty = 0
    if floor:
        penalty = floor_penalty(len(floor))
        score = score - penalty if score > penalty else 0
        if MARKER in floor:
            lid += [t for t in floor if t is not MARKER]
        else:
            lid += cast(Tiles, floor)
    tiling = new_tiling(player, before, tuple(placements), penalty, score)
    if rows:
        return new_board(score, tuple(changed), tuple(rows), (), accepting), tiling
    return new_board(score, lines, board.wall, (), accepting), tiling


_ROWS: Final = (0, 1, 2, 3, 4)
_LEFT_OVER: Final = tuple(tuple((color,) * index for color in COLORS) for index in range(5))
_tuple_new: Final = tuple.__new__
_EMPTY_LINES: Final = tuple(pattern_line(index, None, 0) for index in range(5))


def settle_floor(
    board: PlayerBoard, tiling: PlayerTiling, lid: list[Color]
) -> tuple[PlayerBoard, PlayerTiling]:
    """W4-W5: subtract the floor's penalties (marker included, F3) from a score that
    already holds the round's placements, clamp at 0 once, and empty the floor: tiles
    to the lid, the marker back to its holder."""
    floor = board.floor
    if not floor:
        return board, tiling
    penalty = floor_penalty(len(floor))
    score = board.score - penalty if board.score > penalty else 0
    if MARKER in floor:
        lid.extend([t for t in floor if t is not MARKER])
    else:
        lid.extend(cast(Tiles, floor))
    settled = new_board(score, board.pattern_lines, board.wall, (), board.accepting)
    return settled, new_tiling(
        tiling.player, tiling.score_before, tiling.placements, penalty, score,
        tiling.bonuses, tiling.floor_lines,
    )  # fmt: skip


def finish_game(
    boards: Sequence[PlayerBoard], tilings: Sequence[PlayerTiling]
) -> tuple[tuple[PlayerBoard, ...], tuple[PlayerTiling, ...], Outcome]:
    """E2-E4: add each player's end bonuses and decide the winners."""
    final_boards = []
    final_tilings = []
    for board, tiling in zip(boards, tilings, strict=True):
        bonuses = count_bonuses(board.wall)
        score = board.score + bonuses.points
        final_boards.append(
            new_board(score, board.pattern_lines, board.wall, board.floor, board.accepting)
        )
        final_tilings.append(
            new_tiling(
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


# Every draw of four tiles, in draw order, to the factory's sorted (and shared) tuple.
_SORTED_FOUR: Final = {draw: tuple(sorted(draw)) for draw in itertools.product(COLORS, repeat=4)}


class _Radices(dict[int, tuple[int, int, int, int]]):
    """``_RADICES[size]``: the product of the four bag sizes a factory's draws see, from
    ``size`` down, and the three smaller sizes (the mixed radix of draw_factories).
    Built for the 100 tiles of the game; a larger bag (a position built by hand) is
    computed on each call."""

    def __missing__(self, size: int) -> tuple[int, int, int, int]:
        return (size * (size - 1) * (size - 2) * (size - 3), size - 3, size - 2, size - 1)


_RADICES: Final = _Radices()
_RADICES.update((size, _RADICES[size]) for size in range(4, 101))


def draw_factories(
    count: int, bag: Tiles, lid: Tiles, rng: int
) -> tuple[tuple[Tiles, ...], Tiles, Tiles, int]:
    """R2: fill ``count`` factories with 4 tiles each, drawn at random from the bag; when
    the bag runs out the lid is poured into it, and when both are empty the remaining
    factories stay short or empty.  Returns the factories, bag, lid and generator state.

    Each factory's draws come from one step of the generator: its 64-bit output is read
    as a fraction and the indices peeled off it one after another (``fraction * size``,
    keeping the remainder), each spending about 7 of the 64 bits.
    """
    pool = list(bag)
    spare = lid
    factories = []
    for _ in range(count):
        size = len(pool)
        if size >= 4:  # the common case, unrolled: four draws from one step
            rng = (rng + GAMMA) & MASK  # rng.step, inlined
            z = ((rng ^ (rng >> 30)) * MIX_1) & MASK
            z = ((z ^ (z >> 27)) * MIX_2) & MASK
            # Peeling four indices off z one by one (index = z * size >> 64, keep the
            # low 64 bits, next size) gives the digits of z * size * (size - 1) *
            # (size - 2) * (size - 3) >> 64 in mixed radix: one big multiplication,
            # then small divisions.
            product, below_3, below_2, below_1 = _RADICES[size]
            n = ((z ^ (z >> 31)) * product) >> 64
            d = n % below_3
            n //= below_3
            c = n % below_2
            n //= below_2
            first = pool.pop(n // below_1)
            second = pool.pop(n % below_1)
            factories.append(_SORTED_FOUR[first, second, pool.pop(c), pool.pop(d)])
            continue
        # Fewer than 4 tiles left: the bag runs out during this factory.  Draw what it
        # holds, then pour the lid in and go on (or leave the factory short).
        drawn: list[Color] = []
        if spare:
            drawn, pool, spare = pool, list(spare), ()
        size = len(pool)
        want = min(4 - len(drawn), size)
        if want:
            z, rng = step(rng)
            for _ in range(want):
                z *= size
                drawn.append(pool.pop(z >> 64))
                z &= MASK
                size -= 1
        drawn.sort()
        factories.append(tuple(drawn))
    return tuple(factories), tuple(pool), spare, rng
