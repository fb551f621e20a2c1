"""Hostile input to every endpoint of the web judge: the fuzz suite's documents
(``tests/fuzz_inputs.py``) mutated at random, as data and as text, and a list of nasty
bodies.  Every answer is a verdict (200) or problem details (400, 413, 422): never a
500, never a traceback in the response, never an error in the log.
"""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.extras import needs
from tests.fuzz_inputs import mutate, mutate_text, seed_document

needs("starlette")
needs("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from azul_rules.web import MAX_BODY_BYTES, create_app  # noqa: E402

AUDITS = Path("examples/audits")
CLAIM = json.loads((AUDITS / "cross-counted-once/claim.json").read_text())
CLAIM_POSITION = json.loads((AUDITS / "cross-counted-once/position.json").read_text())
SHEET = json.loads((AUDITS / "scoresheet-one-wrong-round/scoresheet.json").read_text())


def body_of(endpoint: str, seed: int) -> dict[str, Any]:
    """A valid request to ``endpoint`` built from the fuzz suite's documents."""
    state, move = seed_document("state", seed), seed_document("move", seed)
    record = seed_document("record", seed)
    lang = "fr" if seed % 2 else "en"
    game = {"players": 2 + seed % 3, "seed": seed, "variant": ("colored", "grey")[seed // 2 % 2]}
    bodies: dict[str, dict[str, Any]] = {
        "check": {"state": state, "move": move},
        "legal-moves": {"state": state},
        "apply": {"state": state, "move": move},
        "bot": {"state": state, "bot": "random" if seed % 2 else "greedy", "seed": seed},
        "problems": {"state": state},
        "position": {"state": state},
        "render": {"state": state, "move": move, "size": 600},
        "audit": {"state": CLAIM_POSITION if seed % 3 else state, "claim": CLAIM},
        "audit-game": {"record": record, "scoresheet": SHEET},
        "replay": {"record": record, "at": seed % 7},
        "scorekeeper": {"sheet": {"players": 2, "rounds": [[
            {"placed": [[seed % 5, (seed * 3) % 5]], "floor": seed % 8, "marker": seed % 2 == 1},
            {"placed": [], "floor": 0, "marker": seed % 2 == 0},
        ]]}},
        "new-game": game,
        "record": {**game, "moves": ["1B1", move]},
    }
    return {**bodies[endpoint], "lang": lang}


ENDPOINTS = (
    "check", "legal-moves", "apply", "bot", "problems", "position", "render", "audit",
    "audit-game", "replay", "scorekeeper", "new-game", "record",
)  # fmt: skip
ANSWERS = {
    200: ("application/json", "image/svg+xml"),
    400: ("application/problem+json",),
    413: ("application/problem+json",),
    422: ("application/problem+json",),
}


def assert_answered(reply: Any) -> None:
    assert reply.status_code in ANSWERS, (reply.status_code, reply.text[:500])
    kind = reply.headers["content-type"].split(";")[0]
    assert kind in ANSWERS[reply.status_code], kind
    assert "Traceback" not in reply.text and 'File "' not in reply.text
    if kind != "image/svg+xml":
        doc = reply.json()
        if reply.status_code != 200:
            assert doc["status"] == reply.status_code and doc["detail"]


def post_text(client: TestClient, endpoint: str, text: str | bytes) -> Any:
    return client.post(
        f"/api/v1/{endpoint}", content=text, headers={"Content-Type": "application/json"}
    )


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 30), salt=st.integers(0, 2**32), as_text=st.booleans())
def test_mutated_requests_are_answered_never_crashed(
    client: TestClient,
    caplog: pytest.LogCaptureFixture,
    endpoint: str,
    seed: int,
    salt: int,
    as_text: bool,
) -> None:
    rng = random.Random(salt)
    body = body_of(endpoint, seed)
    if as_text:
        text = mutate_text(json.dumps(body, ensure_ascii=False), rng)
    else:
        text = json.dumps(mutate(body, rng, steps=rng.randint(1, 4)), ensure_ascii=False)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        reply = post_text(client, endpoint, text.encode("utf-8", "surrogatepass"))
    assert_answered(reply)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


NASTY: list[bytes] = [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"state": ' + b"[" * 5_000 + b"]" * 5_000 + b', "move": "1B1"}',
    b'{"state": {"format_version": 1, "players": [' + b"{}," * 20_000 + b'{}]}, "move": "1B1"}',
    b'{"state": {}, "move": "' + b"9" * 200_000 + b'"}',
    b'{"state": {}, "move": ' + b"9" * 5_000 + b"}",
    b'{"record": {"format_version": 1, "moves": [' + b'"1B1",' * 40_000 + b'"1B1"]}}',
    b'{"record": {"format_version": 1, "moves": [' + b'"1B1",' * 9_999 + b'"1B1"]}, "at": 9999}',
    b'{"state": {"a": 1, "a": 2}, "move": {"type": "take", "type": "take"}}',
    b'{"state": "\\ud800", "move": "\\u0000"}',
    b"\x00" * 1000,
    b"\xef\xbb\xbf{}",
    b'{"state": 1e999, "move": -Infinity}',
    '{"lang": "fr\u2028"}'.encode(),
    b'{"claim": {"scores": [' + b"1," * 50_000 + b'1]}, "state": {}}',
    b'{"scoresheet": {"rounds": [' + b"[1,2]," * 30_000 + b'[1,2]]}, "record": {}}',
    b" " * (MAX_BODY_BYTES + 1),
]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("body", NASTY, ids=lambda b: repr(b[:24]))
def test_nasty_bodies_are_refused_in_words(
    client: TestClient, caplog: pytest.LogCaptureFixture, endpoint: str, body: bytes
) -> None:
    with caplog.at_level(logging.WARNING):
        reply = post_text(client, endpoint, body)
    assert_answered(reply)
    assert reply.status_code in (400, 413, 422) or endpoint == "replay"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


