"""Steps per second through the AI entry points, beside the raw referee, in one run.

Run from the project's root, with the ``openspiel`` and ``pettingzoo`` extras installed::

    .venv/bin/python benchmarks/ai_bench.py            # or --quick, --players 4

Four loops play random games (uniform choice among the legal moves, chance sampled by
its probabilities), each timed as player moves per second (medians over repetitions,
new seeds each time):

* ``referee``: ``state.legal_moves()`` then ``state.apply(move)``, seeded draws;
* ``codec``: the same, through the action ids (``actions.legal_actions`` then
  ``move_from_action``), the floor every AI adapter stands on;
* ``openspiel``: ``python_azul`` through pyspiel (``legal_actions``, ``apply_action``,
  one chance node per factory dealt and one for the first player);
* ``pettingzoo``: ``env()`` with its wrappers (``last()`` builds the observation and the
  mask, then ``step``), and ``raw_env`` without them.

Then cProfile splits each adapter's time by where it is spent: the referee, the codec
and observations, the adapter module itself, the framework (pyspiel's C++ side,
PettingZoo's wrappers), numpy, and the loop.  No timing is asserted anywhere.
``benchmarks/framework_floors.py`` measures each entry point against a zero-work game pushed
through the same framework machinery instead.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import platform
import pstats
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import azul_rules as az
import azul_rules.ai.spiel  # registers python_azul
from azul_rules.ai import actions
from azul_rules.ai.pettingzoo import env, raw_env

Loop = Callable[[int], int]  # plays games from a first seed, returns player moves made


def referee_loop(players: int, variant: az.Variant, games: int) -> Loop:
    def run(first: int) -> int:
        moves = 0
        for seed in range(first, first + games):
            choose = random.Random(seed).choice
            state = az.new_game(players, seed=seed, variant=variant)
            while not state.is_over and state.round <= actions.DEFAULT_MAX_ROUNDS:
                state = state.apply(choose(state.legal_moves()))
                moves += 1
        return moves

    return run


def codec_loop(players: int, variant: az.Variant, games: int) -> Loop:
    def run(first: int) -> int:
        moves = 0
        for seed in range(first, first + games):
            choose = random.Random(seed).choice
            state = az.new_game(players, seed=seed, variant=variant)
            while not state.is_over and state.round <= actions.DEFAULT_MAX_ROUNDS:
                action = choose(actions.legal_actions(state))
                state = state.apply(actions.move_from_action(action, players))
                moves += 1
        return moves

    return run


def spiel_loop(players: int, variant: az.Variant, games: int) -> Loop:
    params = {"players": players, "variant": variant.value}
    return spiel_game_loop(pyspiel.load_game("python_azul", params), games)


def spiel_game_loop(game: Any, games: int) -> Loop:
    """Random games of an OpenSpiel game (ours, or framework_floors.py's zero-work one):
    chance outcomes drawn by their probabilities, a uniform choice among the legal
    actions."""

    def run(first: int) -> int:
        moves = 0
        for seed in range(first, first + games):
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    moves += 1
        return moves

    return run


def zoo_loop(players: int, variant: az.Variant, games: int, wrapped: bool) -> Loop:
    maker = env if wrapped else raw_env
    return aec_loop(maker(players=players, variant=variant.value), games)


def aec_loop(environment: Any, games: int) -> Loop:
    """Random games through a PettingZoo AEC environment (ours, or framework_floors.py's
    zero-work one): a uniform choice among the legal actions of each observation."""

    def run(first: int) -> int:
        moves = 0
        for seed in range(first, first + games):
            choose = random.Random(seed).choice
            environment.reset(seed=seed)
            for _ in environment.agent_iter():
                observation, _, termination, truncation, _ = environment.last()
                if termination or truncation:
                    environment.step(None)
                    continue
                environment.step(choose(np.flatnonzero(observation["action_mask"]).tolist()))
                moves += 1
        return moves

    return run


def side_by_side(
    loops: dict[str, Loop], repeats: int, games: int
) -> dict[str, tuple[float, float]]:
    """Every loop timed back to back in each repetition, so that all meet the same moment
    of a noisy machine: the median moves per second of each, and the median of its time
    per move over the first loop's (the referee's) in the same repetition."""
    for loop in loops.values():
        loop(10_000_000)  # warm-up
    rates: dict[str, list[float]] = {name: [] for name in loops}
    ratios: dict[str, list[float]] = {name: [] for name in loops}
    for repeat in range(repeats):
        first_rate = 0.0
        for name, loop in loops.items():
            gc.collect()
            start = time.perf_counter()
            moves = loop(repeat * games)
            rate = moves / (time.perf_counter() - start)
            first_rate = first_rate or rate
            rates[name].append(rate)
            ratios[name].append(first_rate / rate)
    return {
        name: (statistics.median(rates[name]), statistics.median(ratios[name])) for name in loops
    }


_PARTS = (
    ("azul_rules/actions.py", "codec and observations"),
    ("azul_rules/spiel.py", "adapter (azul_rules.ai.spiel)"),
    ("azul_rules/pettingzoo.py", "adapter (azul_rules.ai.pettingzoo)"),
    ("azul_rules/", "referee (legal moves, apply, tiling, draws)"),
    ("pettingzoo/", "PettingZoo wrappers and base class"),
    ("gymnasium/", "gymnasium"),
    ("numpy/", "numpy"),
    ("<built-in method pyspiel", "pyspiel (C++ side of each call)"),
    ("numpy", "numpy"),
    ("ai_bench.py", "the benchmark loop (random choice, chance sampling)"),
    ("/random.py", "the benchmark loop (random choice, chance sampling)"),
)


def breakdown(loop: Loop) -> list[tuple[str, float, list[str]]]:
    """Share of the loop's time (cProfile's own time per function) by part, with the
    three functions of each part that take the most."""
    profile = cProfile.Profile()
    profile.enable()
    loop(20_000_000)
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    totals: dict[str, float] = {}
    members: dict[str, list[tuple[float, str]]] = {}
    for (filename, _, name), (_, _, own, _, _) in stats.items():
        where = f"{filename}:{name}"
        part = next((label for key, label in _PARTS if key in where), "other (Python built-ins)")
        totals[part] = totals.get(part, 0.0) + own
        members.setdefault(part, []).append((own, name))
    whole = sum(totals.values())
    return sorted(
        (
            (part, own / whole, [name for _, name in sorted(members[part], reverse=True)[:3]])
            for part, own in totals.items()
        ),
        key=lambda x: -x[1],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repetitions")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4])
    arguments = parser.parse_args()
    games, repeats = (3, 3) if arguments.quick else (10, 5)
    print(f"Python {platform.python_version()}, {platform.machine()}; open_spiel "
          f"{_version('open_spiel')}, pettingzoo {_version('pettingzoo')}; {games} games "
          f"x {repeats} repetitions side by side (medians), player moves per second")  # fmt: skip
    for players in arguments.players:
        for variant in (az.Variant.COLORED, az.Variant.GREY):
            loops = {
                "referee (legal_moves/apply)": referee_loop(players, variant, games),
                "codec (legal_actions/move_from_action)": codec_loop(players, variant, games),
                "OpenSpiel python_azul": spiel_loop(players, variant, games),
                "PettingZoo env() (wrapped)": zoo_loop(players, variant, games, True),
                "PettingZoo raw_env": zoo_loop(players, variant, games, False),
            }
            print(f"\n{players} players, {variant.value} wall")
            for name, (rate, ratio) in side_by_side(loops, repeats, games).items():
                print(f"  {name:40} {rate:9,.0f} moves/s  ({ratio:4.1f}x the referee's time)")
    print("\nWhere the time goes (cProfile, own time by part; 2 players, coloured wall):")
    for name, loop in (
        ("OpenSpiel python_azul", spiel_loop(2, az.Variant.COLORED, games)),
        ("PettingZoo env()", zoo_loop(2, az.Variant.COLORED, games, True)),
    ):
        print(f"  {name}:")
        for part, share, top in breakdown(loop):
            if share >= 0.005:
                print(f"    {share:6.1%}  {part}: {', '.join(top)}")


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    main()
