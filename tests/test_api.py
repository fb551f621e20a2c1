"""The public contract: names, values and the message catalogue."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.messages import PHRASES, TEMPLATES

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
    docs = Path(__file__).resolve().parents[1] / "docs"
    for page in ("rules.md", "regles.md"):
        text = (docs / page).read_text(encoding="utf-8")
        documented = re.findall(r"^\| `([A-Z_]+)` \|", text, re.MULTILINE)
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
    assert violation.message_in("fr") == "la partie est terminée : aucun coup n'est possible"
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
