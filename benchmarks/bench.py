"""Benchmarks for azul_rules (issue: speed for AI users).

Run from the project's root:  ``bash benchmarks/run.sh``  (makes its own environment with
the peer engine ``azul-game-engine``), or ``python benchmarks/bench.py`` in any
environment where ``azul_rules`` is installed (the peer is then measured if present).

Every figure is a median over several repetitions after a warm-up.  No timing is
asserted anywhere: these are measurements, recorded in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable

import azul_rules as az


def median_rate(run: Callable[[], int], repeats: int) -> float:
    """Median of ``units / second`` over ``repeats`` runs, after one warm-up run."""
    run()
    rates = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        units = run()
        rates.append(units / (time.perf_counter() - start))
    return statistics.median(rates)


def side_by_side(
    ours: Callable[[], int], peer: Callable[[], int], repeats: int
) -> tuple[float, float, float]:
    """Both engines timed back to back in each repetition, so that both see the same
    moment of a noisy machine: the median rate of each and the median of the ratios."""
    ours()
    peer()
    our_rates, peer_rates, ratios = [], [], []
    for _ in range(repeats):
        rates = []
        for run in (ours, peer):
            gc.collect()
            start = time.perf_counter()
            units = run()
            rates.append(units / (time.perf_counter() - start))
        our_rates.append(rates[0])
        peer_rates.append(rates[1])
        ratios.append(rates[0] / rates[1])
    return statistics.median(our_rates), statistics.median(peer_rates), statistics.median(ratios)


def per_call_us(call: Callable[[], object], number: int, repeats: int) -> float:
    """Median microseconds per call."""
    for _ in range(number // 10):
        call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            call()
        times.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(times)


def playouts(players: int, variant: az.Variant, games: int) -> tuple[Callable[[], int], list[int]]:
    """Random playouts through the public API: uniform choice from legal_moves()."""
    moves_made = [0]

    grey = variant is az.Variant.GREY
    first_seed = [0]

    def run() -> int:  # new seeds at every run: no repetition replays the same games
        moves = 0
        start = first_seed[0]
        first_seed[0] += games
        for seed in range(start, start + games):
            choose = random.Random(seed).choice
            state = az.new_game(players, seed=seed, variant=variant)
            while not state.is_over:
                state = state.apply(choose(state.legal_moves()))
                moves += 1
                if grey and state.round > 60:  # a starved grey game that cannot end
                    break
        moves_made[0] = moves
        return games

    return run, moves_made


def mid_game_state(players: int = 2, seed: int = 3) -> az.GameState:
    rnd = random.Random(seed)
    state = az.new_game(players, seed=seed)
    while state.round < 3 and not state.is_over:
        state = state.apply(rnd.choice(state.legal_moves()))
    for _ in range(5):
        state = state.apply(rnd.choice(state.legal_moves()))
    return state


def successor_bytes(samples: int = 2000) -> float:
    """Memory a successor state adds while its parent is kept (tracemalloc)."""
    rnd = random.Random(1)
    states = []
    state = az.new_game(2, seed=1)
    chain = []
    while len(chain) < samples:
        if state.is_over:
            state = az.new_game(2, seed=len(chain))
        chain.append((state, rnd.choice(state.legal_moves())))
        state = state.apply(chain[-1][1])
    for parent, move in chain[:50]:  # warm the memo tables
        parent.apply(move)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for parent, move in chain:
        states.append(parent.apply(move))
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(states)


def import_ms(repeats: int) -> float:
    code = "import time; t=time.perf_counter(); import azul_rules; print(time.perf_counter()-t)"
    times = []
    for _ in range(repeats):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        times.append(float(done.stdout))
    return statistics.median(times) * 1000


def peer_playouts(players: int, games: int) -> Callable[[], int] | None:
    """Random playouts of ``azul-game-engine`` (a mutable pure-Python engine), with
    the same uniform choice among its legal takes."""
    try:
        from azul_game_engine.board import Board
        from azul_game_engine.game import Game
        from azul_game_engine.player import Player
        from azul_game_engine.tile import Tile
    except ImportError:
        return None

    def legal(game: Game) -> list[tuple[int, Tile, int, int]]:
        board = game.players[game.current_player].board
        found = []
        sources = [(i, f.tiles) for i, f in enumerate(game.factory_displays) if f.tiles]
        if game.center.tiles:
            sources.append((-1, game.center.tiles))
        for index, tiles in sources:
            for tile in set(tiles):
                count = tiles.count(tile)
                for row, line in enumerate(board.pattern_lines):
                    if (
                        not line.is_filled()
                        and not line.is_colour_invalid(tile)
                        and not (board.wall.already_has(tile, row))
                    ):
                        found.append((index, tile, 0, row))
                found.append((index, tile, count, 0))  # the whole lot to the floor
        return found

    first_seed = [0]

    def run() -> int:
        start = first_seed[0]
        first_seed[0] += games
        for seed in range(start, start + games):
            random.seed(seed)
            choose = random.Random(seed).choice
            game = Game([Player(Board(), str(i)) for i in range(players)])
            rounds = 0
            while game.is_running and rounds < 5000:
                options = legal(game)
                if not options:  # this engine has no rule for an empty deal (R6)
                    break
                index, tile, floor, row = choose(options)
                if index < 0:
                    game.execute_factory_offer_phase_with_center(tile, floor, row)
                else:
                    game.execute_factory_offer_phase_with_factory(index, tile, floor, row)
                rounds += 1
        return games

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games and repetitions")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    games, repeats = (60, 3) if args.quick else (300, 7)
    figures: dict[str, object] = {
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}",
    }
    for variant in az.Variant:
        for players in (2, 3, 4):
            run, moves = playouts(players, variant, games)
            rate = median_rate(run, repeats)
            key = f"playouts {variant.value} {players}p"
            figures[f"{key} games/s"] = round(rate)
            figures[f"{key} moves/s"] = round(rate * moves[0] / games)
    state = mid_game_state()
    take = state.legal_moves()[0]
    assert isinstance(take, az.Take) and isinstance(take.color, az.Color)
    wrong = az.TableTake(take.source, take.color, 1, {az.FLOOR: 1, 0: 1, 1: 1})
    figures["legal_moves() us"] = round(per_call_us(state.legal_moves, 20000, repeats), 2)
    figures["validate(legal Take) us"] = round(
        per_call_us(lambda: state.validate(take), 50000, repeats), 2
    )
    figures["validate(illegal TableTake) us"] = round(
        per_call_us(lambda: state.validate(wrong), 20000, repeats), 2
    )
    figures["apply(Take) us"] = round(per_call_us(lambda: state.apply(take), 20000, repeats), 2)
    text = az.to_json(state)
    figures["to_json(mid-game) us"] = round(per_call_us(lambda: az.to_json(state), 500, repeats), 1)
    figures["from_json(mid-game) us"] = round(
        per_call_us(lambda: az.from_json(text, az.GameState), 500, repeats), 1
    )
    figures["successor bytes/state"] = round(successor_bytes())
    figures["import azul_rules ms"] = round(import_ms(repeats), 1)
    for players in (2, 4):
        peer = peer_playouts(players, max(20, games // 5))
        if peer is not None:
            ours, _ = playouts(players, az.Variant.COLORED, games)
            our_rate, peer_rate, ratio = side_by_side(ours, peer, repeats)
            figures[f"side by side {players}p: ours games/s"] = round(our_rate)
            figures[f"side by side {players}p: azul-game-engine games/s"] = round(peer_rate)
            figures[f"ratio to azul-game-engine {players}p"] = round(ratio, 2)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
