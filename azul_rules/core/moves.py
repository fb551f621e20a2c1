"""Moves: what a player does, in the compact and the physical forms.

* :class:`Take` — the compact move a program plays: all tiles of one colour from one
  source into one pattern line or the floor (T2, T3, P1, P5).
* :class:`TableTake` — what a player physically did at the table (how many tiles were
  taken and where each went), so the referee can name the mistake.
* :class:`PlaceTile` — grey wall: where a complete line's tile goes (V1).
* :class:`Refill` — the tiles seen on each factory after a real draw (R2).

Every move may name its ``player``; a different player to move is ``NOT_YOUR_TURN``.
Constructors accept exactly what the JSON format accepts and refuse the rest with
:class:`~azul_rules.FormatError`: wrong types, negative numbers (other than the
:data:`~azul_rules.CENTER` and :data:`~azul_rules.FLOOR` markers), a line given twice.
Numbers that are well formed but off the table (factory 12, line 7) are violations found
by ``validate``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from typing import Any, Final

import attrs

from azul_rules.core.colors import CENTER, COLORS, FLOOR, Color, Marker
from azul_rules.core.errors import FormatError
from azul_rules.core.shown import number as _number
from azul_rules.core.shown import shown as _shown

__all__ = [
    "DESTINATIONS",
    "Move",
    "PlaceTile",
    "Placements",
    "Refill",
    "TableTake",
    "Take",
    "destinations",
    "items_of",
    "parse_move",
    "tile_multiset",
]


def _check_int(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not int:
        raise FormatError(
            f"{type(instance).__name__}.{attribute.name} must be an int, got {_shown(value)}"
        )


def _check_natural(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    _check_int(instance, attribute, value)
    if value < 0:  # type: ignore[operator]
        raise FormatError(
            f"{type(instance).__name__}.{attribute.name} must be 0 or more, "
            f"got {_number(value)}"  # type: ignore[arg-type]
        )


def _check_source(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    _check_int(instance, attribute, value)
    if value != CENTER and value < 0:  # type: ignore[operator]
        raise FormatError(
            f"{type(instance).__name__}.source must be a factory number from 0, or CENTER, "
            f"got {_number(value)}"  # type: ignore[arg-type]
        )


def _check_line(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    _check_int(instance, attribute, value)
    if value != FLOOR and value < 0:  # type: ignore[operator]
        raise FormatError(
            f"{type(instance).__name__}.line must be a pattern line from 0, or FLOOR, "
            f"got {_number(value)}"  # type: ignore[arg-type]
        )


def _check_player(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None:
        _check_natural(instance, attribute, value)


def _check_table_color(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple):
        _check_color(instance, attribute, value)


def _check_color(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, (Color, Marker)):
        raise FormatError(
            f"{type(instance).__name__}.{attribute.name} must be a Color, got {_shown(value)}"
        )


def _to_table_color(value: object) -> object:
    """A list or tuple of colours (a take of several colours) becomes a sorted tuple."""
    if isinstance(value, (list, tuple)):
        if len(value) < 2 or not all(isinstance(c, Color) for c in value):
            raise FormatError(
                f"TableTake.color lists colours when several were taken: at least two "
                f"Colors, got {_shown(value)}"
            )
        return tuple(sorted(set(value))) if len(set(value)) > 1 else value[0]
    return value


def _source_text(source: int) -> str:
    return "C" if source == CENTER else _number(source + 1)


def _line_text(line: int) -> str:
    return "F" if line == FLOOR else _number(line + 1)


def _color_text(color: Color | Marker) -> str:
    return color.letter if isinstance(color, Color) else "M"


@attrs.frozen
class Take:
    """Take every tile of ``color`` from factory ``source`` (0-based) or :data:`CENTER`,
    into pattern line ``line`` (0-4) or :data:`FLOOR`; the excess goes to the floor (P5).

    ``str(take)`` is the compact notation, e.g. ``"3B2"``; ``parse_move`` reads it back.

    :raises FormatError: what the JSON format refuses: a wrong type, a negative number
        (other than :data:`CENTER` and :data:`FLOOR`).
    """

    source: int = attrs.field(validator=_check_source)
    color: Color | Marker = attrs.field(validator=_check_color)
    line: int = attrs.field(validator=_check_line)
    player: int | None = attrs.field(default=None, validator=_check_player, kw_only=True)

    def __str__(self) -> str:
        return f"{_source_text(self.source)}{_color_text(self.color)}{_line_text(self.line)}"


class Placements(Mapping[int, int]):
    """An immutable, hashable mapping ``line or FLOOR -> tiles put there``.

    Entries of 0 tiles are left out: putting no tile in a line is not a placement.
    ``items`` is a mapping or an iterable of ``(line, count)`` tuples.

    :raises FormatError: as a table take's ``placements`` in JSON: something that is
        neither a mapping nor an iterable of ``(line, count)`` tuples (a number, a
        string, ``None``), a line given twice (in a list of pairs), a line or count that
        is not an ``int`` (``bool`` refused), a negative one (other than ``FLOOR``).
    """

    __slots__ = ("_items", "_lookup")

    def __init__(self, items: Mapping[int, int] | Iterable[tuple[int, int]] = ()) -> None:
        if isinstance(items, Mapping):
            pairs: Iterable[object] = items.items()
        elif isinstance(items, (str, bytes, bytearray)) or not isinstance(items, Iterable):
            raise FormatError(
                "TableTake.placements must be a mapping or (line, count) pairs, "
                f"got {_shown(items)}"
            )
        else:
            pairs = items
        clean: dict[int, int] = {}
        seen: set[int] = set()
        for pair in pairs:
            key, count = _placement(pair)
            if key in seen:
                raise FormatError(f"TableTake.placements names line {_number(key)} twice")
            seen.add(key)
            if count:
                clean[key] = count
        self._items: tuple[tuple[int, int], ...] = tuple(sorted(clean.items()))
        self._lookup: dict[int, int] = clean

    def __getitem__(self, key: int) -> int:
        return self._lookup[key]

    def __iter__(self) -> Iterator[int]:
        return (line for line, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placements):
            return self._items == other._items
        if isinstance(other, Mapping):
            return dict(self._items) == {k: v for k, v in other.items() if v}
        return NotImplemented

    def __repr__(self) -> str:
        inner = ", ".join(f"{'FLOOR' if k == FLOOR else k}: {v}" for k, v in self._items)
        return "{" + inner + "}"


def _placement(pair: object) -> tuple[int, int]:
    """One ``(line, count)`` entry of a table take, checked as JSON checks it."""
    if not isinstance(pair, tuple) or len(pair) != 2:
        raise FormatError(
            f"TableTake.placements holds (line, count) pairs, got {_shown(pair)}"
        )
    key, count = pair
    if type(key) is not int or type(count) is not int:
        raise FormatError(
            "TableTake.placements maps a line (int, or FLOOR) to a tile count (int), "
            f"got {_shown(key)}: {_shown(count)}"
        )
    if key < 0 and key != FLOOR:
        raise FormatError(
            f"TableTake.placements: line {_number(key)} is neither 0 or more nor FLOOR"
        )
    if count < 0:
        raise FormatError(f"TableTake.placements[{_number(key)}] is negative ({_number(count)})")
    return key, count


def _to_placements(value: Mapping[int, int] | Iterable[tuple[int, int]]) -> Placements:
    if isinstance(value, Placements):
        return value
    if not isinstance(value, (Mapping, list, tuple)):
        raise FormatError(f"TableTake.placements must be a mapping, got {_shown(value)}")
    return Placements(value)


@attrs.frozen
class TableTake:
    """What a player physically did: took ``count`` tiles of ``color`` from ``source``
    and put ``placements[line]`` tiles in each pattern line (``FLOOR`` for the floor).
    ``color`` may list several colours when the player took more than one
    (``TWO_COLORS``, T4).

    Validated for the documented mistakes (``PARTIAL_TAKE``, ``SPLIT_LOT``,
    ``FLOOR_WHILE_ROOM``, ``TILE_COUNT_MISMATCH``...).  A legal table take applies like
    its :meth:`as_take`.

    :raises FormatError: what the JSON format refuses: a wrong type, a negative number
        (other than :data:`CENTER` and :data:`FLOOR`), a line given twice (see
        :class:`Placements`).
    """

    source: int = attrs.field(validator=_check_source)
    color: Color | Marker | tuple[Color, ...] = attrs.field(
        converter=_to_table_color, validator=_check_table_color
    )
    count: int = attrs.field(validator=_check_natural)
    placements: Placements = attrs.field(converter=_to_placements)
    player: int | None = attrs.field(default=None, validator=_check_player, kw_only=True)

    def as_take(self) -> Take:
        """The compact move this table take amounts to (its single pattern line, or the
        floor when no pattern line received a tile)."""
        if isinstance(self.color, tuple):
            raise FormatError("a take of several colours has no compact form (T4)")
        lines = [line for line in self.placements if line != FLOOR]
        line = lines[0] if len(lines) == 1 else FLOOR
        return Take(self.source, self.color, line, player=self.player)

    def __str__(self) -> str:
        if isinstance(self.color, tuple):
            color = " and ".join(c.name.lower() for c in self.color)
        else:
            color = self.color.name.lower() if isinstance(self.color, Color) else "marker"
        source = "the centre" if self.source == CENTER else f"factory {_number(self.source + 1)}"
        where = ", ".join(
            f"{_number(n)} to {'the floor' if k == FLOOR else f'line {_number(k + 1)}'}"
            for k, n in self.placements.items()
        )
        count = _number(self.count)
        return f"took {count} {color} from {source}: {where or 'placed nowhere'}"


@attrs.frozen
class PlaceTile:
    """Grey wall (V1): the tile of complete pattern line ``line`` goes to wall column
    ``column`` of the same row.

    :raises FormatError: what the JSON format refuses: a wrong type, a negative number.
    """

    line: int = attrs.field(validator=_check_natural)
    column: int = attrs.field(validator=_check_natural)
    player: int | None = attrs.field(default=None, validator=_check_player, kw_only=True)

    def __str__(self) -> str:
        return f"place line {_number(self.line + 1)} at column {_number(self.column + 1)}"


def items_of(value: object, refusal: str) -> tuple[Any, ...]:
    """The items of ``value``, any iterable but text, a mapping or a set; else a
    ``FormatError`` saying ``refusal`` and what ``value`` was (the check of every sequence
    a constructor takes).  A mapping would give only its keys (``{Color.RED: 21}`` one red
    tile) and a set loses repeats and order, so neither is taken for a sequence."""
    if isinstance(value, (str, bytes, Mapping, AbstractSet)) or not isinstance(value, Iterable):
        raise FormatError(f"{refusal}, got {_shown(value)}")
    return tuple(value)


def tile_multiset(value: object, where: str) -> tuple[Color, ...]:
    """``value`` (any sequence of :class:`Color`) as the referee keeps a multiset of
    tiles: a sorted tuple.  ``FormatError`` naming ``where`` for anything else."""
    tiles = items_of(value, f"{where} must be a sequence of Colors")
    for tile in tiles:
        if not isinstance(tile, Color):
            raise FormatError(f"{where} holds {_shown(tile)}, not a Color")
    return tuple(sorted(tiles))


def _to_factories(value: Iterable[Iterable[Color]]) -> tuple[tuple[Color, ...], ...]:
    factories = items_of(value, "Refill.factories must be a sequence of factories")
    return tuple(
        tile_multiset(factory, f"Refill.factories[{index}]")
        for index, factory in enumerate(factories)
    )


@attrs.frozen
class Refill:
    """External draws (R2): the tiles seen on each factory after filling, in factory
    order.  Validated against the bag and the lid (``FILL_IMPOSSIBLE``).

    :raises FormatError: what the JSON format refuses: a wrong type (factories that are
        not sequences of ``Color``), a negative ``player``.
    """

    factories: tuple[tuple[Color, ...], ...] = attrs.field(converter=_to_factories)
    player: int | None = attrs.field(default=None, validator=_check_player, kw_only=True)

    def __str__(self) -> str:
        shown = " ".join(
            f"{i + 1}:{''.join(t.letter for t in f) or '-'}" for i, f in enumerate(self.factories)
        )
        return f"refill {shown}"


Move = Take | TableTake | PlaceTile | Refill
"""Any move the referee judges."""

_NOTATION: Final = re.compile(r"([1-9C])([BYRKW])([1-5F])")
_LETTER_COLORS: Final = {c.letter: c for c in COLORS}


def parse_move(text: str) -> Take:
    """Read the compact notation ``<source><color><line>`` (case-insensitive).

    Source ``1``-``9`` or ``C``; colour ``B``, ``Y``, ``R``, ``K`` (black), ``W``; line
    ``1``-``5`` or ``F`` (floor).  ``"3B2"`` is factory 3, blue, pattern line 2 (all
    1-based).

    :raises FormatError: for anything else (and for a ``text`` that is not a string).
    """
    if not isinstance(text, str):
        raise FormatError(f"a move in notation must be a string, got {_shown(text)}")
    match = _NOTATION.fullmatch(text.strip().upper())
    if match is None:
        raise FormatError(
            f"cannot read {_shown(text)} as a move: expected <source><colour><line>, such as "
            "'3B2' (source 1-9 or C, colour B/Y/R/K/W, line 1-5 or F)"
        )
    source, color, line = match.groups()
    return Take(
        CENTER if source == "C" else int(source) - 1,
        _LETTER_COLORS[color],
        FLOOR if line == "F" else int(line) - 1,
    )


def destinations(mask: int) -> tuple[int, ...]:
    """P2-P4, F1: where a lot may go, ``mask`` saying which pattern lines accept its
    colour (bit ``i``: line ``i``, as ``PlayerBoard.accepting`` holds them five bits a
    colour): those lines in order, then the floor, which takes any lot.  The one place
    this rule is written: ``rules.take_is_legal`` and :data:`TAKE_OPTIONS` (the legal
    takes ``legal_moves`` lists) are built on it, and the compiled engine's
    ``az_destinations`` is its compiled version."""
    return (*(line for line in range(5) if mask >> line & 1), FLOOR)


DESTINATIONS: Final = tuple(frozenset(destinations(mask)) for mask in range(32))
"""``DESTINATIONS[mask]``: :func:`destinations` as a set, by mask."""

# Every compact take is built once: _TAKES[source][color][line] (the floor last), and
# TAKE_OPTIONS[source][color][mask]: the legal takes for a mask of accepting lines.
_MAX_FACTORIES: Final = 9
_SOURCES: Final = (*range(_MAX_FACTORIES), CENTER)
_TAKES: Final = {
    s: {c: {line: Take(s, c, line) for line in (0, 1, 2, 3, 4, FLOOR)} for c in COLORS}
    for s in _SOURCES
}
TAKES: Final = {
    (take.source, take.color, take.line): take for by_color in _TAKES.values()
    for by_line in by_color.values() for take in by_line.values()
}  # fmt: skip
"""Every compact take with no player named, by ``(source, color, line)``."""
TAKE_OPTIONS: Final = {
    s: tuple(
        tuple(tuple(_TAKES[s][c][line] for line in destinations(mask)) for mask in range(32))
        for c in COLORS
    )
    for s in _SOURCES
}
