"""The web judge's JSON API, in process (Starlette's test client): every endpoint, every
error status, the body limit, both languages, and the problem details' form (RFC 9457).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import azul_rules as az
from tests.builders import LONGEST_NUMBER, round_end_past_4300_digits
from tests.extras import needs

needs("starlette")
needs("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from azul_rules.web import MAX_BODY_BYTES, create_app  # noqa: E402
from azul_rules.web import judge as web_judge  # noqa: E402

EXAMPLES = Path("examples")
AUDITS = EXAMPLES / "audits"
PROBLEM = "application/problem+json"


def example(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text())


def post(client: TestClient, path: str, body: object, **headers: str) -> Any:
    return client.post(
        f"/api/v1/{path}",
        content=json.dumps(body),
        headers={"Content-Type": "application/json", **headers},
    )


def problem_of(response: Any, status: int, slug: str) -> dict[str, Any]:
    """The response as RFC 9457 problem details of ``slug``, checked member by member."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    doc: dict[str, Any] = response.json()
    assert doc["type"] == f"urn:azul-rules:problem:{slug}"
    assert doc["status"] == status
    assert isinstance(doc["title"], str) and doc["title"]
    assert isinstance(doc["detail"], str) and doc["detail"]
    assert "Traceback" not in response.text
    return doc


ROUND_TWO = example("round-2-position.json")
# A new game's table laid out half way: factories 3-5 still empty (a warning, R2).
# -- check -------------------------------------------------------------------------------------


def test_check_names_the_partial_take_in_english(client: TestClient) -> None:
    """T2: two of factory 2's three blues taken (examples/partial-take.json)."""
    reply = post(client, "check", {"state": ROUND_TWO, "move": example("partial-take.json")})
    assert reply.status_code == 200
    assert reply.headers["content-type"] == "application/json"
    doc = reply.json()
    assert doc["ok"] is False and doc["lang"] == "en" and doc["notation"] is None
    assert doc["move"] == example("partial-take.json")
    (violation,) = doc["violations"]
    assert violation == {
        "code": "PARTIAL_TAKE",
        "rule": "T2",
        "rule_title": az.rule("T2").title,
        "rule_text": az.rule("T2").text("en"),
        "message": "2 of the 3 blue tiles of factory 2 were taken: every tile of the chosen "
        "colour must be taken",
        "params": {"count": 2, "available": 3, "color": "blue", "source": 1},
    }


def test_check_answers_in_french(client: TestClient) -> None:
    """P1 in French: the blues spread over lines 3 and 4 (examples/split-lot.json)."""
    reply = post(
        client, "check", {"state": ROUND_TWO, "move": example("split-lot.json"), "lang": "fr"}
    )
    (violation,) = reply.json()["violations"]
    assert violation["code"] == "SPLIT_LOT" and violation["rule"] == "P1"
    assert violation["rule_title"] == az.rule("P1").title_in("fr")
    assert violation["rule_text"] == az.rule("P1").text("fr")
    state = az.from_dict(ROUND_TWO, az.GameState)
    move = az.move_from_dict(example("split-lot.json"))
    assert violation["message"] == state.validate(move).violations[0].message_in("fr")


def test_check_reads_the_notation_and_says_legal(client: TestClient) -> None:
    """A legal take in notation: factory 2's blues to line 3 (P1-P5)."""
    doc = post(client, "check", {"state": ROUND_TWO, "move": "2b3"}).json()
    assert doc == {
        "ok": True,
        "lang": "en",
        "notation": "2B3",
        "violations": [],
        "move": {"type": "take", "source": 1, "color": "blue", "line": 2},
        "effect": {"to_line": 2, "to_floor": 1, "floor_penalty": 1, "marker": False},
        "inferred": [],
    }


def test_check_lists_every_violation_in_order(client: TestClient) -> None:
    """T1 then T2: the wrong player taking from an empty factory."""
    doc = post(
        client,
        "check",
        {
            "state": ROUND_TWO,
            "move": {"type": "take", "source": 0, "color": "red", "line": 0, "player": 1},
        },
    ).json()
    assert [v["code"] for v in doc["violations"]] == ["NOT_YOUR_TURN", "EMPTY_SOURCE"]
    assert [v["rule"] for v in doc["violations"]] == ["T1", "T2"]


# -- the other endpoints -----------------------------------------------------------------------


def test_position_gives_a_position_as_its_notation_and_its_document(client: TestClient) -> None:
    """The page's links: a document in, its notation out, and a notation in, its
    document out; the same position both ways (but the history, which FEN-like text
    leaves out)."""
    state = az.from_dict(ROUND_TWO, az.GameState)
    doc = post(client, "position", {"state": ROUND_TWO}).json()
    assert doc == {"position": az.to_notation(state), "state": az.to_dict(state)}
    back = post(client, "position", {"state": doc["position"]}).json()
    assert back == doc


