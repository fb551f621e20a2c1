"""Playing a game at the page, in process (Starlette's test client): ``new-game`` deals
what ``az.new_game`` deals, a whole game played through the API (``bot`` and ``apply``)
comes back from ``record`` as the library's own record, every refusal names its path,
the limits hold, and the page carries ``play.js``'s words (``web.play.*``)."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from typing import Any

import pytest

import azul_rules as az
from tests.extras import needs

needs("starlette")
needs("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from azul_rules.text import keys, languages  # noqa: E402
from azul_rules.web.page import PLAY_PREFIX, PLURALS, page_words  # noqa: E402
from azul_rules.web.play import MAX_GAME_MOVES, MAX_SEED  # noqa: E402
from tests.web.test_web_api import _documented_members, post, problem_of  # noqa: E402

STATIC = files("azul_rules.web").joinpath("static")


# -- new-game --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed", "variant"), [(2, 7, "colored"), (3, MAX_SEED, "grey"),
                                                          (4, 0, "grey")])  # fmt: skip
def test_new_game_deals_what_the_library_deals(
    client: TestClient, players: int, seed: int, variant: str
) -> None:
    reply = post(client, "new-game", {"players": players, "seed": seed, "variant": variant})
    assert reply.status_code == 200, reply.text
    doc = reply.json()
    dealt = az.new_game(players, seed=seed, variant=variant)
    assert doc == {"players": players, "seed": seed, "variant": variant,
                   "state": az.to_dict(dealt), "position": az.to_notation(dealt)}  # fmt: skip
    assert az.from_notation(doc["position"]) == dealt


def test_new_game_takes_seed_0_and_the_coloured_wall_by_default(client: TestClient) -> None:
    doc = post(client, "new-game", {"players": 2}).json()
    assert (doc["seed"], doc["variant"]) == (0, "colored")
    assert doc["position"] == az.to_notation(az.new_game(2))


def test_new_game_names_every_wrong_setting_at_once(client: TestClient) -> None:
    body = {"players": True, "seed": MAX_SEED + 1, "variant": "purple", "moves": []}
    doc = problem_of(post(client, "new-game", body), 400, "unreadable-input")
    assert doc["errors"] == [
        {"path": "$.moves", "problem": "unknown member (expected players, seed, variant, lang)"},
        {"path": "$.players", "problem": "expected an integer from 2 to 4, got true"},
        {"path": "$.seed",
         "problem": f"expected an integer from 0 to {MAX_SEED}, got {MAX_SEED + 1}"},
        {"path": "$.variant", "problem": 'expected "colored" or "grey", got the string "purple"'},
    ]  # fmt: skip
    french = problem_of(post(client, "new-game", {"players": 5, "lang": "fr"}), 400,
                        "unreadable-input")  # fmt: skip
    assert french["errors"] == [
        {"path": "$.players", "problem": "attendu\u202f: un entier de 2 à 4\u202f; reçu\u202f: 5"}]
    missing = problem_of(post(client, "new-game", {}), 400, "unreadable-input")
    assert missing["errors"] == [{"path": "$.players", "problem": "required member missing"}]


# -- a whole game, then its record -----------------------------------------------------------


def _play_out(client: TestClient, players: int, seed: int, variant: str) -> dict[str, Any]:
    """A game between a greedy and random bots played through the API alone: each move
    asked of ``bot``, refereed by ``apply``; the moves, the positions and the end."""
    start = post(client, "new-game", {"players": players, "seed": seed, "variant": variant})
    position = start.json()["position"]
    moves: list[Any] = []
    positions = [position]
    applied: dict[str, Any] = {}
    while not applied.get("game_over"):
        seat = az.from_notation(position).current_player
        name = "greedy" if seat == 0 else "random"
        chosen = post(client, "bot", {"state": position, "bot": name, "seed": len(moves)})
        assert chosen.status_code == 200, chosen.text
        applied = post(client, "apply", {"state": position, "move": chosen.json()["move"]}).json()
        moves.append(applied["notation"] or applied["move"])
        position = applied["position"]
        positions.append(position)
        assert len(moves) < MAX_GAME_MOVES
    return {"moves": moves, "positions": positions, "outcome": applied["outcome"]}


@pytest.mark.parametrize(("players", "seed", "variant"), [(2, 3, "colored"), (3, 5, "grey")])
def test_a_game_played_through_the_api_comes_back_as_the_librarys_record(
    client: TestClient, players: int, seed: int, variant: str
) -> None:
    game = _play_out(client, players, seed, variant)
    settings = {"players": players, "seed": seed, "variant": variant}
    reply = post(client, "record", {**settings, "moves": game["moves"]})
    assert reply.status_code == 200, reply.text
    doc = reply.json()
    record = az.GameRecord.from_json(doc["text"])
    assert record == az.GameRecord.from_dict(doc["record"])
    assert doc["text"] == record.to_json() and doc["record"] == record.to_dict()
    assert (record.players, record.seed, record.variant.value) == (players, seed, variant)
    played = record.replay()
    assert played.ok and played.final.is_over and len(played.states) == len(game["moves"]) + 1
    assert doc["positions"] == game["positions"] == [az.to_notation(s) for s in played.states]
    assert doc["game_over"] is True and doc["outcome"] == game["outcome"]
    assert doc["outcome"]["scores"] == [p.score for p in played.final.players]


def test_a_record_of_a_game_under_way_has_no_outcome(client: TestClient) -> None:
    doc = post(client, "record", {"players": 2, "seed": 7, "moves": ["1B1", "4W3"]}).json()
    assert doc["game_over"] is False and doc["outcome"] is None
    assert json.loads(doc["text"])["moves"] == ["1B1", "4W3"] and len(doc["positions"]) == 3
    assert az.from_notation(doc["positions"][1]) == az.new_game(2, seed=7).apply(
        az.parse_move("1B1")).replace(last_scoring=None)  # fmt: skip


def test_record_refuses_an_illegal_move_naming_its_number(client: TestClient) -> None:
    body = {"players": 2, "seed": 7, "moves": ["1B1", "1B2"], "lang": "fr"}
    doc = problem_of(post(client, "record", body), 422, "illegal-move")
    assert doc["number"] == 2 and doc["notation"] == "1B2"
    assert doc["move"] == {"type": "take", "source": 0, "color": "blue", "line": 1}
    assert [v["code"] for v in doc["violations"]] == ["EMPTY_SOURCE"]
    assert doc["detail"] == (
        "coup 2\u202f: EMPTY_SOURCE (T2)\u202f: la fabrique 1 ne contient aucun carreau"
    )


def test_record_names_each_unreadable_move_and_setting(client: TestClient) -> None:
    body = {"players": 1, "moves": ["1B1", "9Z9", 3, {"type": "take", "source": 0}]}
    doc = problem_of(post(client, "record", body), 400, "unreadable-input")
    assert [e["path"] for e in doc["errors"]] == [
        "$.players", "$.moves[1]", "$.moves[2]", "$.moves[3].color", "$.moves[3].line"]
    assert doc["errors"][2]["problem"] == (
        'expected a move object or the notation such as "3B2", got 3')
    not_array = problem_of(post(client, "record", {"players": 2, "moves": "1B1"}), 400,
                           "unreadable-input")  # fmt: skip
    assert not_array["errors"] == [{"path": "$.moves", "problem": (
        'expected an array of moves (move objects or notations such as "3B2"), '
        'got the string "1B1"')}]  # fmt: skip


def test_record_refuses_more_moves_than_a_game_at_the_page_holds(client: TestClient) -> None:
    body = {"players": 2, "moves": ["1B1"] * (MAX_GAME_MOVES + 1)}
    doc = problem_of(post(client, "record", body), 400, "unreadable-input")
    assert doc["errors"] == [{"path": "$.moves",
                              "problem": "1001 moves: a game played here holds at most 1000"}]


def test_openapi_lists_the_members_of_new_game_and_record(client: TestClient) -> None:
    documented = _documented_members()
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    for name in ("new-game", "record"):
        operation = paths[f"/api/v1/{name}"]["post"]
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert list(schema["properties"]) == documented[f"`{name}`"], name
        assert schema["required"] == documented[f"`{name}`"], name
        request = operation["requestBody"]["content"]["application/json"]["schema"]
        assert request["properties"]["seed"]["maximum"] == MAX_SEED


# -- the page's part -------------------------------------------------------------------------


def _array(script: str, name: str) -> str:
    """The text between the brackets of ``const NAME = [...]`` in play.js."""
    found = re.search(rf"const {name} = \[(.*?)\]", script)
    assert found is not None, name
    return found[1]


def _play_keys() -> set[str]:
    """Every key play.js gives ``t()``: written in the call, or one of its arrays."""
    script = STATIC.joinpath("play.js").read_text(encoding="utf-8")
    arrays = {name: set(re.findall(r'"(\w+)"', _array(script, name))) for name in ("COLORS",
              "SEATS")}  # fmt: skip
    dynamic = {"s": "SEATS", "seatOf(p": "SEATS", "k.color": "COLORS", "move.color": "COLORS",
               "color": "COLORS"}  # fmt: skip
    used: set[str] = set()
    for call in re.finditer(r"\bt\(([^,)]*)", script):
        written = re.findall(r'"(\w+)"', call[1])
        assert written or call[1] in dynamic, f"t({call[1]}): where does the key come from?"
        used |= set(written) or arrays[dynamic[call[1]]]
    return used


def test_the_catalogues_hold_every_word_play_js_uses_and_no_other() -> None:
    used = _play_keys()
    assert {"title", "start", "greedy", "person", "blue", "download", "link"} <= used
    assert used == {key.removeprefix("web.play.") for key in keys("web.play.")}
    for lang in languages():
        assert set(page_words(PLAY_PREFIX)[lang]) == used | {PLURALS}, lang


def test_the_page_carries_the_play_words_and_serves_play_js(client: TestClient) -> None:
    page = client.get("/").text
    block = re.search(r'<script type="application/json" id="play-words">(.*?)</script>', page)
    assert block is not None
    assert json.loads(block[1]) == page_words(PLAY_PREFIX)
    assert json.loads(block[1])["fr"]["title"] == "Jouer une partie"
    assert '<section id="play"' in page and 'src="static/play.js?v=' in page
    for name, media in (("play.js", "text/javascript"), ("play.css", "text/css")):
        reply = client.get(f"/static/{name}")
        assert reply.status_code == 200 and reply.headers["content-type"].startswith(media)
        assert reply.content == STATIC.joinpath(name).read_bytes()
