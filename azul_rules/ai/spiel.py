"""Azul as an OpenSpiel game, refereed by azul_rules (extra ``[openspiel]``).

Importing this module registers the Python game ``python_azul``::

    import pyspiel
    import azul_rules.ai.spiel  # registers python_azul

    game = pyspiel.load_game("python_azul", {"players": 4, "variant": "grey"})

Parameters: ``players`` (2-4, default 2), ``variant`` (``"colored"`` or ``"grey"``) and
``max_rounds`` (default 50, see below).  Actions are the ids of
:mod:`azul_rules.ai.actions`.  Chance is explicit:

* the first chance node chooses the starting player, uniformly (S7): outcome ``125 + k``
  for player ``k``;
* each factory filled is one chance node (R2), factory 1 first: its outcome is the deal,
  the multiset of the four tiles drawn from the bag (ids ``0-69``; ``70-124`` for a
  factory left short when bag and lid run out), with the probability of drawing them
  (the multivariate hypergeometric; when the bag runs out the factory takes what it
  holds and the rest is drawn from the lid poured into it, R2).  When both are empty
  the fill stops, leaving factories short or empty (R2, R6).  The deals and their
  probabilities are :mod:`azul_rules.ai.deals`'.

Returns are given at the end only: the winners (E4: the highest score, ties broken by
complete rows, then shared) split what the losers pay, 1/(players - 1) each.  A sole
winner gets +1, each loser -1/(players - 1); a victory shared by everyone gives 0 to
all; the sum is always 0 (``ZERO_SUM``).

A game never ends by itself if the players avoid completing a wall row (both walls), so
the game is capped: once ``max_rounds`` rounds have been played without an end, the game
stops before the next fill and is a draw (every return 0), as OpenSpiel's chess does at
its move limit.  ``max_game_length`` counts the player moves of ``max_rounds`` rounds:
at most ``4 * F`` takes a round (each takes at least one of the ``4 * F`` tiles dealt),
plus on the grey wall at most 5 placements per player a round.

An illegal action raises ``pyspiel.SpielError`` whose message holds the verdict (its
codes, rule ids and messages); the exception's ``result`` attribute is the
:class:`azul_rules.Result` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple

import attrs

from azul_rules.core._extras import extra

with extra("openspiel", __name__):
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame

import azul_rules.ai.actions as codec
from azul_rules.ai import deals
from azul_rules.ai.actions import DEFAULT_MAX_ROUNDS, legal_actions
from azul_rules.ai.deals import deal_outcomes
from azul_rules.core._slots import new_instance, slot_setters
from azul_rules.core.colors import Color
from azul_rules.core.errors import FormatError, IllegalMoveError
from azul_rules.core.moves import Move, Refill
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.position import build, new_context
from azul_rules.core.shown import shown
from azul_rules.core.state import GameState, new_game

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "GAME_NAME",
    "AzulGame",
    "AzulObserver",
    "AzulSettings",
    "AzulState",
    "SpielImplementation",
    "game_type",
    "max_game_length",
    "utilities",
]

GAME_NAME: Final = "python_azul"
"""The name the game is registered under: ``pyspiel.load_game(GAME_NAME)``."""
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)  # pybind enums are slow to read
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_COLORS: Final = tuple(Color)
_FIRST_PLAYER_OUTCOME: Final = len(deals.DEALS)  # chance outcome 125 + k: player k starts (S7)
_DEFAULTS: Final = {"players": 2, "variant": "colored", "max_rounds": DEFAULT_MAX_ROUNDS}
_MAX_GAME_LENGTH: Final = 2**31 - 1  # GameInfo.max_game_length is a C++ int

utilities = codec.utilities


def game_type(
    short_name: str = GAME_NAME, long_name: str = "Azul (azul_rules referee)"
) -> pyspiel.GameType:
    """The ``GameType`` of ``python_azul`` (another name for a game built on it)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
    )


_GAME_TYPE: Final = game_type()