def test_position_refuses_a_bad_notation_where_it_goes_wrong(client: TestClient) -> None:
    """A notation that cannot be read names its character (400); one that reads but
    cannot exist lists its problems (422)."""
    bad = problem_of(post(client, "position", {"state": "c5f1.110_"}), 400, "unreadable-input")
    assert bad["errors"] == [{
        "path": "$.state (character 2)",
        "problem": "expected the number of players: 2, 3 or 4, found '5'"}]  # fmt: skip
    impossible = post(client, "position", {"state": example("impossible-position.json")})
    codes = {e["code"] for e in problem_of(impossible, 422, "impossible-position")["errors"]}
    assert "TILE_COUNT" in codes


def test_legal_moves_lists_the_referees_moves_with_their_action_ids(client: TestClient) -> None:
    from azul_rules.ai.actions import action_id

    state = az.from_dict(ROUND_TWO, az.GameState)
    doc = post(client, "legal-moves", {"state": ROUND_TWO}).json()
    assert doc["count"] == len(state.legal_moves()) == len(doc["moves"])
    assert doc["phase"] == "factory_offer" and doc["current_player"] == 0
    for entry, move in zip(doc["moves"], state.legal_moves(), strict=True):
        assert entry == {
            "move": az.to_dict(move),
            "notation": str(move),
            "action": action_id(move, 2),
        }


def test_apply_gives_the_next_position(client: TestClient) -> None:
    state = az.from_dict(ROUND_TWO, az.GameState)
    doc = post(client, "apply", {"state": ROUND_TWO, "move": "2B3"}).json()
    assert doc["state"] == az.to_dict(state.apply(az.parse_move("2B3")))
    assert doc["round_ended"] is False and doc["last_scoring"] is None
    assert doc["game_over"] is False and doc["outcome"] is None


def test_apply_gives_the_tiling_when_a_round_ends(client: TestClient) -> None:
    """W1-W5: the last take of round 1 of the recorded game, and its wall tiling."""
    record = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text())
    states = record.replay().states
    ending = next(i for i in range(len(states) - 1) if states[i + 1].last_scoring is not None)
    move = record.moves[ending]
    doc = post(
        client, "apply", {"state": az.to_dict(states[ending]), "move": az.to_dict(move)}
    ).json()
    after = states[ending + 1]
    assert doc["round_ended"] is True
    assert doc["state"] == az.to_dict(after)
    assert doc["last_scoring"] == az.to_dict(after)["last_scoring"]
    assert doc["last_scoring"]["round"] == 1


def test_apply_refuses_an_illegal_move_with_its_violations(client: TestClient) -> None:
    """P3 (examples/wall-color-conflict.json), as problem details in French."""
    reply = post(
        client,
        "apply",
        {"state": ROUND_TWO, "move": example("wall-color-conflict.json"), "lang": "fr"},
    )
    doc = problem_of(reply, 422, "illegal-move")
    assert doc["title"] == "Coup illégal"
    assert [v["code"] for v in doc["violations"]] == ["WALL_COLOR_CONFLICT"]
    assert doc["detail"] == (
        "WALL_COLOR_CONFLICT (P3)\u202f: la rangée 4 du mur contient déjà la couleur "
        "jaune\u202f: cette "
        "couleur ne peut pas aller dans la ligne de préparation 4"
    )
    assert doc["move"] == example("wall-color-conflict.json")


def test_problems_lists_why_a_position_cannot_exist(client: TestClient) -> None:
    """S3, P3 ...: every problem of examples/impossible-position.json, its path in the
    request."""
    impossible = example("impossible-position.json")
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(impossible, az.GameState)
    doc = post(client, "problems", {"state": impossible, "lang": "fr"}).json()
    assert doc["possible"] is False
    assert [(p["code"], p["rule"], p["path"], p["message"]) for p in doc["problems"]] == [
        (p.code.value, p.rule, "$.state" + p.path.removeprefix("$"), p.message_in("fr"))
        for p in caught.value.problems
    ]
    assert all(p["rule_text"] == az.rule(p["rule"]).text("fr") for p in doc["problems"])
    assert post(client, "problems", {"state": ROUND_TWO}).json() == {
        "possible": True,
        "lang": "en",
        "problems": [],
    }


