"""A digest of seeded random games, part by part: the same on both cores.

``python -m tests.core_digest [GAMES]`` prints ``moves N digest HEX`` for GAMES seeds
(default 150) at 2, 3 and 4 players on both walls (900 games), the moves chosen by
``random.Random(seed)`` among ``legal_moves()``.  Every successor's parts (factories,
centre, bag, lid, generator state, whose turn, the marker, phase, round, each board's
score, lines, wall, floor and accepting lines) and every round's tiling record go into
the digest.  ``tests/core/test_compiled_core.py`` compares the compiled core's digest with
the Python core's (``AZUL_RULES_PURE_PYTHON=1``, in a process of its own).
"""

from __future__ import annotations

import hashlib
import random
import sys

import azul_rules as az

ROUND_CAP = 40
"""Grey games that could starve are stopped after this round (the digest covers them)."""


def fingerprint(state: az.GameState) -> bytes:
    """Every part of ``state`` that a move can change, as text."""
    boards = [
        (b.score, [(line.color, line.count) for line in b.pattern_lines], b.wall, b.floor,
         b.accepting)
        for b in state.players
    ]  # fmt: skip
    parts = (
        boards, state.factories, state.center, state.bag, state.lid, state.rng_state,
        state.current_player, state.marker_holder, state.start_player, state.phase,
        state.round, state.outcome,
    )  # fmt: skip
    return repr(parts).encode()


def game_digest(games: int) -> tuple[int, str]:
    """The number of moves and the digest of ``games`` seeds at each player count and
    wall."""
    digest = hashlib.sha256()
    moves = 0
    for variant in az.Variant:
        for players in (2, 3, 4):
            for seed in range(games):
                state = az.new_game(players, seed=seed, variant=variant)
                choose = random.Random(seed).choice
                scoring = None
                while not state.is_over and state.round <= ROUND_CAP:
                    state = state.apply(choose(state.legal_moves()))
                    moves += 1
                    digest.update(fingerprint(state))
                    if state.last_scoring is not scoring:
                        scoring = state.last_scoring
                        digest.update(repr(scoring).encode())
    return moves, digest.hexdigest()


if __name__ == "__main__":
    moves, digest = game_digest(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
    print(f"moves {moves} digest {digest}")