@attrs.frozen
class AzulSettings:
    """The game's parameters, checked."""

    players: int
    variant: Variant
    max_rounds: int

    def __deepcopy__(self, memo: dict[int, object]) -> AzulSettings:
        return self  # immutable: shared by every clone of a state

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None) -> AzulSettings:
        """Read and check ``players``, ``variant`` and ``max_rounds``.

        :raises SpielError: (``pyspiel.SpielError``) naming the parameter at fault: an
            unknown one, a player count other than 2-4, another variant, a round cap
            below 1 or past what OpenSpiel's 32-bit ``max_game_length`` holds.
        """
        given = dict(_DEFAULTS)
        given.update(params or {})
        unknown = sorted(set(given) - set(_DEFAULTS))
        if unknown:
            raise pyspiel.SpielError(f"python_azul has no parameter {unknown[0]!r}")
        players, variant, rounds = given["players"], given["variant"], given["max_rounds"]
        if type(players) is not int or players not in (2, 3, 4):
            raise pyspiel.SpielError(f"python_azul: players must be 2, 3 or 4, not {players!r}")
        if variant not in ("colored", "grey"):
            raise pyspiel.SpielError(
                f"python_azul: variant must be 'colored' or 'grey', not {variant!r}"
            )
        if type(rounds) is not int or rounds < 1:
            raise pyspiel.SpielError(f"python_azul: max_rounds must be 1 or more, not {rounds!r}")
        most = _MAX_GAME_LENGTH // max_game_length(players, variant, 1)
        if rounds > most:
            raise pyspiel.SpielError(
                f"python_azul: max_rounds must be at most {most:,} with {players} players on "
                f"the {variant} wall, not {rounds:,}: OpenSpiel holds max_game_length, "
                f"{max_game_length(players, variant, 1)} moves a round, in a 32-bit int"
            )
        return cls(players, Variant(variant), rounds)


def max_game_length(players: int, variant: Variant | str, max_rounds: int) -> int:
    """The most player moves a game can take: per round at most ``4 * F`` takes (each
    takes at least one of the ``4 * F`` tiles dealt), and on the grey wall at most five
    placements per player (one per complete pattern line, V3)."""
    per_round = 4 * codec.factory_count(players)
    if Variant(variant) is Variant.GREY:
        per_round += 5 * players
    return max_rounds * per_round


def _game_info(settings: AzulSettings) -> pyspiel.GameInfo:
    players = settings.players
    return pyspiel.GameInfo(
        num_distinct_actions=codec.num_actions(players, settings.variant),
        max_chance_outcomes=_FIRST_PLAYER_OUTCOME + players,
        num_players=players,
        min_utility=-1.0 / (players - 1),
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_game_length(players, settings.variant, settings.max_rounds),
    )


class AzulGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_azul``; load it with ``pyspiel.load_game``.

    :raises SpielError: (``pyspiel.SpielError``) for parameters
        :meth:`AzulSettings.from_params` refuses.
    """

    state_class: type[AzulState]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.settings = AzulSettings.from_params(params)
        values = {
            "players": self.settings.players,
            "variant": self.settings.variant.value,
            "max_rounds": self.settings.max_rounds,
        }
        super().__init__(_GAME_TYPE, _game_info(self.settings), values)

    def new_initial_state(self) -> AzulState:
        """The start of a game: a chance node choosing the first player."""
        return self.state_class(self)

    def state_from(self, position: GameState) -> AzulState:
        """A state of this game at the referee's ``position`` (to search from a given
        position, for puzzles and tests), with an empty history.  The first player is
        taken as chosen; a position waiting for a ``Refill`` begins its fill with chance
        nodes, and a seeded position is taken with its generator left out (the fills are
        chance nodes here).

        :raises SpielError: (``pyspiel.SpielError``) when the position's player count or
            wall differs from the game's.
        :raises FormatError: (``azul_rules.FormatError``, a ``TypeError``) when
            ``position`` is not a ``GameState``.
        """
        settings = self.settings
        if not isinstance(position, GameState):
            raise FormatError(f"state_from() reads a GameState, not {shown(position, 60)}")
        if len(position.players) != settings.players or position.variant is not settings.variant:
            raise pyspiel.SpielError(
                f"the position has {len(position.players)} players on the "
                f"{position.variant.value} wall; this game, {settings.players} on the "
                f"{settings.variant.value} wall"
            )
        state = self.state_class(self)
        state.set_position(position)
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Any:
        """The observer of the observation tensor and string; for perfect-recall
        observations (the information state) the history, as for every public game."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return AzulObserver(self.settings.players, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Kit:
    """What every state of one game reads on each action, made once per game's
    parameters: the move of each action id, the first-player outcomes, the placeholder
    table.  Immutable and shared: clones share it, and a pickle names it by its
    parameters."""

    __slots__ = ("factories", "first_players", "limit", "max_rounds", "moves", "placeholder",
                 "players", "starts", "steps", "variant")  # fmt: skip

    def __init__(self, players: int, variant: Variant, max_rounds: int) -> None:
        self.players = players
        self.variant = variant
        self.max_rounds = max_rounds
        self.factories = codec.factory_count(players)
        self.limit = codec.num_actions(players, variant)
        self.moves = tuple(codec.move_from_action(a, players, variant) for a in range(self.limit))
        # GameState.apply's hot path for each move: the successor, or None when the move
        # is illegal.
        self.steps: tuple[Callable[[GameState, Any], GameState | None], ...] = (
            GameState._successor,
        ) * self.limit
        self.first_players = [(_FIRST_PLAYER_OUTCOME + k, 1.0 / players) for k in range(players)]
        # The table waiting for its first fill, player k to start (immutable, shared);
        # until the first chance outcome, the one of player 0.
        self.starts = tuple(
            new_game(players, variant=variant, external_draws=True, first_player=k)
            for k in range(players)
        )
        self.placeholder = self.starts[0]

    def __deepcopy__(self, memo: dict[int, object]) -> _Kit:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Kit], tuple[int, str, int]]:
        return _kit, (self.players, self.variant.value, self.max_rounds)