@pytest.mark.parametrize(
    "case",
    [
        "cross-counted-once",
        "marker-penalty-forgotten",
        "not-wall-color-space",
        "correct-claim",
        "grey-correct",
    ],
)
def test_audit_names_the_mistake_as_the_command_does(client: TestClient, case: str) -> None:
    """W3, F3, S5: the audit examples, through the API, as ``azul_rules.adjudication.auditing``."""
    from azul_rules.adjudication.auditing import audit, claim_from_json, position_from_json

    folder = AUDITS / case
    position = (folder / "position.json").read_text()
    claim = (folder / "claim.json").read_text()
    expected = audit(position_from_json(position), claim_from_json(claim))
    doc = post(
        client, "audit", {"state": json.loads(position), "claim": json.loads(claim), "lang": "fr"}
    ).json()
    assert doc["correct"] is expected.ok
    assert [(v["code"], v["rule"], v["message"]) for v in doc["violations"]] == [
        (v.code.value, v.rule, v.message_in("fr")) for v in expected.violations
    ]


def test_audit_refuses_a_claim_that_does_not_fit(client: TestClient) -> None:
    folder = AUDITS / "cross-counted-once"
    position = json.loads((folder / "position.json").read_text())
    doc = problem_of(
        post(client, "audit", {"state": position, "claim": {"scores": [1, 2, 3]}}),
        400,
        "unreadable-input",
    )
    assert doc["errors"] == [
        {"path": "$.claim.scores", "problem": "expected one entry per player (2), got 3"}
    ]
    doc = problem_of(
        post(client, "audit", {"state": ROUND_TWO, "claim": {"scores": [1, 2]}}),
        400,
        "unreadable-input",
    )
    assert [e["path"] for e in doc["errors"]] == ["$.state.factories"]


def test_audit_game_finds_the_wrong_round(client: TestClient) -> None:
    """W3 in round 3 of examples/audits/scoresheet-one-wrong-round."""
    folder = AUDITS / "scoresheet-one-wrong-round"
    doc = post(
        client,
        "audit-game",
        {
            "record": json.loads((folder / "record.json").read_text()),
            "scoresheet": json.loads((folder / "scoresheet.json").read_text()),
        },
    ).json()
    assert doc["correct"] is False
    assert doc["first_wrong"] == [3, 0]
    assert [r["round"] for r in doc["rounds"]] == [1, 2, 3, 4, 5]
    assert doc["rounds"][2]["written"] == [25, 0] and doc["rounds"][2]["correct"] == [24, 0]
    assert doc["rounds"][2]["violations"]
    assert doc["illegal_move"] is None


def test_render_draws_the_move_and_its_verdict(client: TestClient) -> None:
    """The picture of examples/pictures/partial-take.svg, as the library draws it."""
    from azul_rules.svg import board

    state = az.from_dict(ROUND_TWO, az.GameState)
    move = az.move_from_dict(example("partial-take.json"))
    reply = post(
        client,
        "render",
        {
            "state": ROUND_TWO,
            "move": example("partial-take.json"),
            "lang": "fr",
            "size": 800,
            "player": 1,
        },
    )
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("image/svg+xml")
    assert reply.text == board(state, highlight=move, lang="fr", size=800, player=1)
    assert 'class="highlight offending left-behind"' in reply.text


def test_render_marks_the_last_tiling(client: TestClient) -> None:
    from azul_rules.svg import board

    record = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text())
    final = record.replay().final
    reply = post(client, "render", {"state": az.to_dict(final), "tiling": True})
    assert reply.text == board(final, highlight=final.last_scoring)
    doc = problem_of(
        post(client, "render", {"state": ROUND_TWO, "tiling": True}), 400, "unreadable-input"
    )
    assert doc["errors"][0]["path"] == "$.tiling"


def test_render_checks_its_options(client: TestClient) -> None:
    doc = problem_of(
        post(client, "render", {"state": ROUND_TWO, "player": 2, "size": 10, "tiling": "yes"}),
        400,
        "unreadable-input",
    )
    assert doc["errors"] == [  # every problem at once, the seat's among them
        {"path": "$.size", "problem": "expected an integer from 64 to 4096, got 10"},
        {"path": "$.player", "problem": "players are numbered 0 to 1, got 2"},
        {"path": "$.tiling", "problem": 'expected true or false, got the string "yes"'},
    ]
    for player in (2, 5):  # the seats of this 2-player game, whatever the seat asked
        doc = problem_of(
            post(client, "render", {"state": ROUND_TWO, "player": player}), 400, "unreadable-input"
        )
        assert doc["errors"] == [
            {"path": "$.player", "problem": f"players are numbered 0 to 1, got {player}"}
        ]
    doc = problem_of(post(client, "render", {"state": {}, "player": 5}), 400, "unreadable-input")
    unread_seat = {"path": "$.player", "problem": "expected an integer from 0 to 3, got 5"}
    assert unread_seat in doc["errors"]  # no position read: any game's seats


