"""Azul as a JAX-native environment behind pgx's ``Env`` API (issue 28; the ``pgx`` extra).

``make(players=2)`` returns a :class:`AzulEnv`, a ``pgx.Env``: ``jax.jit(jax.vmap(env.init))``
and ``jax.jit(jax.vmap(env.step))`` step thousands of games at once, with no Python
callback and no host round-trip.  Its actions are the ids of :mod:`azul_rules.actions`
(``source * 30 + color * 6 + destination``), its observation the features of
``actions.observation`` as a ``float32`` array, its rewards at the end
``actions.utilities(winners, players)``; a game still going after ``max_rounds`` rounds
(``actions.DEFAULT_MAX_ROUNDS``) is truncated, as in the PettingZoo environment.

The bag is drawn from the key given to ``step`` (pgx's convention for stochastic games,
as its backgammon): at a round's end the factories are filled from the bag, then from the
lid poured into it when the bag runs out (R2).  ``to_state(state, index)`` gives game
``index`` of a batch as the referee's position with external draws, which is how the
engine is held to the referee (:func:`differential`, tests/test_pgx.py);
``from_state(game)`` is the way back, for positions built by hand.  ``auto_reset(env)``
steps a learner's stream of games, each game that ends dealt afresh.

pgx's conventions hold: a game over keeps its state (rewards zero, the mask all true);
an illegal action ends the game with pgx's penalty for its chooser, the position left as
it was.  Under ``jax.vmap`` the round's end runs only for the games that reach it
(``_only_where``, a ``custom_vmap`` rule); the refill draws from the key's words mixed
with each draw's number.

On the grey wall (``make(variant="grey")``) the tiling is played: after the last take,
the players with a complete line decide, in turn order from the round's starting player,
each line top to bottom, by the placement ids after the takes (``(F + 1) * 30 + line * 5
+ column``, V1-V3); a line with no legal space goes to the floor by itself (V4), and the
round also ends the game when no wall row can ever be completed (R7).

The state's game fields (one game; a batch adds a leading axis to each):

* ``factories`` ``int8[F, 5]``, ``center`` ``int8[5]``, ``bag`` ``int8[5]``, ``lid``
  ``int8[5]``: tiles by colour (S5 order: blue, yellow, red, black, white);
* ``line_color`` ``int8[P, 5]`` (``-1`` an empty line) and ``line_count`` ``int8[P, 5]``:
  the pattern lines;
* ``wall`` ``int8[P, 5, 5]``: the colour on each wall space, ``-1`` an empty one;
* ``floor`` ``int8[P, 7]``: the floor spaces left to right, a colour, ``5`` the marker or
  ``-1`` a free space (kept in order, as the referee's floor is: counts would lose where
  the marker lies among the tiles, F3);
* ``score`` ``int16[P]``; ``marker_holder`` ``int8`` (``-1``: the marker is in the centre,
  or, between rounds, nobody took it, R5); ``start_player`` ``int8``; ``round`` ``int16``
  (from 1); ``phase`` ``int8`` (``0`` the factory offer, ``1`` the grey wall's tiling,
  ``3`` game over: the indices of ``actions.observation``'s phase field; the referee's
  ``2``, waiting for a refill, never shows: the engine draws at once).

The variant is the environment's, not a field: ``to_state`` reads it from the length of
``legal_action_mask``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from azul_rules.core._extras import extra

with extra("pgx", "azul_rules.pgx"):
    import jax
    import jax.numpy as jnp
    import numpy as np
    import pgx
    from pgx._src.struct import dataclass

from azul_rules.actions import (
    DEFAULT_MAX_ROUNDS,
    Disagreement,
    factory_count,
    legal_actions,
    observation_size,
    referee_outputs,
    referee_start,
    referee_step,
)
from azul_rules.core.board import PlayerBoard, pattern_line
from azul_rules.core.colors import COLORS, MARKER, Color, FloorItem
from azul_rules.core.errors import InvalidStateError
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.scoring import decide_outcome
from azul_rules.core.shown import number
from azul_rules.core.state import GameState

__all__ = [
    "AzulEnv",
    "AzulState",
    "Disagreement",
    "auto_reset",
    "differential",
    "from_state",
    "make",
    "to_state",
]

Array = jax.Array

_EMPTY: Final = -1
_MARKER: Final = 5  # the marker's value in ``floor``
_OFFER: Final = 0
_TILING: Final = 1
_CLOSING: Final = 2  # the grey tiling over, within a step only (the referee's refill phase)
_OVER: Final = 3
_FLOOR_SPACES: Final = 7


def _colour_ids() -> Array:
    """0-4, the colours (S5), made in the traced code rather than held as a constant: a
    ``custom_vmap`` function (``_only_where``) under a batched ``lax.cond`` must close
    over no array constant."""
    return jnp.arange(5)


@dataclass
class AzulState(pgx.State):  # type: ignore[misc]  # pgx ships no type information
    """One game (or a batch: a leading axis on every field); the module's docstring
    says what each game field holds."""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array
    factories: Array
    center: Array
    bag: Array
    lid: Array
    line_color: Array
    line_count: Array
    wall: Array
    floor: Array
    score: Array
    marker_holder: Array
    start_player: Array
    round: Array
    phase: Array

    @property
    def env_id(self) -> str:
        """pgx's id of the game (not one of pgx's own: ``pgx.make`` does not know it)."""
        return "azul"


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


# -- the take (T1-T4, P1-P6, F1-F4) ----------------------------------------------------------


def _row(x: Array, one_hot: Array) -> Array:
    """``x[i]`` for the ``i`` where ``one_hot`` holds, by a select and a sum rather than
    a gather (a batch's gathers are slow on a CPU); ``x`` holds no more than one row per
    index, so the sum is that row."""
    chosen = jnp.where(one_hot.reshape(-1, *[1] * (x.ndim - 1)), x, 0)
    return chosen.sum(axis=0, dtype=x.dtype)


def _put(x: Array, one_hot: Array, row: Array) -> Array:
    """``x`` with ``x[i] = row`` for the ``i`` where ``one_hot`` holds (no scatter)."""
    return jnp.where(one_hot.reshape(-1, *[1] * (x.ndim - 1)), row[None], x)


def _seat(state: AzulState) -> Array:
    """The player to move, one-hot over the players."""
    return jnp.arange(state.score.shape[0]) == state.current_player


# The mask is made as 30-bit words, one a source (``colour * 6 + destination``, the
# action ids' order), then unpacked by testing each word, repeated, against one bit a
# position: a batch's outer product of booleans, [source, colour] by [colour,
# destination], costs XLA three times as much on a CPU (its index arithmetic is not
# vectorised).
_WORD_BITS: Final = 30
_ALL_BITS: Final = (1 << _WORD_BITS) - 1


def _unpack(words: Array, size: int) -> Array:
    """The first ``size`` bits of ``words`` (``uint32``, ``_WORD_BITS`` bits a word,
    lowest first) as booleans."""
    repeated = jnp.broadcast_to(words[:, None], (words.shape[0], _WORD_BITS)).reshape(-1)
    bits = jnp.uint32(1) << (jnp.arange(size, dtype=jnp.uint32) % _WORD_BITS)
    unpacked: Array = (repeated[:size] & bits) != 0
    return unpacked


def _take_words(state: AzulState) -> Array:
    """The legal takes of the player to move (T1-T4, P2-P4, P6): for each source, a
    word whose bit ``colour * 6 + destination`` is set for a legal take; none outside
    the factory offer."""
    seat = _seat(state)
    sources = jnp.concatenate([state.factories, state.center[None]], axis=0) > 0
    sources = sources & (state.phase == _OFFER)  # [source, colour]: T1, T2
    # The floor as a sixth line: empty, and its "row" lacks every colour.
    colors = jnp.append(_row(state.line_color, seat), jnp.int8(_EMPTY))[None, :, None]
    room = jnp.append(_row(state.line_count, seat) < jnp.arange(1, 6, dtype=jnp.int8), True)
    wall = jnp.concatenate([_row(state.wall, seat), jnp.full((1, 5), -2, jnp.int8)])
    colours = _colour_ids()[:, None, None]
    # [colour, destination]: an empty line takes a colour its wall row lacks (P3), a
    # line begun its own colour while it has room (P2, P4), the floor any (P6).  Made
    # by a reduction, which XLA keeps apart, so that each of the mask's 180 values
    # costs one AND.
    destinations = jnp.where(
        colors == _EMPTY, wall[None] != colours, (colors == colours) & room[None, :, None]
    ).all(axis=2)
    # each colour's six destinations as bits, then each source's colours side by side
    bits = (destinations.astype(jnp.uint32) << jnp.arange(6, dtype=jnp.uint32)).sum(
        axis=1, dtype=jnp.uint32
    )
    placed = bits << (6 * jnp.arange(5, dtype=jnp.uint32))
    return jnp.where(sources, placed[None], jnp.uint32(0)).sum(axis=1, dtype=jnp.uint32)


def _take(
    state: AzulState, action: Array, players: int, factories: int, moves: Array | bool = True
) -> AzulState:
    """T2, T3: the lot of one colour from one source; P1, P5: into one pattern line, the
    excess to the floor; F1-F4: the floor, the marker first, the overflow to the lid.
    Where not ``moves``, nothing is taken and the turn stays."""
    source, rest = jnp.divmod(action, 30)
    color, destination = jnp.divmod(rest, 6)
    seat = _seat(state)
    source_is = (jnp.arange(factories + 1) == source) & moves
    this_color = color == _colour_ids()
    from_center = (source == factories) & moves
    held = _row(jnp.concatenate([state.factories, state.center[None]], axis=0), source_is)
    taken = jnp.where(this_color, held, 0).sum(dtype=jnp.int8)
    factories_left = jnp.where(source_is[:factories, None], jnp.int8(0), state.factories)
    kept = jnp.where(from_center, jnp.int8(0), state.center)
    added = jnp.where(from_center, state.center, state.center + held)
    takes_marker = from_center & (state.marker_holder == _EMPTY)
    line_is = seat[:, None] & (jnp.arange(5) == destination)[None] & moves  # [player, line]
    count = jnp.where(line_is, state.line_count, 0).sum(dtype=jnp.int8)
    to_line = jnp.minimum(taken, (destination + 1 - count).astype(jnp.int8))
    to_line = jnp.where(destination == 5, jnp.int8(0), to_line)
    floor, to_lid = _onto_floor(_row(state.floor, seat), color, taken - to_line, takes_marker)
    return state.replace(  # type: ignore[no-any-return]
        factories=factories_left,
        center=jnp.where(this_color, kept, added),
        line_color=jnp.where(line_is, color.astype(jnp.int8), state.line_color),
        line_count=jnp.where(line_is, state.line_count + to_line, state.line_count),
        floor=_put(state.floor, seat, floor),
        lid=state.lid + jnp.where(this_color, to_lid, 0).astype(jnp.int8),
        marker_holder=jnp.where(takes_marker, state.current_player, state.marker_holder).astype(
            jnp.int8
        ),
        current_player=(state.current_player + moves) % players,
    )


def _onto_floor(floor: Array, color: Array, count: Array, marker: Array) -> tuple[Array, Array]:
    """F1-F4 on one floor: the marker first (when it finds a space, F4), then ``count``
    tiles left to right; returns the floor and the tiles that found no space (F2)."""
    spaces = jnp.arange(_FLOOR_SPACES, dtype=jnp.int8)
    used = (floor != _EMPTY).sum(dtype=jnp.int8)
    with_marker = marker & (used < _FLOOR_SPACES)
    floor = jnp.where(with_marker & (spaces == used), jnp.int8(_MARKER), floor)
    used = used + with_marker.astype(jnp.int8)
    placed = jnp.minimum(count, _FLOOR_SPACES - used).astype(jnp.int8)
    tiles = (spaces >= used) & (spaces < used + placed)
    return jnp.where(tiles, color.astype(jnp.int8), floor), count - placed


# -- the heavy steps, only for the games of a batch that reach them --------------------------

# How many games of a batch the round's end takes at a time: a share of the batch, and no
# fewer than a floor (each pass has a fixed cost); more wait for the next pass of the loop
# in ``_only_where``.  A round ends for about one game in ten at each step.
_SHARE: Final = 8
# Of the games placing a tile on the grey wall, about one in twelve ends the tiling: the
# round's close takes them a share of the games placing at a time.
_CLOSE_SHARE: Final = 8
_FEWEST: Final = 64


def _only_where(
    due: Callable[[AzulState], Array],
    work: Callable[[AzulState, Array, Array], AzulState],
    share: int | None = None,
) -> Callable[[AzulState, Array, Array], AzulState]:
    """``work(state, argument, key)`` where ``due(state)``, else ``state``.  One game: a
    ``lax.cond``.  Under ``jax.vmap`` a ``cond`` would run ``work`` for every game of
    the batch (a select), and the round's end costs several times a take: so the
    batched rule gathers the games that are due (``1 / share`` of the batch at a time,
    ``_SHARE`` unless given, as often as needed), runs ``work`` on those only and puts
    them back.  The results are the same as one game at a time."""

    def keep(state: AzulState, argument: Array, key: Array) -> AzulState:
        return state

    @jax.custom_batching.custom_vmap
    def run(state: AzulState, argument: Array, key: Array) -> AzulState:
        chosen: AzulState = jax.lax.cond(due(state), work, keep, state, argument, key)
        return chosen

    @run.def_vmap
    def batched(
        size: int, in_batched: Any, state: AzulState, argument: Array, key: Array
    ) -> tuple[AzulState, Any]:
        state, argument, key = jax.tree_util.tree_map(
            lambda x, b: x if b else jnp.broadcast_to(x, (size, *jnp.shape(x))),
            (state, argument, key),
            tuple(in_batched),
        )
        chunk = min(size, max(_FEWEST, size // (share or _SHARE)))

        def one_pass(carry: tuple[AzulState, Array]) -> tuple[AzulState, Array]:
            state, waiting = carry
            index = jnp.nonzero(waiting, size=chunk, fill_value=size)[0]
            part = jax.tree_util.tree_map(lambda x: x[index], state)
            done = jax.vmap(work)(part, argument[index], key[index])
            state = jax.tree_util.tree_map(
                lambda x, d: x.at[index].set(d, mode="drop"), state, done
            )
            return state, waiting.at[index].set(False, mode="drop")

        waiting = jax.vmap(due)(state)
        state, _ = jax.lax.while_loop(lambda c: c[1].any(), one_pass, (state, waiting))
        return state, jax.tree_util.tree_map(lambda _: True, state)

    return run


def _offer_over(state: AzulState) -> Array:
    """P7: the last take emptied the factories and the centre (the factory offer goes
    on while the phase says so: the grey wall's tiling changes it at once)."""
    empty = (state.factories.sum() == 0) & (state.center.sum() == 0)
    return empty & (state.phase == _OFFER)


def _tiling_due(state: AzulState) -> Array:
    """The grey wall's tiling is under way: a placement, or the take that began it."""
    return state.phase == _TILING


def _closing(state: AzulState) -> Array:
    """The grey wall's tiling is over: the round is to close."""
    return state.phase == _CLOSING


def _ended_here(state: AzulState) -> Array:
    """A game that ended at this step and was not dealt afresh yet (an illegal action,
    R6, the round cap: a game dealt afresh has not moved yet)."""
    return (state.terminated | state.truncated) & (state._step_count > 0)


def _stripped(
    state: AzulState,
    compacted: Callable[[AzulState, Array, Array], AzulState],
    action: Array,
    key: Array,
    before: AzulState,
) -> AzulState:
    """``compacted(state, action, key)`` without the observation and the mask (made
    afresh after the move: the games gathered need not carry them), then ``before``'s."""
    game = state.replace(
        observation=jnp.zeros(0, before.observation.dtype),
        legal_action_mask=jnp.zeros(0, jnp.bool_),
    )
    after: AzulState = compacted(game, action, key).replace(
        observation=before.observation, legal_action_mask=before.legal_action_mask
    )
    return after


def _tile_grey(state: AzulState, placement: Array) -> AzulState:
    """V1-V4: the placement (when ``placement >= 0``), the tiling on to the next decision;
    when nobody has one left, the phase says that the round is to close (``_CLOSING``:
    the floors and the round's end, W4, W5, E1, R7, by :func:`_close_grey`)."""
    players = state.score.shape[0]
    placed = _where(placement >= 0, _place(state, jnp.maximum(placement, 0)), state)
    resolved, finished = _resolve_tiling(placed, players)
    return resolved.replace(  # type: ignore[no-any-return]
        phase=jnp.where(finished, jnp.int8(_CLOSING), resolved.phase)
    )


# -- the round's end (W1-W5, E1-E4, R1-R6) --------------------------------------------------


def _end_round(state: AzulState, key: Array, fresh: AzulState | None = None) -> AzulState:
    """The wall tiling and the floors of every player (W1-W5), then the end of the game
    (E1) or the next round's refill (R1-R5), which may end it too (R6); ``fresh``: see
    :func:`_close_round`."""
    tiled = _settle_floors(_tile_colored(state))
    return _close_round(tiled, (tiled.wall != _EMPTY).all(axis=2).any(), key, fresh)


def _close_round(
    tiled: AzulState, ends: Array, key: Array, fresh: AzulState | None = None
) -> AzulState:
    """The round is tiled and the floors settled: the end of the game when ``ends``
    (E1, R7), else the next round's refill (R1-R5), which may end it too (R6).  With
    ``fresh`` (a new game not yet dealt, for auto_reset), a game that ends is replaced
    by ``fresh`` dealt with the same refill, keeping the ended game's flags and rewards
    (pgx's auto_reset)."""
    starter = jnp.where(
        tiled.marker_holder == _EMPTY, tiled.start_player, tiled.marker_holder
    ).astype(jnp.int8)
    between = tiled.replace(
        current_player=starter.astype(jnp.int32),
        start_player=starter,
        marker_holder=jnp.int8(_EMPTY),
    )
    following = between.replace(round=between.round + 1)
    if fresh is not None:
        following = _where(ends, fresh, following)
    refilled = _refill(following, key)
    dealt = refilled.factories.sum() > 0
    over = _game_over(_where(ends, between, refilled.replace(round=between.round)))
    if fresh is not None:
        replaced = refilled.replace(terminated=jnp.bool_(True), rewards=over.rewards)
        return _where(ends, replaced, _where(dealt, refilled, over))
    return _where(ends | ~dealt, over, refilled)


def _tile_colored(state: AzulState) -> AzulState:
    """W1-W3 on the coloured wall for every player at once: each complete line's tile to
    its row's space of that colour (W2), scored as if placed top to bottom (W3), the
    line's other tiles to the lid."""
    rows = jnp.arange(5, dtype=jnp.int8)
    full = state.line_count == rows + 1  # [player, row]
    color = state.line_color
    placed = full[:, :, None] & (((color + rows) % 5)[:, :, None] == _colour_ids())
    points = _placement_points(state.wall != _EMPTY, placed)
    to_lid = (jnp.where(full, rows, 0)[:, :, None] * (color[:, :, None] == _colour_ids())).sum(
        axis=(0, 1), dtype=jnp.int8
    )
    return state.replace(  # type: ignore[no-any-return]
        wall=jnp.where(placed, color[:, :, None], state.wall),
        score=state.score + points,
        lid=state.lid + to_lid,
        line_color=jnp.where(full, jnp.int8(_EMPTY), color),
        line_count=jnp.where(full, jnp.int8(0), state.line_count),
    )


def _placement_points(before: Array, placed: Array) -> Array:
    """W3 for the tiles ``placed`` (``[..., row, column]``, at most one a row) on walls
    occupied as ``before``, as if placed top to bottom: for each, the horizontal run
    through it and the vertical one, each counted when longer than 1, else 1 point.
    The rows above a tile are seen with their own placements made, those below
    without: so all are scored at once, with no loop over the rows."""
    after = before | placed
    horizontal = 1 + _run_before(after, -1, False) + _run_before(after, -1, True)
    vertical = 1 + _run_before(after, -2, False) + _run_before(before, -2, True)
    runs = jnp.where(horizontal > 1, horizontal, 0) + jnp.where(vertical > 1, vertical, 0)
    points = jnp.where(placed, jnp.maximum(runs, 1), 0)
    return points.sum(axis=(-2, -1), dtype=jnp.int16)


def _run_before(occupied: Array, axis: int, backwards: bool) -> Array:
    """For each space, how many occupied spaces run next to it on one side along
    ``axis`` (towards index 0, or towards 4 when ``backwards``)."""
    occupied = jnp.moveaxis(occupied, axis, 0).astype(jnp.int16)
    order = range(4, -1, -1) if backwards else range(5)
    runs: dict[int, Array] = {}
    previous: int | None = None
    for k in order:
        if previous is None:
            runs[k] = jnp.zeros_like(occupied[k])
        else:
            runs[k] = occupied[previous] * (1 + runs[previous])
        previous = k
    return jnp.moveaxis(jnp.stack([runs[k] for k in range(5)]), 0, axis)


def _settle_floors(state: AzulState) -> AzulState:
    """W4, W5: every floor's penalties (F1, the marker included) subtracted, the score
    clamped at 0 once; the floor's tiles to the lid."""
    floor = state.floor
    used = (floor != _EMPTY).sum(axis=1, dtype=jnp.int16)
    # F1: -1, -1, -2, -2, -2, -3, -3 for the spaces left to right
    penalty = used + (used >= 3) + (used >= 4) + (used >= 5) + 2 * (used >= 6) + 2 * (used >= 7)
    score = jnp.maximum(state.score - penalty, 0).astype(jnp.int16)
    lid = state.lid + (floor[:, :, None] == _colour_ids()).sum(axis=(0, 1), dtype=jnp.int8)
    return state.replace(  # type: ignore[no-any-return]
        score=score, lid=lid, floor=jnp.full_like(floor, _EMPTY)
    )


def _where(condition: Array, yes: AzulState, no: AzulState) -> AzulState:
    """``yes`` where ``condition``, else ``no``, field by field."""
    return jax.tree_util.tree_map(  # type: ignore[no-any-return]
        lambda a, b: jnp.where(condition, a, b), yes, no
    )


def _game_over(state: AzulState) -> AzulState:
    """E2: the end bonuses; E4: the winners and their rewards (``actions.utilities``)."""
    players = state.score.shape[0]
    on_wall = state.wall != _EMPTY
    rows = on_wall.all(axis=2).sum(axis=1)
    columns = on_wall.all(axis=1).sum(axis=1)
    colors = ((state.wall[:, :, :, None] == _colour_ids()).sum(axis=(1, 2)) == 5).sum(axis=1)
    score = (state.score + 2 * rows + 7 * columns + 10 * colors).astype(jnp.int16)
    tied = score == score.max()
    winners = tied & (rows == jnp.where(tied, rows, -1).max())
    count = winners.sum()
    share = (players - count) / (players - 1) / count
    rewards = jnp.where(winners, share, -1.0 / (players - 1)).astype(jnp.float32)
    return state.replace(  # type: ignore[no-any-return]
        score=score, rewards=rewards, terminated=jnp.bool_(True), phase=jnp.int8(_OVER),
        factories=jnp.zeros_like(state.factories), center=jnp.zeros_like(state.center),
    )  # fmt: skip


def _mix(x: Array) -> Array:
    """A 32-bit finalizer (multiply-xorshift): each output bit depends on every input
    bit."""
    x = (x ^ (x >> 16)) * jnp.uint32(0x7FEB352D)
    x = (x ^ (x >> 15)) * jnp.uint32(0x846CA68B)
    return x ^ (x >> 16)


def _words(key: Array, count: int, salt: int = 0) -> Array:
    """``count`` random 24-bit numbers (``int32``) from the key: its two words mixed with
    each draw's number (and ``salt``, for another use of the same key).  ``jax.random``
    runs threefry, which XLA rolls into a loop on a CPU, and whose steps cost more than
    the refill's 20 draws."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        key = jax.random.key_data(key)
    halves = key.reshape(-1).astype(jnp.uint32)
    draws = (jnp.arange(count, dtype=jnp.uint32) + jnp.uint32(salt << 8)) * jnp.uint32(0x9E3779B9)
    mixed = _mix(halves[-1] ^ _mix(halves[0] + draws))
    return (mixed >> 8).astype(jnp.int32)


def _refill(state: AzulState, key: Array) -> AzulState:
    """R2: four tiles to each factory in turn, drawn from the bag; when the bag is empty
    and a tile is wanted, the lid is poured into it; when both are empty the remaining
    factories stay short.  Each draw is written colour by colour on single numbers (no
    reductions, which XLA would run apart), in a loop over the draws (unrolled, the
    draws' dependence on each other makes XLA's compilation explode)."""
    factories = state.factories.shape[0]

    def draw(carry: tuple[Array, Array], word: Array) -> tuple[tuple[Array, Array], Array]:
        bag, lid = carry
        poured = bag[0] + bag[1] + bag[2] + bag[3] + bag[4] == 0
        bag = jnp.where(poured, lid, bag)
        lid = jnp.where(poured, 0, lid)
        total = bag[0] + bag[1] + bag[2] + bag[3] + bag[4]
        index = (word * total) >> 24  # uniform in [0, total)
        below = bag[0]
        color = (index >= below).astype(jnp.int32)
        for c in range(1, 4):
            below = below + bag[c]
            color = color + (index >= below)
        taken = (color == _colour_ids()) & (total > 0)
        return (bag - taken, lid), jnp.where(total > 0, color, _EMPTY)

    start = (state.bag.astype(jnp.int32), state.lid.astype(jnp.int32))
    (bag, lid), drawn = jax.lax.scan(draw, start, _words(key, factories * 4))
    tiles = (drawn.reshape(factories, 4)[:, :, None] == _colour_ids()).sum(axis=1)
    return state.replace(  # type: ignore[no-any-return]
        factories=tiles.astype(jnp.int8),
        bag=bag.astype(jnp.int8),
        lid=lid.astype(jnp.int8),
        phase=jnp.int8(_OFFER),
    )


# -- the grey wall's tiling (V1-V4, R7) ------------------------------------------------------


def _next_line(counts: Array) -> tuple[Array, Array]:
    """V3: of one player's pattern lines (their ``counts``), the top complete one (and
    whether there is one)."""
    full = counts == jnp.arange(1, 6, dtype=counts.dtype)
    return jnp.argmax(full), full.any()


def _free_columns(wall: Array, colors: Array) -> Array:
    """V1, V2: [line, column], on one player's ``wall``, the empty spaces of each line's
    row whose column lacks that line's colour (``colors``)."""
    in_column = (wall[None, :, :] == colors[:, None, None]).any(axis=1)  # [line, column]
    return (wall == _EMPTY) & ~in_column


def _place_word(state: AzulState) -> Array:
    """The legal placements of the player to decide, as a word whose bit ``line * 5 +
    column`` (the id after the takes) is set for each; none outside the grey tiling."""
    seat = _seat(state)
    row, found = _next_line(_row(state.line_count, seat))
    free = _free_columns(_row(state.wall, seat), _row(state.line_color, seat))
    columns = _row(free, jnp.arange(5) == row) & found & (state.phase == _TILING)
    bits = (columns.astype(jnp.uint32) << jnp.arange(5, dtype=jnp.uint32)).sum(dtype=jnp.uint32)
    return bits << (5 * row).astype(jnp.uint32)


def _place(state: AzulState, placement: Array) -> AzulState:
    """V1, W1, W3: the tile of the line to the wall space chosen, scored at once; the
    line's other tiles to the lid."""
    seat = _seat(state)
    row, column = jnp.divmod(placement, 5)
    line_is = jnp.arange(5) == row
    color = _row(_row(state.line_color, seat), line_is)
    space = line_is[:, None] & (jnp.arange(5) == column)
    points = _placement_points(_row(state.wall, seat) != _EMPTY, space)
    emptied = seat[:, None] & line_is[None]  # [player, line]
    return state.replace(  # type: ignore[no-any-return]
        wall=jnp.where(seat[:, None, None] & space[None], color, state.wall),
        score=state.score + jnp.where(seat, points, 0).astype(jnp.int16),
        lid=state.lid + jnp.where(_colour_ids() == color, row, 0).astype(jnp.int8),
        line_color=jnp.where(emptied, jnp.int8(_EMPTY), state.line_color),
        line_count=jnp.where(emptied, jnp.int8(0), state.line_count),
    )


def _resolve_tiling(state: AzulState, players: int) -> tuple[AzulState, Array]:
    """V3, V4 from the player to decide on, in turn order up to the round's starting
    player: each complete line above the player's first one with a legal space goes to
    the floor, top to bottom (a line sent to the floor changes no wall, so which lines
    have a legal space is known at once); the tiling stops at the first player with a
    choice to make; ``finished`` when nobody has one."""
    stopped = jnp.bool_(False)
    finished = jnp.bool_(False)
    rows = jnp.arange(5)
    for _ in range(players):
        seat = _seat(state)
        colors, counts = _row(state.line_color, seat), _row(state.line_count, seat)
        complete = counts == rows + 1
        choice = complete & _free_columns(_row(state.wall, seat), colors).any(axis=1)
        first_choice = jnp.where(choice.any(), jnp.argmax(choice), 5)
        stuck = complete & (rows < first_choice) & ~stopped  # V4, in row order
        floor, lid = _row(state.floor, seat), state.lid
        for row in range(5):
            count = jnp.where(stuck[row], jnp.int8(row + 1), jnp.int8(0))
            floor, to_lid = _onto_floor(floor, colors[row], count, jnp.bool_(False))
            lid = lid + jnp.where(_colour_ids() == colors[row], to_lid, 0).astype(jnp.int8)
        emptied = seat[:, None] & stuck[None]
        found = choice.any()
        following = (state.current_player + 1) % players
        finished = finished | (~stopped & ~found & (following == state.start_player))
        moves_on = ~stopped & ~found & ~finished
        state = state.replace(
            floor=_put(state.floor, seat, floor),
            lid=lid,
            line_color=jnp.where(emptied, jnp.int8(_EMPTY), state.line_color),
            line_count=jnp.where(emptied, jnp.int8(0), state.line_count),
            current_player=jnp.where(moves_on, following, state.current_player),
        )
        stopped = stopped | found | finished
    return state, finished


def _close_grey(state: AzulState, key: Array, fresh: AzulState | None = None) -> AzulState:
    """After the last placement: the floors (W4, W5), then the end of the game when a
    wall row is complete (E1) or none can ever be (R7), else the next round; ``fresh``:
    see :func:`_close_round`."""
    settled = _settle_floors(state)
    complete = (settled.wall != _EMPTY).all(axis=2).any()
    return _close_round(settled, complete | ~_walls_can_end(settled.wall), key, fresh)


def _walls_can_end(wall: Array) -> Array:
    """R7: whether some wall row of some player can still be completed: the colours the
    row lacks can each go to a different empty space of the row whose column lacks that
    colour (V1, V2).  Hall's condition, checked for every set of the row's missing
    colours (31 sets): together they may go to at least as many spaces as they number.
    The spaces a colour may go to are a 5-bit word, so a set's spaces are an OR."""
    colours = _colour_ids()
    holds = wall[:, :, :, None] == colours  # [P, row, column, colour]
    missing = ~holds.any(axis=2)  # [P, row, colour]
    lacks = ~holds.any(axis=1)  # [P, column, colour]
    empty = wall == _EMPTY  # [P, row, column]
    fits = empty[:, :, :, None] & lacks[:, None]  # [P, row, column, colour]
    column_bits = (jnp.uint32(1) << jnp.arange(5, dtype=jnp.uint32))[:, None]
    spaces = jnp.where(fits, column_bits, jnp.uint32(0)).sum(axis=2, dtype=jnp.uint32)
    row_ok = jnp.ones(wall.shape[:2], jnp.bool_)  # [P, row]
    for subset in range(1, 32):
        members = [c for c in range(5) if subset >> c & 1]
        chosen = missing[:, :, members[0]]
        reach = spaces[:, :, members[0]]
        for c in members[1:]:
            chosen = chosen & missing[:, :, c]
            reach = reach | spaces[:, :, c]
        enough = jax.lax.population_count(reach) >= len(members)
        row_ok = row_ok & (~chosen | enough)
    return row_ok.any()


# -- the observation (actions.observation, as an array) ---------------------------------------


def _observe(state: AzulState, player: Array, players: int) -> Array:
    """The fields of ``actions.observation_layout(players)``, in order, from ``player``'s
    seat: each board's features, the boards turned so that ``player``'s comes first,
    then the table's."""
    colours = _colour_ids()

    def turned(x: Array) -> Array:  # a board's part, the observer's board first
        out = x
        for shift in range(1, players):
            out = jnp.where(player == shift, jnp.roll(x, -shift, axis=0), out)
        return out

    line_color, line_count = turned(state.line_color), turned(state.line_count)
    wall, floor = turned(state.wall), turned(state.floor)
    lines = jnp.where(line_color[:, :, None] == colours, line_count[:, :, None], 0)
    boards = jnp.concatenate(
        [
            turned(state.score)[:, None],
            lines.reshape(players, 25).astype(jnp.float32),
            (wall[:, :, :, None] == colours).reshape(players, 125).astype(jnp.float32),
            (floor[:, :, None] == colours).sum(axis=1, dtype=jnp.float32),
            (floor == _MARKER).any(axis=1)[:, None].astype(jnp.float32),
        ],
        axis=1,
    )  # [board, feature]
    seats = (jnp.arange(players) + player) % players
    table = jnp.concatenate(
        [
            state.factories.reshape(-1),
            state.center,
            ((state.marker_holder == _EMPTY) & (state.phase == _OFFER))[None],
            state.bag,
            state.lid,
            jnp.zeros(1, jnp.int8),  # the round, put in below (it may pass 127)
            jnp.arange(4) == state.phase,
            (seats == state.current_player) & (state.phase != _OVER),
            seats == state.start_player,
        ]
    ).astype(jnp.float32)
    table = table.at[_ROUND_AT[players]].set(state.round.astype(jnp.float32))
    return jnp.concatenate([boards.reshape(-1), table])


# Where the round lies in the table's part of the observation, by player count.
_ROUND_AT: Final = {p: factory_count(p) * 5 + 5 + 1 + 5 + 5 for p in (2, 3, 4)}


# -- back to the referee ---------------------------------------------------------------------


def to_state(state: AzulState, index: int | None = None) -> GameState:
    """Game ``index`` of a batch (``None``: the one game of an unbatched state) as the
    referee's position with external draws: between rounds the pgx state has already
    drawn, so its position is the referee's after the ``Refill`` of those factories."""
    fields: dict[str, Any] = {
        name: np.asarray(getattr(state, name))
        for name in ("factories", "center", "bag", "lid", "line_color", "line_count", "wall",
                     "floor", "score", "marker_holder", "start_player", "round", "phase",
                     "current_player")
    }  # fmt: skip
    if index is not None:
        fields = {name: value[index] for name, value in fields.items()}
    boards = tuple(_board(fields, seat) for seat in range(fields["score"].shape[0]))
    over = int(fields["phase"]) == _OVER
    takes = (len(fields["factories"]) + 1) * 30
    grey = np.asarray(state.legal_action_mask).shape[-1] > takes
    variant = Variant.GREY if grey else Variant.COLORED
    marker = int(fields["marker_holder"])
    return GameState.make(
        players=boards,
        factories=tuple(_tiles(f) for f in fields["factories"]),
        center=_tiles(fields["center"]),
        bag=_tiles(fields["bag"]),
        lid=_tiles(fields["lid"]),
        current_player=int(fields["current_player"]),
        start_player=int(fields["start_player"]),
        phase=_PHASES[int(fields["phase"])],
        round=int(fields["round"]),
        variant=variant,
        marker_holder=None if marker == _EMPTY else marker,
        outcome=decide_outcome(boards) if over else None,
    )


_PHASES: Final = (Phase.FACTORY_OFFER, Phase.WALL_TILING, Phase.REFILL, Phase.GAME_OVER)


def _tiles(counts: Any) -> tuple[Color, ...]:
    return tuple(color for color, n in zip(COLORS, counts.tolist(), strict=True) for _ in range(n))


def _board(fields: dict[str, Any], seat: int) -> PlayerBoard:
    lines = tuple(
        pattern_line(row, None if c == _EMPTY else COLORS[c], n)
        for row, (c, n) in enumerate(
            zip(
                fields["line_color"][seat].tolist(),
                fields["line_count"][seat].tolist(),
                strict=True,
            )
        )
    )
    wall = tuple(
        tuple(None if c == _EMPTY else COLORS[c] for c in row)
        for row in fields["wall"][seat].tolist()
    )
    floor: tuple[FloorItem, ...] = tuple(
        MARKER if c == _MARKER else COLORS[c] for c in fields["floor"][seat].tolist() if c != _EMPTY
    )
    return PlayerBoard(
        score=int(fields["score"][seat]), pattern_lines=lines, wall=wall, floor=floor
    )


# -- held to the referee ---------------------------------------------------------------------


def differential(
    players: int = 2, games: int = 16, *, variant: str = "colored", batch: int = 8, seed: int = 0
) -> int:
    """Play ``games`` random games in batches of ``batch`` with the engine of
    :func:`make` and hold every one to the referee, step by step: the legal mask equals
    ``actions.legal_actions(to_state(...))``, the referee's ``apply`` of the action chosen
    (then the ``Refill`` of the factories the batch drew) equals ``to_state`` of the next
    state, and the rewards at the end are ``actions.utilities`` of the referee's winners.
    Returns the number of steps checked; the same seed checks the same games.

    :raises Disagreement: (:class:`azul_rules.actions.Disagreement`) at the first
        difference, naming the game, the step and the parts that differ.
    """
    env = make(players, variant)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(seed)
    choices = np.random.default_rng(seed)
    checked = 0
    for first in range(0, games, batch):
        key, start_key = jax.random.split(key)
        state = init(jax.random.split(start_key, batch))
        refs = [referee_start(to_state(state, i), game=first + i) for i in range(batch)]
        live = [first + i < games for i in range(batch)]
        while any(live):
            masks = np.asarray(state.legal_action_mask)
            chosen = np.zeros(batch, np.int32)
            for i in range(batch):
                if live[i]:
                    legal = masks[i].nonzero()[0]
                    if legal.tolist() != legal_actions(refs[i]):
                        raise Disagreement(f"game {first + i}, step {checked}: the legal mask "
                                           "differs from the referee's")  # fmt: skip
                    chosen[i] = choices.choice(legal)
            key, step_key = jax.random.split(key)
            state = step(state, jnp.asarray(chosen), jax.random.split(step_key, batch))
            for i in range(batch):
                if live[i]:
                    refs[i] = _follow(refs[i], int(chosen[i]), state, i, first + i)
                    live[i] = not (bool(state.terminated[i]) or bool(state.truncated[i]))
                    checked += 1
    return checked


def _follow(ref: GameState, action: int, state: AzulState, index: int, game: int) -> GameState:
    step = int(np.asarray(state._step_count)[index])
    ref = referee_step(ref, action, to_state(state, index), game=game, step=step)
    seat = int(np.asarray(state.current_player)[index])
    referee_outputs(ref, seat, np.asarray(state.observation)[index].tolist(),
                    np.asarray(state.rewards)[index].tolist(), bool(state.terminated[index]),
                    game=game)  # fmt: skip
    return ref


MAX_ROUND: Final = 2**15 - 2
"""The last round :func:`from_state` takes: the engine counts rounds in 16 bits, and the
next round's number must fit too."""


def from_state(game: GameState, max_rounds: int = DEFAULT_MAX_ROUNDS) -> AzulState:
    """The referee's position ``game`` as the engine's state (one game, unbatched): a
    position built by hand (a full floor, a nearly empty bag...) can be stepped by the
    engine and held to the referee from there.  The inverse of :func:`to_state`.

    Only a position that can exist is taken: its counts then fit the engine's 8-bit
    fields (4 tiles a factory, 7 floor spaces, one marker, 20 tiles of a colour) and its
    scores its 16-bit ones (no wall earns more than 240 points with its bonuses, so a
    score stays below 32,767 whatever a round adds: ``SCORE_OUT_OF_REACH``).

    :raises InvalidStateError: (a ``ValueError``) for a position that cannot exist,
        with every problem of ``game.problems()``: a floor of 8, a centre of 150
        tiles, two markers, 9 tiles on a factory, a score no wall can have earned...
    :raises ValueError: for a position waiting for a ``Refill`` (the engine draws at
        once, so it never waits), or in a round past 32,766 (``MAX_ROUND``).
    """
    problems = game.problems()
    if problems:
        raise InvalidStateError(problems)
    if game.phase is Phase.REFILL:
        raise ValueError("from_state(): the engine never waits for a Refill; apply one first")
    if game.round > MAX_ROUND:
        raise ValueError(f"from_state(): round {number(game.round)} is past the engine's last, "
                         f"{MAX_ROUND}: it counts rounds in 16 bits")  # fmt: skip
    players = len(game.players)
    env = AzulEnv(players, max_rounds, grey=game.variant is Variant.GREY)
    boards = game.players

    def codes(items: Any) -> list[int]:
        return [_EMPTY if c is None else _MARKER if c is MARKER else int(c) for c in items]

    def counts(tiles: Any) -> list[int]:
        return [tiles.count(color) for color in COLORS]

    over = game.outcome is not None
    rewards = [0.0] * players
    if game.outcome is not None:
        from azul_rules.actions import utilities

        rewards = utilities(game.outcome.winners, players)
    marker = _EMPTY if game.marker_holder is None else game.marker_holder
    state = AzulState(
        current_player=jnp.int32(game.current_player),
        observation=jnp.zeros(observation_size(players), jnp.float32),
        rewards=jnp.asarray(rewards, jnp.float32),
        terminated=jnp.bool_(over),
        truncated=jnp.bool_(not over and game.round > max_rounds),
        legal_action_mask=jnp.zeros(env._takes + 25 * env._grey, jnp.bool_),
        _step_count=jnp.int32(0),
        factories=jnp.asarray([counts(f) for f in game.factories], jnp.int8),
        center=jnp.asarray(counts(game.center), jnp.int8),
        bag=jnp.asarray(counts(game.bag), jnp.int8),
        lid=jnp.asarray(counts(game.lid), jnp.int8),
        line_color=jnp.asarray([codes(line.color for line in b.pattern_lines) for b in boards],
                               jnp.int8),
        line_count=jnp.asarray([[line.count for line in b.pattern_lines] for b in boards],
                               jnp.int8),
        wall=jnp.asarray([[codes(row) for row in b.wall] for b in boards], jnp.int8),
        floor=jnp.asarray([codes(b.floor) + [_EMPTY] * (_FLOOR_SPACES - len(b.floor))
                           for b in boards], jnp.int8),
        score=jnp.asarray([b.score for b in boards], jnp.int16),
        marker_holder=jnp.int8(marker),
        start_player=jnp.int8(game.start_player),
        round=jnp.int16(game.round),
        phase=jnp.int8(_PHASES.index(game.phase)),
    )  # fmt: skip
    mask = env._mask(state, over)
    state = state.replace(legal_action_mask=mask)
    observed: AzulState = state.replace(observation=env.observe(state))
    return observed
