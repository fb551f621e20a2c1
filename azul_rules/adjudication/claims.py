"""What players claim a wall tiling gave: :class:`Claim` and :class:`ClaimedBoard`.

A claim gives the scores players wrote, and may give each board as the players left it
after the tiling (wall, pattern lines, floor line, score), the lid when they counted it,
and what they say about the end (``game_over``, ``bonuses``, ``winners``).  Its JSON form
is documented in ``docs/audit.md`` and described by the JSON Schema
``azul_rules/formats/schemas/claim.schema.json`` (:func:`schema`).

Reading is strict: every malformed field is reported with its JSON path in one
:class:`~azul_rules.FormatError`, for JSON documents and for claims built in Python alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from azul_rules.core.board import Wall
from azul_rules.core.colors import COLORS, FLOOR_SIZE, MARKER, Color, FloorItem
from azul_rules.core.errors import FormatError
from azul_rules.core.shown import fill
from azul_rules.formats import schemas
from azul_rules.formats._reading import Reader, plain
from azul_rules.formats.jsontext import load

__all__ = [
    "Claim",
    "ClaimedBoard",
    "claim_from_dict",
    "claim_from_json",
    "claim_to_dict",
    "schema",
    "validated",
]

Lines = tuple[tuple[Color, ...], ...]
"""Five pattern lines, each the tuple of its tiles (``()`` for an empty line)."""

_CLAIM_KEYS: Final = ("format_version", "scores", "boards", "pattern_lines", "lid",
                      "game_over", "bonuses", "winners")  # fmt: skip
_BOARD_KEYS: Final = ("score", "wall", "pattern_lines", "floor")


@attrs.frozen
class ClaimedBoard:
    """One player's board as the players left it after the tiling.  Every part is
    optional: ``None`` means "not claimed".

    ``wall[row][column]`` is a ``Color`` or ``None``; ``pattern_lines`` the five lines,
    each a tuple of its tiles; ``floor`` what still lies on the floor line (colours and
    ``MARKER``; after a correct tiling, nothing).  On the grey wall the claimed wall *is*
    the players' choice of columns (V1).
    """

    score: int | None = None
    wall: Wall | None = None
    pattern_lines: Lines | None = None
    floor: tuple[FloorItem, ...] | None = None


@attrs.frozen
class Claim:
    """What the players claim the wall tiling gave.

    ``scores``: each player's score after the tiling and the floor, before any end bonus
    (optional when ``boards`` gives every score).  ``boards``: per player, a
    :class:`ClaimedBoard` or ``None``.  ``pattern_lines``: per player, the five lines as
    left (``None`` for a player not claimed; the older form of ``boards[p].pattern_lines``).
    ``lid``: the tiles in the lid after the tiling, any order.  ``game_over``: whether
    the game ends after this tiling; ``bonuses``: each player's end-bonus points (E2);
    ``winners``: the players said to win (from 0).

    Raises nothing when built: a record whose fields are not checked.  What reads it
    checks it: :func:`~azul_rules.audit` (``FormatError``).
    """

    scores: tuple[int, ...] | None = None
    pattern_lines: tuple[Lines | None, ...] | None = None
    game_over: bool | None = None
    bonuses: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    boards: tuple[ClaimedBoard | None, ...] | None = None
    lid: tuple[Color, ...] | None = None

    def score_of(self, player: int) -> int | None:
        """The score claimed for ``player`` (from ``scores``, else from their board)."""
        if self.scores is not None:
            return self.scores[player]
        board = self.boards[player] if self.boards is not None else None
        return board.score if board is not None else None

    def board_of(self, player: int) -> ClaimedBoard:
        """Everything claimed about ``player``'s board (empty when nothing is)."""
        board = self.boards[player] if self.boards is not None else None
        board = board or ClaimedBoard()
        if self.pattern_lines is not None and self.pattern_lines[player] is not None:
            board = attrs.evolve(board, pattern_lines=self.pattern_lines[player])
        return board


# -- reading ---------------------------------------------------------------------------------


def claim_from_dict(data: object) -> Claim:
    """Read a claim from JSON-like data; ``FormatError`` names every problem's path."""
    reader = Reader()
    doc = reader.document(data, _CLAIM_KEYS)
    fields: dict[str, Any] = {}
    for name in ("scores", "bonuses"):
        if doc.get(name) is not None:
            fields[name] = reader.integers(doc[name], f"$.{name}")
    if doc.get("winners") is not None:
        fields["winners"] = reader.players(doc["winners"], "$.winners")
    if doc.get("game_over") is not None:
        fields["game_over"] = reader.boolean(doc["game_over"], "$.game_over")
    if doc.get("pattern_lines") is not None:
        fields["pattern_lines"] = _per_player(reader, doc["pattern_lines"], "$.pattern_lines",
                                              _lines)  # fmt: skip
    if doc.get("boards") is not None:
        fields["boards"] = _per_player(reader, doc["boards"], "$.boards", _board)
    if doc.get("lid") is not None:
        fields["lid"] = reader.counts(doc["lid"], "$.lid")
    claim = Claim(**fields)
    _check_consistent(reader, claim, scores_given=doc.get("scores") is not None)
    reader.done()
    return claim


def claim_from_json(text: str | bytes) -> Claim:
    """Read a claim from JSON text."""
    return claim_from_dict(load(text))


