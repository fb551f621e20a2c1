"""``azul-rules audit``: check the scores players claim after a wall tiling (W1-W5,
F1-F4; E2 when the game ends) against the referee's (docs/audit.md).

Exit status 0 the claim is correct, 1 it is wrong, 2 unreadable input.
"""

from __future__ import annotations

import argparse

from azul_rules.adjudication.auditing import audit, claim_from_dict
from azul_rules.cli._common import POSITION, Commands, add_explain, add_json, add_lang
from azul_rules.cli._inputs import from_file, judged, load_state, one_stdin
from azul_rules.cli._outputs import draw, print_json, print_violations, violation_doc
from azul_rules.core.messages import phrase
from azul_rules.svg import Audit

__all__ = ["NAME", "register", "run"]

NAME = "audit"


def register(commands: Commands) -> None:
    """Add ``audit`` and its options to ``commands``."""
    parser = commands.add_parser(NAME, help="check claimed scores after a wall tiling")
    parser.add_argument("state", metavar=POSITION,
                        help="the position at the offer's end: its notation or a JSON file "
                        "(- reads standard input)")
    parser.add_argument("claim", metavar="CLAIM.json",
                        help="the scores (and boards, lid) the players claim (docs/audit.md)")
    add_lang(parser)
    add_json(parser)
    add_explain(parser)
    parser.add_argument("--svg", metavar="OUT.svg",
                        help="also draw the position, the audit's mistakes marked")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Tile the position's walls as the referee does and compare with the claim."""
    one_stdin(args.state, args.claim)
    state = load_state(args.state, args.lang, offer_ended=True)
    claim = from_file(args.claim, claim_from_dict, kind="claim")
    result = judged(lambda: audit(state, claim), args.claim, args.state, "$.factories")
    draw(args.svg, state, args.lang, Audit(result, claim.scores))
    if args.json:
        print_json({
            "correct": result.ok,
            "violations": [violation_doc(v, args.lang, args.explain) for v in result.violations],
        })  # fmt: skip
    elif result.ok:
        print(phrase("claim_correct", args.lang))
    else:
        print(phrase("claim_wrong", args.lang))
        print_violations(result.violations, args.lang, args.explain)
    return 0 if result.ok else 1
