"""Play random games through the public API, for instruction counts (instructions.sh).

Usage: ``python benchmarks/playout_games.py WARM GAMES [PLAYERS [VARIANT]]``: first
``WARM`` games (seeds from 1,000,000, filling the memo tables as a long run would), then
``GAMES`` games with seeds 0, 1, ...  Uniform choice from ``legal_moves()``, then
``apply``; VARIANT is ``colored`` (default) or ``grey``.  A grey game still going after
round 100 is stopped (random grey games can starve; coloured ones end, and their loop
is the one measured before issue 18, with no check added).

``python benchmarks/playout_games.py --count WARM GAMES [PLAYERS [VARIANT]]`` plays the
same ``GAMES`` games (the same seeds, the same choices; not the warm-up) and prints
``moves N`` (PlaceTile moves included) and ``capped N`` (games stopped at round 100):
instructions.sh runs it outside callgrind to give the count per move, so that counting
costs the measured loop nothing.
"""

from __future__ import annotations

import random
import sys

import azul_rules as az

# As workloads.ROUND_CAP, which this script does not import: the more modules a process
# holds, the more its garbage collector costs (importing workloads added 0.7 % to the
# count per game).
ROUND_CAP = 100


def play(seed: int, players: int) -> None:
    """One random coloured game: the measured loop, as before issue 18."""
    choose = random.Random(seed).choice
    state = az.new_game(players, seed=seed)
    while not state.is_over:
        state = state.apply(choose(state.legal_moves()))


def play_grey(seed: int, players: int) -> None:
    """One random grey game, stopped after round ROUND_CAP."""
    choose = random.Random(seed).choice
    state = az.new_game(players, seed=seed, variant=az.Variant.GREY)
    while not state.is_over and state.round <= ROUND_CAP:
        state = state.apply(choose(state.legal_moves()))


def count(seed: int, players: int, variant: az.Variant) -> tuple[int, bool]:
    """The moves of the same game as :func:`play`, and whether it was stopped."""
    choose = random.Random(seed).choice
    state = az.new_game(players, seed=seed, variant=variant)
    moves = 0
    while not state.is_over and state.round <= ROUND_CAP:
        state = state.apply(choose(state.legal_moves()))
        moves += 1
    return moves, not state.is_over


def main() -> None:
    counting = sys.argv[1] == "--count"
    arguments = sys.argv[2:] if counting else sys.argv[1:]
    players = int(arguments[2]) if len(arguments) > 2 else 2
    variant = az.Variant(arguments[3]) if len(arguments) > 3 else az.Variant.COLORED
    if counting:
        counted = [count(seed, players, variant) for seed in range(int(arguments[1]))]
        print(f"moves {sum(moves for moves, _ in counted)}")
        print(f"capped {sum(capped for _, capped in counted)}")
        return
    warm, games = int(arguments[0]), int(arguments[1])
    one_game = play_grey if variant is az.Variant.GREY else play
    for index in range(warm):
        one_game(1_000_000 + index, players)
    for seed in range(games):
        one_game(seed, players)


if __name__ == "__main__":
    main()
