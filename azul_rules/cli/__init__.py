"""The ``azul-rules`` command (also ``python -m azul_rules``).

Exit status: 0 success (or a legal move), 1 an illegal move (``play``: a bot that
forfeits), 2 unreadable input or an impossible position, whether or not the reader of the
output stays to the end (``| head``).
Errors are reported in words, never as a traceback.

Layer: the top.  The command line may import every other part of the package; nothing
imports it but ``azul_rules.__main__``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import textwrap
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any, Final, NoReturn, TextIO, TypeVar

from azul_rules import __version__
from azul_rules.adjudication.auditing import audit, claim_from_dict, position_from_dict
from azul_rules.adjudication.scoresheet import audit_game, scoresheet_from_dict
from azul_rules.core.bots import BotSpecError, bot_factory, seat_seed
from azul_rules.core.colors import Color, Marker
from azul_rules.core.errors import FormatError, InvalidStateError, Violation
from azul_rules.core.messages import LANGUAGES, color_name, phase_name, phrase
from azul_rules.core.moves import Move, parse_move
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.render import move_text, render_state, variant_name
from azul_rules.core.rulebook import SECTIONS, Rule, id_ranges, rule, rules, section_title
from azul_rules.core.scoring import Outcome, RoundScoring
from azul_rules.core.shown import clipped, listed, number, printable, shown
from azul_rules.core.state import GameState
from azul_rules.formats._arguments import integer, seconds
from azul_rules.formats._documents import Kind, wrong_kind
from azul_rules.formats._files import open_input, open_output, write_all
from azul_rules.formats.jsonio import from_dict, move_from_dict, move_from_json, to_dict
from azul_rules.formats.jsontext import MAX_INPUT_BYTES, load
from azul_rules.formats.record import GameRecord
from azul_rules.formats.serialization import long_integers
from azul_rules.svg import Highlight, board
from azul_rules.svg.game import iter_record_pictures
from azul_rules.tournament.command import main as tournament_main
from azul_rules.tournament.lines import read_record
from azul_rules.tournament.referee import Forfeit, RefereedGame
from azul_rules.tournament.schedule import GameSpec
from azul_rules.tournament.settings import Settings, entrants

__all__ = ["MAX_ROUNDS", "InputError", "UsageError", "main"]

T = TypeVar("T")

MAX_ROUNDS = 100
"""``play`` stops a game still going after this many rounds (a starved grey game)."""


_MAX_USAGE: Final = 500
"""The longest message about a wrong command line (its values are quoted cut)."""


class _Parser(argparse.ArgumentParser):
    """argparse, reporting a wrong command line in one line (``--help`` for more)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("azul-rules").strip()
        where = f"{command}: " if command else ""
        text = clipped(message, _MAX_USAGE)  # its values are cut already: a last guard
        self.exit(2, f"azul-rules: {where}{text} (see {self.prog} --help)\n")

    def _check_value(self, action: argparse.Action, value: object) -> None:
        """argparse's, quoting a wrong value cut (``--lang`` given a megabyte)."""
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(repr, action.choices))
            raise argparse.ArgumentError(
                action, f"invalid choice: {shown(value)} (choose from {choices})"
            )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="azul-rules", description="A strict referee for the board game Azul.")
    parser.add_argument("--version", action="version", version=f"azul-rules {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    play = commands.add_parser("play", help="referee a whole game between bots")
    play.add_argument("--players", type=integer, default=2, choices=(2, 3, 4), help=_PLAYERS_HELP)
    play.add_argument("--seed", type=integer, default=0, help="the seed of the draws (default 0)")
    play.add_argument("--variant", choices=("colored", "grey"), default="colored",
                      help=_VARIANT_HELP)  # fmt: skip
    play.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots per seat: random, greedy or package.module:Factory "
        "(default: greedy,random,...)",
    )
    play.add_argument("--record", metavar="FILE", help="also save the game record (JSON)")
    play.add_argument("--lang", choices=LANGUAGES, default="en", help=_LANG_HELP)
    check = commands.add_parser("check", help="the verdict on one move in one position")
    check.add_argument("state", metavar="STATE.json", help=_STATE_HELP)
    check.add_argument(
        "move", metavar="MOVE",
        help="notation such as 3B2, a JSON move, or a JSON file (- reads standard input)",
    )  # fmt: skip
    check.add_argument("--lang", choices=LANGUAGES, default="en", help=_LANG_HELP)
    check.add_argument("--json", action="store_true", help="a JSON verdict on standard output")
    check.add_argument("--svg", metavar="OUT.svg", help="also draw the move and its verdict")
    show = commands.add_parser("show", help="a position as readable text")
    show.add_argument("state", metavar="STATE.json", help=_STATE_HELP)
    show.add_argument("--lang", choices=LANGUAGES, default="en", help=_LANG_HELP)
    show.add_argument("--svg", metavar="OUT.svg", help="also draw the position (SVG)")
    audit = commands.add_parser("audit", help="check claimed scores after a wall tiling")
    audit.add_argument("state", metavar="STATE.json",
                       help="the position at the offer's end (- reads standard input)")
    audit.add_argument("claim", metavar="CLAIM.json",
                       help="the scores (and boards, lid) the players claim (docs/audit.md)")
    audit.add_argument("--lang", choices=LANGUAGES, default="en", help=_LANG_HELP)
    audit.add_argument("--json", action="store_true", help="a JSON verdict on standard output")
    replay = commands.add_parser("replay", help="re-referee a recorded game move by move")
    replay.add_argument(
        "record", metavar="RECORD.json",
        help="a game record, or a tournament's JSON-lines file (- reads standard input)",
    )  # fmt: skip
    replay.add_argument("--game", type=integer, metavar="N", help="the game of a tournament file")
    replay.add_argument("--lang", choices=LANGUAGES, default="en", help=_LANG_HELP)
    replay.add_argument("--json", action="store_true", help="a JSON report on standard output")
    replay.add_argument(
        "--svg-dir", metavar="DIR", help="also draw each round's start and tiling (SVG files)"
    )
    _add_rulebook_commands(commands, (check, audit, replay))
    _differential_parser(commands)
    _tournament_parser(commands)
    _add_serve_command(commands)
    _describe_commands(commands)
    return parser


