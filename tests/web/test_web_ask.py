"""``GET /api/v1/ask``: a question in words answered by the rules that settle it, as
``az.ask`` answers it; its refusals as problem details (never a 5xx), its description
in the OpenAPI document."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

import azul_rules as az
from tests.core.ask_questions import ENGLISH, FRENCH
from tests.extras import needs

needs("starlette")
needs("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from azul_rules.text import keys, languages  # noqa: E402
from azul_rules.web.page import ASK_PREFIX, PLURALS, page_words  # noqa: E402

PROBLEM = "application/problem+json"


def ask(client: TestClient, **params: str) -> Any:
    return client.get("/api/v1/ask", params=params)


def problem(reply: Any, status: int = 400) -> dict[str, Any]:
    assert reply.status_code == status, reply.text
    assert reply.headers["content-type"] == PROBLEM
    doc: dict[str, Any] = reply.json()
    assert doc["type"] == "urn:azul-rules:problem:unreadable-input"
    return doc


@pytest.mark.parametrize(("lang", "question", "settling"),
                         [("en", *ENGLISH[0]), ("fr", *FRENCH[0]), ("en", *ENGLISH[3]),
                          ("fr", *FRENCH[4])])  # fmt: skip
def test_the_answers_are_the_librarys(
    client: TestClient, lang: str, question: str, settling: tuple[str, ...]
) -> None:
    reply = ask(client, q=question, lang=lang)
    assert reply.status_code == 200
    assert reply.headers["content-type"] == "application/json"
    doc = reply.json()
    assert doc == {"lang": lang, "question": question,
                   "answers": [a.to_dict() for a in az.ask(question, lang)]}  # fmt: skip
    assert any(a["rule"] in settling for a in doc["answers"][:3])
    first = doc["answers"][0]
    assert list(first) == ["rule", "title", "text", "ruling", "score", "example", "link"]
    assert first["title"] == az.rule(first["rule"]).title_in(lang)


def test_english_by_default_and_french_by_lang(client: TestClient) -> None:
    english = ask(client, q="W3").json()
    french = ask(client, q="W3", lang="fr").json()
    assert english["lang"] == "en" and french["lang"] == "fr"
    assert english["answers"][0]["text"] == az.rule("W3").text("en")
    assert french["answers"][0]["text"] == az.rule("W3").text("fr")


def test_a_worked_example_links_to_the_page(client: TestClient) -> None:
    answers = ask(client, q="can I take just two of the three blues?").json()["answers"]
    first = answers[0]
    assert first["rule"] == "T2" and first["example"]
    assert first["link"].startswith("/?position=") and "&move=" in first["link"]
    assert client.get(first["link"]).status_code == 200  # the page opens


@pytest.mark.parametrize("question", ["", "   ", "the of and", "???"])
def test_a_question_without_words_has_no_answer(client: TestClient, question: str) -> None:
    reply = ask(client, q=question)
    assert reply.status_code == 200
    assert reply.json()["answers"] == []


def test_a_missing_question_is_a_400_at_q(client: TestClient) -> None:
    doc = problem(client.get("/api/v1/ask"))
    assert doc["errors"] == [{"path": "?q", "problem": "a question is needed: ?q=your question "
                              "(in words, as you would ask it at the table)"}]  # fmt: skip
    french = problem(client.get("/api/v1/ask?lang=fr"))
    assert french["title"] == "Entrée illisible"
    assert french["errors"][0]["problem"].startswith("il faut une question")


def test_a_question_given_twice_is_a_400(client: TestClient) -> None:
    doc = problem(client.get("/api/v1/ask?q=floor&q=wall"))
    assert doc["errors"] == [{"path": "?q", "problem": "given twice"}]


@pytest.mark.parametrize("size", [501, 5_000])
def test_a_too_long_question_is_a_400_never_a_5xx(client: TestClient, size: int) -> None:
    doc = problem(ask(client, q="é" * size))
    assert doc["errors"] == [{"path": "?q", "problem": "a question holds at most 500 "
                              f"characters; this one has {size}"}]  # fmt: skip
    assert ask(client, q="tile " * 100).status_code == 200  # 500 characters: answered


def test_a_wrong_lang_is_a_400(client: TestClient) -> None:
    doc = problem(ask(client, q="floor", lang="de"))
    assert doc["errors"][0]["path"] == "?lang"


def test_hostile_questions_are_answered(client: TestClient) -> None:
    for question in ("\x00", "<script>alert(1)</script>", "%00", "💥" * 400, "P3 " * 100):
        assert ask(client, q=question).status_code == 200


def test_answers_may_be_kept(client: TestClient) -> None:
    assert ask(client, q="floor").headers["cache-control"] == "public, max-age=3600"
    assert client.get("/api/v1/ask").headers["cache-control"] == "no-store"


def test_the_openapi_document_describes_it(client: TestClient) -> None:
    operation = client.get("/api/v1/openapi.json").json()["paths"]["/api/v1/ask"]["get"]
    names = [p["name"] for p in operation["parameters"]]
    assert names == ["q", "lang"]
    assert operation["parameters"][0]["required"] is True
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    real = ask(client, q="can I split my tiles?").json()
    assert list(schema["properties"]) == schema["required"] == list(real)
    item = schema["properties"]["answers"]["items"]
    assert list(item["properties"]) == item["required"] == list(real["answers"][0])
    assert "400" in operation["responses"]


# -- the question box of the page ----------------------------------------------------------

STATIC = resources.files("azul_rules.web").joinpath("static")


def test_the_catalogues_hold_every_word_ask_js_uses_and_no_other() -> None:
    script = STATIC.joinpath("ask.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("(\w+)"', script))
    assert {"title", "label", "button", "answers", "example", "try", "none"} <= used
    assert used == {key.removeprefix(ASK_PREFIX) for key in keys(ASK_PREFIX)}
    for lang in languages():
        assert set(page_words(ASK_PREFIX)[lang]) == used | {PLURALS}, lang


def test_the_page_carries_the_ask_words_and_serves_ask_js(client: TestClient) -> None:
    page = client.get("/").text
    block = re.search(r'<script type="application/json" id="ask-words">(.*?)</script>', page)
    assert block is not None
    assert json.loads(block[1]) == page_words(ASK_PREFIX)
    assert json.loads(block[1])["fr"]["title"] == "Demander à l'arbitre en mots"
    assert '<section id="question"' in page and 'src="static/ask.js?v=' in page
    reply = client.get("/static/ask.js")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith(
        "text/javascript")
    assert reply.content == STATIC.joinpath("ask.js").read_bytes()
