"""Moves as integers and positions as vectors: the action codec shared by the OpenSpiel
game (:mod:`azul_rules.ai.spiel`) and the PettingZoo environment
(:mod:`azul_rules.ai.pettingzoo`).  Pure Python, no dependency beyond the core.

Action ids (the layout Azul AI projects share), with ``F`` factories (5, 7, 9 for 2, 3, 4
players, S2):

* a :class:`~azul_rules.Take` is ``source * 30 + color * 6 + destination``: ``source``
  ``0 … F-1`` a factory, ``F`` the centre; ``color`` in S5 order (blue 0, yellow 1, red 2,
  black 3, white 4); ``destination`` ``0 … 4`` a pattern line, ``5`` the floor;
* on the grey wall, a :class:`~azul_rules.PlaceTile` is ``(F + 1) * 30 + line * 5 + column``.

So ``num_actions`` is 180 / 240 / 300 on the coloured wall (2 / 3 / 4 players) and 25 more
on the grey wall.  A move's ``player`` field plays no part in its id.

>>> import azul_rules as az
>>> from azul_rules.ai import actions
>>> actions.action_id(az.parse_move("3B2"), players=2)   # factory 3, blue, line 2
61
>>> actions.move_from_action(61, players=2)
Take(source=2, color=Color.BLUE, line=1, player=None)
>>> actions.action_id(az.Take(az.CENTER, az.Color.WHITE, az.FLOOR), players=2)
179
>>> actions.action_id(az.PlaceTile(line=4, column=4), players=2)
204
>>> actions.num_actions(2, "colored"), actions.num_actions(4, "grey")
(180, 325)

``observation(state, player)`` is a fixed-length vector of floats seen from ``player``'s
seat; :func:`observation_layout` names each of its fields (see ``docs/ai.md``).
"""

from __future__ import annotations

import itertools
import math
import operator
from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import attrs

from azul_rules.core._accelerate import prefer_compiled
from azul_rules.core.board import PlayerBoard
from azul_rules.core.colors import CENTER, FLOOR, Color
from azul_rules.core.errors import FormatError
from azul_rules.core.moves import Move, PlaceTile, Refill, TableTake, Take
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.scoring import COLOR_BONUS, COLUMN_BONUS, ROW_BONUS
from azul_rules.core.shown import fill, number, shown
from azul_rules.core.state import GameState, _compiled, new_game

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "MAX_SCORE",
    "Disagreement",
    "ObservationField",
    "action_id",
    "action_to_string",
    "factory_count",
    "legal_action_mask",
    "legal_actions",
    "move_from_action",
    "num_actions",
    "num_take_actions",
    "observation",
    "observation_layout",
    "observation_size",
    "observation_string",
    "observe_into",
    "referee_outputs",
    "referee_start",
    "referee_step",
    "table_string",
    "utilities",
]

_COLORS: Final = tuple(Color)
_TAKES_PER_SOURCE: Final = 30  # 5 colours x 6 destinations
_PLACEMENTS: Final = 25  # 5 lines x 5 columns
_PHASES: Final = (Phase.FACTORY_OFFER, Phase.WALL_TILING, Phase.REFILL, Phase.GAME_OVER)

DEFAULT_MAX_ROUNDS: Final = 50
"""The round cap of the OpenSpiel game and the PettingZoo environment by default: a game
still going after this many rounds stops there (a draw in OpenSpiel, a truncation in
PettingZoo).  Random games end within 12 rounds on the coloured wall."""

MAX_SCORE: Final = 25 * (5 + 5) + 5 * (ROW_BONUS + COLUMN_BONUS + COLOR_BONUS)
"""An upper bound of any score: 25 wall tiles of at most 10 points each (a row and a
column of 5, W3), and every end bonus (E2, ``azul_rules.core.scoring``'s).  The
observation's ``score`` fields lie in ``[0, MAX_SCORE]``."""


