"""The batched JAX engine (azul_rules.pgx, issue 28) against the plain referee API, in one
run: random whole games, moves per second, compile time apart.

    .venv/bin/python benchmarks/pgx_batch.py [--players 2] [--batches 256,1024,4096,16384]

The plain API plays random games one at a time (uniform choice from ``legal_moves()``,
then ``apply``, seeded draws).  The engine plays a batch of fresh games to their ends in
one jitted ``lax.while_loop`` (uniform choice from the legal mask on the device); its
moves are the steps of games still going, so the steps spent on games already over (the
batch waits for its longest game) count against it.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import jax
import jax.numpy as jnp

import azul_rules as az
from azul_rules.pgx import make


def plain_moves_per_second(players: int, seconds: float = 3.0) -> float:
    """Random games through the referee's ``legal_moves`` and ``apply``."""
    choose = random.Random(0)
    moves = 0
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = az.new_game(players, seed=games)
        while not state.is_over and state.round <= 50:
            state = state.apply(choose.choice(state.legal_moves()))
            moves += 1
        games += 1
    return moves / (time.perf_counter() - start)


def uniform_legal(key: jax.Array, masks: jax.Array) -> jax.Array:
    """One legal action per game, uniformly: the k-th set entry of each mask, k drawn
    from one uniform number a game (``jax.random.categorical`` over the masked logits
    draws a number per action, and costs twice the engine's step on a CPU)."""
    counts = masks.sum(axis=-1, keepdims=True)
    fractions = jax.random.uniform(key, counts.shape)
    chosen = jnp.minimum((fractions * counts).astype(jnp.int32), counts - 1)
    picked: jax.Array = jnp.argmax(jnp.cumsum(masks, axis=-1) > chosen, axis=-1)
    return picked


def batch_runner(players: int, batch: int) -> Any:
    """A jitted function: ``key -> moves`` playing ``batch`` fresh games to their ends."""
    env = make(players)
    init = jax.vmap(env.init)
    step = jax.vmap(env.step)

    def play(key: jax.Array) -> jax.Array:
        key, start = jax.random.split(key)
        state = init(jax.random.split(start, batch))

        def going(carry: tuple[Any, jax.Array, jax.Array]) -> jax.Array:
            state, _, _ = carry
            going: jax.Array = (~(state.terminated | state.truncated)).any()
            return going

        def one_step(carry: tuple[Any, jax.Array, jax.Array]) -> tuple[Any, jax.Array, jax.Array]:
            state, key, moves = carry
            key, pick, draw = jax.random.split(key, 3)
            actions = uniform_legal(pick, state.legal_action_mask)
            live = ~(state.terminated | state.truncated)
            state = step(state, actions, jax.random.split(draw, batch))
            return state, key, moves + live.sum()

        _, _, moves = jax.lax.while_loop(going, one_step, (state, key, jnp.int32(0)))
        total: jax.Array = moves
        return total

    return jax.jit(play)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batches", default="256,1024,4096,16384")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    plain = plain_moves_per_second(args.players)
    print(f"jax {jax.__version__} on {jax.devices()[0].device_kind}; {args.players} players")
    print(f"plain API (accelerated={az.accelerated}): {plain:,.0f} moves/s")
    for batch in (int(b) for b in args.batches.split(",")):
        started = time.perf_counter()
        run = batch_runner(args.players, batch).lower(jax.random.PRNGKey(0)).compile()
        compiled = time.perf_counter() - started
        rates = []
        for repeat in range(args.repeats):
            started = time.perf_counter()
            moves = int(run(jax.random.PRNGKey(repeat + 1)))
            rates.append(moves / (time.perf_counter() - started))
        best = sorted(rates)[len(rates) // 2]
        print(
            f"batch {batch:>6}: {best:>12,.0f} moves/s (median of {args.repeats}), "
            f"{best / plain:.2f}x the plain API; compile {compiled:.1f} s"
        )


if __name__ == "__main__":
    main()
