"""A position of the game: its parts (boards, factories, centre, bag, lid, whose turn,
the round's context) and what can be read from them, with no referee.

The checks (``rules``, ``problems``) and the views (``render``, ``svg``) read a
:class:`Position`; :class:`~azul_rules.GameState` (in ``state``) is a ``Position`` with
the referee's entry points.  Tile multisets are sorted tuples of colours: public
construction (the constructor, ``attrs.evolve``, :meth:`Position.make`) sorts and checks
them; the referee's successors are built through the slots (:func:`build`,
:func:`new_context`), already sorted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Self, TypeVar

import attrs

from azul_rules.core._slots import new_instance, slot_setters
from azul_rules.core.board import PlayerBoard
from azul_rules.core.codes import StateProblem
from azul_rules.core.colors import Tiles
from azul_rules.core.errors import FormatError, InvalidStateError, Problem
from azul_rules.core.moves import items_of, tile_multiset
from azul_rules.core.phases import GAME_OVER, Phase, Variant, variant_of
from azul_rules.core.rng import MASK
from azul_rules.core.scoring import Outcome, RoundScoring
from azul_rules.core.shown import shown

__all__ = [
    "POSITION_SETTERS", "Position", "RoundContext", "build", "new_context",
    "structure_problems",
]  # fmt: skip

P = TypeVar("P", bound="Position")


def _tile_multiset(value: object) -> Tiles:
    """A multiset of tiles as the referee keeps it: a sorted tuple of colours.  Public
    construction (the constructor, ``attrs.evolve``) goes through here; the referee's
    own successors are built sorted, through the slots."""
    return tile_multiset(value, "a multiset of tiles")


def _factories(value: object) -> tuple[Tiles, ...]:
    factories = items_of(value, "factories is a sequence of tile multisets")
    return tuple([tile_multiset(tiles, f"factories[{i}]") for i, tiles in enumerate(factories)])


def _boards(value: object) -> tuple[PlayerBoard, ...]:
    boards = items_of(value, "players is a sequence of PlayerBoards")
    for board in boards:
        if not isinstance(board, PlayerBoard):
            raise FormatError(f"players holds PlayerBoards only, got {shown(board)}")
    return boards


class _Required:
    """The default of a part :meth:`Position.make` needs: told missing, by name."""

    def __repr__(self) -> str:
        return "<required>"


_REQUIRED: Any = _Required()


def _of_type(kind: type, optional: bool = False) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: the value is exactly of ``kind`` (``bool`` is no ``int``)."""

    def check(_: object, attribute: Any, value: object) -> None:
        if optional and value is None:
            return
        if type(value) is not kind and not (kind is not int and isinstance(value, kind)):
            raise FormatError(f"{attribute.name} must be {kind.__name__}, got {shown(value)}")

    return check


def _check_rng_state(_: object, attribute: Any, value: object) -> None:
    _of_type(int, optional=True)(_, attribute, value)
    if value is not None and not 0 <= value <= MASK:  # type: ignore[operator]
        raise FormatError(f"rng_state is a 64-bit state (0 to 2**64 - 1), got {shown(value)}")


def _check_round(_: object, attribute: Any, value: object) -> None:
    _of_type(int)(_, attribute, value)
    if value < 1:  # type: ignore[operator]
        raise FormatError(f"round counts from 1, got {shown(value)}")


@attrs.frozen
class RoundContext:
    """The parts of a position that takes leave alone: the bag, the lid (except when a
    full floor spills into it, F2), who started the round, the phase, the round number,
    the variant, the generator state, the outcome and the last tiling's record.

    Kept apart so that each take builds a small successor and shares this whole part
    with its parent.  Read these through the ``GameState`` properties of the same names.
    """

    bag: Tiles = attrs.field(converter=_tile_multiset)
    lid: Tiles = attrs.field(converter=_tile_multiset)
    start_player: int = attrs.field(validator=_of_type(int))
    phase: Phase = attrs.field(validator=_of_type(Phase))
    round: int = attrs.field(default=1, validator=_check_round)
    variant: Variant = attrs.field(default=Variant.COLORED, converter=variant_of)
    rng_state: int | None = attrs.field(default=None, validator=_check_rng_state)
    outcome: Outcome | None = attrs.field(default=None, validator=_of_type(Outcome, True))
    last_scoring: RoundScoring | None = attrs.field(
        default=None, eq=False, validator=_of_type(RoundScoring, True)
    )


