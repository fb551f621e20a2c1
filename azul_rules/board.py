"""A player's board: pattern lines, wall, floor line and score (S4).

Boards are immutable and shared between a state and its successor when unchanged.  Every
possible pattern line is built once at import (``pattern_line``), so filling a line is a
table look-up.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import attrs

from azul_rules.colors import COLORS, Color, FloorItem

__all__ = ["EMPTY_WALL", "LINES", "PatternLine", "PlayerBoard", "Wall", "pattern_line"]

Wall = tuple[tuple[Color | None, ...], ...]
"""``wall[row][column]``: the colour of the tile there, or ``None``."""

EMPTY_WALL: Final[Wall] = tuple((None,) * 5 for _ in range(5))


@attrs.frozen
class PatternLine:
    """One pattern line (S4): ``capacity`` spaces, ``count`` tiles of ``color`` (P2)."""

    color: Color | None
    count: int
    capacity: int

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


# _ROOM_BIT[i][color][count]: the accepting bit of pattern line i holding count tiles of
# color: set while the line has room (P4).
_ROOM_BIT: Final = tuple(
    tuple(tuple(1 << (5 * c + i) if n <= i else 0 for n in range(i + 2)) for c in COLORS)
    for i in range(5)
)
_tuple_new: Final = tuple.__new__

# _NOT_LINE[i]: every packed accepting bit except those of pattern line i.
_NOT_LINE: Final = tuple(~sum(1 << (5 * c + i) for c in range(5)) for i in range(5))


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


class _BoardFields(NamedTuple):
    score: int
    pattern_lines: tuple[PatternLine, ...]
    wall: Wall
    floor: tuple[FloorItem, ...]
    accepting: int


class PlayerBoard(_BoardFields):
    """One player's board: ``score``, ``pattern_lines``, ``wall``, ``floor``.

    ``floor`` lists the occupied floor spaces from left to right: colours, and
    :data:`~azul_rules.MARKER` where the starting player marker lies (F1, F3).
    ``accepting`` is derived from the lines and the wall (see :meth:`accepting_lines`);
    leave it out when building a board.  An immutable named tuple: a new board is built
    at every take, and a tuple is the cheapest immutable value Python builds.
    """

    __slots__ = ()

    def __new__(
        cls,
        score: int = 0,
        pattern_lines: tuple[PatternLine, ...] = _EMPTY_LINES,
        wall: Wall = EMPTY_WALL,
        floor: tuple[FloorItem, ...] = (),
        accepting: int | None = None,
    ) -> PlayerBoard:
        if accepting is None:
            accepting = _accepting_of(pattern_lines, wall)
        return tuple.__new__(cls, (score, pattern_lines, wall, floor, accepting))

    def __repr__(self) -> str:
        return (
            f"PlayerBoard(score={self.score!r}, pattern_lines={self.pattern_lines!r}, "
            f"wall={self.wall!r}, floor={self.floor!r})"
        )

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
        packed = self.accepting & _NOT_LINE[index] | _ROOM_BIT[index][color][count]
        return _tuple_new(PlayerBoard, (self.score, tuple(lines), self.wall, floor, packed))

    def with_floor(self, floor: tuple[FloorItem, ...]) -> PlayerBoard:
        """This board with a new floor (the accepting lines are unchanged)."""
        return _tuple_new(
            PlayerBoard, (self.score, self.pattern_lines, self.wall, floor, self.accepting)
        )

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