_KITS: dict[tuple[int, str, int], _Kit] = {}


def _kit(players: int, variant: str, max_rounds: int) -> _Kit:
    """The kit of a game's parameters (one per parameters)."""
    found = _KITS.get((players, variant, max_rounds))
    if found is None:
        if len(_KITS) >= 64:
            _KITS.clear()
        found = _KITS[players, variant, max_rounds] = _Kit(players, Variant(variant), max_rounds)
    return found


class _Position(NamedTuple):
    """Everything an :class:`AzulState` holds, immutable: OpenSpiel clones a Python state
    by deep-copying its attributes, and this object is shared instead of copied."""

    referee: GameState
    player: int  # what current_player() answers: a seat, _CHANCE or _TERMINAL
    kit: _Kit
    started: bool = False  # the first player is chosen
    capped: bool = False  # stopped at the round cap
    filling: bool = False  # factories are being dealt (chance nodes)
    dealt: tuple[tuple[Color, ...], ...] = ()  # the factories dealt so far in this fill
    # The bag's tiles by colour (they change only when factories are dealt, R2); during
    # a fill, the bag and the lid as they are now.
    bag: tuple[int, ...] = (0, 0, 0, 0, 0)
    lid: tuple[int, ...] = (0, 0, 0, 0, 0)

    def __deepcopy__(self, memo: dict[int, object]) -> _Position:
        return self


