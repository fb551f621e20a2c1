"""Believing a game line read back from a tournament's file (``--resume``): a line counts
only as far as its record replays.

The record is read as ``azul-rules replay FILE --game N`` reads it (every problem at its
path under ``$.record``); it must start from the game's deal, as the schedule gives it;
then it is replayed, and the line's ``result`` must be the one the referee writes for
that game: how it ended (E1: ``finished`` when the record plays to the end; ``forfeit``
at a seat's failure; ``unfinished`` at the round cap), the winners and scores (E4, or
the boards' scores when it stopped), the round reached and the legal moves played; a
forfeit's seat (the seat to move), bot, move number and, after an illegal move, the move
and the referee's verdict (G1).  What cannot be replayed -- the text of a bot's error, an
illegal move no record can hold (a number past 4,300 digits) and its verdict's messages
-- is taken as written.  Anything else is refused with its JSON path, so that a hand-edited
or corrupted line never counts in the results table.

Replaying costs what the game cost to referee, once per line (a record holds at most
10,000 moves, a line at most 1 MiB).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, cast

from azul_rules.core.codes import ErrorCode
from azul_rules.core.errors import FormatError, InvalidStateError, Violation
from azul_rules.core.messages import LANGUAGES
from azul_rules.core.rulebook import rules
from azul_rules.core.shown import shown
from azul_rules.formats.jsontext import paths_under
from azul_rules.formats.record import MAX_RECORD_MOVES, GameRecord, Replay
from azul_rules.tournament.referee import Ending, GameSummary
from azul_rules.tournament.schedule import GameSpec
from azul_rules.tournament.settings import Settings, TournamentError

__all__ = ["checked_summary", "record_of", "same_json"]

LINE_FIELDS: Final = ("tournament", "game", "deal", "seed", "lineup", "bot_seeds", "result",
                      "record")  # fmt: skip
RESULT_FIELDS: Final = ("end", "winners", "scores", "rounds", "moves", "forfeit")
FORFEIT_FIELDS: Final = ("seat", "bot", "reason", "move_number", "move", "violations", "error")


class _Refused(Exception):
    """A part of the line that cannot be believed: its JSON ``path`` and why."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}")


def record_of(line: dict[str, Any]) -> GameRecord:
    """The game record a game line holds, read as a record file is read: its problems
    (``FormatError``, ``InvalidStateError``) at their places under ``$.record``."""
    with paths_under("$.record"):
        return GameRecord.from_dict(line["record"])


def checked_summary(line: dict[str, Any], settings: Settings, where: str) -> GameSummary:
    """The summary of a game line (its ``tournament`` header already checked) that is
    the schedule's game at its index and whose result its record replays to; otherwise
    :class:`TournamentError` naming ``where`` (the file and line) and the JSON path."""
    try:
        return _checked(line, settings, where)
    except _Refused as refusal:
        raise TournamentError(f"{where}: {refusal}") from None


def _checked(line: dict[str, Any], settings: Settings, where: str) -> GameSummary:
    _has_fields(line, LINE_FIELDS, "$")
    spec = _scheduled(line, settings, where)
    record = _started_by_its_deal(line, settings, spec)
    replay = record.replay()
    result = line["result"]
    if not isinstance(result, dict):
        raise _Refused("$.result", f"expected an object, got {shown(result)}")
    _has_fields(result, RESULT_FIELDS, "$.result")
    expected = _result(result, record, replay, settings, spec)
    _expect(result, expected, "$.result")
    forfeit = expected["forfeit"]
    return GameSummary(
        spec.index, spec.seats, cast(Ending, expected["end"]), tuple(expected["winners"]),
        tuple(expected["scores"]), None if forfeit is None else forfeit["seat"],
    )  # fmt: skip


def _has_fields(doc: dict[str, Any], fields: Sequence[str], path: str) -> None:
    """Exactly ``fields``, as the record reader wants exactly its own."""
    for field in fields:
        if field not in doc:
            raise _Refused(f"{path}.{field}", "required field missing")
    for key in doc:
        if key not in fields:
            raise _Refused(f"{path}.{_key(key)}", "unknown field")


def _key(key: str) -> str:
    return key if key.isidentifier() and len(key) <= 40 else shown(key)


def _scheduled(line: dict[str, Any], settings: Settings, where: str) -> GameSpec:
    """The schedule's game at the line's index, with its seed, lineup, deal and bot
    seeds."""
    index = line["game"]
    limit = settings.max_games()
    if type(index) is not int or not 0 <= index < (limit if limit is not None else 1 << 63):
        raise TournamentError(f"{where}: \"game\" is not a game number of this schedule")
    spec = settings.spec(index)
    names = settings.names
    lineup = [names[b] for b in spec.seats]
    if not (same_json(line["seed"], spec.seed) and same_json(line["lineup"], lineup)):
        raise TournamentError(
            f"{where}: game {index} has seed {shown(line['seed'])} and lineup "
            f"{shown(line['lineup'])}, but these settings give seed {spec.seed} and lineup "
            f"{lineup}"
        )
    given = f"but game {index} of these settings has"
    _expect(line["deal"], spec.deal, "$.deal", given)
    _expect(line["bot_seeds"], list(spec.bot_seeds), "$.bot_seeds", given)
    return spec


