"""The engine protocol, version 1: JSON lines between the referee and an Azul engine.

The referee writes one JSON object per line to the engine's standard input; the engine
answers each with exactly one JSON object per line on its standard output.  The
messages are described in ``docs/engine-protocol.md`` and, as a JSON Schema, in
``azul_rules/formats/schemas/engine-protocol.schema.json``.

This module holds what both sides share and needs no subprocess: the request shapes,
the strict reading of the engine's replies (:func:`read_hello`, :func:`read_moves`,
:func:`read_view`), and the referee's own view of a position in the same shape
(:func:`referee_view`), reduced by :func:`comparable` to the facts an engine may report.

It needs no optional extra, so that the reference engine (``python -m
azul_rules.engine``) runs on the core alone; ``azul_rules.testing.protocol`` gives the
same names to the engine-testing kit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from azul_rules.core.colors import COLORS, Color
from azul_rules.core.errors import FormatError
from azul_rules.core.moves import Move, Refill
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.shown import clipped, shown
from azul_rules.core.state import GameState
from azul_rules.formats import schemas
from azul_rules.formats.jsonio import move_from_dict, to_dict

__all__ = [
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "REQUEST_TYPES",
    "EngineInfo",
    "ProtocolError",
    "comparable",
    "factories_doc",
    "move_doc",
    "read_hello",
    "read_moves",
    "read_view",
    "referee_view",
    "schema",
]

PROTOCOL_VERSION: Final = 1
"""The version of the protocol this referee speaks (``hello``'s ``protocol``)."""

MAX_LINE_BYTES: Final = 1 << 20
"""The longest line either side accepts (1 MiB, newline included)."""

REQUEST_TYPES: Final = ("hello", "new_game", "legal_moves", "apply", "state", "refill", "quit")
"""Every request of protocol version 1."""

_NAMES: Final = {c: c.name.lower() for c in COLORS}
_BY_NAME: Final = {name: c for c, name in _NAMES.items()}
_PHASES: Final = tuple(p.value for p in Phase)


class ProtocolError(Exception):
    """The engine failed to speak the protocol: no reply in time, a reply that is not
    JSON or not of the expected shape, an early exit.  ``line`` is the offending reply
    (shortened), ``request`` the request it answered, ``stderr`` the tail of the
    engine's standard error, ``status`` its exit status once it has ended."""

    def __init__(
        self,
        message: str,
        *,
        request: str | None = None,
        line: str | None = None,
        stderr: str = "",
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.request = request
        self.line = line
        self.stderr = stderr
        self.status = status

    def __str__(self) -> str:
        where = f" (answering {self.request})" if self.request else ""
        return f"{self.message}{where}"


@attrs.frozen
class EngineInfo:
    """What the engine says of itself in its reply to ``hello``."""

    protocol: int
    name: str = "engine"
    legal_moves: bool = False
    variants: tuple[Variant, ...] = (Variant.COLORED,)


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (draft 2020-12), shipped in the package as
    ``azul_rules/formats/schemas/engine-protocol.schema.json``."""
    return schemas.schema(schemas.PROTOCOL)


def factories_doc(factories: Sequence[Sequence[Color]]) -> list[list[str]]:
    """Factories as the protocol writes them: one list of colour names each."""
    return [[_NAMES[t] for t in factory] for factory in factories]


# -- reading the engine's replies ----------------------------------------------------------


def _fail(path: str, what: str) -> ProtocolError:
    return ProtocolError(f"{path}: {what}")


def read_hello(reply: Mapping[str, Any]) -> EngineInfo:
    """The engine's ``hello`` reply: ``protocol`` (required, 1), ``engine`` (a name),
    ``legal_moves`` (true when it answers ``legal_moves``) and ``variants``."""
    protocol = reply.get("protocol")
    if type(protocol) is not int:
        raise _fail(
            "$.protocol", f"expected the protocol version (an integer), got {shown(protocol)}"
        )
    if protocol != PROTOCOL_VERSION:
        raise ProtocolError(
            f"the engine speaks protocol {protocol}; this referee speaks {PROTOCOL_VERSION}"
        )
    name = reply.get("engine", "engine")
    if not isinstance(name, str):
        raise _fail("$.engine", f"expected a name (a string), got {shown(name)}")
    lists = reply.get("legal_moves", False)
    if not isinstance(lists, bool):
        raise _fail("$.legal_moves", f"expected true or false, got {shown(lists)}")
    raw = reply.get("variants", ["colored"])
    if not isinstance(raw, list) or not raw or any(v not in ("colored", "grey") for v in raw):
        raise _fail(
            "$.variants", f'expected a non-empty list of "colored", "grey"; got {shown(raw)}'
        )
    return EngineInfo(protocol, clipped(name), lists, tuple(Variant(v) for v in dict.fromkeys(raw)))


def read_moves(reply: Mapping[str, Any]) -> tuple[Move, ...]:
    """The moves of a ``legal_moves`` reply, in the JSON move format."""
    raw = reply.get("moves")
    if not isinstance(raw, list):
        raise _fail("$.moves", f"expected a list of moves, got {_short(raw)}")
    moves = []
    for index, item in enumerate(raw):
        key = _move_key(item)
        move = _MOVES.get(key) if key is not None else None
        if move is None:
            try:
                move = move_from_dict(item)
            except FormatError as error:
                raise _fail(
                    f"$.moves[{index}]", f"not a move in the JSON move format: {error}"
                ) from None
            if key is not None and len(_MOVES) < 10_000:
                _MOVES[key] = move
        moves.append(move)
    return tuple(moves)


_MOVES: Final[dict[tuple[tuple[str, object], ...], Move]] = {}
"""Moves already read, by their flat JSON form: the same few hundred recur."""


def _move_key(item: object) -> tuple[tuple[str, object], ...] | None:
    if not isinstance(item, dict) or len(item) > 5:
        return None
    if not all(isinstance(v, (str, int)) and type(v) is not bool for v in item.values()):
        return None
    return tuple(sorted(item.items()))


def read_view(reply: Mapping[str, Any], players: int) -> dict[str, object]:
    """The engine's ``state`` reply, checked and reduced by :func:`comparable` to the
    facts it reports.  Raises :class:`ProtocolError` naming the first misshapen field."""
    view = reply.get("state")
    if not isinstance(view, dict):
        raise _fail("$.state", f"expected an object, got {_short(view)}")
    boards = view.get("players")
    if not isinstance(boards, list) or len(boards) != players:
        raise _fail("$.state.players", f"expected a list of {players} boards, got {_short(boards)}")
    for index, board in enumerate(boards):
        _check_board(board, f"$.state.players[{index}]")
    _check_table(view)
    return comparable(view)


def _check_board(board: object, path: str) -> None:
    if not isinstance(board, dict):
        raise _fail(path, f"expected an object, got {_short(board)}")
    if not _is_int(board.get("score")):
        raise _fail(f"{path}.score", f"expected an integer, got {_short(board.get('score'))}")
    if "pattern_lines" in board:
        lines = board["pattern_lines"]
        if not isinstance(lines, list) or len(lines) != 5:
            raise _fail(f"{path}.pattern_lines", "expected a list of 5 lists of colours")
        for index, line in enumerate(lines):
            _check_colors(line, f"{path}.pattern_lines[{index}]")
    if "wall" in board:
        wall = board["wall"]
        if not isinstance(wall, list) or len(wall) != 5:
            raise _fail(f"{path}.wall", "expected 5 rows of 5 entries (a colour or null)")
        for r, row in enumerate(wall):
            if not isinstance(row, list) or len(row) != 5:
                raise _fail(f"{path}.wall[{r}]", "expected 5 entries (a colour or null)")
            for c, tile in enumerate(row):
                if tile is not None and tile not in _BY_NAME:
                    raise _fail(
                        f"{path}.wall[{r}][{c}]", f"expected a colour or null, got {_short(tile)}"
                    )
    if "floor" in board:
        floor = board["floor"]
        if not isinstance(floor, list) or any(t != "marker" and t not in _BY_NAME for t in floor):
            raise _fail(
                f"{path}.floor", f'expected a list of colours and "marker", got {_short(floor)}'
            )


def _check_table(view: dict[str, Any]) -> None:
    for key in ("round", "current_player", "start_player"):
        if key in view and not _is_int(view[key]):
            raise _fail(f"$.state.{key}", f"expected an integer, got {_short(view[key])}")
    holder = view.get("marker_holder")
    if holder is not None and not _is_int(holder):
        raise _fail("$.state.marker_holder", "expected a player number or null")
    if "phase" in view and view["phase"] not in _PHASES:
        raise _fail(
            "$.state.phase", f"expected one of {', '.join(_PHASES)}, got {_short(view['phase'])}"
        )
    if "factories" in view:
        factories = view["factories"]
        if not isinstance(factories, list):
            raise _fail("$.state.factories", "expected a list of lists of colours")
        for index, factory in enumerate(factories):
            _check_colors(factory, f"$.state.factories[{index}]")
    if "center" in view:
        _check_colors(view["center"], "$.state.center")
    for key in ("bag", "lid"):
        if key in view:
            counts = view[key]
            if not isinstance(counts, dict) or any(
                k not in _BY_NAME or not _is_int(v) or v < 0 for k, v in counts.items()
            ):
                raise _fail(f"$.state.{key}", "expected counts by colour name")
    if "winners" in view:
        winners = view["winners"]
        if not isinstance(winners, list) or not all(_is_int(w) for w in winners):
            raise _fail("$.state.winners", "expected a list of player numbers")


def _check_colors(tiles: object, path: str) -> None:
    if not isinstance(tiles, list):
        raise _fail(path, f"expected a list of colours, got {_short(tiles)}")
    for index, tile in enumerate(tiles):
        if tile not in _BY_NAME:
            raise _fail(f"{path}[{index}]", f"expected a colour name, got {_short(tile)}")


def _is_int(value: object) -> bool:
    return type(value) is int


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# -- views in one comparable form -----------------------------------------------------------


def referee_view(state: GameState) -> dict[str, Any]:
    """The referee's view of ``state`` in the shape of a ``state`` reply: the position
    of ``docs/json-format.md`` (less ``format_version``, ``variant``, ``rng_state`` and
    ``last_scoring``), plus ``winners`` once the game is over."""
    doc = to_dict(state)
    for key in ("format_version", "variant", "rng_state", "last_scoring"):
        doc.pop(key, None)
    doc["winners"] = list(state.outcome.winners) if state.outcome is not None else []
    return doc


def comparable(view: Mapping[str, Any]) -> dict[str, object]:
    """The facts a (well-shaped) view reports, by JSON path, in a form where equal
    positions give equal values: multisets sorted, counts filled in for every colour.
    A field left out is not reported, so it is absent here too."""
    facts: dict[str, object] = {}
    for key in ("phase", "round", "current_player", "start_player", "marker_holder"):
        if key in view:
            facts[f"$.{key}"] = view[key]
    if "factories" in view:
        facts["$.factories"] = tuple(tuple(sorted(f, key=_rank)) for f in view["factories"])
    if "center" in view:
        facts["$.center"] = tuple(sorted(view["center"], key=_rank))
    for key in ("bag", "lid"):
        if key in view:
            counts = view[key]
            facts[f"$.{key}"] = tuple((name, counts.get(name, 0)) for name in _BY_NAME)
    if "winners" in view:
        facts["$.winners"] = tuple(sorted(view["winners"]))
    for index, board in enumerate(view["players"]):
        path = f"$.players[{index}]"
        facts[f"{path}.score"] = board["score"]
        for line, tiles in enumerate(board.get("pattern_lines", ())):
            facts[f"{path}.pattern_lines[{line}]"] = tuple(sorted(tiles, key=_rank))
        for row, tiles in enumerate(board.get("wall", ())):
            facts[f"{path}.wall[{row}]"] = tuple(tiles)
        if "floor" in board:
            facts[f"{path}.floor"] = tuple(board["floor"])
    return facts


def _rank(name: str) -> int:
    return COLORS.index(_BY_NAME[name])


def move_doc(move: Move, player: int | None = None) -> dict[str, Any]:
    """A move as ``apply`` sends it: the JSON move format, naming the player to move."""
    doc = to_dict(move)
    if player is not None and not isinstance(move, Refill):
        doc["player"] = player
    return doc