class _GameSettings:
    """A state's :class:`AzulSettings`, those of its game.  OpenSpiel restores a Python
    state (``game.deserialize_state``) by setting the attributes pickled in the string
    on a new state of the game at hand: a state serialized in a game with other
    parameters is refused here, rather than left as a 2-player state of a 3-player
    game."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, state: object, owner: type | None = None) -> AzulSettings:
        settings: AzulSettings = state.__dict__[self.name]
        return settings

    def __set__(self, state: object, settings: AzulSettings) -> None:
        held = state.__dict__.get(self.name)
        if held is not None and settings != held:
            raise pyspiel.SpielError(
                f"this state was serialized in {_game_string(settings)}, not in this "
                f"game, {_game_string(held)}: deserialize it with a game of the same "
                "parameters (pyspiel.deserialize_game_and_state keeps the game with it)"
            )
        state.__dict__[self.name] = settings


def _game_string(settings: object) -> str:
    if not isinstance(settings, AzulSettings):
        return f"something else than python_azul ({shown(settings, 60)})"
    return (
        f"python_azul(max_rounds={settings.max_rounds},players={settings.players},"
        f"variant={settings.variant.value})"
    )


class AzulState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_azul``: the referee's :class:`azul_rules.GameState`
    (``referee``) and, during a fill, the factories dealt so far.

    :raises SpielError: (``pyspiel.SpielError``) from ``apply_action``, for an action that
        is illegal (its ``result`` is the referee's verdict), outside this game's ids, or
        played after the end.
    """

    _settings = _GameSettings()
    _plain = True  # _play is this class's: the hot path calls the referee itself

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._plain = cls._play is AzulState._play

    def __init__(self, game: AzulGame) -> None:
        super().__init__(game)
        settings = game.settings
        self._settings = settings
        kit = _kit(settings.players, settings.variant.value, settings.max_rounds)
        self._position = _Position(kit.placeholder, _CHANCE, kit)

    # -- the OpenSpiel API ----------------------------------------------------------

    def current_player(self) -> int:
        """The player to move, ``CHANCE`` while choosing the first player or dealing
        the factories, ``TERMINAL`` at the end."""
        return self._position.player

    def is_terminal(self) -> bool:
        """True once the game is over (E1, R6) or stopped at the round cap."""
        return self._position.player == _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        position = self._position
        if player != position.player:
            return []
        if player >= 0:
            return legal_actions(position.referee)
        if player == _CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first player (``125 + k``, uniform), or the deal of the next factory
        (``0-124``, :func:`azul_rules.ai.deals.deal_outcomes`: the tiles drawn from the bag,
        the lid poured in when it runs out, R2)."""
        position = self._position
        if position.filling:
            return deal_outcomes(position.bag, position.lid)
        if position.player == _CHANCE:  # the first player
            return list(position.kit.first_players)
        return []

    def _apply_action(self, action: int) -> None:
        position = self._position
        if self._plain or position.player < 0:  # the hot paths, when they apply
            found = _step(position, action)
            if found is not None:
                self._position = found
                return
        if position.player >= 0:  # a player's move
            kit = position.kit
            if 0 <= action < kit.limit:
                move = kit.moves[action]
            else:
                self._refuse_action(action)
            try:
                if self._plain:  # GameState.apply's hot path, without its frame
                    after = kit.steps[action](position.referee, move)
                    if after is None:  # illegal: apply raises with the verdict
                        after = position.referee.apply(move)
                else:
                    after = self._play(move)
            except IllegalMoveError as error:
                failure = pyspiel.SpielError(
                    f"illegal action {action} ({move}) for player "
                    f"{position.referee.current_player}: {error.result}"
                )
                failure.result = error.result
                raise failure from None
            context = after.context
            phase = context.phase
            if phase is _FACTORY_OFFER or phase is _WALL_TILING:
                self._position = _new_position(
                    _Position, (after, after.current_player, kit, True, False, False, (),
                                position.bag, _NO_TILES)
                )  # fmt: skip
            elif context.bag is position.referee.context.bag:  # the bag as it was
                self._position = _settle(after, kit, position.bag)
            else:
                self._position = _settle(after, kit)
        elif position.player == _TERMINAL:
            raise pyspiel.SpielError(f"action {action}: the game is over")
        elif not position.started:
            self._position = self._choose_first_player(action)
        else:
            self._position = _deal(position, action)

    def _action_to_string(self, player: int, action: int) -> str:
        settings = self._settings
        if player == _CHANCE:
            if 0 <= action - _FIRST_PLAYER_OUTCOME < settings.players:
                return f"player {action - _FIRST_PLAYER_OUTCOME} starts"
            if 0 <= action < _FIRST_PLAYER_OUTCOME:
                return f"deal {deals.outcome_text(action)}"
            return f"chance outcome {action}"
        try:
            return str(codec.move_from_action(action, settings.players, settings.variant))
        except ValueError:  # an id outside this game's actions (the other wall's)
            return f"action {action}"

    def returns(self) -> list[float]:
        """0 for all until the end; then :func:`utilities` of the winners (0 for all
        when the game was stopped at the round cap)."""
        players = self._settings.players
        outcome = self._position.referee.outcome
        if outcome is None:
            return [0.0] * players
        return utilities(outcome.winners, players)

    def __str__(self) -> str:
        return f"{self._status()}\n{codec.table_string(self.table)}"

    # -- reading ----------------------------------------------------------------------

    @property
    def referee(self) -> GameState:
        """The referee's position: during a fill it waits in ``Phase.REFILL`` for the
        factories being dealt; before the first player is chosen it is a placeholder
        with player 0 to start."""
        return self._position.referee

    @property
    def capped(self) -> bool:
        """True when the game was stopped at the round cap (a draw)."""
        return self._position.capped

    @property
    def table(self) -> GameState:
        """The position as it lies on the table: ``referee``, with the factories dealt
        so far during a fill (and the bag and lid as they are then)."""
        position = self._position
        state = position.referee
        if not position.filling:
            return state
        dealt = position.dealt
        return GameState.make(
            players=state.players,
            factories=dealt + ((),) * (len(state.factories) - len(dealt)),
            center=state.center,
            bag=_tiles(position.bag),
            lid=_tiles(position.lid),
            current_player=state.current_player,
            start_player=state.start_player,
            phase=state.phase,
            round=state.round,
            variant=state.variant,
            marker_holder=state.marker_holder,
            last_scoring=state.last_scoring,
        )

    def observation_vector(self, player: int) -> list[float]:
        """:func:`azul_rules.ai.actions.observation` of :attr:`table`, with no player to
        move (``to_move`` all zeros) before the first player is chosen and once the game
        is stopped at the round cap, and no ``start_player`` before the choice."""
        vector = codec.observation(self.table, player)
        self._clear_seats(vector)
        return vector

    def _clear_seats(self, vector: Any) -> None:
        position = self._position
        if not position.started or position.capped:
            # No one to move before the first player is chosen, nor once stopped at the
            # round cap (a terminal state, as at the end); no starter before the choice.
            cleared = ("to_move",) if position.started else ("to_move", "start_player")
            for field in codec.observation_layout(self._settings.players):
                if field.name in cleared:
                    vector[field.offset : field.offset + field.size] = [0.0] * field.size

    def observation_text(self, player: int) -> str:
        """:func:`azul_rules.ai.actions.observation_string` of :attr:`table`, after a line
        saying what the game waits for."""
        return f"{self._status()}\n{codec.observation_string(self.table, player)}"

    # -- mechanics --------------------------------------------------------------------

    def set_position(self, position: GameState) -> None:
        """Put the game at the referee's ``position`` (see :meth:`AzulGame.state_from`)."""
        if position.rng_state is not None:
            position = GameState.make(
                players=position.players,
                factories=position.factories,
                center=position.center,
                bag=position.bag,
                lid=position.lid,
                current_player=position.current_player,
                start_player=position.start_player,
                phase=position.phase,
                round=position.round,
                variant=position.variant,
                marker_holder=position.marker_holder,
                outcome=position.outcome,
                last_scoring=position.last_scoring,
            )
        self._position = _settle(position, self._position.kit)

    def _status(self) -> str:
        position = self._position
        if position.capped:
            return f"stopped after round {self._settings.max_rounds} (round cap): a draw"
        if not position.started:
            return "chance: the first player is drawn (S7)"
        if position.filling:
            factories = len(position.referee.factories)
            return f"chance: factory {len(position.dealt) + 1} of {factories} is dealt (R2)"
        if position.referee.is_over:
            return "game over"
        return f"player {position.referee.current_player} to move"

    def _choose_first_player(self, action: int) -> _Position:
        kit = self._position.kit
        player = action - _FIRST_PLAYER_OUTCOME
        if not 0 <= player < kit.players:
            last = _FIRST_PLAYER_OUTCOME + kit.players - 1
            node = (
                f"this chance node chooses the first player (S7) and takes outcomes "
                f"{_FIRST_PLAYER_OUTCOME}-{last} (player 0-{kit.players - 1} starts)"
            )
            if 0 <= action < _FIRST_PLAYER_OUTCOME:
                node += (
                    "; the deals 0-124 (a factory's tiles) are the outcomes of the chance "
                    "nodes after it (R2)"
                )
            raise pyspiel.SpielError(f"chance outcome {action} is not a first player: {node}")
        return _settle(kit.starts[player], kit)

    def _refuse_action(self, action: int) -> None:
        """Raises ``SpielError`` for an id outside this game's actions."""
        kit = self._position.kit
        try:
            codec.move_from_action(action, kit.players, kit.variant)
        except ValueError as error:
            raise pyspiel.SpielError(f"illegal action: {error}") from None
        raise AssertionError(f"action {action} is within the game's actions")  # pragma: no cover

    def _play(self, move: Move) -> GameState:
        """The referee's successor after a player's move (a hook for tests)."""
        return self._position.referee.apply(move)


