"""Azul as a JAX-native environment behind pgx's ``Env`` API (the ``pgx`` extra).

``make(players=2)`` returns a :class:`AzulEnv`, a ``pgx.Env``: ``jax.jit(jax.vmap(env.init))``
and ``jax.jit(jax.vmap(env.step))`` step thousands of games at once, with no Python
callback and no host round-trip.  Its actions are the ids of :mod:`azul_rules.ai.actions`
(``source * 30 + color * 6 + destination``), its observation the features of
``actions.observation`` as a ``float32`` array, its rewards at the end
``actions.utilities(winners, players)``; a game still going after ``max_rounds`` rounds
(``actions.DEFAULT_MAX_ROUNDS``) is truncated, as in the PettingZoo environment.

The bag is drawn from the key given to ``step`` (pgx's convention for stochastic games,
as its backgammon): at a round's end the factories are filled from the bag, then from the
lid poured into it when the bag runs out (R2).  ``to_state(state, index)`` gives game
``index`` of a batch as the referee's position with external draws, which is how the
engine is held to the referee (``azul_rules.testing.batched.pgx_differential``);
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

The package is split as pgx's own games are: :mod:`~azul_rules.ai.pgx.state` (the
state), :mod:`~azul_rules.ai.pgx.game` (the rules on arrays),
:mod:`~azul_rules.ai.pgx.batching` (the heavy steps for the games that reach them),
:mod:`~azul_rules.ai.pgx.env` (the environment) and :mod:`~azul_rules.ai.pgx.convert`
(to and from the referee's positions).
"""

from __future__ import annotations

from azul_rules.ai.pgx.convert import MAX_ROUND, from_state, to_state
from azul_rules.ai.pgx.env import AzulEnv, auto_reset, make
from azul_rules.ai.pgx.state import AzulState

__all__ = ["MAX_ROUND", "AzulEnv", "AzulState", "auto_reset", "from_state", "make", "to_state"]
