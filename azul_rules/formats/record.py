"""Game records: a whole game as JSON (how it started, then every move), and replaying
one move by move through the referee.

A record starts either from ``new_game`` arguments (``players``, ``seed``, ``variant``,
``first_player``, ``external_draws``) or from an ``initial_state``; its ``moves`` are
compact notation strings (``"3B2"``) or JSON move objects (any kind, refills included).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

import attrs

from azul_rules.core.errors import FormatError, IllegalMoveError, Result
from azul_rules.core.moves import Move, PlaceTile, Refill, TableTake, Take, parse_move
from azul_rules.core.phases import Variant
from azul_rules.core.shown import listed, shown
from azul_rules.core.state import GameState, new_game
from azul_rules.formats.jsontext import (
    MAX_REPORTED,
    check_shape,
    format_error,
    load,
    member_path,
    moved_under,
    paths_under,
    repeated_keys,
)
from azul_rules.formats.serialization import (
    NOT_WRITTEN,
    from_dict,
    move_from_dict,
    to_dict,
    unwritable,
    written_text,
)

__all__ = ["MAX_RECORD_MOVES", "GameRecord", "Replay"]

_START_KEYS = ("players", "seed", "variant", "first_player", "external_draws")
_BOTH: Final = "give either initial_state or new_game settings, not both"
_MOVE_TYPES: Final = (Take, TableTake, PlaceTile, Refill)

MAX_RECORD_MOVES: Final = 10_000
"""The most moves a record may hold.  Random games end within a few hundred moves
(``benchmarks/game_lengths.py``); only players who keep every row from completing can
go on, and 10,000 moves is some 250 rounds of that."""


@attrs.frozen
class Replay:
    """The outcome of replaying a record: every state reached, and, if the record holds
    an illegal move, its index (from 0) and the referee's verdict.

    Raises nothing when built: a record whose fields are not checked (the referee builds it).
    """

    states: tuple[GameState, ...]
    failed_at: int | None = None
    failure: Result | None = None

    @property
    def final(self) -> GameState:
        """The last legal state reached."""
        return self.states[-1]

    @property
    def ok(self) -> bool:
        """True when every move was legal."""
        return self.failed_at is None


@attrs.frozen
class GameRecord:
    """A recorded game: its moves, and where it starts (the settings of
    :func:`~azul_rules.new_game`, or an ``initial_state``).

    Raises nothing when built: a record whose fields are not checked.  What reads it
    checks it: :meth:`to_json` and :meth:`to_dict` its fields, :meth:`replay`,
    :meth:`start` and :func:`~azul_rules.audit_game` its settings and moves
    (``FormatError``).
    """

    moves: tuple[Move, ...] = ()
    players: int = 2
    seed: int = 0
    variant: Variant = Variant.COLORED
    first_player: int | None = None
    external_draws: bool = False
    initial_state: GameState | None = None

    def start(self) -> GameState:
        """The state the record starts from.  An illegal move raises nothing: the moves
        are not read here.

        :raises FormatError: in :meth:`from_dict`'s words and paths, for a start the
            reader would refuse: a setting (``$.players``, ``$.seed``, ``$.variant``,
            ``$.first_player``, ``$.external_draws``), an ``initial_state`` that is not a
            ``GameState``, or both an ``initial_state`` and settings (``$``).
        """
        errors: list[tuple[str, str]] = []
        self._settings_doc(errors)
        if errors:
            raise format_error(errors)
        if self.initial_state is not None:
            return self.initial_state
        return new_game(
            self.players, seed=self.seed, variant=self.variant,
            first_player=self.first_player, external_draws=self.external_draws,
        )  # fmt: skip

    def replay(self) -> Replay:
        """Referee every move in order; stop at the first illegal one.  An illegal move
        raises nothing: it ends the :class:`Replay` (``failed_at``, ``failure``).

        :raises FormatError: in :meth:`from_dict`'s words and paths, before any move is
            played, for a record it would refuse: its start (see :meth:`start`), ``moves``
            that are not a sequence (``$.moves``) or an entry that is not a move
            (``$.moves[3]``).
        """
        check_replayable(self)
        state = self.start()
        states = [state]
        for index, move in enumerate(self.moves):
            try:  # refereed once: ``validate`` only says why a move is illegal
                after = state.apply(move)
            except IllegalMoveError:
                return Replay(tuple(states), index, state.validate(move))
            state = after
            states.append(state)
        return Replay(tuple(states))

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (compact notation for compact takes).  Writes only
        what :meth:`from_dict` reads back; an impossible ``initial_state`` is written (and
        read back as ``InvalidStateError``).

        :raises FormatError: naming each path (in the reader's words), for a setting the
            reader refuses (``$.players``, ``$.first_player``...), settings given beside
            an ``initial_state``, more than 10,000 moves (``$.moves``), an entry that is
            not a move (``$.moves[3]``), and what :func:`~azul_rules.to_dict` refuses in a
            move or the initial state (``$.moves[3].placements``,
            ``$.initial_state.bag.red``).
        """
        errors: list[tuple[str, str]] = []
        doc = self._settings_doc(errors)
        if self.initial_state is not None:
            doc["initial_state"] = _state_doc(self.initial_state, errors)
        doc["moves"] = _moves_doc(self.moves, errors)
        if errors:
            raise unwritable(errors)
        return doc

    def _settings_doc(self, errors: list[tuple[str, str]]) -> dict[str, Any]:
        """The record's start as JSON-ready data (without the initial state's), each
        problem the reader would find added to ``errors`` with its path."""
        doc: dict[str, Any] = {"format_version": 1}
        if self.initial_state is not None:
            if not isinstance(self.initial_state, GameState):
                kind = type(self.initial_state).__name__
                errors.append(("$.initial_state", f"expected a GameState, got {kind}"))
            if self._has_settings():
                errors.append(("$", _BOTH))
            return doc
        variant = self.variant
        doc.update(
            players=self.players, seed=self.seed,
            variant=variant.value if isinstance(variant, Variant) else variant,
            first_player=self.first_player, external_draws=self.external_draws,
        )  # fmt: skip
        _start_settings(doc, errors)
        return doc

    def to_json(self, *, indent: int | None = 1) -> str:
        """The record as JSON text (one move a line; ``indent=None``: one line).

        :raises FormatError: naming each path, for what :meth:`from_json` would refuse:
            what :meth:`to_dict` refuses, an integer past 4,300 digits (``$.seed``), a text
            over 1 MiB.
        """
        doc = self.to_dict()
        return written_text(doc, lambda d: json.dumps(d, indent=indent, ensure_ascii=False))

    def _has_settings(self) -> bool:
        """True when a ``new_game`` setting differs from its default (the record starts
        from its ``initial_state``, and the format holds one or the other)."""
        defaults = (2, 0, Variant.COLORED, None, False)
        given = (self.players, self.seed, self.variant, self.first_player, self.external_draws)
        return any(type(g) is not type(d) or g != d for g, d in zip(given, defaults, strict=True))

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Read a record from plain data.

        :raises FormatError: naming the path of every problem found (at most 50 listed).
        :raises InvalidStateError: for an ``initial_state`` that cannot exist (every
            problem, under ``$.initial_state``).
        """
        if not isinstance(data, dict):
            raise FormatError("$: a game record is a JSON object", (("$", "not an object"),))
        settings = {k: v for k, v in data.items() if k not in ("moves", "initial_state")}
        check_shape(settings)
        allowed = {"format_version", "initial_state", "moves", *_START_KEYS}
        errors: list[tuple[str, str]] = []
        if repeated := repeated_keys(data):  # the settings above are a copy: not seen there
            errors.append(("$", f"the same key given twice: {listed(repeated)}"))
        for key in sorted(set(data) - allowed, key=_key_order)[:MAX_REPORTED]:
            errors.append((member_path("$", key), "unknown field"))
        errors.extend(_version_errors(data))
        raw_moves = data.get("moves")
        if not isinstance(raw_moves, list):
            errors.append(("$.moves", "expected a JSON array of moves"))
            raw_moves = []
        elif len(raw_moves) > MAX_RECORD_MOVES:
            errors.append(("$.moves", f"{len(raw_moves)} moves: a record holds at most "
                           f"{MAX_RECORD_MOVES}"))  # fmt: skip
            raw_moves = []
        if "initial_state" in data and any(k in data for k in _START_KEYS):
            errors.append(("$", _BOTH))
        start = _start_settings(data, errors)
        moves = _read_moves(raw_moves, errors)
        if errors:
            raise format_error(errors)
        initial = None
        if "initial_state" in data:
            initial = _read_initial_state(data["initial_state"])
        return cls(tuple(moves), initial_state=initial, **start)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a record from JSON text (at most 1 MiB), as :meth:`from_dict` does.

        :raises FormatError: naming the path of every problem found (at most 50 listed).
        :raises InvalidStateError: for an ``initial_state`` that cannot exist (every
            problem, under ``$.initial_state``).
        """
        return cls.from_dict(load(text))

    @classmethod
    def of_game(cls, moves: Sequence[Move], **start: Any) -> GameRecord:
        """A record of ``moves`` played from ``new_game(**start)``."""
        return cls(tuple(moves), **start)