_FACTORY_OFFER: Final = Phase.FACTORY_OFFER
_WALL_TILING: Final = Phase.WALL_TILING
_REFILL: Final = Phase.REFILL
_GAME_OVER: Final = Phase.GAME_OVER
_NO_TILES: Final = (0, 0, 0, 0, 0)
_deal_counted: Final = deals.deal_counted
_new_position: Final = tuple.__new__  # _Position(...) with every field given, faster
_new_refill: Final = new_instance
_set_refill_factories, _set_refill_player = slot_setters(Refill)


def _refill(seen: tuple[tuple[Color, ...], ...]) -> Refill:
    """``Refill(seen)`` for factories dealt here: sorted tuples of colours already, as
    ``Refill``'s converter makes them (built through the slots, as the referee builds
    its own values; see ``azul_rules.core._slots``)."""
    move = _new_refill(Refill)
    _set_refill_factories(move, seen)
    _set_refill_player(move, None)
    return move


def _settle(referee: GameState, kit: _Kit, bag: tuple[int, ...] | None = None) -> _Position:
    """The position at ``referee``: the player to move, the end, the round cap, or the
    beginning of a fill when the referee waits for one (R2, R6).  ``bag``: the bag's
    tiles by colour when the caller knows them (counted otherwise)."""
    context = referee.context
    if bag is None:
        bag = _counts(context.bag)
    if context.phase is _REFILL:
        if context.round > kit.max_rounds:
            return _Position(referee, _TERMINAL, kit, True, True, False, (), bag)
        if not (context.bag or context.lid):  # nothing to deal: R6 ends the game
            return _settle(referee.apply(_refill(((),) * len(referee.factories))), kit, bag)
        return _new_position(
            _Position, (referee, _CHANCE, kit, True, False, True, (), bag, _counts(context.lid))
        )
    if context.phase is _GAME_OVER:
        return _Position(referee, _TERMINAL, kit, True, False, False, (), bag)
    return _new_position(
        _Position, (referee, referee.current_player, kit, True, False, False, (), bag, _NO_TILES)
    )


