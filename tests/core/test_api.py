"""The public contract: names, values and the message catalogue."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.core.messages import PHRASES, TEMPLATES

RULES_CODES = {
    # Documented mistakes.
    "PARTIAL_TAKE", "SPLIT_LOT", "WALL_COLOR_CONFLICT", "INCOMPLETE_LINE_CLEARED",
    "DIAGONAL_COUNTED", "GAP_COUNTED", "MARKER_PENALTY_FORGOTTEN", "GAME_ENDED_EARLY",
    # Other ways to break the rules.
    "GAME_OVER", "WRONG_PHASE", "NOT_YOUR_TURN", "NO_SUCH_SOURCE", "EMPTY_SOURCE",
    "COLOR_NOT_IN_SOURCE", "TOO_MANY_TAKEN", "TWO_COLORS", "MARKER_ALONE", "NO_SUCH_LINE",
    "LINE_COLOR_MISMATCH", "LINE_FULL", "FLOOR_WHILE_ROOM", "TILE_COUNT_MISMATCH",
    "COLUMN_COLOR_CONFLICT", "SPACE_OCCUPIED", "NOT_WALL_COLOR_SPACE", "FILL_IMPOSSIBLE",
    "EMPTY_DIRECTION_COUNTED", "CROSS_COUNTED_ONCE", "SCORE_MISCOUNT",
    "FLOOR_OVERFLOW_PENALIZED", "SCORE_BELOW_ZERO", "BONUS_MISCOUNT", "WRONG_WINNER",
}  # fmt: skip


def test_contract_names_are_exported() -> None:
    for name in [
        "Color", "Variant", "Phase", "CENTER", "FLOOR", "MARKER", "new_game", "GameState",
        "PlayerBoard", "Take", "TableTake", "PlaceTile", "Refill", "Result", "Violation",
        "ErrorCode", "IllegalMoveError", "FormatError", "InvalidStateError",
        "score_placement", "Outcome", "parse_move",
    ]:  # fmt: skip
        assert hasattr(az, name), name
        assert name in az.__all__, name


def test_values() -> None:
    assert [c.name for c in az.Color] == ["BLUE", "YELLOW", "RED", "BLACK", "WHITE"]
    assert {v.name for v in az.Variant} == {"COLORED", "GREY"}
    assert {p.name for p in az.Phase} == {"FACTORY_OFFER", "WALL_TILING", "REFILL", "GAME_OVER"}
    assert not isinstance(az.MARKER, az.Color)


def test_error_codes_are_exactly_the_rules_tables() -> None:
    assert {c.name for c in az.ErrorCode} == RULES_CODES
    for code in az.ErrorCode:
        assert code == code.name and code.value == code.name and isinstance(code, str)


def test_error_codes_match_the_rule_book_s_tables() -> None:
    """The codes of docs/rules.md and docs/regles.md (the project's own rule book; no
    file outside the repository is read)."""
    docs = Path(__file__).resolve().parents[2] / "docs"
    for page in ("rules.md", "regles.md"):
        text = (docs / page).read_text(encoding="utf-8").split("\n## ")
        codes = next(section for section in text if "`PARTIAL_TAKE`" in section)
        documented = re.findall(r"^\| `([A-Z_]+)` \|", codes, re.MULTILINE)
        assert len(documented) == len(set(documented)) == 33, page
        assert set(documented) == RULES_CODES, page


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_code_has_english_and_french_with_the_same_placeholders() -> None:
    keys = {key.split("/")[0] for key in TEMPLATES}
    assert keys == RULES_CODES
    for key, languages in TEMPLATES.items():
        assert set(languages) == {"en", "fr"}, key
        assert _fields(languages["en"]) == _fields(languages["fr"]), key


def test_every_cli_phrase_has_english_and_french_with_the_same_placeholders() -> None:
    """The command line's own words (``play``'s forfeits among them) in both languages."""
    assert {"forfeit", "forfeit_illegal", "stopped_scores"} <= set(PHRASES)
    for key, languages in PHRASES.items():
        assert set(languages) == {"en", "fr"}, key
        assert _fields(languages["en"]) == _fields(languages["fr"]), key


def test_unknown_language_is_refused() -> None:
    violation = az.Violation.of(az.ErrorCode.GAME_OVER, "E1")
    assert violation.message == "the game is over: no move can be made"
    assert violation.message_in("fr") == "la partie est terminée\u202f: aucun coup n'est possible"
    with pytest.raises(ValueError, match="unknown language"):
        violation.message_in("de")


def test_result_truthiness_and_code() -> None:
    assert az.Result().ok and bool(az.Result()) and az.Result().code is None
    bad = az.Result((az.Violation.of(az.ErrorCode.LINE_FULL, "P4", line=0, room=0, count=1),))
    assert not bad and not bad.ok and bad.code is az.ErrorCode.LINE_FULL
    assert all(v.rule for v in bad.violations)


def test_states_are_frozen_and_hashable() -> None:
    import attrs

    s = az.new_game(2, seed=3)
    assert attrs.has(type(s))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        s.current_player = 1  # type: ignore[misc]
    assert hash(s) == hash(az.new_game(2, seed=3))
    assert s == az.new_game(2, seed=3)
    assert s != az.new_game(2, seed=4)


def test_multisets_read_as_the_contract_says() -> None:
    s = az.new_game(2, seed=3)
    factory = s.factories[0]
    assert len(factory) == 4
    assert sum(factory.count(c) for c in az.Color) == 4
    assert list(factory) == sorted(factory)
    assert all(isinstance(t, az.Color) for t in s.bag)


# -- issue 24: counted words in the singular and the plural --------------------------------


def _catalogues() -> dict[str, str]:
    """Every template of every catalogue of words (the differential report's among them),
    by key and language."""
    from azul_rules.text import keys, languages, template

    found = {f"{key}/{lang}": template(lang, key) for lang in languages() for key in keys()}
    assert any(key.startswith("differential.") for key in found)
    return found


def test_no_template_counts_in_brackets() -> None:
    """``1 point(s)``, ``2 row(s)``, ``1 carreau(x)``, ``1 place(s)``: every counted
    word is written in the singular or the plural its count takes."""
    for name, text in _catalogues().items():
        assert not re.search(r"\((?:s|x|es)\)", text), (name, text)


@pytest.mark.parametrize(
    ("code", "params", "english", "french"),
    [
        (az.StateProblem.LINE_OVER_CAPACITY, {"line": 0, "count": 2, "capacity": 1},
         "pattern line 1 holds 2 tiles: it has 1 space",
         "la ligne de préparation 1 contient 2 carreaux\u202f: elle n'a que 1 place"),
        (az.StateProblem.TILE_COUNT, {"color": az.Color.BLUE, "count": 1},
         "1 blue tile in all: the game has 20 of each colour",
         "1 carreau de couleur bleue en tout\u202f: le jeu en compte 20 de chaque couleur"),
        (az.StateProblem.TILE_COUNT, {"color": az.Color.BLUE, "count": 0},
         "0 blue tiles in all: the game has 20 of each colour",
         "0 carreau de couleur bleue en tout\u202f: le jeu en compte 20 de chaque couleur"),
        (az.StateProblem.PLAYER_COUNT, {"count": 1}, "1 player: Azul has 2 to 4",
         "1 joueur\u202f: Azul se joue à 2, 3 ou 4"),
    ],
)  # fmt: skip
def test_problems_count_in_the_singular_and_the_plural_S1_S3_S4(
    code: az.StateProblem, params: dict[str, object], english: str, french: str
) -> None:
    """S1, S3, S4: ``it has 1 spaces``, ``1 carreaux`` (French takes the singular for 0
    and 1, English for 1 alone)."""
    from azul_rules.core.messages import render_problem

    assert render_problem(code, params, "en") == english
    assert render_problem(code, params, "fr") == french


@pytest.mark.parametrize(
    ("code", "params", "english", "french"),
    [
        (az.ErrorCode.PARTIAL_TAKE, {"count": 1, "available": 2, "color": az.Color.RED,
                                     "source": 0},
         "1 of the 2 red tiles of factory 1 was taken",
         "1 des 2 carreaux de couleur rouge de la fabrique 1 a été pris"),
        (az.ErrorCode.LINE_FULL, {"line": 2, "room": 1, "count": 3},
         "pattern line 3 has room for 1 more tile: 3 cannot be put there",
         "la ligne de préparation 3 n'a de place que pour 1 carreau de plus"),
        (az.ErrorCode.FLOOR_WHILE_ROOM, {"floor": 1, "line": 3, "room": 1},
         "1 tile went to the floor line while pattern line 4 still had room for 1",
         "1 carreau est allé au plancher alors que la ligne de préparation 4 avait encore "
         "1 place"),
        (az.ErrorCode.TILE_COUNT_MISMATCH, {"taken": 1, "placed": 2},
         "1 tile was taken but 2 were placed", "1 carreau a été pris mais 2 ont été posés"),
        (az.ErrorCode.TOO_MANY_TAKEN, {"count": 1, "color": az.Color.RED, "source": -1,
                                       "available": 0},
         "1 red tile was claimed from the centre, which holds only 0",
         "1 carreau de couleur rouge a été annoncé pris sur le centre"),
    ],
)  # fmt: skip
def test_violations_count_in_the_singular_and_the_plural_T2_P4_P5(
    code: az.ErrorCode, params: dict[str, object], english: str, french: str
) -> None:
    """T2, P4, P5: ``1 of the 2 red tiles ... were taken``, ``room for 1 more tile(s)``,
    ``1 tile(s) were taken but 2 were placed``, in English and in French."""
    rules = {az.ErrorCode.LINE_FULL: "P4", az.ErrorCode.FLOOR_WHILE_ROOM: "P5",
             az.ErrorCode.TILE_COUNT_MISMATCH: "P1"}  # fmt: skip
    violation = az.Violation.of(code, rules.get(code, "T2"), **params)
    assert violation.message_in("en").startswith(english)
    assert violation.message_in("fr").startswith(french)


def test_the_command_line_counts_in_the_singular_and_the_plural() -> None:
    """``-> 1 point(s)``, ``end bonuses 1 row(s) x2``, ``bag: 1 tiles``."""
    from azul_rules.core.messages import phrase

    assert phrase("supply", "en", bag=1, lid=0) == "  bag: 1 tile, lid: 0 tiles"
    assert phrase("supply", "fr", bag=1, lid=0) == (
        "  sac\u202f: 1 carreau, couvercle\u202f: 0 carreau"
    )
    assert phrase("placement", "en", player=1, color="red", row=1, column=2, horizontal=1,
                  vertical=0, points=1).endswith("-> 1 point")  # fmt: skip
    assert phrase("bonuses", "fr", player=1, rows=1, columns=2, colors=0, points=24,
                  score=50) == ("  joueur 1\u202f: bonus de fin 1 rangée x2, 2 colonnes x7, "
                                "0 couleur x10 = +24 -> 50")  # fmt: skip
    assert phrase("sheet_correct", "en", rounds=1) == "the scoresheet is correct (1 round)"
