"""The documented ways of miscounting a wall tiling (W3, F2, F3, W4), and which of them
turn the rules' figure into a claimed one.

A mistake is named only when recomputing the tiling *with that mistake* gives exactly the
claimed score: one mistake alone is tried first, then two together.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from azul_rules.core.board import Wall
from azul_rules.core.colors import FLOOR_SIZE, FLOOR_TOTALS, MARKER, FloorItem
from azul_rules.core.errors import ErrorCode, Violation
from azul_rules.core.scoring import WallPlacement

__all__ = ["TILE_MISTAKES", "Tiling", "counted_with", "explain"]

E = ErrorCode


@attrs.frozen
class Tiling:
    """One player's wall tiling, as the audit recomputes it: the score ``before``, each
    placement (W3) with the wall just after it, the floor line penalised (W4) and the
    ``score`` after the floor, before any end bonus."""

    player: int
    before: int
    placements: tuple[WallPlacement, ...]
    walls: tuple[Wall, ...]
    floor: tuple[FloorItem, ...]
    score: int


# -- the mistaken ways of scoring a tile (W3) ----------------------------------------------


def _run(wall: Sequence[Sequence[object]], row: int, col: int, dr: int, dc: int,
         jump_gaps: bool) -> int:  # fmt: skip
    length, r, c = 0, row + dr, col + dc
    while 0 <= r < 5 and 0 <= c < 5:
        if wall[r][c] is not None:
            length += 1
        elif not jump_gaps:
            break
        r, c = r + dr, c + dc
    return length


def _lines_through(wall: Sequence[Sequence[object]], row: int, col: int,
                   jump_gaps: bool = False) -> tuple[int, int, int, int]:  # fmt: skip
    """The runs through a tile: across, down, and the two diagonals."""

    def through(dr: int, dc: int) -> int:
        return (
            1 + _run(wall, row, col, dr, dc, jump_gaps) + _run(wall, row, col, -dr, -dc, jump_gaps)
        )

    return through(0, 1), through(1, 0), through(1, 1), through(1, -1)


def _correct(runs: tuple[int, ...]) -> int:
    total = sum(r for r in runs[:2] if r > 1)
    return total or 1


def _diagonal(wall: Any, row: int, col: int) -> int:
    across, down, diag, anti = _lines_through(wall, row, col)
    return sum(r for r in (across, down, diag, anti) if r > 1) or 1


def _gap(wall: Any, row: int, col: int) -> int:
    return _correct(_lines_through(wall, row, col, jump_gaps=True))


def _empty_direction(wall: Any, row: int, col: int) -> int:
    across, down, _, _ = _lines_through(wall, row, col)
    return across + down if across > 1 or down > 1 else 1


def _cross_once(wall: Any, row: int, col: int) -> int:
    across, down, _, _ = _lines_through(wall, row, col)
    if across > 1 and down > 1:
        return across + down - 1
    return _correct((across, down))


def counted_with(mistake: ErrorCode, wall: Any, row: int, column: int) -> str:
    """The runs a claimant scoring with ``mistake`` must have counted, as a sum such
    as ``"3 + 2 - 1"`` (language-neutral, for messages)."""
    across, down, diag, anti = _lines_through(wall, row, column)
    if mistake is E.DIAGONAL_COUNTED:
        terms = [str(r) for r in (across, down, diag, anti) if r > 1]
    elif mistake is E.GAP_COUNTED:
        terms = [str(r) for r in _lines_through(wall, row, column, jump_gaps=True)[:2] if r > 1]
    elif mistake is E.EMPTY_DIRECTION_COUNTED:
        terms = [str(across), str(down)]
    else:
        return f"{across} + {down} - 1"
    return " + ".join(terms) or "1"


TILE_MISTAKES: Final[dict[ErrorCode, Callable[[Any, int, int], int]]] = {
    E.DIAGONAL_COUNTED: _diagonal,
    E.GAP_COUNTED: _gap,
    E.EMPTY_DIRECTION_COUNTED: _empty_direction,
    E.CROSS_COUNTED_ONCE: _cross_once,
}
"""Each tile-scoring mistake, as the points it gives a tile of a wall."""


# -- which mistakes explain a claim --------------------------------------------------------


def _floor_options(floor: tuple[FloorItem, ...]) -> list[tuple[tuple[ErrorCode, ...], int]]:
    """The floor penalty the rules give, and the ones the floor mistakes give."""
    used = min(len(floor), FLOOR_SIZE)
    options: list[tuple[tuple[ErrorCode, ...], int]] = [((), FLOOR_TOTALS[used])]
    if MARKER in floor:
        options.append(((E.MARKER_PENALTY_FORGOTTEN,), FLOOR_TOTALS[used - 1]))
    if used == FLOOR_SIZE:
        for extra in range(1, 15):  # tiles past the 7 spaces penalised at -3 each
            options.append(((E.FLOOR_OVERFLOW_PENALIZED,), 14 + 3 * extra))
    return options


def _tile_options(t: Tiling) -> list[tuple[tuple[ErrorCode, ...], list[int], list[int]]]:
    """The tiles' points as the rules count them, then as each mistake counts them (on
    every tile it changes, and on each such tile alone)."""
    correct = [p.points for p in t.placements]
    options: list[tuple[tuple[ErrorCode, ...], list[int], list[int]]] = [((), correct, [])]
    for code, model in TILE_MISTAKES.items():
        mistaken = [model(w, p.row, p.column) for w, p in zip(t.walls, t.placements, strict=True)]
        changed = [i for i, (a, b) in enumerate(zip(mistaken, correct, strict=True)) if a != b]
        if changed:
            options.append(((code,), mistaken, changed))
            for i in changed if len(changed) > 1 else []:  # the mistake on one tile only
                one = list(correct)
                one[i] = mistaken[i]
                options.append(((code,), one, [i]))
    return options


def explain(t: Tiling, claimed: int) -> list[Violation] | None:
    """The fewest mistakes (one, then two) that turn the rules' score of ``t`` into
    ``claimed``, as violations; ``None`` when no documented mistake does."""
    best: list[Violation] | None = None
    best_size = 3
    for (tile_codes, tiles, changed), (floor_codes, penalty), clamp in itertools.product(
        _tile_options(t), _floor_options(t.floor), (True, False)
    ):
        raw = t.before + sum(tiles) - penalty
        if not clamp and raw >= 0:
            continue
        score = max(0, raw) if clamp else raw
        codes = tile_codes + floor_codes + (() if clamp else (E.SCORE_BELOW_ZERO,))
        if score != claimed or not codes or len(codes) >= best_size:
            continue
        best_size = len(codes)
        best = _violations(t, tile_codes, tiles, changed, floor_codes, penalty)
        if not clamp:
            best.append(Violation.of(E.SCORE_BELOW_ZERO, "W4", player=t.player,
                                     claimed=claimed, correct=t.score))  # fmt: skip
    return best


def _violations(t: Tiling, tile_codes: tuple[ErrorCode, ...], tiles: list[int],
                changed: list[int], floor_codes: tuple[ErrorCode, ...],
                penalty: int) -> list[Violation]:  # fmt: skip
    found = []
    for code in tile_codes:
        for i in changed:
            p = t.placements[i]
            found.append(Violation.of(
                code, "W3", reason="tile", player=t.player, row=p.row, column=p.column,
                color=p.color, claimed=tiles[i], correct=p.points,
                horizontal=p.horizontal, vertical=p.vertical,
                counted=counted_with(code, t.walls[i], p.row, p.column),
            ))  # fmt: skip
    for code in floor_codes:
        rule = "F3" if code is E.MARKER_PENALTY_FORGOTTEN else "F2"
        found.append(Violation.of(code, rule, reason="floor", player=t.player, claimed=penalty,
                                  correct=FLOOR_TOTALS[min(len(t.floor), FLOOR_SIZE)]))  # fmt: skip
    return found
