"""JSON in and out, on a private cattrs converter.

The format (``format_version`` 1) is documented in ``docs/json-format.md``.  Colours are
their lowercase names, the marker is ``"marker"``, the centre and the floor are
``"center"`` and ``"floor"``; indices count from 0, as in the Python API.  Moves are
objects tagged by ``"type"``: ``take``, ``table_take``, ``place_tile``, ``refill``.

Loading is strict: unknown keys, wrong types, missing fields, out-of-range numbers and
bad colour names raise :class:`~azul_rules.FormatError` naming every problem with its
JSON path; a readable state that cannot exist raises
:class:`~azul_rules.InvalidStateError` listing every problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Final, NewType, TypeVar, cast

import attrs
import cattrs
from cattrs.cols import (
    homogenous_tuple_structure_factory,
    list_structure_factory,
    namedtuple_dict_structure_factory,
    namedtuple_dict_unstructure_factory,
)
from cattrs.gen import make_dict_structure_fn

from azul_rules.core.board import PatternLine, PlayerBoard, pattern_line
from azul_rules.core.colors import (
    CENTER,
    COLORS,
    FLOOR,
    FLOOR_TOTALS,
    MARKER,
    Color,
    FloorItem,
    Marker,
)
from azul_rules.core.errors import FormatError, InvalidStateError
from azul_rules.core.moves import TAKES, Move, Placements, PlaceTile, Refill, TableTake, Take
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.position import build, new_context
from azul_rules.core.problems import Problem, StateProblem, least_round, round_one_problems
from azul_rules.core.rng import MASK
from azul_rules.core.scoring import (
    Bonuses,
    PlayerTiling,
    RoundScoring,
    WallPlacement,
    decide_outcome,
)
from azul_rules.core.shown import listed
from azul_rules.core.shown import name as _name
from azul_rules.core.shown import number as _number
from azul_rules.core.shown import shown as _shown
from azul_rules.core.state import GameState
from azul_rules.formats.jsontext import (
    FORMAT_VERSION,
    MAX_DIGITS,
    MAX_INPUT_BYTES,
    MAX_ITEMS,
    check_shape,
    format_error,
    load,
    member_path,
    repeated_keys,
)
from azul_rules.formats.notation import document as _notation_document

__all__ = [
    "FORMAT_VERSION",
    "NOT_WRITTEN",
    "from_dict",
    "from_notation",
    "json_text",
    "long_integers",
    "move_from_dict",
    "position_problems",
    "to_dict",
    "to_json",
    "unwritable",
    "written_text",
]

NOT_WRITTEN: Final = " (not written: from_json would refuse it)"
"""The end of each problem the writers refuse (see :func:`unwritable`)."""

_NAMES: Final = {c: c.name.lower() for c in COLORS}
_BY_NAME: Final = {name: c for c, name in _NAMES.items()}
_COLOR_LIST: Final = ", ".join(_BY_NAME)

_Source = NewType("_Source", int)
_LineRef = NewType("_LineRef", int)
_LineKey = NewType("_LineKey", int)  # a pattern line as an object key: "2" or "floor"
_Count = NewType("_Count", int)
_TileCount = NewType("_TileCount", int)
_Index = NewType("_Index", int)
_RngState = NewType("_RngState", int)
_TableColor = NewType("_TableColor", object)

T = TypeVar("T")


# -- the documents, as the JSON shows them ------------------------------------------------


@attrs.frozen
class _BoardDoc:
    score: int
    pattern_lines: list[list[Color]]
    wall: list[list[Color | None]]
    floor: list[Color | Marker] = attrs.field(factory=list)


@attrs.frozen
class _StateDoc:
    format_version: int
    players: list[_BoardDoc]
    factories: list[list[Color]]
    current_player: _Index
    phase: Phase = Phase.FACTORY_OFFER
    variant: Variant = Variant.COLORED
    round: int | None = None
    start_player: _Index | None = None
    marker_holder: _Index | None = None
    center: list[Color] = attrs.field(factory=list)
    bag: dict[Color, _TileCount] = attrs.field(factory=dict)
    lid: dict[Color, _TileCount] = attrs.field(factory=dict)
    rng_state: _RngState | None = None
    last_scoring: RoundScoring | None = None


@attrs.frozen
class _TakeDoc:
    source: _Source
    color: Color | Marker
    line: _LineRef
    player: _Index | None = None


@attrs.frozen
class _TableTakeDoc:
    source: _Source
    color: _TableColor
    count: _Count
    placements: dict[_LineKey, _Count]
    player: _Index | None = None


@attrs.frozen
class _PlaceTileDoc:
    line: _Index
    column: _Index
    player: _Index | None = None


@attrs.frozen
class _RefillDoc:
    factories: list[list[Color]]
    player: _Index | None = None


_MOVE_DOCS: Final[dict[str, type]] = {
    "take": _TakeDoc,
    "table_take": _TableTakeDoc,
    "place_tile": _PlaceTileDoc,
    "refill": _RefillDoc,
}
_MOVE_TAGS: Final[dict[type, str]] = {
    Take: "take",
    TableTake: "table_take",
    PlaceTile: "place_tile",
    Refill: "refill",
}


# -- the converter -------------------------------------------------------------------------


def _strict_int(value: object, _: object) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {_shown(value, None)}")
    return value


def _strict_str(value: object, _: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {_shown(value, None)}")
    return value


def _strict_bool(value: object, _: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {_shown(value, None)}")
    return value


def _natural(value: object, _: object) -> int:
    number = _strict_int(value, _)
    if number < 0:
        raise ValueError(f"expected a number from 0, got {_number(number)}")
    return number


def _tile_count(value: object, _: object) -> int:
    number = _natural(value, _)
    if number > 20:
        raise ValueError(f"expected a count of tiles from 0 to 20 (S3), got {_number(number)}")
    return number


def _rng_state(value: object, _: object) -> int:
    number = _natural(value, _)
    if number > MASK:
        raise ValueError(
            f"expected a 64-bit generator state (0 to 2**64 - 1), got {_number(number)}"
        )
    return number


def _color(value: object, _: object) -> Color:
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    raise ValueError(f"expected a colour ({_COLOR_LIST}), got {_shown(value, None)}")


def _floor_item(value: object, _: object) -> Color | Marker:
    if value == "marker":
        return MARKER
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    raise ValueError(f"expected a colour ({_COLOR_LIST}) or 'marker', got {_shown(value, None)}")


def _table_color(value: object, _: object) -> object:
    if isinstance(value, list):
        colors = [_color(v, _) for v in value]
        if len(set(colors)) < 2:
            raise ValueError(
                f"a list of colours taken needs two or more colours, got {_shown(value, None)}"
            )
        return tuple(colors)
    return _floor_item(value, _)


def _source(value: object, _: object) -> int:
    if value == "center":
        return CENTER
    if type(value) is int and value >= 0:
        return value
    raise ValueError(f"expected a factory number (from 0) or 'center', got {_shown(value, None)}")


_KEY_NUMBER: Final = re.compile(r"0|[1-9][0-9]{0,8}")
_MAX_LINE_KEY: Final = 999_999_999  # the largest key _KEY_NUMBER reads


def _line_ref(value: object, _: object) -> int:
    if value == "floor":
        return FLOOR
    if type(value) is int and value >= 0:
        return value
    raise ValueError(f"expected a pattern line (from 0) or 'floor', got {_shown(value, None)}")


def _line_key(value: object, _: object) -> int:
    """A key of ``placements``: JSON object keys are strings (``"2"``, ``"floor"``)."""
    if isinstance(value, str) and _KEY_NUMBER.fullmatch(value):
        return int(value)
    if value == "floor":
        return FLOOR
    raise ValueError(f"expected a pattern line (from 0) or 'floor', got {_shown(value, None)}")


def _enum_hook(kind: type[Phase] | type[Variant]) -> Callable[[object, object], Any]:
    def structure(value: object, _: object) -> Any:
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(m.value for m in kind)
            raise ValueError(f"expected one of {choices}, got {_shown(value, None)}") from None

    return structure


_Hook = Callable[..., Any]


def _guarded(
    make_inner: Callable[[Any], _Hook], json_type: type, word: str
) -> Callable[[Any], _Hook]:
    """A hook factory: the value must be a JSON ``word`` (``json_type`` once parsed)
    before cattrs reads it with ``make_inner(kind)``; a string is never an array."""

    def factory(kind: Any) -> _Hook:
        inner = make_inner(kind)

        def structure(value: object, target: Any) -> Any:
            if not isinstance(value, json_type):
                raise TypeError(f"expected a JSON {word}, got {_shown(value, None)}")
            return inner(value, target)

        return structure

    return factory


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True)
    converter.register_structure_hook_factory(
        attrs.has,
        _guarded(
            lambda cls: make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True),
            dict,
            "object",
        ),
    )
    converter.register_structure_hook_factory(
        lambda t: getattr(t, "__origin__", None) is list,
        _guarded(lambda kind: list_structure_factory(kind, converter), list, "array"),
    )
    converter.register_structure_hook_factory(
        lambda t: getattr(t, "__origin__", None) is tuple and t.__args__[-1] is Ellipsis,
        _guarded(lambda kind: homogenous_tuple_structure_factory(kind, converter), list, "array"),
    )
    converter.register_structure_hook_factory(
        lambda t: getattr(t, "__origin__", None) is dict,
        _guarded(converter.gen_structure_mapping, dict, "object"),
    )
    converter.register_structure_hook(int, _strict_int)
    converter.register_structure_hook(str, _strict_str)
    converter.register_structure_hook(bool, _strict_bool)
    converter.register_structure_hook(_Count, _natural)
    converter.register_structure_hook(_TileCount, _tile_count)
    converter.register_structure_hook(_RngState, _rng_state)
    converter.register_structure_hook(_Index, _natural)
    converter.register_structure_hook(_Source, _source)
    converter.register_structure_hook(_TableColor, _table_color)
    converter.register_structure_hook(_LineRef, _line_ref)
    converter.register_structure_hook(_LineKey, _line_key)
    converter.register_structure_hook(Color, _color)
    converter.register_structure_hook_func(lambda t: t == (Color | Marker), _floor_item)
    converter.register_structure_hook(Phase, _enum_hook(Phase))
    converter.register_structure_hook(Variant, _enum_hook(Variant))
    converter.register_unstructure_hook(Color, lambda c: _NAMES[c])
    converter.register_unstructure_hook(Phase, lambda p: p.value)
    converter.register_unstructure_hook(Variant, lambda v: v.value)
    # The scoring records' placements are named tuples: objects in JSON, as the rest
    # (registered last, so that their fields use the colour hooks above).
    converter.register_structure_hook(
        WallPlacement,
        _guarded(
            lambda cls: namedtuple_dict_structure_factory(cls, converter, "from_converter", True),
            dict,
            "object",
        )(WallPlacement),
    )
    converter.register_unstructure_hook(
        WallPlacement, namedtuple_dict_unstructure_factory(WallPlacement, converter)
    )
    return converter


_CONVERTER: Final = _make_converter()


def _format_exception(exc: BaseException, _type: object) -> str:
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        fields = sorted(exc.extra_fields)
        return f"unknown field{'s' if len(fields) > 1 else ''}: {listed(fields, show=_name)}"
    if isinstance(exc, (ValueError, TypeError)) and str(exc):
        return str(exc)
    if isinstance(exc, AttributeError):  # cattrs read a non-object as an object
        return "expected a JSON object"
    return f"invalid value ({type(exc).__name__})"


def _structure(data: object, kind: type[T], path: str) -> T:
    if attrs.has(kind) and not isinstance(data, dict):
        raise FormatError(f"{path}: expected a JSON object", ((path, "expected a JSON object"),))
    try:
        return _CONVERTER.structure(data, kind)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise format_error(_placed_errors(exc, path)) from None


def _placed_errors(exc: BaseException, path: str) -> list[tuple[str, str]]:
    """Every error inside a cattrs exception, with its JSON path: ``.name`` for a field,
    ``[2]`` for an item and ``.blue`` (``['a key']`` when not a plain name) for a
    mapping's key, the paths ``member_path`` writes everywhere else."""
    placed: list[tuple[BaseException, str, Any]]
    if isinstance(exc, cattrs.IterableValidationError):
        items, without = exc.group_exceptions()
        placed = [(inner, member_path(path, note.index), note.type) for inner, note in items]
    elif isinstance(exc, cattrs.ClassValidationError):
        fields, without = exc.group_exceptions()
        placed = [(inner, f"{path}.{note.name}", note.type) for inner, note in fields]
    else:
        return [(path, _format_exception(exc, None))]
    errors: list[tuple[str, str]] = []
    for inner, where, kind in placed:
        if isinstance(inner, cattrs.BaseValidationError):
            errors.extend(_placed_errors(inner, where))
        else:
            errors.append((where, _format_exception(inner, kind)))
    errors.extend((path, _format_exception(inner, None)) for inner in without)
    return errors


