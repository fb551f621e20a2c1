"""The OpenAPI 3.1 description of the web judge (``GET /api/v1/openapi.json``).

The documents' own schemas (position, move, record, claim, scoresheet) are not copied
here: the description refers to them where the service publishes them
(``schemas/position.json``, relative to the description's own address), so there is one
source for each format, :mod:`azul_rules.formats.schemas`.
"""

from __future__ import annotations

from typing import Any, Final

from azul_rules.core.ask import MAX_ANSWERS, MAX_QUESTION
from azul_rules.core.messages import LANGUAGES
from azul_rules.web.errors import PROBLEM_MEDIA_TYPE, TYPES
from azul_rules.web.judge import MAX_BODY_BYTES, MAX_PICTURE_SIZE, MIN_PICTURE_SIZE
from azul_rules.web.play import MAX_GAME_MOVES, MAX_SEED, VARIANTS
from azul_rules.web.sheet import MAX_NOTATION, MAX_ROUNDS

__all__ = ["document"]

Doc = dict[str, Any]

_NOTATION: Final = r"^\s*[1-9Cc][BbYyRrKkWw][1-5Ff]\s*$"


def _ref(name: str) -> Doc:
    return {"$ref": f"#/components/schemas/{name}"}


def _file(name: str) -> Doc:
    return {"$ref": f"schemas/{name}.json"}


def _json(schema: Doc, description: str) -> Doc:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _problem(description: str) -> Doc:
    return {
        "description": description,
        "content": {PROBLEM_MEDIA_TYPE: {"schema": _ref("Problem")}},
    }


_LANG: Final = {
    "enum": list(LANGUAGES),
    "default": "en",
    "description": "The language of messages, rule texts, and problem titles and details.",
}

_QUERY_LANG: Final = {
    "name": "lang",
    "in": "query",
    "schema": {
        **_LANG,
        "description": "The language when the body gives none (its lang wins), and of "
        "the refusals made before the body is read (408, 413, 415, not JSON). An "
        "unknown value, or lang given twice, is a 400.",
    },
}

_GET_LANG: Final = {
    "name": "lang",
    "in": "query",
    "schema": {
        **_LANG,
        "description": "The language of the answer's words, where it has any (rule titles "
        "and texts), and of its refusals. An unknown value, or lang given twice, is a 400, "
        "on every endpoint.",
    },
}

_BAD_QUERY_LANG: Final = _problem(
    "A wrong lang in the address: not a catalogue's (en, fr...), or given twice (in English; "
    "errors names ?lang)."
)

_ERRORS: Final[Doc] = {
    "400": _problem(
        "Unreadable input: not JSON, a wrong member, a malformed document, an "
        "unknown lang (in the body or the address) or lang given twice in the address; "
        "errors lists every problem with its JSON path (?lang for the address's)."
    ),
    "408": _problem(
        "The body did not all arrive in time (10 seconds after the headers by default; "
        "the connection is closed)."
    ),
    "413": _problem(f"The body is over {MAX_BODY_BYTES} bytes (refused before parsing)."),
    "415": _problem(
        "The body is not sent as application/json (UTF-8), the Content-Type is given "
        "twice, or the body is compressed (Content-Encoding other than identity)."
    ),
}


def _post(
    summary: str, request: Doc, reply: Doc, *, impossible: bool = True, extra: Doc | None = None
) -> Doc:
    responses: Doc = {"200": reply, **_ERRORS}
    if impossible:
        responses["422"] = _problem(
            "A readable position that cannot exist (impossible-position): errors lists "
            "every problem with its code, rule and path; or an answer that would hold a "
            "number past 4,300 digits, a score of 4,300 grown by a tiling "
            "(unwritable-answer)."
        )
    responses.update(extra or {})
    return {
        "post": {
            "summary": summary,
            "operationId": summary.split(":")[0].strip().replace(" ", "_").replace("-", "_"),
            "parameters": [_QUERY_LANG],
            "requestBody": {"required": True, "content": {"application/json": {"schema": request}}},
            "responses": responses,
        }
    }


