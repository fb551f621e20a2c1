"""The scorekeeper's sheet: what the players of a game with the real box enter, round by
round, read strictly from its JSON form or from its one-line notation, and written back.

A sheet holds the number of players and the side of the boards played (the coloured
wall, or the grey wall of V1-V5), and for each round and each player the wall spaces
they laid tiles on (row and column from 0; on the coloured wall a space's colour is
fixed, S5, on the grey wall each space laid names its colour), how many tiles lie on
their floor line, whether the starting player marker
lies there, and, if they wrote it, their total after the round; then what they wrote at
the end (bonuses, final totals, winners).  The forms are documented in
``docs/scorekeeper.md``.  Standard library and the library's strict reader only; every
problem is a ``(path, problem)`` pair of a :class:`~azul_rules.FormatError`.
"""

from __future__ import annotations

import re
from typing import Final

import attrs

from azul_rules.core.colors import COLORS, Color
from azul_rules.core.errors import FormatError
from azul_rules.core.phases import Variant
from azul_rules.formats._reading import Reader
from azul_rules.formats.jsontext import format_error

__all__ = [
    "MAX_NOTATION",
    "MAX_ROUNDS",
    "Entry",
    "Sheet",
    "WrittenEnd",
    "sheet_from_data",
    "sheet_from_notation",
    "sheet_to_dict",
    "sheet_to_notation",
]

MAX_ROUNDS: Final = 30
"""The most rounds a sheet holds: a real game lasts five or six, rarely ten."""

MAX_NOTATION: Final = 2000
"""The longest notation read, in characters: a real game's sheet takes 150 to 600."""

MAX_FLOOR: Final = 99
"""The most floor tiles read (more than 7 is read, then refused as impossible, F2)."""

_KEYS: Final = ("format_version", "players", "wall", "rounds", "end")
_ENTRY_KEYS: Final = ("placed", "floor", "marker", "written")
_END_KEYS: Final = ("bonuses", "final", "winners")


@attrs.frozen
class Entry:
    """One player's round: the wall spaces laid, ``(row, column)`` from 0 in the order
    entered, and on the grey wall the colour laid on each (``colors``, one a space;
    empty on the coloured wall, where a space's colour is fixed, S5); the tiles on the
    floor line; the marker there or not; the total written."""

    placed: tuple[tuple[int, int], ...] = ()
    floor: int = 0
    marker: bool = False
    written: int | None = None
    colors: tuple[Color, ...] = ()

    def laid(self) -> tuple[tuple[int, int, Color | None], ...]:
        """Each space laid with its colour on the grey wall (``None`` on the coloured)."""
        colors: tuple[Color | None, ...] = self.colors or (None,) * len(self.placed)
        return tuple((r, c, color) for (r, c), color in zip(self.placed, colors, strict=True))


@attrs.frozen
class WrittenEnd:
    """What the players wrote at the end, per player (``None``: not written)."""

    bonuses: tuple[int | None, ...] | None = None
    final: tuple[int | None, ...] | None = None
    winners: tuple[int, ...] | None = None


@attrs.frozen
class Sheet:
    """The whole sheet: ``rounds[k][p]`` is player ``p``'s entry for round ``k + 1``;
    ``wall`` the side of the boards (V1-V5 for the grey wall)."""

    players: int
    rounds: tuple[tuple[Entry, ...], ...] = ()
    end: WrittenEnd = WrittenEnd()
    wall: Variant = Variant.COLORED

    @property
    def grey(self) -> bool:
        """True for a game on the grey wall."""
        return self.wall is Variant.GREY

    def upto(self, rounds: int) -> Sheet:
        """The sheet as it stood after ``rounds`` rounds (the end only when complete)."""
        end = self.end if rounds >= len(self.rounds) else WrittenEnd()
        return Sheet(self.players, self.rounds[:rounds], end, self.wall)


# -- JSON ----------------------------------------------------------------------------------


