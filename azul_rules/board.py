"""A player's board: pattern lines, wall, floor line and score (S4).

Boards are immutable and shared between a state and its successor when unchanged.  Every
possible pattern line is built once at import (``pattern_line``), so filling a line is a
table look-up.
"""

from __future__ import annotations

from typing import Final

import attrs

from azul_rules.colors import COLORS, FLOOR_SIZE, Color, FloorItem

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


# _NOT_LINE[i]: every packed accepting bit except those of pattern line i.
_NOT_LINE: Final = tuple(~sum(1 << (5 * c + i) for c in range(5)) for i in range(5))


@attrs.frozen
class PlayerBoard:
    """One player's board.

    ``floor`` lists the occupied floor spaces from left to right: colours, and
    :data:`~azul_rules.MARKER` where the starting player marker lies (F1, F3).
    """

    score: int = 0
    pattern_lines: tuple[PatternLine, ...] = _EMPTY_LINES
    wall: Wall = EMPTY_WALL
    floor: tuple[FloorItem, ...] = ()
    # Lazily computed: which pattern lines accept which colour, packed in one int
    # (bit 5 * colour + line); see accepting_lines.
    _accepting: int | None = attrs.field(default=None, eq=False, repr=False, alias="_accepting")

    def accepting_lines(self, color: Color) -> int:
        """Bit mask of the pattern lines that may receive ``color`` (P2, P3, P4)."""
        return self.accepting_packed() >> 5 * color & 31

    def accepting_packed(self) -> int:
        """``accepting_lines`` for every colour in one int: bits ``5 * colour + line``."""
        packed = self._accepting
        if packed is None:
            packed = 0
            for index, line in enumerate(self.pattern_lines):
                if line.color is None:
                    row = self.wall[index]
                    for color in COLORS:
                        if color not in row:
                            packed |= 1 << (5 * color + index)
                elif line.count < line.capacity:
                    packed |= 1 << (5 * line.color + index)
            object.__setattr__(self, "_accepting", packed)
        return packed

    def with_line(self, index: int, line: PatternLine, floor: tuple[FloorItem, ...]) -> PlayerBoard:
        """This board with pattern line ``index`` (now holding tiles) replaced and a new
        floor.  The accepting lines are carried over, only line ``index`` recomputed."""
        lines = self.pattern_lines
        packed = self._accepting
        if packed is not None:
            packed &= _NOT_LINE[index]
            if line.count < line.capacity and line.color is not None:
                packed |= 1 << (5 * line.color + index)
        lines = lines[:index] + (line,) + lines[index + 1 :]
        return PlayerBoard(self.score, lines, self.wall, floor, packed)

    def with_floor(self, floor: tuple[FloorItem, ...]) -> PlayerBoard:
        """This board with a new floor (the accepting lines are unchanged)."""
        return PlayerBoard(self.score, self.pattern_lines, self.wall, floor, self._accepting)

    @property
    def floor_room(self) -> int:
        """Free floor spaces (F1, F2)."""
        return FLOOR_SIZE - len(self.floor)

    def complete_rows(self) -> int:
        """The number of complete horizontal wall rows (R1, E2, E4)."""
        return sum(1 for row in self.wall if None not in row)
