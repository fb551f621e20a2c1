"""Azul as an OpenSpiel game, refereed by azul_rules (extra ``[openspiel]``).

Importing this module registers the Python game ``python_azul``::

    import pyspiel
    import azul_rules.spiel  # registers python_azul

    game = pyspiel.load_game("python_azul", {"players": 4, "variant": "grey"})

Parameters: ``players`` (2-4, default 2), ``variant`` (``"colored"`` or ``"grey"``) and
``max_rounds`` (default 50, see below).  Actions are the ids of
:mod:`azul_rules.actions`.  Chance is explicit:

* the first chance node chooses the starting player, uniformly (S7): outcome ``5 + k``
  for player ``k``;
* every tile drawn to fill the factories is one chance node (R2): outcomes ``0-4`` are the
  colours (S5 order), weighted by the tiles of each colour in the bag; when the bag is
  empty the lid is poured in first (R2); when both are empty the fill stops, leaving
  factories short or empty (R2, R6).  Tiles fill factory 1 first, four per factory.

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
from typing import Any, Final

import attrs

from azul_rules._extras import extra

with extra("openspiel", __name__):
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame

from azul_rules import (
    Color,
    FormatError,
    GameState,
    IllegalMoveError,
    Move,
    Phase,
    Refill,
    Variant,
    new_game,
)
from azul_rules import actions as codec
from azul_rules.actions import DEFAULT_MAX_ROUNDS
from azul_rules.shown import shown

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
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)  # pybind enums are slow to read
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_COLORS: Final = tuple(Color)
_FIRST_PLAYER_OUTCOME: Final = 5  # chance outcome 5 + k: player k starts (S7)
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
        """Read and check ``players``, ``variant`` and ``max_rounds``; raises
        ``pyspiel.SpielError`` naming the parameter at fault."""
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
    """The OpenSpiel game ``python_azul``; load it with ``pyspiel.load_game``."""

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
        chance nodes here).  Raises ``pyspiel.SpielError`` when the position's player
        count or wall differs from the game's, ``azul_rules.FormatError`` (a
        ``TypeError``) when ``position`` is not a ``GameState``."""
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