def sheet_from_data(value: object) -> Sheet:
    """A sheet from its JSON form (a ``dict``) or its notation (a ``str``).

    :raises FormatError: naming the JSON path (or the character) of every problem."""
    if isinstance(value, str):
        return sheet_from_notation(value)
    reader = Reader()
    doc = reader.document(value, _KEYS)
    players = reader.integer(doc.get("players"), "$.players", 2, 4) if "players" in doc else None
    if "players" not in doc:
        reader.fail("$.players", "required (2 to 4)")
    wall = _wall(reader, doc.get("wall", Variant.COLORED.value))
    rounds = _rounds(reader, doc.get("rounds", []), players or 4, wall is Variant.GREY)
    end = _end(reader, doc.get("end"), players or 4)
    reader.done()
    assert players is not None and rounds is not None
    return Sheet(players, rounds, end, wall)


def _wall(reader: Reader, value: object) -> Variant:
    for variant in Variant:
        if value == variant.value:
            return variant
    reader.fail("$.wall", 'expected "colored" or "grey" (the side of the boards)')
    return Variant.COLORED


def _rounds(reader: Reader, value: object, players: int,
            grey: bool) -> tuple[tuple[Entry, ...], ...] | None:  # fmt: skip
    items = reader.array(value, "$.rounds", most=MAX_ROUNDS)
    if items is None:
        return None
    rounds = []
    for k, item in enumerate(items):
        entries = reader.array(item, f"$.rounds[{k}]", length=players)
        if entries is not None:
            rounds.append(tuple(_entry(reader, e, f"$.rounds[{k}][{p}]", grey)
                                for p, e in enumerate(entries)))  # fmt: skip
    return tuple(rounds)


def _entry(reader: Reader, value: object, path: str, grey: bool) -> Entry:
    """One entry: on the coloured wall each space is ``[row, column]``; on the grey wall
    ``[row, column, colour]``."""
    doc = reader.obj(value, path, _ENTRY_KEYS)
    if doc is None:
        return Entry()
    placed = []
    colors = []
    for i, space in enumerate(reader.array(doc.get("placed", []), f"{path}.placed", most=5) or ()):
        at = f"{path}.placed[{i}]"
        items = reader.array(space, at, length=3 if grey else 2) or ()
        cells = [reader.integer(n, f"{at}[{j}]", 0, 4) for j, n in enumerate(items[:2])]
        color = reader.color(items[2], f"{at}[2]") if len(items) == 3 else None
        if len(cells) == 2 and cells[0] is not None and cells[1] is not None:
            placed.append((cells[0], cells[1]))
            if color is not None:
                colors.append(color)
    floor = reader.integer(doc.get("floor", 0), f"{path}.floor", 0, MAX_FLOOR)
    marker = reader.boolean(doc.get("marker", False), f"{path}.marker")
    written = doc.get("written")
    if written is not None:
        written = reader.integer(written, f"{path}.written")
    return Entry(tuple(placed), floor or 0, bool(marker), written, tuple(colors))


def _figures(reader: Reader, value: object, path: str, players: int) -> tuple[int | None, ...]:
    items = reader.array(value, path, length=players) or ()
    return tuple(None if v is None else reader.integer(v, f"{path}[{i}]")
                 for i, v in enumerate(items))  # fmt: skip


def _end(reader: Reader, value: object, players: int) -> WrittenEnd:
    if value is None:
        return WrittenEnd()
    doc = reader.obj(value, "$.end", _END_KEYS)
    if doc is None:
        return WrittenEnd()
    bonuses, final = (
        None if doc.get(k) is None else _figures(reader, doc[k], f"$.end.{k}", players)
        for k in ("bonuses", "final")
    )
    winners = None
    if doc.get("winners") is not None:
        winners = reader.players(doc["winners"], "$.end.winners")
        if winners is not None and any(w >= players for w in winners):
            reader.fail("$.end.winners", f"players are numbered 0 to {players - 1}")
    return WrittenEnd(bonuses, final, winners)