@pytest.mark.parametrize(
    ("value", "en", "fr"),
    [
        (10, "10", "10"),
        (64.5, "64.5", "64.5"),
        (-1, "-1", "-1"),
        (10**50, "an integer of 51 digits", "un entier de 51 chiffres"),
        ("big", 'the string "big"', 'la chaîne "big"'),
        ([640], "the array [640]", "le tableau [640]"),
        ({"width": 640}, 'the object {"width": 640}', 'l\'objet {"width": 640}'),
        ({"w": "x" * 100}, 'the object {"w": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...',
         'l\'objet {"w": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'),
        (None, None, None),
    ],
    ids=["small", "float", "negative", "huge", "string", "array", "object", "long", "null"],
)  # fmt: skip
def test_an_option_out_of_range_is_quoted(
    client: TestClient, value: object, en: str | None, fr: str | None
) -> None:
    """Regression: `"size": 10` said "got a number"; now the value itself, bounded."""
    if value is None:  # null is the default: no error
        assert post(client, "render", {"state": ROUND_TWO, "size": value}).status_code == 200
        return
    for lang, kind, expected in (
        ("en", en, "expected an integer from {} to {}, got {}"),
        ("fr", fr, "attendu\u202f: un entier de {} à {}\u202f; reçu\u202f: {}"),
    ):
        body = {"state": ROUND_TWO, "size": value, "lang": lang}
        doc = problem_of(post(client, "render", body), 400, "unreadable-input")
        assert doc["errors"] == [
            {"path": "$.size", "problem": expected.format(64, 4096, kind)}
        ]
        if value == 10:  # a fine "at"
            continue
        body = {"record": example("recorded-game.json"), "at": value, "lang": lang}
        doc = problem_of(post(client, "replay", body), 400, "unreadable-input")
        assert doc["errors"] == [
            {"path": "$.at", "problem": expected.format(0, 10000, kind)}
        ]


def test_replay_steps_through_a_record(client: TestClient) -> None:
    record = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text())
    states = record.replay().states
    doc = post(client, "replay", {"record": example("recorded-game.json"), "at": 3}).json()
    assert (doc["total"], doc["legal"], doc["ok"], doc["at"]) == (49, 49, True, 3)
    assert doc["state"] == az.to_dict(states[3])
    assert [m["notation"] for m in doc["moves"]] == example("recorded-game.json")["moves"]
    end = post(client, "replay", {"record": example("recorded-game.json"), "at": 49}).json()
    assert end["outcome"] == {"winners": [0], "scores": [68, 0]}
    assert end["round_ended"] is True and end["last_scoring"]["game_over"] is True
    doc = problem_of(
        post(client, "replay", {"record": example("recorded-game.json"), "at": 50}),
        400,
        "unreadable-input",
    )
    assert doc["errors"] == [{"path": "$.at", "problem": "the record holds 49 moves, got 50"}]


def test_replay_stops_at_an_illegal_move(client: TestClient) -> None:
    """P2 and P4 at move 7 of examples/disputed-game.json."""
    doc = post(
        client, "replay", {"record": example("disputed-game.json"), "at": 20, "lang": "fr"}
    ).json()
    assert doc["ok"] is False and doc["legal"] == 6 and doc["at"] == 6
    illegal = doc["illegal_move"]
    assert illegal["number"] == 7 and illegal["player"] == 0
    assert [v["code"] for v in illegal["violations"]] == ["LINE_COLOR_MISMATCH", "LINE_FULL"]


def test_rules_in_both_languages(client: TestClient) -> None:
    from azul_rules.core.rulebook import RULES

    reply = client.get("/api/v1/rules/p3?lang=fr")
    assert reply.status_code == 200
    assert reply.json() == {
        "lang": "fr",
        "id": "P3",
        "section": "P",
        "ruling": False,
        "title": az.rule("P3").title_in("fr"),
        "text": az.rule("P3").text("fr"),
    }
    book = client.get("/api/v1/rules").json()
    assert [r["id"] for s in book["sections"] for r in s["rules"]] == list(RULES)
    assert book["sections"][0]["title"] == "Phases and turns"
    assert client.get("/api/v1/rules?lang=fr").json()["sections"][0]["title"] == (
        "Phases et tours de jeu"
    )
    doc = problem_of(client.get("/api/v1/rules/Z9"), 404, "not-found")
    assert "Z9" in doc["detail"]
    doc = problem_of(client.get("/api/v1/rules?lang=de"), 400, "unreadable-input")
    assert doc["errors"][0]["path"] == "?lang"


