"""``azul-rules ask "QUESTION" [--lang fr] [--json]``: the rules that settle a question
in words, best first; ``--json`` as the web judge's ``GET /api/v1/ask``; one line and
exit 2 for a question over its bound."""

from __future__ import annotations

import json

import pytest

import azul_rules as az
from azul_rules.cli import main
from tests.core.ask_questions import ENGLISH, FRENCH


def test_the_answers_best_first_with_the_rule_and_its_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", "can I take just two of the three blues?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1. T2 Taking from a factory\n   A player may pick one factory")
    assert "   Worked example: Factory 2 holds three blue tiles" in out
    assert "/?position=" in out and "\n2. " in out


def test_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "les diagonales comptent ?", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1. W3 Les points d'un carreau posé\n")


def test_a_ruling_is_said_to_be_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "F4"]) == 0
    assert capsys.readouterr().out.startswith("1. F4 The marker and a full floor (ruling)\n")


@pytest.mark.parametrize(("lang", "question"), [("en", ENGLISH[5][0]), ("fr", FRENCH[5][0])])
def test_json_is_the_web_judges_answer(
    capsys: pytest.CaptureFixture[str], lang: str, question: str
) -> None:
    assert main(["ask", question, "--lang", lang, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == {"lang": lang, "question": question,
                   "answers": [a.to_dict() for a in az.ask(question, lang)]}  # fmt: skip
    assert doc["answers"][0]["rule"] == "P1"


def test_no_answer_is_said_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "the and of"]) == 1
    assert capsys.readouterr().out == (
        "no rule matches these words: try others (tile, line, floor, wall, marker, score...)\n"
    )
    assert main(["ask", "", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["answers"] == []


def test_a_too_long_question_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "x" * 501]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "azul-rules: a question holds at most 500 characters; this one has 501\n"
    assert main(["ask", "x" * 501, "--lang", "fr"]) == 2
    assert capsys.readouterr().err.startswith("azul-rules: une question compte au plus 500")


def test_a_missing_question_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask"]) == 2
    assert "ask" in capsys.readouterr().err