# -- states --------------------------------------------------------------------------------


def _counts(tiles: tuple[Color, ...]) -> dict[str, int]:
    return {_NAMES[c]: tiles.count(c) for c in COLORS if tiles.count(c)}


def _state_to_dict(state: Any) -> dict[str, Any]:
    players = []
    for board in state.players:
        players.append(
            {
                "score": board.score,
                "pattern_lines": [
                    [_NAMES[line.color]] * line.count if line.color is not None else []
                    for line in board.pattern_lines
                ],
                "wall": [[_NAMES[t] if t is not None else None for t in row] for row in board.wall],
                "floor": ["marker" if t is MARKER else _NAMES[cast(Color, t)] for t in board.floor],
            }
        )
    doc: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "variant": state.variant.value,
        "phase": state.phase.value,
        "round": state.round,
        "current_player": state.current_player,
        "start_player": state.start_player,
        "marker_holder": state.marker_holder,
        "factories": [[_NAMES[t] for t in f] for f in state.factories],
        "center": [_NAMES[t] for t in state.center],
        "bag": _counts(state.bag),
        "lid": _counts(state.lid),
        "rng_state": state.rng_state,
        "players": players,
    }
    _check_state_parts(state, doc)
    if state.last_scoring is not None:
        doc["last_scoring"] = _writable_scoring(state)
    return doc