# -- the address and the headers -------------------------------------------------------------

QUERY_KEYS = ("lang", "lang", "lang", "LANG", "lang[]", "lan", "x", "", "lang%20", "%6Cang",
              "q", "q")  # fmt: skip
QUERY_VALUES = (
    "en", "fr", "en", "fr", "de", "", "FR", "En", "%66r", "e%6E", "fr%00", "fr%20", "+fr",
    "fr+", "%", "%zz", "%C3%A9", "é", "\u2028", "null", "1", "en,fr", "fr;q=1", "x" * 300,
)  # fmt: skip
HEADERS = (
    ("Accept-Language", "de"), ("Accept-Language", "fr-FR,fr;q=0.9"), ("Accept", "text/html"),
    ("Accept", "*/*;q=0"), ("Accept-Encoding", "gzip, br"), ("X-Forwarded-For", "1.2.3.4"),
    ("Cookie", "lang=de"), ("Origin", "http://evil.example"), ("Range", "bytes=0-10"),
    ("If-None-Match", "*"), ("X-Long", "v" * 8000), ("Content-Type", "text/plain"),
    ("Content-Type", "application/json; charset=latin-1"), ("Content-Encoding", "gzip"),
    ("Content-Type", "application/json"), ("Transfer-Encoding", "identity"),
)  # fmt: skip


def _routes() -> list[tuple[str, str]]:
    """Every API route as (method, address), its path parameters filled in (an unknown
    rule and an unknown schema among them)."""
    from starlette.routing import Route

    routes = []
    for route in create_app().routes:
        if isinstance(route, Route) and route.path.startswith("/api/"):
            method = "POST" if "POST" in (route.methods or ()) else "GET"
            for rule, name in (("P3", "position"), ("Z9", "board")):
                path = route.path.replace("{rule_id}", rule).replace("{name}", name)
                routes.append((method, path))
    return sorted(set(routes))


ROUTES = _routes()


def random_query(rng: random.Random) -> str:
    pairs = [(rng.choice(QUERY_KEYS), rng.choice(QUERY_VALUES)) for _ in range(rng.randint(0, 3))]
    text = "&".join(k if rng.random() < 0.1 else f"{k}={v}" for k, v in pairs)
    return text + rng.choice(("", "", "&", "&&", "#x"))


def query_case(client: TestClient, rng: random.Random) -> tuple[str, str, int]:
    """One request with a random address and random headers to a random route, checked
    against docs/web.md: ``?lang=`` is read first and a value other than ``en`` or
    ``fr``, or ``lang`` given twice, is a 400 naming ``?lang`` in English, whatever the
    route; with a right one, a GET answers as without it (200, or the 404 of an unknown
    rule or schema) and a POST as its body and headers say; never a 500.  Returns
    (method, address, status) for the tallies."""
    method, path = rng.choice(ROUTES)
    headers = dict(rng.sample(HEADERS, rng.randint(0, 3)))
    body = None
    if method == "POST":
        body = json.dumps(body_of(path.rsplit("/", 1)[1], rng.randint(0, 30))).encode()
        headers.setdefault("Content-Type", "application/json")
    reply = client.request(method, f"{path}?{random_query(rng)}", content=body, headers=headers)
    assert_answered_any(reply)
    sent = reply.request.url.query.decode("latin-1")  # as the application reads it
    langs = [v for k, v in parse_qsl(sent, keep_blank_values=True) if k == "lang"]
    where = f"{method} {reply.request.url}"
    if langs not in ([], ["en"], ["fr"]):
        assert reply.status_code == 400, where
        errors = reply.json()["errors"]
        problem = "given twice" if len(langs) > 1 else "expected en or fr, got "
        assert len(errors) == 1 and errors[0]["path"] == "?lang", where
        assert errors[0]["problem"].startswith(problem), where
    elif path == "/api/v1/ask":  # one question of at most 500 characters, else a 400
        asked = [v for k, v in parse_qsl(sent, keep_blank_values=True) if k == "q"]
        answered = len(asked) == 1 and len(asked[0]) <= 500
        assert reply.status_code == (200 if answered else 400), where
        if not answered:
            assert reply.json()["errors"][0]["path"] == "?q", where
    elif method == "GET":
        missing = path.endswith(("/Z9", "/board.json"))
        assert reply.status_code == (404 if missing else 200), where
    return method, path, reply.status_code


def assert_answered_any(reply: Any) -> None:
    """An answer of any route: JSON, an SVG or problem details; never a 500 or a
    traceback."""
    assert reply.status_code in (*ANSWERS, 404, 415), (reply.status_code, reply.text[:500])
    kind = reply.headers["content-type"].split(";")[0]
    assert kind in (*ANSWERS[200], *ANSWERS[400]), kind
    assert "Traceback" not in reply.text and 'File "' not in reply.text
    if kind == "application/problem+json":
        doc = reply.json()
        assert doc["status"] == reply.status_code and doc["detail"]


@pytest.mark.parametrize("salt", range(4))
def test_web_random_addresses_and_headers_follow_the_lang_rule(
    client: TestClient, caplog: pytest.LogCaptureFixture, salt: int
) -> None:
    """100 random addresses and headers a run (``benchmarks/web_query_fuzz.py`` sends
    thousands): ``?lang=`` is honoured by every route, never a 500 or a logged error."""
    rng = random.Random(salt)
    with caplog.at_level(logging.WARNING):
        for _ in range(100):
            query_case(client, rng)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
