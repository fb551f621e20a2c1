"""The batch engine against the plain API, by the clock, side by side in one run.

Usage: ``python benchmarks/vector_bench.py [--quick]``.  Prints moves per second of:

* the plain API: random games through ``legal_moves()`` and ``apply()`` (uniform choice
  by ``random.choice``), on the core in use, and on the other core in a process of its
  own (``AZUL_RULES_PURE_PYTHON=1``, or not);
* ``vector.make(4096)`` stepped from Python (its steps split over every core), an action
  a game drawn uniformly among the legal ones with numpy, two ways: from the legal ids
  the steps list (``legal="ids"``, :func:`random_listed`: one random number a game, an
  index into its row), and from pgx's mask (``legal="mask"``, :func:`random_legal`: the
  flat list of every legal id of all the games found at once); every step counts the
  games that moved (not the fresh deals after an end), on every core and on one thread;
* ``vector.playouts`` on one thread and on every core.

Each figure is the median of 5 repetitions, the plain API and the batch engine
alternating so that both meet the same moments of a shared machine; the ratio of the
batch engine to the plain API is taken within each repetition (issue 35's target: 10x).
No test asserts any of it.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time

import numpy as np

import azul_rules as az
from azul_rules.ai import vector

REPEATS = 5


def plain_api(seconds: float, seed: int) -> float:
    """Moves per second of random games through legal_moves() and apply()."""
    moves, start, game = 0, time.perf_counter(), seed
    while time.perf_counter() - start < seconds:
        choose = random.Random(game).choice
        state = az.new_game(2, seed=game)
        while not state.is_over:
            state = state.apply(choose(state.legal_moves()))
            moves += 1
        game += 1
    return moves / (time.perf_counter() - start)


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action id per row of ``mask``, uniformly: the flat list of every legal id
    (one pass over the mask), each game's stretch of it found by a binary search, and
    the ``k``-th id of the stretch taken, ``k`` drawn below its length."""
    games, actions = mask.shape
    rows = np.arange(games + 1) * actions
    flat = np.flatnonzero(mask)
    bounds = np.searchsorted(flat, rows)
    chosen = (rng.random(games) * np.diff(bounds)).astype(np.int64)
    return flat[bounds[:-1] + chosen] - rows[:-1]


def random_listed(env: vector.VectorEnv, rng: np.random.Generator) -> np.ndarray:
    """A legal action id a game, uniformly: the ``k``-th of its listed legal ids, ``k``
    drawn below its count."""
    chosen = (rng.random(env.num_games) * env.legal_action_count).astype(np.intp)
    return env.legal_action_ids[np.arange(env.num_games), chosen]


def stepped(games: int, steps: int, seed: int, threads: int | None = None,
            legal: str = "ids") -> float:  # fmt: skip
    """Moves per second of ``games`` games stepped together with numpy's random choice,
    from the listed ids (``legal="ids"``) or from the mask (``"mask"``)."""
    env = vector.make(games, players=2, seed=seed, threads=threads, legal=legal)
    rng = np.random.default_rng(seed)
    moves, start = 0, time.perf_counter()
    for _ in range(steps):
        fresh = env.terminated | env.truncated  # these games are dealt afresh, not moved
        if legal == "ids":
            env.step(random_listed(env, rng))
        else:
            env.step(random_legal(env.legal_action_mask, rng))
        moves += games - int(fresh.sum())
    return moves / (time.perf_counter() - start)


def playout_rate(games: int, threads: int | None, seed: int) -> float:
    start = time.perf_counter()
    counted = vector.playouts(games, 2, seed=seed, threads=threads)
    return counted.moves / (time.perf_counter() - start)


def other_core(seconds: float) -> float:
    """The plain API's moves per second on the other core, in a process of its own."""
    env = dict(os.environ)
    if az.accelerated:
        env["AZUL_RULES_PURE_PYTHON"] = "1"
    else:
        env.pop("AZUL_RULES_PURE_PYTHON", None)
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); import vector_bench; "
        f"print(vector_bench.plain_api({seconds}, 0))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return float(out.stdout.split()[-1])


def main() -> None:
    quick = "--quick" in sys.argv
    seconds, steps = (0.5, 20) if quick else (2.0, 100)
    core = "compiled" if az.accelerated else "Python"
    plain, batch, ratio, single, masked, masked_ratio, one, every = ([] for _ in range(8))
    for repeat in range(REPEATS):
        plain.append(plain_api(seconds, 1000 * repeat))
        batch.append(stepped(4096, steps, repeat))
        masked.append(stepped(4096, steps, repeat, legal="mask"))
        single.append(stepped(4096, steps, repeat, threads=1))
        ratio.append(batch[-1] / plain[-1])
        masked_ratio.append(masked[-1] / plain[-1])
        one.append(playout_rate(2000 if quick else 10_000, 1, repeat))
        every.append(playout_rate(8000 if quick else 40_000, None, repeat))
    other = other_core(seconds)
    print(f"moves per second, medians of {REPEATS} ({sys.version.split()[0]}, "
          f"{os.cpu_count()} cores)")  # fmt: skip
    print(f"  plain API, {core} core: {statistics.median(plain):,.0f}")
    print(f"  plain API, the other core: {other:,.0f}")
    print(f"  vector.make(4096, legal='ids') stepped with numpy's random legal choice: "
          f"{statistics.median(batch):,.0f} ({statistics.median(ratio):.1f}x the plain API "
          f"on the {core} core, side by side; target 10x)")  # fmt: skip
    print(f"  the same on one thread: {statistics.median(single):,.0f}")
    print(f"  vector.make(4096) (the mask) stepped with numpy's random choice from the mask: "
          f"{statistics.median(masked):,.0f} ({statistics.median(masked_ratio):.1f}x)")
    print(f"  vector.playouts, one thread: {statistics.median(one):,.0f}")
    print(f"  vector.playouts, every core: {statistics.median(every):,.0f}")


if __name__ == "__main__":
    main()