# -- what the writer refuses: exactly what the reader would refuse as a FormatError ------
#
# ``from_json(to_json(x))`` gives ``x`` back for every state and move ``to_json`` writes.
# The constructors already refuse most of what the reader refuses (a round below 1, a
# player not at the table, a pattern line over its capacity); what they let through and
# the format cannot hold (a bag count over 20, an array past MAX_ITEMS, a record of the
# last tiling that does not fit) is refused here, with the path and the reader's words;
# ``to_json`` adds the limits of the text (MAX_DIGITS digits per integer,
# MAX_INPUT_BYTES in all).  Whether a position can arise is ``problems()``' question: an
# impossible one is written, and read back as an ``InvalidStateError``.


def _check_state_parts(state: Any, doc: dict[str, Any]) -> None:
    """Refuse the parts of ``state`` that ``from_dict`` would refuse as a
    ``FormatError``, every one with its path."""
    errors: list[tuple[str, str]] = []
    for part in ("bag", "lid"):
        for name, count in doc[part].items():
            if count > 20:
                errors.append((f"$.{part}.{name}", f"expected a count of tiles from 0 to 20 "
                               f"(S3), got {count}"))  # fmt: skip
    if errors:
        raise unwritable(errors)
    if not _small(state):
        try:
            check_shape(doc)
        except FormatError as error:
            raise unwritable(list(error.errors)) from None


