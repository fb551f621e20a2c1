"""``azul-rules replay``: re-referee a recorded game move by move, stopping at the first
illegal move (its number, player and the rules it breaks).

Exit status 0 every move is legal, 1 one is not, 2 unreadable input.
"""

from __future__ import annotations

import argparse

from azul_rules.cli._common import Commands, add_explain, add_json, add_lang, name
from azul_rules.cli._inputs import from_text, input_stream, reading, reading_bytes, text_of
from azul_rules.cli._outputs import (
    draw_record,
    print_json,
    print_violations,
    say_drawn,
    scores_and_winners,
    violation_doc,
)
from azul_rules.core.messages import phase_name, phrase
from azul_rules.core.render import move_text
from azul_rules.formats._arguments import integer
from azul_rules.formats.jsonio import to_dict
from azul_rules.formats.record import GameRecord, Replay
from azul_rules.tournament.lines import read_record

__all__ = ["NAME", "register", "run"]

NAME = "replay"


def register(commands: Commands) -> None:
    """Add ``replay`` and its options to ``commands``."""
    replay = commands.add_parser(NAME, help="re-referee a recorded game move by move")
    replay.add_argument(
        "record", metavar="RECORD.json",
        help="a game record, or a tournament's JSON-lines file (- reads standard input)",
    )  # fmt: skip
    replay.add_argument("--game", type=integer, metavar="N", help="the game of a tournament file")
    add_lang(replay)
    add_json(replay)
    replay.add_argument(
        "--svg-dir", metavar="DIR", help="also draw each round's start and tiling (SVG files)"
    )
    add_explain(replay)


def run(args: argparse.Namespace) -> int:
    """Replay the record through the referee; report the first illegal move, or the
    result."""
    record = _load_game(args.record, args.game, args.lang)
    replay = record.replay()
    drawn = draw_record(args.svg_dir, record, args.lang)
    if args.json:
        print_json(_document(record, replay, args.lang, args.explain))
        return 0 if replay.ok else 1
    if replay.failure is not None and replay.failed_at is not None:
        move = record.moves[replay.failed_at]
        print(phrase("illegal_at", args.lang, number=replay.failed_at + 1,
                     move=move_text(move, args.lang),
                     player=replay.final.current_player + 1))  # fmt: skip
        print_violations(replay.failure.violations, args.lang, args.explain)
        say_drawn(drawn, args)
        return 1
    _print_legal(replay, args.lang)
    say_drawn(drawn, args)
    return 0


def _document(record: GameRecord, replay: Replay, lang: str, explain: bool) -> dict[str, object]:
    """The replay as ``--json`` prints it: the moves played, the illegal move if any,
    the final scores and winners when the game ended (E4)."""
    doc: dict[str, object] = {"ok": replay.ok, "moves_played": len(replay.states) - 1}
    if replay.failure is not None and replay.failed_at is not None:
        doc["illegal_move"] = {
            "number": replay.failed_at + 1,
            "player": replay.states[-1].current_player,
            "move": to_dict(record.moves[replay.failed_at]),
            "violations": [violation_doc(v, lang, explain) for v in replay.failure.violations],
        }
    outcome = replay.final.outcome
    if outcome is not None:
        doc["scores"] = list(outcome.scores)
        doc["winners"] = list(outcome.winners)
    return doc


def _print_legal(replay: Replay, lang: str) -> None:
    """A record whose moves are all legal: how many, then the result or where the game
    stopped."""
    played = len(replay.states) - 1
    final = replay.final
    print(phrase("one_legal" if played == 1 else "all_legal", lang, moves=played))
    if final.outcome is not None:
        print("\n".join(scores_and_winners(final.outcome, lang)))
    else:
        print(phrase("not_over", lang, round=final.round,
                     phase=phase_name(final.phase.value, lang)))  # fmt: skip


def _load_game(path: str, game: int | None, lang: str) -> GameRecord:
    """RECORD of ``replay``: a game record, or a tournament's JSON-lines file (read line
    by line, ``game`` picking the game, docs/tournament.md).  The file is opened once
    and read once: it may be a pipe."""

    def plain(data: bytes) -> GameRecord:
        return from_text(path, text_of(path, data), GameRecord.from_dict, lang, "record")

    quoted = name(path)
    with input_stream(path) as stream:
        return reading_bytes(
            path, lambda: reading(path, lambda: read_record(stream, quoted, game, plain), lang)
        )