def _deal(position: _Position, action: int) -> _Position:
    """One factory dealt (R2): ``action`` is its deal, the lid poured into the bag when
    the bag runs out; once the fill is done, the referee's position after it."""
    lid = position.lid
    try:
        if type(action) is not int or not 0 <= action < _FIRST_PLAYER_OUTCOME:
            raise ValueError("not a deal")
        tiles, bag, lid = _deal_counted(position.bag, lid, action)
    except ValueError as error:
        raise pyspiel.SpielError(_undealable(position, action, error)) from None
    dealt = (*position.dealt, tiles)
    kit = position.kit
    if len(dealt) < kit.factories and (bag != _NO_TILES or lid != _NO_TILES):
        return _new_position(
            _Position, (position.referee, _CHANCE, kit, True, False, True, dealt, bag, lid)
        )
    return _finish(position, dealt, bag, lid)


def _step(position: _Position, action: int) -> _Position | None:
    """The next position on the two hot paths, or ``None`` for the general path of
    :meth:`AzulState._apply_action` (which raises for what cannot be played): a legal
    move by the referee's own ``_take`` or ``_place_tile`` (what ``GameState.apply``
    calls), and a deal the bag (or the lid poured into it) can give, R2.  The Python
    reference of its compiled version (``azul_rules.core._accelerate``)."""
    player = position.player
    if type(action) is not int:
        return None
    kit = position.kit
    if player >= 0:
        if not 0 <= action < kit.limit:
            return None
        referee = position.referee
        after = kit.steps[action](referee, kit.moves[action])
        if after is None:
            return None
        context = after.context
        phase = context.phase
        if phase is _FACTORY_OFFER or phase is _WALL_TILING:
            return _new_position(
                _Position, (after, after.current_player, kit, True, False, False, (),
                            position.bag, _NO_TILES)
            )  # fmt: skip
        if context.bag is referee.context.bag:  # the bag as it was
            return _settle(after, kit, position.bag)
        return _settle(after, kit)
    if player != _CHANCE or not position.filling or not 0 <= action < _FIRST_PLAYER_OUTCOME:
        return None
    try:
        tiles, bag, lid = _deal_counted(position.bag, position.lid, action)
    except ValueError:
        return None
    dealt = (*position.dealt, tiles)
    if len(dealt) < kit.factories and (bag != _NO_TILES or lid != _NO_TILES):
        return _new_position(
            _Position, (position.referee, _CHANCE, kit, True, False, True, dealt, bag, lid)
        )
    return _finish(position, dealt, bag, lid)


def _finish(
    position: _Position,
    dealt: tuple[tuple[Color, ...], ...],
    bag: tuple[int, ...],
    lid: tuple[int, ...],
) -> _Position:
    """The position once the last factory of a fill is dealt (R2): the referee's."""
    kit = position.kit
    seen = dealt + ((),) * (kit.factories - len(dealt))
    return _settle(refilled(position.referee, seen, bag, lid), kit, bag)


def refilled(
    referee: GameState,
    seen: tuple[tuple[Color, ...], ...],
    bag: tuple[int, ...],
    lid: tuple[int, ...],
) -> GameState:
    """``referee.apply(Refill(seen))`` for a fill dealt by :func:`azul_rules.ai.deals.deal`
    from ``referee``'s bag and lid, ending with ``bag`` and ``lid`` (tiles by colour):
    the position ``GameState._refill`` builds (R2), built through the slots as the
    referee builds its own successors, without checking again what the deals
    guarantee.  A fill that deals nothing (R6: the game ends) goes to the referee.
    ``tests/ai/test_spiel.py`` holds it to ``referee.apply(Refill(seen))``."""
    if not any(seen):
        return referee.apply(_refill(seen))
    context = referee.context
    starter = referee.current_player
    return build(
        GameState, referee.players, seen, (), starter, None,
        new_context(_tiles(bag), _tiles(lid), starter, _FACTORY_OFFER, context.round,
                    context.variant, None, None, context.last_scoring),
    )  # fmt: skip


