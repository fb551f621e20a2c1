"""Refereeing one tournament game: every move a bot returns goes through ``state.apply``;
an illegal move, anything that is not a move, an exception, or a move later than the time
limit forfeits the game.

A forfeit ends the game at once: the forfeiting seat loses and every other seat shares
the victory (a single winner at two players).  A game still going when round
``max_rounds + 1`` would begin ends *unfinished*, with no winner.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Final, Literal

import attrs

from azul_rules.bots import Bot, BotFactory, build_bot
from azul_rules.errors import FormatError, IllegalMoveError, Violation
from azul_rules.moves import Move, PlaceTile, Refill, TableTake, Take
from azul_rules.record import MAX_RECORD_MOVES, GameRecord
from azul_rules.state import GameState, new_game
from azul_rules.tournament.schedule import GameSpec
from azul_rules.tournament.settings import Settings

__all__ = [
    "Ending",
    "Forfeit",
    "ForfeitReason",
    "GameDone",
    "GameSummary",
    "iter_games",
    "play_batch",
    "play_game",
]

Ending = Literal["finished", "forfeit", "unfinished"]
ForfeitReason = Literal["illegal_move", "not_a_move", "error", "time_limit"]

_MOVE_TYPES: Final = (Take, TableTake, PlaceTile, Refill)
_ERROR_TEXT_LIMIT: Final = 500


@attrs.frozen
class Forfeit:
    """Why a seat forfeited: ``reason``, the number (from 1) of the move it failed to
    make, the move it played when it was illegal, the referee's ``violations`` for an
    illegal move, or the ``error`` text (exceptions, non-moves, time limit)."""

    seat: int
    reason: ForfeitReason
    move_number: int
    move: Move | None = None
    violations: tuple[Violation, ...] = ()
    error: str | None = None


@attrs.frozen
class GameSummary:
    """What the results table needs from a game: the bot (an index) in each seat, how it
    ended, the winning seats, each seat's score, and the forfeiting seat."""

    index: int
    seats: tuple[int, ...]
    end: Ending
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    forfeiter: int | None = None


@attrs.frozen
class GameDone:
    """A played game: its JSON line (without the newline) and its summary."""

    line: str
    summary: GameSummary


class _OverTime(BaseException):
    """Raised inside a bot's ``choose`` by the alarm (a ``BaseException`` so that a bot
    catching ``Exception`` does not swallow it)."""


class _Alarm:
    """The SIGALRM timer of the time limit.  The handler raises only while a bot is
    thinking (``armed``), so a signal delivered just as the timer is disarmed cannot
    escape into the referee."""

    def __init__(self) -> None:
        self.armed = False

    def on_signal(self, signum: int, frame: object) -> None:
        if self.armed:
            self.armed = False
            raise _OverTime

    def arm(self, seconds: float) -> None:
        self.armed = True
        signal.setitimer(signal.ITIMER_REAL, seconds)

    def disarm(self) -> None:
        self.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)


