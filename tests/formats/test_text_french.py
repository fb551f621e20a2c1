"""French throughout (issue 37): French punctuation in the scorekeeper's phrases of
``fr.po`` (a narrow no-break space before ``; : ! ?``; the rest of the catalogue is still
to do: the command line escapes U+202F as unprintable), no counted word left in the
plural for a count of 1 in either language, and one name for a pattern line, « ligne de
préparation », in the catalogue and the French documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from azul_rules.core.shown import fill
from azul_rules.text import load
from azul_rules.text.po import placeholders

ROOT = Path(__file__).resolve().parents[2]
NO_BREAK = "\u202f\u00a0"


def _words_only(text: str) -> str:
    """A phrase without what is not French prose: its placeholders, code in backticks,
    addresses and the HTTP headers it quotes (``Content-Type: application/json``)."""
    text = re.sub(r"\{\{|\}\}", "", text)
    text = re.sub(r"\{[^{}]*\}", "X", text)
    text = re.sub(r"`[^`]*`", "", text)
    text = re.sub(r"\w+://\S+", "", text)
    return re.sub(r"Content-(Type|Encoding): ", "", text)


def test_the_scorekeepers_french_has_a_no_break_space_before_high_punctuation() -> None:
    wrong = {key: text for key, text in load("fr").texts.items()
             if key.startswith("web.scorekeeper.")
             and re.search(rf"(?<![{NO_BREAK}])[;:!?]", _words_only(text))}  # fmt: skip
    assert wrong == {}


def test_the_scorekeepers_french_guillemets_hold_a_no_break_space() -> None:
    for key, text in load("fr").texts.items():
        unspaced = re.search(rf"«(?![{NO_BREAK}])|(?<![{NO_BREAK}])»", text)
        assert not (key.startswith("web.scorekeeper.") and unspaced), key


_NOUNS = (
    "rows columns colours colors tiles moves problems players digits lines factories rounds "
    "entries bytes seconds points rangées colonnes couleurs carreaux coups problèmes joueurs "
    "chiffres lignes fabriques manches tours saisies planchers places octets secondes"
)
PLURAL_NOUNS = frozenset(_NOUNS.split())

NEVER_ONE = {
    "number.too_long": "more than 40 digits",
    "number.long": "a number past 40 digits",
    "web.long_integer": "a number past 40 digits",
    "web.unwritable_detail": "a number past 40 digits",
    "code.PARTIAL_TAKE": "a partial take leaves some of at least 2 tiles",
    "code.LINE_COLOR_MISMATCH": "{line_color} is a colour, not a count",
    "code.TILE_COUNT_MISMATCH/line_changed": "{line} is a line's name, not a count",
    "problem.LINE_MIXED_COLORS": "{line} is a line's name, not a count",
    "problem.FACTORY_COUNT": "2 to 4 players",
    "cli.header": "2 to 4 players",
    "cli.game_intro": "2 to 4 players",
    "svg.players": "2 to 4 players",
    "cli.all_legal": "cli.one_legal says one",
    "web.too_many_moves": "past the limit of moves, never 1",
    "web.impossible_many": "web.impossible_one says one",
    "web.too_large": "past the limit in bytes, never 1",
    "web.scorekeeper.floor_full": "more than 7 tiles",
    "web.scorekeeper.markers": "the marker on 2 or more floors",
}
"""The phrases whose figure before a plural noun is never 1, and why."""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_plural_noun_after_a_count_of_1(lang: str) -> None:
    """Every phrase filled with 1 for each figure: no « 1 rows », « 1 couleurs »."""
    found = []
    for key, text in load(lang).texts.items():
        if key in NEVER_ONE:
            continue
        said = fill(text, lang, **dict.fromkeys(placeholders(text), 1))
        found += [(key, said) for m in re.finditer(r"(?<![\d.,])1 (?:\w+ )?(\w+)", said)
                  if m.group(1) in PLURAL_NOUNS]  # fmt: skip
    assert found == []


@pytest.mark.parametrize(
    ("lang", "key", "one", "two"),
    [
        ("en", "web.scorekeeper.bonusDetail", "1 row, 1 column, 1 colour", "2 rows, 2 columns, "
         "2 colours"),
        ("fr", "web.scorekeeper.bonusDetail", "1 rangée, 1 colonne, 1 couleur", "2 rangées, "
         "2 colonnes, 2 couleurs"),
        ("en", "web.page.legalTitle", "1 legal move", "2 legal moves"),
        ("fr", "web.page.legalTitle", "1 coup légal", "2 coups légaux"),
        ("en", "web.scorekeeper.color_supply", "need 1 blue tile, but only 1 is", "need 2 blue "
         "tiles, but only 2 are"),
        ("fr", "web.scorekeeper.color_supply", "1 carreau de couleur", "2 carreaux de couleur"),
    ],
)  # fmt: skip
def test_counted_words_for_1_and_2(lang: str, key: str, one: str, two: str) -> None:
    text = load(lang).texts[key]
    for count, said in ((1, one), (2, two)):
        params: dict[str, object] = dict.fromkeys(placeholders(text), count)
        params["color"] = "blue"
        assert said in fill(text, lang, **params)


@pytest.mark.parametrize("path", ["azul_rules/text/fr.po", "docs/regles.md",
                                  "docs/notation-fr.md"])  # fmt: skip
def test_one_name_for_a_pattern_line_in_french(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert not re.search(r"lignes? de (motif|pose|jeu)\b", text)


def test_the_french_catalogue_says_ligne_de_preparation() -> None:
    texts = load("fr").texts
    assert "ligne de préparation" in texts["web.scorekeeper.same_row"]
    assert "lignes de préparation" in texts["web.scorekeeper.supply"]
