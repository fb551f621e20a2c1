"""Positions typed without their unseen parts: the bag and the lid read as "every other
tile", the marker's holder read from the floors (``docs/json-format.md``, "A position
typed without its unseen parts").

A player asking about a table sees the factories, the centre and the boards; what lies
in the bag and in the lid they cannot see, and need not type.  Each colour has 20 tiles
(S3): those of a colour not seen on the table are unseen, and :func:`complete_unseen`
shares them between the bag and the lid in the way a game can have left them.  The
strict readers never do this by themselves: a document without its bag is read as an
empty bag (and refused when its tiles do not add up), unless the caller asks for the
inference (``from_json(text, GameState, infer_unseen=True)``, or this module's function).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, overload

from azul_rules.core.colors import COLORS, FLOOR_SIZE
from azul_rules.formats.jsontext import check_shape
from azul_rules.formats.serialization import position_problems

__all__ = ["complete_unseen"]

_NAMES: Final = tuple(c.name.lower() for c in COLORS)
_TILES_A_COLOR: Final = 20  # S3
_TILES: Final = 100  # S3, S6: all in the bag before the first filling


@overload
def complete_unseen(data: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]: ...
@overload
def complete_unseen(data: object) -> tuple[object, tuple[str, ...]]: ...
def complete_unseen(data: object) -> tuple[object, tuple[str, ...]]:
    """A position document (plain data, as ``json.loads`` or ``to_dict`` gives it) with
    what it leaves out of the unseen parts filled in, and the names of the parts filled,
    in this order: ``"bag"``, ``"lid"``, ``"marker_holder"`` (``("bag", "lid")`` for a
    table typed without them).

    - **The bag and the lid**, when one or both are left out, hold every tile not seen
      on the table (factories, centre, pattern lines, walls, floors): 20 of a colour
      less those seen.  When only one is left out it holds what the other does not.
      When both are, the unseen tiles go all to the bag; if the position that gives
      cannot exist and another sharing can, the first of these that can: all in the lid
      (a factory holding 1 to 3 tiles means the bag ran out, R2), then, in round 1 with
      a full floor line, the bag holding the 100 tiles less 4 a factory that the first
      filling left (S6) and the lid the rest, taken from the colours with the most
      unseen tiles (F2).  If no sharing gives a possible position, all go to the bag
      and the reader reports the position's problems.
    - **The marker's holder** (``marker_holder``), when left out, is the player whose
      floor line holds the marker, if one does; otherwise the marker lies in the
      centre (``null``), as the strict reader takes it.

    A colour seen more than 20 times leaves none unseen: the reader then refuses the
    position with ``TILE_COUNT`` (S3), naming the colour and its count.  A notation (a
    ``str``) is complete already and comes back as it is, as does anything but a JSON
    object (the reader refuses it).  The parts given are never changed.

    :raises FormatError: for a document past the readers' limits of size (an array of
        more than 100 entries, more than 2,000 values, a key given twice), or one whose
        parts cannot be read (a colour not of the five, a wrong type), as ``from_dict``.
    """
    if not isinstance(data, Mapping):
        return data, ()
    check_shape(data)  # bounds the walks below, and sees the keys given twice
    doc: dict[str, Any] = dict(data)
    inferred: list[str] = []
    missing = [part for part in ("bag", "lid") if part not in doc]
    if missing:
        unseen = [max(0, _TILES_A_COLOR - n) for n in _seen(doc)]
        if len(missing) == 1:
            other = "lid" if missing == ["bag"] else "bag"
            given = _counts(doc[other])
            doc[missing[0]] = _named([max(0, u - g) for u, g in zip(unseen, given, strict=True)])
        else:
            _share(doc, unseen)
        inferred.extend(missing)
    if "marker_holder" not in doc:
        holders = _marker_floors(doc)
        if len(holders) == 1:
            doc["marker_holder"] = holders[0]
            inferred.append("marker_holder")
    return doc, tuple(inferred)


def _share(doc: dict[str, Any], unseen: list[int]) -> None:
    """Both the bag and the lid left out: the first sharing of the unseen tiles that
    gives a possible position (the fewest problems otherwise, all in the bag first)."""
    nothing = [0] * len(COLORS)
    choices = [(unseen, nothing), (nothing, unseen)]
    dealt = _TILES - 4 * len(doc["factories"]) if isinstance(doc.get("factories"), list) else 0
    full_floor = any(len(floor) >= FLOOR_SIZE for floor in _floors(doc))
    if doc.get("round", 1) == 1 and full_floor and 0 <= dealt < sum(unseen):
        choices.append(_round_one(unseen, dealt))
    best: tuple[int, dict[str, Any]] | None = None
    for bag, lid in choices:
        trial = {**doc, "bag": _named(bag), "lid": _named(lid)}
        problems = len(position_problems(trial))
        if best is None or problems < best[0]:
            best = (problems, trial)
        if not problems:
            break
    assert best is not None
    doc.update(bag=best[1]["bag"], lid=best[1]["lid"])


def _round_one(unseen: list[int], dealt: int) -> tuple[list[int], list[int]]:
    """Round 1 with a full floor line: the bag keeps what the first filling left (S6,
    R2), the lid the tiles a floor line could not hold (F2), taken one by one from the
    colour with the most unseen tiles (the first in S5 order on a tie)."""
    bag = list(unseen)
    lid = [0] * len(COLORS)
    for _ in range(sum(unseen) - dealt):
        most = max(range(len(COLORS)), key=lambda i: (bag[i], -i))
        bag[most] -= 1
        lid[most] += 1
    return bag, lid


def _seen(doc: Mapping[str, Any]) -> list[int]:
    """How many tiles of each colour (in S5's order: blue, yellow, red, black, white)
    the document shows on the table; parts of the wrong shape are skipped (the reader
    refuses them)."""
    counts = [0] * len(COLORS)

    def count(tiles: object) -> None:
        if isinstance(tiles, list):
            for tile in tiles:
                if isinstance(tile, str) and tile in _NAMES:
                    counts[_NAMES.index(tile)] += 1

    for tiles in _lists(doc.get("factories")):
        count(tiles)
    count(doc.get("center"))
    for board in _lists(doc.get("players"), Mapping):
        for tiles in _lists(board.get("pattern_lines")):
            count(tiles)
        for row in _lists(board.get("wall")):
            count(row)
        count(board.get("floor"))
    return counts


def _lists(value: object, kind: type = list) -> list[Any]:
    """The entries of ``value`` that are of ``kind``, when ``value`` is a list."""
    return [v for v in value if isinstance(v, kind)] if isinstance(value, list) else []


def _floors(doc: Mapping[str, Any]) -> list[list[Any]]:
    return [b["floor"] for b in _lists(doc.get("players"), Mapping)
            if isinstance(b.get("floor"), list)]  # fmt: skip


def _marker_floors(doc: Mapping[str, Any]) -> list[int]:
    """The players whose floor line holds the marker."""
    players = doc.get("players")
    if not isinstance(players, list):
        return []
    return [index for index, board in enumerate(players)
            if isinstance(board, Mapping) and isinstance(board.get("floor"), list)
            and "marker" in board["floor"]]  # fmt: skip


def _counts(given: object) -> list[int]:
    """A bag or lid as given, per colour (what is not a count is read as 0 here: the
    reader refuses it)."""
    if not isinstance(given, Mapping):
        return [0] * len(COLORS)
    return [n if type(n := given.get(name, 0)) is int and n > 0 else 0 for name in _NAMES]


def _named(counts: list[int]) -> dict[str, int]:
    return {name: n for name, n in zip(_NAMES, counts, strict=True) if n}

