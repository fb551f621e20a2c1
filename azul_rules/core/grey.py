"""The grey wall (V1-V5): players choose the column of each tile when tiling.

Mechanics on one player's board, with no game state: which line is tiled next (V3),
where its tile may go (V1, V2), the line that goes whole to the floor (V4), and whether
a wall row can still be completed (R7).  ``GameState`` runs the tiling phase with them:
what remains to be tiled follows from the boards alone (complete pattern lines), never
from the record of the tiling so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from azul_rules.core.board import ACCEPT_EMPTY, PlayerBoard, complete_line, new_board, pattern_line
from azul_rules.core.codes import ErrorCode
from azul_rules.core.colors import COLORS, FLOOR_SIZE, Color
from azul_rules.core.errors import Violation
from azul_rules.core.moves import PlaceTile

__all__ = [
    "PLACE_TILES",
    "check_placement",
    "legal_columns",
    "line_to_floor",
    "next_line",
    "placements_of",
    "row_can_be_completed",
    "walls_can_end",
]

PLACE_TILES: Final = tuple(  # PLACE_TILES[line][column]: every placement, built once
    tuple(PlaceTile(line, column) for column in range(5)) for line in range(5)
)


def next_line(board: PlayerBoard) -> int | None:
    """The top complete pattern line still to tile (V3), or ``None``."""
    for index, line in enumerate(board.pattern_lines):
        if line.color is not None and line.count == line.capacity:
            return index
    return None


def legal_columns(board: PlayerBoard, row: int) -> tuple[int, ...]:
    """The columns where the tile of complete line ``row`` may go: an empty space of its
    row (V1) in a column not holding its colour yet (V2)."""
    global _last_asked
    color = board.pattern_lines[row].color
    wall = board.wall
    last_wall, last_row, last_color, found = _last_asked
    if wall is last_wall and row == last_row and color is last_color:
        return found  # the tiling asks, then legal_moves() asks again about the same wall
    columns = tuple(zip(*wall, strict=True))  # a list comprehension beats generators
    cells = wall[row]
    found = tuple([c for c in range(5) if cells[c] is None and color not in columns[c]])
    _last_asked = (wall, row, color, found)
    return found


# The last question legal_columns answered and its answer.  A wall is an immutable value
# and the entry holds it, so its identity names it as long as the entry lives.
_last_asked: tuple[object, int, Color | None, tuple[int, ...]] = (None, -1, None, ())


def placements_of(board: PlayerBoard) -> tuple[PlaceTile, ...]:
    """Every legal ``PlaceTile`` of the board's next line (V1-V3), by column."""
    row = next_line(board)
    if row is None:
        return ()
    return tuple(PLACE_TILES[row][c] for c in legal_columns(board, row))


def check_placement(board: PlayerBoard, move: PlaceTile, found: list[Violation]) -> None:
    """S4, W2, V1-V3 for the board of the player to decide: the line exists, is complete
    and is the next to tile; the space is free and its column lacks the colour."""
    line, column = move.line, move.column
    if not 0 <= line < 5:
        found.append(Violation.of(ErrorCode.NO_SUCH_LINE, "S4", line=line))
    if not 0 <= column < 5:
        found.append(Violation.of(ErrorCode.NO_SUCH_LINE, "S4", reason="column", column=column))
    if found:
        return
    pattern = board.pattern_lines[line]
    if pattern.color is None or pattern.count < pattern.capacity:
        found.append(
            Violation.of(
                ErrorCode.WRONG_PHASE, "W2", reason="incomplete_line", line=line,
                count=pattern.count, capacity=pattern.capacity,
            )
        )  # fmt: skip
        return
    expected = next_line(board)
    if line != expected:
        found.append(
            Violation.of(
                ErrorCode.WRONG_PHASE, "V3", reason="not_next_line", line=line, next=expected
            )
        )
        return
    if board.wall[line][column] is not None:
        found.append(Violation.of(ErrorCode.SPACE_OCCUPIED, "V1", row=line, column=column))
    color = pattern.color
    if color in [cells[column] for cells in board.wall]:
        found.append(
            Violation.of(ErrorCode.COLUMN_COLOR_CONFLICT, "V2", column=column, color=color)
        )


def line_to_floor(board: PlayerBoard, row: int, lid: list[Color]) -> PlayerBoard:
    """V4: every tile of complete line ``row`` goes to the floor, left to right; those
    finding no space go to ``lid`` (F2)."""
    line = complete_line(board, row)
    assert line.color is not None
    room = FLOOR_SIZE - len(board.floor)
    kept = min(room, line.count)
    lid.extend([line.color] * (line.count - kept))
    lines = list(board.pattern_lines)
    lines[row] = pattern_line(row, None, 0)
    floor = board.floor + (line.color,) * kept
    accepting = board.accepting | ACCEPT_EMPTY[row][board.wall[row]]  # it accepted none
    return new_board(board.score, tuple(lines), board.wall, floor, accepting)


def row_can_be_completed(board: PlayerBoard, row: int) -> bool:
    """True when wall row ``row`` can still be filled: its missing colours can go to its
    empty spaces, one each, with no colour twice in a column (V1, V2).  Walls only grow,
    so once False it stays False."""
    wall = board.wall
    cells = wall[row]
    columns = tuple(zip(*wall, strict=True))
    missing = [color for color in COLORS if color not in cells]
    allowed = {c: {color for color in missing if color not in columns[c]}
               for c in range(5) if cells[c] is None}  # fmt: skip
    empty = list(allowed)
    return _perfect_matching(empty, allowed, set())


def _perfect_matching(columns: list[int], allowed: dict[int, set[Color]], used: set[Color]) -> bool:
    """Whether each column can get one allowed colour, no colour twice (at most 5 x 5)."""
    if not columns:
        return True
    first, rest = columns[0], columns[1:]
    for color in allowed[first] - used:
        used.add(color)
        if _perfect_matching(rest, allowed, used):
            return True
        used.remove(color)
    return False


def walls_can_end(boards: Sequence[PlayerBoard]) -> bool:
    """R7: False when no wall row of any board can ever be completed, so that E1 can
    never end the game.  Always True on the coloured wall, where every row keeps the
    space of each colour it lacks."""
    return any(row_can_be_completed(board, row) for board in boards for row in range(5))
