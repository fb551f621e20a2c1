"""Hostile input to every endpoint of the web judge: the fuzz suite's documents
(``tests/fuzz_inputs.py``) mutated at random, as data and as text, and a list of nasty
bodies.  Every answer is a verdict (200) or problem details (400, 413, 422): never a
500, never a traceback in the response, never an error in the log.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
    bodies: dict[str, dict[str, Any]] = {
        "check": {"state": state, "move": move},
        "legal-moves": {"state": state},
        "apply": {"state": state, "move": move},
        "problems": {"state": state},
        "render": {"state": state, "move": move, "size": 600},
        "audit": {"state": CLAIM_POSITION if seed % 3 else state, "claim": CLAIM},
        "audit-game": {"record": record, "scoresheet": SHEET},
        "replay": {"record": record, "at": seed % 7},
    }
    return {**bodies[endpoint], "lang": lang}


ENDPOINTS = ("check", "legal-moves", "apply", "problems", "render", "audit", "audit-game", "replay")
ANSWERS = {
    200: ("application/json", "image/svg+xml"),
    400: ("application/problem+json",),
    413: ("application/problem+json",),
    422: ("application/problem+json",),
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # raise_server_exceptions: anything escaping the handlers fails the test at once.
    with TestClient(create_app(), raise_server_exceptions=True) as test_client:
        yield test_client


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