@attrs.frozen
class _Position:
    """Everything an :class:`AzulState` holds, immutable: OpenSpiel clones a Python state
    by deep-copying its attributes, and this object is shared instead of copied."""

    referee: GameState
    started: bool = False  # the first player is chosen
    capped: bool = False  # stopped at the round cap
    filling: bool = False  # tiles are being drawn (chance nodes)
    drawn: tuple[int, ...] = ()  # colours drawn in this fill, in order
    bag: tuple[int, ...] = (0, 0, 0, 0, 0)  # during a fill: tiles by colour now
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
    (``referee``) and, during a fill, the tiles drawn so far."""

    _settings = _GameSettings()

    def __init__(self, game: AzulGame) -> None:
        super().__init__(game)
        settings = game.settings
        self._settings = settings
        # Until the first chance outcome, a placeholder table with player 0 to start.
        placeholder = new_game(
            settings.players, variant=settings.variant, external_draws=True, first_player=0
        )
        self._position = _Position(placeholder)

    # -- the OpenSpiel API ----------------------------------------------------------

    def current_player(self) -> int:
        """The player to move, ``CHANCE`` while choosing the first player or drawing
        tiles, ``TERMINAL`` at the end."""
        position = self._position
        if position.capped or position.referee.is_over:
            return _TERMINAL
        if not position.started or position.filling:
            return _CHANCE
        return position.referee.current_player

    def is_terminal(self) -> bool:
        """True once the game is over (E1, R6) or stopped at the round cap."""
        return self._position.capped or self._position.referee.is_over

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        if player == _CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        return codec.legal_actions(self._position.referee)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first player (``5 + k``, uniform), or the colour of the next tile drawn
        (``0-4``, weighted by the bag's tiles; by the lid's once the bag is empty)."""
        position = self._position
        if not position.started:
            players = self._settings.players
            return [(_FIRST_PLAYER_OUTCOME + k, 1.0 / players) for k in range(players)]
        if not position.filling or position.capped:
            return []
        supply = position.bag if any(position.bag) else position.lid
        total = sum(supply)
        return [(color, count / total) for color, count in enumerate(supply) if count]

    def _apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise pyspiel.SpielError(f"action {action}: the game is over")
        position = self._position
        if not position.started:
            position = self._choose_first_player(action)
        elif position.filling:
            position = _draw(position, action)
        else:
            position = _Position(self._play_action(action), started=True)
        self._position = self._settle(position)

    def _action_to_string(self, player: int, action: int) -> str:
        settings = self._settings
        if player == _CHANCE:
            if 0 <= action - _FIRST_PLAYER_OUTCOME < settings.players:
                return f"player {action - _FIRST_PLAYER_OUTCOME + 1} starts"
            if 0 <= action < 5:
                return f"draw {Color(action).name.lower()}"
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
        tiles being drawn; before the first player is chosen it is a placeholder with
        player 0 to start."""
        return self._position.referee

    @property
    def capped(self) -> bool:
        """True when the game was stopped at the round cap (a draw)."""
        return self._position.capped

    @property
    def table(self) -> GameState:
        """The position as it lies on the table: ``referee``, with the tiles drawn so far
        on the factories during a fill (and the bag and lid as they are then)."""
        position = self._position
        state = position.referee
        if not position.filling:
            return state
        drawn = position.drawn
        factories = [tuple(_COLORS[c] for c in drawn[i : i + 4])
                     for i in range(0, 4 * len(state.factories), 4)]  # fmt: skip
        return GameState.make(
            players=state.players,
            factories=tuple(factories),
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
        """:func:`azul_rules.actions.observation` of :attr:`table`, with no player to
        move (``to_move`` all zeros) before the first player is chosen and once the game
        is stopped at the round cap, and no ``start_player`` before the choice."""
        vector = codec.observation(self.table, player)
        position = self._position
        if not position.started or position.capped:
            # No one to move before the first player is chosen, nor once stopped at the
            # round cap (a terminal state, as at the end); no starter before the choice.
            cleared = ("to_move",) if position.started else ("to_move", "start_player")
            for field in codec.observation_layout(self._settings.players):
                if field.name in cleared:
                    vector[field.offset : field.offset + field.size] = [0.0] * field.size
        return vector

    def observation_text(self, player: int) -> str:
        """:func:`azul_rules.actions.observation_string` of :attr:`table`, after a line
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
        self._position = self._settle(_Position(position, started=True))

    def _status(self) -> str:
        position = self._position
        if position.capped:
            return f"stopped after round {self._settings.max_rounds} (round cap): a draw"
        if not position.started:
            return "chance: the first player is drawn (S7)"
        if position.filling:
            dealt = 4 * len(position.referee.factories)
            return f"chance: tile {len(position.drawn) + 1} of {dealt} is drawn (R2)"
        if position.referee.is_over:
            return "game over"
        return f"player {position.referee.current_player + 1} to move"

    def _choose_first_player(self, action: int) -> _Position:
        settings = self._settings
        player = action - _FIRST_PLAYER_OUTCOME
        if not 0 <= player < settings.players:
            last = _FIRST_PLAYER_OUTCOME + settings.players - 1
            node = (
                f"this chance node chooses the first player (S7) and takes outcomes "
                f"{_FIRST_PLAYER_OUTCOME}-{last} (player 1-{settings.players} starts)"
            )
            if 0 <= action < _FIRST_PLAYER_OUTCOME:
                node += "; the tile colours 0-4 are drawn at the chance nodes after it (R2)"
            raise pyspiel.SpielError(f"chance outcome {action} is not a first player: {node}")
        referee = new_game(
            settings.players, variant=settings.variant, external_draws=True, first_player=player
        )
        return _Position(referee, started=True)

    def _play_action(self, action: int) -> GameState:
        settings = self._settings
        referee = self._position.referee
        try:
            move = codec.move_from_action(action, settings.players, settings.variant)
        except ValueError as error:
            raise pyspiel.SpielError(f"illegal action: {error}") from None
        try:
            return self._play(move)
        except IllegalMoveError as error:
            failure = pyspiel.SpielError(
                f"illegal action {action} ({move}) for player "
                f"{referee.current_player + 1}: {error.result}"
            )
            failure.result = error.result
            raise failure from None

    def _play(self, move: Move) -> GameState:
        """The referee's successor after a player's move (a hook for tests)."""
        return self._position.referee.apply(move)

    def _settle(self, position: _Position) -> _Position:
        """Begin or finish a fill when the referee waits for one; stop at the cap."""
        state = position.referee
        if state.phase is not Phase.REFILL:
            return position
        if not position.filling:
            if state.round > self._settings.max_rounds:
                return attrs.evolve(position, capped=True)
            position = _Position(
                state, True, False, True, (), tuple(_counts(state.bag)), tuple(_counts(state.lid))
            )
        drawn = position.drawn
        dealt = 4 * len(state.factories)
        if len(drawn) < dealt and (any(position.bag) or any(position.lid)):
            return position
        seen = tuple(tuple(_COLORS[c] for c in drawn[i : i + 4]) for i in range(0, dealt, 4))
        return _Position(state.apply(Refill(seen)), started=True)