def _read_moves(raw_moves: list[object], errors: list[tuple[str, str]]) -> list[Move]:
    """Every move of a record, in notation or as JSON; stops once enough problems are
    found to report."""
    moves: list[Move] = []
    for index, raw in enumerate(raw_moves):
        try:
            if isinstance(raw, str):
                moves.append(_NOTATIONS.get(raw) or parse_move(raw))
            else:
                moves.append(move_from_dict(raw))
        except FormatError as error:
            errors.extend((f"$.moves[{index}]{p.removeprefix('$')}", m) for p, m in error.errors)
            if len(errors) > MAX_REPORTED:
                break
    return moves


# Every compact take in notation, read once (a record holds hundreds of them).
_NOTATIONS: Final = {
    str(take): take
    for take in (
        parse_move(f"{s}{c}{line}") for s in "123456789C" for c in "BYRKW" for line in "12345F"
    )
}


def _read_initial_state(data: object) -> GameState:
    """The record's starting position, its problems' paths under ``$.initial_state``."""
    with paths_under(_INITIAL_STATE):
        return from_dict(data, GameState)


_INITIAL_STATE: Final = "$.initial_state"


def _state_doc(state: object, errors: list[tuple[str, str]]) -> dict[str, Any] | None:
    """The initial state as JSON-ready data, or ``None`` with its problems' paths under
    ``$.initial_state`` added to ``errors`` (one that is not a state is named by
    ``GameRecord._settings_doc``)."""
    if not isinstance(state, GameState):
        return None
    try:
        return to_dict(state)
    except FormatError as error:
        errors.extend((moved_under(p, _INITIAL_STATE), _unsuffixed(m)) for p, m in error.errors)
        return None