def sheet_to_dict(sheet: Sheet) -> dict[str, object]:
    """The sheet's JSON form (members left out where nothing was entered)."""
    doc: dict[str, object] = {
        "format_version": 1,
        "players": sheet.players,
        "wall": sheet.wall.value,
        "rounds": [[_entry_dict(e) for e in entries] for entries in sheet.rounds],
    }
    end = {k: list(v) for k, v in attrs.asdict(sheet.end, recurse=False).items() if v is not None}
    if end:
        doc["end"] = end
    return doc


def _entry_dict(entry: Entry) -> dict[str, object]:
    placed = [[r, c] if color is None else [r, c, color.name.lower()]
              for r, c, color in entry.laid()]  # fmt: skip
    doc: dict[str, object] = {"placed": placed}
    if entry.floor:
        doc["floor"] = entry.floor
    if entry.marker:
        doc["marker"] = True
    if entry.written is not None:
        doc["written"] = entry.written
    return doc


# -- the notation --------------------------------------------------------------------------

_NUMBER: Final = r"-?[0-9]{1,7}"
_ENTRY: Final = re.compile(rf"((?:[1-5][1-5])*)(?:f([0-9]{{1,2}}))?(m)?(?:w({_NUMBER}))?")
_GREY_ENTRY: Final = re.compile(
    rf"((?:[1-5][1-5][BYRKW])*)(?:f([0-9]{{1,2}}))?(m)?(?:w({_NUMBER}))?")
_BY_LETTER: Final = {color.letter: color for color in COLORS}
_END_ENTRY: Final = re.compile(rf"(?:b({_NUMBER}))?(?:t({_NUMBER}))?")
_WINNERS: Final = re.compile(r"[1-4]{1,4}")


def sheet_to_notation(sheet: Sheet) -> str:
    """The sheet in one line of unreserved URL characters: the number of players (and
    ``g`` for the grey wall), then each round after ``_``, its players' entries joined
    by ``.``; each entry the spaces laid as row and column (from 1; on the grey wall
    followed by the colour's letter, ``B Y R K W``), ``f`` and the floor tiles, ``m``
    for the marker, ``w`` and the total written; then, when anything was written at the
    end, ``_e`` and each player's ``b`` bonuses and ``t`` final total joined by ``.``,
    and ``W`` and the winners (from 1)."""
    parts = [str(sheet.players) + ("g" if sheet.grey else "")]
    for entries in sheet.rounds:
        parts.append(".".join(_entry_code(e) for e in entries))
    end = _end_code(sheet.end, sheet.players)
    if end:
        parts.append(end)
    return "_".join(parts)


def _entry_code(entry: Entry) -> str:
    code = "".join(f"{r + 1}{c + 1}{'' if color is None else color.letter}"
                   for r, c, color in entry.laid())  # fmt: skip
    code += f"f{entry.floor}" if entry.floor else ""
    code += "m" if entry.marker else ""
    return code + (f"w{entry.written}" if entry.written is not None else "")


def _end_code(end: WrittenEnd, players: int) -> str:
    if end == WrittenEnd():
        return ""
    codes = []
    for p in range(players):
        bonus = end.bonuses[p] if end.bonuses else None
        final = end.final[p] if end.final else None
        codes.append((f"b{bonus}" if bonus is not None else "")
                     + (f"t{final}" if final is not None else ""))  # fmt: skip
    winners = "W" + "".join(str(w + 1) for w in end.winners) if end.winners is not None else ""
    return "e" + ".".join(codes) + winners