def _small(state: Any) -> bool:
    """True when no array of the document can pass :data:`MAX_ITEMS` entries nor the
    document 2,000 values: 9 factories of at most 4 tiles, at most 100 tiles in the
    centre, floors of at most 7 (pattern lines hold at most 5 and there are 2-4
    players: about 450 values; the last tiling is checked on its own).  Anything larger
    is counted by ``check_shape``."""
    factories = state.factories
    if len(factories) > 9 or len(state.center) > MAX_ITEMS:
        return False
    if max(map(len, factories), default=0) > 4:
        return False
    return all(len(board.floor) <= 7 for board in state.players)


def _writable_scoring(state: Any) -> dict[str, Any]:
    """The record of the last tiling as JSON-ready data, if the reader would read it back
    with this position (its types, its size, and its fit: see ``_check_scoring``)."""
    record = state.last_scoring
    path = "$.last_scoring"
    if not _plain_scoring(record):
        try:
            data: dict[str, Any] = _CONVERTER.unstructure(record)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise unwritable([(path, "not a RoundScoring of ints, Colors and booleans")]) from None
        try:
            _structure(data, RoundScoring, path)
            check_shape(data, path)
        except FormatError as error:
            raise unwritable(list(error.errors)) from None
    else:
        data = _CONVERTER.unstructure(record)
    try:
        _check_scoring(record, list(state.players), state.phase, state.round)
    except FormatError as error:
        raise unwritable(list(error.errors)) from None
    return data


_PLACED_TYPES: Final = (int, int, Color, int, int, int)  # a WallPlacement's fields


def _plain_scoring(record: RoundScoring) -> bool:
    """True when every field of ``record`` has the exact type the reader gives it, and
    its arrays are short (the referee's own records always are): no further check of
    its types and size is needed before writing it."""
    if type(record) is not RoundScoring or type(record.round) is not int:
        return False
    players = record.players
    if type(record.game_over) is not bool or type(players) is not tuple or len(players) > 4:
        return False
    for tiling in players:
        if type(tiling) is not PlayerTiling:
            return False
        if not (type(tiling.player) is type(tiling.score_before) is type(tiling.floor_penalty)
                is type(tiling.score_after) is int):  # fmt: skip
            return False
        placements, lines, bonuses = tiling.placements, tiling.floor_lines, tiling.bonuses
        if type(placements) is not tuple or type(lines) is not tuple:
            return False
        if len(placements) > 5 or len(lines) > 5:
            return False
        for placed in placements:
            if type(placed) is not WallPlacement or tuple(map(type, placed)) != _PLACED_TYPES:
                return False
        for line in lines:
            if type(line) is not int:
                return False
        if bonuses is not None and not (
            type(bonuses) is Bonuses
            and type(bonuses.rows) is type(bonuses.columns) is type(bonuses.colors) is int
        ):
            return False
    return True


def unwritable(errors: list[tuple[str, str]]) -> FormatError:
    """The ``FormatError`` of a value the JSON format cannot hold (``from_json`` would
    refuse it), naming each path."""
    return format_error([(path, problem + NOT_WRITTEN) for path, problem in errors])


def _has_text(value: int) -> bool:
    """False for an integer past the interpreter's limit of digits (:data:`MAX_DIGITS`),
    which Python refuses to write as text, and ``load`` to read."""
    try:
        str(value)
    except ValueError:
        return False
    return True


def long_integers(data: object, path: str = "$") -> list[tuple[str, str]]:
    """The paths of the integers of ``data`` past :data:`MAX_DIGITS` digits, which JSON
    text cannot hold (Python refuses to write them, and ``load`` to read them)."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[object, str]] = [(data, path)]
    while stack:
        value, where = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, member_path(where, k)) for k, v in reversed(value.items()))
        elif isinstance(value, (list, tuple)):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, int) and not _has_text(value):
            found.append((where, f"an integer of more than {MAX_DIGITS} digits: JSON text "
                          "holds at most that many"))  # fmt: skip
    return found


def _state_from_dict(data: object, *, offer_ended: bool = False) -> Any:
    """Read a state.  ``offer_ended`` accepts a factory offer with no tile left: the
    moment an audit starts from, which ``apply`` never rests at (P7)."""
    state, problems, _ = _read_state(data, offer_ended)
    if problems:
        raise InvalidStateError(tuple(problems))
    return state


_UNDRAWABLE: Final = frozenset({
    StateProblem.PLAYER_COUNT, StateProblem.FACTORY_COUNT, StateProblem.PLAYER_OUT_OF_RANGE,
    StateProblem.LINE_OVER_CAPACITY, StateProblem.LINE_MIXED_COLORS,
    StateProblem.FLOOR_TOO_LONG, StateProblem.FACTORY_OVERFULL,
})  # fmt: skip
"""Problems of a position that the table's picture cannot show as it was typed."""


