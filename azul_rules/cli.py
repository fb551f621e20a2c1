"""The ``azul-rules`` command (also ``python -m azul_rules``).

Exit status: 0 success (or a legal move), 1 an illegal move, 2 unreadable input or an
impossible position.  Errors are reported in words, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from azul_rules.bots import Bot, BotSpecError, bot_factory, build_bot, seat_seed
from azul_rules.colors import Color, Marker
from azul_rules.errors import FormatError, InvalidStateError, Violation
from azul_rules.grey import game_can_end
from azul_rules.jsonio import from_json, move_from_json, to_dict
from azul_rules.messages import LANGUAGES, color_name, phase_name, phrase
from azul_rules.moves import Move, parse_move
from azul_rules.phases import Phase, Variant
from azul_rules.record import GameRecord
from azul_rules.render import render_state, variant_name
from azul_rules.scoring import Outcome, RoundScoring
from azul_rules.state import GameState, new_game

__all__ = ["MAX_ROUNDS", "main"]

MAX_ROUNDS = 100
"""``play`` stops a game still going after this many rounds (a starved grey game)."""


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
        help="comma-separated bots per seat: random, greedy or package.module:Factory "
        "(default: greedy,random,...)",
    )
    play.add_argument("--record", metavar="FILE", help="also save the game record (JSON)")
    play.add_argument("--lang", choices=LANGUAGES, default="en")
    check = commands.add_parser("check", help="the verdict on one move in one position")
    check.add_argument("state", metavar="STATE.json")
    check.add_argument(
        "move", metavar="MOVE", help="notation such as 3B2, a JSON move, or a JSON file"
    )
    check.add_argument("--lang", choices=LANGUAGES, default="en")
    check.add_argument("--json", action="store_true", help="a JSON verdict on standard output")
    show = commands.add_parser("show", help="a position as readable text")
    show.add_argument("state", metavar="STATE.json")
    show.add_argument("--lang", choices=LANGUAGES, default="en")
    audit = commands.add_parser("audit", help="check claimed scores after a wall tiling")
    audit.add_argument("state", metavar="STATE.json", help="the position at the offer's end")
    audit.add_argument("claim", metavar="CLAIM.json")
    audit.add_argument("--lang", choices=LANGUAGES, default="en")
    audit.add_argument("--json", action="store_true", help="a JSON verdict on standard output")
    replay = commands.add_parser("replay", help="re-referee a recorded game move by move")
    replay.add_argument(
        "record", metavar="RECORD.json",
        help="a game record, or a tournament's JSON-lines file (- reads standard input)",
    )  # fmt: skip
    replay.add_argument("--game", type=int, metavar="N", help="the game of a tournament file")
    replay.add_argument("--lang", choices=LANGUAGES, default="en")
    replay.add_argument("--json", action="store_true", help="a JSON report on standard output")
    _tournament_parser(commands)
    return parser


def _tournament_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``azul-rules tournament`` (docs/tournament.md); run by ``azul_rules.tournament``."""
    add = commands.add_parser("tournament", help="refereed games between bots, at scale")
    add.add_argument("--bots", required=True, metavar="A,B[,…]",
                     help="comma-separated bots: random, greedy or package.module:Factory")
    add.add_argument("--games", type=int, required=True, metavar="N")
    add.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    add.add_argument("--variant", choices=("colored", "grey"), default="colored")
    add.add_argument("--seed", type=int, default=0, help="the tournament's seed (the deals)")
    add.add_argument("--backend", choices=("local", "process", "ray"), default="local")
    add.add_argument("--workers", type=int, metavar="W", help="processes, or Ray tasks at once")
    add.add_argument("--batch", type=int, metavar="B", help="games a task")
    add.add_argument("--time-limit", type=float, metavar="SECONDS", help="per move")
    add.add_argument("--max-rounds", type=int, default=100, metavar="R",
                     help="a longer game ends unfinished (default 100)")
    add.add_argument("--out", metavar="FILE.jsonl", help="append one JSON line a game")
    add.add_argument("--resume", action="store_true", help="continue FILE.jsonl")
    add.add_argument("--ray-address", metavar="ADDR", help="a Ray cluster, e.g. auto")
    add.add_argument("--retries", type=int, default=2, help="for a batch whose worker died")
    add.add_argument("--json", action="store_true", help="the results as JSON")
    add.add_argument("--no-progress", action="store_true", help="no progress bar")  # fmt: skip


def _tournament(args: argparse.Namespace) -> int:
    from azul_rules.tournament.command import main as tournament_main

    return tournament_main(args)


def _bot_names(spec: str | None, players: int) -> list[str]:
    names = (
        spec.split(",") if spec else ["greedy" if i % 2 == 0 else "random" for i in range(players)]
    )
    if len(names) != players:
        raise BotSpecError(f"--bots names {len(names)} bots for {players} players")
    return names


