"""The ``azul-rules`` command (also ``python -m azul_rules``).

Exit status: 0 success (or a legal move), 1 an illegal move, 2 unreadable input.  Errors
are reported in one line, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from azul_rules.bots import GreedyBot, RandomBot
from azul_rules.errors import FormatError
from azul_rules.phases import Phase, Variant
from azul_rules.scoring import RoundScoring
from azul_rules.state import new_game

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="azul-rules", description="A strict referee for the board game Azul."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="referee a whole game between built-in bots")
    play.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--variant", choices=("colored", "grey"), default="colored")
    play.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots per seat: random or greedy (default: greedy,random,...)",
    )
    return parser


def _bots(spec: str | None, players: int, seed: int) -> list[GreedyBot | RandomBot]:
    names = (
        spec.split(",") if spec else ["greedy" if i % 2 == 0 else "random" for i in range(players)]
    )
    if len(names) != players:
        raise FormatError(f"--bots names {len(names)} bots for {players} players")
    bots: list[GreedyBot | RandomBot] = []
    for index, name in enumerate(names):
        if name == "greedy":
            bots.append(GreedyBot())
        elif name == "random":
            bots.append(RandomBot(seed * 31 + index))
        else:
            raise FormatError(f"unknown bot {name!r}: choose random or greedy")
    return bots


def describe_scoring(scoring: RoundScoring) -> list[str]:
    """The wall tiling of a round in words, one line per fact."""
    lines = [f"-- wall tiling of round {scoring.round} --"]
    for tiling in scoring.players:
        who = f"player {tiling.player + 1}"
        for p in tiling.placements:
            lines.append(
                f"  {who}: {p.color.name.lower()} to row {p.row + 1}, column {p.column + 1}: "
                f"runs {p.horizontal} across, {p.vertical} down -> {p.points} point(s)"
            )
        for line in tiling.floor_lines:
            lines.append(f"  {who}: pattern line {line + 1} goes whole to the floor (V4)")
        lines.append(
            f"  {who}: +{tiling.placement_points} placed, -{tiling.floor_penalty} floor, "
            f"score {tiling.score_before} -> "
            f"{tiling.score_after - (tiling.bonuses.points if tiling.bonuses else 0)}"
        )
        if tiling.bonuses is not None:
            b = tiling.bonuses
            lines.append(
                f"  {who}: end bonuses {b.rows} row(s) x2, {b.columns} column(s) x7, "
                f"{b.colors} colour(s) x10 = +{b.points} -> {tiling.score_after}"
            )
    return lines


def _play(args: argparse.Namespace) -> int:
    variant = Variant(args.variant)
    state = new_game(args.players, seed=args.seed, variant=variant)
    bots = _bots(args.bots, args.players, args.seed)
    print(
        f"Azul, {args.players} players, seed {args.seed}, {variant.value} wall; "
        + ", ".join(f"player {i + 1}: {b.name}" for i, b in enumerate(bots))
    )
    shown_round = 0
    while not state.is_over:
        if state.round != shown_round:
            shown_round = state.round
            print(f"== round {state.round}: player {state.current_player + 1} starts ==")
            print("   factories: " + " ".join(_tiles(f) for f in state.factories))
        player = state.current_player
        move = bots[player].choose(state)
        before = state
        state = state.apply(move)
        phase = "" if before.phase is Phase.FACTORY_OFFER else "  (wall tiling)"
        print(f"   player {player + 1}: {move}{phase}")
        settled = state.phase is not Phase.WALL_TILING
        if settled and state.last_scoring is not before.last_scoring and state.last_scoring:
            print("\n".join(describe_scoring(state.last_scoring)))
    outcome = state.outcome
    assert outcome is not None
    scores = ", ".join(f"player {i + 1}: {s}" for i, s in enumerate(outcome.scores))
    winners = " and ".join(f"player {w + 1}" for w in outcome.winners)
    print(f"== game over after round {state.round} ==")
    print(f"final scores: {scores}")
    print(f"{'shared victory' if outcome.is_shared else 'winner'}: {winners}")
    return 0


def _tiles(tiles: Sequence[object]) -> str:
    from azul_rules.colors import Color

    return "[" + "".join(t.letter for t in tiles if isinstance(t, Color)) + "]"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    try:
        if args.command == "play":
            return _play(args)
    except FormatError as error:
        print(f"azul-rules: {error}", file=sys.stderr)
        return 2
    parser.error(f"unknown command {args.command}")
    return 2


def run() -> None:
    """Entry point of the ``azul-rules`` script and ``python -m azul_rules``."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (``| head``): not an error of ours
        sys.stderr.close()
        status = 0
    sys.exit(status)