def position_as_typed(data: object) -> tuple[Any, tuple[Problem, ...]]:
    """A position as it was typed, and every reason it cannot exist (none when it can):
    for the picture of a table being built, which shows an impossible position with its
    problems beside it.  The position may sit at the end of a factory offer (an
    audit's).

    :raises FormatError: for what cannot be read, as :func:`from_dict`.
    :raises InvalidStateError: for a position that cannot even be drawn as typed: not
        2-4 players or the factories for them, a player not at the table, a pattern
        line over its spaces or of two colours, a floor line or a factory over its
        spaces.
    """
    state, problems, faithful = _read_state(data, True)
    if not faithful or any(p.code in _UNDRAWABLE for p in problems):
        raise InvalidStateError(tuple(problems))
    return state, tuple(problems)


def position_problems(data: object) -> tuple[Problem, ...]:
    """Every reason the position a document describes cannot exist (none when it can),
    without raising for them: for choosing between readings of a document
    (``unseen.complete_unseen``).

    :raises FormatError: for what cannot be read, as :func:`from_dict`.
    """
    _, problems, _ = _read_state(data, False)
    return tuple(problems)


def _read_state(data: object, offer_ended: bool) -> tuple[Any, list[Problem], bool]:
    """The state a document describes, every problem found, and whether the state is
    the document's (not when a board could only be approximated: a line over its
    spaces or of two colours)."""
    if isinstance(data, str):  # a position's notation (docs/notation.md)
        data = _notation_document(data)
    check_shape(data)
    doc = _structure(data, _StateDoc, "$")
    errors: list[tuple[str, str]] = []
    if doc.format_version != FORMAT_VERSION:
        version = _number(doc.format_version)
        errors.append(("$.format_version", f"unsupported version {version} (this library "
                       f"reads {FORMAT_VERSION})"))  # fmt: skip
    if doc.round is not None and doc.round < 1:
        errors.append(("$.round", f"rounds count from 1, got {_number(doc.round)}"))
    problems: list[Problem] = []
    boards = [_board(i, b, errors, problems) for i, b in enumerate(doc.players)]
    if errors:
        raise format_error(errors)
    phase = doc.phase
    round = least_round(phase, boards) if doc.round is None else doc.round
    outcome = None
    if phase is Phase.GAME_OVER and 2 <= len(boards) <= 4:
        outcome = decide_outcome(boards)
    start = doc.current_player if doc.start_player is None else doc.start_player
    context = new_context(_tiles(doc.bag), _tiles(doc.lid), start, phase, round, doc.variant,
                          doc.rng_state, outcome, doc.last_scoring)  # fmt: skip
    # Built through the slots, unchecked: every problem is listed below.
    state = build(GameState, tuple(boards), tuple(tuple(sorted(f)) for f in doc.factories),
                  tuple(sorted(doc.center)), doc.current_player, doc.marker_holder,
                  context)  # fmt: skip
    if doc.round is None and round == 1 and round_one_problems(state):
        # Not a first round (its tiles came from a tiling: S6, F2): the least round is 2.
        round = 2
        context = new_context(context.bag, context.lid, start, phase, round, doc.variant,
                              doc.rng_state, outcome, doc.last_scoring)  # fmt: skip
        state = build(GameState, state.players, state.factories, state.center,
                      state.current_player, state.marker_holder, context)  # fmt: skip
    if doc.last_scoring is not None:
        _check_scoring(doc.last_scoring, boards, phase, round)
    faithful = not problems
    if problems:  # the board above only approximates the document: count from it
        problems.extend(_count_document_tiles(doc))
        problems.extend(p for p in state.problems() if p.code is not StateProblem.TILE_COUNT)
    else:
        problems.extend(state.problems())
    if offer_ended:  # nobody is to move at the end of the offer: the turn is not judged
        problems = [p for p in problems if not (p.code is StateProblem.PHASE_MISMATCH
                                                and p.rule == "P7")
                    and p.code is not StateProblem.TURN_OUT_OF_ORDER]  # fmt: skip
    return state, problems, faithful