def claim_to_dict(claim: Claim) -> dict[str, object]:
    """A claim as JSON-ready data (what :func:`claim_from_dict` reads back).  Values of
    the wrong type are kept as they are, for :func:`validated` to report;
    ``FormatError`` for a ``claim`` that is not a :class:`Claim`."""
    _require_claim(claim)
    doc: dict[str, object] = {}
    for field in attrs.fields(Claim):
        value = getattr(claim, field.name)
        if value is None:
            continue
        if field.name == "boards" and isinstance(value, (tuple, list)):
            doc[field.name] = [_board_to_dict(b) for b in value]
        elif field.name == "lid" and isinstance(value, (tuple, list)) and all(
            isinstance(t, Color) for t in value
        ):
            doc[field.name] = {c.name.lower(): list(value).count(c) for c in COLORS if c in value}
        else:
            doc[field.name] = plain(value)
    return doc


def validated(claim: object) -> Claim:
    """``claim`` checked field by field (a claim built in Python may hold anything): the
    same claim, normalised, or ``FormatError`` naming each wrong field's JSON path."""
    return claim_from_dict(claim_to_dict(_require_claim(claim)))


def _require_claim(claim: object) -> Claim:
    """``claim``, or ``FormatError`` when it is not a :class:`Claim`."""
    if not isinstance(claim, Claim):
        raise FormatError(f"$: expected a Claim, got {type(claim).__name__}",
                          (("$", "expected a Claim"),))  # fmt: skip
    return claim


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a claim, as shipped in the package."""
    return schemas.schema("claim")


def _board_to_dict(board: object) -> object:
    if not isinstance(board, ClaimedBoard):
        return plain(board)
    return {
        f.name: plain(getattr(board, f.name))
        for f in attrs.fields(ClaimedBoard)
        if getattr(board, f.name) is not None
    }


def _per_player(reader: Reader, value: object, path: str, read: Any) -> tuple[Any, ...] | None:
    items = reader.array(value, path, most=4)
    if items is None:
        return None
    if not items:
        reader.fail(path, "expected one entry per player")
        return None
    return tuple(None if v is None else read(reader, v, f"{path}[{i}]")
                 for i, v in enumerate(items))  # fmt: skip


def _board(reader: Reader, value: object, path: str) -> ClaimedBoard:
    doc = reader.obj(value, path, _BOARD_KEYS)
    if doc is None:
        return ClaimedBoard()
    score = reader.integer(doc["score"], f"{path}.score") if doc.get("score") is not None else None
    wall = _wall(reader, doc["wall"], f"{path}.wall") if doc.get("wall") is not None else None
    lines = None
    if doc.get("pattern_lines") is not None:
        lines = _lines(reader, doc["pattern_lines"], f"{path}.pattern_lines")
    floor = _floor(reader, doc["floor"], f"{path}.floor") if doc.get("floor") is not None else None
    return ClaimedBoard(score, wall, lines, floor)


def _wall(reader: Reader, value: object, path: str) -> Wall | None:
    rows = reader.array(value, path, length=5)
    if rows is None:
        return None
    wall = []
    for r, row in enumerate(rows):
        cells = reader.array(row, f"{path}[{r}]", length=5)
        if cells is None:
            continue
        wall.append(tuple(None if cell is None else reader.color(cell, f"{path}[{r}][{c}]")
                          for c, cell in enumerate(cells)))  # fmt: skip
    return tuple(wall) if len(wall) == 5 else None


def _lines(reader: Reader, value: object, path: str) -> Lines | None:
    items = reader.array(value, path, length=5)
    if items is None:
        return None
    lines = []
    for i, line in enumerate(items):
        line_path = f"{path}[{i}]"
        tiles = reader.array(line, line_path)
        if tiles is None:
            continue
        colors = [reader.color(t, f"{line_path}[{k}]") for k, t in enumerate(tiles)]
        if len(tiles) > i + 1:
            reader.fail(line_path, fill("pattern line {n} has {n} {n:space|spaces}, not {tiles}",
                                        "en", n=i + 1, tiles=len(tiles)))
        elif len(set(colors)) > 1 and None not in colors:
            reader.fail(line_path, "a pattern line holds one colour (P2)")
        lines.append(tuple(c for c in colors if c is not None))
    return tuple(lines) if len(lines) == 5 else None


def _floor(reader: Reader, value: object, path: str) -> tuple[FloorItem, ...] | None:
    items = reader.array(value, path, most=FLOOR_SIZE)
    if items is None:
        return None
    floor = [reader.floor_item(v, f"{path}[{i}]") for i, v in enumerate(items)]
    if floor.count(MARKER) > 1:
        reader.fail(path, "the starting player marker is one piece")
    return tuple(t for t in floor if t is not None)


def _check_consistent(reader: Reader, claim: Claim, scores_given: bool) -> None:
    """Fields that must agree with each other."""
    lengths = {name: len(value) for name in ("scores", "bonuses", "boards", "pattern_lines")
               if isinstance(value := getattr(claim, name), Sequence)}  # fmt: skip
    if len(set(lengths.values())) > 1:
        reader.fail("$", "scores, bonuses, boards and pattern_lines need one entry per player "
                    f"each; got {', '.join(f'{k}: {v}' for k, v in lengths.items())}")
        return
    boards = claim.boards or ()
    if not scores_given and (not boards or any(b is None or b.score is None for b in boards)):
        reader.fail("$.scores", "required unless every board gives its score")
    for p, board in enumerate(boards):
        if board is None:
            continue
        scores = claim.scores or ()
        if board.score is not None and p < len(scores) and board.score != scores[p]:
            reader.fail(f"$.boards[{p}].score", f"{board.score} differs from $.scores[{p}] "
                        f"({scores[p]})")  # fmt: skip
        lines = claim.pattern_lines or ()
        if board.pattern_lines is not None and p < len(lines) and lines[p] is not None:
            reader.fail(f"$.boards[{p}].pattern_lines", f"given twice (also $.pattern_lines[{p}])")
