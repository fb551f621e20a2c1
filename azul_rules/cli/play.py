"""``azul-rules play``: a whole game between bots, every move refereed as in a
tournament, printed as it goes.

Exit status 0 when the game is played out (or stopped at :data:`MAX_ROUNDS`), 1 when a
bot forfeits (docs/tournament.md, Refereeing), 2 for a wrong command line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from azul_rules.cli._common import (
    PLAYERS_HELP,
    VARIANT_HELP,
    Commands,
    UsageError,
    add_lang,
    count,
    name,
    one_line,
)
from azul_rules.cli._outputs import Destination, not_stdin, print_violations, scores_and_winners
from azul_rules.core.bots import BotSpecError, bot_factory, seat_seed
from azul_rules.core.colors import Color
from azul_rules.core.messages import color_name, phrase
from azul_rules.core.moves import Move
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.render import move_text, variant_name
from azul_rules.core.scoring import RoundScoring
from azul_rules.core.state import GameState
from azul_rules.formats._arguments import integer
from azul_rules.formats.record import GameRecord
from azul_rules.tournament.referee import Forfeit, RefereedGame
from azul_rules.tournament.schedule import GameSpec
from azul_rules.tournament.settings import Settings, entrants

__all__ = ["MAX_ROUNDS", "NAME", "describe_scoring", "register", "run"]

NAME = "play"

MAX_ROUNDS = 100
"""``play`` stops a game still going after this many rounds (a starved grey game)."""


def register(commands: Commands) -> None:
    """Add ``play`` and its options to ``commands``."""
    play = commands.add_parser(NAME, help="referee a whole game between bots")
    play.add_argument("--players", type=integer, default=2, choices=(2, 3, 4), help=PLAYERS_HELP)
    play.add_argument("--seed", type=integer, default=0, metavar="S",
                      help="the seed of the draws (default 0)")
    play.add_argument("--variant", choices=("colored", "grey"), default="colored",
                      help=VARIANT_HELP)  # fmt: skip
    play.add_argument(
        "--bots",
        default=None,
        metavar="A,B[,…]",
        help="comma-separated bots per seat: random, greedy or package.module:Factory "
        "(default: greedy,random,...)",
    )
    play.add_argument("--record", metavar="FILE", help="also save the game record (JSON)")
    add_lang(play)


def run(args: argparse.Namespace) -> int:
    """A whole game between bots, every move refereed as in a tournament (a misbehaving
    bot forfeits: exit 1), printed as it goes."""
    lang = args.lang
    variant = Variant(args.variant)
    names = bot_names(args.bots, args.players)
    if args.record:
        not_stdin("--record", args.record)
    record_to = Destination(args.record) if args.record else None  # refused before the game
    game = _refereed_game(names, args.players, args.seed, variant, lang)
    seats = ", ".join(phrase("seat", lang, player=i + 1, bot=n) for i, n in enumerate(names))
    print(phrase("game_intro", lang, players=args.players, seed=args.seed,
                 variant=variant_name(variant, lang), bots=seats))  # fmt: skip
    _print_round(game.state, lang)
    for before, move in game.moves():
        _print_move(before, move, game.state, lang)
    _print_end(game.state, game.forfeit, names, lang)
    _save(record_to, game.record(), lang)
    return 0 if game.forfeit is None else 1


def bot_names(spec: str | None, players: int) -> list[str]:
    """The bot of each seat: ``--bots`` split at commas, each spec resolved first (an
    unknown bot is named, whatever the count), then one a seat (S1: two to four)."""
    if not spec:
        return ["greedy" if i % 2 == 0 else "random" for i in range(players)]
    names = spec.split(",")
    _import_from_cwd()
    for bot in names:
        try:
            bot_factory(bot)
        except BotSpecError as error:
            raise UsageError(f"--bots: {error}") from None
    if len(names) != players:
        raise UsageError(f"--bots names {count(len(names), 'bot')} for {players} players")
    return names


def _refereed_game(names: list[str], players: int, seed: int, variant: Variant,
                   lang: str) -> RefereedGame:  # fmt: skip
    """The game ``play`` referees: the tournament's referee (every forfeit of
    docs/tournament.md), on the deal ``seed`` itself, seat ``k``'s bot seeded with
    ``seat_seed(seed, k)`` (as in tournaments), stopped after :data:`MAX_ROUNDS`."""
    settings = Settings(entrants(names), players, variant, seed, max_rounds=MAX_ROUNDS,
                        lang=lang)  # fmt: skip
    seats = tuple(range(players))
    spec = GameSpec(0, 0, seed, seats, tuple(seat_seed(seed, s) for s in seats))
    return RefereedGame(settings, spec, tuple(e.factory() for e in settings.entrants))


def _import_from_cwd() -> None:
    """Let ``package.module:Factory`` bots name modules in the current directory, as
    ``python -m`` does (the ``azul-rules`` script alone would not)."""
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())


def _print_round(state: GameState, lang: str) -> None:
    """The start of a round: who starts (S7, R4), and the factories (R2)."""
    print(phrase("round_start", lang, round=state.round, player=state.current_player + 1))
    print(phrase("factories", lang, tiles=" ".join(_tiles(f) for f in state.factories)))


def _tiles(tiles: Sequence[object]) -> str:
    return "[" + "".join(t.letter for t in tiles if isinstance(t, Color)) + "]"


def _print_move(before: GameState, move: Move, after: GameState, lang: str) -> None:
    """A move played; the wall tiling it ended (W1-W5, F1-F3), the next round's start."""
    tiling = "" if before.phase is Phase.FACTORY_OFFER else phrase("during_tiling", lang)
    print(phrase("played", lang, player=before.current_player + 1, move=move_text(move, lang),
                 tiling=tiling))  # fmt: skip
    settled = after.phase is not Phase.WALL_TILING
    if settled and after.last_scoring is not before.last_scoring and after.last_scoring:
        print("\n".join(describe_scoring(after.last_scoring, lang)))
    if not after.is_over and after.round != before.round and after.round <= MAX_ROUNDS:
        _print_round(after, lang)


