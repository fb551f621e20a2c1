"""Play random games through the public API, for instruction counts (instructions.sh).

Usage: ``python benchmarks/playout_games.py WARM GAMES [PLAYERS [VARIANT]]``: first
``WARM`` games (seeds from 1,000,000, filling the memo tables as a long run would), then
``GAMES`` games with seeds 0, 1, ...  Uniform choice from ``legal_moves()``, then
``apply``; VARIANT is ``colored`` (default) or ``grey``.  A grey game still going after
round 100 is stopped (random grey games can starve; coloured ones end, and are not
slowed by the check).  Prints ``moves N`` (the moves of the
``GAMES`` games, PlaceTile moves included) and ``capped N`` (how many of them were
stopped), so that instructions.sh can give the count per move too.
"""

from __future__ import annotations

import random
import sys

from workloads import ROUND_CAP

import azul_rules as az


def play(seed: int, players: int, variant: az.Variant) -> tuple[int, bool]:
    """The moves of one random game, and whether it was stopped at the round cap."""
    choose = random.Random(seed).choice
    state = az.new_game(players, seed=seed, variant=variant)
    moves = 0
    grey = variant is az.Variant.GREY  # only grey games read the round: coloured ones end
    while not state.is_over:
        state = state.apply(choose(state.legal_moves()))
        moves += 1
        if grey and state.round > ROUND_CAP:
            return moves, True
    return moves, False


def main() -> None:
    warm, games = int(sys.argv[1]), int(sys.argv[2])
    players = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    variant = az.Variant(sys.argv[4]) if len(sys.argv) > 4 else az.Variant.COLORED
    for index in range(warm):
        play(1_000_000 + index, players, variant)
    moves = capped = 0
    for seed in range(games):
        made, stopped = play(seed, players, variant)
        moves += made
        capped += stopped
    print(f"moves {moves}")
    print(f"capped {capped}")


if __name__ == "__main__":
    main()
