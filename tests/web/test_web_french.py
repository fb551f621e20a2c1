"""The web judge in French, through a real uvicorn server on a free local port: every
kind of refusal — the envelope of a request, its options, the library's unreadable
documents (framed in French, the English kept in ``problem_en``), impossible positions,
illegal moves and the HTTP refusals — in exact French words, with ``lang`` in the body
or ``?lang=fr``; and, for random bad bodies, never the English title or detail.
"""

from __future__ import annotations

import http.client
import json
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import azul_rules as az
from tests.extras import needs
from tests.fuzz_inputs import mutate, mutate_text

needs("uvicorn")
needs("starlette")

from tests.web.test_web_fuzz import ENDPOINTS, body_of  # noqa: E402
from tests.webserver import running_server  # noqa: E402

EXAMPLES = Path("examples")
ROUND_TWO = json.loads((EXAMPLES / "round-2-position.json").read_text())
RECORD = json.loads((EXAMPLES / "recorded-game.json").read_text())
CLAIM_FOLDER = EXAMPLES / "audits" / "cross-counted-once"
CLAIM_POSITION = json.loads((CLAIM_FOLDER / "position.json").read_text())
CLAIM = json.loads((CLAIM_FOLDER / "claim.json").read_text())
PROBLEM = "application/problem+json"
JSON = {"Content-Type": "application/json"}
FRAME = "{document} illisible à cet endroit\u202f; raison (en anglais)\u202f: «\u202f{text}\u202f»"