# Arguments of the wrong type raise FormatError (a TypeError and a ValueError, as
# svg.board does); arguments of the right type but out of range raise ValueError.


def _check_players(players: object) -> int:
    count = _integer(players)
    if count is None:
        raise FormatError(f"the number of players is an int (2, 3 or 4), not {_kind(players)} (S1)")
    if count not in (2, 3, 4):
        raise ValueError(f"Azul is played by 2, 3 or 4 players, not {shown(count)} (S1)")
    return count


def _integer(value: object) -> int | None:
    """``value`` as an int when it is one: an int or an integer scalar such as numpy's
    (``operator.index`` accepts it); never a bool.  ``None`` otherwise."""
    if type(value) is int:
        return value
    if isinstance(value, bool):  # numpy's bool_ has no __index__: refused below
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _check_state(state: object, function: str) -> GameState:
    if not isinstance(state, GameState):
        raise FormatError(f"{function}() reads a GameState, not {_kind(state)}")
    return state


def _kind(value: object) -> str:
    """What a value of the wrong type is, for a message: its type and, when short, its
    repr (a GameState's repr is long and says nothing the type does not)."""
    name = type(value).__name__
    text = shown(value, 40)
    return name if text.endswith("...") else f"{name} {text}"


def _variant(variant: Variant | str) -> Variant:
    if not isinstance(variant, str):
        raise FormatError(f"variant must be 'colored' or 'grey', not {_kind(variant)}")
    try:
        return Variant(variant)
    except ValueError:
        raise ValueError(f"variant must be 'colored' or 'grey', not {shown(variant)}") from None


def factory_count(players: int) -> int:
    """The number of factory displays: 5, 7 or 9 for 2, 3 or 4 players (S2).

    :raises ValueError: for a player count other than 2, 3 and 4.
    :raises FormatError: for a player count that is not an int (numpy integers are ints
        here; a bool is not).
    """
    return 2 * _check_players(players) + 1


def num_take_actions(players: int) -> int:
    """The ids of takes: ``(F + 1) * 30`` (180, 240, 300); the grey wall's placements
    follow them.

    :raises ValueError: for a player count other than 2, 3 and 4.
    :raises FormatError: for a player count that is not an int (numpy integers are ints
        here; a bool is not).
    """
    return (factory_count(players) + 1) * _TAKES_PER_SOURCE


def num_actions(players: int, variant: Variant | str = Variant.COLORED) -> int:
    """The size of the action space: the takes, plus 25 placements on the grey wall.

    :raises ValueError: for a player count other than 2, 3 and 4, or a variant other
        than ``"colored"`` and ``"grey"``.
    :raises FormatError: for a player count that is not an int, or a variant that is not
        a string.
    """
    takes = num_take_actions(players)
    return takes + _PLACEMENTS if _variant(variant) is Variant.GREY else takes


def action_id(move: Move, players: int) -> int:
    """The id of a compact move (a ``Take`` or a ``PlaceTile``) in a game of ``players``.
    The move's ``player`` is ignored.

    :raises ValueError: for a move that has no id: a ``TableTake`` (use
        ``move.as_take()``), a ``Refill`` (the table's draws are chance, not actions), or
        a take or placement off the table (factory 7 with 2 players, line 6, the marker as
        a colour); a player count other than 2, 3 and 4.
    :raises FormatError: for something that is not a move or a player count that is not
        an int.
    """
    factories = factory_count(players)
    if type(move) is Take:
        return _take_id(move, players, factories)
    if type(move) is PlaceTile:
        line, column = move.line, move.column
        if not (type(line) is int and type(column) is int and 0 <= line < 5 and 0 <= column < 5):
            raise ValueError(f"{_move(move)} has no action id: lines and columns are 0-4 (S4)")
        return (factories + 1) * _TAKES_PER_SOURCE + line * 5 + column
    if isinstance(move, TableTake):
        raise ValueError(
            f"{_move(move)} has no action id: a TableTake describes a physical take; its "
            "compact move is move.as_take()"
        )
    if isinstance(move, Refill):
        raise ValueError(
            f"{_move(move)} has no action id: a Refill enters the table's draws, which are "
            "chance events, not a player's action"
        )
    raise FormatError(f"action_id() reads a Take or a PlaceTile, not {_kind(move)}")


