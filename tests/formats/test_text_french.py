"""French throughout (issue 37): French punctuation in every phrase of ``fr.po`` (a
narrow no-break space before ``; : ! ?`` and inside « », which the command line and the
web judge show as they are, not escaped), no counted word left in the plural for a
count of 1 in either language, and one name for a pattern line, « ligne de
préparation », in the catalogue and the French documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from azul_rules.core.shown import fill, is_printable, printable, shown
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


NOT_PROSE = {
    "ask.synonyms": "the question box's groups of words, each ended by a semicolon",
}
"""The French entries that are data rather than sentences, and why."""


def test_every_french_phrase_has_a_no_break_space_before_high_punctuation() -> None:
    """Not a plain space nor none: U+202F (or U+00A0) before ``; : ! ?`` of every phrase
    (placeholders, code in backticks, addresses and quoted HTTP headers aside)."""
    texts = load("fr").texts
    wrong = {key: text for key, text in texts.items()
             if key not in NOT_PROSE
             and re.search(rf"(?<![{NO_BREAK}])[;:!?]", _words_only(text))}  # fmt: skip
    assert wrong == {}
    said = {key: text for key, text in texts.items() if "\u202f" in text}
    assert len(said) > 250 and "Règle {id}\u202f: {title}" in said.values()


def test_every_french_guillemet_holds_a_no_break_space() -> None:
    for key, text in load("fr").texts.items():
        unspaced = re.search(rf"«(?![{NO_BREAK}])|(?<![{NO_BREAK}])»", text)
        assert not unspaced, key


def test_no_no_break_space_in_english_nor_in_the_placeholders() -> None:
    """The English phrases have none, and French's placeholders are English's: no space
    was put inside a ``{name}`` or a ``{n:form|forms}`` (nor anywhere code is quoted)."""
    english, french = load("en").texts, load("fr").texts
    assert not [key for key, text in english.items() if set(text) & set(NO_BREAK)]
    for key, text in french.items():
        for field in re.findall(r"\{[^{}]*\}|`[^`]*`", text):
            assert not set(field) & set(NO_BREAK), (key, field)
        assert placeholders(text) == placeholders(english[key]), key


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


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Règle P3\u202f: pas deux fois", "Règle P3\u202f: pas deux fois"),
        ("«\u00a0oui\u00a0»", "«\u00a0oui\u00a0»"),
        ("reçu\u202f: \x1b[31m", "reçu\u202f: \\x1b[31m"),  # a terminal's escape
        ("a\u202eb", "a\\u202eb"),  # a bidirectional override
        ("a\u2066b\u2069", "a\\u2066b\\u2069"),  # bidirectional isolates
        ("a\u200bb\u200dc\ufeff", "a\\u200bb\\u200dc\\ufeff"),  # zero-width
        ("a\u00adb", "a\\xadb"),  # a soft hyphen, another format character
        ("ligne\u2028suivante\r", "ligne\\u2028suivante\\r"),
        ("a\u2009b\u3000c", "a\\u2009b\\u3000c"),  # other spaces: still escaped
    ],
)
def test_printable_keeps_frances_no_break_spaces_and_escapes_the_rest(
    text: str, said: str
) -> None:
    """U+00A0 and U+202F are French typography (the catalogue puts them before ``:``),
    shown as they are; every other character Python does not print is escaped, beside
    them too."""
    assert printable(text) == said
    assert is_printable(said)
    assert is_printable(text) == (text == said)


def test_a_quoted_value_keeps_its_no_break_spaces_escaped() -> None:
    """What the library quotes from its input (``shown``: a ``repr``) keeps U+202F
    escaped, so that a value reads as what was sent; only its own phrases show it."""
    assert shown("a\u202fb") == "'a\\u202fb'"


def test_the_command_line_shows_french_punctuation_unescaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A French error line of the command line: its narrow no-break spaces as they are
    (they used to come out as ``\\u202f``)."""
    from azul_rules.cli import main

    assert main(["rules", "Z9", "--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert "règles\u202f: les identifiants" in err and "\\u202f" not in err
    assert is_printable(err.rstrip("\n"))
