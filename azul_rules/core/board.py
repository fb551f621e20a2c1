"""A player's board: pattern lines, wall, floor line and score (S4).

Boards are immutable and shared between a state and its successor when unchanged.  Every
possible pattern line is built once at import (``pattern_line``), so filling a line is a
table look-up.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from azul_rules.core._slots import new_instance, slot_setters
from azul_rules.core.codes import StateProblem
from azul_rules.core.colors import COLORS, Color, FloorItem, Marker
from azul_rules.core.errors import FormatError, InvalidStateError, Problem
from azul_rules.core.shown import fill, shown

__all__ = [
    "ACCEPT_EMPTY",
    "BOARD_SETTERS",
    "EMPTY_WALL",
    "LINES",
    "NOT_LINE",
    "ROOM_BIT",
    "PatternLine",
    "PlayerBoard",
    "Wall",
    "complete_line",
    "new_board",
    "pattern_line",
]

Wall = tuple[tuple[Color | None, ...], ...]
"""``wall[row][column]``: the colour of the tile there, or ``None``."""

EMPTY_WALL: Final[Wall] = tuple((None,) * 5 for _ in range(5))


def _check_line_color(_: object, __: attrs.Attribute[Any], value: object) -> None:
    if value is not None and not isinstance(value, Color):
        raise FormatError(f"PatternLine.color must be a Color or None, got {shown(value)}")


def _check_line_size(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    least = 1 if attribute.name == "capacity" else 0
    if type(value) is not int or not least <= value <= 5:
        raise FormatError(
            f"PatternLine.{attribute.name} must be an int from {least} to 5, got {shown(value)}"
        )


@attrs.frozen
class PatternLine:
    """One pattern line (S4): ``capacity`` spaces, ``count`` tiles of ``color`` (P2); an
    empty line has ``color=None``.

    :raises FormatError: what no line can be: a colour that is not a :class:`Color`, a
        capacity other than 1-5, a count below 0 or more tiles than spaces, tiles with no
        colour or a colour with no tile.
    """

    color: Color | None = attrs.field(validator=_check_line_color)
    count: int = attrs.field(validator=_check_line_size)
    capacity: int = attrs.field(validator=_check_line_size)

    def __attrs_post_init__(self) -> None:
        if not self.capacity >= 1 or self.count > self.capacity:
            raise FormatError(
                fill("PatternLine holds {count} {count:tile|tiles} in {capacity} "
                     "{capacity:space|spaces}: a line has 1 to 5 spaces and at most that many "
                     "tiles (S4)", "en", count=self.count, capacity=self.capacity)
            )
        if (self.color is None) != (self.count == 0):
            raise FormatError(
                f"PatternLine(color={self.color!r}, count={self.count}): a line holding "
                "tiles has their colour, an empty line has color=None (P2)"
            )

    @property
    def is_full(self) -> bool:
        """True when every space holds a tile (P4)."""
        return self.count == self.capacity

    @property
    def room(self) -> int:
        """Free spaces left (P5)."""
        return self.capacity - self.count

    def __str__(self) -> str:
        letter = self.color.letter if self.color is not None else ""
        return "." * (self.capacity - self.count) + letter * self.count


# LINES[index][color][count] (count from 1; at 0 the empty line of that index).
_EMPTY_LINES: Final = tuple(PatternLine(None, 0, i + 1) for i in range(5))
LINES: Final = tuple(
    tuple(
        (_EMPTY_LINES[i],) + tuple(PatternLine(c, n, i + 1) for n in range(1, i + 2))
        for c in COLORS
    )
    for i in range(5)
)


def pattern_line(index: int, color: Color | None, count: int) -> PatternLine:
    """The (shared) pattern line ``index`` holding ``count`` tiles of ``color``."""
    if color is None or count == 0:
        return _EMPTY_LINES[index]
    return LINES[index][color][count]


def complete_line(board: PlayerBoard, row: int) -> PatternLine:
    """Pattern line ``row`` of ``board`` as the wall tiling moves it (W1, V4): complete,
    its ``row + 1`` spaces full.  A line changed behind the constructors
    (``object.__setattr__``: a capacity of 5 on the top line, 2**31 tiles) is an
    :class:`~azul_rules.InvalidStateError` (S4), never that many tiles moved."""
    line = board.pattern_lines[row]
    if not (type(line) is PatternLine and line.count == line.capacity == row + 1
            and isinstance(line.color, Color)):  # fmt: skip
        count = getattr(line, "count", None)
        raise InvalidStateError((Problem.of(
            StateProblem.LINE_OVER_CAPACITY, "S4", f"$.pattern_lines[{row}]", line=row,
            count=count if type(count) is int else 0, capacity=row + 1,
        ),))  # fmt: skip
    return line


# ROOM_BIT[i][color][count]: the accepting bit of pattern line i holding count tiles of
# color: set while the line has room (P4).
ROOM_BIT: Final = tuple(
    tuple(tuple(1 << (5 * c + i) if n <= i else 0 for n in range(i + 2)) for c in COLORS)
    for i in range(5)
)

# NOT_LINE[i]: every packed accepting bit except those of pattern line i.
NOT_LINE: Final = tuple(~sum(1 << (5 * c + i) for c in range(5)) for i in range(5))


class _AcceptEmpty(dict[tuple[Color | None, ...], int]):
    """For an empty pattern line ``index``: the accepting bits of the colours its wall
    row lacks (P3), by wall row; filled on demand."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index

    def __missing__(self, row: tuple[Color | None, ...]) -> int:
        bits = sum(1 << (5 * c + self.index) for c in COLORS if c not in row)
        self[row] = bits
        return bits