def _take_id(move: Take, players: int, factories: int) -> int:
    source, color, line = move.source, move.color, move.line
    if source == CENTER:
        source = factories
    elif not (type(source) is int and 0 <= source < factories):
        raise ValueError(
            f"{_move(move)} has no action id: with {players} players the sources are "
            f"factories 0-{factories - 1} and the centre (S2)"
        )
    if not isinstance(color, Color):
        raise ValueError(f"{_move(move)} has no action id: its colour is not a tile colour (T4)")
    if line == FLOOR:
        line = 5
    elif not (type(line) is int and 0 <= line < 5):
        raise ValueError(f"{_move(move)} has no action id: lines are 0-4 or FLOOR (S4)")
    return source * _TAKES_PER_SOURCE + int(color) * 6 + line


def _move(move: object) -> str:
    return shown(move, 120)


def move_from_action(
    action: int, players: int, variant: Variant | str | None = None
) -> Take | PlaceTile:
    """The move of action id ``action``: a ``Take``, or a ``PlaceTile`` for the ids after
    the takes.  With ``variant="colored"`` the placement ids are refused; with no
    variant, both walls' ids are accepted.

    :raises ValueError: for an id out of range, a player count other than 2, 3 and 4, or
        a variant other than ``"colored"`` and ``"grey"``.
    :raises FormatError: for an id or a player count that is not an int (numpy integers
        are ints here), or a variant that is not a string.
    """
    players = _check_players(players)
    moves = _MOVES[players]
    action = _action(action)
    limit = len(moves)
    if variant is not None and variant != "grey":
        if variant != "colored":
            _variant(variant)  # raises
        limit -= _PLACEMENTS
    if not 0 <= action < limit:
        wall = "" if variant is None else f" on the {_variant(variant).value} wall"
        raise ValueError(
            f"action id {number(action)} is out of range: {players} players{wall} have "
            f"ids 0-{limit - 1}"
        )
    return moves[action]


def _action(action: object) -> int:
    """An action id as an int: an int, or a numpy integer; never a bool."""
    number = _integer(action)
    if number is None:
        raise FormatError(f"an action id is an int, not {_kind(action)}")
    return number


# Every move with an id, built once: _PLACE[line][column], _FACTORY_TAKES[source][color]
# [destination] and _CENTER_TAKES[color][destination] (destination 5 is the floor).
_PLACE: Final = tuple(tuple(PlaceTile(line, column) for column in range(5)) for line in range(5))
_DESTINATIONS: Final = (0, 1, 2, 3, 4, FLOOR)
_FACTORY_TAKES: Final = tuple(
    tuple(tuple(Take(s, c, d) for d in _DESTINATIONS) for c in _COLORS) for s in range(9)
)
_CENTER_TAKES: Final = tuple(tuple(Take(CENTER, c, d) for d in _DESTINATIONS) for c in _COLORS)


def _decode(action: int, players: int) -> Take | PlaceTile:
    takes = num_take_actions(players)
    if action >= takes:
        line, column = divmod(action - takes, 5)
        return _PLACE[line][column]
    source, rest = divmod(action, _TAKES_PER_SOURCE)
    color, destination = divmod(rest, 6)
    if source == takes // _TAKES_PER_SOURCE - 1:
        return _CENTER_TAKES[color][destination]
    return _FACTORY_TAKES[source][color][destination]


# _MOVES[players][action]: the move of every id, both walls.
_MOVES: Final = {
    p: tuple(_decode(a, p) for a in range(num_take_actions(p) + _PLACEMENTS)) for p in (2, 3, 4)
}


