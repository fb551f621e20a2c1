"""Refereeing one tournament game: every move a bot returns goes through ``state.apply``;
an illegal move, anything that is not a move, an exception (any but
``KeyboardInterrupt``, the organiser's Ctrl-C), a change to the state the bot was given,
or a move later than the time limit forfeits the game.

A forfeit ends the game at once: the forfeiting seat loses and every other seat shares
the victory (a single winner at two players).  A game still going when round
``max_rounds + 1`` would begin ends *unfinished*, with no winner.
"""

from __future__ import annotations

import contextlib
import json
import operator
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, Literal, cast

import attrs

from azul_rules.core.bots import Bot, BotFactory, GreedyBot, RandomBot, build_bot
from azul_rules.core.errors import FormatError, IllegalMoveError, Violation
from azul_rules.core.moves import Move, PlaceTile, Refill, TableTake, Take
from azul_rules.core.shown import printable, shown
from azul_rules.core.state import GameState, new_game
from azul_rules.formats.record import MAX_RECORD_MOVES, GameRecord
from azul_rules.tournament.schedule import GameSpec
from azul_rules.tournament.settings import Settings

__all__ = [
    "Ending",
    "Forfeit",
    "ForfeitReason",
    "GameDone",
    "GameSummary",
    "RefereedGame",
    "iter_games",
    "play_batch",
    "play_game",
]

Ending = Literal["finished", "forfeit", "unfinished"]
ForfeitReason = Literal["illegal_move", "not_a_move", "error", "time_limit"]

_MOVE_TYPES: Final = (Take, TableTake, PlaceTile, Refill)
_ERROR_TEXT_LIMIT: Final = 500
_NAME_LIMIT: Final = 100


def _is_bot_failure(error: BaseException) -> bool:
    """True for what a bot raised and forfeits for: anything but ``KeyboardInterrupt``
    (stops the run) and the referee's own time-limit alarm."""
    return not isinstance(error, KeyboardInterrupt | _OverTime)


def _type_name(value: object) -> str:
    """The name of ``value``'s type, cut to 100 characters (a bot may make a type of
    any name, and a game line holds at most 1 MiB)."""
    name = type(value).__name__
    return name if len(name) <= _NAME_LIMIT else name[: _NAME_LIMIT - 1] + "…"


@attrs.frozen
class Forfeit:
    """Why a seat forfeited: ``reason``, the number (from 1) of the move it failed to
    make, the move it played when it was illegal, the referee's ``violations`` for an
    illegal move, or the ``error`` text (exceptions, non-moves, time limit).

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

    seat: int
    reason: ForfeitReason
    move_number: int
    move: Move | None = None
    violations: tuple[Violation, ...] = ()
    error: str | None = None


@attrs.frozen
class GameSummary:
    """What the results table needs from a game: the bot (an index) in each seat, how it
    ended, the winning seats, each seat's score, and the forfeiting seat.

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

    index: int
    seats: tuple[int, ...]
    end: Ending
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    forfeiter: int | None = None


