"""``azul-rules differential``: test an engine speaking the engine protocol
(docs/engine-protocol.md) against the referee, game after game, every rule in play.

Exit status 0 the engine agrees, 1 it disagrees, 2 it failed to speak the protocol or
the ``testing`` extra (Hypothesis) is missing.
"""

from __future__ import annotations

import argparse
import sys

from azul_rules.cli._common import Commands, add_json, add_lang
from azul_rules.formats._arguments import integer, seconds

__all__ = ["NAME", "register", "run"]

NAME = "differential"


def register(commands: Commands) -> None:
    """Add ``differential`` and its options to ``commands``."""
    diff = commands.add_parser(
        NAME, help="test an engine speaking the engine protocol against the referee"
    )
    diff.add_argument("--engine", required=True, metavar="CMD", help="the engine's command line")
    diff.add_argument("--players", default="2,3,4", metavar="P[,P…]",
                      help="the player counts, e.g. 2,3 (default 2,3,4)")
    diff.add_argument("--variant", metavar="V[,V]",
                      help="the walls: colored, grey or colored,grey (default: the engine's)")
    budget = diff.add_mutually_exclusive_group()
    budget.add_argument("--games", type=integer, metavar="N", help="games to play (default 100)")
    budget.add_argument("--time", metavar="DURATION",
                        help="play for this long instead, e.g. 60s or 5m")
    diff.add_argument("--seed", type=integer, metavar="S",
                      help="the run's seed (printed in every report)")
    diff.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                      help="how long to wait for each reply (default 10)")
    diff.add_argument("--shrink-time", default="60s", metavar="DURATION",
                      help="the longest time spent shortening a disagreeing game (default 60s)")
    diff.add_argument("--record", metavar="FILE", help="also save the disagreeing game record")
    add_json(diff)
    add_lang(diff, "the report's sentences, the rule's title, the referee's verdicts")


def run(args: argparse.Namespace) -> int:
    """Run the differential test (:func:`azul_rules.testing.differential.command`)."""
    try:
        from azul_rules.testing import differential
    except ImportError as error:
        if error.name != "hypothesis":
            raise
        print("azul-rules differential: needs the hypothesis package, the testing extra: "
              "pip install -e '.[testing]' in the project's checkout", file=sys.stderr)  # fmt: skip
        return 2
    return differential.command(args)