def _undealable(position: _Position, action: int, error: ValueError) -> str:
    """Why ``action`` cannot be this deal's outcome, and which outcomes can (R2)."""
    factory = len(position.dealt) + 1
    outcomes = deal_outcomes(position.bag, position.lid)
    takes = ", ".join(f"{a} ({deals.outcome_text(a)})" for a, _ in outcomes)
    node = f"this chance node deals factory {factory} and takes outcomes {takes} (R2)"
    players = position.kit.players
    if type(action) is int and 0 <= action < _FIRST_PLAYER_OUTCOME:
        return f"chance outcome {action} ({deals.outcome_text(action)}): {error}; {node}"
    if type(action) is int and _FIRST_PLAYER_OUTCOME <= action < _FIRST_PLAYER_OUTCOME + players:
        what = "a first-player outcome (S7), taken only by the game's first chance node"
        return f"chance outcome {action} is not a deal but {what}; {node}"
    last = _FIRST_PLAYER_OUTCOME + players - 1
    return (
        f"chance outcome {shown(action)} is not a deal (0-{_FIRST_PLAYER_OUTCOME - 1}), nor "
        f"any outcome of this game (0-{last}); {node}"
    )


_BLUE, _YELLOW, _RED, _BLACK, _WHITE = _COLORS


def _counts(tiles: Sequence[Color]) -> tuple[int, ...]:
    """A multiset of tiles as counts by colour."""
    count = tiles.count
    return (count(_BLUE), count(_YELLOW), count(_RED), count(_BLACK), count(_WHITE))


_ONE: Final = tuple((color,) for color in _COLORS)


def _tiles(counts: Sequence[int]) -> tuple[Color, ...]:
    """Counts by colour as the referee keeps a multiset: a sorted tuple of colours."""
    blue, yellow, red, black, white = _ONE
    n0, n1, n2, n3, n4 = counts
    return blue * n0 + yellow * n1 + red * n2 + black * n3 + white * n4


AzulGame.state_class = AzulState


class AzulObserver:
    """The observation tensor (``azul_rules.ai.actions.observation``, as float32) and
    string of ``python_azul``; ``dict`` holds a named, shaped view of each field.

    :raises ValueError: for observation parameters (it takes none).
    """

    def __init__(self, players: int, params: Mapping[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"python_azul observations take no parameters, got {params}")
        layout = codec.observation_layout(players)
        self.tensor = np.zeros(codec.observation_size(players), np.float32)
        self.dict = {
            field.name: self.tensor[field.offset : field.offset + field.size].reshape(field.shape)
            for field in layout
        }

    def set_from(self, state: AzulState, player: int) -> None:
        """Fill ``tensor`` with ``state`` seen by ``player``."""
        self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: AzulState, player: int) -> str:
        """``state`` seen by ``player``, as text."""
        return state.observation_text(player)


pyspiel.register_game(_GAME_TYPE, AzulGame)


# -- differential testing ------------------------------------------------------------------