def test_health_and_the_page(client: TestClient) -> None:
    assert client.get("/api/v1/health").json() == {"status": "ok", "version": az.__version__}
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert 'src="static/app.js?v=' in page.text and "{{version}}" not in page.text
    for name, kind in (
        ("app.js", "text/javascript"),
        ("app.css", "text/css"),
        ("icon.svg", "image/svg+xml"),
    ):
        asset = client.get(f"/static/{name}")
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(kind)
    assert "http://" not in client.get("/static/app.js").text  # nothing from elsewhere
    assert "http" not in client.get("/static/app.css").text


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, path",
    [
        (b"{", "$"),
        (b"[]", "$"),
        (b'{"state": 1, "state": 2, "move": "1B1"}', "$.state"),
        (b'{"move": "1B1"}', "$.state"),
        (b'{"state": {}, "move": "1B1", "extra": 0}', "$.extra"),
        (b'{"state": {}, "move": "1B1", "lang": "de"}', "$.lang"),
        (b"\xff\xfe", "$"),
        (b'{"state": NaN, "move": "1B1"}', "$"),
        (b"", "$"),
    ],
)
def test_unreadable_bodies_are_400_with_their_paths(
    client: TestClient, body: bytes, path: str
) -> None:
    doc = problem_of(
        client.post("/api/v1/check", content=body, headers={"Content-Type": "application/json"}),
        400,
        "unreadable-input",
    )
    assert path in [e["path"] for e in doc["errors"]]
    assert all(set(e) == {"path", "problem"} for e in doc["errors"])


def test_every_unreadable_member_is_reported_at_once(client: TestClient) -> None:
    state = {**ROUND_TWO, "round": "two"}
    doc = problem_of(
        post(client, "check", {"state": state, "move": "9Z9", "lang": "fr"}),
        400,
        "unreadable-input",
    )
    assert doc["title"] == "Entrée illisible"
    assert [e["path"] for e in doc["errors"]] == ["$.state.round", "$.move"]


def test_an_impossible_position_is_422_with_codes_rules_and_paths(client: TestClient) -> None:
    """S3 and S4: a line over capacity, tiles not adding up."""
    state = json.loads(json.dumps(ROUND_TWO))
    state["players"][0]["pattern_lines"][0] = ["red", "red"]
    doc = problem_of(
        post(client, "check", {"state": state, "move": "1B1", "lang": "fr"}),
        422,
        "impossible-position",
    )
    assert doc["title"] == "Position impossible"
    found = {(e["code"], e["rule"], e["path"]) for e in doc["errors"]}
    assert ("LINE_OVER_CAPACITY", "S4", "$.state.players[0].pattern_lines[0]") in found
    assert ("TILE_COUNT", "S3", "$.state") in found
    for entry in doc["errors"]:
        assert entry["problem"] == entry["message"]
        assert entry["rule_text"] == az.rule(entry["rule"]).text("fr")


def test_a_record_with_an_impossible_start_is_422_under_record(client: TestClient) -> None:
    record = {
        "format_version": 1,
        "initial_state": example("impossible-position.json"),
        "moves": [],
    }
    doc = problem_of(post(client, "replay", {"record": record}), 422, "impossible-position")
    assert all(e["path"].startswith("$.record.initial_state") for e in doc["errors"])


def test_the_body_limit_is_read_from_content_length_first(client: TestClient) -> None:
    huge = b" " * (MAX_BODY_BYTES + 1)
    doc = problem_of(
        client.post("/api/v1/check", content=huge, headers={"Content-Type": "application/json"}),
        413,
        "too-large",
    )
    assert str(MAX_BODY_BYTES) in doc["detail"]
    just = b" " * (MAX_BODY_BYTES - 2) + b"[]"  # at the limit: read, then refused as a list
    problem_of(
        client.post("/api/v1/check", content=just, headers={"Content-Type": "application/json"}),
        400,
        "unreadable-input",
    )


def test_the_body_limit_holds_without_a_content_length(client: TestClient) -> None:
    """A streamed body (chunked: no Content-Length) is counted as it arrives."""
    sent = []

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            sent.append(1)
            yield b" " * 8192

    problem_of(
        client.post(
            "/api/v1/check", content=chunks(), headers={"Content-Type": "application/json"}
        ),
        413,
        "too-large",
    )


