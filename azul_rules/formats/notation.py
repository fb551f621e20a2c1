"""The position notation: a whole position on one line, as FEN is for chess.

One line of the characters an address carries unescaped (``A-Z a-z 0-9 - . _ ~``),
at most 240 characters for any position of a real game, holding everything needed to
go on playing -- the seeded generator's state included -- but not the history
(``last_scoring``).  ``docs/notation.md`` is the grammar, with examples::

    c2f1.110_bkkw.yrww.bbkk.byyw.rkkw._b16y16r17k15w16_5f0e4c1a2b3d9e8f_0.00000.00000._0.00000.00000.

Sections are separated by ``_``: the head (variant, players, phase, round; the player
to move, the starting player, the marker's holder), the table (each factory, then the
centre), the bag, the generator (``x`` for a table's own draws), then one section a
player (score, pattern lines, wall, floor).  The lid is not written: it holds the tiles
that are nowhere else (20 a colour, S3).

``azul_rules.from_notation`` (``serialization.from_notation``, which reads the document
that :func:`document` makes) is as strict as :func:`~azul_rules.from_json`: a malformed text
is a :class:`~azul_rules.FormatError` naming the character where it goes wrong and what
was expected; a position that cannot exist is an :class:`~azul_rules.InvalidStateError`
listing every problem.  Bounded in time and memory on any input.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any, Final

from azul_rules.core.board import PlayerBoard
from azul_rules.core.colors import COLORS, MARKER, Color, wall_color
from azul_rules.core.errors import FormatError
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.shown import shown
from azul_rules.core.state import GameState
from azul_rules.formats.jsontext import FORMAT_VERSION

__all__ = ["MAX_LENGTH", "MAX_NOTATION", "document", "to_notation"]

MAX_LENGTH: Final = 240
"""The longest notation of a position of a real game (2-4 players, both walls, every
phase): ``tests/formats/test_notation.py`` holds every position of thousands of games to it."""

MAX_NOTATION: Final = 1000
"""The longest text :func:`from_notation` reads: a hand-made position (a score of
millions) may pass :data:`MAX_LENGTH`; anything longer is refused before it is read."""

_LETTERS: Final = "byrkw"
_LETTER_OF: Final = dict(zip(COLORS, _LETTERS, strict=True))
_COLOR_OF: Final = dict(zip(_LETTERS, COLORS, strict=True))
_MARKER_LETTER: Final = "m"
_PHASES: Final = {
    Phase.FACTORY_OFFER: "f", Phase.WALL_TILING: "w", Phase.REFILL: "r", Phase.GAME_OVER: "e",
}  # fmt: skip
_PHASE_OF: Final = {letter: phase for phase, letter in _PHASES.items()}
_VARIANTS: Final = {Variant.COLORED: "c", Variant.GREY: "g"}
_VARIANT_OF: Final = {letter: variant for variant, letter in _VARIANTS.items()}
_FACTORIES: Final = {2: 5, 3: 7, 4: 9}
_DIGITS62: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_DIGITS32: Final = _DIGITS62[:10] + "abcdefghijklmnopqrstuv"
_HEX: Final = "0123456789abcdef"
_EXTERNAL: Final = "x"
_MAX_DECIMAL: Final = 100  # digits of a score or a round (no real game passes 3)
_PER_COLOR: Final = 20  # S3


def _grey_rows() -> tuple[tuple[int, ...], ...]:
    """Every row a grey wall can hold, in order: five cells, each empty (0) or a colour
    (1-5 in S5's order), no colour twice (V2); ordered as numbers written in base 6 with
    the leftmost cell first.  A row's code is its index here (1,546 rows)."""
    return tuple(
        row for row in itertools.product(range(6), repeat=5)
        if len([c for c in row if c]) == len({c for c in row if c})
    )  # fmt: skip


_GREY_ROWS: Final = _grey_rows()
_GREY_CODE: Final = {row: index for index, row in enumerate(_GREY_ROWS)}


# Writing.


def to_notation(state: GameState) -> str:
    """``state`` as one line of notation (``docs/notation.md``): everything but
    ``last_scoring``.  ``from_notation`` of the text gives ``state`` back.

    :raises TypeError: for something that is not a ``GameState``.
    :raises ValueError: for a position built by hand with a score or a round of more than
        100 digits, which no notation holds.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"to_notation takes a GameState, not {shown(state)}")
    for figure in (state.round, *(board.score for board in state.players)):
        if figure >= 10**_MAX_DECIMAL:
            raise ValueError(f"a score or a round of more than {_MAX_DECIMAL} digits has no "
                             f"notation: {shown(figure)}")  # fmt: skip
    sections = [
        _head(state),
        ".".join([*(_tiles(f) for f in state.factories), _tiles(state.center)]),
        _tiles(state.bag),
        _EXTERNAL if state.rng_state is None else format(state.rng_state, "x"),
        *(_board(board, state.variant) for board in state.players),
    ]
    return "_".join(sections)


def _head(state: GameState) -> str:
    holder = 0 if state.marker_holder is None else state.marker_holder + 1
    return (
        f"{_VARIANTS[state.variant]}{len(state.players)}{_PHASES[state.phase]}{state.round}"
        f".{state.current_player + 1}{state.start_player + 1}{holder}"
    )


def _tiles(tiles: Iterable[Color]) -> str:
    """A multiset of tiles: each colour's letter in S5's order, followed by its count
    when it is more than one (``bk2w``: a blue, two black, a white)."""
    counts = dict.fromkeys(COLORS, 0)
    for tile in tiles:
        counts[tile] += 1
    return "".join(
        _LETTER_OF[c] + (str(n) if n > 1 else "") for c, n in counts.items() if n
    )  # fmt: skip


def _board(board: PlayerBoard, variant: Variant) -> str:
    lines = "".join(
        f"{line.count}{_LETTER_OF[line.color]}" if line.color is not None else "0"
        for line in board.pattern_lines
    )  # fmt: skip
    floor = "".join(_MARKER_LETTER if t is MARKER else _LETTER_OF[t] for t in board.floor)
    return f"{board.score}.{lines}.{_wall(board.wall, variant)}.{floor}"


def _wall(wall: Sequence[Sequence[Color | None]], variant: Variant) -> str:
    if variant is Variant.COLORED:  # where the tiles are: their colours are printed
        return "".join(
            _DIGITS32[sum(16 >> c for c, tile in enumerate(row) if tile is not None)]
            for row in wall
        )  # fmt: skip
    out = []
    for row in wall:
        code = _GREY_CODE[tuple(0 if t is None else COLORS.index(t) + 1 for t in row)]
        out.append(_DIGITS62[code // 62] + _DIGITS62[code % 62])
    return "".join(out)


# Reading.


class _Reader:
    """A cursor over the text that knows where it is, for messages that name the
    character (counted from 1) and what was expected there."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, expected: str, at: int | None = None) -> FormatError:
        where = self.at if at is None else at
        found = self.text[where] if where < len(self.text) else None
        got = "the end of the text" if found is None else shown(found)
        place = f"character {where + 1}"
        problem = f"expected {expected}, found {got}"
        return FormatError(f"notation, {place}: {problem}", ((place, problem),))

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def take(self, allowed: str, expected: str) -> str:
        char = self.peek()
        if not char or char not in allowed:
            raise self.fail(expected)
        self.at += 1
        return char

    def decimal(self, expected: str, *, most: int = _MAX_DECIMAL) -> int:
        start = self.at
        while self.peek() and self.peek() in "0123456789" and self.at - start <= most:
            self.at += 1
        digits = self.text[start:self.at]
        if not digits or (len(digits) > 1 and digits[0] == "0") or len(digits) > most:
            raise self.fail(expected, start if not digits or digits[0] == "0" else start + most)
        return int(digits)

    def separator(self, char: str, expected: str) -> None:
        self.take(char, expected)


def document(text: str) -> dict[str, Any]:
    """The position document (``docs/json-format.md``) that ``text`` writes, the lid
    filled with what is nowhere else (``serialization.from_notation`` reads it into a
    position).

    :raises FormatError: as ``from_notation``: for a text that is not a notation, naming
        the character (from 1) and what was expected there, or one over 1,000 characters.
    """
    if len(text) > MAX_NOTATION:
        raise FormatError(f"a notation has at most {MAX_NOTATION} characters, "
                          f"not {len(text)}")  # fmt: skip
    reader = _Reader(text)
    found = _read(reader)
    if reader.at != len(text):
        raise reader.fail("the end of the notation")
    _fill_lid(found)
    return found


def _read(reader: _Reader) -> dict[str, Any]:
    variant = _VARIANT_OF[reader.take("cg", "the variant: c (coloured wall) or g (grey)")]
    players = int(reader.take("234", "the number of players: 2, 3 or 4"))
    phase = _PHASE_OF[reader.take("fwre", "the phase: f, w, r or e")]
    round = reader.decimal("the round: a number from 1, without leading zero")
    if round < 1:
        raise reader.fail("the round: a number from 1", reader.at - 1)
    reader.separator(".", "'.' after the round")
    seats = "".join(str(p) for p in range(1, players + 1))
    who = f"a player, 1 to {players}"
    current = int(reader.take(seats, f"the player to move: {who}")) - 1
    start = int(reader.take(seats, f"the starting player: {who}")) - 1
    holder = int(reader.take("0" + seats, f"the marker's holder: {who}, or 0 for none"))
    reader.separator("_", "'_' after the head")
    factories = []
    for index in range(_FACTORIES[players]):
        factories.append(_read_tiles(reader, f"factory {index + 1}"))
        reader.separator(".", f"'.' after factory {index + 1} ({_FACTORIES[players]} "
                         f"factories for {players} players)")  # fmt: skip
    center = _read_tiles(reader, "the centre")
    reader.separator("_", "'_' after the centre")
    bag = _read_tiles(reader, "the bag")
    reader.separator("_", "'_' after the bag")
    rng_state = _read_generator(reader)
    boards = []
    for seat in range(players):
        reader.separator("_", f"'_' before player {seat + 1}'s board")
        boards.append(_read_board(reader, variant, seat))
    return {
        "format_version": FORMAT_VERSION, "variant": variant.value,
        "phase": phase.value, "round": round, "current_player": current,
        "start_player": start, "marker_holder": holder - 1 if holder else None,
        "factories": [[c.name.lower() for c in f] for f in factories],
        "center": [c.name.lower() for c in center], "bag": _counts(bag), "lid": {},
        "rng_state": rng_state, "players": boards,
    }  # fmt: skip


def _read_tiles(reader: _Reader, what: str) -> list[Color]:
    """A multiset: colour letters in S5's order, each at most once, each followed by
    its count when more than one."""
    tiles: list[Color] = []
    last = -1
    while reader.peek() and reader.peek() in _LETTERS:
        index = _LETTERS.index(reader.peek())
        if index <= last:
            raise reader.fail(f"the colours of {what} once each, in the order b y r k w")
        reader.at += 1
        last = index
        count = 1
        if reader.peek() and reader.peek() in "0123456789":
            count = reader.decimal(f"a count of {what}'s tiles: 2 to 20", most=2)
            if not 2 <= count <= _PER_COLOR:
                raise reader.fail(f"a count of {what}'s tiles: 2 to 20 (1 is not written)",
                                  reader.at - len(str(count)))  # fmt: skip
        tiles.extend([COLORS[index]] * count)
    return tiles


def _read_generator(reader: _Reader) -> int | None:
    if reader.peek() == _EXTERNAL:
        reader.at += 1
        return None
    start = reader.at
    while reader.peek() and reader.peek() in _HEX and reader.at - start < 16:
        reader.at += 1
    digits = reader.text[start:reader.at]
    if not digits or (len(digits) > 1 and digits[0] == "0"):
        raise reader.fail("the generator: 1 to 16 lowercase hexadecimal digits without "
                          "leading zero, or x for a table's own draws", start)  # fmt: skip
    return int(digits, 16)


def _read_board(reader: _Reader, variant: Variant, seat: int) -> dict[str, Any]:
    whose = f"player {seat + 1}'s"
    score = reader.decimal(f"{whose} score: a number without leading zero")
    reader.separator(".", f"'.' after {whose} score")
    lines: list[list[str]] = []
    for line in range(5):
        count = int(reader.take("0123456", f"{whose} pattern line {line + 1}: 0 (empty) or "
                                "a count of tiles and a colour letter"))  # fmt: skip
        if count == 0:
            lines.append([])
            continue
        if count > line + 1:
            raise reader.fail(f"{whose} pattern line {line + 1}: at most {line + 1} "
                              f"{'tile' if line == 0 else 'tiles'}", reader.at - 1)  # fmt: skip
        color = _COLOR_OF[reader.take(_LETTERS, f"the colour of {whose} pattern line "
                                      f"{line + 1}: b, y, r, k or w")]  # fmt: skip
        lines.append([color.name.lower()] * count)
    reader.separator(".", f"'.' after {whose} pattern lines")
    wall = _read_wall(reader, variant, whose)
    reader.separator(".", f"'.' after {whose} wall")
    floor: list[str] = []
    while reader.peek() and reader.peek() in _LETTERS + _MARKER_LETTER:
        letter = reader.take(_LETTERS + _MARKER_LETTER, "")
        floor.append("marker" if letter == _MARKER_LETTER else _COLOR_OF[letter].name.lower())
        if len(floor) > 7:
            raise reader.fail(f"the end of {whose} floor line: it has 7 spaces (F1)",
                              reader.at - 1)  # fmt: skip
    return {"score": score, "pattern_lines": lines, "wall": wall, "floor": floor}


def _read_wall(reader: _Reader, variant: Variant, whose: str) -> list[list[str | None]]:
    rows: list[list[str | None]] = []
    for row in range(5):
        if variant is Variant.COLORED:
            digit = reader.take(_DIGITS32, f"{whose} wall row {row + 1}: a digit 0-9 or a-v "
                                "(the row's tiles as 5 bits, leftmost first)")  # fmt: skip
            bits = _DIGITS32.index(digit)
            rows.append([wall_color(row, c).name.lower() if bits & (16 >> c) else None
                         for c in range(5)])  # fmt: skip
            continue
        start = reader.at
        high = reader.take(_DIGITS62, f"{whose} wall row {row + 1}: two base-62 digits")
        low = reader.take(_DIGITS62, f"{whose} wall row {row + 1}: two base-62 digits")
        code = _DIGITS62.index(high) * 62 + _DIGITS62.index(low)
        if code >= len(_GREY_ROWS):
            raise reader.fail(f"{whose} wall row {row + 1}: a row code below "
                              f"{len(_GREY_ROWS)}", start)  # fmt: skip
        rows.append([COLORS[c - 1].name.lower() if c else None for c in _GREY_ROWS[code]])
    return rows


def _counts(tiles: Iterable[Color]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for tile in tiles:
        counts[tile.name.lower()] = counts.get(tile.name.lower(), 0) + 1
    return counts


def _fill_lid(document: dict[str, Any]) -> None:
    """The lid holds the tiles of each colour that are nowhere else (20 a colour, S3).
    A position with more than 20 of a colour gets an empty lid for it, and the checks
    of the state name the surplus (``TILE_COUNT``)."""
    seen = dict.fromkeys((c.name.lower() for c in COLORS), 0)

    def count(names: Iterable[str | None]) -> None:
        for name in names:
            if name is not None and name != "marker":
                seen[name] += 1

    for tiles in [*document["factories"], document["center"]]:
        count(tiles)
    for name, number in document["bag"].items():
        seen[name] += number
    for board in document["players"]:
        for line in board["pattern_lines"]:
            count(line)
        for row in board["wall"]:
            count(row)
        count(board["floor"])
    document["lid"] = {name: _PER_COLOR - n for name, n in seen.items() if n < _PER_COLOR}
