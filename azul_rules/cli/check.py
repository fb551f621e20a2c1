"""``azul-rules check``: the verdict on one move in one position, each violation with
its code and the rule it breaks (T1-T4 for the take, P1-P6 for where the tiles go,
V1-V5 on the grey wall).

Exit status 0 the move is legal, 1 it is illegal, 2 unreadable input.
"""

from __future__ import annotations

import argparse

from azul_rules.cli._common import (
    POSITION,
    POSITION_HELP,
    Commands,
    add_explain,
    add_json,
    add_lang,
)
from azul_rules.cli._inputs import load_move, load_state, one_stdin
from azul_rules.cli._outputs import draw, print_json, print_violations, violation_doc
from azul_rules.core.effects import move_effect, move_notation
from azul_rules.core.messages import phrase
from azul_rules.core.render import move_text
from azul_rules.formats.jsonio import to_dict

__all__ = ["NAME", "register", "run"]

NAME = "check"


def register(commands: Commands) -> None:
    """Add ``check`` and its options to ``commands``."""
    check = commands.add_parser(NAME, help="the verdict on one move in one position")
    check.add_argument("state", metavar=POSITION, help=POSITION_HELP)
    check.add_argument(
        "move", metavar="MOVE",
        help="notation such as 3B2, a JSON move, or a JSON file (- reads standard input)",
    )  # fmt: skip
    add_lang(check)
    add_json(check)
    check.add_argument("--svg", metavar="OUT.svg", help="also draw the move and its verdict")
    add_explain(check)


def run(args: argparse.Namespace) -> int:
    """Judge the move in the position; print the verdict (and draw it with ``--svg``)."""
    one_stdin(args.state, args.move)
    state = load_state(args.state, args.lang)
    move = load_move(args.move)
    result = state.validate(move)
    draw(args.svg, state, args.lang, (move, result))
    if args.json:
        print_json({
            "ok": result.ok,  # the word of Result, replay --json and the web API
            "legal": result.ok,  # the same, kept for scripts written before "ok"
            "move": to_dict(move),
            "notation": move_notation(move),  # as the web's check answer: "3B2", or null
            "violations": [violation_doc(v, args.lang, args.explain) for v in result.violations],
            "effect": move_effect(state, move) if result.ok else None,
        })  # fmt: skip
    elif result.ok:
        print(phrase("check_legal", args.lang, move=move_text(move, args.lang)))
    else:
        print(phrase("check_illegal", args.lang, move=move_text(move, args.lang)))
        print_violations(result.violations, args.lang, args.explain)
    return 0 if result.ok else 1