def _check_scoring(
    record: RoundScoring, boards: list[PlayerBoard], phase: Phase, round: int
) -> None:
    """The record of the last wall tiling is history: it is read only when it fits the
    position (its round, one entry per player in order, each score after the tiling the
    board's score, each placement's tile on the wall), and refused otherwise."""
    errors: list[tuple[str, str]] = []
    path = "$.last_scoring"
    if record.round not in (round - 1, round) or record.round < 1:
        errors.append((f"{path}.round", f"a tiling of round {_number(record.round)} cannot be "
                       f"the last one of a position in round {_number(round)}"))  # fmt: skip
    if record.game_over != (phase is Phase.GAME_OVER):
        errors.append((f"{path}.game_over", f"expected {str(phase is Phase.GAME_OVER).lower()} "
                       f"in the {phase.value} phase"))  # fmt: skip
    if len(record.players) != len(boards):
        errors.append((f"{path}.players", f"expected one entry per player ({len(boards)})"))
    else:
        for index, (tiling, board) in enumerate(zip(record.players, boards, strict=True)):
            errors.extend(_tiling_errors(f"{path}.players[{index}]", index, tiling, board))
    if errors:
        raise format_error(errors)


def _tiling_errors(
    path: str, index: int, tiling: PlayerTiling, board: PlayerBoard
) -> list[tuple[str, str]]:
    errors = []
    if tiling.player != index:
        errors.append((f"{path}.player", f"expected {index}, the entry's place in the list"))
    if tiling.score_after != board.score:
        errors.append((f"{path}.score_after", f"the board's score is {_number(board.score)}, "
                       f"not {_number(tiling.score_after)}"))  # fmt: skip
    if not 0 <= tiling.floor_penalty <= FLOOR_TOTALS[-1] or tiling.score_before < 0:
        errors.append((path, f"a floor penalty is 0 to {FLOOR_TOTALS[-1]} (F1) and a score "
                             "never below 0 (W4)"))  # fmt: skip
    for number, placed in enumerate(tiling.placements):
        on_wall = 0 <= placed.row < 5 and 0 <= placed.column < 5
        if not on_wall or board.wall[placed.row][placed.column] != placed.color:
            errors.append((f"{path}.placements[{number}]", "no such tile on the player's wall"))
    if any(not 0 <= line < 5 for line in tiling.floor_lines):
        errors.append((f"{path}.floor_lines", "pattern lines are numbered 0 to 4"))
    return errors


def _count_document_tiles(doc: _StateDoc) -> list[Problem]:
    """S3 on the document itself (used when its boards could not be built faithfully)."""
    seen: list[Color] = [*doc.center, *_tiles(doc.bag), *_tiles(doc.lid)]
    for factory in doc.factories:
        seen.extend(factory)
    for board in doc.players:
        seen.extend(t for line in board.pattern_lines for t in line)
        seen.extend(t for row in board.wall for t in row if t is not None)
        seen.extend(t for t in board.floor if isinstance(t, Color))
    return [
        Problem.of(StateProblem.TILE_COUNT, "S3", "$", count=seen.count(c), color=c)
        for c in COLORS
        if seen.count(c) != 20
    ]  # fmt: skip


def _tiles(counts: dict[Color, _TileCount]) -> tuple[Color, ...]:
    return tuple(c for c in COLORS for _ in range(counts.get(c, 0)))


def _board(
    index: int, doc: _BoardDoc, errors: list[tuple[str, str]], problems: list[Problem]
) -> PlayerBoard:
    path = f"$.players[{index}]"
    if len(doc.pattern_lines) != 5:
        errors.append(
            (f"{path}.pattern_lines", f"expected 5 pattern lines, got {len(doc.pattern_lines)}")
        )
    if len(doc.wall) != 5 or any(len(row) != 5 for row in doc.wall):
        errors.append((f"{path}.wall", "expected 5 rows of 5 spaces (a colour or null)"))
    if errors:
        return PlayerBoard()
    lines: list[PatternLine] = []
    for row, tiles in enumerate(doc.pattern_lines):
        line_path = f"{path}.pattern_lines[{row}]"
        if len(set(tiles)) > 1:
            problems.append(Problem.of(StateProblem.LINE_MIXED_COLORS, "P2", line_path, line=row))
        if len(tiles) > row + 1:
            problems.append(Problem.of(StateProblem.LINE_OVER_CAPACITY, "S4", line_path,
                                       line=row, count=len(tiles), capacity=row + 1))  # fmt: skip
        # Only to look for further problems: the state is refused if any was found.
        lines.append(pattern_line(row, tiles[0] if tiles else None, min(len(tiles), row + 1)))
    wall = tuple(tuple(row) for row in doc.wall)
    floor: tuple[FloorItem, ...] = tuple(doc.floor)
    return PlayerBoard(doc.score, tuple(lines), wall, floor)


# -- moves ---------------------------------------------------------------------------------


