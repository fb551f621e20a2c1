"""``azul-rules show``: a position as readable text (and, with ``--svg``, as a picture).

It reads every position ``audit`` reads, the end of a factory offer included."""

from __future__ import annotations

import argparse

from azul_rules.cli._common import POSITION, POSITION_HELP, Commands, add_lang
from azul_rules.cli._inputs import load_state
from azul_rules.cli._outputs import draw
from azul_rules.core.render import render_state

__all__ = ["NAME", "register", "run"]

NAME = "show"


def register(commands: Commands) -> None:
    """Add ``show`` and its options to ``commands``."""
    show = commands.add_parser(NAME, help="a position as readable text")
    show.add_argument("state", metavar=POSITION, help=POSITION_HELP)
    add_lang(show)
    show.add_argument("--svg", metavar="OUT.svg", help="also draw the position (SVG)")


def run(args: argparse.Namespace) -> int:
    """Print the position (and draw it with ``--svg``)."""
    state = load_state(args.state, args.lang, offer_ended=True)
    draw(args.svg, state, args.lang)
    print(render_state(state, args.lang))
    return 0