def _bots(names: list[str], seed: int) -> list[Bot]:
    """One bot per seat, each seeded with ``seat_seed(seed, seat)`` (as in tournaments)."""
    _import_from_cwd()
    factories = [bot_factory(name) for name in names]
    return [build_bot(factory, seat_seed(seed, s)) for s, factory in enumerate(factories)]


def _import_from_cwd() -> None:
    """Let ``package.module:Factory`` bots name modules in the current directory, as
    ``python -m`` does (the ``azul-rules`` script alone would not)."""
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())


def describe_scoring(scoring: RoundScoring, lang: str = "en") -> list[str]:
    """The wall tiling of a round in words, one line per fact."""
    lines = [phrase("tiling_title", lang, round=scoring.round)]
    for tiling in scoring.players:
        who = tiling.player + 1
        for p in tiling.placements:
            lines.append(
                phrase("placement", lang, player=who, color=color_name(p.color, lang),
                       row=p.row + 1, column=p.column + 1, horizontal=p.horizontal,
                       vertical=p.vertical, points=p.points)
            )  # fmt: skip
        for line in tiling.floor_lines:
            lines.append(phrase("forced", lang, player=who, line=line + 1))
        bonus = tiling.bonuses.points if tiling.bonuses else 0
        lines.append(
            phrase("tiling_total", lang, player=who, placed=tiling.placement_points,
                   penalty=tiling.floor_penalty, before=tiling.score_before,
                   after=tiling.score_after - bonus)
        )  # fmt: skip
        if tiling.bonuses is not None:
            b = tiling.bonuses
            lines.append(
                phrase("bonuses", lang, player=who, rows=b.rows, columns=b.columns,
                       colors=b.colors, points=b.points, score=tiling.score_after)
            )  # fmt: skip
    return lines


def _scores_and_winners(outcome: Outcome, lang: str) -> list[str]:
    scores = ", ".join(
        phrase("player_score", lang, player=i + 1, score=s) for i, s in enumerate(outcome.scores)
    )
    winners = phrase("and", lang).join(
        phrase("player", lang, player=w + 1) for w in outcome.winners
    )
    result = phrase("shared" if outcome.is_shared else "winner", lang)
    return [phrase("final_scores", lang, scores=scores), phrase("result", lang, result=result,
                                                                 winners=winners)]  # fmt: skip


def _play(args: argparse.Namespace) -> int:
    lang = args.lang
    variant = Variant(args.variant)
    state = new_game(args.players, seed=args.seed, variant=variant)
    names = _bot_names(args.bots, args.players)
    bots = _bots(names, args.seed)
    played: list[Move] = []
    seats = ", ".join(phrase("seat", lang, player=i + 1, bot=n) for i, n in enumerate(names))
    print(phrase("game_intro", lang, players=args.players, seed=args.seed,
                 variant=variant_name(variant, lang), bots=seats))  # fmt: skip
    shown_round = 0
    while not state.is_over:
        if state.round > MAX_ROUNDS or not game_can_end(state):
            print(phrase("stuck", lang, round=state.round))
            return 0
        if state.round != shown_round:
            shown_round = state.round
            print(phrase("round_start", lang, round=state.round, player=state.current_player + 1))
            print(phrase("factories", lang, tiles=" ".join(_tiles(f) for f in state.factories)))
        player = state.current_player
        move = bots[player].choose(state)
        before = state
        state = state.apply(move)
        played.append(move)
        tiling = "" if before.phase is Phase.FACTORY_OFFER else phrase("during_tiling", lang)
        print(phrase("played", lang, player=player + 1, move=move, tiling=tiling))
        settled = state.phase is not Phase.WALL_TILING
        if settled and state.last_scoring is not before.last_scoring and state.last_scoring:
            print("\n".join(describe_scoring(state.last_scoring, lang)))
    outcome = state.outcome
    assert outcome is not None
    print(phrase("game_end", lang, round=state.round))
    print("\n".join(_scores_and_winners(outcome, lang)))
    if args.record:
        record = GameRecord(tuple(played), args.players, args.seed, variant)
        _write(args.record, record.to_json() + "\n")
        print(phrase("record_saved", lang, path=args.record))
    return 0


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise FormatError(f"cannot write {path}: {error.strerror}") from None


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as source:
            return source.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise FormatError(f"cannot read {path}: {reason}") from None


def _load_state(path: str) -> GameState:
    return from_json(_read(path), GameState)


def _load_move(text: str) -> Move:
    if text.lstrip().startswith("{"):
        return move_from_json(text)
    if os.path.exists(text):
        return move_from_json(_read(text))
    return parse_move(text)