def sheet_from_notation(text: str) -> Sheet:
    """A sheet from :func:`sheet_to_notation`'s line.

    :raises FormatError: at ``$`` for a text over :data:`MAX_NOTATION` characters, else
        naming the part (``round 2, player 1``) and the character position at fault."""
    if len(text) > MAX_NOTATION:
        raise format_error([("$", f"a sheet's notation is at most {MAX_NOTATION} characters, "
                                  f"got {len(text)}")])  # fmt: skip
    parts = text.split("_")
    if not re.fullmatch(r"[2-4]g?", parts[0]):
        raise format_error([("$", "the notation starts with the number of players (2 to 4), "
                                  "then g for the grey wall")])  # fmt: skip
    players = int(parts[0][0])
    wall = Variant.GREY if parts[0].endswith("g") else Variant.COLORED
    end = WrittenEnd()
    if len(parts) > 1 and parts[-1].startswith("e"):
        end = _read_end(parts.pop()[1:], players, len("_".join(parts)) + 1)
    if len(parts) - 1 > MAX_ROUNDS:
        raise format_error([("$", f"at most {MAX_ROUNDS} rounds, got {len(parts) - 1}")])
    rounds = []
    at = len(parts[0]) + 1
    for k, part in enumerate(parts[1:]):
        rounds.append(_read_round(part, players, k, at, wall is Variant.GREY))
        at += len(part) + 1
    # read again as JSON: the figures' bounds (the claims', ±1,000,000) are checked there
    return sheet_from_data(sheet_to_dict(Sheet(players, tuple(rounds), end, wall)))


def _fail(at: int, where: str, expected: str) -> FormatError:
    return format_error([("$", f"character {at + 1} ({where}): expected {expected}")])


def _read_round(part: str, players: int, k: int, at: int, grey: bool) -> tuple[Entry, ...]:
    codes = part.split(".")
    if len(codes) != players:
        raise _fail(at, f"round {k + 1}", f"{players} entries joined by '.', got {len(codes)}")
    entries = []
    pattern, step = (_GREY_ENTRY, 3) if grey else (_ENTRY, 2)
    spaces = ("a row, a column (1-5) and a colour (B, Y, R, K, W) for each space" if grey
              else "pairs of a row and a column (1-5)")  # fmt: skip
    for p, code in enumerate(codes):
        found = pattern.fullmatch(code)
        if found is None:
            matched = pattern.match(code)
            offset = matched.end() if matched else 0
            raise _fail(at + offset, f"round {k + 1}, player {p + 1}",
                        f"{spaces}, then f and the floor tiles, "
                        "m for the marker, w and the total written")  # fmt: skip
        cells, floor, marker, written = found.groups()
        placed = tuple((int(cells[i]) - 1, int(cells[i + 1]) - 1)
                       for i in range(0, len(cells), step))  # fmt: skip
        colors = tuple(_BY_LETTER[cells[i + 2]] for i in range(0, len(cells), step)) if grey else ()
        if len(placed) > 5:
            raise _fail(at, f"round {k + 1}, player {p + 1}", "at most 5 wall spaces")
        entries.append(Entry(placed, int(floor or 0), marker is not None,
                             None if written is None else int(written), colors))  # fmt: skip
        at += len(code) + 1
    return tuple(entries)


def _read_end(code: str, players: int, at: int) -> WrittenEnd:
    body, _, winners_code = code.partition("W")
    codes = body.split(".")
    if len(codes) != players:
        raise _fail(at, "the end", f"{players} entries joined by '.', got {len(codes)}")
    bonuses: list[int | None] = []
    final: list[int | None] = []
    for p, item in enumerate(codes):
        found = _END_ENTRY.fullmatch(item)
        if found is None:
            raise _fail(at, f"the end, player {p + 1}", "b and the bonuses, t and the final total")
        bonuses.append(None if found[1] is None else int(found[1]))
        final.append(None if found[2] is None else int(found[2]))
    winners = None
    if winners_code or "W" in code:
        wrong = not _WINNERS.fullmatch(winners_code) or len(set(winners_code)) != len(
            winners_code) or any(int(w) > players for w in winners_code)
        if wrong:
            raise _fail(at + len(body) + 1, "the winners",
                        f"players from 1 to {players}, once each")  # fmt: skip
        winners = tuple(int(w) - 1 for w in winners_code)
    return WrittenEnd(_none_if_empty(bonuses), _none_if_empty(final), winners)


def _none_if_empty(figures: list[int | None]) -> tuple[int | None, ...] | None:
    return tuple(figures) if any(f is not None for f in figures) else None