def _moves_doc(moves: object, errors: list[tuple[str, str]]) -> list[object]:
    """The moves as JSON-ready data, each problem found added to ``errors`` with its
    path under ``$.moves``; none is looked at past :data:`MAX_RECORD_MOVES`."""
    if not isinstance(moves, (tuple, list)):
        errors.append(("$.moves", f"expected a sequence of moves, got {type(moves).__name__}"))
        return []
    if len(moves) > MAX_RECORD_MOVES:
        errors.append(("$.moves", f"{len(moves)} moves: a record holds at most "
                       f"{MAX_RECORD_MOVES}"))  # fmt: skip
        return []
    written: list[object] = []
    for index, move in enumerate(moves):
        if type(move) not in _MOVE_TYPES:
            errors.append((f"$.moves[{index}]", "expected a move (Take, TableTake, PlaceTile "
                           f"or Refill), got {shown(move)}"))  # fmt: skip
        else:
            try:
                written.append(_notation_or_dict(move))
            except FormatError as error:
                errors.extend((f"$.moves[{index}]{p.removeprefix('$')}", _unsuffixed(m))
                              for p, m in error.errors)  # fmt: skip
        if len(errors) > MAX_REPORTED:
            break
    return written


def check_replayable(record: GameRecord) -> None:
    """``FormatError`` for a record :meth:`GameRecord.replay` refuses (see there); for
    the library's other replayers (``audit_game``)."""
    errors: list[tuple[str, str]] = []
    record._settings_doc(errors)
    _check_moves(record.moves, errors)
    if errors:
        raise format_error(errors)


