"""The environment: :class:`AzulEnv` (a ``pgx.Env``), :func:`make` and
:func:`auto_reset` (a learner's stream of games)."""

from __future__ import annotations

from collections.abc import Callable

from azul_rules.core._extras import extra

with extra("pgx", "azul_rules.ai.pgx"):
    import jax
    import jax.numpy as jnp
    import pgx

from azul_rules.ai.actions import (
    DEFAULT_MAX_ROUNDS,
    factory_count,
    observation_size,
)
from azul_rules.ai.pgx.batching import (
    _CLOSE_SHARE,
    _closing,
    _ended_here,
    _offer_over,
    _only_where,
    _stripped,
    _tile_grey,
    _tiling_due,
)
from azul_rules.ai.pgx.game import (
    _ALL_BITS,
    _close_grey,
    _end_round,
    _observe,
    _place_word,
    _refill,
    _take,
    _take_words,
    _unpack,
    _words,
)
from azul_rules.ai.pgx.state import _EMPTY, _FLOOR_SPACES, _OFFER, _OVER, _TILING, AzulState
from azul_rules.core.phases import Variant

Array = jax.Array


class AzulEnv(pgx.Env):  # type: ignore[misc]  # pgx ships no type information
    """Azul for ``players`` players on the coloured wall (the grey one with ``grey``), as
    a ``pgx.Env`` (see the module's docstring).  ``step`` needs a key: the refill at a
    round's end draws from it (R2)."""

    def __init__(
        self, players: int = 2, max_rounds: int = DEFAULT_MAX_ROUNDS, *, grey: bool = False
    ) -> None:
        super().__init__()
        self._players = players
        self._factories = factory_count(players)
        self._max_rounds = max_rounds
        self._grey = grey
        self._takes = (self._factories + 1) * 30
        self._actions = self._takes + 25 * grey
        # The round's end (the grey wall's tiling), for the games that reach it; with a
        # fresh game dealt to each game it ends, for auto_reset.
        due = _tiling_due if grey else _offer_over
        self._round_end = _only_where(due, self._round_end_work(deal=False))
        self._round_end_dealing = _only_where(due, self._round_end_work(deal=True))
        # on the grey wall, within the tiling's, the round's close for the games whose
        # tiling is over only (about one placement in twelve)
        close, dealing = self._grey_close_work(deal=False), self._grey_close_work(deal=True)
        self._grey_close = _only_where(_closing, close, _CLOSE_SHARE)
        self._grey_close_dealing = _only_where(_closing, dealing, _CLOSE_SHARE)
        self._deal_where_ended = _only_where(_ended_here, self._deal_work)

    # -- pgx's Env ------------------------------------------------------------------

    @property
    def id(self) -> str:
        """The environment's id."""
        return "azul"

    @property
    def version(self) -> str:
        """The environment's version (pgx's convention: a change of behaviour bumps it)."""
        return "v0"

    @property
    def num_players(self) -> int:
        """2, 3 or 4 (S1)."""
        return self._players

    def step(self, state: AzulState, action: Array | int, key: Array | None = None) -> AzulState:
        """pgx's ``step``, with its conventions: a game already over keeps its state (its
        rewards zero); an illegal action (an id the mask forbids, or one outside
        ``0 .. num_actions - 1``) ends the game with pgx's penalty for the player who
        chose it, the position left as it was; a game over has an all-true mask.

        :raises ValueError: without a key (the refill at a round's end draws from it, R2).
        """
        if key is None:
            raise ValueError("AzulEnv.step(state, action, key): the refill draws from the key")
        return self._move(state, jnp.asarray(action, jnp.int32), key, deal=False)

    def _move(self, state: AzulState, action: Array, key: Array, *, deal: bool) -> AzulState:
        """``step``; with ``deal`` (auto_reset), each game that ends is dealt afresh
        within the move, before the mask and the observation are made, once."""
        done = state.terminated | state.truncated
        # an id outside 0 .. num_actions - 1 is illegal (as an index it would be clamped
        # onto the last action's entry)
        inside = (action >= 0) & (action < self._actions)
        legal = inside & state.legal_action_mask[jnp.clip(action, 0, self._actions - 1)]
        counted = state.replace(_step_count=state._step_count + ~done)
        # a game over, or an illegal action, leaves the position as it was: the move is
        # made with nothing taken (cheaper than a choice between two whole states)
        moves = ~done & legal
        moved = self._advance(counted, action, key, deal=deal, moves=moves)
        after = moved.replace(rewards=jnp.where(moves, moved.rewards, 0))
        penalised = self._step_with_illegal_action(after, state.current_player)
        after = after.replace(
            rewards=jnp.where(legal, after.rewards, penalised.rewards),
            terminated=after.terminated | ~legal,
        )
        if deal:  # the games that ended otherwise than at a round's end (E1, R7)
            after = _stripped(after, self._deal_where_ended, action, key, state)
        return self._finish(after)

    def _finish(self, state: AzulState) -> AzulState:
        """The mask (all true once over, pgx's convention: not for a game dealt afresh
        by auto_reset, which keeps the ended game's flags) and the observation."""
        over = state.terminated & ((state.phase == _OVER) | (state._step_count > 0))
        mask = self._mask(state, over)
        observed = _observe(state, state.current_player, self._players)
        return state.replace(legal_action_mask=mask, observation=observed)  # type: ignore[no-any-return]

    def _init(self, key: Array) -> AzulState:
        """S6, S7: all 100 tiles in the bag, a random starting player, the first refill."""
        return self._finish(self._deal(key, observed=True))

    def _deal(self, key: Array, *, observed: bool) -> AzulState:
        """A new game's position, dealt (R2); see :meth:`_fresh`."""
        return _refill(self._fresh(key, observed=observed), key)

    def _fresh(self, key: Array, *, observed: bool) -> AzulState:
        """A new game's position before its first refill; its observation and mask left
        to be made (empty when not ``observed``: the games a batch deals afresh carry
        none)."""
        players, factories = self._players, self._factories
        start = ((_words(key, 1, salt=1)[0] * players) >> 24).astype(jnp.int8)
        state = AzulState(
            current_player=start.astype(jnp.int32),
            observation=jnp.zeros(observation_size(players) * observed, jnp.float32),
            rewards=jnp.zeros(players, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(self._actions * observed, jnp.bool_),
            _step_count=jnp.int32(0),
            factories=jnp.zeros((factories, 5), jnp.int8),
            center=jnp.zeros(5, jnp.int8),
            bag=jnp.full(5, 20, jnp.int8),
            lid=jnp.zeros(5, jnp.int8),
            line_color=jnp.full((players, 5), _EMPTY, jnp.int8),
            line_count=jnp.zeros((players, 5), jnp.int8),
            wall=jnp.full((players, 5, 5), _EMPTY, jnp.int8),
            floor=jnp.full((players, _FLOOR_SPACES), _EMPTY, jnp.int8),
            score=jnp.zeros(players, jnp.int16),
            marker_holder=jnp.int8(_EMPTY),
            start_player=start,
            round=jnp.int16(1),
            phase=jnp.int8(_OFFER),
        )
        return state

    def _deal_work(self, ended: AzulState, _: Array, key: Array) -> AzulState:
        """auto_reset's fresh game, keeping the ended game's flags and rewards."""
        fresh: AzulState = self._deal(key, observed=False).replace(
            terminated=ended.terminated, truncated=ended.truncated, rewards=ended.rewards
        )
        return fresh

    def _round_end_work(self, *, deal: bool) -> Callable[[AzulState, Array, Array], AzulState]:
        """The round's end (the grey wall's tiling) of one game, the round cap's
        truncation, and with ``deal`` a fresh game in place of a game that ends there
        (E1, R7; the rare others, R6 and the cap, are dealt by ``_deal_where_ended``)."""

        def work(state: AzulState, action: Array, key: Array) -> AzulState:
            if self._grey:
                close = self._grey_close_dealing if deal else self._grey_close
                return close(_tile_grey(state, action - self._takes), action, key)
            fresh = self._fresh(key, observed=False) if deal else None
            return self._truncated(_end_round(state, key, fresh))

        return work

    def _grey_close_work(self, *, deal: bool) -> Callable[[AzulState, Array, Array], AzulState]:
        """The grey wall's round's close (:func:`_close_grey`) once its tiling is over,
        and the round cap's truncation; with ``deal``, as in :meth:`_round_end_work`."""

        def work(state: AzulState, _: Array, key: Array) -> AzulState:
            fresh = self._fresh(key, observed=False) if deal else None
            return self._truncated(_close_grey(state, key, fresh))

        return work

    def _truncated(self, state: AzulState) -> AzulState:
        """A game still going past the round cap is truncated."""
        truncated = ~state.terminated & (state.round > self._max_rounds)
        return state.replace(truncated=truncated)  # type: ignore[no-any-return]

    def _step(self, state: AzulState, action: Array, key: Array) -> AzulState:
        """pgx's ``_step`` (for ``pgx.Env.step``): one move, then the mask."""
        after = self._advance(state, action, key, deal=False)
        return after.replace(legal_action_mask=self._mask(after))  # type: ignore[no-any-return]

    def _advance(
        self, state: AzulState, action: Array, key: Array, *, deal: bool, moves: Array | bool = True
    ) -> AzulState:
        """One take (T, P, F); the round's end when it empties the table (P7).  On the
        grey wall, or one placement (V1-V3), and the tiling goes on in turn order.  The
        round's end runs only for the games of a batch that reach it (:func:`_only_where`).
        Where not ``moves``, nothing changes."""
        if self._grey:
            moved = self._grey_take(state, action, moves)
        else:
            moved = _take(state, action, self._players, self._factories, moves)
        round_end = self._round_end_dealing if deal else self._round_end
        # a game in the grey tiling that does not move: no placement (-1), and the
        # tiling, already resolved up to a decision, stays where it is
        return _stripped(moved, round_end, jnp.where(moves, action, -1), key, state)

    def _mask(self, state: AzulState, everything: Array | bool = False) -> Array:
        """The legal actions (all of them when ``everything``): the takes' words, on the
        grey wall the placements' word after them, each word's bits unpacked in order
        (:func:`_unpack`)."""
        words = _take_words(state)
        if self._grey:
            words = jnp.concatenate([words, _place_word(state)[None]])
        words = jnp.where(everything, jnp.uint32(_ALL_BITS), words)
        return _unpack(words, self._actions)

    def _grey_take(self, state: AzulState, action: Array, moves: Array | bool) -> AzulState:
        """G1: a take, and when it ends the offer the tiling starts with the round's
        starting player (the phase says so); a placement is left to the tiling."""
        players, takes = self._players, self._takes
        taking = (action < takes) & moves
        taken = _take(state, jnp.minimum(action, takes - 1), players, self._factories, taking)
        offer_over = taking & (taken.factories.sum() == 0) & (taken.center.sum() == 0)
        return taken.replace(  # type: ignore[no-any-return]
            phase=jnp.where(offer_over, jnp.int8(_TILING), taken.phase),
            current_player=jnp.where(offer_over, state.start_player, taken.current_player),
        )

    def _observe(self, state: AzulState, player_id: Array) -> Array:
        """``actions.observation`` of the state from ``player_id``'s seat."""
        return _observe(state, player_id, self._players)


def make(players: int = 2, variant: str = "colored") -> AzulEnv:
    """The environment for ``players`` players (2, 3 or 4) on the ``variant`` wall.

    :raises ValueError: a player count other than 2-4, or a variant other than
        ``"colored"`` and ``"grey"``.
    """
    factory_count(players)  # raises for a count other than 2-4
    return AzulEnv(players, grey=Variant(variant) is Variant.GREY)


def auto_reset(env: AzulEnv) -> Callable[[AzulState, Array, Array], AzulState]:
    """``env.step`` that deals a fresh game to every game that ends, for a learner's
    stream of games: the semantics of ``pgx.experimental.auto_reset(env.step,
    env.init)``.  A game that ends at a step becomes ``env.init(key)`` with the key of
    that step (the ended game's draws with that key are discarded with it), keeping
    the ended game's ``terminated``, ``truncated`` and ``rewards`` for that step; the
    next step clears them.  Under ``jax.vmap`` only the games that end are dealt, where
    pgx's wrapper deals one for every game at every step.

    :raises ValueError: from the step function, without a key.
    """

    def step(state: AzulState, action: Array, key: Array | None = None) -> AzulState:
        if key is None:
            raise ValueError("auto_reset(env)(state, action, key): the step and the deal draw")
        over = state.terminated | state.truncated
        state = state.replace(
            terminated=state.terminated & ~over,
            truncated=state.truncated & ~over,
            rewards=jnp.where(over, 0, state.rewards).astype(state.rewards.dtype),
        )
        return env._move(state, jnp.asarray(action, jnp.int32), key, deal=True)

    return step