def _get(summary: str, reply: Doc, *, path: Doc | None = None, refusals: Doc | None = None) -> Doc:
    """A ``GET`` operation: its path parameter (if any) and ``?lang=``; its answer, the
    400 of a wrong ``?lang=`` and its other ``refusals``."""
    return {
        "get": {
            "summary": summary,
            "operationId": summary.split(":")[0].strip(),
            "parameters": [*([path] if path else []), _GET_LANG],
            "responses": {"200": reply, "400": _BAD_QUERY_LANG, **(refusals or {})},
        }
    }


def _request(required: list[str], **members: Doc) -> Doc:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": required,
        "properties": {**members, "lang": _LANG},
    }


def _components() -> Doc:
    violation = {
        "type": "object",
        "required": ["code", "rule", "rule_title", "rule_text", "message", "params"],
        "properties": {
            "code": {"type": "string", "description": "The stable error code (PARTIAL_TAKE...)."},
            "rule": {"type": "string", "description": "The rule's id in the rule book (T2...)."},
            "rule_title": {"type": "string"},
            "rule_text": {"type": "string", "description": "The rule's text, in lang."},
            "message": {"type": "string", "description": "This case in words, in lang."},
            "params": {"type": "object", "description": "The case's figures (indices from 0)."},
        },
    }
    position_problem = {
        "type": "object",
        "required": ["code", "rule", "rule_title", "rule_text", "path", "message"],
        "properties": {
            "code": {"type": "string", "description": "TILE_COUNT, LINE_OVER_CAPACITY..."},
            "rule": {"type": "string"},
            "rule_title": {"type": "string"},
            "rule_text": {"type": "string"},
            "path": {"type": "string", "description": "JSON path inside the request body."},
            "message": {"type": "string", "description": "This problem in words, in lang."},
        },
    }
    problem = {
        "type": "object",
        "description": "RFC 9457 problem details.",
        "required": ["type", "title", "status", "detail"],
        "properties": {
            "type": {"enum": [f"urn:azul-rules:problem:{slug}" for slug in TYPES]},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string"},
            "instance": {"type": "string"},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path", "problem"],
                    "properties": {
                        "path": {"type": "string"},
                        "problem": {"type": "string", "description": "In lang."},
                        "problem_en": {
                            "type": "string",
                            "description": "In French answers only: the library's own "
                            "English text that problem quotes (an unreadable document).",
                        },
                        "code": {"type": "string"},
                        "rule": {"type": "string"},
                        "rule_title": {"type": "string"},
                        "rule_text": {"type": "string"},
                        "message": {"type": "string"},
                    },
                },
            },
            "violations": {
                "type": "array",
                "items": _ref("Violation"),
                "description": "illegal-move: why the move is illegal.",
            },
            "move": _file("move"),
        },
    }
    move_or_notation = {
        "oneOf": [_file("move"), {"type": "string", "pattern": _NOTATION}],
        "description": 'A move object, or a take in notation ("3B2").',
    }
    move_entry = {
        "type": "object",
        "required": ["move", "notation"],
        "properties": {
            "move": _file("move"),
            "notation": {
                "type": ["string", "null"],
                "description": "The compact notation of a take naming no player.",
            },
        },
    }
    outcome = {
        "type": ["object", "null"],
        "properties": {
            "winners": {"type": "array", "items": {"type": "integer"}},
            "scores": {"type": "array", "items": {"type": "integer"}},
        },
    }
    return {
        "schemas": {
            "Violation": violation,
            "PositionProblem": position_problem,
            "Problem": problem,
            "MoveOrNotation": move_or_notation,
            "PositionOrNotation": {
                "oneOf": [_file("position"), {
                    "type": "string", "maxLength": 1000, "pattern": "^[cg][234][fwre][0-9]",
                    "description": "The position's notation (docs/notation.md).",
                }],
                "description": "A position document, or its notation (one line).",
            },
            "MoveEntry": move_entry,
            "Outcome": outcome,
        }
    }


def _sheet() -> Doc:
    """The scorekeeper's sheet: its JSON form or its notation (docs/scorekeeper.md)."""
    return {
        "oneOf": [
            {"type": "object", "required": ["players"],
             "properties": {"format_version": {"const": 1},
                            "players": {"type": "integer", "minimum": 2, "maximum": 4},
                            "wall": {"enum": ["colored", "grey"], "default": "colored",
                                     "description": "The side of the boards; on the grey "
                                     "wall (V1-V5) each space laid is [row, column, colour]."},
                            "rounds": {"type": "array", "maxItems": MAX_ROUNDS},
                            "end": {"type": "object"}}},
            {"type": "string", "maxLength": MAX_NOTATION, "pattern": "^[2-4]g?(_|$)"},
        ],
        "description": "The sheet: its wall (coloured or grey), per round and player the "
        "wall spaces laid (with their colours on the grey wall), the floor tiles, the marker "
        "and the total written (docs/scorekeeper.md), or its notation (2g_… on the grey wall).",
    }  # fmt: skip


