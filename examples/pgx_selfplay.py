"""A batch of random self-play games with the JAX engine, jitted end to end.

Run it (from the project's root, with the ``pgx`` extra installed)::

    .venv/bin/python examples/pgx_selfplay.py [BATCH] [PLAYERS] [VARIANT] [SEED]

``jax.vmap(env.init)`` deals ``BATCH`` games; one jitted ``lax.while_loop`` plays them all
to their ends, each player drawing a legal action from the mask (replace the uniform
logits by a network's, or the loop by ``mctx``'s search, to train); the rewards summed
over the batch and the mean final score are printed.  For a learner's endless stream of
games, step with ``azul_rules.ai.pgx.auto_reset(env)`` instead: each game that ends is dealt
afresh.
"""

from __future__ import annotations

import sys
from typing import Any

import jax
import jax.numpy as jnp

from azul_rules.ai.pgx import make


def random_policy(key: jax.Array, masks: jax.Array) -> jax.Array:
    """A legal action per game, uniformly (a network's logits would take the zeros'
    place)."""
    logits = jnp.where(masks, 0.0, -jnp.inf)
    chosen: jax.Array = jax.random.categorical(key, logits, axis=-1)
    return chosen


def self_play(batch: int, players: int, variant: str) -> Any:
    """A jitted ``key -> final states`` playing ``batch`` random games to their ends."""
    env = make(players, variant)
    init, step = jax.vmap(env.init), jax.vmap(env.step)

    def going(carry: tuple[Any, jax.Array]) -> jax.Array:
        state, _ = carry
        live: jax.Array = (~(state.terminated | state.truncated)).any()
        return live

    def one_move(carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
        state, key = carry
        key, pick, draw = jax.random.split(key, 3)
        actions = random_policy(pick, state.legal_action_mask)  # a policy's choice here
        stepped = step(state, actions, jax.random.split(draw, batch))
        # pgx zeroes the rewards of games already over: keep the last ones for the tally
        ended = state.terminated | state.truncated
        rewards = jnp.where(ended[:, None], state.rewards, stepped.rewards)
        return stepped.replace(rewards=rewards), key

    def play(key: jax.Array) -> Any:
        key, deal = jax.random.split(key)
        state = init(jax.random.split(deal, batch))
        final, _ = jax.lax.while_loop(going, one_move, (state, key))
        return final

    return jax.jit(play)


def main(batch: int = 64, players: int = 2, variant: str = "colored", seed: int = 0) -> None:
    final = self_play(batch, players, variant)(jax.random.PRNGKey(seed))
    ended = int(final.terminated.sum())
    rewards = [round(float(r), 2) for r in final.rewards.sum(axis=0)]
    print(f"{batch} games of {players} players on the {variant} wall: {ended} ended")
    print(f"rewards summed by seat: {rewards}")
    print(f"mean final score: {float(final.score.mean()):.1f}")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(
        int(arguments[0]) if arguments else 64,
        int(arguments[1]) if len(arguments) > 1 else 2,
        arguments[2] if len(arguments) > 2 else "colored",
        int(arguments[3]) if len(arguments) > 3 else 0,
    )