_LANG_HELP = (  # one language per catalogue of azul_rules.text: "en (default) or fr"
    f"the language of the output: {', '.join(['en (default)', *LANGUAGES[1:-1]])} or "
    f"{LANGUAGES[-1]}"
)
_PLAYERS_HELP = "2, 3 or 4 (default 2)"
_VARIANT_HELP = "the wall: colored (default) or grey (the back of the boards)"
_STATE_HELP = (
    "a position: its notation (docs/notation.md) or a JSON file (docs/json-format.md; "
    "- reads standard input)"
)


def _describe_commands(commands: Any) -> None:
    """Each command's ``--help`` opens with what the command does (its line in
    ``azul-rules --help``)."""
    for entry in commands._choices_actions:
        command = commands.choices[entry.dest]
        if command.description is None:
            command.description = entry.help[:1].upper() + entry.help[1:] + "."


class UsageError(Exception):
    """A command given arguments it cannot act on (an unknown bot, a file it cannot
    write): one line on standard error, exit 2."""


class InputError(Exception):
    """An input file that cannot be read, understood or believed: every problem on
    its own line (what, where, which rule), exit 2."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def _add_rulebook_commands(commands: Any, verdicts: tuple[argparse.ArgumentParser, ...]) -> None:
    """``rules``, ``audit-game`` and ``--explain`` (issue 12: the rule book and audits)."""
    sheet = commands.add_parser("audit-game", help="check a whole game's scoresheet")
    sheet.add_argument("record", metavar="RECORD.json",
                       help="the game record (- reads standard input)")
    sheet.add_argument("sheet", metavar="SCORESHEET.json",
                       help="the running totals the players wrote (docs/audit.md)")
    sheet.add_argument("--lang", choices=LANGUAGES, default="en", help=_LANG_HELP)
    sheet.add_argument("--json", action="store_true", help="a JSON verdict on standard output")
    book = commands.add_parser("rules", help="the rule book: the index, or one rule's text")
    book.add_argument("rule_id", metavar="ID", nargs="?", help="a rule id such as P3")
    book.add_argument("--all", action="store_true", help="every rule with its text")
    book.add_argument("--lang", choices=LANGUAGES, default="en", help=_LANG_HELP)
    for command in (*verdicts, sheet):
        command.add_argument("--explain", action="store_true",
                             help="print the broken rule's text under each violation")


def _differential_parser(commands: Any) -> None:
    diff = commands.add_parser(
        "differential", help="test an engine speaking the engine protocol against the referee"
    )
    diff.add_argument("--engine", required=True, metavar="CMD", help="the engine's command line")
    diff.add_argument("--players", default="2,3,4", help="player counts, e.g. 2,3,4 (default)")
    diff.add_argument("--variant", help="colored, grey or colored,grey (default: the engine's)")
    budget = diff.add_mutually_exclusive_group()
    budget.add_argument("--games", type=integer, help="games to play (default 100)")
    budget.add_argument("--time", help="play for this long instead, e.g. 60s or 5m")
    diff.add_argument("--seed", type=integer, help="the run's seed (printed in every report)")
    diff.add_argument("--timeout", type=seconds, default=10.0, help="seconds per reply (10)")
    diff.add_argument("--shrink-time", default="60s", help="time for shrinking (60s)")
    diff.add_argument("--record", metavar="FILE", help="also save the disagreeing game record")
    diff.add_argument("--json", action="store_true", help="a JSON report on standard output")
    diff.add_argument("--lang", choices=LANGUAGES, default="en",
                      help="the report's sentences, the rule's title, the referee's verdicts")


def _tournament_parser(commands: argparse._SubParsersAction[_Parser]) -> None:
    """``azul-rules tournament`` (docs/tournament.md); run by ``azul_rules.tournament``."""
    add = commands.add_parser("tournament", help="refereed games between bots, at scale")
    add.add_argument("--bots", required=True, metavar="A,B[,…]",
                     help="comma-separated bots: random, greedy or package.module:Factory")
    add.add_argument("--games", type=_games, required=True, metavar="N", help="games to play")
    add.add_argument("--players", type=integer, default=2, choices=(2, 3, 4), help=_PLAYERS_HELP)
    add.add_argument("--variant", choices=("colored", "grey"), default="colored",
                     help=_VARIANT_HELP)  # fmt: skip
    add.add_argument("--seed", type=integer, default=0, help="the tournament's seed (the deals)")
    add.add_argument("--backend", choices=("local", "process", "ray"), default="local",
                     help="where the games run (default local: this process)")
    add.add_argument("--workers", type=integer, metavar="W", help="processes, or Ray tasks at once")
    add.add_argument("--batch", type=integer, metavar="B", help="games a task")
    add.add_argument("--time-limit", type=seconds, metavar="SECONDS", help="per move")
    add.add_argument("--max-rounds", type=integer, default=100, metavar="R",
                     help="a longer game ends unfinished (default 100)")
    add.add_argument("--out", metavar="FILE.jsonl", help="append one JSON line a game")
    add.add_argument("--resume", action="store_true", help="continue FILE.jsonl")
    add.add_argument("--ray-address", metavar="ADDR", help="a Ray cluster, e.g. auto")
    add.add_argument("--retries", type=integer, default=2, help="for a batch whose worker died")
    add.add_argument("--json", action="store_true", help="the results as JSON")
    add.add_argument("--lang", choices=LANGUAGES, default="en",
                     help="the language of the referee's messages in recorded forfeits")
    add.add_argument("--no-progress", action="store_true", help="no progress bar")  # fmt: skip


def _games(text: str) -> int:
    """``tournament --games``: a number of games, 1 or more (0 would print a table of no
    game)."""
    games = integer(text)
    if games < 1:
        raise argparse.ArgumentTypeError(f"expected a number of games, 1 or more, not {games}")
    return games


def _tournament(args: argparse.Namespace) -> int:
    return tournament_main(args)


def _add_serve_command(commands: Any) -> None:
    """``serve`` (issue 15: the web judge, with the ``web`` extra)."""
    serve = commands.add_parser("serve", help="the web judge: a page and a JSON API")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    serve.add_argument("--port", type=integer, default=8000, help="default 8000; 0 for a free one")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="let pages of ORIGIN call the API (CORS; repeatable; * for any)")
    serve.add_argument("--log-level", default="info",
                       choices=("critical", "error", "warning", "info", "debug"),
                       help="uvicorn's log level (default info)")


def _serve(args: argparse.Namespace) -> int:
    """``serve``: bind first (a taken port is one line, exit 2), then run uvicorn."""
    try:
        from azul_rules.web import app
    except ImportError as error:
        raise UsageError(f"serve needs the web extra ({error.name or error} is missing): "
                         "pip install -e '.[web]' in the project's checkout") from None
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {shown(args.port)}: expected 0 to 65535")
    try:
        sock = app.bind(args.host, args.port)
    except (OSError, UnicodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        where = _name(args.host) or '""'
        raise UsageError(f"cannot listen on {where} port {args.port}: "
                         f"{reason}") from None
    host, port = sock.getsockname()[:2]
    address = f"[{host}]" if ":" in host else host
    print(f"azul-rules: the web judge is at http://{address}:{port}/ (Ctrl+C stops it)",
          flush=True)
    app.serve(sock, allow_origins=args.allow_origin, log_level=args.log_level)
    return 0




def _bot_names(spec: str | None, players: int) -> list[str]:
    """The bot of each seat: ``--bots`` split at commas, each spec resolved first (an
    unknown bot is named, whatever the count), then one a seat (S1)."""
    if not spec:
        return ["greedy" if i % 2 == 0 else "random" for i in range(players)]
    names = spec.split(",")
    _import_from_cwd()
    for name in names:
        try:
            bot_factory(name)
        except BotSpecError as error:
            raise UsageError(f"--bots: {error}") from None
    if len(names) != players:
        raise UsageError(f"--bots names {_count(len(names), 'bot')} for {players} players")
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
    """``play``: a whole game between bots, every move refereed as in a tournament (a
    misbehaving bot forfeits: exit 1), printed as it goes."""
    lang = args.lang
    variant = Variant(args.variant)
    names = _bot_names(args.bots, args.players)
    if args.record:
        _not_stdin("--record", args.record)
    record_to = _Destination(args.record) if args.record else None  # refused before the game
    game = _refereed_game(names, args.players, args.seed, variant, lang)
    seats = ", ".join(phrase("seat", lang, player=i + 1, bot=n) for i, n in enumerate(names))
    print(phrase("game_intro", lang, players=args.players, seed=args.seed,
                 variant=variant_name(variant, lang), bots=seats))  # fmt: skip
    _print_round(game.state, lang)
    for before, move in game.moves():
        _print_move(before, move, game.state, lang)
    state, forfeit = game.state, game.forfeit
    if forfeit is not None:
        _print_forfeit(forfeit, state, names, lang)
    elif state.outcome is not None:
        print(phrase("game_end", lang, round=state.round))
        print("\n".join(_scores_and_winners(state.outcome, lang)))
    else:
        print(phrase("stuck", lang, round=state.round))
    _save(record_to, game.record(), lang)
    return 0 if forfeit is None else 1


def _print_round(state: GameState, lang: str) -> None:
    """The start of a round: who starts, and the factories."""
    print(phrase("round_start", lang, round=state.round, player=state.current_player + 1))
    print(phrase("factories", lang, tiles=" ".join(_tiles(f) for f in state.factories)))


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


def _print_forfeit(forfeit: Forfeit, state: GameState, names: list[str], lang: str) -> None:
    """A forfeit (docs/tournament.md, Refereeing): the seat, its bot, the move and why
    (an illegal move's violations as ``replay`` prints them); the scores when the game
    stopped; every other seat wins."""
    seat = forfeit.seat
    if forfeit.move is not None:
        why = phrase("forfeit_illegal", lang, move=move_text(forfeit.move, lang))
    else:
        why = _printable(forfeit.error or forfeit.reason)
    print(phrase("forfeit", lang, player=seat + 1, bot=names[seat], number=forfeit.move_number,
                 reason=why))  # fmt: skip
    _print_violations(forfeit.violations, lang, explain=False)
    scores = ", ".join(phrase("player_score", lang, player=i + 1, score=board.score)
                       for i, board in enumerate(state.players))  # fmt: skip
    print(phrase("stopped_scores", lang, scores=scores))
    winners = [phrase("player", lang, player=w + 1) for w in range(len(state.players))
               if w != seat]  # fmt: skip
    result = phrase("shared" if len(winners) > 1 else "winner", lang)
    print(phrase("result", lang, result=result, winners=phrase("and", lang).join(winners)))


def _save(destination: _Destination | None, record: GameRecord, lang: str) -> None:
    """``play --record``: the game's record, the moves played so far when it stopped."""
    if destination is not None:
        destination.write(record.to_json() + "\n")
        print(phrase("record_saved", lang, path=_name(destination.path)))


class _Destination:
    """A file a command writes, opened for writing (and emptied) when it is named, so
    that one that cannot be written -- a missing folder, a directory, a named pipe that
    no process reads (``_files.open_output``) -- is refused at once, in one line, before
    the work; a pipe's reader then waits for the text, whenever it comes."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            fd = open_output(path)
        except (OSError, ValueError) as error:  # ValueError: a name with a null character
            raise _cannot_write(path, error) from None
        self._close = weakref.finalize(self, os.close, fd)  # also when the command fails
        self._fd = fd

    def write(self, text: str) -> None:
        """Write ``text`` (UTF-8) and close the file."""
        try:
            write_all(self._fd, text.encode("utf-8"))
        except OSError as error:  # a full disk, a pipe whose reader has gone...
            raise _cannot_write(self.path, error) from None
        finally:
            self._close()


def _cannot_write(path: str, error: OSError | ValueError) -> UsageError:
    reason = error.strerror if isinstance(error, OSError) else None
    return UsageError(f"cannot write {_name(path)}: {reason or error}")


def _write(path: str, text: str) -> None:
    """``path`` holding ``text`` (``_Destination``: a FIFO nobody reads is refused)."""
    _Destination(path).write(text)


def _not_stdin(option: str, path: str, what: str = "file") -> None:
    """``UsageError`` for ``-`` given where a file is written: ``-`` is standard input
    for every input file, and standard output already carries the command's text, so
    a file named ``-`` is never what was meant."""
    if path == STDIN:
        raise UsageError(f"{option} -: '-' stands for standard input, and standard output "
                         f"carries the command's text: name a {what} to write into")  # fmt: skip


def _draw(
    path: str | None, state: GameState, lang: str, highlight: Highlight | None = None
) -> None:
    """``--svg``: the picture of ``state`` (and of ``highlight``) to ``path``."""
    if path is not None:
        _not_stdin("--svg", path)
        _write(path, board(state, highlight=highlight, lang=lang))


def _draw_record(directory: str | None, record: GameRecord, lang: str) -> int:
    """``--svg-dir``: the pictures of a recorded game; returns how many were written."""
    if directory is None:
        return 0
    _not_stdin("--svg-dir", directory, "folder")
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise UsageError(f"cannot write pictures to {_name(directory)}: not a directory")
    try:
        os.makedirs(directory, exist_ok=True)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) else None
        raise UsageError(f"cannot write {_name(directory)}: {reason or error}") from None
    written = 0
    for name, picture in iter_record_pictures(record, lang=lang):  # one in memory at a time
        _write(os.path.join(directory, name), picture)
        written += 1
    return written


def _say_drawn(drawn: int, args: argparse.Namespace) -> None:
    if drawn:
        where = _name(args.svg_dir)
        print(phrase("pictures", args.lang, count=drawn, where=where))


def _count(n: int, noun: str) -> str:
    """``1 bot``, ``2 bots`` (English and French nouns taking an ``s``)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


STDIN = "-"
"""The file name that reads standard input, for every input file of every command."""


def _one_stdin(*paths: str) -> None:
    """Standard input holds one document: ``-`` may stand for one input of a command."""
    if paths.count(STDIN) > 1:
        raise UsageError("- (standard input) stands for one file only: give the others by name")


def _read(path: str) -> str:
    """A file's text (``-``: standard input's): at most ``MAX_INPUT_BYTES`` of UTF-8 (a
    byte order mark allowed), read without holding more than that in memory."""
    with _input(path) as source:
        return _text_of(path, _reading_bytes(path, lambda: source.read(MAX_INPUT_BYTES + 1)))


@contextlib.contextmanager
def _input(path: str) -> Iterator[IO[bytes]]:
    """An input file opened for reading (``-``: standard input, left open): a named pipe
    that no process writes is refused at once (``_files.open_input``), as any file
    that cannot be opened, in one line."""
    if path == STDIN:
        if sys.stdin is None:  # closed by the caller (``<&-``)
            raise InputError([f"{STDIN}: cannot read: standard input is closed"])
        yield sys.stdin.buffer
        return
    try:
        stream = open_input(path)
    except (OSError, ValueError) as error:  # ValueError: a name with a null character
        raise _cannot_read(path, error) from None
    with stream:
        yield stream


def _reading_bytes(path: str, read: Callable[[], T]) -> T:
    """``read()``, an ``OSError`` (a directory, a device failing) told as the file that
    cannot be read, in one line."""
    try:
        return read()
    except OSError as error:
        raise _cannot_read(path, error) from None


def _cannot_read(path: str, error: OSError | ValueError) -> InputError:
    reason = error.strerror if isinstance(error, OSError) else None
    return InputError([f"{_name(path)}: cannot read: {reason or error}"])


def _text_of(path: str, data: bytes) -> str:
    """A file's bytes as text: at most ``MAX_INPUT_BYTES`` of UTF-8 (a byte order mark
    allowed)."""
    name = _name(path)
    if len(data) > MAX_INPUT_BYTES:
        raise InputError([f"{name}: more than {MAX_INPUT_BYTES} bytes: not a file this reads"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError([f"{name}: not UTF-8 text (byte {error.start})"]) from None


def _printable(text: str) -> str:
    """A message as it can be shown on one line (control characters escaped)."""
    return printable(text)


def _name(text: str) -> str:
    """A file name or an argument as a message quotes it: on one line, cut."""
    return clipped(text)


def _from_file(path: str, read: Callable[[object], T], lang: str = "en",
               kind: Kind | None = None) -> T:  # fmt: skip
    """``read`` (a ``from_dict`` reader) applied to the JSON document in ``path``, its
    errors told with the file's name (an impossible position's problems in ``lang``); a
    document of another kind than ``kind`` (a record given for a position) is told so,
    in one line.  The text is parsed once (``jsontext.load``, as ``from_json`` does),
    so a refused file costs no more than a read one."""
    return _from_text(path, _read(path), read, lang, kind)


def _from_text(path: str, text: str, read: Callable[[object], T], lang: str = "en",
               kind: Kind | None = None) -> T:  # fmt: skip
    """:func:`_from_file` once the file is read."""
    data = _reading(path, lambda: load(text), lang)
    try:
        return _reading(path, lambda: read(data), lang)
    except InputError:
        wrong = None if kind is None else wrong_kind(data, kind)
        if wrong is None:
            raise
        raise InputError([f"{_name(path)}: {wrong}"]) from None


def _reading(source: str, read: Callable[[], T], lang: str = "en") -> T:
    """``read()``, its ``FormatError`` told line by line (in English: the readers word
    them so), its ``InvalidStateError`` problem by problem in ``lang``."""
    source = _name(source)
    try:
        return read()
    except FormatError as error:
        raise InputError(
            [_printable(f"{source}: unreadable: {what}" if path == "$" and what == str(error)
             else f"{source}: unreadable at {path}: {what}") for path, what in error.errors]
        ) from None  # fmt: skip
    except InvalidStateError as error:
        raise InputError(
            [_printable(phrase("impossible_position", lang, source=source, code=p.code.value,
                               rule=p.rule, path=p.path, message=p.message_in(lang)))
             for p in error.problems]
        ) from None  # fmt: skip


def _judged(judge: Callable[[], T], claim: str, base: str, base_path: str | None = None) -> T:
    """``judge()``, whose ``FormatError`` says that the ``claim`` file (a claim, a
    scoresheet) does not fit the ``base`` file (the position, the record) -- or, at
    ``base_path`` (``$.factories``: the offer is not over), that the fault is the base's."""
    try:
        return judge()
    except FormatError as error:
        claim, base = _name(claim), _name(base)
        raise InputError(
            [_printable(f"{base}: cannot be audited at {path}: {what}"
             if base_path is not None and path.startswith(base_path)
             else f"{claim}: does not fit {base} at {path}: {what}") for path, what in error.errors]
        ) from None  # fmt: skip


def _load_state(path: str, lang: str = "en") -> GameState:
    """STATE: a position's notation (docs/notation.md) or a JSON file holding one."""
    if _is_notation(path):
        return _reading("STATE", lambda: from_dict(path, GameState), lang)
    return _from_file(path, lambda data: from_dict(data, GameState), lang, "position")


def _is_notation(text: str) -> bool:
    """A position argument that is no file and starts as a notation does (the variant,
    the players, the phase: ``c2f``) is read as one; anything else is a file's name,
    so that a missing file is told as missing."""
    return (not os.path.exists(text) and len(text) > 3 and text[0] in "cg"
            and text[1] in "234" and text[2] in "fwre")  # fmt: skip


def _load_move(text: str) -> Move:
    """MOVE: a JSON move, a file holding one, or notation.  A name that looks like a
    file's (a path separator, a ``.json`` suffix) is read as a file, so that a missing
    file is told as missing rather than as bad notation."""
    if text.lstrip().startswith("{"):
        return _reading("MOVE", lambda: move_from_json(text))
    if text == STDIN:
        given = _read(STDIN)
        if given.lstrip().startswith("{"):
            return _reading(STDIN, lambda: move_from_json(given))
        return _reading(STDIN, lambda: parse_move(given.strip()))
    if os.path.exists(text) or _looks_like_a_file(text):
        return _from_file(text, move_from_dict, kind="move")
    return _reading("MOVE", lambda: parse_move(text))


def _looks_like_a_file(text: str) -> bool:
    separators = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    return any(s in text for s in separators) or text.lower().endswith(".json")


def _print_json(doc: dict[str, object]) -> None:
    """``--json``: ``doc`` on standard output; an integer past 4,300 digits, which
    Python refuses to write (a score of 4,300 digits grown by a tiling), is one line
    naming its place in the output, exit 2."""
    try:
        text = json.dumps(doc, indent=2, ensure_ascii=False)
    except ValueError:
        found = long_integers(doc) or [("$", "a value JSON text cannot hold")]
        raise InputError([f"cannot write the JSON output at {path}: {what}"
                          for path, what in found]) from None  # fmt: skip
    print(text)


def _violation_doc(violation: Violation, lang: str, explain: bool = False) -> dict[str, object]:
    doc: dict[str, object] = {
        "code": violation.code.value,
        "rule": violation.rule,
        "message": violation.message_in(lang),
        "params": {k: _plain(v) for k, v in violation.params},
    }
    if explain:
        doc["rule_text"] = violation.rule_text(lang)
    return doc


def _print_violations(violations: Sequence[Violation], lang: str, explain: bool,
                      indent: str = "  ") -> None:  # fmt: skip
    """Each violation on a line; with ``explain``, its rule's text beneath it."""
    for violation in violations:
        print(phrase("violation", lang, indent=indent, code=violation.code.value,
                     rule=violation.rule, message=violation.message_in(lang)))  # fmt: skip
        if explain:
            print(_wrapped(rule(violation.rule), lang, indent + "    "))


def _wrapped(entry: Rule, lang: str, indent: str) -> str:
    text = f"{entry.id} {entry.title_in(lang)}. {entry.text(lang)}"
    return textwrap.fill(text, width=92, initial_indent=indent, subsequent_indent=indent)


def _plain(value: object) -> object:
    if isinstance(value, Color):
        return value.name.lower()
    if isinstance(value, Marker):
        return "marker"
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _check(args: argparse.Namespace) -> int:
    _one_stdin(args.state, args.move)
    state = _load_state(args.state, args.lang)
    move = _load_move(args.move)
    result = state.validate(move)
    _draw(args.svg, state, args.lang, (move, result))
    if args.json:
        doc = {
            "ok": result.ok,  # the word of Result, replay --json and the web API
            "legal": result.ok,  # the same, kept for scripts written before "ok"
            "move": to_dict(move),
            "violations": [_violation_doc(v, args.lang, args.explain) for v in result.violations],
        }
        _print_json(doc)
    elif result.ok:
        print(phrase("check_legal", args.lang, move=move_text(move, args.lang)))
    else:
        print(phrase("check_illegal", args.lang, move=move_text(move, args.lang)))
        _print_violations(result.violations, args.lang, args.explain)
    return 0 if result.ok else 1


def _audit(args: argparse.Namespace) -> int:
    _one_stdin(args.state, args.claim)
    state = (_reading("STATE", lambda: position_from_dict(args.state), args.lang)
             if _is_notation(args.state)
             else _from_file(args.state, position_from_dict, args.lang, "position"))  # fmt: skip
    claim = _from_file(args.claim, claim_from_dict, kind="claim")
    result = _judged(lambda: audit(state, claim), args.claim, args.state, "$.factories")
    if args.json:
        doc = {
            "correct": result.ok,
            "violations": [_violation_doc(v, args.lang, args.explain) for v in result.violations],
        }
        _print_json(doc)
    elif result.ok:
        print(phrase("claim_correct", args.lang))
    else:
        print(phrase("claim_wrong", args.lang))
        _print_violations(result.violations, args.lang, args.explain)
    return 0 if result.ok else 1


def _audit_game(args: argparse.Namespace) -> int:
    _one_stdin(args.record, args.sheet)
    record = _from_file(args.record, GameRecord.from_dict, args.lang, "record")
    sheet = _from_file(args.sheet, scoresheet_from_dict, kind="scoresheet")
    verdict = _judged(lambda: audit_game(record, sheet), args.sheet, args.record)
    if args.json:
        def docs(found: Sequence[Violation]) -> list[dict[str, object]]:
            return [_violation_doc(v, args.lang, args.explain) for v in found]

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
        _print_json(doc)
        return 0 if verdict.ok else 1
    lang = args.lang
    if verdict.ok:
        print(phrase("sheet_correct", lang, rounds=len(verdict.rounds)))
        return 0
    print(phrase("sheet_wrong", lang))
    for line in verdict.rounds:
        totals = ", ".join(number(t, lang) for t in line.written)
        if line.ok:
            print(phrase("sheet_round_ok", lang, round=line.round, written=totals))
            continue
        correct = ", ".join(number(t, lang) for t in line.correct)
        print(phrase("sheet_round", lang, round=line.round, written=totals, correct=correct))
        _print_violations(line.violations, lang, args.explain, "    ")
        if not line.violations:
            print(phrase("sheet_carried", lang))
    if verdict.failure is not None and verdict.failed_at is not None:
        move = record.moves[verdict.failed_at]
        print(phrase("sheet_illegal", lang, number=verdict.failed_at + 1,
                     move=move_text(move, lang)))  # fmt: skip
        _print_violations(verdict.failure.violations, lang, args.explain, "    ")
    if verdict.end:
        print(phrase("sheet_end", lang))
        _print_violations(verdict.end, lang, args.explain, "    ")
    if verdict.final_scores is not None:
        scores = ", ".join(number(s, lang) for s in verdict.final_scores)
        print(phrase("sheet_final", lang, scores=scores))
    return 1


def _rules(args: argparse.Namespace) -> int:
    lang = args.lang
    if args.rule_id is not None:
        try:
            entry = rule(args.rule_id)
        except ValueError:
            raise UsageError(phrase("no_rule", lang, id=shown(args.rule_id),
                                    ids=id_ranges())) from None  # fmt: skip
        print(f"{entry.id} {entry.title_in(lang)}")
        print(_text(entry, lang))
        return 0
    print(phrase("rules_title", lang))
    for letter in SECTIONS:
        print(f"\n{section_title(letter, lang)}")
        for entry in rules(letter):
            print(f"  {entry.id:<3} {entry.title_in(lang)}")
            if args.all:
                print(_text(entry, lang, "      "))
    return 0


def _text(entry: Rule, lang: str, indent: str = "  ") -> str:
    return textwrap.fill(entry.text(lang), width=92, initial_indent=indent,
                         subsequent_indent=indent)  # fmt: skip


def _show(args: argparse.Namespace) -> int:
    state = _load_state(args.state, args.lang)
    _draw(args.svg, state, args.lang)
    print(render_state(state, args.lang))
    return 0


def _replay(args: argparse.Namespace) -> int:
    record = _load_game(args.record, args.game, args.lang)
    replay = record.replay()
    final = replay.final
    drawn = _draw_record(args.svg_dir, record, args.lang)
    if args.json:
        doc: dict[str, object] = {"ok": replay.ok, "moves_played": len(replay.states) - 1}
        if replay.failure is not None and replay.failed_at is not None:
            bad = replay.states[-1]
            doc["illegal_move"] = {
                "number": replay.failed_at + 1,
                "player": bad.current_player,
                "move": to_dict(record.moves[replay.failed_at]),
                "violations": [
                    _violation_doc(v, args.lang, args.explain) for v in replay.failure.violations
                ],
            }
        if final.outcome is not None:
            doc["scores"] = list(final.outcome.scores)
            doc["winners"] = list(final.outcome.winners)
        _print_json(doc)
        return 0 if replay.ok else 1
    if replay.failure is not None and replay.failed_at is not None:
        number = replay.failed_at + 1
        move = record.moves[replay.failed_at]
        print(phrase("illegal_at", args.lang, number=number, move=move_text(move, args.lang),
                     player=final.current_player + 1))  # fmt: skip
        _print_violations(replay.failure.violations, args.lang, args.explain)
        _say_drawn(drawn, args)
        return 1
    played = len(replay.states) - 1
    print(phrase("one_legal" if played == 1 else "all_legal", args.lang, moves=played))
    if final.outcome is not None:
        print("\n".join(_scores_and_winners(final.outcome, args.lang)))
    else:
        print(phrase("not_over", args.lang, round=final.round,
                     phase=phase_name(final.phase.value, args.lang)))  # fmt: skip
    _say_drawn(drawn, args)
    return 0


def _differential(args: argparse.Namespace) -> int:
    try:
        from azul_rules.testing import differential
    except ImportError as error:
        if error.name != "hypothesis":
            raise
        print("azul-rules differential: needs the hypothesis package, the testing extra: "
              "pip install -e '.[testing]' in the project's checkout", file=sys.stderr)  # fmt: skip
        return 2
    return differential.command(args)


def _load_game(path: str, game: int | None, lang: str) -> GameRecord:
    """RECORD of ``replay``: a game record, or a tournament's JSON-lines file (read line
    by line, ``game`` picking the game, docs/tournament.md).  The file is opened once
    and read once: it may be a pipe."""

    def plain(data: bytes) -> GameRecord:
        return _from_text(path, _text_of(path, data), GameRecord.from_dict, lang, "record")

    name = _name(path)
    with _input(path) as stream:
        return _reading_bytes(
            path, lambda: _reading(path, lambda: read_record(stream, name, game, plain), lang)
        )


def _tiles(tiles: Sequence[object]) -> str:
    return "[" + "".join(t.letter for t in tiles if isinstance(t, Color)) + "]"


def _command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``azul-rules COMMAND``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # told by the command's own parser: its name and its --help
            _command_parser(parser, args.command).error(
                f"unrecognized arguments: {listed(extra, show=_name, sep=' ')}"
            )
    except SystemExit as exit_:
        return int(exit_.code or 0) and 2
    commands = {
        "play": _play, "check": _check, "show": _show, "replay": _replay, "audit": _audit,
        "audit-game": _audit_game, "rules": _rules, "tournament": _tournament,
        "differential": _differential, "serve": _serve,
    }  # fmt: skip
    try:
        return commands[args.command](args)
    except InputError as error:
        for line in error.lines:
            print(f"azul-rules: {line}", file=sys.stderr)
    except (UsageError, FormatError) as error:
        print(f"azul-rules: {_printable(str(error))}", file=sys.stderr)
    except KeyboardInterrupt:
        print("azul-rules: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a bug of ours: still one line, never a traceback
        print(f"azul-rules: internal error, please report it: {type(error).__name__}: "
              f"{_printable(str(error)[:200])}", file=sys.stderr)  # fmt: skip
    return 2


def run() -> None:
    """Entry point of the ``azul-rules`` script and ``python -m azul_rules``.

    A reader that leaves early (``azul-rules check ... | head -1``) does not change the
    exit status: the rest of the output is dropped, quietly, and the command still
    exits 0, 1 or 2 as its verdict says."""
    streams = {"stdout": sys.stdout, "stderr": sys.stderr}
    outputs = {name: _Output(s) for name, s in streams.items() if s is not None}  # None: closed
    for name, output in outputs.items():
        setattr(sys, name, output)
    try:
        status = main()
        for output in outputs.values():
            output.flush()
    finally:
        for name, stream in streams.items():
            setattr(sys, name, stream)
    sys.exit(status)


class _Output:
    """Standard output (or error) whose reader may leave: from the first broken pipe
    on, what is written is dropped (and the descriptor is pointed at ``os.devnull``, so
    that nothing fails when Python flushes it at exit)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.reader_gone = False

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._gone()
        return len(text)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._gone()

    def _gone(self) -> None:
        self.reader_gone = True
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self._stream.fileno())
            finally:
                os.close(null)
        except (OSError, ValueError, AttributeError):  # no descriptor (a test's capture)
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

