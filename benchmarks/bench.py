"""Benchmarks for azul_rules (issue: speed for AI users; the measurement fixed in issue 18).

Run from the project's root:  ``bash benchmarks/run.sh``  (makes its own environment with
the peer engine ``azul-game-engine``), or ``python benchmarks/bench.py`` in any
environment where ``azul_rules`` is installed (the peer is then measured if present).

Every figure is a median over several repetitions after a warm-up.  Random games are
reported in games/s, moves/s and moves per game, so that engines whose games last
differently are compared like with like.  No timing is asserted anywhere: these are
measurements, recorded in ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from import_time import cache_bytecode, wall
from workloads import ROUND_CAP, benchmark_position, successor_bytes, takes

import azul_rules as az

# One timed run: plays some random games and returns (games, moves).
Run = Callable[[], tuple[int, int]]


class Tally:
    """How the random games of a runner ended, over all its runs."""

    def __init__(self) -> None:
        self.games = self.moves = self.ended = self.stopped = 0

    def add(self, moves: int, ended: bool) -> None:
        self.games += 1
        self.moves += moves
        self.ended += ended
        self.stopped += not ended

    def moves_per_game(self) -> float:
        return self.moves / self.games

    def __str__(self) -> str:
        return f"{self.ended}/{self.games} games reached their end"


def timed(run: Run) -> tuple[float, float]:
    """(games/s, moves/s) of one run."""
    gc.collect()
    start = time.perf_counter()
    games, moves = run()
    seconds = time.perf_counter() - start
    return games / seconds, moves / seconds


def median_rates(run: Run, repeats: int) -> tuple[float, float]:
    """Median games/s and moves/s over ``repeats`` runs, after one warm-up run."""
    run()
    rates = [timed(run) for _ in range(repeats)]
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def side_by_side(ours: Run, peer: Run, repeats: int) -> dict[str, float]:
    """Both engines timed back to back in each repetition, so that both see the same
    moment of a noisy machine: the median rates of each and the medians of the ratios
    (ours over the peer's), per game and per move."""
    ours()
    peer()
    seen: dict[str, list[float]] = {k: [] for k in ("ours", "peer", "ours m", "peer m", "g", "m")}
    for _ in range(repeats):
        (our_games, our_moves), (peer_games, peer_moves) = timed(ours), timed(peer)
        seen["ours"].append(our_games)
        seen["peer"].append(peer_games)
        seen["ours m"].append(our_moves)
        seen["peer m"].append(peer_moves)
        seen["g"].append(our_games / peer_games)
        seen["m"].append(our_moves / peer_moves)
    return {key: statistics.median(values) for key, values in seen.items()}


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


def per_apply_us(pairs: list[tuple[az.GameState, Any]], repeats: int, passes: int) -> float:
    """Median over ``repeats`` of the mean microseconds of ``parent.apply(move)`` over
    ``pairs`` (``passes`` passes each), after one warm-up pass."""
    for parent, move in pairs:
        parent.apply(move)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(passes):
            for parent, move in pairs:
                parent.apply(move)
        times.append((time.perf_counter() - start) / (passes * len(pairs)) * 1e6)
    return statistics.median(times)


def playouts(players: int, variant: az.Variant, games: int) -> tuple[Run, Tally]:
    """Random playouts through the public API: uniform choice from legal_moves().  A grey
    game still going after round ROUND_CAP is stopped (random grey games can starve)."""
    grey = variant is az.Variant.GREY
    first_seed = [0]
    tally = Tally()

    def run() -> tuple[int, int]:  # new seeds at every run: no repetition replays a game
        moves = 0
        start = first_seed[0]
        first_seed[0] += games
        for seed in range(start, start + games):
            choose = random.Random(seed).choice
            state = az.new_game(players, seed=seed, variant=variant)
            made = 0
            while not state.is_over:
                state = state.apply(choose(state.legal_moves()))
                made += 1
                if grey and state.round > ROUND_CAP:
                    break
            moves += made
            tally.add(made, state.is_over)
        return games, moves

    return run, tally


def peer_playouts(
    players: int, games: int, after_game: Callable[[Any], object] | None = None
) -> tuple[Run, Tally] | None:
    """Random playouts of ``azul-game-engine`` 1.0.2 (a mutable pure-Python engine), with
    the same uniform choice among its legal takes, or None when it is not installed.

    The table has ONE lid, as in the real game.  The peer's ``Game`` keeps a lid for the
    leftovers of tiled lines and refills its bag from it (``Bag.take_tiles``: when the bag
    holds fewer tiles than a factory needs, the whole lid goes into it); but each
    ``Floor`` drops its tiles into a lid of its own unless it is given one.  Built with
    ``Board()`` (as this benchmark did before issue 18), the floors' tiles never came
    back, the bag ran dry, and most 4-player games stalled half-way with empty factories.
    Here every floor gets the game's lid.  The peer's own simplifications stay: the
    first-player marker is given once a game (its centre never resets the flag), the
    player who made the last take starts the next round, and an empty deal (R6) has no
    rule, so such a game stops (counted as not ended).  ``after_game`` is called with
    each game when it stops (for checks, never in timed runs).
    """
    try:
        from azul_game_engine.board import Board
        from azul_game_engine.floor import Floor
        from azul_game_engine.game import Game
        from azul_game_engine.lid import Lid
        from azul_game_engine.player import Player
        from azul_game_engine.tile import Tile
    except ImportError:
        return None

    def new_game() -> Game:
        lid = Lid()  # the table's one lid: for tiled lines, floors and the bag's refills
        table = [Player(Board(floor=Floor(lid)), str(i)) for i in range(players)]
        return Game(table, lid=lid)

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
    tally = Tally()

    def run() -> tuple[int, int]:
        moves = 0
        start = first_seed[0]
        first_seed[0] += games
        for seed in range(start, start + games):
            random.seed(seed)  # the peer draws from the random module
            choose = random.Random(seed).choice
            game = new_game()
            made = 0
            while game.is_running and made < 5000:
                options = legal(game)
                if not options:  # an empty deal: this engine has no rule for it (R6)
                    break
                index, tile, floor, row = choose(options)
                if index < 0:
                    game.execute_factory_offer_phase_with_center(tile, floor, row)
                else:
                    game.execute_factory_offer_phase_with_factory(index, tile, floor, row)
                made += 1
            moves += made
            tally.add(made, not game.is_running)  # it stops only after a complete row
            if after_game is not None:
                after_game(game)
        return games, moves

    return run, tally


def tiles_on_table(game: Any) -> int:
    """Every tile of a peer game: bag, lid, factories, centre, pattern lines, floors and
    walls (100 when none is lost)."""
    tiles = len(game.bag.tiles) + len(game.lid.tiles) + len(game.center.tiles)
    tiles += sum(len(factory.tiles) for factory in game.factory_displays)
    for player in game.players:
        board = player.board
        tiles += len(board.floor.tiles)
        tiles += sum(line.tile_count for line in board.pattern_lines)
        tiles += sum(cell.is_placed for row in board.wall.tiles for cell in row)
    return tiles


def peer_check(players: int, games: int) -> str:
    """Peer games played apart from the timed runs, counting the tiles at each game's
    end: how many ended, and whether all still held their 100 tiles."""
    counts: list[int] = []
    found = peer_playouts(players, games, lambda game: counts.append(tiles_on_table(game)))
    assert found is not None
    found[0]()
    kept = "all 100 tiles kept" if set(counts) == {100} else f"tiles at the end: {set(counts)}"
    return f"{found[1]}, {kept}"


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
            run, tally = playouts(players, variant, games)
            games_s, moves_s = median_rates(run, repeats)
            key = f"playouts {variant.value} {players}p"
            figures[f"{key} games/s"] = round(games_s)
            figures[f"{key} moves/s"] = round(moves_s)
            figures[f"{key} moves/game"] = round(tally.moves_per_game(), 1)
            figures[f"{key} ended"] = str(tally)
    state = benchmark_position()
    take = state.legal_moves()[0]
    assert isinstance(take, az.Take) and isinstance(take.color, az.Color)
    wrong = az.TableTake(take.source, take.color, 1, {az.FLOOR: 1, 0: 1, 1: 1})
    figures["legal_moves() us (benchmark position)"] = round(
        per_call_us(state.legal_moves, 20000, repeats), 2
    )
    figures["validate(legal Take) us"] = round(
        per_call_us(lambda: state.validate(take), 50000, repeats), 2
    )
    figures["validate(illegal TableTake) us"] = round(
        per_call_us(lambda: state.validate(wrong), 20000, repeats), 2
    )
    figures["apply(Take) us (benchmark position)"] = round(
        per_call_us(lambda: state.apply(take), 20000, repeats), 2
    )
    kinds = takes()
    figures["apply: round-ending take us"] = round(per_apply_us(kinds["round end"], repeats, 20), 2)
    figures["apply: ordinary take us"] = round(per_apply_us(kinds["ordinary"], repeats, 2), 2)
    figures["apply: game-ending take us"] = round(per_apply_us(kinds["game end"], repeats, 20), 2)
    text = az.to_json(state)
    figures["to_json(mid-game) us"] = round(per_call_us(lambda: az.to_json(state), 500, repeats), 1)
    figures["from_json(mid-game) us"] = round(
        per_call_us(lambda: az.from_json(text, az.GameState), 500, repeats), 1
    )
    figures["successor bytes: ordinary take"] = round(successor_bytes(kinds["ordinary"]))
    figures["successor bytes: round-ending take"] = round(successor_bytes(kinds["round end"]))
    figures["import (bytecode cached)"] = cache_bytecode()
    for name, measures in wall(max(5, 3 * repeats)).items():
        for how in ("in-process", "-X importtime"):
            values = measures[how]
            figures[f"{name} ms, {how}, min / median"] = (
                f"{min(values):.1f} / {statistics.median(values):.1f}"
            )
    for players in (2, 3, 4):
        peer = peer_playouts(players, max(20, games // 5))
        if peer is None:
            continue
        key = f"side by side {players}p"
        figures[f"{key}: azul-game-engine check"] = peer_check(players, 50)
        ours, our_tally = playouts(players, az.Variant.COLORED, games)
        (peer_run, peer_tally) = peer
        seen = side_by_side(ours, peer_run, repeats)
        figures[f"{key}: ours games/s, moves/s"] = f"{seen['ours']:.0f}, {seen['ours m']:.0f}"
        figures[f"{key}: azul-game-engine games/s, moves/s"] = (
            f"{seen['peer']:.0f}, {seen['peer m']:.0f}"
        )
        figures[f"{key}: moves/game ours, azul-game-engine"] = (
            f"{our_tally.moves_per_game():.1f}, {peer_tally.moves_per_game():.1f}"
        )
        figures[f"{key}: azul-game-engine ended"] = str(peer_tally)
        figures[f"ratio to azul-game-engine {players}p, games/s"] = round(seen["g"], 2)
        figures[f"ratio to azul-game-engine {players}p, moves/s"] = round(seen["m"], 2)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