def test_the_body_limit_holds_against_a_false_content_length() -> None:
    """A body longer than its Content-Length says is still counted (driven below the test
    client, at the ASGI interface, where nothing else stops it)."""
    import asyncio

    app = create_app()
    messages = [{"type": "http.request", "body": b" " * 65536, "more_body": True}] * 5
    messages.append({"type": "http.request", "body": b"", "more_body": False})
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/check",
        "raw_path": b"/api/v1/check",
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "http_version": "1.1",
        "server": ("test", 80),
        "client": ("test", 1),
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"10")],
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["type"] == "urn:azul-rules:problem:too-large"
    assert messages  # the rest of the body was never read


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin-1"],
)
def test_a_body_not_sent_as_json_is_415(client: TestClient, content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    body = json.dumps({"state": ROUND_TWO, "move": "2B3"}).encode()
    doc = problem_of(
        client.post("/api/v1/check", content=body, headers=headers), 415, "unsupported-media-type"
    )
    assert "application/json" in doc["detail"]
    reply = client.post(
        "/api/v1/check", content=body, headers={"Content-Type": "application/json; charset=UTF-8"}
    )
    assert reply.status_code == 200


def test_unknown_addresses_and_methods_are_problem_details(client: TestClient) -> None:
    doc = problem_of(client.get("/api/v2/check"), 404, "not-found")
    assert doc["instance"] == "/api/v2/check"
    reply = client.get("/api/v1/check")
    problem_of(reply, 405, "method-not-allowed")
    assert reply.headers["allow"] == "POST"
    problem_of(client.post("/api/v1/rules"), 405, "method-not-allowed")
    problem_of(client.get("/api/v1/schemas/nothing.json"), 404, "not-found")


def test_a_bug_of_ours_is_a_logged_500_without_its_details(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The generic handler: the traceback goes to the log, never to the client."""

    def broken(_: bytes, __: str) -> object:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(web_judge, "check", broken)
    app = create_app()
    with TestClient(app) as local, caplog.at_level(logging.ERROR, logger="azul_rules.web"):
        reply = post(local, "check", {"state": ROUND_TWO, "move": "2B3"})
    doc = problem_of(reply, 500, "internal-error")
    assert "secret" not in reply.text
    assert "RuntimeError: secret internals" in caplog.text
    assert doc["instance"] == "/api/v1/check"


def test_other_origins_are_let_in_only_when_asked(client: TestClient) -> None:
    headers = {
        "Origin": "https://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    assert (
        "access-control-allow-origin"
        not in client.options("/api/v1/check", headers=headers).headers
    )
    with TestClient(create_app(allow_origins=["https://app.example"])) as open_client:
        reply = open_client.options("/api/v1/check", headers=headers)
        assert reply.headers["access-control-allow-origin"] == "https://app.example"
        reply = post(
            open_client, "check", {"state": ROUND_TWO, "move": "2B3"}, Origin="https://app.example"
        )
        assert reply.headers["access-control-allow-origin"] == "https://app.example"


def test_the_judge_keeps_nothing_between_requests(client: TestClient) -> None:
    """Stateless: the same request, before and after others, gets the same answer."""
    body = {"state": ROUND_TWO, "move": example("partial-take.json"), "lang": "fr"}
    first = post(client, "check", body).text
    post(client, "apply", {"state": ROUND_TWO, "move": "2B3"})
    post(client, "check", {"state": ROUND_TWO, "move": "1B1", "lang": "en"})
    assert post(client, "check", body).text == first


# -- answers JSON text cannot hold ------------------------------------------------------------

TOO_LONG_EN = "an integer of more than 4300 digits: JSON text holds at most that many"
TOO_LONG_FR = "un entier de plus de 4300 chiffres\u202f: le texte JSON n'en admet pas plus"


def test_an_answer_past_4300_digits_is_a_422_naming_each_place(client: TestClient) -> None:
    """A round numbered with 4,300 digits (the longest JSON text holds) ended by the
    move (R1): the next round's number cannot be written; the answer is a 422
    ``unwritable-answer`` naming each place, in the body's language -- not a bare 500
    from a ValueError outside the judge."""
    position, move = round_end_past_4300_digits()
    body = {"state": az.to_dict(position), "move": az.to_dict(move)}
    doc = problem_of(post(client, "apply", body), 422, "unwritable-answer")
    assert doc["title"] == "Unwritable answer"
    assert doc["detail"] == (
        "the answer holds a number too long for JSON text (a round's number grown past "
        "4300 digits)"
    )
    assert doc["errors"] == [
        {"path": "$", "problem": f"the answer would hold, at $.state.round, {TOO_LONG_EN}"}
    ]
    doc = problem_of(post(client, "apply", {**body, "lang": "fr"}), 422, "unwritable-answer")
    assert doc["title"] == "Réponse impossible à écrire"
    assert doc["errors"][0] == {
        "path": "$",
        "problem": f"la réponse contiendrait, en $.state.round, {TOO_LONG_FR}",
    }


def test_a_scoresheet_audit_from_scores_past_4300_digits_is_a_422(
    client: TestClient,
) -> None:
    """W3: a record starting from scores of 4,300 digits on empty walls is refused as
    impossible (422), each score named at its path; no verdict is computed from it."""
    start = az.new_game(2, seed=10)
    start = start.replace(players=tuple(attrs.evolve(b, score=LONGEST_NUMBER)
                                        for b in start.players))  # fmt: skip
    record = {"format_version": 1, "initial_state": az.to_dict(start),
              "moves": [az.to_dict(start.legal_moves()[0])]}  # fmt: skip
    sheet = {"format_version": 1, "rounds": [[1, 2]]}
    reply = post(client, "audit-game", {"record": record, "scoresheet": sheet})
    doc = problem_of(reply, 422, "impossible-position")
    assert [(e["path"], e["code"]) for e in doc["errors"]] == [
        (f"$.record.initial_state.players[{player}].score", "SCORE_OUT_OF_REACH")
        for player in (0, 1)
    ]


# -- docs/web.md's table of every answer's members -------------------------------------------


def _documented_members() -> dict[str, list[str]]:
    """The table "Every answer's members" of docs/web.md: answer -> member names."""
    text = Path("docs/web.md").read_text()
    table = text.split("| answer | members |\n| --- | --- |\n", 1)[1].split("\n\n", 1)[0]
    found: dict[str, list[str]] = {}
    for row in table.splitlines():
        answer, members = row.strip("|").split(" | ")
        found[answer.strip()] = [m.strip("` ") for m in members.split(",")]
    return found


def _real_answers(client: TestClient) -> dict[str, Any]:
    """One real answer (or part of one) for each row of the table."""
    legal = post(client, "legal-moves", {"state": ROUND_TWO}).json()
    first = legal["moves"][0]["move"]
    impossible = post(client, "problems", {"state": example("impossible-position.json")}).json()
    claim = AUDITS / "correct-claim"
    audit = post(client, "audit", {
        "state": json.loads((claim / "position.json").read_text()),
        "claim": json.loads((claim / "claim.json").read_text())}).json()  # fmt: skip
    sheet = AUDITS / "scoresheet-one-wrong-round"
    audit_game = post(client, "audit-game", {
        "record": json.loads((sheet / "record.json").read_text()),
        "scoresheet": json.loads((sheet / "scoresheet.json").read_text())}).json()  # fmt: skip
    disputed = post(client, "audit-game", {
        "record": example("disputed-game.json"),
        "scoresheet": {"format_version": 1, "rounds": []}}).json()  # fmt: skip
    stopped = post(client, "replay", {"record": example("disputed-game.json")}).json()
    ended = post(client, "replay", {"record": example("recorded-game.json"), "at": 49}).json()
    check = post(client, "check", {"state": ROUND_TWO, "move": example("partial-take.json")})
    book = client.get("/api/v1/rules").json()
    asked = client.get("/api/v1/ask", params={"q": "can I split my tiles?"}).json()
    return {
        "`check`": check.json(),
        "`check` `effect` of a take": post(client, "check", {"state": ROUND_TWO,
                                                            "move": first}).json()["effect"],
        "`legal-moves`": legal,
        "`legal-moves` `moves[]`": legal["moves"][0],
        "`apply`": post(client, "apply", {"state": ROUND_TWO, "move": first}).json(),
        "`bot`": post(client, "bot", {"state": ROUND_TWO, "bot": "greedy"}).json(),
        "`new-game`": post(client, "new-game", {"players": 2}).json(),
        "`record`": post(client, "record", {"players": 2, "moves": []}).json(),
        "`problems`": impossible,
        "`problems` `problems[]`": impossible["problems"][0],
        "`position`": post(client, "position", {"state": ROUND_TWO}).json(),
        "`audit`": audit,
        "`audit-game`": audit_game,
        "`audit-game` `rounds[]`": audit_game["rounds"][0],
        "`audit-game` `illegal_move`": disputed["illegal_move"],
        "`replay`": stopped,
        "`replay` `moves[]`": stopped["moves"][0],
        "`replay` `illegal_move`": stopped["illegal_move"],
        "`outcome` (`apply`, `replay`)": ended["outcome"],
        "a violation (`violations[]` everywhere)": check.json()["violations"][0],
        "`rules`": book,
        "`rules` `sections[]`": book["sections"][0],
        "`rules` `sections[].rules[]`": book["sections"][0]["rules"][0],
        "`rules/{id}`": client.get("/api/v1/rules/P3").json(),
        "`health`": client.get("/api/v1/health").json(),
        "`ask`": asked,
        "`ask` `answers[]`": asked["answers"][0],
    }


def test_docs_list_every_member_of_every_answer(client: TestClient) -> None:
    """Regression: docs/web.md left "lang" out of five answers."""
    documented = _documented_members()
    real = _real_answers(client)
    assert list(documented) == list(real)
    for answer, members in documented.items():
        assert list(real[answer]) == members, answer


def test_openapi_lists_every_member_of_every_json_answer(client: TestClient) -> None:
    documented = _documented_members()
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    names = (
        "check", "legal-moves", "apply", "bot", "problems", "position", "audit", "audit-game",
        "replay",
    )  # fmt: skip
    for name in names:
        schema = paths[f"/api/v1/{name}"]["post"]["responses"]["200"]["content"][
            "application/json"]["schema"]  # fmt: skip
        members = documented[f"`{name}`"]
        assert list(schema["properties"]) == members, name
        assert schema["required"] == members, name


# -- every problem of a request at once ------------------------------------------------------


def test_an_unknown_member_does_not_hide_the_known_members_errors(client: TestClient) -> None:
    """Regression: `{"state": {}, "move": "1B1", "foo": 1}` listed only $.foo."""
    body = {"state": {}, "move": "1B1", "foo": 1}
    doc = problem_of(post(client, "check", body), 400, "unreadable-input")
    assert doc["errors"] == [
        {"path": "$.foo", "problem": "unknown member (expected state, move, infer_unseen, lang)"},
        {"path": "$.state.format_version", "problem": "required field missing"},
        {"path": "$.state.players", "problem": "required field missing"},
        {"path": "$.state.factories", "problem": "required field missing"},
        {"path": "$.state.current_player", "problem": "required field missing"},
    ]


def test_every_problem_of_a_request_is_listed_at_once(client: TestClient) -> None:
    """The envelope's problems first (lang, repeated, unknown, missing members), then
    each known member's, in the order the endpoint reads them; a member given twice is
    not read further; an impossible position (422) only once all is readable."""
    raw = (b'{"lang": "de", "record": {"moves": []}, "record": 1, "at": -1, "size": 9,'
           b' "tiling": true}')  # fmt: skip
    reply = client.post("/api/v1/replay", content=raw,
                        headers={"Content-Type": "application/json"})  # fmt: skip
    doc = problem_of(reply, 400, "unreadable-input")
    assert doc["errors"] == [
        {"path": "$.lang", "problem": 'expected "en" or "fr", got the string "de"'},
        {"path": "$.record", "problem": "given twice"},
        {"path": "$.size", "problem": "unknown member (expected record, at, lang)"},
        {"path": "$.tiling", "problem": "unknown member (expected record, at, lang)"},
        {"path": "$.at", "problem": "expected an integer from 0 to 10000, got -1"},
    ]
    impossible = example("impossible-position.json")
    body = {"state": impossible, "move": {"type": "take"}, "claim": 1}
    doc = problem_of(post(client, "apply", body), 400, "unreadable-input")
    assert [e["path"] for e in doc["errors"]] == [
        "$.claim", "$.move.source", "$.move.color", "$.move.line"
    ]
    doc = problem_of(post(client, "apply", {"state": impossible, "move": "1B1"}), 422,
                     "impossible-position")  # fmt: skip
    assert doc["errors"]


def test_render_draws_the_narrow_picture_for_a_phone(client: TestClient) -> None:
    """``"layout": "narrow"``: the phone's picture (azul_rules.svg.board(layout=...));
    ``"wide"`` or nothing: the wide one; anything else a 400 naming $.layout."""
    from azul_rules.svg import board

    state = az.from_dict(ROUND_TWO, az.GameState)
    reply = post(client, "render", {"state": ROUND_TWO, "layout": "narrow", "lang": "fr"})
    assert reply.status_code == 200
    assert reply.text == board(state, layout="narrow", lang="fr")
    assert 'viewBox="0 0 312 ' in reply.text
    wide = post(client, "render", {"state": ROUND_TWO, "layout": "wide"})
    assert wide.text == post(client, "render", {"state": ROUND_TWO}).text == board(state)
    for value, kind in (("tall", 'the string "tall"'), (1, "1")):
        doc = problem_of(
            post(client, "render", {"state": ROUND_TWO, "layout": value}), 400, "unreadable-input"
        )
        assert doc["errors"] == [
            {"path": "$.layout", "problem": f'expected "wide" or "narrow", got {kind}'}
        ]