class Reply:
    """One answer of the server: its status, headers and body (JSON when it is)."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def doc(self) -> Any:
        return json.loads(self.body)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    with running_server() as address:
        parts = urlsplit(address)
        assert parts.hostname is not None and parts.port is not None
        yield parts.hostname, parts.port


def call(
    server: tuple[str, int],
    method: str,
    path: str,
    body: bytes | None = None,
    headers: Mapping[str, str] | None = None,
) -> Reply:
    """One request on a connection of its own (a refusal may close it)."""
    connection = http.client.HTTPConnection(*server, timeout=30)
    try:
        connection.request(method, path, body=body, headers=dict(headers or {}))
        reply = connection.getresponse()
        return Reply(reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read())
    finally:
        connection.close()


def post(server: tuple[str, int], endpoint: str, body: object, query: str = "") -> Reply:
    data = body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False).encode()
    return call(server, "POST", f"/api/v1/{endpoint}{query}", data, JSON)


def problem_of(reply: Reply, status: int, slug: str, title: str) -> dict[str, Any]:
    """The reply as problem details of ``slug``, with its French ``title``."""
    assert reply.status == status, reply.body[:500]
    assert reply.headers["content-type"] == PROBLEM
    doc: dict[str, Any] = reply.doc
    assert doc["type"] == f"urn:azul-rules:problem:{slug}"
    assert doc["title"] == title
    return doc


def unreadable(reply: Reply) -> dict[str, Any]:
    return problem_of(reply, 400, "unreadable-input", "Entrée illisible")


def unreadable_english(reply: Reply) -> Any:
    """The errors of an English 400."""
    assert reply.status == 400 and reply.doc["title"] == "Unreadable input"
    return reply.doc["errors"]


def format_errors(read: Any) -> tuple[tuple[str, str], ...]:
    """The (path, English text) pairs of the FormatError ``read()`` raises."""
    with pytest.raises(az.FormatError) as caught:
        read()
    return caught.value.errors


# -- the envelope --------------------------------------------------------------------------


def test_envelope_errors_in_french(server: tuple[str, int]) -> None:
    """A repeated member, an unknown one, a missing one; a wrong lang; not an object."""
    doc = unreadable(post(server, "check", b'{"lang": "fr", "state": 1, "state": 2, "extra": 0}'))
    assert doc["errors"] == [
        {"path": "$.state", "problem": "donné deux fois"},
        {"path": "$.extra",
         "problem": "membre inconnu (membres possibles\u202f: state, move, infer_unseen, lang)"},
        {"path": "$.move", "problem": "membre obligatoire absent"},
    ]
    assert doc["detail"] == (
        "$.state\u202f: donné deux fois\u202f; $.extra\u202f: membre inconnu (membres "
        "possibles\u202f: state, "
        "move, infer_unseen, lang)\u202f; $.move\u202f: membre obligatoire absent"
    )
    doc = unreadable(post(server, "legal-moves", {"state": ROUND_TWO, "lang": "de"}, "?lang=fr"))
    assert doc["errors"] == [
        {"path": "$.lang",
         "problem": 'attendu\u202f: "en" ou "fr"\u202f; reçu\u202f: la chaîne "de"'}
    ]
    doc = unreadable(post(server, "check", [1], "?lang=fr"))
    assert doc["detail"] == (
        '$\u202f: attendu\u202f: un objet JSON avec "state", "move", '
        '"infer_unseen"\u202f; reçu\u202f: le tableau [1]'
    )


def test_the_body_lang_wins_over_the_query(server: tuple[str, int]) -> None:
    """?lang= is the language when the body gives none; a wrong one is a 400 in English."""
    body = {"state": ROUND_TWO, "lang": "en", "at": 1}
    assert unreadable_english(post(server, "legal-moves", body, "?lang=fr")) == [
        {"path": "$.at", "problem": "unknown member (expected state, lang)"}
    ]
    doc = unreadable(post(server, "legal-moves", {**body, "lang": "fr"}, "?lang=en"))
    assert doc["errors"] == [
        {"path": "$.at", "problem": "membre inconnu (membres possibles\u202f: state, lang)"}
    ]
    reply = post(server, "legal-moves", {"state": ROUND_TWO}, "?lang=de")
    assert reply.status == 400 and reply.doc["title"] == "Unreadable input"
    assert reply.doc["errors"] == [{"path": "?lang", "problem": 'expected en or fr, got "de"'}]


def test_options_in_french(server: tuple[str, int]) -> None:
    """render's size, tiling and player, replay's at, a move of no known form."""
    body = {"state": ROUND_TWO, "size": 3, "tiling": "oui", "lang": "fr"}
    assert unreadable(post(server, "render", body))["errors"] == [
        {"path": "$.size", "problem": "attendu\u202f: un entier de 64 à 4096\u202f; reçu\u202f: 3"},
        {"path": "$.tiling",
         "problem": 'attendu\u202f: true ou false\u202f; reçu\u202f: la chaîne "oui"'},
    ]
    cases = [
        ("render", {"state": ROUND_TWO, "player": 3}, "$.player",
         "les joueurs sont numérotés de 0 à 1\u202f; reçu\u202f: 3"),
        ("render", {"state": ROUND_TWO, "tiling": True}, "$.tiling",
         "cette position n'enregistre aucune décoration du mur (pas de last_scoring) à marquer"),
        ("replay", {"record": RECORD, "at": 50}, "$.at",
         "la partie enregistrée compte 49 coups\u202f; reçu\u202f: 50"),
        ("check", {"state": ROUND_TWO, "move": 7}, "$.move",
         'attendu\u202f: un objet coup ou sa notation, comme "3B2"\u202f; reçu\u202f: 7'),
    ]  # fmt: skip
    for endpoint, request, path, problem in cases:
        doc = unreadable(post(server, endpoint, {**request, "lang": "fr"}))
        assert doc["errors"] == [{"path": path, "problem": problem}]
        assert doc["detail"] == f"{path}\u202f: {problem}"


# -- the library's English-only texts ----------------------------------------------------


def test_an_unparsable_body_is_framed_in_french(server: tuple[str, int]) -> None:
    """Nothing can be read, not even lang: ?lang=fr chooses French."""
    english = unreadable_english(post(server, "check", b"{"))
    (entry,) = unreadable(post(server, "check", b"{", "?lang=fr"))["errors"]
    text = english[0]["problem"]
    assert text.startswith("not JSON: ")
    assert entry == {
        "path": "$",
        "problem": FRAME.format(document="corps de la requête", text=text),
        "problem_en": text,
    }


def test_unreadable_documents_are_framed_in_french(server: tuple[str, int]) -> None:
    """A position's round as a string and a move's unknown colour: the readers' words,
    quoted in a French sentence naming the document, both reported at once."""
    state = {**ROUND_TWO, "round": "two"}
    ((state_path, state_text),) = format_errors(lambda: az.from_dict(state, az.GameState))
    ((_, move_text),) = format_errors(lambda: az.parse_move("9Z9"))
    doc = unreadable(post(server, "check", {"state": state, "move": "9Z9", "lang": "fr"}))
    assert state_path == "$.round"
    assert doc["errors"] == [
        {
            "path": "$.state.round",
            "problem": FRAME.format(document="position (state)", text=state_text),
            "problem_en": state_text,
        },
        {
            "path": "$.move",
            "problem": FRAME.format(document="coup (move)", text=move_text),
            "problem_en": move_text,
        },
    ]
    said = [f"{e['path']}\u202f: {e['problem']}" for e in doc["errors"]]
    assert doc["detail"] == "\u202f; ".join(said)
    english = unreadable_english(post(server, "check", {"state": state, "move": "9Z9"}))
    assert english == [
        {"path": "$.state.round", "problem": state_text},
        {"path": "$.move", "problem": move_text},
    ]


def test_a_claim_that_does_not_fit_is_framed_in_french(server: tuple[str, int]) -> None:
    """Three scores for two players: the claim does not fit the position."""
    doc = unreadable(
        post(
            server, "audit", {"state": CLAIM_POSITION, "claim": {"scores": [1, 2, 3]}, "lang": "fr"}
        )
    )
    text = "expected one entry per player (2), got 3"
    assert doc["errors"] == [
        {
            "path": "$.claim.scores",
            "problem": "annonce des scores (claim) incompatible avec la position à cet endroit"
            f"\u202f; raison (en anglais)\u202f: «\u202f{text}\u202f»",
            "problem_en": text,
        }
    ]


# -- impossible positions and illegal moves --------------------------------------------


def test_an_impossible_position_in_french_s3_s4(server: tuple[str, int]) -> None:
    """S3 and S4: a line over capacity, its two red tiles making 22; the library's
    French words, with no English left."""
    state = json.loads(json.dumps(ROUND_TWO))
    state["players"][0]["pattern_lines"][0] = ["red", "red"]
    doc = problem_of(
        post(server, "check", {"state": state, "move": "1B1", "lang": "fr"}),
        422,
        "impossible-position",
        "Position impossible",
    )
    assert doc["detail"] == "cette position ne peut pas exister (2 problèmes)\u202f: voir errors"
    assert [(e["code"], e["path"], e["problem"], e["message"]) for e in doc["errors"]] == [
        ("LINE_OVER_CAPACITY", "$.state.players[0].pattern_lines[0]",
         "la ligne de préparation 1 contient 2 carreaux\u202f: elle n'a que 1 place",
         "la ligne de préparation 1 contient 2 carreaux\u202f: elle n'a que 1 place"),
        ("TILE_COUNT", "$.state",
         "22 carreaux de couleur rouge en tout\u202f: le jeu en compte 20 de chaque couleur",
         "22 carreaux de couleur rouge en tout\u202f: le jeu en compte 20 de chaque couleur"),
    ]  # fmt: skip
    assert all("problem_en" not in e for e in doc["errors"])
    assert doc["errors"][0]["rule_title"] == az.rule("S4").title_in("fr")
    found = post(server, "problems", {"state": state, "lang": "fr"}).doc["problems"]
    assert [p["message"] for p in found] == [e["message"] for e in doc["errors"]]


def test_an_impossible_start_of_a_record_in_french(server: tuple[str, int]) -> None:
    """F3 at $.record.initial_state: the marker's holder without the marker (after a
    first take from a factory, the centre still untouched)."""
    start = az.to_dict(az.new_game(2, seed=4).apply(az.parse_move("1W5")))
    start["marker_holder"] = 1
    record = {"format_version": 1, "initial_state": start, "moves": []}
    doc = problem_of(
        post(server, "replay", {"record": record, "lang": "fr"}),
        422,
        "impossible-position",
        "Position impossible",
    )
    assert doc["detail"] == "cette position ne peut pas exister (1 problème)\u202f: voir errors"
    ((path, message),) = [(e["path"], e["message"]) for e in doc["errors"]]
    assert path == "$.record.initial_state.players[1].floor"
    assert message == (
        "le joueur 2 détient le marqueur premier joueur, mais il n'est pas sur son plancher "
        "(seul un plancher plein le laisse dehors, F4)"
    )


def test_an_illegal_move_applied_in_french(server: tuple[str, int]) -> None:
    """T2: the partial take of examples/, refused by apply."""
    move = json.loads((EXAMPLES / "partial-take.json").read_text())
    doc = problem_of(
        post(server, "apply", {"state": ROUND_TWO, "move": move, "lang": "fr"}),
        422,
        "illegal-move",
        "Coup illégal",
    )
    assert doc["detail"] == (
        "PARTIAL_TAKE (T2)\u202f: 2 des 3 carreaux de couleur bleue de la fabrique 2 ont été pris"
        "\u202f: il faut prendre tous les carreaux de la couleur choisie"
    )


# -- HTTP ------------------------------------------------------------------------------------


def test_http_refusals_in_french(server: tuple[str, int]) -> None:
    """404, 405, 415 and a 404 of the rule book and of the schemas, with ?lang=fr."""
    doc = problem_of(call(server, "GET", "/api/v2/check?lang=fr"), 404, "not-found", "Introuvable")
    assert doc["detail"] == (
        "aucune page ni aucun point d'accès à cette adresse\u202f: /api/v2/check"
    )
    doc = problem_of(
        call(server, "GET", "/api/v1/check?lang=fr"),
        405,
        "method-not-allowed",
        "Méthode non permise",
    )
    assert doc["detail"] == "GET n'est pas permis ici\u202f: utilisez POST"
    reply = call(server, "POST", "/api/v1/check?lang=fr", b"{}", {"Content-Type": "text/plain"})
    doc = problem_of(reply, 415, "unsupported-media-type", "Type de contenu non pris en charge")
    assert doc["detail"] == (
        "envoyez le corps en JSON avec l'en-tête Content-Type: application/json (UTF-8)\u202f; "
        "reçu\u202f: text/plain"
    )
    doc = problem_of(
        call(server, "GET", "/api/v1/rules/Z9?lang=fr"), 404, "not-found", "Introuvable"
    )
    assert doc["detail"] == (
        "pas de règle 'Z9' dans le livre de règles\u202f: les identifiants sont G1-G2, S1-S7, "
        "T1-T4, P1-P7, F1-F4, W1-W5, R1-R7, E1-E4, V1-V5"
    )
    english = call(server, "GET", "/api/v1/rules/Z9").doc["detail"]
    with pytest.raises(ValueError) as caught:
        az.rule("Z9")
    assert english == str(caught.value)
    doc = problem_of(
        call(server, "GET", "/api/v1/schemas/board.json?lang=fr"), 404, "not-found", "Introuvable"
    )
    assert doc["detail"] == (
        "pas de schéma 'board'\u202f: les schémas sont position.json, move.json, record.json, "
        "claim.json, scoresheet.json"
    )


def test_a_body_too_large_in_french(server: tuple[str, int]) -> None:
    """Refused on its declared length, before a byte of it is read."""
    connection = http.client.HTTPConnection(*server, timeout=30)
    try:
        connection.putrequest("POST", "/api/v1/check?lang=fr")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", "300000")
        connection.endheaders()
        answer = connection.getresponse()
        reply = Reply(answer.status, dict(answer.getheaders()), answer.read())
    finally:
        connection.close()
    assert reply.status == 413
    assert reply.doc["title"] == "Requête trop grande"
    assert (
        reply.doc["detail"] == "300000 octets\u202f: le corps d'une requête fait au plus "
            "262144 octets"
    )


def test_a_streamed_body_too_large_and_a_bug_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 413 of a body without Content-Length, counted as it arrives, and the 500 of a
    bug of ours (in process: the route must be broken before the app is built)."""
    from starlette.testclient import TestClient

    from azul_rules.web import create_app
    from azul_rules.web import judge as web_judge

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 8192

    def broken(_: bytes, __: str) -> object:
        raise RuntimeError("secret internals")

    with TestClient(create_app()) as client:
        reply = client.post("/api/v1/check?lang=fr", content=chunks(), headers=JSON)
        assert reply.status_code == 413
        assert reply.json()["detail"] == (
            "plus de 262144 octets\u202f: le corps d'une requête fait au plus 262144 octets"
        )
    monkeypatch.setattr(web_judge, "check", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        reply = client.post("/api/v1/check?lang=fr", content=b"{}", headers=JSON)
    assert reply.status_code == 500
    assert reply.json()["title"] == "Erreur interne"
    assert reply.json()["detail"] == (
        "le juge a échoué sur cette requête\u202f: c'est un bogue d'azul_rules, merci de le "
        "signaler avec la requête"
    )


# -- random bad bodies ---------------------------------------------------------------------

def request_of(endpoint: str, seed: int) -> dict[str, Any]:
    """A valid request to ``endpoint``, from the fuzz suite's documents, naming no
    language."""
    return {k: v for k, v in body_of(endpoint, seed).items() if k != "lang"}


def in_language(text: str, lang: str) -> bytes:
    """A body's text with every ``"lang"`` member's value set to ``lang``."""
    return text.replace('"lang": "fr"', f'"lang": "{lang}"').encode("utf-8", "surrogatepass")


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    seed=st.integers(0, 30),
    salt=st.integers(0, 2**32),
    as_text=st.booleans(),
)
def test_bad_bodies_in_french_are_never_answered_in_english(
    server: tuple[str, int], endpoint: str, seed: int, salt: int, as_text: bool
) -> None:
    """A mutated request, sent once in English and once in French (its ``lang`` and
    ``?lang=``): every refusal has another title and detail in French, each entry of
    its ``errors`` another problem, and an English text only quoted, kept in
    ``problem_en``."""
    rng = random.Random(salt)
    body = {**request_of(endpoint, seed), "lang": "fr"}
    if as_text:
        text = mutate_text(json.dumps(body, ensure_ascii=False), rng)
    else:
        text = json.dumps(mutate(body, rng, steps=rng.randint(1, 4)), ensure_ascii=False)
    french = call(server, "POST", f"/api/v1/{endpoint}?lang=fr", in_language(text, "fr"), JSON)
    english = call(server, "POST", f"/api/v1/{endpoint}?lang=en", in_language(text, "en"), JSON)
    assert french.status == english.status
    if french.status == 200:
        return
    fr, en = french.doc, english.doc
    assert fr["type"] == en["type"]
    assert fr["title"] != en["title"]
    assert fr["detail"] != en["detail"]
    assert [e["path"] for e in fr.get("errors", [])] == [e["path"] for e in en.get("errors", [])]
    for fr_entry, en_entry in zip(fr.get("errors", []), en.get("errors", []), strict=True):
        assert fr_entry["problem"] != en_entry["problem"], fr_entry
        if "problem_en" in fr_entry:
            assert fr_entry["problem_en"] == en_entry["problem"]
            assert f"«\u202f{en_entry['problem']}\u202f»" in fr_entry["problem"]