@attrs.frozen
class GameDone:
    """A played game: its JSON line (without the newline) and its summary.

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

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


@contextlib.contextmanager
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
    pid = os.getpid()
    if time_limit is None:
        try:
            return bot.choose(state)
        finally:
            if os.getpid() != pid:
                _leave_forked_copy(pid)
    start = time.perf_counter()
    if alarm is not None:
        alarm.arm(time_limit)
    try:
        move: object = bot.choose(state)
    finally:
        if os.getpid() != pid:
            _leave_forked_copy(pid)
        if alarm is not None:
            alarm.disarm()
    if time.perf_counter() - start > time_limit:
        raise _OverTime
    return move


@contextlib.contextmanager
def _same_process() -> Iterator[None]:
    """Run a bot's code (its factory), then make sure that only the process that called
    it goes on refereeing (see :func:`_leave_forked_copy`)."""
    pid = os.getpid()
    try:
        yield
    finally:
        if os.getpid() != pid:
            _leave_forked_copy(pid)


def _leave_forked_copy(parent: int) -> None:
    """End a copy of the referee's process that a bot made with ``os.fork`` and let
    return (or raise) into the referee: it would play the rest of the tournament a
    second time and write its lines into the same file.  It says so on standard error
    and exits at once (``os._exit``: nothing of the parent's is flushed twice)."""
    with contextlib.suppress(BaseException):
        os.write(2, (f"azul-rules: a process forked by a bot (pid {os.getpid()}, from "
                     f"{parent}) came back into the referee: it exits\n").encode())  # fmt: skip
    os._exit(70)


def _error_text(error: BaseException) -> str:
    """``Type: message (at file.py:12 in function)``, on one line, printable (control
    characters escaped), at most 500 characters
    (``Type (at ...)`` without a message; a message that cannot be shown as text, its
    ``__str__`` raising, is said to be so)."""
    try:
        message = str(error)
    except Exception:  # a bot's exception whose __str__ fails
        message = "(its message cannot be shown: str() of it raised)"
    message = message[: _ERROR_TEXT_LIMIT + 1]  # a message of megabytes is cut first
    text = f"{_type_name(error)}: {message}" if message else _type_name(error)
    text = printable(text.replace("\n", " ").strip())  # a terminal's escapes shown as text
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        text += f" (at {os.path.basename(last.filename)}:{last.lineno} in {last.name})"
    return text if len(text) <= _ERROR_TEXT_LIMIT else text[: _ERROR_TEXT_LIMIT - 1] + "…"


def play_game(settings: Settings, spec: GameSpec, factories: tuple[BotFactory, ...]) -> GameDone:
    """Referee game ``spec`` (``factories[i]`` builds bot ``i`` of the settings): build
    each seat's bot with its seat seed, then ask the bot to move until the game ends, a
    seat forfeits, or the round cap (or :data:`~azul_rules.formats.record.MAX_RECORD_MOVES`
    moves, the most a record holds: the game is unfinished)."""
    with _alarm_handler(settings.time_limit) as alarm:
        return _play(settings, spec, factories, alarm)


def _play(
    settings: Settings, spec: GameSpec, factories: tuple[BotFactory, ...], alarm: _Alarm | None
) -> GameDone:
    game = RefereedGame(settings, spec, factories)
    for _ in game.moves(alarm):
        pass
    return game.done()


class RefereedGame:
    """One game under the referee, move by move: :meth:`moves` builds the bots and
    yields each legal move as it is played; ``state``, ``played`` and ``forfeit`` say
    where the game stands.  :func:`play_game` plays it to the end for a tournament,
    ``azul-rules play`` prints it as it goes: one referee for both."""

    def __init__(
        self, settings: Settings, spec: GameSpec, factories: tuple[BotFactory, ...]
    ) -> None:
        self.settings = settings
        self.spec = spec
        self.factories = factories
        self.state = new_game(settings.players, seed=spec.seed, variant=settings.variant)
        self.played: list[Move] = []
        self.forfeit: Forfeit | None = None

    def moves(self, alarm: _Alarm | None = None) -> Iterator[tuple[GameState, Move]]:
        """Build each seat's bot, then ask the seat to move until the game ends, a seat
        forfeits (G1: an illegal move, anything but a move, an exception, a change to
        the state it was given, a move past the time limit) or the round cap (or
        :data:`~azul_rules.formats.record.MAX_RECORD_MOVES` moves: the game is unfinished).
        Yields ``(state before, move)`` after each legal move, ``state`` then being
        the state after it.  ``alarm`` interrupts a bot at the time limit (see
        :func:`_alarm_handler`; ``None``: judged when the answer comes)."""
        settings, spec, moves = self.settings, self.spec, self.played
        state = self.state
        bots, forfeit = _build_bots(spec, self.factories)
        trusted = tuple(_is_own_bot(bot) for bot in bots)
        while forfeit is None and not state.is_over and state.round <= settings.max_rounds:
            if len(moves) == MAX_RECORD_MOVES:  # the most a record holds: unfinished
                break
            seat = state.current_player
            number = len(moves) + 1
            before = None if trusted[seat] else _snapshot(state)
            try:
                answer = _ask(bots[seat], state, settings.time_limit, alarm)
            except _OverTime:
                forfeit = Forfeit(seat, "time_limit", number,
                                  error=f"no move within the time limit of {settings.time_limit} s")
            except BaseException as error:
                if not _is_bot_failure(error):
                    raise
                forfeit = Forfeit(seat, "error", number, error=_error_text(error))
            if not trusted[seat] and _changed(before):  # the bot changed the referee's state
                state = self.state = _restore(before, settings, spec, moves)
                forfeit = forfeit or Forfeit(seat, "error", number, error=_CHANGED_STATE)
            if forfeit is not None:
                break
            try:
                move = cast(Move, answer) if trusted[seat] else _rebuilt(answer)
            except _NotAMove as error:
                forfeit = Forfeit(seat, "not_a_move", number, error=str(error))
                break
            try:
                after = state.apply(move)
            except IllegalMoveError as error:
                forfeit = Forfeit(seat, "illegal_move", number, move, error.result.violations)
                break
            moves.append(move)
            self.state = after
            yield state, move
            state = after
        self.forfeit = forfeit

    def done(self) -> GameDone:
        """The game's JSON line and summary, as it stands."""
        return _done(self.settings, self.spec, self.state, self.played, self.forfeit)

    def record(self) -> GameRecord:
        """The game record as the line holds it: the legal moves played, and after an
        illegal move that move (so that replaying it stops there with the same
        verdict)."""
        return GameRecord.from_dict(_record(self.settings, self.spec, self.played, self.forfeit))


def _build_bots(
    spec: GameSpec, factories: tuple[BotFactory, ...]
) -> tuple[list[Bot], Forfeit | None]:
    """Each seat's bot, built with its seat seed; or the forfeit of the first seat whose
    factory raised."""
    bots: list[Bot] = []
    for seat, bot_index in enumerate(spec.seats):
        try:
            with _same_process():
                bots.append(build_bot(factories[bot_index], spec.bot_seeds[seat]))
        except BaseException as error:
            if not _is_bot_failure(error):
                raise
            return bots, Forfeit(seat, "error", 1,
                                 error=f"building the bot: {_error_text(error)}")  # fmt: skip
    return bots, None


def _is_own_bot(bot: object) -> bool:
    """True for the library's own bots (exactly :class:`~azul_rules.core.bots.RandomBot` and
    :class:`~azul_rules.core.bots.GreedyBot`): they return the referee's own moves and leave
    the state alone, so their moves skip the checks of a stranger's (a third of a
    random game's time)."""
    kind = type(bot)
    return kind is RandomBot or kind is GreedyBot


_CHANGED_STATE: Final = (
    "changed the state it was given (with object.__setattr__ on the immutable GameState "
    "or one of its parts): the game stops at the position before this move"
)


_Snapshot = tuple[tuple[object, type, tuple[object, ...]], ...]


def _snapshot(state: GameState) -> _Snapshot | None:
    """Every object of the state a bot could change, each with its class and its parts
    (the very objects its fields hold); ``None`` when they cannot be read: the state,
    its round, each board and each of its pattern lines, the outcome and the record of
    the last tiling with its players' parts.  Taken before a bot's turn: a bot that
    changes the state it is given (``object.__setattr__`` on the frozen state or one of
    its parts -- to cheat, or a "do and undo" search that forgets to undo) would
    otherwise change the referee's game without a move; and as the boards of a new game
    are one shared object, and a pattern line one of a few shared ones, every later
    game in the process too."""
    try:
        return tuple((part, type(part), _parts(part)) for part in _objects(state))
    except Exception:
        return None


def _objects(state: GameState) -> list[object]:
    """The attrs objects a state is made of, the shared ones among them."""
    context = state.context
    found: list[object] = [state, context]
    for board in state.players:
        found.append(board)
        found.extend(board.pattern_lines)
    if context.outcome is not None:
        found.append(context.outcome)
    scoring = context.last_scoring
    if scoring is not None:
        found.append(scoring)
        for tiling in scoring.players:
            found.append(tiling)
            if tiling.bonuses is not None:
                found.append(tiling.bonuses)
    return found


_GETTERS: Final[dict[type, Callable[[object], tuple[object, ...]]]] = {}


def _parts(value: object) -> tuple[object, ...]:
    """Every attrs field of ``value`` (whatever its class: the core's classes may
    change), in field order."""
    kind: Any = type(value)
    getter = _GETTERS.get(kind)
    if getter is None:
        getter = _GETTERS[kind] = operator.attrgetter(*(f.name for f in attrs.fields(kind)))
    parts: tuple[object, ...] = getter(value)
    return parts


def _changed(before: _Snapshot | None) -> bool:
    """True when an object of ``before`` no longer holds its parts (unchanged, they are
    the same objects, so the comparison stops at identity; a part put there by a bot
    may compare in any way, or raise)."""
    if before is None:
        return True
    try:
        return any(type(obj) is not kind or _parts(obj) != parts for obj, kind, parts in before)
    except Exception:
        return True


def _restore(before: _Snapshot | None, settings: Settings, spec: GameSpec,
             moves: list[Move]) -> GameState:  # fmt: skip
    """Put back every part a bot changed (the objects may be shared with later games),
    and return the game's state before the bot's turn, computed again from the deal."""
    for obj, kind, parts in before or ():
        with contextlib.suppress(Exception):
            if type(obj) is not kind:
                object.__setattr__(obj, "__class__", kind)
            for field, value in zip(attrs.fields(cast(Any, kind)), parts, strict=True):
                object.__setattr__(obj, field.name, value)
    state = new_game(settings.players, seed=spec.seed, variant=settings.variant)
    for move in moves:
        state = state.apply(move)
    return state


class _NotAMove(Exception):
    """A bot's answer that is not a move; the message says what it is."""


def _rebuilt(answer: object) -> Move:
    """The bot's move, built again through its constructor, which checks every part
    (the referee's own move types only, exactly: a subclass may redefine equality or
    hashing, and an object made with ``object.__new__`` may hold anything).  Raises
    :class:`_NotAMove` saying what the answer is."""
    kind = type(answer)
    if not any(kind is t for t in _MOVE_TYPES):
        name = _type_name(answer)
        base = next((t.__name__ for t in _MOVE_TYPES if issubclass(kind, t)), None)
        if base is not None:
            raise _NotAMove(f"not a move: a {name}, a subclass of {base} (return the "
                            "library's own Take, TableTake, PlaceTile or Refill)")  # fmt: skip
        raise _NotAMove(f"not a move: a {name} (expected Take, TableTake, PlaceTile or Refill)")
    try:
        if kind is Take:  # the hot path
            take: Take = answer  # type: ignore[assignment]
            return Take(take.source, take.color, take.line, player=take.player)
        rebuilt: Move = attrs.evolve(cast(Move, answer))
        return rebuilt
    except Exception as error:  # FormatError, or whatever a part's repr raised
        raise _NotAMove(
            f"not a move: a {_type_name(answer)} whose parts its constructor refuses "
            f"({_error_text(error)})"
        ) from None


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
        last = _written(forfeit.move)
        if last is not None:
            doc["moves"].append(last)
    return doc


def _written(move: Move) -> object:
    """An illegal move as a record writes it, when JSON text can hold it (no number past
    4,300 digits) and a record reads it back as the same move; ``None`` otherwise."""
    try:
        doc = GameRecord((move,)).to_dict()["moves"][0]
        json.dumps(doc)  # ValueError for an integer past 4,300 digits
        back = GameRecord.from_dict({**GameRecord().to_dict(), "moves": [doc]}).moves
        return doc if back == (move,) else None
    except (FormatError, TypeError, ValueError):
        return None


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
    if forfeit.move is not None:  # as in its record (notation, else JSON), or as text
        move = _written(forfeit.move)
        if move is None:
            move = shown(forfeit.move, _ERROR_TEXT_LIMIT)
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
    imported here raises :class:`azul_rules.core.bots.BotSpecError` (the batch is lost, not
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
