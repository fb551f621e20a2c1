"""How long random games last, per wall and player count: rounds and moves to the end
(median, 99th percentile, longest), how many ended by R7 or R6 rather than a complete
row, and how many were still going at the round cap.

    .venv/bin/python benchmarks/game_lengths.py [--games 2000] [--cap 100]
"""

from __future__ import annotations

import argparse
import random
import statistics

import azul_rules as az


def one_game(players: int, variant: az.Variant, seed: int, cap: int) -> tuple[int, int, str]:
    """(rounds, moves, how it ended) of a seeded game between uniformly random players."""
    rng = random.Random(seed)
    state = az.new_game(players, seed=seed, variant=variant)
    moves = 0
    while not state.is_over and state.round <= cap:
        state = state.apply(rng.choice(state.legal_moves()))
        moves += 1
    if not state.is_over:
        return state.round, moves, "capped"
    if any(board.has_complete_row() for board in state.players):
        return state.round, moves, "row"
    return state.round, moves, "R6/R7"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--cap", type=int, default=100)
    options = parser.parse_args()
    print("| wall | players | rounds: median / p99 / longest | moves: median / longest "
          "| ended by R6/R7 | still going after round", options.cap, "|")
    print("| --- | --- | --- | --- | --- | --- |")
    for variant in (az.Variant.COLORED, az.Variant.GREY):
        for players in (2, 3, 4):
            games = [one_game(players, variant, seed, options.cap) for seed in range(options.games)]
            finished = sorted(r for r, _, how in games if how != "capped")
            moves = sorted(m for _, m, how in games if how != "capped")
            p99 = finished[int(0.99 * (len(finished) - 1))]
            print(f"| {variant.value} | {players} | {statistics.median(finished):g} / {p99} / "
                  f"{finished[-1]} | {statistics.median(moves):g} / {moves[-1]} | "
                  f"{sum(how == 'R6/R7' for *_, how in games)} | "
                  f"{sum(how == 'capped' for *_, how in games)} of {options.games} |")


if __name__ == "__main__":
    main()