def _legal_actions_reference(state: GameState) -> list[int]:
    """The ids of ``state.legal_moves()``, sorted (empty while the game waits for a
    ``Refill`` or is over).

    :raises FormatError: for anything but a ``GameState``.
    """
    players = len(_check_state(state, "legal_actions").players)
    known = _KNOWN_IDS[players]
    ids = []
    for move in state.legal_moves():
        action = known.get(id(move))
        if action is None:
            action = _learn_id(move, players)
        ids.append(action)
    ids.sort()
    return ids


legal_actions = prefer_compiled(_compiled, _legal_actions_reference, "legal_actions")


# The referee lists legal moves from objects it builds once, so their ids are looked up
# by object identity: _KNOWN_IDS[players][id(move)].  Each object looked up is kept alive
# in _KEPT, so that no other object can take its id() while the entry exists.
_KNOWN_IDS: Final[dict[int, dict[int, int]]] = {2: {}, 3: {}, 4: {}}
_KEPT: Final[list[object]] = []


def _learn_id(move: Take | PlaceTile, players: int) -> int:
    if len(_KEPT) > 10_000:  # only if the referee ever built fresh moves each time
        _KEPT.clear()
        for table in _KNOWN_IDS.values():
            table.clear()
    action = action_id(move, players)
    _KEPT.append(move)
    _KNOWN_IDS[players][id(move)] = action
    return action


def legal_action_mask(state: GameState) -> list[int]:
    """``num_actions(players, state.variant)`` zeros, with 1 at each legal id.

    :raises FormatError: for anything but a ``GameState``.
    """
    _check_state(state, "legal_action_mask")
    mask = [0] * num_actions(len(state.players), state.variant)
    for action in legal_actions(state):
        mask[action] = 1
    return mask


def action_to_string(action: int, players: int) -> str:
    """An action in words: ``"3B2"``-style notation for a take (1-based, ``C`` the centre,
    ``F`` the floor), ``"place line 2 at column 4"`` for a placement.

    :raises ValueError: as :func:`move_from_action`: an id out of range, a player count
        other than 2, 3 and 4.
    :raises FormatError: as :func:`move_from_action`: an id or a player count that is not
        an int.
    """
    move = move_from_action(action, players)
    return str(move)


def utilities(winners: Iterable[int], players: int) -> list[float]:
    """The returns of a finished game (E4), zero-sum: each loser pays ``1 / (players -
    1)`` and the winners split the pot.  A sole winner gets 1; a victory shared by every
    player gives 0 to all.  The returns sum to 0 (within float rounding).

    ``winners`` lists distinct players, ``0`` to ``players - 1``, in any order.

    >>> utilities((0,), 2), utilities((1,), 3)
    ([1.0, -1.0], [-0.5, 1.0, -0.5])
    >>> [round(u, 3) for u in utilities((0, 2), 4)]
    [0.333, -0.333, 0.333, -0.333]

    :raises ValueError: for no winner, a repeated winner or one out of range.
    :raises FormatError: (a ``ValueError`` too) for winners that are not ints (a ``bool``
        is refused; numpy integers are ints here, as for action ids).
    """
    players = _check_players(players)
    won = _winners(winners, players)
    share = (players - len(won)) / (players - 1) / len(won)
    lose = -1.0 / (players - 1)
    return [share if p in won else lose for p in range(players)]


def _winners(winners: object, players: int) -> frozenset[int]:
    """The distinct winners, each a player ``0 … players - 1`` (E4)."""
    if isinstance(winners, (str, bytes)) or not isinstance(winners, Iterable):
        raise FormatError(f"winners is a sequence of players (ints), not {_kind(winners)}")
    listed = list(itertools.islice(winners, players + 1))  # bounded: a repeat lies within
    won: set[int] = set()
    for winner in listed:
        if isinstance(winner, bool):
            raise FormatError(f"a winner is a player (an int), not the bool {winner}")
        try:
            player = winner if type(winner) is int else operator.index(winner)
        except TypeError:
            raise FormatError(f"a winner is a player (an int), not {_kind(winner)}") from None
        if not 0 <= player < players:
            raise ValueError(
                f"winners must be players 0 to {players - 1}, got {shown(player)} (E4)"
            )
        if player in won:
            raise ValueError(f"winners must be distinct players; {player} is repeated (E4)")
        won.add(player)
    if not won:
        raise ValueError(f"winners must name at least one player, 0 to {players - 1} (E4)")
    return frozenset(won)


