"""The web judge's work: one function per endpoint, from a request body to a reply.

Each function takes the raw body (``bytes``, at most :data:`MAX_BODY_BYTES`, already
counted by the HTTP layer) and returns JSON-ready data (``render``: an SVG document), or
raises :class:`~azul_rules.web.errors.ApiProblem`.  Nothing here is validated twice:
bodies are parsed by :func:`azul_rules.formats.jsontext.load` (size, repeated keys, integer
digits, nesting), positions by ``az.from_dict``, moves by ``az.move_from_dict`` and
``az.parse_move``, records by ``GameRecord.from_dict``, claims and scoresheets by their
readers; their errors only have their JSON paths moved under the request's member
(``$.players[1]`` of the ``state`` is ``$.state.players[1]``).  Standard library and the
core only: no web framework is imported here.

Every request is a JSON object holding everything the answer depends on (the service
keeps no state between requests) and an optional ``lang`` (``"en"``, ``"fr"``...) for the
messages, the rule texts and the problems' titles and details; each endpoint's ``lang``
argument is the language when the body gives none (the request's ``?lang=``, else
``"en"``), and the language of the refusals of a body whose own ``lang`` cannot be read.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from azul_rules.adjudication.auditing import audit as audit_claim
from azul_rules.adjudication.auditing import position_from_json
from azul_rules.adjudication.claims import claim_from_dict
from azul_rules.adjudication.scoresheet import audit_game as audit_sheet
from azul_rules.adjudication.scoresheet import scoresheet_from_dict
from azul_rules.ai.actions import action_id
from azul_rules.core.bots import BUILT_IN_BOTS
from azul_rules.core.colors import Color, Marker
from azul_rules.core.effects import move_effect
from azul_rules.core.effects import move_notation as _notation
from azul_rules.core.errors import FormatError, InvalidStateError, Problem, Result, Violation
from azul_rules.core.messages import phase_name
from azul_rules.core.moves import Move, parse_move
from azul_rules.core.phases import Phase
from azul_rules.core.rulebook import LANGUAGES, SECTIONS, rule, rules, section_title
from azul_rules.core.scoring import Outcome
from azul_rules.core.state import GameState
from azul_rules.formats.jsonio import from_dict, move_from_dict, to_dict
from azul_rules.formats.jsontext import MAX_REPORTED, check_shape, load, member_path, repeated_keys
from azul_rules.formats.notation import to_notation
from azul_rules.formats.record import MAX_RECORD_MOVES, GameRecord
from azul_rules.formats.serialization import position_as_typed
from azul_rules.formats.unseen import complete_unseen
from azul_rules.svg import Audit, Highlight, board
from azul_rules.web.errors import (
    ApiProblem,
    from_format_error,
    from_invalid_state,
    library_entry,
    problem_entry,
    rebased,
    rule_fields,
    unreadable,
)
from azul_rules.web.words import choices, describe, say, short

__all__ = [
    "MAX_BODY_BYTES",
    "apply",
    "audit",
    "audit_game",
    "check",
    "legal_moves",
    "problems",
    "render",
    "replay",
    "rule_document",
    "rules_document",
]

MAX_BODY_BYTES: Final = 256 * 1024
"""The largest request body read, in bytes (256 KiB): a position takes about 2 KB, a
whole recorded game in notation a few KB."""

MIN_PICTURE_SIZE: Final = 64
MAX_PICTURE_SIZE: Final = 4096
"""The widths, in px, a picture may be asked for (``render``'s ``size``)."""

T = TypeVar("T")
Document = dict[str, Any]


# -- reading a request ---------------------------------------------------------------------


def read_request(
    raw: bytes, fields: Mapping[str, bool], default_lang: str = "en"
) -> tuple[Document, _Gathered]:
    """The request body as a JSON object whose members are ``fields`` (name: required),
    and a :class:`_Gathered` in its language (its ``lang`` member, else
    ``default_lang``) holding every problem of the envelope — a wrong ``lang``, a
    repeated, unknown or missing member — so that the endpoint goes on to read the
    members it knows and reports all the problems at once (400).  A body that is not a
    JSON object is refused at once, in ``default_lang``."""
    try:
        doc = load(raw)
    except FormatError as error:
        raise from_format_error(error, "$", default_lang) from None
    if not isinstance(doc, dict):
        names = ", ".join(f'"{name}"' for name in fields)
        problem = say("not_object", default_lang, names=names, kind=describe(doc, default_lang))
        raise unreadable([{"path": "$", "problem": problem}], default_lang)
    errors: list[dict[str, object]] = []
    lang = doc.get("lang", default_lang)
    if lang not in LANGUAGES:
        kind = describe(lang, default_lang)
        errors.append({"path": "$.lang", "problem": say("bad_lang", default_lang, kind=kind,
                                                       choices=choices(default_lang, '"{}"'))})
        lang = default_lang
    gathered = _Gathered(lang)
    for key in repeated_keys(doc):
        gathered.unread.add(key)  # which of its values was meant is unknown
        errors.append({"path": short(member_path("$", key)), "problem": say("given_twice", lang)})
    unknown = say("unknown_member", lang, known=", ".join(fields))
    for key in list(doc)[: MAX_REPORTED + 1]:
        if key not in fields and key != "lang":
            errors.append({"path": short(member_path("$", key)), "problem": unknown})
    for name, required in fields.items():
        if required and name not in doc:
            errors.append({"path": f"$.{name}", "problem": say("missing_member", lang)})
    gathered.errors.extend(errors)
    return doc, gathered


def query_language(params: Mapping[str, str]) -> str:
    """The ``lang`` query parameter (``"en"`` when absent); a 400, in English, for a
    value other than ``en`` or ``fr``."""
    lang = params.get("lang", "en")
    if lang not in LANGUAGES:
        shown = short(json.dumps(lang, ensure_ascii=False), 40)
        problem = say("bad_query_lang", "en", shown=shown, choices=choices("en"))
        raise unreadable([{"path": "?lang", "problem": problem}], "en")
    return lang


class _Gathered:
    """Reads the members of a request one by one, so that every problem of the envelope
    and every unreadable member is reported in one 400 (and an impossible position,
    422, only when everything is readable)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.errors: list[dict[str, object]] = []
        self.impossible: ApiProblem | None = None
        self.unread: set[str] = set()  # members given twice: not read further

    def read(self, doc: Document, key: str, reader: Callable[[], T]) -> T | None:
        """``reader()`` when ``doc`` has the member ``key`` (once); its 400 is gathered."""
        if key not in doc or key in self.unread:
            return None
        try:
            return reader()
        except ApiProblem as problem:
            if problem.status == 400:
                self.errors.extend(problem.errors)
            elif self.impossible is None:
                self.impossible = problem
            return None

    def done(self) -> None:
        if self.errors:
            raise unreadable(self.errors[:MAX_REPORTED], self.lang)
        if self.impossible is not None:
            raise self.impossible


def _state(doc: Document, lang: str, key: str = "state") -> GameState:
    try:
        return from_dict(doc[key], GameState)
    except FormatError as error:
        raise from_format_error(error, f"$.{key}", lang) from None
    except InvalidStateError as error:
        raise from_invalid_state(error, f"$.{key}", lang) from None


def _offer_end_position(doc: Document, lang: str) -> GameState:
    """A position an audit starts from: the factory offer may have just ended."""
    value = doc["state"]
    try:
        check_shape(value)  # repeated keys are seen here; the text below no longer has them
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return position_from_json(text)
    except FormatError as error:
        raise from_format_error(error, "$.state", lang) from None
    except InvalidStateError as error:
        raise from_invalid_state(error, "$.state", lang) from None


def _typed_position(doc: Document, lang: str) -> tuple[GameState, tuple[Problem, ...]]:
    """The position a picture is asked of, as typed, and why it cannot exist (nothing
    when it can): a table being built is drawn with its problems beside it.  400 for
    what cannot be read, 422 for a position that cannot be drawn as typed."""
    value = doc["state"]
    try:
        check_shape(value)
        state, problems = position_as_typed(value)
    except FormatError as error:
        raise from_format_error(error, "$.state", lang) from None
    except InvalidStateError as error:
        raise from_invalid_state(error, "$.state", lang) from None
    return state, problems


def _move(doc: Document, lang: str, key: str = "move") -> Move:
    return read_move(doc[key], f"$.{key}", lang)


def read_move(value: object, path: str, lang: str) -> Move:
    """A move given as notation (``"3B2"``) or as a JSON move at ``path``; 400 naming
    ``path`` otherwise."""
    try:
        if isinstance(value, str):
            return parse_move(value)
        if isinstance(value, dict):
            return move_from_dict(value)
    except FormatError as error:
        raise from_format_error(error, path, lang) from None
    problem = say("not_a_move", lang, kind=describe(value, lang))
    raise unreadable([{"path": path, "problem": problem}], lang)


def _record(doc: Document, lang: str) -> GameRecord:
    try:
        return GameRecord.from_dict(doc["record"])
    except FormatError as error:
        raise from_format_error(error, "$.record", lang) from None
    except InvalidStateError as error:
        raise from_invalid_state(error, "$.record", lang) from None


def _read_with(reader: Callable[[object], T], doc: Document, key: str, lang: str) -> T:
    """A claim or a scoresheet: the library's shape check, then its reader."""
    try:
        check_shape(doc[key])
        return reader(doc[key])
    except FormatError as error:
        raise from_format_error(error, f"$.{key}", lang) from None


def _integer(doc: Document, key: str, low: int, high: int, lang: str) -> int | None:
    value = doc.get(key)
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        problem = say("integer_range", lang, low=low, high=high, kind=describe(value, lang))
        raise unreadable([{"path": f"$.{key}", "problem": problem}], lang)
    return value


def _seat(doc: Document, state: GameState | None, lang: str) -> int | None:
    """``render``'s ``player``: a seat of ``state`` (0 to its players - 1), or of any
    game (0 to 3) when the position could not be read."""
    value = doc.get("player")
    if state is not None and type(value) is int and value >= len(state.players):
        problem = say("player_range", lang, last=len(state.players) - 1, kind=describe(value, lang))
        raise unreadable([{"path": "$.player", "problem": problem}], lang)
    return _integer(doc, "player", 0, 3, lang)


def _layout(doc: Document, lang: str) -> str:
    """``render``'s ``layout``: ``"wide"`` (the default) or ``"narrow"`` (a phone's)."""
    value = doc.get("layout", "wide")
    if value not in ("wide", "narrow"):
        problem = say("layout", lang, kind=describe(value, lang))
        raise unreadable([{"path": "$.layout", "problem": problem}], lang)
    return str(value)


def _boolean(doc: Document, key: str, lang: str) -> bool:
    value = doc.get(key, False)
    if not isinstance(value, bool):
        problem = say("boolean", lang, kind=describe(value, lang))
        raise unreadable([{"path": f"$.{key}", "problem": problem}], lang)
    return value


# -- writing a reply -----------------------------------------------------------------------


def plain(value: object) -> object:
    """A violation's parameter as JSON: colours by name, the marker as ``"marker"``,
    other enumerations by value, tuples as arrays."""
    if isinstance(value, Color):
        return value.name.lower()
    if isinstance(value, Marker):
        return "marker"
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


def violation_document(violation: Violation, lang: str) -> Document:
    """One broken rule: ``code``, ``rule`` (its id, title and text) and ``message`` in
    ``lang``, and the figures of the case (``params``, indices from 0)."""
    return {
        **rule_fields(violation.code.value, violation.rule, lang),
        "message": violation.message_in(lang),
        "params": {name: plain(value) for name, value in violation.params},
    }


def _violations(result: Result | tuple[Violation, ...], lang: str) -> list[Document]:
    found = result.violations if isinstance(result, Result) else result
    return [violation_document(v, lang) for v in found]


def _move_document(move: Move) -> Document:
    return {"move": to_dict(move), "notation": _notation(move)}


def _notation_of(state: GameState) -> str | None:
    """The position's notation; ``None`` for one whose score passed 100 digits (a
    position built by hand), which no notation holds."""
    try:
        return to_notation(state)
    except ValueError:
        return None


def _outcome(outcome: Outcome | None) -> Document | None:
    if outcome is None:
        return None
    return {"winners": list(outcome.winners), "scores": list(outcome.scores)}


def _ended_round(before: GameState, after: GameState) -> bool:
    """True when the move from ``before`` to ``after`` finished a round's wall tiling."""
    return (
        after.last_scoring is not None
        and after.last_scoring != before.last_scoring
        and after.phase is not Phase.WALL_TILING
    )


# -- the endpoints -------------------------------------------------------------------------


def _state_and_move(raw: bytes, lang: str) -> tuple[GameState, Move, str]:
    """The ``state`` and ``move`` of a request that needs both, and its language; every
    unreadable member at once (400)."""
    doc, gathered = read_request(raw, {"state": True, "move": True}, lang)
    lang = gathered.lang
    state = gathered.read(doc, "state", lambda: _state(doc, lang))
    move = gathered.read(doc, "move", lambda: _move(doc, lang))
    gathered.done()
    assert state is not None and move is not None
    return state, move, lang


def check(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/check``: the verdict on ``move`` in ``state``; with
    ``infer_unseen``, a position typed without its bag, lid or marker holder is read with
    them inferred (:func:`~azul_rules.formats.unseen.complete_unseen`), and ``inferred``
    names the parts filled in."""
    fields = {"state": True, "move": True, "infer_unseen": False}
    doc, gathered = read_request(raw, fields, lang)
    lang = gathered.lang
    infer = gathered.read(doc, "infer_unseen", lambda: _boolean(doc, "infer_unseen", lang))
    read = gathered.read(doc, "state", lambda: _unseen_state(doc, lang, bool(infer)))
    move = gathered.read(doc, "move", lambda: _move(doc, lang))
    gathered.done()
    assert read is not None and move is not None
    state, inferred = read
    result = state.validate(move)
    return {
        "ok": result.ok,
        "lang": lang,
        **_move_document(move),
        "violations": _violations(result, lang),
        "effect": move_effect(state, move) if result.ok else None,
        "inferred": list(inferred),
    }


def _unseen_state(doc: Document, lang: str, infer: bool) -> tuple[GameState, tuple[str, ...]]:
    """The request's ``state``, its unseen parts inferred when ``infer`` (and which)."""
    if not infer:
        return _state(doc, lang), ()
    try:
        value, inferred = complete_unseen(doc["state"])
    except FormatError as error:
        raise from_format_error(error, "$.state", lang) from None
    return _state({"state": value}, lang), inferred


def legal_moves(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/legal-moves``: every legal compact move of ``state``, with its
    action id (``azul_rules.ai.actions``)."""
    doc, gathered = read_request(raw, {"state": True}, lang)
    state = gathered.read(doc, "state", lambda: _state(doc, gathered.lang))
    gathered.done()
    assert state is not None
    players = len(state.players)
    moves = [{**_move_document(m), "action": action_id(m, players)} for m in state.legal_moves()]
    return {
        "count": len(moves),
        "phase": state.phase.value,
        "current_player": state.current_player,
        "moves": moves,
    }


def apply(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/apply``: the position after ``move`` (422 ``illegal-move`` with the
    violations when it is illegal), and the wall tiling when the move ended a round."""
    state, move, lang = _state_and_move(raw, lang)
    result = state.validate(move)
    if not result.ok:
        first = result.violations[0]
        message = first.message_in(lang)
        detail = say("violation", lang, code=first.code.value, rule=first.rule, message=message)
        raise ApiProblem(
            "illegal-move",
            detail,
            lang=lang,
            extra={"move": to_dict(move), "violations": _violations(result, lang)},
        )
    after = state.apply(move)
    ended = _ended_round(state, after)
    scoring = to_dict(after).get("last_scoring") if ended else None
    return {
        "lang": lang,
        **_move_document(move),
        "state": to_dict(after),
        "position": _notation_of(after),
        "round_ended": ended,
        "last_scoring": scoring,
        "game_over": after.is_over,
        "outcome": _outcome(after.outcome),
    }


def position(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/position``: ``state`` (a document or a notation) in both forms,
    its one-line notation and its JSON document, so that a page can put a position into
    a link and read one back (S1-S5: only a position that can exist has them; a score
    past 100 digits, possible only by hand, has no notation: ``null``)."""
    doc, gathered = read_request(raw, {"state": True}, lang)
    state = gathered.read(doc, "state", lambda: _state(doc, gathered.lang))
    gathered.done()
    assert state is not None
    return {"position": _notation_of(state), "state": to_dict(state)}


def problems(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/problems``: every reason ``state`` cannot exist (an empty list
    when it can); 400 only when it cannot be read."""
    doc, gathered = read_request(raw, {"state": True}, lang)
    lang = gathered.lang
    read = gathered.read(doc, "state", lambda: _problems_of(doc["state"], lang))
    gathered.done()
    assert read is not None
    return {"possible": not read, "lang": lang, "problems": read}


def _problems_of(value: object, lang: str) -> list[Document]:
    """Every reason the position ``value`` cannot exist (none when it can); 400 when it
    cannot be read."""
    try:
        from_dict(value, GameState)
    except FormatError as error:
        raise from_format_error(error, "$.state", lang) from None
    except InvalidStateError as error:
        return [problem_entry(p, "$.state", lang) for p in error.problems]
    return []


def bot_move(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/bot``: the move a built-in bot (``greedy``, ``random``) chooses in
    ``state``; ``seed`` seeds the random bot.  422 when the position waits for no
    player's move (a refill, or the game is over)."""
    fields = {"state": True, "bot": True, "seed": False}
    doc, gathered = read_request(raw, fields, lang)
    lang = gathered.lang
    state = gathered.read(doc, "state", lambda: _state(doc, lang))
    name = gathered.read(doc, "bot", lambda: _bot_name(doc, lang))
    seed = gathered.read(doc, "seed", lambda: _integer(doc, "seed", 0, 2**63 - 1, lang))
    gathered.done()
    assert state is not None and name is not None
    if state.phase not in (Phase.FACTORY_OFFER, Phase.WALL_TILING) or not state.legal_moves():
        phase = phase_name(state.phase.value, lang)
        raise ApiProblem("no-move", say("bot_no_move", lang, phase=phase), lang=lang)
    bot = BUILT_IN_BOTS[name](seed or 0) if name == "random" else BUILT_IN_BOTS[name]()
    return _move_document(bot.choose(state))


def _bot_name(doc: Document, lang: str) -> str:
    value = doc["bot"]
    if isinstance(value, str) and value in BUILT_IN_BOTS:
        return value
    problem = say("unknown_bot", lang, bots=", ".join(sorted(BUILT_IN_BOTS)))
    raise unreadable([{"path": "$.bot", "problem": problem}], lang)


def audit(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/audit``: the mistakes of ``claim`` about the wall tiling that
    follows ``state`` (the position when the factory offer has just ended)."""

    doc, gathered = read_request(raw, {"state": True, "claim": True}, lang)
    lang = gathered.lang
    state = gathered.read(doc, "state", lambda: _offer_end_position(doc, lang))
    claim = gathered.read(doc, "claim", lambda: _read_with(claim_from_dict, doc, "claim", lang))
    gathered.done()
    assert state is not None and claim is not None
    try:
        result = audit_claim(state, claim)
    except FormatError as error:  # the claim does not fit the position
        raise _unfit(error, lang) from None
    return {"correct": result.ok, "lang": lang, "violations": _violations(result, lang)}


def _unfit(error: FormatError, lang: str) -> ApiProblem:
    """An audit's refusal: ``$.factories`` is the position's, anything else the claim's."""
    errors: list[dict[str, object]] = []
    for path, what in error.errors:
        under, other = ("$.state", "$.claim") if path.startswith("$.factories") else (
            "$.claim", "$.state")  # fmt: skip
        errors.append(library_entry(rebased(path, under), what, under, lang, unfit_with=other))
    return unreadable(errors, lang)


def audit_game(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/audit-game``: a whole game's ``scoresheet`` checked against its
    ``record``, round by round."""

    doc, gathered = read_request(raw, {"record": True, "scoresheet": True}, lang)
    lang = gathered.lang
    record = gathered.read(doc, "record", lambda: _record(doc, lang))
    sheet = gathered.read(
        doc, "scoresheet", lambda: _read_with(scoresheet_from_dict, doc, "scoresheet", lang)
    )
    gathered.done()
    assert record is not None and sheet is not None
    try:
        verdict = audit_sheet(record, sheet)
    except FormatError as error:  # the sheet does not fit the record
        errors = [
            library_entry(rebased(path, "$.scoresheet"), what, "$.scoresheet", lang,
                          unfit_with="$.record")
            for path, what in error.errors
        ]  # fmt: skip
        raise unreadable(errors, lang) from None
    illegal = None
    if verdict.failure is not None and verdict.failed_at is not None:
        illegal = {
            "number": verdict.failed_at + 1,
            **_move_document(record.moves[verdict.failed_at]),
            "violations": _violations(verdict.failure, lang),
        }
    return {
        "correct": verdict.ok,
        "lang": lang,
        "first_wrong": list(verdict.first_wrong) if verdict.first_wrong else None,
        "rounds": [
            {
                "round": r.round,
                "written": list(r.written),
                "correct": list(r.correct),
                "violations": _violations(r.violations, lang),
            }
            for r in verdict.rounds
        ],
        "end": _violations(verdict.end, lang),
        "final_scores": list(verdict.final_scores) if verdict.final_scores else None,
        "winners": list(verdict.winners) if verdict.winners is not None else None,
        "illegal_move": illegal,
    }


def render(raw: bytes, lang: str = "en") -> str:
    """``POST /api/v1/render``: the picture of ``state`` (SVG), with ``move`` and its
    verdict marked when given, or the last wall tiling's placements with ``tiling``
    (not both: a 400).
    A position whose factory offer has just ended is drawn too (what an audit is
    about), and so is a position that cannot exist, as it was typed (a table being
    built), when nothing is marked on it; ``POST /api/v1/problems`` says why."""
    fields = {"state": True, "move": False, "player": False, "size": False, "tiling": False,
              "claim": False, "layout": False}  # fmt: skip
    doc, gathered = read_request(raw, fields, lang)
    lang = gathered.lang
    typed = gathered.read(doc, "state", lambda: _typed_position(doc, lang))  # audits too
    state = None if typed is None else typed[0]
    move = gathered.read(doc, "move", lambda: _move(doc, lang))
    size = gathered.read(
        doc, "size", lambda: _integer(doc, "size", MIN_PICTURE_SIZE, MAX_PICTURE_SIZE, lang)
    )
    player = gathered.read(doc, "player", lambda: _seat(doc, state, lang))
    layout = gathered.read(doc, "layout", lambda: _layout(doc, lang))
    tiling = gathered.read(doc, "tiling", lambda: _boolean(doc, "tiling", lang))
    claim = gathered.read(doc, "claim", lambda: _read_with(claim_from_dict, doc, "claim", lang))
    if sum(x is not None and x is not False for x in (move, tiling, claim)) > 1:
        gathered.errors.append({"path": "$.tiling" if tiling else "$.claim",
                                "problem": say("move_and_tiling", lang)})  # fmt: skip
    gathered.done()
    assert typed is not None and state is not None
    marked = move is not None or bool(tiling) or claim is not None
    if typed[1] and marked:  # a verdict, a tiling or an audit needs a possible position
        raise from_invalid_state(InvalidStateError(typed[1]), "$.state", lang)
    highlight: Highlight | None = None
    if claim is not None:
        try:
            verdict = audit_claim(state, claim)
        except FormatError as error:  # the claim does not fit the position
            raise _unfit(error, lang) from None
        highlight = Audit(verdict, claim.scores)
    elif move is not None:
        highlight = (move, state.validate(move))
    elif tiling:
        if state.last_scoring is None:
            raise unreadable([{"path": "$.tiling", "problem": say("no_tiling", lang)}], lang)
        highlight = state.last_scoring
    arranged = layout or "wide"
    return str(
        board(state, player=player, highlight=highlight, lang=lang, size=size, layout=arranged)
    )


def replay(raw: bytes, lang: str = "en") -> Document:
    """``POST /api/v1/replay``: a recorded game re-refereed; the position after ``at``
    moves (0: the start), the moves, and the first illegal one if any."""
    doc, gathered = read_request(raw, {"record": True, "at": False}, lang)
    lang = gathered.lang
    record = gathered.read(doc, "record", lambda: _record(doc, lang))
    at = gathered.read(doc, "at", lambda: _integer(doc, "at", 0, MAX_RECORD_MOVES, lang))
    gathered.done()
    assert record is not None
    at = at or 0
    if at > len(record.moves):
        problem = say("record_length", lang, count=len(record.moves), kind=describe(at, lang))
        raise unreadable([{"path": "$.at", "problem": problem}], lang)
    played = record.replay()
    shown = min(at, len(played.states) - 1)
    state = played.states[shown]
    illegal = None
    if played.failure is not None and played.failed_at is not None:
        illegal = {
            "number": played.failed_at + 1,
            "player": played.states[-1].current_player,
            **_move_document(record.moves[played.failed_at]),
            "violations": _violations(played.failure, lang),
        }
    ended = shown > 0 and _ended_round(played.states[shown - 1], state)
    return {
        "lang": lang,
        "total": len(record.moves),
        "legal": len(played.states) - 1,
        "ok": played.ok,
        "at": shown,
        "state": to_dict(state),
        "moves": [_move_document(m) for m in record.moves],
        "round_ended": ended,
        "last_scoring": to_dict(state).get("last_scoring") if ended else None,
        "outcome": _outcome(state.outcome),
        "illegal_move": illegal,
    }


def rules_document(lang: str) -> Document:
    """``GET /api/v1/rules``: the whole rule book in ``lang``, section by section."""
    return {
        "lang": lang,
        "sections": [
            {
                "letter": letter,
                "title": section_title(letter, lang),
                "rules": [_rule_document(r.id, lang) for r in rules(letter)],
            }
            for letter in SECTIONS
        ],
    }


def rule_document(rule_id: str, lang: str) -> Document:
    """``GET /api/v1/rules/{id}``: one rule (404 when the book has no such id)."""
    try:
        rule(rule_id)
    except ValueError:
        shown = short(repr(rule_id), 40)
        detail = say("no_rule", lang, rule=shown, ranges=_rule_ids())
        raise ApiProblem("not-found", detail, lang=lang) from None
    return {"lang": lang, **_rule_document(rule_id, lang)}


def _rule_ids() -> str:
    """The rule book's ids, section by section (``G1-G2, S1-S7, ...``)."""
    spans = ((r[0].id, r[-1].id) for r in (rules(letter) for letter in SECTIONS) if r)
    return ", ".join(f"{first}-{last}" for first, last in spans)


def _rule_document(rule_id: str, lang: str) -> Document:
    entry = rule(rule_id)
    return {
        "id": entry.id,
        "section": entry.section,
        "ruling": entry.ruling,
        "title": entry.title_in(lang),
        "text": entry.text(lang),
    }