ACCEPT_EMPTY: Final = tuple(_AcceptEmpty(i) for i in range(5))
"""``ACCEPT_EMPTY[line][wall_row]``: the accepting bits of empty pattern line ``line``
beside that wall row (P2, P3); see :meth:`PlayerBoard.accepting_lines`."""


def _accepting_of(lines: tuple[PatternLine, ...], wall: Wall) -> int:
    """Which pattern lines accept which colour (P2-P4), packed: bit ``5 * colour + line``."""
    packed = 0
    for index, line in enumerate(lines):
        if line.color is None:
            row = wall[index]
            for color in COLORS:
                if color not in row:
                    packed |= 1 << (5 * color + index)
        elif line.count < line.capacity:
            packed |= 1 << (5 * line.color + index)
    return packed


def _lines(value: object) -> tuple[PatternLine, ...]:
    lines = _sequence(value, "pattern_lines", 5)
    for index, line in enumerate(lines):
        if not isinstance(line, PatternLine):
            raise FormatError(f"PlayerBoard.pattern_lines holds PatternLines, got {shown(line)}")
        if line.capacity != index + 1:
            raise FormatError(
                fill("PlayerBoard.pattern_lines[{index}] has {capacity} {capacity:space|spaces}: "
                     "pattern line {line} has {line} (S4)", "en", index=index,
                     capacity=line.capacity, line=index + 1)
            )
    return lines


def _wall(value: object) -> Wall:
    rows = tuple(_sequence(row, "wall", 5) for row in _sequence(value, "wall", 5))
    for row in rows:
        for space in row:
            if space is not None and not isinstance(space, Color):
                raise FormatError(f"PlayerBoard.wall holds Colors or None, got {shown(space)}")
    return rows


def _floor(value: object) -> tuple[FloorItem, ...]:
    items = _sequence(value, "floor", None)
    for item in items:
        if not isinstance(item, (Color, Marker)):
            raise FormatError(f"PlayerBoard.floor holds Colors and MARKER, got {shown(item)}")
    return items


