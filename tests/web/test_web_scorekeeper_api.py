"""``POST /api/v1/scorekeeper``: a sheet of a game played with the real box, scored by
the judge.  Worked examples of W3 (a tile alone, a run, the cross tile counted in both
runs), F1/F3 (the marker's space), W4 (no score below 0), E2 and E4, the audit's codes
for wrong written figures, the impossible entries refused with their rule, and the
sheet's notation (docs/scorekeeper.md)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.extras import needs

needs("starlette")

from starlette.testclient import TestClient  # noqa: E402

from azul_rules.core.errors import FormatError  # noqa: E402
from azul_rules.web.sheet import (  # noqa: E402
    MAX_NOTATION,
    sheet_from_data,
    sheet_from_notation,
    sheet_to_dict,
    sheet_to_notation,
)

PATH = "/api/v1/scorekeeper"


def post(client: TestClient, sheet: object, status: int = 200, **more: object) -> Any:
    response = client.post(PATH, json={"sheet": sheet, **more})
    assert response.status_code == status, response.text
    return response.json()


def entry(*placed: tuple[int, int], floor: int = 0, marker: bool = False,
          written: int | None = None) -> dict[str, object]:  # fmt: skip
    doc: dict[str, object] = {"placed": [list(p) for p in placed], "floor": floor,
                              "marker": marker}  # fmt: skip
    if written is not None:
        doc["written"] = written
    return doc


def cross_sheet(written: int | None = None) -> dict[str, object]:
    """Player 1 lays black at row 1, column 4 and black at row 2, column 5 (1 + 1), then
    yellow at row 2, column 3 (alone: 1), then the red of row 2, column 4 — the audit's
    example of docs/audit.md: 3 across + 2 down = 5 — with the marker and two tiles on
    the floor (1 + 1 + 2 = 4, F3): 3 + 5 - 4 = 4."""
    return {"players": 2, "rounds": [
        [entry((0, 3), (1, 4)), entry()],
        [entry((1, 2)), entry((0, 0))],
        [entry((1, 3), floor=2, marker=True, written=written), entry()],
    ]}  # fmt: skip


def test_each_placement_scores_by_w3_and_the_floor_by_f1_f3(client: TestClient) -> None:
    answer = post(client, cross_sheet())
    first, second, third = (r["players"][0] for r in answer["rounds"])
    assert [p["points"] for p in first["placements"]] == [1, 1]
    assert second["placements"] == [{"row": 1, "column": 2, "color": "yellow",
                                     "horizontal": 1, "vertical": 1, "points": 1}]  # fmt: skip
    assert third["placements"] == [{"row": 1, "column": 3, "color": "red",
                                    "horizontal": 3, "vertical": 2, "points": 5}]  # fmt: skip
    assert (third["floor_penalty"], third["score_before"], third["score_after"]) == (4, 3, 4)
    assert answer["totals"] == [4, 1]
    assert answer["game_over"] is False and answer["end"] is None
    assert answer["scoresheet"] == {"format_version": 1, "rounds": [[2, 0], [3, 1], [4, 1]]}
    assert answer["correct"] is True


def test_a_wrong_written_total_is_named_with_the_audits_codes(client: TestClient) -> None:
    # 5 = 3 + 4 - 2: the cross tile counted once (4) and the marker's space forgotten (2)
    answer = post(client, cross_sheet(written=5))
    third = answer["rounds"][2]["players"][0]
    assert [(v["code"], v["rule"]) for v in third["violations"]] == [
        ("CROSS_COUNTED_ONCE", "W3"), ("MARKER_PENALTY_FORGOTTEN", "F3")]
    assert third["violations"][0]["params"]["round"] == 3
    assert third["written"] == 5 and third["score_after"] == 4
    assert answer["correct"] is False


def test_a_figure_carried_from_a_wrong_one_is_not_named_again(client: TestClient) -> None:
    sheet = {"players": 2, "rounds": [
        [entry((0, 0), written=2), entry()],       # 1 point, written 2: wrong
        [entry((0, 1), written=4), entry()],       # 2 across: 2 + 2 = 4 from the written 2
    ]}  # fmt: skip
    answer = post(client, sheet, lang="fr")
    first, second = (r["players"][0] for r in answer["rounds"])
    assert [v["code"] for v in first["violations"]] == ["SCORE_MISCOUNT"]
    assert second["violations"] == [] and second["score_after"] == 3
    assert first["violations"][0]["message"].startswith("le joueur 1")


def test_w4_a_score_never_goes_below_zero(client: TestClient) -> None:
    answer = post(client, {"players": 2, "rounds": [[entry((0, 0), floor=7, written=-13),
                                                     entry()]]})  # fmt: skip
    player = answer["rounds"][0]["players"][0]
    assert (player["floor_penalty"], player["score_after"]) == (14, 0)
    assert [v["code"] for v in player["violations"]] == ["SCORE_BELOW_ZERO"]


def row_sheet(end: dict[str, object] | None = None) -> dict[str, object]:
    """Player 1 fills wall row 1 from the left over five rounds (1, 2, 3, 4, 5: 15);
    player 2 lays one tile in column 1 each round (1, 2, 3, 4, 5 down: 15 too)."""
    rounds = [[entry((0, k), written=15 if k == 4 else None),
               entry((k, 0) if k else (0, 0))] for k in range(5)]  # fmt: skip
    rounds[0][1] = entry((0, 0))
    return {"players": 2, "rounds": rounds, **({"end": end} if end else {})}


def test_the_end_bonuses_and_the_winner_e2_e4(client: TestClient) -> None:
    answer = post(client, row_sheet())
    assert answer["totals"] == [15, 15]
    assert answer["game_over"] is True
    end = answer["end"]
    assert end["bonuses"] == [
        {"rows": 1, "columns": 0, "colors": 0, "points": 2},
        {"rows": 0, "columns": 1, "colors": 0, "points": 7},
    ]
    assert end["final"] == [17, 22] and end["winners"] == [1]
    assert answer["scoresheet"]["final"] == [17, 22]
    assert answer["scoresheet"]["winners"] == [1]


def test_wrong_end_figures_are_named(client: TestClient) -> None:
    written = {"bonuses": [7, None], "final": [22, None], "winners": [0]}
    answer = post(client, row_sheet(written))
    assert [(v["code"], v["rule"]) for v in answer["end"]["violations"]] == [
        ("BONUS_MISCOUNT", "E2"), ("WRONG_WINNER", "E4")]
    assert answer["end"]["written"] == written
    assert answer["correct"] is False


def refused(client: TestClient, sheet: object, lang: str = "en") -> list[dict[str, Any]]:
    problem = post(client, sheet, 422, lang=lang)
    assert problem["type"] == "urn:azul-rules:problem:impossible-position"
    return list(problem["errors"])


@pytest.mark.parametrize(
    ("rounds", "path", "rule", "start"),
    [
        ([[entry((0, 0)), entry()], [entry((0, 0)), entry()]], "$.sheet.rounds[1][0].placed[0]",
         "P3", "player 1's wall already holds the blue tile of row 1, column 1"),
        ([[entry((2, 0), (2, 3)), entry()]], "$.sheet.rounds[0][0].placed[1]", "W1",
         "player 1 laid two tiles in wall row 3 in round 1"),
        ([[entry(), entry(floor=8)]], "$.sheet.rounds[0][1].floor", "F2",
         "player 2's floor line holds 8 tiles"),
        ([[entry(marker=True), entry(marker=True)]], "$.sheet.rounds[0]", "T3",
         "the starting player marker lies on 2 floor lines in round 1"),
        ([[entry((4, 0), (3, 0), (2, 0)), entry((4, 1), (3, 1))]], "$.sheet.rounds[0]", "R2",
         "round 1 needs at least 21 tiles"),
    ],
)  # fmt: skip
def test_impossible_entries_are_refused_with_their_reason(
    client: TestClient, rounds: list[Any], path: str, rule: str, start: str
) -> None:
    errors = refused(client, {"players": 2, "rounds": rounds})
    assert [(e["path"], e["rule"]) for e in errors] == [(path, rule)]
    assert errors[0]["problem"].startswith(start)


def test_a_colour_short_of_tiles_is_refused_s3(client: TestClient) -> None:
    four_blue = [entry((4, 4), (3, 3)) for _ in range(4)]  # lines 5 and 4, blue: 36 tiles
    errors = refused(client, {"players": 4, "rounds": [four_blue]}, lang="fr")
    assert [e["rule"] for e in errors] == ["S3"]
    assert errors[0]["problem"] == ("les lignes de préparation complétées au tour 1 demandent "
                                    "36 carreaux de couleur bleue, mais il n'en reste que 20 "
                                    "hors des murs")  # fmt: skip


def test_a_round_after_the_end_is_refused_e1(client: TestClient) -> None:
    sheet = row_sheet()
    rounds = sheet["rounds"]
    assert isinstance(rounds, list)
    sheet["rounds"] = [*rounds, [entry(), entry()]]
    errors = refused(client, sheet)
    assert [(e["path"], e["rule"]) for e in errors] == [("$.sheet.rounds[5]", "E1")]


def test_the_notation_carries_the_sheet_and_each_round_links_to_its_part(
    client: TestClient,
) -> None:
    answer = post(client, cross_sheet(written=5))
    assert answer["notation"] == "2_1425._23.11_24f2mw5."
    assert [r["notation"] for r in answer["rounds"]] == [
        "2_1425.", "2_1425._23.11", "2_1425._23.11_24f2mw5."]
    again = post(client, answer["notation"])
    assert again["rounds"] == answer["rounds"] and again["sheet"] == answer["sheet"]
    ended = post(client, row_sheet({"bonuses": [7, None], "winners": [0]}))
    assert ended["notation"].endswith("_eb7.W1")
    assert sheet_from_notation(ended["notation"]) == sheet_from_data(ended["sheet"])


def test_a_real_games_notation_stays_short() -> None:
    busy = {"players": 4, "rounds": [[entry((0, 0), (1, 1), (2, 2), (3, 3), floor=7,
                                             marker=p == 0, written=-999999)
                                       for p in range(4)] for _ in range(10)]}  # fmt: skip
    text = sheet_to_notation(sheet_from_data(busy))
    assert len(text) < 1000 < MAX_NOTATION
    assert sheet_to_dict(sheet_from_notation(text)) == sheet_to_dict(sheet_from_data(busy))


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("5_", "$: the notation starts with the number of players (2 to 4)"),
        ("2_11x.", "$: character 5 (round 1, player 1): expected pairs"),
        ("2_11", "$: character 3 (round 1): expected 2 entries joined by '.', got 1"),
        ("2_11.w2000000", "$.rounds[0][1].written: expected an integer from -1000000"),
        ("2_" + "." * MAX_NOTATION, f"$: a sheet's notation is at most {MAX_NOTATION}"),
    ],
)
def test_a_malformed_notation_says_where(text: str, where: str) -> None:
    with pytest.raises(FormatError) as caught:
        sheet_from_notation(text)
    assert str(caught.value).startswith(where)


def test_an_unreadable_sheet_is_a_400_with_every_path(client: TestClient) -> None:
    problem = post(client, {"players": 5, "rounds": [[{"placed": [[5, 0]], "floor": -1}]],
                            "colour": 1}, 400)  # fmt: skip
    paths = [e["path"] for e in problem["errors"]]
    assert paths == ["$.sheet.colour", "$.sheet.players", "$.sheet.rounds[0]"]


# -- a miscount, then a right total (issue 37) -----------------------------------------------

MISCOUNT_THEN_RIGHT = "2_112534mw2.112131w6_12213143f4w5.12234452mw10_1533w10.13253441f1mw21"
"""Player 1 writes 2 (right), then 5 where the rules give 4 (round 2: a miscount), then
10, the rules' total (round 3: right again, the miscount put right)."""


