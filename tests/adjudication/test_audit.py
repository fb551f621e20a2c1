"""Audits of claimed scores: each documented mistake, alone and two at once."""

from __future__ import annotations

import json

import pytest

import azul_rules as az
from azul_rules.adjudication.auditing import claim_from_dict, position_from_json
from tests.builders import board, colored_wall, state

EMPTY5 = ["", "", "", "", ""]


def offer_end(*players: az.PlayerBoard, holder: int | None = None) -> az.GameState:
    """The position when the factory offer of round 3 has just ended (two tilings
    behind: walls hold up to 2 tiles a row, W1)."""
    return state(list(players), EMPTY5, "", marker_holder=holder, round_number=3)


def claim(*scores: int, **rest: object) -> az.Claim:
    return az.Claim(tuple(scores), **rest)  # type: ignore[arg-type]


def cross(score: int = 10, floor_text: str = "") -> az.PlayerBoard:
    """Red completes line 2 at row 2, column 4: 3 across and 2 down, 5 points."""
    return board(score, ["", "RR"], colored_wall(["...x.", "..x.x"]), floor_text)


def codes(result: az.Result) -> list[str]:
    return [v.code.value for v in result.violations]


def test_a_correct_claim() -> None:
    s = offer_end(cross(), board(3))
    assert az.audit(s, claim(15, 3)).ok


def test_cross_counted_once() -> None:
    """W3 / CROSS_COUNTED_ONCE: 3 across + 2 down counted as 4."""
    result = az.audit(offer_end(cross(), board()), claim(14, 0))
    assert codes(result) == ["CROSS_COUNTED_ONCE"]
    v = result.violations[0]
    assert v.rule == "W3"
    assert {k: v.param_dict[k] for k in ("player", "row", "column", "claimed", "correct")} == {
        "player": 0, "row": 1, "column": 3, "claimed": 4, "correct": 5
    }  # fmt: skip
    assert v.message == (
        "player 1's red tile at row 2, column 4 scores 5 (3 across + 2 down), not 4 (3 + 2 - 1): "
        "the new tile counts in both runs"
    )


def test_diagonal_counted() -> None:
    """W3 / DIAGONAL_COUNTED: a lone tile with a diagonal neighbour claimed 2."""
    p0 = board(10, ["", "RR"], colored_wall(["..x.."]))
    result = az.audit(offer_end(p0, board()), claim(12, 0))
    assert codes(result) == ["DIAGONAL_COUNTED"]
    assert result.violations[0].param_dict["correct"] == 1


def test_gap_counted() -> None:
    """W3 / GAP_COUNTED: a tile across an empty space counted in the run."""
    p0 = board(10, ["", "RR"], colored_wall(["", "x...."]))
    result = az.audit(offer_end(p0, board()), claim(12, 0))
    assert codes(result) == ["GAP_COUNTED"]


def test_empty_direction_counted() -> None:
    """W3 / EMPTY_DIRECTION_COUNTED: a run of 2 across claimed as 3."""
    p0 = board(10, ["", "RR"], colored_wall(["", "..x.."]))
    result = az.audit(offer_end(p0, board()), claim(13, 0))
    assert codes(result) == ["EMPTY_DIRECTION_COUNTED"]
    assert result.violations[0].param_dict["claimed"] == 3


def test_marker_penalty_forgotten() -> None:
    """F3 / MARKER_PENALTY_FORGOTTEN: the marker and two tiles cost 4, not 2."""
    result = az.audit(offer_end(board(10, floor_text="MKK"), board(), holder=0), claim(8, 0))
    assert codes(result) == ["MARKER_PENALTY_FORGOTTEN"]
    v = result.violations[0]
    assert (v.rule, v.param_dict["claimed"], v.param_dict["correct"]) == ("F3", 2, 4)


def test_floor_overflow_penalized() -> None:
    """F2 / FLOOR_OVERFLOW_PENALIZED: a full floor costs 14, not 17."""
    result = az.audit(offer_end(board(20, floor_text="MKKKKKK"), board(), holder=0),
                      claim(3, 0))  # fmt: skip
    assert codes(result) == ["FLOOR_OVERFLOW_PENALIZED"]
    assert result.violations[0].param_dict["claimed"] == 17


def test_score_below_zero() -> None:
    """W4 / SCORE_BELOW_ZERO: 2 - 4 is clamped to 0."""
    result = az.audit(offer_end(board(2, floor_text="KKK"), board()), claim(-2, 0))
    assert codes(result) == ["SCORE_BELOW_ZERO"]
    assert result.violations[0].param_dict["correct"] == 0


def test_two_mistakes_at_once() -> None:
    """CROSS_COUNTED_ONCE and MARKER_PENALTY_FORGOTTEN together: 10 + 4 - 2 = 12."""
    s = offer_end(cross(10, "MKK"), board(), holder=0)
    result = az.audit(s, claim(12, 0))
    assert sorted(codes(result)) == ["CROSS_COUNTED_ONCE", "MARKER_PENALTY_FORGOTTEN"]


def test_unexplained_claim_is_a_score_miscount() -> None:
    result = az.audit(offer_end(cross(), board()), claim(40, 0))
    assert codes(result) == ["SCORE_MISCOUNT"]
    assert result.violations[0].rule == "W3"
    assert result.violations[0].param_dict == {"player": 0, "claimed": 40, "correct": 15}


