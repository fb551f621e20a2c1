"""Play random games through the public API, for instruction counts (instructions.sh).

Usage: ``python benchmarks/playout_games.py WARM GAMES [PLAYERS]``: first ``WARM`` games
(seeds from 1,000,000, filling the memo tables as a long run would), then ``GAMES``
games with seeds 0, 1, ...  Uniform choice from ``legal_moves()``, then ``apply``.
"""

from __future__ import annotations

import random
import sys

import azul_rules as az


def play(seed: int, players: int) -> None:
    choose = random.Random(seed).choice
    state = az.new_game(players, seed=seed)
    while not state.is_over:
        state = state.apply(choose(state.legal_moves()))


def main() -> None:
    warm, games = int(sys.argv[1]), int(sys.argv[2])
    players = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    for index in range(warm):
        play(1_000_000 + index, players)
    for seed in range(games):
        play(seed, players)


if __name__ == "__main__":
    main()