# -- observations -------------------------------------------------------------------------


@attrs.frozen
class ObservationField:
    """One field of the observation vector: ``vector[offset : offset + size]``, read as an
    array of ``shape``; every value lies in ``[low, high]``."""

    name: str
    offset: int
    shape: tuple[int, ...]
    low: float
    high: float
    description: str

    @property
    def size(self) -> int:
        """The number of floats in the field."""
        return math.prod(self.shape)


def _field_specs(players: int) -> list[tuple[str, tuple[int, ...], float, float, str]]:
    factories = factory_count(players)
    specs: list[tuple[str, tuple[int, ...], float, float, str]] = []
    for seat in range(players):
        later = fill("{seat} {seat:turn|turns}", "en", seat=seat)
        who = "the observer" if seat == 0 else f"the player {later} after the observer"
        specs += [
            (f"board{seat}.score", (1,), 0, MAX_SCORE, f"the score of {who}"),
            (f"board{seat}.pattern_lines", (5, 5), 0, 5,
             "[line][colour]: tiles of that colour in that pattern line"),
            (f"board{seat}.wall", (5, 5, 5), 0, 1,
             "[row][column][colour]: 1 where a tile of that colour lies on the wall"),
            (f"board{seat}.floor", (5,), 0, 7, "[colour]: tiles on the floor line"),
            (f"board{seat}.floor_marker", (1,), 0, 1,
             "1 when the starting player marker lies on this floor (F3)"),
        ]  # fmt: skip
    specs += [
        ("factories", (factories, 5), 0, 4, "[factory][colour]: tiles on each factory"),
        ("center", (5,), 0, 3 * factories, "[colour]: tiles in the centre"),
        ("center_marker", (1,), 0, 1, "1 while the marker lies in the centre (T3)"),
        ("bag", (5,), 0, 20, "[colour]: tiles in the bag"),
        ("lid", (5,), 0, 20, "[colour]: tiles in the box lid (discard)"),
        ("round", (1,), 1, math.inf, "the round number, from 1"),
        ("phase", (4,), 0, 1, "one-hot: factory offer, wall tiling, refill, game over"),
        ("to_move", (players,), 0, 1,
         "one-hot, by seat after the observer: the player to move (zeros when over)"),
        ("start_player", (players,), 0, 1,
         "one-hot, by seat after the observer: the player who started this round"),
    ]  # fmt: skip
    return specs


_LAYOUTS: dict[int, tuple[ObservationField, ...]] = {}


def observation_layout(players: int) -> tuple[ObservationField, ...]:
    """The fields of ``observation(state, player)`` in order, for ``players`` players.

    Boards come first, the observer's own (``board0``) then the others in turn order
    (``board1`` is the next player to the observer's left); then the table.  Seats in
    ``to_move`` and ``start_player`` count from the observer likewise.

    :raises ValueError: for a player count other than 2, 3 and 4.
    :raises FormatError: for a player count that is not an int (numpy integers are ints
        here; a bool is not).
    """
    players = _check_players(players)
    found = _LAYOUTS.get(players)
    if found is None:
        fields = []
        offset = 0
        for name, shape, low, high, description in _field_specs(players):
            field = ObservationField(name, offset, shape, float(low), float(high), description)
            fields.append(field)
            offset += field.size
        found = _LAYOUTS[players] = tuple(fields)
    return found