def _violation_doc(violation: Violation, lang: str) -> dict[str, object]:
    return {
        "code": violation.code.value,
        "rule": violation.rule,
        "message": violation.message_in(lang),
        "params": {k: _plain(v) for k, v in violation.params},
    }


def _plain(value: object) -> object:
    if isinstance(value, Color):
        return value.name.lower()
    if isinstance(value, Marker):
        return "marker"
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _check(args: argparse.Namespace) -> int:
    state = _load_state(args.state)
    move = _load_move(args.move)
    result = state.validate(move)
    if args.json:
        doc = {
            "legal": result.ok,
            "move": to_dict(move),
            "violations": [_violation_doc(v, args.lang) for v in result.violations],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    elif result.ok:
        print(f"{'legal' if args.lang == 'en' else 'coup légal'}: {move}")
    else:
        print(f"{'illegal' if args.lang == 'en' else 'coup illégal'}: {move}")
        for violation in result.violations:
            print(f"  {violation.code.value} ({violation.rule}): {violation.message_in(args.lang)}")
    return 0 if result.ok else 1


def _audit(args: argparse.Namespace) -> int:
    from azul_rules.audit import audit, claim_from_json, position_from_json

    state = position_from_json(_read(args.state))
    result = audit(state, claim_from_json(_read(args.claim)))
    if args.json:
        doc = {
            "correct": result.ok,
            "violations": [_violation_doc(v, args.lang) for v in result.violations],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    elif result.ok:
        print("the claim is correct" if args.lang == "en" else "l'annonce est correcte")
    else:
        print("the claim is wrong:" if args.lang == "en" else "l'annonce est fausse :")
        for violation in result.violations:
            print(f"  {violation.code.value} ({violation.rule}): {violation.message_in(args.lang)}")
    return 0 if result.ok else 1


def _show(args: argparse.Namespace) -> int:
    print(render_state(_load_state(args.state), args.lang))
    return 0


def _replay(args: argparse.Namespace) -> int:
    if args.game is not None or args.record == "-" or _starts_with_game_line(args.record):
        from azul_rules.tournament.lines import load_record

        record = load_record(args.record, args.game)
    else:
        record = GameRecord.from_json(_read(args.record))
    replay = record.replay()
    final = replay.final
    if args.json:
        doc: dict[str, object] = {"ok": replay.ok, "moves_played": len(replay.states) - 1}
        if replay.failure is not None and replay.failed_at is not None:
            bad = replay.states[-1]
            doc["illegal_move"] = {
                "number": replay.failed_at + 1,
                "player": bad.current_player,
                "move": to_dict(record.moves[replay.failed_at]),
                "violations": [_violation_doc(v, args.lang) for v in replay.failure.violations],
            }
        if final.outcome is not None:
            doc["scores"] = list(final.outcome.scores)
            doc["winners"] = list(final.outcome.winners)
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0 if replay.ok else 1
    if replay.failure is not None and replay.failed_at is not None:
        number = replay.failed_at + 1
        move = record.moves[replay.failed_at]
        print(phrase("illegal_at", args.lang, number=number, move=move,
                     player=final.current_player + 1))  # fmt: skip
        for violation in replay.failure.violations:
            print(f"  {violation.code.value} ({violation.rule}): {violation.message_in(args.lang)}")
        return 1
    print(phrase("all_legal", args.lang, moves=len(replay.states) - 1))
    if final.outcome is not None:
        print("\n".join(_scores_and_winners(final.outcome, args.lang)))
    else:
        print(phrase("not_over", args.lang, round=final.round,
                     phase=phase_name(final.phase.value, args.lang)))  # fmt: skip
    return 0


def _starts_with_game_line(path: str) -> bool:
    """True when the file's first line is a tournament game line (docs/tournament.md)."""
    try:
        with open(path, "rb") as source:
            start = source.read(16)
    except OSError:
        return False
    return start.startswith(b'{"tournament":')


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
    commands = {
        "play": _play, "check": _check, "show": _show, "replay": _replay, "audit": _audit,
        "tournament": _tournament,
    }  # fmt: skip
    try:
        return commands[args.command](args)
    except BotSpecError as error:
        print(f"azul-rules: {error}", file=sys.stderr)
        return 2
    except FormatError as error:
        print("azul-rules: unreadable input:", file=sys.stderr)
        for path, what in error.errors:
            print(f"  {what}" if what == str(error) else f"  {path}: {what}", file=sys.stderr)
        return 2
    except InvalidStateError as error:
        print("azul-rules: this position cannot exist:", file=sys.stderr)
        for found in error.problems:
            print(f"  {found.code.value} ({found.rule}) at {found.path}: {found.message}",
                  file=sys.stderr)  # fmt: skip
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