@attrs.frozen
class Position:
    """A position of the game, between two moves: its parts and what can be read from
    them.  :class:`~azul_rules.GameState` adds the referee (``legal_moves``,
    ``validate``, ``apply``, ``problems``); the checks of lower layers read a
    ``Position``.

    ``marker_holder`` is the player who took the starting player marker from the centre
    this round (``None`` while it lies in the centre, T3); ``start_player`` started the
    round (R4, R5).  ``rng_state`` is the seeded generator's state, ``None`` when the
    table's draws are entered with :class:`Refill` moves.  ``last_scoring`` records the
    most recent wall tiling; it is history, not position, so it takes no part in
    equality or hashing.  The constructor and ``attrs.evolve`` check the types of the
    parts (``FormatError``) and store tile multisets sorted.
    """

    players: tuple[PlayerBoard, ...] = attrs.field(converter=_boards)
    factories: tuple[Tiles, ...] = attrs.field(converter=_factories)
    center: Tiles = attrs.field(converter=_tile_multiset)
    current_player: int = attrs.field(validator=_of_type(int))
    marker_holder: int | None = attrs.field(validator=_of_type(int, True))
    context: RoundContext = attrs.field(validator=_of_type(RoundContext))

    def __attrs_post_init__(self) -> None:
        """What the referee could not even read is refused at once: the public
        constructor, ``attrs.evolve``, :meth:`make` and :meth:`replace` raise
        :class:`InvalidStateError` for it (the referee's own successors are built through
        the slots and never get here)."""
        found = structure_problems(self)
        if found:
            raise InvalidStateError(found)

    @classmethod
    def make(
        cls,
        *,
        players: tuple[PlayerBoard, ...] = _REQUIRED,
        factories: tuple[Tiles, ...] = _REQUIRED,
        center: Tiles = _REQUIRED,
        bag: Tiles = _REQUIRED,
        lid: Tiles = _REQUIRED,
        current_player: int = _REQUIRED,
        start_player: int = _REQUIRED,
        phase: Phase = _REQUIRED,
        round: int = 1,
        variant: Variant | str = Variant.COLORED,
        marker_holder: int | None = None,
        rng_state: int | None = None,
        outcome: Outcome | None = None,
        last_scoring: RoundScoring | None = None,
    ) -> Self:
        """A state from every one of its parts, by name, through the checked
        constructors.  The tile multisets (factories, centre, bag, lid) may come in any
        order: they are stored sorted, the form the referee relies on and equality
        compares; ``variant`` may be ``"colored"`` or ``"grey"``.

        :raises FormatError: a part of the wrong type, as the constructor's.
        :raises InvalidStateError: what the referee could not read, as the
            constructor's (see :func:`structure_problems`).
        :raises TypeError: naming every part left out of those it needs (``players``
            to ``phase``).
        """
        given = (players, factories, center, bag, lid, current_player, start_player, phase)
        missing = [name for name, part in zip(_PART_NAMES, given, strict=False)
                   if part is _REQUIRED]  # fmt: skip
        if missing:
            raise TypeError(
                f"{cls.__name__}.make() needs every part of a position by name: "
                f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing (only "
                f"{', '.join(_PART_NAMES[8:])} may be left out)"
            )
        context = RoundContext(
            bag=bag, lid=lid, start_player=start_player, phase=phase, round=round,
            variant=variant, rng_state=rng_state, outcome=outcome, last_scoring=last_scoring,
        )  # fmt: skip
        return cls(
            players=players,
            factories=factories,
            center=center,
            current_player=current_player,
            marker_holder=marker_holder,
            context=context,
        )

    def replace(self, **changes: Any) -> Self:
        """This position with some parts changed, by the names :meth:`make` takes
        (``round``, ``phase``, ``bag``... as well as ``players`` or ``factories``).

        :raises FormatError: a part of the wrong type, as :meth:`make`.
        :raises InvalidStateError: what the referee could not read, as :meth:`make`.
        :raises TypeError: for an unknown name.
        """
        unknown = sorted(set(changes) - set(_PART_NAMES))
        if unknown:
            raise TypeError(f"replace() got unknown parts {unknown}; parts: {list(_PART_NAMES)}")
        parts = {name: getattr(self, name) for name in _PART_NAMES}
        parts.update(changes)
        return self.make(**parts)

    @property
    def bag(self) -> Tiles:
        """The tiles in the bag (a sorted tuple of colours)."""
        return self.context.bag

    @property
    def lid(self) -> Tiles:
        """The tiles in the box lid, the discard (a sorted tuple of colours)."""
        return self.context.lid

    @property
    def start_player(self) -> int:
        """The player who started this round (R4, R5)."""
        return self.context.start_player

    @property
    def phase(self) -> Phase:
        """What the game waits for (G1)."""
        return self.context.phase

    @property
    def round(self) -> int:
        """The round number, from 1."""
        return self.context.round

    @property
    def variant(self) -> Variant:
        """The wall variant."""
        return self.context.variant

    @property
    def rng_state(self) -> int | None:
        """The seeded generator's state, ``None`` with external draws."""
        return self.context.rng_state

    @property
    def outcome(self) -> Outcome | None:
        """The winners and final scores once the game is over (E4), else ``None``."""
        return self.context.outcome

    @property
    def last_scoring(self) -> RoundScoring | None:
        """The record of the most recent wall tiling (W1-W5, and E2 at the end).  During
        the grey wall tiling it holds the placements made so far in this round."""
        return self.context.last_scoring

    @property
    def is_over(self) -> bool:
        """True once the game has ended (E1, R6)."""
        return self.context.phase is GAME_OVER

    @property
    def num_players(self) -> int:
        """2, 3 or 4 (S1)."""
        return len(self.players)

    @property
    def marker_in_center(self) -> bool:
        """True while nobody has taken from the centre this round (T3)."""
        return self.marker_holder is None

    @property
    def external_draws(self) -> bool:
        """True when refills are entered as :class:`Refill` moves."""
        return self.rng_state is None



_PART_NAMES: Final = (
    "players", "factories", "center", "bag", "lid", "current_player", "start_player", "phase",
    "round", "variant", "marker_holder", "rng_state", "outcome", "last_scoring",
)  # fmt: skip


def structure_problems(position: Position) -> tuple[Problem, ...]:
    """What makes ``position`` unreadable by the referee, not only impossible in a game:
    a player count other than 2-4 (S1), a factory count other than the players' (S2),
    a current player, starting player or marker holder who is not at the table (G2,
    T3).  ``GameState.problems()`` reports these among the rest."""
    found: list[Problem] = []
    n = len(position.players)
    if n not in _FACTORY_COUNTS:
        found.append(Problem.of(StateProblem.PLAYER_COUNT, "S1", "$.players", count=n))
    elif len(position.factories) != _FACTORY_COUNTS[n]:
        found.append(Problem.of(
            StateProblem.FACTORY_COUNT, "S2", "$.factories",
            count=len(position.factories), players=n, expected=_FACTORY_COUNTS[n],
        ))  # fmt: skip
    for name, value, rule in (
        ("current_player", position.current_player, "G2"),
        ("start_player", position.context.start_player, "G2"),
        ("marker_holder", position.marker_holder, "T3"),
    ):
        if value is not None and not 0 <= value < n:
            found.append(
                Problem.of(StateProblem.PLAYER_OUT_OF_RANGE, rule, f"$.{name}", player=value)
            )
    return tuple(found)


_FACTORY_COUNTS: Final = {2: 5, 3: 7, 4: 9}


POSITION_SETTERS: Final = slot_setters(Position)
"""The slots' ``__set__`` of :class:`Position` (and so of ``GameState``), in field order
(see :func:`build`)."""
(_set_players, _set_factories, _set_center, _set_current, _set_marker,
 _set_context) = POSITION_SETTERS  # fmt: skip
(_set_bag, _set_lid, _set_start, _set_phase, _set_round, _set_variant, _set_rng,
 _set_outcome, _set_scoring) = slot_setters(RoundContext)  # fmt: skip


def build(
    cls: type[P],
    players: tuple[PlayerBoard, ...],
    factories: tuple[Tiles, ...],
    center: Tiles,
    current_player: int,
    marker_holder: int | None,
    context: RoundContext,
) -> P:
    """``cls(...)`` built through the slots, without the constructor's checks: for
    parts the library computed itself (the same object, fields in declaration order)."""
    position: P = new_instance(cls)
    _set_players(position, players)
    _set_factories(position, factories)
    _set_center(position, center)
    _set_current(position, current_player)
    _set_marker(position, marker_holder)
    _set_context(position, context)
    return position


def new_context(
    bag: Tiles,
    lid: Tiles,
    start_player: int,
    phase: Phase,
    round: int,
    variant: Variant,
    rng_state: int | None,
    outcome: Outcome | None,
    last_scoring: RoundScoring | None,
) -> RoundContext:
    """``RoundContext(...)``, built through the slots (see :func:`build`)."""
    context: RoundContext = new_instance(RoundContext)
    _set_bag(context, bag)
    _set_lid(context, lid)
    _set_start(context, start_player)
    _set_phase(context, phase)
    _set_round(context, round)
    _set_variant(context, variant)
    _set_rng(context, rng_state)
    _set_outcome(context, outcome)
    _set_scoring(context, last_scoring)
    return context