class SpielImplementation:
    """Any OpenSpiel Azul game, driven move by move beside the referee: an
    :class:`azul_rules.testing.Implementation` for
    :func:`azul_rules.testing.differential_machine` (or use
    :func:`azul_rules.testing.spiel_differential_machine`).

    At each move it checks that the game has the same player to move, the same legal
    action ids (:mod:`azul_rules.ai.actions`) and the same end as the referee, and at the
    end that the players with the highest return are the referee's winners (E4); the
    machine compares ``scores()`` after every move.  A difference raises
    ``AssertionError`` saying what differs.

    The game must use the action ids of :mod:`azul_rules.ai.actions`.  By default it must
    also follow ``python_azul``'s parameters, chance outcomes (``125 + k`` for the first
    player, then one deal per factory: :func:`chance_sequence`) and observation layout (the
    scores are read from player 0's observation tensor); pass ``parameters``,
    ``deal`` and ``scores`` to drive a game that does otherwise.
    """

    def __init__(
        self,
        game: str = GAME_NAME,
        *,
        parameters: Callable[[int, Variant], Mapping[str, Any]] | None = None,
        deal: Callable[[GameState, GameState | None], list[int]] | None = None,
        scores: Callable[[Any], Sequence[int]] | None = None,
    ) -> None:
        self.game_name = game
        self._parameters = parameters or _azul_parameters
        self._deal = deal or chance_sequence
        self._scores = scores or observed_scores

    def start(self, state: GameState) -> None:
        """Load the game for ``state``'s players and wall, then play the chance outcomes
        that give ``state``'s first player and factories."""
        self.game = pyspiel.load_game(
            self.game_name, dict(self._parameters(len(state.players), state.variant))
        )
        self.state = self.game.new_initial_state()
        self.referee = state
        self._feed(self._deal(state, None))
        self._check_position()

    def play(self, move: Move) -> None:
        """Play ``move`` (its action id) in the game and the referee, then the chance
        outcomes of the referee's next fill, if the move ended a round."""
        before = self.referee
        expected = codec.legal_actions(before)
        got = sorted(self.state.legal_actions())
        if got != expected:
            missing = sorted(set(expected) - set(got))
            extra = sorted(set(got) - set(expected))
            raise AssertionError(
                f"before {move}: legal actions differ; the game lacks "
                f"{_named(missing, before)} and adds {_named(extra, before)}"
            )
        self.state.apply_action(codec.action_id(move, len(before.players)))
        self.referee = after = before.apply(move)
        if self.state.is_chance_node():
            self._feed(self._deal(after, before))
        self._check_position()

    def scores(self) -> Sequence[int]:
        """Every player's score in the game now."""
        return tuple(self._scores(self.state))

    def _feed(self, outcomes: list[int]) -> None:
        for outcome in outcomes:
            if not self.state.is_chance_node():
                raise AssertionError(
                    f"the game expects a player's move where the referee deals "
                    f"(outcomes left: {outcomes})"
                )
            possible = dict(self.state.chance_outcomes())
            if outcome not in possible:
                raise AssertionError(
                    f"the game cannot produce chance outcome {outcome} "
                    f"(its outcomes: {sorted(possible)})"
                )
            self.state.apply_action(outcome)

    def _check_position(self) -> None:
        referee = self.referee
        if self.state.is_chance_node():
            raise AssertionError("the game still waits for chance outcomes after the fill")
        if self.state.is_terminal() != referee.is_over:
            raise AssertionError(
                f"the game {'ended' if self.state.is_terminal() else 'goes on'} where the "
                f"referee's game {'is over' if referee.is_over else 'goes on'}"
            )
        if referee.outcome is not None:
            returns = self.state.returns()
            best = max(returns)
            winners = tuple(p for p, r in enumerate(returns) if r == best)
            if winners != referee.outcome.winners:
                raise AssertionError(
                    f"the game's returns {returns} do not make the referee's winners "
                    f"{referee.outcome.winners} (E4)"
                )
        elif self.state.current_player() != referee.current_player:
            raise AssertionError(
                f"player {self.state.current_player()} moves in the game, "
                f"player {referee.current_player} in the referee's"
            )


def _azul_parameters(players: int, variant: Variant) -> dict[str, Any]:
    return {"players": players, "variant": variant.value}


def _named(ids: list[int], state: GameState) -> str:
    if not ids:
        return "nothing"
    players = len(state.players)
    return ", ".join(f"{i} ({codec.action_to_string(i, players)})" for i in ids)


def chance_sequence(state: GameState, before: GameState | None) -> list[int]:
    """The ``python_azul`` chance outcomes that deal ``state``'s factories: the first
    player (``125 + k``) when ``before`` is ``None`` (a new game), then each factory's
    deal (:func:`azul_rules.ai.deals.deal_id` of its tiles), factory by factory, for every
    factory that got a tile (R2: the factories left empty when bag and lid ran out get
    no chance node).  ``before`` is unused otherwise: a factory's deal is its tiles,
    whether they came from the bag or, once it ran out, from the lid."""
    outcomes = [] if before is not None else [_FIRST_PLAYER_OUTCOME + state.start_player]
    if state.is_over:  # R6: nothing could be dealt, so nothing is drawn
        return outcomes
    return outcomes + [deals.deal_id(tiles) for tiles in state.factories if tiles]


def observed_scores(state: Any) -> list[int]:
    """The scores in player 0's observation tensor, laid out as
    :func:`azul_rules.ai.actions.observation_layout` says."""
    game = state.get_game()
    players = game.num_players()
    tensor = state.observation_tensor(0)
    layout = {field.name: field for field in codec.observation_layout(players)}
    return [int(tensor[layout[f"board{k}.score"].offset]) for k in range(players)]
