"""``azul-rules tournament``: refereed games between bots, at scale (docs/tournament.md).

Only the options are declared here; :mod:`azul_rules.tournament.command` runs the
tournament, so that the other commands do not import the tournament's backends.
"""

from __future__ import annotations

import argparse

from azul_rules.cli._common import PLAYERS_HELP, VARIANT_HELP, Commands, add_json, add_lang
from azul_rules.formats._arguments import integer, seconds
from azul_rules.tournament.command import main as tournament_main

__all__ = ["NAME", "register", "run"]

NAME = "tournament"


def register(commands: Commands) -> None:
    """Add ``tournament`` and its options to ``commands``."""
    add = commands.add_parser(NAME, help="refereed games between bots, at scale")
    add.add_argument("--bots", required=True, metavar="A,B[,…]",
                     help="comma-separated bots: random, greedy or package.module:Factory")
    add.add_argument("--games", type=_games, required=True, metavar="N", help="games to play")
    add.add_argument("--players", type=integer, default=2, choices=(2, 3, 4), help=PLAYERS_HELP)
    add.add_argument("--variant", choices=("colored", "grey"), default="colored",
                     help=VARIANT_HELP)  # fmt: skip
    add.add_argument("--seed", type=integer, default=0, metavar="S",
                     help="the tournament's seed (the deals; default 0)")
    add.add_argument("--backend", choices=("local", "process", "ray"), default="local",
                     help="where the games run (default local: this process)")
    add.add_argument("--workers", type=integer, metavar="W",
                     help="the processes, or Ray tasks, at once (default: one a core)")
    add.add_argument("--batch", type=integer, metavar="B",
                     help="games a task (default: eight batches a worker, at most 100)")
    add.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                     help="the time a bot has for each move (default: no limit)")
    add.add_argument("--max-rounds", type=integer, default=100, metavar="R",
                     help="a longer game ends unfinished (default 100)")
    add.add_argument("--out", metavar="FILE.jsonl", help="append one JSON line a game")
    add.add_argument("--resume", action="store_true", help="continue FILE.jsonl")
    add.add_argument("--ray-address", metavar="ADDR", help="a Ray cluster, e.g. auto")
    add.add_argument("--retries", type=integer, default=2, metavar="K",
                     help="times to run again a batch whose worker died (default 2)")
    add_json(add)
    add_lang(add, "the language of the referee's messages in recorded forfeits")
    add.add_argument("--no-progress", action="store_true", help="no progress bar")


def _games(text: str) -> int:
    """``--games``: a number of games, 1 or more (0 would print a table of no game)."""
    games = integer(text)
    if games < 1:
        raise argparse.ArgumentTypeError(f"expected a number of games, 1 or more, not {games}")
    return games


def run(args: argparse.Namespace) -> int:
    """Run the tournament (:func:`azul_rules.tournament.command.main`)."""
    return tournament_main(args)
