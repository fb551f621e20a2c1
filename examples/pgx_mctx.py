"""Gumbel MuZero search (``mctx``) against random play on the JAX engine, jitted end to end.

Run it (from the project's root, with the ``mctx`` extra installed: the ``pgx`` extra and
DeepMind's ``mctx``)::

    .venv/bin/python examples/pgx_mctx.py [BATCH] [SIMULATIONS] [SEED]

``BATCH`` two-player games on the coloured wall are played to their ends in one jitted
``lax.while_loop``: seat 0 chooses each move by ``mctx.gumbel_muzero_policy`` with
``SIMULATIONS`` simulations, seat 1 uniformly among its legal actions.  The search's
model is the engine itself, as in AlphaZero: each simulation steps a copy of the game
with ``env.step``.  There is no network here: the prior is uniform over the legal
actions and a leaf's value is the score difference seen by the player to move, the
floors' penalties counted, squashed (``tanh(difference / 10)``); a learner puts its
network's outputs in their place.  A round's refill inside the tree is drawn once from
the simulation's key (the search does not average over the bag's chance outcomes: a
simplification).  The games each seat won and the mean final scores are printed.
"""

from __future__ import annotations

import sys
from typing import Any

import jax
import jax.numpy as jnp
import mctx

from azul_rules.ai.pgx import AzulState, make

PLAYERS = 2


def uniform_logits(state: AzulState) -> jax.Array:
    """A uniform prior over each game's legal actions (a network's logits go here)."""
    logits: jax.Array = jnp.where(state.legal_action_mask, 0.0, -1e9)
    return logits


# F1: the points lost for 0-7 tiles on a floor
FLOOR_PENALTY = jnp.array([0, 1, 2, 4, 6, 8, 11, 14], jnp.float32)


def heuristic_value(state: AzulState) -> jax.Array:
    """Each game's value for its player to move: the lead in score less the floors'
    penalties to come (F1), squashed into (-1, 1); 0 once the game is over (its outcome
    is in the reward that ended it)."""
    used = (state.floor >= 0).sum(axis=2)  # [game, player]: tiles and marker on the floor
    score = state.score.astype(jnp.float32) - FLOOR_PENALTY[used]
    mine = jnp.take_along_axis(score, state.current_player[:, None], axis=1)[:, 0]
    lead = 2 * mine - score.sum(axis=1)  # two players: mine minus the other's
    over = state.terminated | state.truncated
    value: jax.Array = jnp.where(over, 0.0, jnp.tanh(lead / 10.0))
    return value


def searcher(batch: int, simulations: int) -> Any:
    """``(state, key) -> actions``: the search's choice in each game of the batch."""
    env = make(PLAYERS)
    step = jax.vmap(env.step)

    def recurrent_fn(
        params: Any, key: jax.Array, action: jax.Array, state: AzulState
    ) -> tuple[mctx.RecurrentFnOutput, AzulState]:
        mover = state.current_player
        after = step(state, action, jax.random.split(key, batch))
        reward = jnp.take_along_axis(after.rewards, mover[:, None], axis=1)[:, 0]
        over = after.terminated | after.truncated
        # the value's sign turns when the turn passes to the other player; a game over
        # ends the sum
        discount = jnp.where(after.current_player == mover, 1.0, -1.0)
        output = mctx.RecurrentFnOutput(
            reward=reward,
            discount=jnp.where(over, 0.0, discount),
            prior_logits=uniform_logits(after),
            value=heuristic_value(after),
        )
        return output, after

    def choose(state: AzulState, key: jax.Array) -> jax.Array:
        root = mctx.RootFnOutput(
            prior_logits=uniform_logits(state), value=heuristic_value(state), embedding=state
        )
        output = mctx.gumbel_muzero_policy(
            params=None,
            rng_key=key,
            root=root,
            recurrent_fn=recurrent_fn,
            num_simulations=simulations,
            invalid_actions=~state.legal_action_mask,
            max_num_considered_actions=16,
        )
        action: jax.Array = output.action
        return action

    return choose


def match(batch: int, simulations: int) -> Any:
    """A jitted ``key -> final states``: ``batch`` games, the search on seat 0."""
    env = make(PLAYERS)
    init, step = jax.vmap(env.init), jax.vmap(env.step)
    search = searcher(batch, simulations)

    def going(carry: tuple[AzulState, jax.Array]) -> jax.Array:
        state, _ = carry
        live: jax.Array = (~(state.terminated | state.truncated)).any()
        return live

    def one_move(carry: tuple[AzulState, jax.Array]) -> tuple[AzulState, jax.Array]:
        state, key = carry
        key, think, pick, draw = jax.random.split(key, 4)
        searched = search(state, think)
        random = jax.random.categorical(pick, uniform_logits(state), axis=-1)
        actions = jnp.where(state.current_player == 0, searched, random)
        stepped = step(state, actions, jax.random.split(draw, batch))
        # pgx zeroes the rewards of games already over: keep the last ones for the tally
        ended = state.terminated | state.truncated
        rewards = jnp.where(ended[:, None], state.rewards, stepped.rewards)
        return stepped.replace(rewards=rewards), key

    def play(key: jax.Array) -> AzulState:
        key, deal = jax.random.split(key)
        state = init(jax.random.split(deal, batch))
        final: AzulState = jax.lax.while_loop(going, one_move, (state, key))[0]
        return final

    return jax.jit(play)


def main(batch: int = 16, simulations: int = 16, seed: int = 0) -> None:
    final = match(batch, simulations)(jax.random.PRNGKey(seed))
    wins = [int((final.rewards[:, seat] > 0).sum()) for seat in range(PLAYERS)]
    scores = [round(float(final.score[:, seat].mean()), 1) for seat in range(PLAYERS)]
    print(f"{batch} games, search ({simulations} simulations) on seat 0, random play on seat 1")
    print(f"games won by seat: {wins}; mean final scores: {scores}")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(
        int(arguments[0]) if arguments else 16,
        int(arguments[1]) if len(arguments) > 1 else 16,
        int(arguments[2]) if len(arguments) > 2 else 0,
    )
