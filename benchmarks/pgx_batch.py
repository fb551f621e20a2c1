"""The batched JAX engine (azul_rules.ai.pgx, issue 28) against the plain referee API, in one
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
from typing import Any, Final

import jax
import jax.numpy as jnp

import azul_rules as az
from azul_rules.ai.pgx import auto_reset, make


def plain_moves_per_second(players: int, variant: str = "colored", seconds: float = 3.0) -> float:
    """Random games through the referee's ``legal_moves`` and ``apply``."""
    choose = random.Random(0)
    moves = 0
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = az.new_game(players, seed=games, variant=variant)
        while not state.is_over and state.round <= 50:
            state = state.apply(choose.choice(state.legal_moves()))
            moves += 1
        games += 1
    return moves / (time.perf_counter() - start)


def uniform_legal(words: jax.Array, masks: jax.Array) -> jax.Array:
    """One legal action per game, uniformly but for ties: one random word a game, hashed
    with each action's id (a multiply-xorshift mix) into a priority whose high bits are
    random and whose low bits are the id, the legal action of highest priority chosen
    (one ``max``).  The priority is a ``float32`` holding an integer below 2**24 exactly:
    XLA reduces floats with vectorised kernels on a CPU, integers in unvectorised windows
    (twice the time).  With 180-300 actions, 15-16 random bits: two legal actions tie
    for the top with a chance below 1 in 10,000 a move, the higher id then taken.
    (``jax.random.categorical`` draws a number per action, and costs more than the
    engine's step on a CPU.)"""
    id_bits = max(1, (masks.shape[-1] - 1).bit_length())
    words = words[..., None]
    ids = jnp.arange(masks.shape[-1], dtype=jnp.uint32)
    mixed = words + ids * jnp.uint32(0x9E3779B9)
    mixed = (mixed ^ (mixed >> 15)) * jnp.uint32(0x846CA68B)
    priority = ((mixed >> (8 + id_bits)) << id_bits | ids).astype(jnp.float32)
    best = jnp.where(masks, priority, -1.0).max(axis=-1)
    chosen: jax.Array = (best.astype(jnp.uint32) & jnp.uint32((1 << id_bits) - 1)).astype(
        jnp.int32
    )
    return chosen


def _step_with_choice(step: Any, observe: bool) -> Any:
    """One step of the loop, given a random word and a key for each game: a random
    legal action per game, then ``step``.  What it returns depends on the state, so that
    XLA keeps the work: the observation's sum, as a learner would read it, or not (then
    XLA leaves the observation out)."""

    def one(state: Any, randomness: tuple[jax.Array, jax.Array]) -> tuple[Any, jax.Array]:
        words, keys = randomness
        state = step(state, uniform_legal(words, state.legal_action_mask), keys)
        if observe:
            return state, state.observation.sum() < 0
        return state, state.rewards.sum() > 1  # never: the rewards sum to 0 or less

    return one


def games_runner(players: int, batch: int, variant: str = "colored", observe: bool = True) -> Any:
    """``key -> moves``: ``batch`` fresh games played to their ends (the batch waits for
    its longest game; the steps of games already over are not counted)."""
    env = make(players, variant)
    one = _step_with_choice(jax.vmap(env.step), observe)

    def play(key: jax.Array) -> jax.Array:
        key, start = jax.random.split(key)
        state = jax.vmap(env.init)(jax.random.split(start, batch))

        def going(carry: tuple[Any, jax.Array, jax.Array]) -> jax.Array:
            live: jax.Array = (~(carry[0].terminated | carry[0].truncated)).any()
            return live

        def body(carry: tuple[Any, jax.Array, jax.Array]) -> tuple[Any, jax.Array, jax.Array]:
            state, key, moves = carry
            key, pick, draw = jax.random.split(key, 3)
            live = ~(state.terminated | state.truncated)
            randomness = jax.random.bits(pick, (batch,), jnp.uint32), jax.random.split(draw, batch)
            state, read = one(state, randomness)
            return state, key, moves + live.sum() + read

        moves: jax.Array = jax.lax.while_loop(going, body, (state, key, jnp.int32(0)))[2]
        return moves

    return jax.jit(play)


def stream_runner(
    players: int, batch: int, variant: str = "colored", observe: bool = True, steps: int = 200
) -> Any:
    """``key -> moves``: ``steps`` steps of ``batch`` games where each game that ends is
    dealt afresh (:func:`azul_rules.ai.pgx.auto_reset`), as a learner plays: every step of
    every game is a move."""
    env = make(players, variant)
    one = _step_with_choice(jax.vmap(auto_reset(env)), observe)

    def play(key: jax.Array) -> jax.Array:
        start, pick, draw = jax.random.split(key, 3)
        state = jax.vmap(env.init)(jax.random.split(start, batch))
        # the randomness of every step at once: threefry, rolled into a loop on a CPU,
        # is cheaper so than step by step
        randomness = (
            jax.random.bits(pick, (steps, batch), jnp.uint32),
            jax.random.split(draw, (steps, batch)),
        )
        _, read = jax.lax.scan(one, state, randomness)
        moves: jax.Array = jnp.int32(steps * batch) + read.sum()
        return moves

    return jax.jit(play)


# What is measured: whole games (the batch waits for its longest), or a stream of games
# (auto_reset), the observation read each step (a learner) or not (as the plain API,
# which makes none: XLA then leaves it out).
RUNS: Final = (
    ("games, observed", games_runner, True),
    ("stream, observed", stream_runner, True),
    ("stream, not observed", stream_runner, False),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="colored")
    parser.add_argument("--batches", default="256,1024,4096,16384")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"jax {jax.__version__} on {jax.devices()[0].device_kind}; {args.players} players, "
          f"{args.variant} wall; plain API accelerated={az.accelerated}")  # fmt: skip
    for batch in (int(b) for b in args.batches.split(",")):
        for name, runner, observe in RUNS:
            started = time.perf_counter()
            run = runner(args.players, batch, args.variant, observe)
            run = run.lower(jax.random.PRNGKey(0)).compile()
            compiled = time.perf_counter() - started
            rates, ratios = [], []
            for repeat in range(args.repeats):  # side by side: the plain API, then the batch
                plain = plain_moves_per_second(args.players, args.variant, seconds=1.5)
                started = time.perf_counter()
                moves = int(run(jax.random.PRNGKey(repeat + 1)))
                rates.append(moves / (time.perf_counter() - started))
                ratios.append(rates[-1] / plain)
            middle = len(rates) // 2
            print(
                f"batch {batch:>6} {name:>22}: {sorted(rates)[middle]:>11,.0f} moves/s, "
                f"{sorted(ratios)[middle]:.2f}x the plain API (medians of {args.repeats}); "
                f"compile {compiled:.1f} s"
            )


if __name__ == "__main__":
    main()