def _violations() -> Doc:
    return {"type": "array", "items": _ref("Violation")}


def _paths() -> Doc:
    state, move = _ref("PositionOrNotation"), _ref("MoveOrNotation")
    scoring = {
        "description": "The wall tiling the move ended (as the position's last_scoring), or null."
    }
    return {
        "/api/v1/check": _post(
            "check: the verdict on a move in a position",
            _request(["state", "move"], state=state, move=move, infer_unseen={
                "type": "boolean", "default": False,
                "description": "Read a position typed without its bag, lid or marker holder "
                "with them inferred: the bag and lid every tile not on the table, the "
                "holder from the floors (docs/json-format.md).",
            }),
            _json(
                {
                    "type": "object",
                    "required": ["ok", "lang", "move", "notation", "violations", "effect",
                                 "inferred"],
                    "properties": {
                        "ok": {"type": "boolean"},
                        "lang": _LANG,
                        "move": _file("move"),
                        "notation": {"type": ["string", "null"]},
                        "violations": _violations(),
                        "effect": {
                            "type": ["object", "null"],
                            "description": (
                                "What a legal move does before it is played (null for an "
                                "illegal one). A "
                                "take: to_line and to_floor tiles (P5), floor_penalty (the "
                                "points those floor tiles cost now, F1) and marker (it "
                                "takes the starting player marker, P6); a grey wall "
                                "placement: points (W3); null for a refill."
                            ),
                        },
                        "inferred": {
                            "type": "array",
                            "items": {"enum": ["bag", "lid", "marker_holder"]},
                            "description": "The parts of the position the judge filled in "
                            "(with infer_unseen); empty otherwise.",
                        },
                    },
                },
                "The verdict: ok, or every violation from the most fundamental.",
            ),
        ),
        "/api/v1/legal-moves": _post(
            "legal-moves: every legal compact move of a position",
            _request(["state"], state=state),
            _json(
                {
                    "type": "object",
                    "required": ["count", "phase", "current_player", "moves"],
                    "properties": {
                        "count": {"type": "integer"},
                        "phase": {"type": "string"},
                        "current_player": {"type": "integer"},
                        "moves": {
                            "type": "array",
                            "items": {
                                "allOf": [
                                    _ref("MoveEntry"),
                                    {
                                        "properties": {
                                            "action": {
                                                "type": "integer",
                                                "description": "The shared action id.",
                                            }
                                        }
                                    },
                                ]
                            },
                        },
                    },
                },
                "The legal moves (none while the game waits for the table's draws).",
            ),
        ),
        "/api/v1/apply": _post(
            "apply: the position after a legal move",
            _request(["state", "move"], state=state, move=move),
            _json(
                {
                    "type": "object",
                    "required": [
                        "lang",
                        "move",
                        "notation",
                        "state",
                        "position",
                        "round_ended",
                        "last_scoring",
                        "game_over",
                        "outcome",
                    ],
                    "properties": {
                        "lang": _LANG,
                        "move": _file("move"),
                        "notation": {"type": ["string", "null"]},
                        "state": _file("position"),
                        "position": {
                            "type": ["string", "null"],
                            "description": (
                                "The next position's notation (docs/notation.md); null for "
                                "a score past 100 digits, which no notation holds."
                            ),
                        },
                        "round_ended": {"type": "boolean"},
                        "last_scoring": scoring,
                        "game_over": {"type": "boolean"},
                        "outcome": _ref("Outcome"),
                    },
                },
                "The next position; with round_ended, the wall tiling that followed.",
            ),
            extra={
                "422": _problem(
                    "An impossible position (impossible-position), an illegal move "
                    "(illegal-move, with violations), or an answer that would hold a "
                    "number past 4,300 digits (unwritable-answer)."
                )
            },
        ),
        "/api/v1/problems": _post(
            "problems: why a position cannot exist",
            _request(["state"], state=state),
            _json(
                {
                    "type": "object",
                    "required": ["possible", "lang", "problems"],
                    "properties": {
                        "possible": {"type": "boolean"},
                        "lang": _LANG,
                        "problems": {"type": "array", "items": _ref("PositionProblem")},
                    },
                },
                "Every problem (an empty list for a possible position).",
            ),
            impossible=False,
        ),
        "/api/v1/position": _post(
            "position: a position as its one-line notation and as its JSON document",
            _request(["state"], state=state),
            _json(
                {
                    "type": "object",
                    "required": ["position", "state"],
                    "properties": {
                        "position": {
                            "type": ["string", "null"],
                            "description": "null for a score past 100 digits (no notation).",
                        },
                        "state": _file("position"),
                    },
                },
                "The position's notation (docs/notation.md) and its document.",
            ),
        ),
        "/api/v1/bot": _post(
            "bot: the move a built-in bot chooses in a position",
            _request(
                ["state", "bot"],
                state=state,
                bot={"enum": ["greedy", "random"], "description": "Which built-in bot."},
                seed={
                    "type": "integer", "minimum": 0, "maximum": 2**63 - 1,
                    "description": "Seeds the random bot (0 when absent).",
                },
            ),
            _json(
                {
                    "type": "object",
                    "required": ["move", "notation"],
                    "properties": {
                        "move": _file("move"),
                        "notation": {"type": ["string", "null"]},
                    },
                },
                "The bot's move, legal in the position.",
            ),
            extra={
                "422": _problem(
                    "An impossible position (impossible-position), or one that waits for "
                    "no player's move: a refill or a finished game (no-move)."
                )
            },
        ),
        "/api/v1/audit": _post(
            "audit: the mistakes of claimed scores after a wall tiling",
            _request(["state", "claim"], state=state, claim=_file("claim")),
            _json(
                {
                    "type": "object",
                    "required": ["correct", "lang", "violations"],
                    "properties": {
                        "correct": {"type": "boolean"},
                        "lang": _LANG,
                        "violations": _violations(),
                    },
                },
                "Every mistake of the claim, named.",
            ),
        ),
        "/api/v1/audit-game": _post(
            "audit-game: a whole game's scoresheet against its record",
            _request(
                ["record", "scoresheet"], record=_file("record"), scoresheet=_file("scoresheet")
            ),
            _json(
                {
                    "type": "object",
                    "required": [
                        "correct",
                        "lang",
                        "first_wrong",
                        "rounds",
                        "end",
                        "final_scores",
                        "winners",
                        "illegal_move",
                    ],
                    "properties": {
                        "correct": {"type": "boolean"},
                        "lang": _LANG,
                        "first_wrong": {"type": ["array", "null"], "items": {"type": "integer"}},
                        "rounds": {"type": "array"},
                        "end": _violations(),
                        "final_scores": {"type": ["array", "null"]},
                        "winners": {"type": ["array", "null"]},
                        "illegal_move": {"type": ["object", "null"]},
                    },
                },
                "Each round's verdict, then the end's.",
            ),
        ),
        "/api/v1/render": _post(
            "render: the picture of a position",
            _request(
                ["state"],
                state=state,
                move=move,
                player={
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 3,
                    "description": "Draw from this player's seat.",
                },
                size={
                    "type": "integer",
                    "minimum": MIN_PICTURE_SIZE,
                    "maximum": MAX_PICTURE_SIZE,
                    "description": "Width in px.",
                },
                layout={
                    "type": "string",
                    "enum": ["wide", "narrow"],
                    "default": "wide",
                    "description": (
                        "wide: the table beside its information, the boards two by two "
                        "(600 units wide). narrow: for a phone, one column 312 units wide, "
                        "the factories three a row over the centre, the boards one under "
                        "the other; tiles, pattern-line spaces and wall spaces 24 units, "
                        "no text under 12, so that drawn 330 px wide or more every one is "
                        "a 24 px touch target (WCAG 2.5.8)."
                    ),
                },
                tiling={
                    "type": "boolean",
                    "description": "Mark the last wall tiling's placements.",
                },
                claim={
                    "allOf": [_file("claim")],
                    "description": (
                        "Audit this claim about the wall tiling that follows the position "
                        "(as /api/v1/audit): the picture is headed Audit, with what was "
                        "claimed and each mistake. One of move, tiling and claim at most."
                    ),
                },
            ),
            {
                "description": "An SVG document; the move and its verdict marked when given.",
                "content": {"image/svg+xml": {"schema": {"type": "string"}}},
            },
        ),
        "/api/v1/replay": _post(
            "replay: a recorded game, move by move",
            _request(
                ["record"],
                record=_file("record"),
                at={
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 10000,
                    "description": "How many moves to play (0: the start).",
                },
            ),
            _json(
                {
                    "type": "object",
                    "required": [
                        "lang",
                        "total",
                        "legal",
                        "ok",
                        "at",
                        "state",
                        "moves",
                        "round_ended",
                        "last_scoring",
                        "outcome",
                        "illegal_move",
                    ],
                    "properties": {
                        "lang": _LANG,
                        "total": {"type": "integer"},
                        "legal": {"type": "integer"},
                        "ok": {"type": "boolean"},
                        "at": {"type": "integer"},
                        "state": state,
                        "moves": {"type": "array", "items": _ref("MoveEntry")},
                        "round_ended": {"type": "boolean"},
                        "last_scoring": scoring,
                        "outcome": _ref("Outcome"),
                        "illegal_move": {"type": ["object", "null"]},
                    },
                },
                "The position after `at` moves (at most the last legal one).",
            ),
        ),
        "/api/v1/scorekeeper": _post(
            "scorekeeper: a sheet of a game played with the real box, scored round by round",
            _request(["sheet"], sheet=_sheet()),
            _json(
                {
                    "type": "object",
                    "required": ["lang", "players", "wall", "sheet", "notation", "rounds",
                                 "totals", "game_over", "end", "scoresheet", "correct"],
                    "properties": {
                        "lang": _LANG,
                        "players": {"type": "integer", "minimum": 2, "maximum": 4},
                        "wall": {"enum": ["colored", "grey"]},
                        "sheet": {"type": "object", "description": "The sheet as read."},
                        "notation": {"type": "string", "description": "The sheet in one line."},
                        "rounds": {"type": "array", "description": "Per round: round, "
                                   "notation (the sheet up to it), players (placements with "
                                   "their points, floor_penalty, score_before, score_after, "
                                   "written, violations)."},
                        "totals": {"type": "array", "items": {"type": "integer"}},
                        "game_over": {"type": "boolean"},
                        "end": {"type": ["object", "null"], "description": "Once a row is "
                                "complete (E1): bonuses, final, winners, written, violations."},
                        "scoresheet": _file("scoresheet"),
                        "correct": {"type": "boolean"},
                    },
                },
                "Each placement's points, the floor penalties, the running totals, the end; "
                "every written figure judged with the audit's codes.",
            ),
            extra={"422": _problem(
                "Entries no game can give (impossible-position): errors lists each with its "
                "path, its reason and the rule (a space already filled, two tiles in a row in "
                "one round, on the grey wall a colour twice in a row or a column, more than "
                "7 floor tiles, more tiles than the round holds, a round after the end...)."
            )},
        ),
        "/api/v1/rules": _get(
            "rules: the rule book", _json({"type": "object"}, "Every rule, by section.")
        ),
        "/api/v1/rules/{rule_id}": _get(
            "rule: one rule of the book",
            _json(
                {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "section": {"type": "string"},
                        "ruling": {"type": "boolean"},
                        "title": {"type": "string"},
                        "text": {"type": "string"},
                    },
                },
                "The rule.",
            ),
            path={
                "name": "rule_id",
                "in": "path",
                "required": True,
                "schema": {"type": "string"},
                "example": "P3",
            },
            refusals={"404": _problem("No such rule.")},
        ),
        "/api/v1/schemas/{name}.json": _get(
            "schema: a document format as JSON Schema",
            _json({"type": "object"}, "A JSON Schema (2020-12)."),
            path={
                "name": "name",
                "in": "path",
                "required": True,
                "schema": {"enum": ["position", "move", "record", "claim", "scoresheet"]},
            },
            refusals={"404": _problem("No such schema.")},
        ),
        "/api/v1/openapi.json": _get(
            "openapi: this description", _json({"type": "object"}, "OpenAPI 3.1.")
        ),
        "/api/v1/ask": _ask_path(),
        "/api/v1/health": _get(
            "health: for load balancers", _json({"type": "object"}, "The service answers.")
        ),
        **_play_paths(),
    }