def _started_by_its_deal(line: dict[str, Any], settings: Settings, spec: GameSpec) -> GameRecord:
    """The line's record, read as ``replay --game N`` reads it, starting from the deal
    of game ``spec`` (a new game of the settings, on the game's seed)."""
    try:
        record = record_of(line)
    except FormatError as error:
        raise _Refused(*error.errors[0]) from None
    except InvalidStateError:  # only an initial state can be impossible
        record = None
    if record is None or record.initial_state is not None:
        raise _Refused("$.record.initial_state",
                       "a tournament game starts from its deal (new_game), not from a position")
    given = f"but game {spec.index} of these settings has"
    _expect(record.players, settings.players, "$.record.players", given)
    _expect(record.seed, spec.seed, "$.record.seed", given)
    _expect(record.variant.value, settings.variant.value, "$.record.variant", given)
    _expect(record.first_player, None, "$.record.first_player", given)
    _expect(record.external_draws, False, "$.record.external_draws", given)
    return record


def _result(result: dict[str, Any], record: GameRecord, replay: Replay, settings: Settings,
            spec: GameSpec) -> dict[str, Any]:  # fmt: skip
    """The result the referee writes for the game ``record`` replays to (E1, E4); a
    forfeit's unverifiable parts taken from the line's ``result``."""
    legal = len(replay.states) - 1
    final = replay.final
    _within_the_cap(record, replay, settings)
    common = {"rounds": final.round, "moves": legal}
    if final.outcome is not None:
        if replay.failed_at is not None:
            raise _Refused(f"$.record.moves[{replay.failed_at}]",
                           f"a move after the end of the game ({_codes(replay)})")
        return {"end": "finished", "winners": list(final.outcome.winners),
                "scores": list(final.outcome.scores), **common, "forfeit": None}  # fmt: skip
    scores = [board.score for board in final.players]
    capped = final.round > settings.max_rounds or legal == MAX_RECORD_MOVES
    if capped:
        return {"end": "unfinished", "winners": [], "scores": scores, **common,
                "forfeit": None}  # fmt: skip
    forfeit = _forfeit(result["forfeit"], record, replay, settings, spec)
    if forfeit is None:
        raise _Refused(
            "$.result.end",
            f"{shown(result['end'])}, but its record stops in round {final.round} with the "
            f"game going on (not over, the round cap {settings.max_rounds} not reached) and "
            "no forfeit",
        )
    winners = [seat for seat in range(settings.players) if seat != forfeit["seat"]]
    return {"end": "forfeit", "winners": winners, "scores": scores, **common,
            "forfeit": forfeit}  # fmt: skip


def _within_the_cap(record: GameRecord, replay: Replay, settings: Settings) -> None:
    """Every move of the record was asked for before the round cap (the referee asks
    for none after it)."""
    if not record.moves:
        return
    # the state each move was asked in: the last legal move's, or the illegal move's
    asked = replay.states[-1] if replay.failed_at is not None else replay.states[-2]
    if asked.round > settings.max_rounds:
        raise _Refused(
            f"$.record.moves[{len(record.moves) - 1}]",
            f"played in round {asked.round}, past the round cap ({settings.max_rounds})",
        )
    if replay.failed_at is not None and replay.failed_at != len(record.moves) - 1:
        raise _Refused(
            f"$.record.moves[{replay.failed_at}]",
            f"an illegal move ({_codes(replay)}) with moves after it: a game ends at its "
            "first illegal move",
        )


def _codes(replay: Replay) -> str:
    failure = replay.failure
    return ", ".join(f"{v.code.value} ({v.rule})" for v in failure.violations) if failure else ""