def test_w4_a_floor_left_unpenalised_is_a_score_miscount_of_the_floor() -> None:
    """W4 / SCORE_MISCOUNT: the cross's 5 points counted, the floor's 3 tiles (-4) not:
    15 claimed, 11 correct; the verdict cites the floor's rule, not the tiles'."""
    result = az.audit(offer_end(cross(10, "KKK"), board()), claim(15, 0))
    assert [(v.code.value, v.rule) for v in result.violations] == [("SCORE_MISCOUNT", "W4")]
    assert result.violations[0].param_dict == {"player": 0, "claimed": 15, "correct": 11}
    counted_as_two = az.audit(offer_end(cross(10, "KKK"), board()), claim(13, 0))
    assert [(v.code.value, v.rule) for v in counted_as_two.violations] == [
        ("SCORE_MISCOUNT", "W4")
    ]


def test_incomplete_line_cleared() -> None:
    """W2 / INCOMPLETE_LINE_CLEARED: line 4 with 2 of 4 blues was emptied."""
    p0 = board(5, ["", "", "", "BB"])
    cleared = ((), (), (), (), ())
    result = az.audit(offer_end(p0, board()), claim(5, 0, pattern_lines=(cleared, None)))
    assert codes(result) == ["INCOMPLETE_LINE_CLEARED"]
    assert result.violations[0].message == (
        "player 1's pattern line 4 is incomplete (2 of 4): it keeps its tiles for the next round"
    )


def test_game_ended_with_no_complete_row() -> None:
    """E1 / GAME_ENDED_EARLY: nobody completes a row, the game goes on."""
    result = az.audit(offer_end(cross(), board()), claim(15, 0, game_over=True))
    assert codes(result) == ["GAME_ENDED_EARLY"]


def finishing() -> az.GameState:
    """Player 1 completes row 1 (5 across): 10 + 5 + 2 (row bonus); player 2 still tiles
    its yellow (1 point) and pays 2 for its floor."""
    p0 = board(10, ["B"], colored_wall([".xxxx"]))
    p1 = board(8, ["Y"], colored_wall(), floor_text="MK")
    return offer_end(p0, p1, holder=1)


def test_the_game_ended_before_the_others_tiled() -> None:
    """E1 / GAME_ENDED_EARLY: player 2's tiling and floor were skipped."""
    result = az.audit(finishing(), claim(15, 8, game_over=True))
    assert codes(result) == ["GAME_ENDED_EARLY"]
    assert result.violations[0].param_dict["player"] == 1
    assert az.audit(finishing(), claim(15, 7, game_over=True, bonuses=(2, 0),
                                       winners=(0,))).ok  # fmt: skip


def test_bonus_miscount_and_wrong_winner() -> None:
    """E2 / BONUS_MISCOUNT and E4 / WRONG_WINNER."""
    result = az.audit(finishing(), claim(15, 7, game_over=True, bonuses=(9, 0), winners=(1,)))
    assert codes(result) == ["BONUS_MISCOUNT", "WRONG_WINNER"]
    assert result.violations[0].param_dict["correct"] == 2
    assert result.violations[1].message == (
        "the claimed winners are player 2; the scores and the tie-break give player 1"
    )


def test_french_messages_for_audits() -> None:
    result = az.audit(offer_end(cross(), board()), claim(14, 0))
    french = result.violations[0].message_in("fr")
    assert french.startswith("le carreau de couleur rouge du joueur 1")


def test_claims_that_do_not_fit_are_format_errors() -> None:
    with pytest.raises(az.FormatError):
        az.audit(offer_end(cross(), board()), claim(14))
    with pytest.raises(az.FormatError):
        az.audit(az.new_game(2, seed=1), claim(0, 0))
    with pytest.raises(az.FormatError) as caught:
        claim_from_dict({"scores": [1, "2"], "game_over": "yes", "x": 1})
    assert [p for p, _ in caught.value.errors] == ["$.x", "$.scores[1]", "$.game_over"]


def test_the_offer_end_position_loads_from_json() -> None:
    s = offer_end(cross(score=3), board())  # three lone tiles have scored 3 (W3)
    text = az.to_json(s)
    with pytest.raises(az.InvalidStateError):
        az.from_json(text, az.GameState)  # P7: the referee never rests here
    assert position_from_json(text) == s
    assert claim_from_dict(json.loads('{"scores": [14, 0]}')) == claim(14, 0)


def test_placement_explanation() -> None:
    wall = colored_wall(["...x.", "..xxx"])
    assert az.score_placement(wall, 1, 3).explain() == "3 across + 2 down = 5"
    assert az.score_placement(colored_wall(["x"]), 0, 0).explain() == "no neighbour = 1"


def test_a_claim_past_4300_digits_is_named_not_raised() -> None:
    """Plain data may hold any integer; the claim reader quoted it with ``str``, which
    raised ValueError past 4,300 digits."""
    huge = 10**5000
    with pytest.raises(az.FormatError) as raised:
        claim_from_dict({"format_version": 1, "scores": [huge, 0], "lid": -huge})
    assert raised.value.errors[:2] == (
        ("$.scores[0]", "expected an integer from -1000000 to 1000000, got an integer of "
         "more than 4300 digits"),
        ("$.lid", "expected a JSON object of tile counts by colour, got an integer of more "
         "than 4300 digits"),
    )  # fmt: skip
