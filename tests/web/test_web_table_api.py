"""What the page at the table asks the API (issue 27): a legal move's effect before it is
played, the next position's notation, the problems of tables no game rests at, a built-in
bot's move, and an audit's picture headed "Audit"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import azul_rules as az
from tests.extras import needs

needs("starlette")

from starlette.testclient import TestClient  # noqa: E402

from azul_rules.web import create_app  # noqa: E402

AUDITS = Path(__file__).resolve().parents[2] / "examples" / "audits"
START = az.to_notation(az.new_game(2, seed=7))  # factories: BBYK BRWW YYRK RWWW BYWW
ROUND_TWO_DOC = json.loads(
    (AUDITS.parent / "round-2-position.json").read_text(encoding="utf-8")
)  # fmt: skip


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _post(client: TestClient, path: str, **body: object) -> dict[str, object]:
    answer = client.post(f"/api/v1/{path}", json=body)
    data: dict[str, object] = answer.json()
    data["status"] = answer.status_code
    return data


@pytest.mark.parametrize(
    ("move", "effect"),
    [
        ("1B1", {"to_line": 1, "to_floor": 1, "floor_penalty": 1, "marker": False}),  # P5
        ("4W2", {"to_line": 2, "to_floor": 1, "floor_penalty": 1, "marker": False}),
        ("4W3", {"to_line": 3, "to_floor": 0, "floor_penalty": 0, "marker": False}),
        ("4WF", {"to_line": 0, "to_floor": 3, "floor_penalty": 4, "marker": False}),  # F1
    ],
)
def test_check_says_what_a_legal_take_does_before_it_is_played_p5_f1(
    client: TestClient, move: str, effect: dict[str, object]
) -> None:
    answer = _post(client, "check", state=START, move=move)
    assert answer["ok"] is True and answer["effect"] == effect


def test_the_first_take_from_the_centre_takes_the_marker_and_costs_its_space_p6_f1(
    client: TestClient,
) -> None:
    after = az.from_notation(START).apply(az.parse_move("4W3"))  # its red goes to the centre
    answer = _post(client, "check", state=az.to_notation(after), move="CR1")
    assert answer["effect"] == {"to_line": 1, "to_floor": 0, "floor_penalty": 1, "marker": True}
    illegal = _post(client, "check", state=START, move="CR1")
    assert illegal["ok"] is False and illegal["effect"] is None


def test_the_floor_past_its_seventh_space_costs_nothing_more_f2(client: TestClient) -> None:
    state = az.from_notation(START)
    for move in ["3KF", "1K5", "CYF", "2W3", "5YF", "4R4"]:  # player 1 fills six floor spaces
        state = state.apply(az.parse_move(move))
    assert len(state.players[0].floor) == 6 and state.current_player == 0
    answer = _post(client, "check", state=az.to_notation(state), move="CWF")
    # five whites: one more space (3 points), four go to the lid (F2)
    assert answer["effect"] == {"to_line": 0, "to_floor": 5, "floor_penalty": 3, "marker": False}


def test_apply_answers_the_next_position_as_a_notation(client: TestClient) -> None:
    answer = _post(client, "apply", state=START, move="4W3")
    expected = az.from_notation(START).apply(az.parse_move("4W3"))
    assert answer["position"] == az.to_notation(expected)
    assert az.from_notation(str(answer["position"])) == az.from_dict(answer["state"], az.GameState)


def test_a_table_laid_out_half_way_is_impossible_g2_s6(client: TestClient) -> None:
    """G2, F2: three factories empty while the bag holds tiles, the marker in the
    centre: three takes, so player 2 would be to move; and in round 1 their 12 tiles
    cannot lie in the lid, where only a full floor line sends tiles before the first
    tiling."""
    half = START.replace("b2yk.brw2.y2rk.rw3.byw2.", "b2yk.brw2....", 1)
    answer = _post(client, "problems", state=half)
    assert answer["possible"] is False
    listed: list[dict[str, str]] = answer["problems"]  # type: ignore[assignment]
    assert [(p["code"], p["rule"], p["path"], p["message"]) for p in listed] == [
        ("TURN_OUT_OF_ORDER", "G2", "$.state.current_player",
         "player 1 is to move, but player 2 should be: player 1 started the round, and 3 "
         "factories are empty while the bag holds tiles, so each was filled with 4 and "
         "emptied by a take, one a turn, with no take from the centre yet (the marker is "
         "still there)"),
        ("TILES_FROM_NOWHERE", "F2", "$.state.lid",
         "in round 1 the lid holds 12 tiles, but before the first wall tiling only a full "
         "floor line sends tiles there, and no floor line is full"),
    ]  # fmt: skip
    assert _post(client, "problems", state=START)["possible"] is True
    played = az.to_notation(az.from_notation(START).apply(az.parse_move("4W3")))
    assert _post(client, "problems", state=played)["possible"] is True


def test_a_built_in_bot_chooses_a_legal_move(client: TestClient) -> None:
    state = az.from_notation(START)
    for bot, extra in (("greedy", {}), ("random", {"seed": 3})):
        answer = _post(client, "bot", state=START, bot=bot, **extra)
        assert answer["status"] == 200
        assert state.validate(az.from_dict(answer["move"], az.Move)).ok
    assert _post(client, "bot", state=START, bot="random", seed=3)["notation"] == \
        _post(client, "bot", state=START, bot="random", seed=3)["notation"]  # fmt: skip
    unknown = _post(client, "bot", state=START, bot="alphazero")
    assert unknown["status"] == 400
    problem = "unknown bot: choose one of greedy, random"
    assert unknown["errors"] == [{"path": "$.bot", "problem": problem}]
    waiting = az.to_notation(az.new_game(2, external_draws=True, first_player=0))
    refused = _post(client, "bot", state=waiting, bot="greedy", lang="fr")
    assert refused["status"] == 422
    assert refused["type"] == "urn:azul-rules:problem:no-move"


def test_an_audit_picture_is_headed_audit_with_what_was_claimed_not_illegal(
    client: TestClient,
) -> None:
    folder = AUDITS / "bonus-miscount"
    position = json.loads((folder / "position.json").read_text())
    claim = json.loads((folder / "claim.json").read_text())
    answer = client.post("/api/v1/render", json={"state": position, "claim": claim})
    assert answer.status_code == 200
    svg = answer.text
    assert "Audit of the claimed wall tiling" in svg
    assert "Claimed: player 1" in svg or claim.get("scores") is None
    header = svg[svg.index('<g class="header">'):svg.index('<g class="table">')]
    title = svg[svg.index("<title>"):svg.index("</title>")]
    assert "Illegal" not in svg and "to move" not in header + title
    assert "Audit" in header
    verdict = client.post("/api/v1/audit", json={"state": position, "claim": claim}).json()
    assert verdict["violations"]
    for violation in verdict["violations"]:
        assert violation["code"] in svg
    french = client.post("/api/v1/render", json={"state": position, "claim": claim, "lang": "fr"})
    assert "Audit de la décoration annoncée" in french.text
    both = client.post("/api/v1/render", json={"state": position, "claim": claim, "tiling": True})
    assert both.status_code == 400


def test_svg_board_draws_an_audit_from_python() -> None:
    """``svg.board(state, highlight=svg.Audit(result, scores))``; scores that are not ints
    are a ``FormatError``."""
    from azul_rules import svg
    from azul_rules.adjudication.auditing import position_from_dict
    from azul_rules.adjudication.claims import claim_from_dict

    folder = AUDITS / "correct-claim"
    state = position_from_dict(json.loads((folder / "position.json").read_text()))
    claim = claim_from_dict(json.loads((folder / "claim.json").read_text()))
    picture = svg.board(state, highlight=svg.Audit(az.audit(state, claim), claim.scores))
    assert "the claim is correct" in picture and 'class="verdict audit"' in picture
    with pytest.raises(az.FormatError, match="an Audit's scores are ints"):
        svg.board(state, highlight=svg.Audit(az.audit(state, claim), ("12",)))  # type: ignore[arg-type]


def test_a_round_past_100_digits_has_no_notation_and_no_500(client: TestClient) -> None:
    """A position in round 10**150 exists (a table may send every tile to the floor for
    ever: R1 has no ceiling) but no notation holds it: ``/position`` and ``/apply``
    answer ``null`` for it, not a 500."""
    data = az.to_dict(az.new_game(2, seed=1))
    data["round"] = 10**150
    answer = _post(client, "position", state=data)
    assert answer["status"] == 200 and answer["position"] is None
    moved = _post(client, "apply", state=data, move="1Y1")
    assert moved["status"] == 200 and moved["position"] is None
    with pytest.raises(ValueError, match="more than 100 digits has no notation"):
        az.to_notation(az.from_dict(data, az.GameState))


def test_check_infers_the_unseen_parts_when_asked_and_says_which(client: TestClient) -> None:
    """``infer_unseen``: the round-2 table typed without its bag and lid is judged as
    with them (T2: two of three blues), and the answer names the parts filled in; without
    it, the strict reader's empty bag makes the table impossible (422)."""
    table = {k: v for k, v in ROUND_TWO_DOC.items() if k not in ("bag", "lid", "rng_state")}
    move = {"type": "table_take", "source": 1, "color": "blue", "count": 2,
            "placements": {"2": 2}}  # fmt: skip
    reply = client.post("/api/v1/check", json={"state": table, "move": move,
                                               "infer_unseen": True})  # fmt: skip
    assert reply.status_code == 200, reply.text
    answer = reply.json()
    assert answer["inferred"] == ["bag", "lid"]
    assert [v["code"] for v in answer["violations"]][:1] == ["PARTIAL_TAKE"]
    assert client.post("/api/v1/check", json={"state": table, "move": move}).status_code == 422
    given = client.post("/api/v1/check", json={"state": ROUND_TWO_DOC, "move": move}).json()
    assert given["inferred"] == [] and given["violations"] == answer["violations"]
    wrong = client.post("/api/v1/check", json={"state": table, "move": move,
                                               "infer_unseen": "yes"})  # fmt: skip
    assert wrong.status_code == 400 and "$.infer_unseen" in wrong.text


def test_the_audit_tells_an_incomplete_line_emptied_and_a_game_stopped_at_a_row(
    client: TestClient,
) -> None:
    """The two mistakes of the rule book the page's audit form now tells, as it sends
    them: W2 (the board's lines as left, an incomplete one emptied) and E1 (the game said
    to end with a player's tiling and floor never done)."""
    audits = AUDITS
    emptied = json.loads((audits / "incomplete-line-cleared" / "position.json").read_text())
    claim = {"scores": [5, 0], "boards": [{"pattern_lines": [[], [], [], [], []]}, None]}
    answer = client.post("/api/v1/audit", json={"state": emptied, "claim": claim}).json()
    assert [(v["code"], v["rule"]) for v in answer["violations"]] == [
        ("INCOMPLETE_LINE_CLEARED", "W2")]
    stopped = json.loads((audits / "game-ended-early" / "position.json").read_text())
    claim = {"scores": [15, 8], "game_over": True}
    answer = client.post("/api/v1/audit", json={"state": stopped, "claim": claim}).json()
    assert ("GAME_ENDED_EARLY", "E1") in [(v["code"], v["rule"]) for v in answer["violations"]]