def observation_size(players: int) -> int:
    """The length of the observation vector (364, 533, 702 for 2, 3, 4 players).

    :raises ValueError: for a player count other than 2, 3 and 4.
    :raises FormatError: for a player count that is not an int (numpy integers are ints
        here; a bool is not).
    """
    last = observation_layout(players)[-1]
    return last.offset + last.size


def _counts(tiles: Sequence[object]) -> list[float]:
    counts = tiles.count
    return [float(counts(color)) for color in _COLORS]


# Board vectors by board object: a board is immutable and carried over unchanged from
# state to state until its owner plays, so most boards of an observation were seen
# before.  Each entry keeps its board alive, so that no other object can take its id().
_BOARD_VECTORS: Final[dict[int, tuple[PlayerBoard, list[float]]]] = {}


def _board_vector(board: PlayerBoard) -> list[float]:
    found = _BOARD_VECTORS.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    out = [float(board.score)]
    for line in board.pattern_lines:
        row = [0.0] * 5
        if line.color is not None:
            row[line.color] = float(line.count)
        out += row
    for wall_row in board.wall:
        for tile in wall_row:
            space = [0.0] * 5
            if tile is not None:
                space[tile] = 1.0
            out += space
    out += _counts(board.floor)
    out.append(0.0 if all(isinstance(item, Color) for item in board.floor) else 1.0)
    if len(_BOARD_VECTORS) >= 1024:
        _BOARD_VECTORS.clear()
    _BOARD_VECTORS[id(board)] = (board, out)
    return out


def _check_player(state: GameState, player: object, function: str) -> int:
    """``player`` as an int seat of ``state`` (numpy integers accepted, bools refused)."""
    players = len(_check_state(state, function).players)
    seat = _integer(player)
    if seat is None:
        raise FormatError(f"player is an int (0-based), not {_kind(player)}")
    if not 0 <= seat < players:
        raise ValueError(f"player must be 0 to {players - 1}, not {shown(seat)}")
    return seat


def observation(state: GameState, player: int) -> list[float]:
    """``state`` as ``observation_size(players)`` floats seen from ``player``'s seat, in
    the order of :func:`observation_layout`.

    :raises ValueError: for a player out of range.
    :raises FormatError: for a ``state`` that is not a ``GameState`` or a ``player`` that
        is not an int (numpy integers are ints here; a bool is not).
    """
    player = _check_player(state, player, "observation")
    players = len(state.players)
    out: list[float] = []
    for seat in range(players):
        out += _board_vector(state.players[(player + seat) % players])
    for tiles in state.factories:
        out += _counts(tiles)
    out += _counts(state.center)
    marker_in_center = state.marker_holder is None and state.phase is Phase.FACTORY_OFFER
    out.append(1.0 if marker_in_center else 0.0)
    out += _counts(state.bag)
    out += _counts(state.lid)
    out.append(float(state.round))
    out += [1.0 if state.phase is phase else 0.0 for phase in _PHASES]
    to_move = [0.0] * players
    if not state.is_over:
        to_move[(state.current_player - player) % players] = 1.0
    out += to_move
    started = [0.0] * players
    started[(state.start_player - player) % players] = 1.0
    out += started
    return out


def _observe_into_reference(state: GameState, player: int, vector: Any, mask: Any = None) -> None:
    """Write :func:`observation` of ``state`` from ``player``'s seat into ``vector``, and,
    when ``mask`` is given, :func:`legal_action_mask` of ``state`` into ``mask``: nothing
    is allocated, for an environment that hands out arrays of its own (the PettingZoo
    environment writes each step's observation and mask this way).

    ``vector`` is a writable, C-contiguous buffer of ``observation_size(players)``
    float32s (a numpy ``float32`` array, an ``array.array("f")``); ``mask`` one of
    ``num_actions(players, state.variant)`` bytes (a numpy ``int8`` or ``uint8`` array, a
    ``bytearray``).  When it raises, nothing is written.  With the compiled core this
    is its C version.

    :raises ValueError: as :func:`observation`, and for a ``vector`` or ``mask`` of
        another length.
    :raises FormatError: as :func:`observation`, and for a ``vector`` or ``mask`` that is
        not such a buffer.
    """
    values = observation(state, player)
    target = _buffer(vector, "vector", ("f",), "float32s", len(values))
    if mask is None:
        target[:] = array("f", values).tobytes()
        return
    count = num_actions(len(state.players), state.variant)
    ids = legal_actions(state)
    holes = _buffer(mask, "mask", ("b", "B"), "bytes (int8 or uint8)", count)
    flags = bytearray(count)
    for action in ids:
        flags[action] = 1
    target[:] = array("f", values).tobytes()
    holes[:] = flags