def _forfeit(claimed: object, record: GameRecord, replay: Replay, settings: Settings,
             spec: GameSpec) -> dict[str, Any] | None:  # fmt: skip
    """The forfeit the referee writes for a game its record replays to without an end:
    the seat to move (any seat for a factory that failed before the first move), its
    bot, the next move's number; after an illegal move, that move and its verdict.
    ``None`` when the line claims none and the record does not end with an illegal
    move."""
    legal = len(replay.states) - 1
    if claimed is None:
        if replay.failure is None:
            return None
        raise _Refused("$.result.forfeit",
                       f"None, but its record ends with an illegal move (move {legal + 1})")
    if not isinstance(claimed, dict):
        raise _Refused("$.result.forfeit", f"expected an object, got {shown(claimed)}")
    _has_fields(claimed, FORFEIT_FIELDS, "$.result.forfeit")
    seat = replay.final.current_player
    building = legal == 0 and claimed["reason"] == "error"  # a factory fails for any seat
    if building and type(claimed["seat"]) is int and 0 <= claimed["seat"] < settings.players:
        seat = claimed["seat"]
    expected: dict[str, Any] = {
        "seat": seat, "bot": settings.names[spec.seats[seat]], "reason": claimed["reason"],
        "move_number": legal + 1, "move": None, "violations": [], "error": claimed["error"],
    }  # fmt: skip
    if replay.failure is not None:
        expected.update(reason="illegal_move", move=_move_doc(record.moves[-1]), error=None,
                        violations=_verdict(replay.failure.violations, claimed, settings))
    else:
        _unreplayed(claimed, expected, settings)
    return expected


def _unreplayed(claimed: dict[str, Any], expected: dict[str, Any], settings: Settings) -> None:
    """A forfeit the record cannot show (the bot's move was never written): its reason
    must be one the referee gives, its text the referee's own where it writes one."""
    reason = claimed["reason"]
    reasons = ["illegal_move", "not_a_move", "error"]
    if settings.time_limit is not None:
        reasons.append("time_limit")
    if reason not in reasons:
        raise _Refused("$.result.forfeit.reason",
                       f"{shown(reason)} is not a reason to forfeit: {', '.join(reasons)}")
    if reason == "time_limit":
        expected["error"] = f"no move within the time limit of {settings.time_limit} s"
    elif reason == "illegal_move":  # a move no record can hold (a number past 4,300 digits)
        expected.update(error=None, move=claimed["move"], violations=claimed["violations"])
        if not isinstance(claimed["move"], str) or not _violations(claimed["violations"]):
            raise _Refused("$.result.forfeit",
                           "an illegal move its record does not hold is written as text, "
                           "with the referee's violations (code, rule, message)")
    elif not isinstance(claimed["error"], str) or (
        reason == "not_a_move" and not claimed["error"].startswith("not a move: ")
    ):
        raise _Refused("$.result.forfeit.error",
                       f"{shown(claimed['error'])} is not the text of a forfeit for {reason}")


def _violations(found: object) -> bool:
    """A non-empty list of ``{"code", "rule", "message"}`` objects: an error code, a rule
    of the book, a message."""
    return isinstance(found, list) and bool(found) and all(
        isinstance(v, dict) and set(v) == {"code", "rule", "message"}
        and all(isinstance(text, str) for text in v.values())
        and v["code"] in _CODES and v["rule"] in _RULE_IDS
        for v in found
    )  # fmt: skip


_CODES: Final = frozenset(code.value for code in ErrorCode)
_RULE_IDS: Final = frozenset(entry.id for entry in rules())


def _verdict(violations: Sequence[Violation], claimed: dict[str, Any],
             settings: Settings) -> list[dict[str, str]]:  # fmt: skip
    """The referee's verdict on the illegal move, each message in the language the line
    was written in (a file may be continued in another: ``--lang``) when it is one of
    them, else in this run's."""
    said = claimed["violations"]
    docs = []
    for i, violation in enumerate(violations):
        found = said[i] if isinstance(said, list) and i < len(said) else None
        message = found.get("message") if isinstance(found, dict) else None
        known = [violation.message_in(lang) for lang in LANGUAGES]
        if not (isinstance(message, str) and message in known):
            message = violation.message_in(settings.lang)
        docs.append({"code": violation.code.value, "rule": violation.rule, "message": message})
    return docs


def _move_doc(move: object) -> object:
    """A move as the referee writes it in a forfeit (and the record holds it)."""
    return GameRecord((move,)).to_dict()["moves"][0]  # type: ignore[arg-type]


def _expect(found: object, expected: object, path: str,
            source: str = "but its record replays to") -> None:  # fmt: skip
    """Refuse ``found`` unless it is ``expected`` as JSON values are equal (``true`` is
    not ``1``, nor ``1.0``), naming the first field of an object that differs."""
    if isinstance(expected, dict) and isinstance(found, dict) and set(found) == set(expected):
        for key, value in expected.items():
            _expect(found[key], value, f"{path}.{key}", source)
        return
    if not same_json(found, expected):
        raise _Refused(path, f"{shown(found)}, {source} {shown(expected)}")


def same_json(a: object, b: object) -> bool:
    """Equal as JSON values: objects (of any ``dict`` class: the strict reader's own)
    with the same keys, arrays of the same length, and values of one type all the way
    down (``true`` is not ``1``, nor ``1.0``)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys()
                and all(same_json(a[k], b[k]) for k in a))  # fmt: skip
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(same_json(x, y) for x, y in zip(a, b, strict=True)))  # fmt: skip
    return type(a) is type(b) and a == b
