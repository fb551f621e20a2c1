"""``POST /api/v1/scorekeeper`` on the grey wall (V1-V5, docs/scorekeeper.md): each space
laid names its colour; the placements scored by W3 on the columns the players chose, the
floor by F1/F3, a wrong written total named with the audit's codes, the impossible
columns refused with their rule (V1, V2, V5), and the wall carried by the sheet's JSON
and notation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.extras import needs

needs("starlette")

from starlette.testclient import TestClient  # noqa: E402

from azul_rules.core.errors import FormatError  # noqa: E402
from azul_rules.core.phases import Variant  # noqa: E402
from azul_rules.web.sheet import sheet_from_data, sheet_from_notation  # noqa: E402
from tests.web.test_web_scorekeeper_api import post  # noqa: E402  (the same endpoint)

PATH = "/api/v1/scorekeeper"


def entry(*placed: tuple[int, int, str], floor: int = 0, marker: bool = False,
          written: int | None = None) -> dict[str, object]:  # fmt: skip
    doc: dict[str, object] = {"placed": [list(p) for p in placed], "floor": floor,
                              "marker": marker}  # fmt: skip
    if written is not None:
        doc["written"] = written
    return doc


def grey_sheet(written: int | None = None) -> dict[str, object]:
    """Player 1 lays black at row 1, column 4 and red at row 2, column 5 (a space the
    coloured wall gives black): 1 + 1; then blue at row 2, column 3 (alone: 1); then
    yellow at row 2, column 4, the cross tile: 3 across + 2 down = 5, with the marker
    and two tiles on the floor (1 + 1 + 2 = 4, F3): 3 + 5 - 4 = 4.  Player 2 lays white
    at row 1, column 1, then yellow under it (2 down): 1 + 2 = 3."""
    return {"players": 2, "wall": "grey", "rounds": [
        [entry((0, 3, "black"), (1, 4, "red")), entry((0, 0, "white"))],
        [entry((1, 2, "blue")), entry((1, 0, "yellow"))],
        [entry((1, 3, "yellow"), floor=2, marker=True, written=written), entry()],
    ]}  # fmt: skip


def test_each_grey_placement_scores_by_w3_on_the_column_chosen(client: TestClient) -> None:
    answer = post(client, grey_sheet())
    assert answer["wall"] == "grey"
    first, second, third = (r["players"][0] for r in answer["rounds"])
    assert first["placements"] == [
        {"row": 0, "column": 3, "color": "black", "horizontal": 1, "vertical": 1, "points": 1},
        {"row": 1, "column": 4, "color": "red", "horizontal": 1, "vertical": 1, "points": 1},
    ]
    assert [p["points"] for p in second["placements"]] == [1]
    assert third["placements"] == [{"row": 1, "column": 3, "color": "yellow",
                                    "horizontal": 3, "vertical": 2, "points": 5}]  # fmt: skip
    assert (third["floor_penalty"], third["score_before"], third["score_after"]) == (4, 3, 4)
    assert [p["points"] for p in answer["rounds"][1]["players"][1]["placements"]] == [2]
    assert answer["totals"] == [4, 3]
    assert answer["scoresheet"] == {"format_version": 1, "rounds": [[2, 1], [3, 3], [4, 3]]}
    assert answer["correct"] is True and answer["game_over"] is False


def test_a_wrong_grey_total_is_named_with_the_audits_codes(client: TestClient) -> None:
    # 5 = 3 + 4 - 2: the cross tile counted once (4) and the marker's space forgotten (2)
    answer = post(client, grey_sheet(written=5))
    third = answer["rounds"][2]["players"][0]
    assert [(v["code"], v["rule"]) for v in third["violations"]] == [
        ("CROSS_COUNTED_ONCE", "W3"), ("MARKER_PENALTY_FORGOTTEN", "F3")]
    assert third["violations"][0]["params"]["round"] == 3
    assert (third["written"], third["score_after"]) == (5, 4)
    assert answer["correct"] is False


def test_a_right_grey_total_is_not_named(client: TestClient) -> None:
    answer = post(client, grey_sheet(written=4))
    assert answer["rounds"][2]["players"][0]["violations"] == []
    assert answer["correct"] is True


def refused(client: TestClient, rounds: list[Any], lang: str = "en") -> list[dict[str, Any]]:
    problem = post(client, {"players": 2, "wall": "grey", "rounds": rounds}, 422, lang=lang)
    assert problem["type"] == "urn:azul-rules:problem:impossible-position"
    return list(problem["errors"])


@pytest.mark.parametrize(
    ("rounds", "path", "rule", "said"),
    [
        ([[entry((0, 0, "red")), entry()], [entry((2, 0, "red")), entry()]],
         "$.sheet.rounds[1][0].placed[0]", "V2",
         "player 1's red tile at row 3, column 1: column 1 already holds a red tile"),
        ([[entry((0, 0, "red")), entry()], [entry((0, 3, "red")), entry()]],
         "$.sheet.rounds[1][0].placed[0]", "V5",
         "player 1's red tile at row 1, column 4: row 1 already holds a red tile"),
        ([[entry((0, 0, "red")), entry()], [entry((0, 0, "blue")), entry()]],
         "$.sheet.rounds[1][0].placed[0]", "V1",
         "player 1's wall already holds a red tile in row 1, column 1"),
        # within one round, tiled top to bottom (V3): the lower tile is the one refused
        ([[entry((3, 2, "white"), (1, 2, "white")), entry()]],
         "$.sheet.rounds[0][0].placed[0]", "V2",
         "player 1's white tile at row 4, column 3: column 3 already holds a white tile"),
        ([[entry(), entry((2, 0, "black"), (2, 4, "blue"))]],
         "$.sheet.rounds[0][1].placed[1]", "W1",
         "player 2 laid two tiles in wall row 3 in round 1"),
    ],
)  # fmt: skip
def test_impossible_grey_entries_are_refused_with_their_rule(
    client: TestClient, rounds: list[Any], path: str, rule: str, said: str
) -> None:
    errors = refused(client, rounds)
    assert [(e["path"], e["rule"]) for e in errors] == [(path, rule)]
    assert errors[0]["problem"].startswith(said)


def test_a_grey_refusal_in_french(client: TestClient) -> None:
    errors = refused(client, [[entry((0, 0, "blue")), entry()], [entry((4, 0, "blue")), entry()]],
                     lang="fr")  # fmt: skip
    assert errors[0]["problem"].startswith(
        "le carreau de couleur bleue du joueur 1 à la rangée 5, colonne 1\u202f: la colonne 1 "
        "porte déjà un carreau de couleur bleue")


def test_the_grey_notation_carries_the_wall_and_the_colours(client: TestClient) -> None:
    answer = post(client, grey_sheet(written=5))
    assert answer["notation"] == "2g_14K25R.11W_23B.21Y_24Yf2mw5."
    assert [r["notation"] for r in answer["rounds"]] == [
        "2g_14K25R.11W", "2g_14K25R.11W_23B.21Y", "2g_14K25R.11W_23B.21Y_24Yf2mw5."]
    again = post(client, answer["notation"])
    assert again["rounds"] == answer["rounds"] and again["sheet"] == answer["sheet"]
    assert answer["sheet"]["wall"] == "grey"
    assert answer["sheet"]["rounds"][0][0]["placed"] == [[0, 3, "black"], [1, 4, "red"]]
    sheet = sheet_from_notation(answer["notation"])
    assert sheet.wall is Variant.GREY and sheet == sheet_from_data(answer["sheet"])


def test_a_coloured_sheet_reads_as_before_and_says_its_wall(client: TestClient) -> None:
    answer = post(client, "2_1425._23.11")
    assert answer["wall"] == "colored" and answer["sheet"]["wall"] == "colored"
    assert answer["notation"] == "2_1425._23.11"
    assert answer["sheet"]["rounds"][0][0]["placed"] == [[0, 3], [1, 4]]


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ({"players": 2, "wall": "grey", "rounds": [[{"placed": [[0, 0]]}, {}]]},
         "$.rounds[0][0].placed[0]: expected 3 items, got 2"),
        ({"players": 2, "wall": "grey", "rounds": [[{"placed": [[0, 0, "green"]]}, {}]]},
         "$.rounds[0][0].placed[0][2]: expected a colour"),
        ({"players": 2, "rounds": [[{"placed": [[0, 0, "blue"]]}, {}]]},
         "$.rounds[0][0].placed[0]: expected 2 items, got 3"),
        ({"players": 2, "wall": "gray"}, "$.wall: expected \"colored\" or \"grey\""),
        ("2g_11.", "$: character 4 (round 1, player 1): expected a row, a column (1-5) and "
                   "a colour"),
        ("2_11B.", "$: character 5 (round 1, player 1): expected pairs"),
    ],
)  # fmt: skip
def test_a_malformed_grey_sheet_says_where(value: object, where: str) -> None:
    with pytest.raises(FormatError) as caught:
        sheet_from_data(value)
    assert str(caught.value).startswith(where)


def test_the_openapi_description_says_the_wall(client: TestClient) -> None:
    jsonschema = needs("jsonschema")
    operation = client.get("/api/v1/openapi.json").json()["paths"][PATH]["post"]
    sheet = operation["requestBody"]["content"]["application/json"]["schema"]["properties"]
    reply = operation["responses"]["200"]["content"]["application/json"]["schema"]
    answer = post(client, grey_sheet(written=5))
    check = jsonschema.Draft202012Validator(sheet["sheet"])
    assert check.is_valid(grey_sheet()) and check.is_valid(answer["notation"])
    assert not check.is_valid({"players": 2, "wall": "gray"})
    assert "wall" in reply["required"]
    assert jsonschema.Draft202012Validator(reply["properties"]["wall"]).is_valid(answer["wall"])


# Both players lay the same wall over five rounds, four tiles a row, each row's empty
# space in a column that already holds the colour the row lacks (row 1 lacks white, and
# column 1 holds it in row 5; and so on): no row can ever be completed.
STUCK = [
    "12B21B", "13K23W31Y41K51W", "14R24Y32K42Y52R", "15Y25K34W43R53B", "35R45B54K",
]  # fmt: skip


def stuck_notation(rounds: int) -> str:
    return "_".join(["2g", *(f"{code}.{code}" for code in STUCK[:rounds])])


def test_a_grey_game_ends_when_no_row_can_be_completed_r7(client: TestClient) -> None:
    assert post(client, stuck_notation(4))["game_over"] is False
    answer = post(client, stuck_notation(5))
    assert answer["game_over"] is True and answer["totals"] == [66, 66]
    assert answer["end"]["bonuses"][0] == {"rows": 0, "columns": 0, "colors": 1, "points": 10}
    assert answer["end"]["final"] == [76, 76] and answer["end"]["winners"] == [0, 1]
    problem = post(client, stuck_notation(5) + "_.", 422)
    assert [(e["path"], e["rule"]) for e in problem["errors"]] == [("$.sheet.rounds[5]", "R7")]
    assert problem["errors"][0]["problem"].startswith("round 6 comes after the end of the game")


def random_grey_rounds(rng: random.Random, players: int) -> list[list[dict[str, Any]]]:
    """A few rounds of random grey entries: up to two rows a player, any column and colour
    (many are impossible and refused)."""
    names = ["blue", "yellow", "red", "black", "white"]
    return [[{"placed": [[r, rng.randrange(5), rng.choice(names)]
                         for r in rng.sample(range(5), rng.randint(0, 2))],
              "floor": rng.choice([0, 1, 3])} for _ in range(players)]
            for _ in range(rng.randint(1, 6))]  # fmt: skip


def test_the_audit_agrees_with_the_grey_figures_on_random_sheets(client: TestClient) -> None:
    """Every total written as the judge gave it is right; one written a point too high
    is named — the scorekeeper's W3 on the columns chosen and the audit's agree."""
    rng = random.Random(11)
    checked = 0
    while checked < 40:
        players = rng.choice([2, 3])
        rounds = random_grey_rounds(rng, players)
        sheet = {"players": players, "wall": "grey", "rounds": rounds}
        response = client.post(PATH, json={"sheet": sheet})
        if response.status_code == 422:
            continue
        for entries, scored in zip(rounds, response.json()["rounds"], strict=True):
            for entry_, player in zip(entries, scored["players"], strict=True):
                entry_["written"] = player["score_after"]
        assert post(client, sheet)["correct"] is True
        rounds[-1][0]["written"] += 1
        assert post(client, sheet)["rounds"][-1]["players"][0]["violations"] != []
        checked += 1