observe_into = prefer_compiled(_compiled, _observe_into_reference, "observe_into")


def _buffer(obj: object, name: str, formats: tuple[str, ...], kind: str, count: int) -> Any:
    """``obj`` as a writable byte view of ``count`` items of one of ``formats``."""
    try:
        view = memoryview(obj)  # type: ignore[arg-type]
    except TypeError:
        raise FormatError(
            f"observe_into() writes the {name} into a buffer such as a numpy array, not "
            f"{_kind(obj)}"
        ) from None
    if view.readonly or view.format not in formats or not view.c_contiguous:
        if view.readonly:
            what = "a read-only one"
        elif view.format not in formats:
            what = f"one of format {view.format!r}"
        else:
            what = "one with gaps (not C-contiguous)"
        raise FormatError(
            f"observe_into() writes the {name} into a writable, C-contiguous buffer of "
            f"{kind}, not {what}"
        )
    if view.nbytes != count * view.itemsize:
        raise ValueError(
            f"observe_into(): the {name} holds {count} {kind}, not {view.nbytes // view.itemsize}"
        )
    return view.cast("B")


def _letters(tiles: Sequence[object]) -> str:
    return "".join(t.letter if isinstance(t, Color) else "M" for t in tiles) or "-"


def _tally(tiles: Sequence[Color]) -> str:
    counts = _counts(tiles)
    return " ".join(f"{c.letter}{int(n)}" for c, n in zip(_COLORS, counts, strict=True))


def observation_string(state: GameState, player: int) -> str:
    """The same position as text, seen from ``player``'s seat: the table, then the boards
    from the observer's on.  Letters: ``B`` blue, ``Y`` yellow, ``R`` red, ``K`` black,
    ``W`` white, ``M`` the marker, ``.`` an empty space; players numbered from 0, as the
    adapters' player ids and PettingZoo's agents (``player_0``) are.

    :raises ValueError: as :func:`observation`.
    :raises FormatError: as :func:`observation`.
    """
    player = _check_player(state, player, "observation_string")
    return _text(state, player, f"player {player}'s view; ")


def table_string(state: GameState) -> str:
    """The position as text, boards in seat order (as :func:`observation_string`, seen
    from no seat in particular).

    :raises FormatError: for anything but a ``GameState``.
    """
    return _text(_check_state(state, "table_string"), None, "")


def _text(state: GameState, player: int | None, heading: str) -> str:
    players = len(state.players)
    if state.is_over:
        status = "game over"
    else:
        phase = state.phase.value.replace("_", " ")
        status = f"{phase}, player {state.current_player} to move"
    marker = "M" if state.marker_holder is None and state.phase is Phase.FACTORY_OFFER else ""
    lines = [
        f"{heading}round {state.round}, {status}; round started by player {state.start_player}",
        "factories: " + " ".join(_letters(tiles) for tiles in state.factories),
        "centre: " + (marker + "".join(t.letter for t in state.center) or "-"),
        f"bag: {_tally(state.bag)}",
        f"lid: {_tally(state.lid)}",
    ]
    first = 0 if player is None else player
    for seat in range(players):
        index = (first + seat) % players
        board = state.players[index]
        you = " (you)" if player is not None and seat == 0 else ""
        lines.append(f"player {index}{you}: score {board.score}")
        for row in range(5):
            line = board.pattern_lines[row]
            filled = line.color.letter * line.count if line.color is not None else ""
            wall = "".join(t.letter if t is not None else "." for t in board.wall[row])
            lines.append(f"  {'.' * (line.capacity - line.count) + filled:>5} | {wall}")
        lines.append(f"  floor: {_letters(board.floor)}")
    if state.outcome is not None:
        lines.append("winners: " + ", ".join(f"player {w}" for w in state.outcome.winners))
    return "\n".join(lines)