def _sequence(value: object, name: str, length: int | None) -> tuple[Any, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise FormatError(f"PlayerBoard.{name} must be a sequence, got {shown(value)}")
    if length is not None and len(value) != length:
        raise FormatError(f"PlayerBoard.{name} needs {length} entries, got {len(value)}")
    return tuple(value)


def _check_score(_: object, __: object, value: object) -> None:
    if type(value) is not int:
        raise FormatError(f"PlayerBoard.score must be an int, got {shown(value)}")


@attrs.frozen
class PlayerBoard:
    """One player's board: ``score``, ``pattern_lines``, ``wall``, ``floor`` (S4).
    ``PlayerBoard()`` is a board at the start of a game: no point, five empty pattern
    lines, an empty wall and an empty floor.

    ``floor`` lists the occupied floor spaces from left to right: colours, and
    :data:`~azul_rules.MARKER` where the starting player marker lies (F1, F3).
    ``accepting`` is derived from the lines and the wall (see :meth:`accepting_lines`):
    it is computed at construction, and takes no part in equality.  Whether the board
    can exist is ``GameState.problems``' question.  The referee builds its successors
    through the slots (:func:`new_board`).

    :raises FormatError: from the constructor and ``attrs.evolve(board, ...)``, for parts
        of the wrong type or shape: line ``i`` has ``i + 1`` spaces (each a
        :class:`PatternLine`), the wall 5 rows of 5 spaces, each a ``Color`` or ``None``,
        the score is an ``int``, the floor holds colours (``Color``) and ``MARKER``.
    """

    score: int = attrs.field(default=0, validator=_check_score)
    pattern_lines: tuple[PatternLine, ...] = attrs.field(default=_EMPTY_LINES, converter=_lines)
    wall: Wall = attrs.field(default=EMPTY_WALL, converter=_wall)
    floor: tuple[FloorItem, ...] = attrs.field(default=(), converter=_floor)
    accepting: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "accepting", _accepting_of(self.pattern_lines, self.wall))

    def accepting_lines(self, color: Color) -> int:
        """Bit mask of the pattern lines that may receive ``color`` (P2, P3, P4)."""
        return self.accepting >> 5 * color & 31

    def with_tiles(
        self, index: int, color: Color, count: int, floor: tuple[FloorItem, ...]
    ) -> PlayerBoard:
        """This board with pattern line ``index`` holding ``count`` (at least 1) tiles of
        ``color``, and a new floor.  The accepting lines are carried over: line ``index``
        accepts ``color`` while it has room, and nothing else (P2, P4)."""
        lines = list(self.pattern_lines)  # faster than slicing and concatenating
        lines[index] = LINES[index][color][count]
        packed = self.accepting & NOT_LINE[index] | ROOM_BIT[index][color][count]
        return new_board(self.score, tuple(lines), self.wall, floor, packed)

    def with_floor(self, floor: tuple[FloorItem, ...]) -> PlayerBoard:
        """This board with a new floor (the accepting lines are unchanged)."""
        return new_board(self.score, self.pattern_lines, self.wall, floor, self.accepting)

    def complete_rows(self) -> int:
        """The number of complete horizontal wall rows (R1, E2, E4)."""
        return sum(1 for row in self.wall if None not in row)

    def has_complete_row(self) -> bool:
        """True when a horizontal wall row is complete (E1); a plain loop, as it runs for
        every board at every round's end."""
        for row in self.wall:  # noqa: SIM110
            if None not in row:
                return True
        return False


BOARD_SETTERS: Final = slot_setters(PlayerBoard)
"""The slots' ``__set__`` of :class:`PlayerBoard`, in field order (see :func:`new_board`)."""
_set_score, _set_lines, _set_wall, _set_floor, _set_accepting = BOARD_SETTERS


def new_board(
    score: int,
    pattern_lines: tuple[PatternLine, ...],
    wall: Wall,
    floor: tuple[FloorItem, ...],
    accepting: int,
) -> PlayerBoard:
    """``PlayerBoard(...)`` built through its slots, for parts the referee computed itself,
    with their ``accepting`` lines already known (the same object, in half the time)."""
    board: PlayerBoard = new_instance(PlayerBoard)
    _set_score(board, score)
    _set_lines(board, pattern_lines)
    _set_wall(board, wall)
    _set_floor(board, floor)
    _set_accepting(board, accepting)
    return board
