"""Scoring: wall placements (W3), the floor (W4), end bonuses (E2) and the winner (E4).

Also the records a state keeps of its last wall tiling, so a caller can read how every
point was earned or lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, NoReturn, TypeGuard, cast

import attrs

from azul_rules.core._slots import new_instance, slot_setters
from azul_rules.core.board import PlayerBoard, Wall
from azul_rules.core.colors import FLOOR_SIZE, FLOOR_TOTALS, Color
from azul_rules.core.errors import FormatError
from azul_rules.core.shown import fill, shown

__all__ = [
    "COLOR_BONUS",
    "COLUMN_BONUS",
    "ROW_BONUS",
    "Bonuses",
    "Outcome",
    "PlacementScore",
    "PlayerTiling",
    "RoundScoring",
    "WallPlacement",
    "count_bonuses",
    "decide_outcome",
    "end_bonuses",
    "floor_penalty",
    "new_scoring",
    "new_tiling",
    "score_placement",
]


@attrs.frozen
class PlacementScore:
    """The points of one tile placed on the wall (W3).

    ``horizontal`` and ``vertical`` are the lengths of the unbroken runs through the
    tile (1 when it has no neighbour in that direction); a run scores only when it is
    longer than 1, and a tile with no neighbour at all scores 1.

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    """

    horizontal: int
    vertical: int
    points: int

    def explain(self) -> str:
        """The runs counted, in words: ``"3 across + 2 down = 5"``."""
        counted = [f"{n} {way}" for n, way in ((self.horizontal, "across"),
                                               (self.vertical, "down")) if n > 1]  # fmt: skip
        if not counted:
            return "no neighbour = 1"
        return f"{' + '.join(counted)} = {self.points}"


def runs(wall: Sequence[Sequence[Color | None]], row: int, column: int) -> tuple[int, int, int]:
    """W3 without checks: the horizontal run, the vertical run and the points of the tile
    at ``(row, column)``."""
    cells = wall[row]
    left = column
    while left > 0 and cells[left - 1] is not None:
        left -= 1
    right = column
    while right < 4 and cells[right + 1] is not None:
        right += 1
    top = row
    while top > 0 and wall[top - 1][column] is not None:
        top -= 1
    bottom = row
    while bottom < 4 and wall[bottom + 1][column] is not None:
        bottom += 1
    horizontal = right - left + 1
    vertical = bottom - top + 1
    points = (horizontal if horizontal > 1 else 0) + (vertical if vertical > 1 else 0)
    return horizontal, vertical, points or 1


def score_placement(
    wall: Sequence[Sequence[Color | None]], row: int, column: int
) -> PlacementScore:
    """Score the tile at ``(row, column)`` of ``wall``, the wall as it is with that tile
    placed (W3): the horizontal run if longer than 1, plus the vertical run if longer
    than 1; 1 point for a tile with no neighbour.  Diagonals never count and an empty
    space ends a run.

    ``wall`` is 5 rows of 5 spaces, each a :class:`Color` or ``None`` (a tuple or a
    list of them; ``board.wall`` is one); ``row`` and ``column`` count from 0.

    :raises ValueError: a row or column outside 0-4, or no tile on that space.
    :raises FormatError: a wall that is not 5 rows of 5 spaces each a ``Color`` or
        ``None``, a row or column that is not an ``int`` (``bool`` refused).
    """
    _check_wall(wall, "score_placement")
    if type(row) is not int or type(column) is not int:
        raise FormatError(
            f"score_placement: row and column are ints (0-4), got {shown(row)} and {shown(column)}"
        )
    if not (0 <= row < 5 and 0 <= column < 5):
        raise ValueError(f"no wall space at row {row}, column {column} (0-4 each)")
    if wall[row][column] is None:
        raise ValueError(f"the wall space at row {row}, column {column} holds no tile to score")
    return PlacementScore(*runs(wall, row, column))


def _check_wall(wall: object, function: str) -> None:
    """``FormatError`` unless ``wall`` is 5 rows of 5 spaces, each a ``Color`` or
    ``None`` (for the public scoring functions; the referee's own walls are checked
    when their board is built, see ``PlayerBoard``).  A plain loop: the quickest check
    of 25 spaces."""
    if not _is_row_sequence(wall):
        raise FormatError(f"{function}: the wall is 5 rows of 5 spaces, got {shown(wall)}")
    if len(wall) != 5:
        raise FormatError(f"{function}: the wall is 5 rows of 5 spaces, got {len(wall)} rows")
    for row in cast(Sequence[Sequence[object]], wall):
        kind = type(row)
        if (kind is not tuple and kind is not list and not _is_row_sequence(row)) or len(row) != 5:
            _refuse_wall(wall, function)
        for space in row:
            if space is not None and type(space) is not Color:
                _refuse_wall(wall, function)


def _refuse_wall(wall: Sequence[object], function: str) -> NoReturn:
    """Raise the ``FormatError`` naming the first row or space of ``wall`` that is
    wrong."""
    for index, row in enumerate(wall):
        if not _is_row_sequence(row):
            raise FormatError(f"{function}: wall[{index}] is a row of 5 spaces, got {shown(row)}")
        if len(row) != 5:
            raise FormatError(
                fill("{function}: wall[{index}] is a row of 5 spaces, got {n} {n:space|spaces}",
                     "en", function=function, index=index, n=len(row))
            )
        for column, space in enumerate(row):
            if space is not None and type(space) is not Color:
                raise FormatError(
                    f"{function}: wall[{index}][{column}] is a Color or None, got {shown(space)}"
                )
    raise AssertionError("_refuse_wall is called on a wall with a wrong row or space")


def _is_row_sequence(value: object) -> TypeGuard[Sequence[object]]:
    """A tuple, a list or another sequence, but not text (a string is no wall row)."""
    kind = type(value)
    if kind is tuple or kind is list:
        return True
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def most_points(wall: Wall) -> int:
    """The most points the placements of ``wall``'s tiles can have scored together (W3),
    whatever the order they were placed in: no score before the floor and the end
    bonuses can be higher (the floor only takes points away, W4).

    The bound: a tile's points are its horizontal run when longer than 1, plus its
    vertical run when longer than 1, or 1 for a tile alone.  A run only grows within
    the stretch of adjacent tiles it ends up in, so the *k*-th tile placed in a
    horizontal stretch of *L* tiles has a run of at most *k* there: counted as at least
    1 point, the stretch gives at most 1 + 2 + ... + *L*.  Vertically, the first tile
    of a stretch has no vertical run and the others give at most 2 + ... + *L*.  The
    sum over the wall's stretches, the other way round too, and the lower of the two:
    ``S_rows + S_columns - max(stretches in rows, stretches in columns)``, where each
    ``S`` adds *L* (*L* + 1) / 2 over its stretches.  Five tiles in a row: at most 15
    (1 + 2 + 3 + 4 + 5); a full wall: at most 145.
    """
    rows_sum, rows_count = _stretches(wall)
    columns_sum, columns_count = _stretches(tuple(zip(*wall, strict=True)))
    return rows_sum + columns_sum - max(rows_count, columns_count)


def _stretches(lines: Sequence[Sequence[Color | None]]) -> tuple[int, int]:
    """Over ``lines`` (a wall's rows, or its columns), the sum of *L* (*L* + 1) / 2 for
    each stretch of *L* adjacent tiles, and the number of stretches."""
    total = count = 0
    for line in lines:
        length = 0
        for tile in (*line, None):
            if tile is not None:
                length += 1
            elif length:
                total += length * (length + 1) // 2
                count += 1
                length = 0
    return total, count


def floor_penalty(occupied: int) -> int:
    """The points lost for ``occupied`` floor spaces (F1); spaces past 7 cost nothing
    (F2)."""
    return FLOOR_TOTALS[min(occupied, FLOOR_SIZE)]


ROW_BONUS: Final = 2
COLUMN_BONUS: Final = 7
COLOR_BONUS: Final = 10
"""The end bonuses (E2): a complete horizontal row, a complete vertical column, a colour
with all 5 of its tiles on the wall."""


@attrs.frozen
class Bonuses:
    """End bonuses (E2): +2 per complete row, +7 per complete column, +10 per colour
    with all 5 tiles on the wall.

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    What reads it checks it: ``to_json`` a state's ``last_scoring`` (``FormatError``).
    """

    rows: int
    columns: int
    colors: int

    @property
    def points(self) -> int:
        """The bonus points in all."""
        return ROW_BONUS * self.rows + COLUMN_BONUS * self.columns + COLOR_BONUS * self.colors


def end_bonuses(wall: Wall) -> Bonuses:
    """Count the end bonuses of a wall (E2); colours are counted by tile colour.

    ``wall`` is 5 rows of 5 spaces, each a :class:`Color` or ``None`` (``board.wall``).

    :raises FormatError: a wall that is not 5 rows of 5 spaces each a ``Color`` or
        ``None``.
    """
    _check_wall(wall, "end_bonuses")
    return count_bonuses(wall)


def count_bonuses(wall: Wall) -> Bonuses:
    """:func:`end_bonuses` without the check of its argument, for the referee's own
    walls (checked when their board was built) at the end of every game."""
    rows = sum([None not in row for row in wall])
    columns = sum([None not in column for column in zip(*wall, strict=True)])
    per_color = [0, 0, 0, 0, 0]
    for row in wall:
        for tile in row:
            if tile is not None:
                per_color[tile] += 1
    colors = per_color.count(5)
    bonuses: Bonuses = new_instance(Bonuses)
    _set_rows(bonuses, rows)
    _set_columns(bonuses, columns)
    _set_colors(bonuses, colors)
    return bonuses


_set_rows, _set_columns, _set_colors = slot_setters(Bonuses)


class WallPlacement(NamedTuple):
    """One tile moved to the wall during a tiling (W1, W3): where, which colour, the runs
    through it and its points.  A named tuple: a few are built at every round's end.

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    What reads it checks it: ``to_json`` a state's ``last_scoring`` (``FormatError``).
    """

    row: int
    column: int
    color: Color
    horizontal: int
    vertical: int
    points: int


@attrs.frozen
class PlayerTiling:
    """What one player's wall tiling did: placements, floor, score, and the end bonuses
    when the game ended with this tiling.  ``floor_line`` lists the lines that went whole
    to the floor (grey wall, V4).

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    What reads it checks it: ``to_json`` a state's ``last_scoring`` (``FormatError``).
    """

    player: int
    score_before: int
    placements: tuple[WallPlacement, ...]
    floor_penalty: int
    score_after: int
    bonuses: Bonuses | None = None
    floor_lines: tuple[int, ...] = ()

    @property
    def placement_points(self) -> int:
        """The points of this tiling's placements."""
        return sum(p.points for p in self.placements)


(_set_player, _set_score_before, _set_placements, _set_floor_penalty, _set_score_after,
 _set_bonuses, _set_floor_lines) = slot_setters(PlayerTiling)  # fmt: skip


def new_tiling(
    player: int,
    score_before: int,
    placements: tuple[WallPlacement, ...],
    floor_penalty: int,
    score_after: int,
    bonuses: Bonuses | None = None,
    floor_lines: tuple[int, ...] = (),
) -> PlayerTiling:
    """``PlayerTiling(...)`` built through its slots, for the end of every round (see
    ``azul_rules.core._slots``)."""
    tiling: PlayerTiling = new_instance(PlayerTiling)
    _set_player(tiling, player)
    _set_score_before(tiling, score_before)
    _set_placements(tiling, placements)
    _set_floor_penalty(tiling, floor_penalty)
    _set_score_after(tiling, score_after)
    _set_bonuses(tiling, bonuses)
    _set_floor_lines(tiling, floor_lines)
    return tiling


@attrs.frozen
class RoundScoring:
    """The wall tiling of one round (W1-W5), and the end bonuses if the game ended.

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    What reads it checks it: ``to_json`` a state's ``last_scoring``, and
    :func:`azul_rules.svg.board` a ``highlight`` (``FormatError``).
    """

    round: int
    players: tuple[PlayerTiling, ...]
    game_over: bool


_set_round, _set_tilings, _set_game_over = slot_setters(RoundScoring)


def new_scoring(round: int, players: tuple[PlayerTiling, ...], game_over: bool) -> RoundScoring:
    """``RoundScoring(...)`` built through its slots, for the end of every round (see
    ``azul_rules.core._slots``)."""
    scoring: RoundScoring = new_instance(RoundScoring)
    _set_round(scoring, round)
    _set_tilings(scoring, players)
    _set_game_over(scoring, game_over)
    return scoring


@attrs.frozen
class Outcome:
    """The end of a game (E4): ``winners`` (several when the victory is shared) and the
    final ``scores``, bonuses included.

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def is_shared(self) -> bool:
        """True when several players share the victory."""
        return len(self.winners) > 1


def decide_outcome(boards: Sequence[PlayerBoard]) -> Outcome:
    """Highest score wins; a tie goes to the tied player with more complete rows; a tie
    on both is shared (E4)."""
    scores = tuple([b.score for b in boards])
    best = max(scores)
    if scores.count(best) == 1:  # no tie: the rows are not counted
        winners: tuple[int, ...] = (scores.index(best),)
    else:
        tied = [i for i, s in enumerate(scores) if s == best]
        rows = {i: boards[i].complete_rows() for i in tied}
        most = max(rows.values())
        winners = tuple(i for i in tied if rows[i] == most)
    outcome: Outcome = new_instance(Outcome)
    _set_winners(outcome, winners)
    _set_scores(outcome, scores)
    return outcome


_set_winners, _set_scores = slot_setters(Outcome)
