"""Tiles, colours, the coloured wall layout and the small constants of the table.

Rules: S3 (five colours), S5 (the coloured wall), F1 (floor penalties), T4 (the marker
is not a colour).

A *multiset of tiles* (a factory, the centre, the bag, the lid) is a sorted tuple of
:class:`Color`.  Sorted tuples give canonical, hashable values: two tables holding the
same tiles compare equal, and ``len``, ``count`` and iteration are the builtin ones.
"""

from __future__ import annotations

import enum
from typing import Final

__all__ = [
    "CENTER",
    "COLORS",
    "FLOOR",
    "FLOOR_PENALTIES",
    "FLOOR_SIZE",
    "MARKER",
    "Color",
    "FloorItem",
    "Marker",
    "Tiles",
    "wall_color",
    "wall_column",
]


class Color(enum.IntEnum):
    """The five tile colours, in the order of RULES S5.

    :raises ValueError: ``Color(value)`` for an unknown value (it is an enum).
    """

    BLUE = 0
    YELLOW = 1
    RED = 2
    BLACK = 3
    WHITE = 4

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    @property
    def letter(self) -> str:
        """The colour's letter in the move notation (``K`` is black)."""
        return _LETTERS[self]


_LETTERS: Final = ("B", "Y", "R", "K", "W")

COLORS: Final[tuple[Color, ...]] = tuple(Color)


class Marker(enum.Enum):
    """The starting player marker (T3, F3).  Its only member is :data:`MARKER`.

    :raises ValueError: ``Marker(value)`` for an unknown value (it is an enum).
    """

    MARKER = "marker"

    def __repr__(self) -> str:
        return "MARKER"


MARKER: Final = Marker.MARKER
"""The starting player marker, as it lies in ``board.floor``."""

FloorItem = Color | Marker
"""What a floor space can hold: a tile or the starting player marker."""

Tiles = tuple[Color, ...]
"""A multiset of tiles: a sorted tuple of colours."""

CENTER: Final = -1
"""``Take(source=CENTER, ...)``: take from the centre of the table."""

FLOOR: Final = -1
"""``Take(line=FLOOR, ...)``: send the whole lot to the floor line (P1, P6)."""

FLOOR_PENALTIES: Final = (1, 1, 2, 2, 2, 3, 3)
"""Points lost per occupied floor space, left to right (F1)."""

FLOOR_SIZE: Final = len(FLOOR_PENALTIES)

FLOOR_TOTALS: Final = tuple(sum(FLOOR_PENALTIES[:n]) for n in range(FLOOR_SIZE + 1))
"""``FLOOR_TOTALS[n]``: the penalty of a floor with ``n`` occupied spaces."""


def wall_color(row: int, column: int) -> Color:
    """The colour printed at ``(row, column)`` of the coloured wall (S5)."""
    return COLORS[(column - row) % 5]


def wall_column(row: int, color: Color) -> int:
    """The column of ``color`` in ``row`` of the coloured wall (S5)."""
    return (color + row) % 5


class _Splits(dict[Tiles, tuple[tuple[int, Tiles], ...]]):
    """For a factory's tiles, by colour: how many of that colour, and the others (T2: the
    lot taken and what goes to the centre).  Factories hold at most 4 tiles, so there
    are at most 126 keys; filled on demand."""

    def __missing__(self, tiles: Tiles) -> tuple[tuple[int, Tiles], ...]:
        if len(self) > 10_000:  # only oversized factories built by hand get here
            self.clear()
        found = self[tiles] = tuple(
            (tiles.count(color), tuple([t for t in tiles if t != color])) for color in COLORS
        )
        return found


SPLITS: Final = _Splits()
"""``SPLITS[tiles][color]``: ``(count of color, the other tiles)`` of a factory."""


def split_color(tiles: Tiles, color: Color) -> tuple[int, Tiles]:
    """How many tiles of ``color`` there are, and the others (T2: a factory's lot and
    what goes to the centre)."""
    return SPLITS[tiles][color]


def merge(a: Tiles, b: Tiles) -> Tiles:
    """The union of two multisets, sorted."""
    if not b:
        return a
    if not a:
        return b
    return tuple(sorted(a + b))


def distinct_colors(tiles: Tiles) -> tuple[Color, ...]:
    """The colours present in a sorted multiset, each once, in order."""
    return tuple(sorted(set(tiles)))


def color_counts(tiles: Tiles) -> list[int]:
    """How many tiles of each colour, indexed by colour."""
    counts = [0, 0, 0, 0, 0]
    for tile in tiles:
        counts[tile] += 1
    return counts


def subtract(tiles: Tiles, counts: list[int]) -> Tiles:
    """``tiles`` less ``counts[color]`` tiles of each colour (the counts must fit)."""
    left = list(counts)
    kept = []
    for tile in tiles:
        if left[tile]:
            left[tile] -= 1
        else:
            kept.append(tile)
    return tuple(kept)
