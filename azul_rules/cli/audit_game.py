"""``azul-rules audit-game``: check a whole game's scoresheet, the running totals the
players wrote, against the record's game as the referee scores it (W3, W4 each round,
E2 at the end; docs/audit.md).

Exit status 0 every total is right, 1 some are wrong (or the record holds an illegal
move), 2 unreadable input.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from azul_rules.adjudication.scoresheet import (
    GameAudit,
    Scoresheet,
    audit_game,
    offer_end_positions,
    scoresheet_from_dict,
)
from azul_rules.cli._common import Commands, add_explain, add_json, add_lang
from azul_rules.cli._inputs import from_file, judged, one_stdin
from azul_rules.cli._outputs import draw, print_json, print_violations, violation_doc
from azul_rules.core.errors import Result, Violation
from azul_rules.core.messages import phrase
from azul_rules.core.render import move_text
from azul_rules.core.shown import number
from azul_rules.formats.record import GameRecord
from azul_rules.svg import Audit

__all__ = ["NAME", "register", "run"]

NAME = "audit-game"


def register(commands: Commands) -> None:
    """Add ``audit-game`` and its options to ``commands``."""
    sheet = commands.add_parser(NAME, help="check a whole game's scoresheet")
    sheet.add_argument("record", metavar="RECORD.json",
                       help="the game record (- reads standard input)")
    sheet.add_argument("sheet", metavar="SCORESHEET.json",
                       help="the running totals the players wrote (docs/audit.md)")
    add_lang(sheet)
    add_json(sheet)
    add_explain(sheet)
    sheet.add_argument("--svg", metavar="OUT.svg",
                       help="also draw the position of the first mistake, marked (the "
                       "illegal move, the wrong round's offer end, or the end)")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Replay the record, score each round and compare with the scoresheet."""
    one_stdin(args.record, args.sheet)
    record = from_file(args.record, GameRecord.from_dict, args.lang, "record")
    sheet = from_file(args.sheet, scoresheet_from_dict, kind="scoresheet")
    verdict = judged(lambda: audit_game(record, sheet), args.sheet, args.record)
    if args.svg is not None:
        _draw_mistake(args.svg, verdict, record, sheet, args.lang)
    if args.json:
        print_json(_document(verdict, args.lang, args.explain))
    elif verdict.ok:
        print(phrase("sheet_correct", args.lang, rounds=len(verdict.rounds)))
    else:
        _print_wrong(verdict, record, args.lang, args.explain)
    return 0 if verdict.ok else 1


def _draw_mistake(path: str, verdict: GameAudit, record: GameRecord, sheet: Scoresheet,
                  lang: str) -> None:  # fmt: skip
    """``--svg``: the first wrong round's position at its offer's end with the round's
    mistakes marked (the totals written beside it); else the illegal move in its
    position; else the last position, the end's mistakes marked (if any)."""
    wrong = next((r for r in verdict.rounds if not r.ok), None)
    if wrong is not None and wrong.violations:
        index = verdict.rounds.index(wrong)
        position = offer_end_positions(record)[index]
        draw(path, position, lang, Audit(Result(wrong.violations), wrong.written))
        return
    played = record.replay()
    last = played.states[-1]
    if verdict.failure is not None and verdict.failed_at is not None:
        draw(path, last, lang, (record.moves[verdict.failed_at], verdict.failure))
    elif verdict.end:
        draw(path, last, lang, Audit(Result(verdict.end), sheet.final))
    else:
        draw(path, last, lang)


def _document(verdict: GameAudit, lang: str, explain: bool) -> dict[str, object]:
    """The verdict as ``--json`` prints it: each round's written and correct totals."""

    def docs(found: Sequence[Violation]) -> list[dict[str, object]]:
        return [violation_doc(v, lang, explain) for v in found]

    doc: dict[str, object] = {
        "correct": verdict.ok,
        "first_wrong": list(verdict.first_wrong) if verdict.first_wrong else None,
        "rounds": [{"round": r.round, "written": list(r.written), "correct": list(r.correct),
                    "violations": docs(r.violations)} for r in verdict.rounds],
        "end": docs(verdict.end),
        "final_scores": list(verdict.final_scores or ()) or None,
        "winners": list(verdict.winners) if verdict.winners is not None else None,
    }  # fmt: skip
    if verdict.failure is not None and verdict.failed_at is not None:
        doc["illegal_move"] = {"number": verdict.failed_at + 1,
                               "violations": docs(verdict.failure.violations)}  # fmt: skip
    return doc


def _print_wrong(verdict: GameAudit, record: GameRecord, lang: str, explain: bool) -> None:
    """A wrong scoresheet in words: each round's totals (the correct ones beside the
    wrong ones, with the mistakes), an illegal move, the end bonuses, the final scores."""
    print(phrase("sheet_wrong", lang))
    for line in verdict.rounds:
        totals = ", ".join(number(t, lang) for t in line.written)
        if line.ok:
            print(phrase("sheet_round_ok", lang, round=line.round, written=totals))
            continue
        correct = ", ".join(number(t, lang) for t in line.correct)
        print(phrase("sheet_round", lang, round=line.round, written=totals, correct=correct))
        print_violations(line.violations, lang, explain, "    ")
        if not line.violations:
            print(phrase("sheet_carried", lang))
    if verdict.failure is not None and verdict.failed_at is not None:
        move = record.moves[verdict.failed_at]
        print(phrase("sheet_illegal", lang, number=verdict.failed_at + 1,
                     move=move_text(move, lang)))  # fmt: skip
        print_violations(verdict.failure.violations, lang, explain, "    ")
    if verdict.end:
        print(phrase("sheet_end", lang))
        print_violations(verdict.end, lang, explain, "    ")
    if verdict.final_scores is not None:
        scores = ", ".join(number(s, lang) for s in verdict.final_scores)
        print(phrase("sheet_final", lang, scores=scores))