def _print_end(state: GameState, forfeit: Forfeit | None, names: list[str], lang: str) -> None:
    """How the game ended: a forfeit, the final scores and winners (E1-E4), or the
    round it was stopped at."""
    if forfeit is not None:
        _print_forfeit(forfeit, state, names, lang)
    elif state.outcome is not None:
        print(phrase("game_end", lang, round=state.round))
        print("\n".join(scores_and_winners(state.outcome, lang)))
    else:
        print(phrase("stuck", lang, round=state.round))


def describe_scoring(scoring: RoundScoring, lang: str = "en") -> list[str]:
    """The wall tiling of a round in words, one line per fact: each tile placed and
    its points (W1, W3), each line forced to the floor (V4), each player's floor
    penalty (F1, W4) and total, and the end bonuses (E2)."""
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


def _print_forfeit(forfeit: Forfeit, state: GameState, names: list[str], lang: str) -> None:
    """A forfeit (docs/tournament.md, Refereeing): the seat, its bot, the move and why
    (an illegal move's violations as ``replay`` prints them); the scores when the game
    stopped; every other seat wins."""
    seat = forfeit.seat
    if forfeit.move is not None:
        why = phrase("forfeit_illegal", lang, move=move_text(forfeit.move, lang))
    else:
        why = one_line(forfeit.error or forfeit.reason)
    print(phrase("forfeit", lang, player=seat + 1, bot=names[seat], number=forfeit.move_number,
                 reason=why))  # fmt: skip
    print_violations(forfeit.violations, lang, explain=False)
    scores = ", ".join(phrase("player_score", lang, player=i + 1, score=board.score)
                       for i, board in enumerate(state.players))  # fmt: skip
    print(phrase("stopped_scores", lang, scores=scores))
    winners = [phrase("player", lang, player=w + 1) for w in range(len(state.players))
               if w != seat]  # fmt: skip
    result = phrase("shared" if len(winners) > 1 else "winner", lang)
    print(phrase("result", lang, result=result, winners=phrase("and", lang).join(winners)))


def _save(destination: Destination | None, record: GameRecord, lang: str) -> None:
    """``--record``: the game's record, the moves played so far when it stopped."""
    if destination is not None:
        destination.write(record.to_json() + "\n")
        print(phrase("record_saved", lang, path=name(destination.path)))