def test_a_right_total_after_a_miscount_is_judged_right(client: TestClient) -> None:
    answer = post(client, MISCOUNT_THEN_RIGHT)
    rounds = [r["players"][0] for r in answer["rounds"]]
    assert [p["score_after"] for p in rounds] == [2, 4, 10]
    assert [p["verdict"] for p in rounds] == ["right", "wrong", "corrected"]
    assert [v["code"] for v in rounds[1]["violations"]] == ["EMPTY_DIRECTION_COUNTED"]
    assert rounds[2]["violations"] == []
    assert rounds[2]["corrects"] == 2
    assert "✗" not in rounds[2]["verdict_text"] and "CROSS" not in rounds[2]["verdict_text"]


def test_a_guessed_mistake_is_worded_as_a_guess(client: TestClient) -> None:
    answer = post(client, MISCOUNT_THEN_RIGHT)
    second = answer["rounds"][1]["players"][0]
    assert second["expected"] == 4
    guess = second["violations"][0]
    assert guess["guess"] is True
    assert second["verdict_text"].startswith("5 written; 2 before and +2 this round make 4")
    assert "; perhaps: player 1's yellow tile at row 1, column 2" in second["verdict_text"]
    marker = answer["rounds"][2]["players"][1]  # 21 for 20: the marker's space forgotten
    assert marker["verdict"] == "wrong"
    assert [(v["code"], v["guess"]) for v in marker["violations"]] == [
        ("MARKER_PENALTY_FORGOTTEN", True)]