def _ask_path() -> Doc:
    """``GET /api/v1/ask``: a question in words (azul_rules.web.asking)."""
    answer = {
        "type": "object",
        "required": ["rule", "title", "text", "ruling", "score", "example", "link"],
        "properties": {
            "rule": {"type": "string", "description": "The rule's id in the book (P3)."},
            "title": {"type": "string"},
            "text": {"type": "string"},
            "ruling": {"type": "boolean"},
            "score": {"type": "number", "description": "How well it matches (higher is "
                      "better), comparable within one answer only."},
            "example": {"type": ["string", "null"], "description": "A worked example."},
            "link": {"type": ["string", "null"], "description": "The page with the "
                     "example's position and move: /?position=...&move=..."},
        },
    }  # fmt: skip
    operation = _get(
        "ask: a question in words, answered by the rules that settle it",
        _json(
            {
                "type": "object",
                "required": ["lang", "question", "answers"],
                "properties": {
                    "lang": _LANG,
                    "question": {"type": "string"},
                    "answers": {"type": "array", "maxItems": MAX_ANSWERS, "items": answer},
                },
            },
            "The rules that answer the question, best first (none for a question with no "
            "word the book knows).",
        ),
    )
    get = operation["get"]
    get["parameters"].insert(0, {
        "name": "q", "in": "query", "required": True,
        "schema": {"type": "string", "maxLength": MAX_QUESTION},
        "example": "can I take just two of the three blues?",
    })  # fmt: skip
    get["responses"]["400"] = _problem(
        "A missing question, one given twice or over the bound (errors names ?q), or a wrong "
        "lang in the address (in English; errors names ?lang)."
    )
    return operation


