"""Playing a whole game at the page: the work of ``POST /api/v1/new-game`` and ``POST
/api/v1/record``, without HTTP (as :mod:`azul_rules.web.judge` does for the others; a
bot's move is ``POST /api/v1/bot``, :func:`azul_rules.web.judge.bot_move`).

A game played at the page is its settings (``players``, ``seed``, ``variant``: the
arguments of :func:`~azul_rules.new_game`) and its moves; each request carries them
all (the service keeps nothing between requests).  ``new-game`` deals the first
position (S1-S7, R1); ``record`` re-referees the moves played (every one must
be legal) and answers the game's record as the library writes it
(:class:`~azul_rules.GameRecord`, readable by ``azul-rules replay``) with the notation
of every position reached, so that each can be linked (``/?position=...``).  Both are
bounded: at most :data:`MAX_GAME_MOVES` moves, seeds from 0 to :data:`MAX_SEED`.
"""

from __future__ import annotations

from typing import Any, Final

from azul_rules.core.moves import Move, Take
from azul_rules.core.state import new_game as deal
from azul_rules.formats.jsonio import to_dict
from azul_rules.formats.jsontext import MAX_REPORTED
from azul_rules.formats.notation import to_notation
from azul_rules.formats.record import GameRecord
from azul_rules.web.errors import ApiProblem, unreadable
from azul_rules.web.judge import read_move, read_request, violation_document
from azul_rules.web.words import describe, say

__all__ = ["MAX_GAME_MOVES", "MAX_SEED", "VARIANTS", "new_game", "record"]

MAX_SEED: Final = 2**53 - 1
"""The largest seed of a game dealt here: every seed from 0 to 2⁵³ − 1 is an integer
exact in any JSON reader (a JavaScript number included), so that the page carries it
without losing a digit."""

MAX_GAME_MOVES: Final = 1000
"""The most moves of a game played here.  Games between random bots end within some 230
moves, people's and greedy bots' sooner; a longer list is no game played at a page."""

VARIANTS: Final = ("colored", "grey")
"""The walls a game is played on: the coloured wall, or the grey one (V1-V5)."""

Document = dict[str, Any]

_SETTINGS: Final = {"players": True, "seed": False, "variant": False}


def _integer(doc: Document, key: str, low: int, high: int, lang: str) -> int:
    value = doc[key]
    if type(value) is not int or not low <= value <= high:
        problem = say("integer_range", lang, low=low, high=high, kind=describe(value, lang))
        raise unreadable([{"path": f"$.{key}", "problem": problem}], lang)
    return value


def _variant(doc: Document, lang: str) -> str:
    value = doc["variant"]
    if value not in VARIANTS:
        problem = say("variant", lang, kind=describe(value, lang))
        raise unreadable([{"path": "$.variant", "problem": problem}], lang)
    return str(value)



def _moves(doc: Document, lang: str) -> list[Move]:
    """``moves``: an array of at most :data:`MAX_GAME_MOVES` moves or notations; every
    unreadable one at once (up to the 50 reported)."""
    value = doc["moves"]
    if not isinstance(value, list):
        problem = say("not_moves", lang, kind=describe(value, lang))
        raise unreadable([{"path": "$.moves", "problem": problem}], lang)
    if len(value) > MAX_GAME_MOVES:
        problem = say("too_many_moves", lang, limit=MAX_GAME_MOVES, count=len(value))
        raise unreadable([{"path": "$.moves", "problem": problem}], lang)
    moves: list[Move] = []
    errors: list[dict[str, object]] = []
    for index, entry in enumerate(value):
        try:
            moves.append(read_move(entry, f"$.moves[{index}]", lang))
        except ApiProblem as problem:
            errors.extend(problem.errors)
            if len(errors) >= MAX_REPORTED:
                break
    if errors:
        raise unreadable(errors[:MAX_REPORTED], lang)
    return moves


def _settings(raw: bytes, lang: str, **more: bool) -> tuple[Document, dict[str, Any], Any]:
    """The request's game settings (``players`` 2-4, ``seed`` 0 by default, ``variant``
    ``"colored"`` by default) and the reader of its other members (``more``)."""
    doc, gathered = read_request(raw, {**_SETTINGS, **more}, lang)
    lang = gathered.lang
    settings: dict[str, Any] = {
        "players": gathered.read(doc, "players", lambda: _integer(doc, "players", 2, 4, lang)),
        "seed": gathered.read(doc, "seed", lambda: _integer(doc, "seed", 0, MAX_SEED, lang)),
        "variant": gathered.read(doc, "variant", lambda: _variant(doc, lang)),
    }
    settings["seed"] = settings["seed"] or 0
    settings["variant"] = settings["variant"] or "colored"
    return doc, settings, gathered


def new_game(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/new-game``: the first position of a game (S1-S7: the factories
    filled from the seeded bag, the first player drawn from the seed), as a document
    and as its notation (docs/notation.md)."""
    _, settings, gathered = _settings(raw, lang)
    gathered.done()
    state = deal(**settings)
    return {**settings, "state": to_dict(state), "position": to_notation(state)}


def record(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/record``: the record of a game played from ``new_game`` settings,
    every move refereed (a 422 ``illegal-move`` names the first illegal one by its
    ``number``, from 1), as the library writes it (``record``, ``text``), with the
    notation of each position reached, the start included (``positions``)."""
    doc, settings, gathered = _settings(raw, lang, moves=True)
    lang = gathered.lang
    moves = gathered.read(doc, "moves", lambda: _moves(doc, lang))
    gathered.done()
    assert moves is not None
    game = GameRecord(tuple(moves), **settings)
    played = game.replay()
    if played.failure is not None and played.failed_at is not None:
        raise _illegal(played.failed_at, moves[played.failed_at], played.failure.violations, lang)
    final = played.final
    outcome = final.outcome
    return {
        "record": game.to_dict(),
        "text": game.to_json(),
        "positions": [to_notation(state) for state in played.states],
        "game_over": final.is_over,
        "outcome": None if outcome is None else {
            "winners": list(outcome.winners), "scores": list(outcome.scores)},
    }  # fmt: skip


def _illegal(index: int, move: Move, violations: Any, lang: str) -> ApiProblem:
    """422 ``illegal-move`` for move ``index`` (from 0) of a game: its ``number`` (from
    1), the move, its notation and every violation."""
    first = violations[0]
    message = say("violation", lang, code=first.code.value, rule=first.rule,
                  message=first.message_in(lang))  # fmt: skip
    notation = str(move) if type(move) is Take and move.player is None else None
    return ApiProblem(
        "illegal-move",
        say("illegal_game_move", lang, number=index + 1, message=message),
        lang=lang,
        extra={
            "number": index + 1,
            "move": to_dict(move),
            "notation": notation,
            "violations": [violation_document(v, lang) for v in violations],
        },
    )