def test_a_certain_mistake_is_not_worded_as_a_guess(client: TestClient) -> None:
    answer = post(client, {"players": 2, "rounds": [[entry((0, 0), floor=7, written=-13),
                                                     entry()]]})  # fmt: skip
    player = answer["rounds"][0]["players"][0]
    assert [(v["code"], v["guess"]) for v in player["violations"]] == [
        ("SCORE_BELOW_ZERO", False)]
    assert "perhaps" not in player["verdict_text"]


def test_a_total_carried_from_a_miscount_is_not_a_new_mistake(client: TestClient) -> None:
    sheet = {"players": 2, "rounds": [
        [entry((0, 0), written=2), entry()],       # 1 point, written 2: wrong
        [entry((0, 1)), entry()],                  # nothing written
        [entry((1, 1), written=6), entry()],       # 2 + 2 + 2 = 6 from the written 2: carried
    ]}  # fmt: skip
    answer = post(client, sheet)
    first, _, third = (r["players"][0] for r in answer["rounds"])
    assert first["verdict"] == "wrong"
    assert (third["verdict"], third["violations"], third["score_after"]) == ("carried", [], 5)
    assert third["carries"] == 1
    assert "give 5" in third["verdict_text"] and "round 1" in third["verdict_text"]


def four_player_french_sheet() -> str:
    """Four players, each writing every total: player 3 lays row 1, column 1, then row 2,
    column 2 (alone: 1, total 2) but writes 3 (the diagonal counted), then row 1, column
    2 (2 across + 2 down: 4) and writes 6, the rules' total; the others count right."""
    rounds = [
        ["11w1", "12w1", "11w1", "14w1"],
        ["12w3", "13w3", "22w3", "15w3"],
        ["13w6", "14w6", "12w6", "13w6"],
    ]
    return "4_" + "_".join(".".join(r) for r in rounds)


def test_four_players_in_french_a_miscount_then_a_right_total(client: TestClient) -> None:
    answer = post(client, four_player_french_sheet(), lang="fr")
    third = [r["players"][2] for r in answer["rounds"]]
    assert [p["score_after"] for p in third] == [1, 2, 6]
    assert [p["verdict"] for p in third] == ["right", "wrong", "corrected"]
    assert [v["code"] for v in third[1]["violations"]] == ["DIAGONAL_COUNTED"]
    assert third[1]["verdict_text"].startswith("3 noté\u202f; 1 avant et +1 ce tour font 2")
    assert "peut-être\u202f: " in third[1]["verdict_text"]
    assert third[2]["violations"] == [] and "tour 2" in third[2]["verdict_text"]
    others = [p for r in answer["rounds"] for i, p in enumerate(r["players"]) if i != 2]
    assert all(p["verdict"] == "right" for p in others)