def _move_to_dict(move: Move) -> dict[str, Any]:
    doc: dict[str, Any] = {"type": _MOVE_TAGS[type(move)]}
    if isinstance(move, (Take, TableTake)):
        doc["source"] = "center" if move.source == CENTER else move.source
        color = move.color
        if isinstance(color, tuple):
            doc["color"] = [_NAMES[c] for c in color]
        else:
            doc["color"] = _NAMES[color] if isinstance(color, Color) else "marker"
    if isinstance(move, Take):
        doc["line"] = "floor" if move.line == FLOOR else move.line
    elif isinstance(move, TableTake):
        doc["count"] = move.count
        doc["placements"] = _placements_doc(move.placements)
    elif isinstance(move, PlaceTile):
        doc["line"] = move.line
        doc["column"] = move.column
    elif isinstance(move, Refill):
        doc["factories"] = [[_NAMES[t] for t in f] for f in move.factories]
    if move.player is not None:
        doc["player"] = move.player
    if isinstance(move, (TableTake, Refill)):
        try:
            check_shape(doc, "$", 500)
        except FormatError as error:
            raise unwritable(list(error.errors)) from None
    return doc


def _placements_doc(placements: Placements) -> dict[str, int]:
    """A table take's placements as JSON keys them: ``"2"``, ``"floor"``; a line number
    past the 9 digits the reader takes is refused."""
    doc: dict[str, int] = {}
    for line, count in placements.items():
        if line == FLOOR:
            doc["floor"] = count
        elif line > _MAX_LINE_KEY:
            raise unwritable([("$.placements", "a pattern line key has at most 9 digits, "
                                f"got {_number(line)}")])  # fmt: skip
        else:
            doc[str(line)] = count
    return doc


_TAKE_KEYS: Final = frozenset(("type", "source", "color", "line", "player"))


def _plain_take(data: dict[str, Any]) -> Take | None:
    """A well-formed take read directly (the common case, in records of whole games);
    ``None`` sends anything unusual through the converter, which names every problem."""
    if not data.keys() <= _TAKE_KEYS or len(data) < 4 or repeated_keys(data):
        return None
    source, color, line = data.get("source"), data.get("color"), data.get("line")
    player = data.get("player")
    tile = MARKER if color == "marker" else _BY_NAME.get(color) if type(color) is str else None
    if tile is None or not (source == "center" or (type(source) is int and source >= 0)):
        return None
    if not (line == "floor" or (type(line) is int and line >= 0)):
        return None
    source = CENTER if source == "center" else source
    line = FLOOR if line == "floor" else line
    if player is None and tile is not MARKER:
        known = TAKES.get((source, tile, line))
        if known is not None:
            return known
    if player is not None and (type(player) is not int or player < 0):
        return None
    return Take(source, tile, line, player=player)


def _move_from_dict(data: object, expected: type | None = None) -> Move:
    if not isinstance(data, dict):
        shown = _shown(data)
        raise FormatError(f"$: a move is a JSON object, got {shown}", (("$", "not an object"),))
    if data.get("type") == "take" and expected in (None, Take):
        take = _plain_take(data)
        if take is not None:
            return take
    check_shape(data, "$", 500)
    tag = data.get("type")
    if not isinstance(tag, str) or tag not in _MOVE_DOCS:
        shown = _shown(tag)
        raise FormatError(
            f"$.type: expected one of {', '.join(_MOVE_DOCS)}, got {shown}",
            (("$.type", f"unknown move type {shown}"),),
        )
    rest = {k: v for k, v in data.items() if k != "type"}
    move: Move
    doc: Any = _structure(rest, _MOVE_DOCS[tag], "$")
    if isinstance(doc, _TakeDoc):
        move = Take(doc.source, doc.color, doc.line, player=doc.player)
    elif isinstance(doc, _TableTakeDoc):
        placements = {int(k): int(v) for k, v in doc.placements.items()}
        move = TableTake(doc.source, doc.color, doc.count, placements, player=doc.player)
    elif isinstance(doc, _PlaceTileDoc):
        move = PlaceTile(doc.line, doc.column, player=doc.player)
    else:
        assert isinstance(doc, _RefillDoc)
        move = Refill(tuple(tuple(f) for f in doc.factories), player=doc.player)
    if expected is not None and not isinstance(move, expected):
        raise FormatError(f"$.type: expected a {expected.__name__}, got {_shown(tag)}",
                          (("$.type", f"not a {expected.__name__}"),))  # fmt: skip
    return move


# -- the public functions ------------------------------------------------------------------


def to_dict(obj: object) -> dict[str, Any]:
    """A ``GameState`` or a move as plain JSON-ready data (``azul_rules.to_dict`` also
    takes a ``GameRecord``).  Raises ``TypeError`` for anything else, and
    ``FormatError`` naming each path for a part :func:`from_dict` would refuse as one:
    a round below 1, a negative player, a bag or lid count over 20, an array past 100
    entries, a last tiling that does not fit the position, a placement key past 9
    digits.  An impossible position is written (``from_dict`` refuses it with
    ``InvalidStateError``, as ``problems()`` lists)."""
    if isinstance(obj, GameState):
        return _state_to_dict(obj)
    if type(obj) in _MOVE_TAGS:
        return _move_to_dict(cast(Move, obj))
    raise TypeError(f"cannot serialise {type(obj).__name__}: a GameState, a move or a GameRecord")