def _check_moves(moves: object, errors: list[tuple[str, str]]) -> None:
    """What the reader would refuse in the moves themselves (not their number, a limit
    of JSON text): not a sequence, or an entry that is not a move, with its path."""
    if not isinstance(moves, (tuple, list)):
        errors.append(("$.moves", f"expected a sequence of moves, got {type(moves).__name__}"))
        return
    for index, move in enumerate(moves):
        if type(move) not in _MOVE_TYPES:
            errors.append((f"$.moves[{index}]", "expected a move (Take, TableTake, PlaceTile "
                           f"or Refill), got {shown(move)}"))  # fmt: skip
            if len(errors) > MAX_REPORTED:
                return


def _unsuffixed(problem: str) -> str:
    """A writer's problem without its "(not written...)" note, which ``unwritable``
    adds again to the record's."""
    return problem.removesuffix(NOT_WRITTEN)


def _notation_or_dict(move: Move) -> str | dict[str, Any]:
    """The compact notation when it says everything about the move, else JSON."""
    if type(move) is Take and move.player is None:
        text = str(move)
        try:
            if parse_move(text) == move:
                return text
        except FormatError:
            pass
    return to_dict(move)


def _start_settings(data: dict[str, Any], errors: list[tuple[str, str]]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    players = data.get("players", 2)
    if type(players) is not int or players not in (2, 3, 4):
        errors.append(("$.players", f"expected 2, 3 or 4, got {shown(players)}"))
    else:
        settings["players"] = players
    seed = data.get("seed", 0)
    if type(seed) is not int:
        errors.append(("$.seed", f"expected an integer, got {shown(seed)}"))
    else:
        settings["seed"] = seed
    variant = data.get("variant", "colored")
    if variant not in ("colored", "grey"):
        errors.append(("$.variant", f"expected colored or grey, got {shown(variant)}"))
    else:
        settings["variant"] = Variant(variant)
    first = data.get("first_player")
    if first is not None and (
        type(first) is not int or not 0 <= first < settings.get("players", 4)
    ):
        errors.append(("$.first_player", f"expected a player number from 0, got {shown(first)}"))
    else:
        settings["first_player"] = first
    external = data.get("external_draws", False)
    if not isinstance(external, bool):
        errors.append(("$.external_draws", f"expected true or false, got {shown(external)}"))
    else:
        settings["external_draws"] = external
    return settings


def _version_errors(data: dict[str, Any]) -> list[tuple[str, str]]:
    """A record's ``format_version``: required, and 1 (``true`` is not 1)."""
    if "format_version" not in data:
        return [("$.format_version", "required field missing")]
    version = data["format_version"]
    if type(version) is not int or version != 1:
        return [("$.format_version", f"expected 1, got {shown(version)}")]
    return []


def _key_order(key: object) -> str:
    """Unknown keys in a stable order: strings (the keys of JSON) as they are, any
    other key of plain data as it is shown."""
    return key if isinstance(key, str) else shown(key, None)
