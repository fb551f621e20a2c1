"""What the issue-18 figures measure: the benchmark position, the takes that end a round,
ordinary takes, and random games.  Shared by ``bench.py`` (wall clock) and
``per_call.py`` / ``playout_games.py`` (instruction counts under callgrind), so that both
measure the same calls.

Everything is built from seeded games through the public API only (``new_game``,
``legal_moves``, ``apply``, ``from_json``), so it keeps working while the core's
internals move.  The random games depend on the seeded draws: ``checksum`` lines make a
change of the games visible (compare them before comparing figures).
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from pathlib import Path

import azul_rules as az

BENCHMARK_POSITION = Path(__file__).with_name("benchmark_position.json")

# A grey game that has not ended by this round is stopped (random grey games can starve,
# see docs/guide.md, "How long games last"); the CLI's cap too.
ROUND_CAP = 100


def benchmark_position() -> az.GameState:
    """The benchmark position: 2 players, coloured wall, round 3, the first player to
    move, one factory left (blue, red, black, black) and the centre (blue ×2, yellow ×4,
    red ×2); 22 legal takes.  Frozen as JSON (``benchmark_position.json``: the position
    reached from ``new_game(2, seed=3)`` by uniform random takes of ``Random(3)`` until
    round 3, then five more), so that it stays the same when the draws change."""
    return az.from_json(BENCHMARK_POSITION.read_text(), az.GameState)


def play(
    players: int, seed: int, variant: az.Variant = az.Variant.COLORED
) -> list[tuple[az.GameState, az.Take | az.PlaceTile, az.GameState]]:
    """Every (parent, move, child) of the random game of ``seed``: uniform choice from
    ``legal_moves()`` by ``Random(seed)``, stopped at :data:`ROUND_CAP`."""
    choose = random.Random(seed).choice
    state = az.new_game(players, seed=seed, variant=variant)
    steps = []
    while not state.is_over and state.round <= ROUND_CAP:
        move = choose(state.legal_moves())
        child = state.apply(move)
        steps.append((state, move, child))
        state = child
    return steps


def takes(
    players: int = 2, games: int = 40
) -> dict[str, list[tuple[az.GameState, az.Take | az.PlaceTile]]]:
    """The takes of the coloured random games of seeds ``0 .. games - 1``, by kind:
    ``"ordinary"`` (the round goes on), ``"round end"`` (the last take of a round that is
    not the last: ``apply`` runs the wall tiling, the floor, the end check and the
    refill) and ``"game end"`` (the last take of the game: tiling, floor, bonuses)."""
    found: dict[str, list[tuple[az.GameState, az.Take | az.PlaceTile]]] = {
        "ordinary": [],
        "round end": [],
        "game end": [],
    }
    for seed in range(games):
        for parent, move, child in play(players, seed):
            if child.is_over:
                kind = "game end"
            elif child.round != parent.round:
                kind = "round end"
            else:
                kind = "ordinary"
            found[kind].append((parent, move))
    return found


def successor_bytes(pairs: list[tuple[az.GameState, az.Take | az.PlaceTile]]) -> float:
    """Memory one successor adds while its parent is kept, in bytes (tracemalloc): the
    mean over ``pairs``, every successor kept alive, after one warm-up pass (the memo
    tables of a long run are full)."""
    for parent, move in pairs:
        parent.apply(move)
    gc.collect()
    kept: list[az.GameState] = []
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for parent, move in pairs:
        kept.append(parent.apply(move))
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before - _list_bytes(len(kept))) / len(kept)


def _list_bytes(length: int) -> int:
    """What the list that keeps ``length`` successors costs tracemalloc by itself."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept: list[None] = []
    for _ in range(length):
        kept.append(None)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before


def checksum(pairs: list[tuple[az.GameState, az.Take | az.PlaceTile]]) -> str:
    """A short fingerprint of a set of takes (count, and the sum of the children's
    scores), to see that two runs measured the same games."""
    scores = sum(sum(board.score for board in parent.apply(move).players) for parent, move in pairs)
    return f"{len(pairs)} takes, score sum {scores}"