@contextmanager
def _alarm_handler(time_limit: float | None) -> Iterator[_Alarm | None]:
    """Install the SIGALRM handler for the games of a batch; yields the alarm, or
    ``None`` where it cannot interrupt a bot (no time limit, not the main thread of the
    process, no SIGALRM)."""
    usable = (
        time_limit is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield None
        return
    alarm = _Alarm()
    previous = signal.signal(signal.SIGALRM, alarm.on_signal)
    try:
        yield alarm
    finally:
        alarm.disarm()
        signal.signal(signal.SIGALRM, previous)


def _ask(bot: Bot, state: GameState, time_limit: float | None, alarm: _Alarm | None) -> object:
    """The bot's answer.  Raises :class:`_OverTime` past the time limit (interrupted by
    the alarm, or judged when the answer comes), and whatever the bot raises."""
    if time_limit is None:
        return bot.choose(state)
    start = time.perf_counter()
    if alarm is not None:
        alarm.arm(time_limit)
    try:
        move: object = bot.choose(state)
    finally:
        if alarm is not None:
            alarm.disarm()
    if time.perf_counter() - start > time_limit:
        raise _OverTime
    return move


def _error_text(error: BaseException) -> str:
    """``Type: message (at file.py:12 in function)``, on one line, at most 500 characters."""
    text = f"{type(error).__name__}: {error}".replace("\n", " ").strip()
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        text += f" (at {os.path.basename(last.filename)}:{last.lineno} in {last.name})"
    return text if len(text) <= _ERROR_TEXT_LIMIT else text[: _ERROR_TEXT_LIMIT - 1] + "…"


def play_game(settings: Settings, spec: GameSpec, factories: tuple[BotFactory, ...]) -> GameDone:
    """Referee game ``spec`` (``factories[i]`` builds bot ``i`` of the settings): build
    each seat's bot with its seat seed, then ask the bot to move until the game ends, a
    seat forfeits, or the round cap (or :data:`~azul_rules.record.MAX_RECORD_MOVES`
    moves, the most a record holds: the game is unfinished)."""
    with _alarm_handler(settings.time_limit) as alarm:
        return _play(settings, spec, factories, alarm)


def _play(
    settings: Settings, spec: GameSpec, factories: tuple[BotFactory, ...], alarm: _Alarm | None
) -> GameDone:
    state = new_game(settings.players, seed=spec.seed, variant=settings.variant)
    moves: list[Move] = []
    forfeit: Forfeit | None = None
    bots: list[Bot] = []
    for seat, bot_index in enumerate(spec.seats):
        try:
            bots.append(build_bot(factories[bot_index], spec.bot_seeds[seat]))
        except (Exception, SystemExit) as error:
            forfeit = Forfeit(seat, "error", 1, error=f"building the bot: {_error_text(error)}")
            break
    while forfeit is None and not state.is_over and state.round <= settings.max_rounds:
        if len(moves) == MAX_RECORD_MOVES:  # the most a record holds: the game is unfinished
            break
        seat = state.current_player
        number = len(moves) + 1
        try:
            answer = _ask(bots[seat], state, settings.time_limit, alarm)
        except _OverTime:
            forfeit = Forfeit(seat, "time_limit", number,
                              error=f"no move within the time limit of {settings.time_limit} s")
            break  # fmt: skip
        except (Exception, SystemExit) as error:
            forfeit = Forfeit(seat, "error", number, error=_error_text(error))
            break
        if not isinstance(answer, _MOVE_TYPES):
            forfeit = Forfeit(seat, "not_a_move", number, error=(
                f"not a move: a {type(answer).__name__} (expected Take, TableTake, "
                "PlaceTile or Refill)"))  # fmt: skip
            break
        try:
            state = state.apply(answer)
        except IllegalMoveError as error:
            forfeit = Forfeit(seat, "illegal_move", number, answer, error.result.violations)
            break
        moves.append(answer)
    return _done(settings, spec, state, moves, forfeit)


def _done(
    settings: Settings, spec: GameSpec, state: GameState, moves: list[Move],
    forfeit: Forfeit | None,
) -> GameDone:  # fmt: skip
    scores = tuple(board.score for board in state.players)
    end: Ending
    if forfeit is not None:
        end = "forfeit"
        winners = tuple(s for s in range(settings.players) if s != forfeit.seat)
    elif state.outcome is not None:
        end, winners, scores = "finished", state.outcome.winners, state.outcome.scores
    else:
        end, winners = "unfinished", ()
    record = _record(settings, spec, moves, forfeit)
    result: dict[str, Any] = {
        "end": end,
        "winners": list(winners),
        "scores": list(scores),
        "rounds": state.round,
        "moves": len(moves),
        "forfeit": None if forfeit is None else _forfeit_doc(forfeit, settings, spec),
    }
    names = settings.names
    doc = {
        "tournament": settings.header(),
        "game": spec.index,
        "deal": spec.deal,
        "seed": spec.seed,
        "lineup": [names[b] for b in spec.seats],
        "bot_seeds": list(spec.bot_seeds),
        "result": result,
        "record": record,
    }
    line = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    summary = GameSummary(
        spec.index, spec.seats, end, tuple(winners), tuple(scores),
        None if forfeit is None else forfeit.seat,
    )  # fmt: skip
    return GameDone(line, summary)


def _record(
    settings: Settings, spec: GameSpec, moves: list[Move], forfeit: Forfeit | None
) -> dict[str, Any]:
    """The game record (exactly ``GameRecord.to_dict()``); after an illegal move, that
    move ends the record so that ``azul-rules replay`` stops at it with the same verdict
    -- when the move survives a JSON round trip (the referee's own move types do)."""
    doc = GameRecord((), settings.players, spec.seed, settings.variant).to_dict()
    doc["moves"] = [_move_doc(move) for move in moves]
    if forfeit is not None and forfeit.move is not None:
        try:
            last = GameRecord((forfeit.move,)).to_dict()["moves"][0]
            if GameRecord.from_dict({**doc, "moves": [last]}).moves == (forfeit.move,):
                doc["moves"].append(last)
        except (FormatError, TypeError, ValueError):
            pass
    return doc


_MOVE_DOCS: dict[Move, object] = {}


def _move_doc(move: Move) -> object:
    """A legal move as ``GameRecord.to_dict`` writes it, memoised: legal moves are few
    (at most a few hundred kinds), and this is a third of a random game's time."""
    found = _MOVE_DOCS.get(move)
    if found is None:
        found = GameRecord((move,)).to_dict()["moves"][0]
        if len(_MOVE_DOCS) < 4096:
            _MOVE_DOCS[move] = found
    return found


def _forfeit_doc(forfeit: Forfeit, settings: Settings, spec: GameSpec) -> dict[str, Any]:
    move: object = None
    if forfeit.move is not None:  # as in a record: notation when it says it all, else JSON
        try:
            move = GameRecord((forfeit.move,)).to_dict()["moves"][0]
        except (FormatError, TypeError, ValueError):
            move = repr(forfeit.move)[:_ERROR_TEXT_LIMIT]
    return {
        "seat": forfeit.seat,
        "bot": settings.names[spec.seats[forfeit.seat]],
        "reason": forfeit.reason,
        "move_number": forfeit.move_number,
        "move": move,
        "violations": [
            {"code": v.code.value, "rule": v.rule, "message": v.message_in(settings.lang)}
            for v in forfeit.violations
        ],
        "error": forfeit.error,
    }



def play_batch(settings: Settings, indices: Iterable[int]) -> list[GameDone]:
    """Play the games ``indices`` one after the other (what a worker runs).  The bots'
    factories are resolved once per batch.  A spec that cannot be
    imported here raises :class:`azul_rules.bots.BotSpecError` (the batch is lost, not
    forfeited: the fault is the worker's environment, not the bot's play)."""
    factories = _factories(settings)
    with _alarm_handler(settings.time_limit) as alarm:
        return [_play(settings, settings.spec(i), factories, alarm) for i in indices]


def iter_games(settings: Settings, indices: Iterable[int]) -> Iterator[GameDone]:
    """Like :func:`play_batch`, one game at a time (the local backend)."""
    factories = _factories(settings)
    with _alarm_handler(settings.time_limit) as alarm:
        for i in indices:
            yield _play(settings, settings.spec(i), factories, alarm)


def _factories(settings: Settings) -> tuple[BotFactory, ...]:
    return tuple(e.factory() for e in settings.entrants)
