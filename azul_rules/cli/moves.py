"""``azul-rules moves``: the legal moves of a position, each with what it does before it
is played (P5: the tiles to the pattern line and to the floor, F1: the floor's points,
P6: the marker; W3: a grey wall placement's points), as the web judge's check answer
gives it (``effect``).

Exit status 0, 2 unreadable input.
"""

from __future__ import annotations

import argparse

from azul_rules.cli._common import POSITION, POSITION_HELP, Commands, add_json, add_lang
from azul_rules.cli._inputs import load_state
from azul_rules.cli._outputs import print_json
from azul_rules.core.colors import FLOOR
from azul_rules.core.effects import move_effect, move_notation
from azul_rules.core.messages import phase_name, phrase
from azul_rules.core.moves import Move, TableTake, Take
from azul_rules.core.render import move_text
from azul_rules.core.state import GameState
from azul_rules.formats.jsonio import to_dict

__all__ = ["NAME", "register", "run"]

NAME = "moves"


def register(commands: Commands) -> None:
    """Add ``moves`` and its options to ``commands``."""
    parser = commands.add_parser(NAME, help="the legal moves of a position, each with its effect")
    parser.add_argument("state", metavar=POSITION, help=POSITION_HELP)
    add_lang(parser)
    add_json(parser)


def run(args: argparse.Namespace) -> int:
    """Print every legal move of the position with its effect."""
    state = load_state(args.state, args.lang)
    moves = state.legal_moves()
    if args.json:
        print_json({
            "count": len(moves),
            "phase": state.phase.value,
            "current_player": state.current_player,
            "moves": [{"move": to_dict(m), "notation": move_notation(m),
                       "effect": move_effect(state, m)} for m in moves],
        })  # fmt: skip
        return 0
    if not moves:
        print(phrase("moves_none", args.lang, phase=phase_name(state.phase.value, args.lang)))
        return 0
    print(phrase("moves_count", args.lang, count=len(moves), player=state.current_player + 1))
    for move in moves:
        effects = _effect_words(state, move, args.lang)
        print(phrase("move_effect", args.lang, move=move_text(move, args.lang), effects=effects))
    return 0


def _effect_words(state: GameState, move: Move, lang: str) -> str:
    """A move's effect in words: ``2 tiles to pattern line 3, 1 tile to the floor line,
    the marker (-2 points)``; a grey wall placement's points."""
    effect = move_effect(state, move)
    if effect is None:
        return ""
    if "points" in effect:
        return phrase("effect_points", lang, points=effect["points"])
    parts = []
    if effect["to_line"] and isinstance(move, Take | TableTake):
        line = move.line if isinstance(move, Take) and move.line != FLOOR else None
        if line is not None:
            parts.append(phrase("effect_line", lang, count=effect["to_line"], line=line + 1))
    if effect["to_floor"]:
        parts.append(phrase("effect_floor", lang, count=effect["to_floor"]))
    if effect["marker"]:
        parts.append(phrase("effect_marker", lang))
    words = ", ".join(parts)
    if effect["floor_penalty"]:
        words += f" ({phrase('effect_penalty', lang, points=effect['floor_penalty'])})"
    return words