def _draw(position: _Position, action: int) -> _Position:
    """One tile drawn (R2): from the bag, the lid poured in first if it is empty."""
    pour = not any(position.bag)
    supply = position.lid if pour else position.bag
    if not (type(action) is int and 0 <= action < 5 and supply[action]):
        players = len(position.referee.players)
        raise pyspiel.SpielError(_undrawable(action, supply, pour, players))
    bag = list(supply)
    bag[action] -= 1
    lid = (0, 0, 0, 0, 0) if pour else position.lid
    drawn = (*position.drawn, action)
    return _Position(position.referee, True, False, True, drawn, tuple(bag), lid)


def _undrawable(action: int, supply: Sequence[int], pour: bool, players: int) -> str:
    """Why ``action`` cannot be this tile draw's outcome, and which outcomes can (R2)."""
    place = "lid (poured into the empty bag)" if pour else "bag"
    takes = ", ".join(
        f"{color} ({_COLORS[color].name.lower()})" for color, count in enumerate(supply) if count
    )
    node = f"this chance node draws a tile from the {place} and takes outcomes {takes} (R2)"
    if type(action) is int and 0 <= action < 5:
        colour = _COLORS[action].name.lower()
        return (
            f"chance outcome {action} ({colour}) cannot be drawn: the {place} holds no "
            f"{colour} tile; {node}"
        )
    if type(action) is int and _FIRST_PLAYER_OUTCOME <= action < _FIRST_PLAYER_OUTCOME + players:
        what = "a first-player outcome (S7), taken only by the game's first chance node"
        return f"chance outcome {action} is not a tile colour but {what}; {node}"
    last = _FIRST_PLAYER_OUTCOME + players - 1
    return (
        f"chance outcome {shown(action)} is not a tile colour (0-4), nor any outcome of "
        f"this game (0-{last}); {node}"
    )


def _counts(tiles: Sequence[Color]) -> list[int]:
    counts = [0] * 5
    for tile in tiles:
        counts[tile] += 1
    return counts


def _tiles(counts: Sequence[int]) -> tuple[Color, ...]:
    return tuple(_COLORS[c] for c, n in enumerate(counts) for _ in range(n))


AzulGame.state_class = AzulState


class AzulObserver:
    """The observation tensor (``azul_rules.actions.observation``, as float32) and
    string of ``python_azul``; ``dict`` holds a named, shaped view of each field."""

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
    action ids (:mod:`azul_rules.actions`) and the same end as the referee, and at the
    end that the players with the highest return are the referee's winners (E4); the
    machine compares ``scores()`` after every move.  A difference raises
    ``AssertionError`` saying what differs.

    The game must use the action ids of :mod:`azul_rules.actions`.  By default it must
    also follow ``python_azul``'s parameters, chance outcomes (``5 + k`` for the first
    player, one colour per tile drawn, factory by factory) and observation layout (the
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
    player (``5 + k``) when ``before`` is ``None`` (a new game), then each tile's colour,
    factory by factory.  Within a factory, the tiles that came from the bag go first, so
    the bag runs out, and the lid is poured in, where it did for the referee (R2)."""
    outcomes = [] if before is not None else [_FIRST_PLAYER_OUTCOME + state.start_player]
    if state.is_over:  # R6: nothing could be dealt, so nothing is drawn
        return outcomes
    bag = _counts(before.bag if before is not None else _full_bag())
    for factory in state.factories:
        from_bag = []
        from_lid = []
        for tile in factory:
            if bag[tile]:
                bag[tile] -= 1
                from_bag.append(int(tile))
            else:
                from_lid.append(int(tile))
        outcomes += from_bag + from_lid
    return outcomes


def _full_bag() -> tuple[Color, ...]:
    return tuple(c for c in Color for _ in range(20))


def observed_scores(state: Any) -> list[int]:
    """The scores in player 0's observation tensor, laid out as
    :func:`azul_rules.actions.observation_layout` says."""
    game = state.get_game()
    players = game.num_players()
    tensor = state.observation_tensor(0)
    layout = {field.name: field for field in codec.observation_layout(players)}
    return [int(tensor[layout[f"board{k}.score"].offset]) for k in range(players)]