def _settings() -> Doc:
    """The settings of a game played at the page (``new-game``, ``record``)."""
    return {
        "players": {"type": "integer", "minimum": 2, "maximum": 4},
        "seed": {
            "type": "integer", "minimum": 0, "maximum": MAX_SEED,
            "description": "The seed of the game's draws (0 when absent).",
        },
        "variant": {"enum": list(VARIANTS), "description": "The wall (colored when absent)."},
    }  # fmt: skip


def _play_paths() -> Doc:
    """A game played at the page: ``new-game`` and ``record`` (azul_rules.web.play)."""
    notation = {"type": "string", "description": "A position's notation (docs/notation.md)."}
    start = _json(
        {
            "type": "object",
            "required": ["players", "seed", "variant", "state", "position"],
            "properties": {**_settings(), "state": _file("position"), "position": notation},
        },
        "The first position, as a document and as its notation.",
    )
    record = _json(
        {
            "type": "object",
            "required": ["record", "text", "positions", "game_over", "outcome"],
            "properties": {
                "record": _file("record"),
                "text": {"type": "string", "description": "The record as GameRecord.to_json."},
                "positions": {
                    "type": "array", "items": notation,
                    "description": "The notation of every position reached, the start first.",
                },
                "game_over": {"type": "boolean"},
                "outcome": _ref("Outcome"),
            },
        },
        "The game's record as the library writes it, and each position's notation.",
    )  # fmt: skip
    moves = {"type": "array", "maxItems": MAX_GAME_MOVES, "items": _ref("MoveOrNotation")}
    return {
        "/api/v1/new-game": _post(
            "new-game: the first position of a game",
            _request(["players"], **_settings()), start, impossible=False,
        ),
        "/api/v1/record": _post(
            "record: a game played, every move refereed, as its record",
            _request(["players", "moves"], **_settings(), moves=moves), record,
            impossible=False,
            extra={"422": _problem(
                "An illegal move (illegal-move: number, from 1, move, notation, violations)."
            )},
        ),
    }  # fmt: skip


def document(version: str) -> Doc:
    """The OpenAPI 3.1 description of the service (``version``: the library's)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "azul_rules web judge",
            "version": version,
            "summary": "A strict referee for the board game Azul, over HTTP.",
            "description": (
                "Stateless: every request carries its position. Bodies are JSON "
                f"(application/json, UTF-8), at most {MAX_BODY_BYTES} bytes. Errors are RFC "
                "9457 problem details (application/problem+json) whose errors give JSON "
                "paths inside the request body. Indices count from 0."
            ),
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "paths": _paths(),
        "components": _components(),
    }