# -- batched engines held to the referee -------------------------------------------------------


class Disagreement(AssertionError):
    """A batched engine and the referee disagree: raised by the differential checks of
    :mod:`azul_rules.ai.pgx` and :mod:`azul_rules.ai.vector`, naming the game, the step and
    what differs."""


_PARTS: Final = ("players", "factories", "center", "current_player", "marker_holder", "bag",
                 "lid", "start_player", "phase", "round", "outcome")  # fmt: skip


def referee_start(seen: GameState, *, game: int = 0) -> GameState:
    """The referee's first position of a game an engine dealt (``seen``, with the
    table's draws): a new game with external draws, the engine's first player and the
    ``Refill`` of the factories it drew (R2), held equal to ``seen``.

    :raises Disagreement: when the two positions differ.
    """
    first = new_game(len(seen.players), external_draws=True, first_player=seen.start_player,
                     variant=seen.variant)  # fmt: skip
    referee = first.apply(Refill(seen.factories))
    _same_position(referee, seen, game, 0)
    return referee


def referee_step(referee: GameState, action: int, seen: GameState, *, game: int = 0,
                 step: int = 0) -> GameState:  # fmt: skip
    """The referee's position after action id ``action`` (then the ``Refill`` of the
    factories ``seen`` shows, when the move ended a round and the engine drew), held
    equal to the engine's position ``seen``.

    :raises Disagreement: when the two positions differ (naming the parts).
    """
    after = referee.apply(move_from_action(action, len(referee.players)))
    if after.phase is Phase.REFILL:
        after = after.apply(Refill(seen.factories))
    _same_position(after, seen, game, step)
    return after


def referee_outputs(
    referee: GameState, seat: int, observed: Sequence[float], rewards: Sequence[float],
    terminated: bool, *, game: int = 0,
) -> None:  # fmt: skip
    """An engine's outputs after a step that led to ``referee``'s position: the
    observation from ``seat`` (as float32), the rewards (``utilities`` of the winners at
    the game's end, 0 before) and the termination flag.

    :raises Disagreement: at the first output that differs.
    """
    expected = observation(referee, seat)
    _expect(array("f", observed) == array("f", expected), game, "the observation")
    if referee.outcome is not None:
        paid = utilities(referee.outcome.winners, len(referee.players))
        _expect(all(abs(a - b) <= 1e-6 for a, b in zip(rewards, paid, strict=True)), game,
                "the rewards")  # fmt: skip
        _expect(terminated, game, "termination")
    else:
        _expect(not any(rewards) and not terminated, game, "the rewards")


def _same_position(referee: GameState, seen: GameState, game: int, step: int) -> None:
    if referee == seen:
        return
    parts = [name for name in _PARTS if getattr(referee, name) != getattr(seen, name)]
    raise Disagreement(
        f"game {game}, step {step}: the engine's {', '.join(parts) or 'position'} differ from "
        f"the referee's\nreferee:\n{referee}\nengine:\n{seen}"
    )


def _expect(ok: bool, game: int, what: str) -> None:
    if not ok:
        raise Disagreement(f"game {game}: {what} differ from the referee's")


# -- the compiled functions (azul_rules.core._accelerate) ------------------------------------------

REFERENCES: Final[dict[str, Callable[..., Any]]] = {
    "legal_actions": _legal_actions_reference,
    "observe_into": _observe_into_reference,
}
"""The Python reference of each function of this module that has a compiled version."""