def from_notation(text: str) -> GameState:
    """The position written ``text`` (``docs/notation.md``); the lid holds what is
    nowhere else, ``last_scoring`` is ``None``.  Wherever a position is read from JSON
    (``from_json``, ``from_dict``, the web judge's ``"state"``), a string is read as a
    notation too.

    :raises FormatError: for a text that is not a notation, naming the character (from 1)
        and what was expected there; for a text over 1,000 characters or not a ``str``.
    :raises InvalidStateError: for a well-written position that cannot exist, with every
        problem.
    """
    if not isinstance(text, str):
        raise FormatError(f"a notation is a str, not {_shown(text)}")
    state: GameState = from_dict(text, GameState)
    return state



def from_dict(data: object, cls: type[T]) -> T:
    """Read ``cls`` (``GameState``, a move class, or ``Move`` for any move) from plain
    data.  Raises ``FormatError`` or ``InvalidStateError`` for bad data, ``TypeError``
    for another ``cls``."""
    if cls is GameState:
        return cast(T, _state_from_dict(data))
    if cls in _MOVE_TAGS:
        return cast(T, _move_from_dict(data, cls))
    if cls == Move:
        return cast(T, _move_from_dict(data))
    raise TypeError(f"cannot read {_shown(cls)}: GameState, GameRecord, Move or a move class")


def to_json(obj: object, *, indent: int | None = 2) -> str:
    """``obj`` as JSON text (readable: short lists stay on one line).  Raises
    ``TypeError`` for anything but a ``GameState`` or a move, ``FormatError`` (naming
    the path) for what ``from_json`` would refuse: see :func:`to_dict`, an integer past
    :data:`~azul_rules.formats.jsontext.MAX_DIGITS` digits, a text past 1 MiB."""
    return json_text(to_dict(obj), indent)


def json_text(data: dict[str, Any], indent: int | None = 2) -> str:
    """JSON-ready ``data`` as the text ``load`` reads back: ``FormatError`` naming the
    path of every integer past :data:`~azul_rules.formats.jsontext.MAX_DIGITS` digits (Python
    writes none), or for a text over :data:`~azul_rules.formats.jsontext.MAX_INPUT_BYTES`."""
    if indent is None:
        return written_text(data, lambda d: json.dumps(d, ensure_ascii=False))
    return written_text(data, lambda d: _dumps(d, indent, 0))


def written_text(data: dict[str, Any], dump: Callable[[dict[str, Any]], str]) -> str:
    """``dump(data)`` (a ``json.dumps`` of some layout) when ``load`` reads the text back;
    else a ``FormatError`` naming the path of every integer past
    :data:`~azul_rules.formats.jsontext.MAX_DIGITS` digits, or a text over
    :data:`~azul_rules.formats.jsontext.MAX_INPUT_BYTES`."""
    try:
        text = dump(data)
    except ValueError:  # an integer Python refuses to write (the only ValueError here)
        raise unwritable(long_integers(data) or [("$", "a value JSON text cannot hold")]) from None
    size = len(text.encode("utf-8")) if not text.isascii() else len(text)
    if size > MAX_INPUT_BYTES:
        raise unwritable([("$", f"{size} bytes of JSON text: at most {MAX_INPUT_BYTES} "
                            "are read")])  # fmt: skip
    return text


def position_at_offer_end(text: str | bytes) -> Any:
    """A state from JSON text that may sit at the end of a factory offer (for audits)."""
    return _state_from_dict(load(text), offer_ended=True)


def position_at_offer_end_from_dict(data: object) -> Any:
    """:func:`position_at_offer_end` of plain data (or of a document ``load`` read)."""
    return _state_from_dict(data, offer_ended=True)


def move_from_dict(data: object) -> Move:
    """A move of any kind, by its ``"type"`` tag."""
    return _move_from_dict(data)


def _dumps(value: object, indent: int, level: int) -> str:
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(value, dict) and value:
        items = [f"{pad}{_KEY(k)}: {_dumps(v, indent, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) and v for v in value):
        items = [pad + _dumps(v, indent, level + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    text = _scalar_text(value)
    if text is not None:
        return text
    if type(value) is list:
        texts = [_scalar_text(v) for v in value]
        if None not in texts:
            return "[" + ", ".join(cast(list[str], texts)) + "]"
    return json.dumps(value, ensure_ascii=False)


def _scalar_text(value: object) -> str | None:
    written = _SCALARS.get(type(value))
    return None if written is None else written(value)


# What json.dumps(value, ensure_ascii=False) writes for the scalars of a position, without
# its encoder's set-up each time (a position has some two hundred of them); a dict's
# keys are written as json.dumps(key) writes them.
_KEY: Final = json.encoder.encode_basestring_ascii
_SCALARS: Final[dict[type, Callable[[Any], str]]] = {
    str: json.encoder.encode_basestring,
    int: int.__repr__,
    bool: lambda flag: "true" if flag else "false",
    type(None): lambda _: "null",
}

