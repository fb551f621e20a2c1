"""External draws (R2): entering the table's real refills, and FILL_IMPOSSIBLE."""

from __future__ import annotations

import attrs
import pytest

import azul_rules as az
from azul_rules import Color as C
from azul_rules import ErrorCode as E
from tests.builders import board, count_all_tiles, state, tiles

B, Y, R, K, W = C.BLUE, C.YELLOW, C.RED, C.BLACK, C.WHITE


def refill(*factories: str) -> az.Refill:
    return az.Refill(tuple(tiles(f) for f in factories))


def test_s7_external_draws_wait_in_refill_for_the_named_first_player() -> None:
    """S7: the named first player fills the factories; nothing is dealt yet."""
    s = az.new_game(3, external_draws=True, first_player=2)
    assert s.phase is az.Phase.REFILL
    assert s.current_player == 2
    assert len(s.factories) == 7 and all(f == () for f in s.factories)
    assert len(s.bag) == 100
    assert s.legal_moves() == ()


def test_r2_a_possible_refill_is_accepted_and_dealt() -> None:
    s = az.new_game(2, external_draws=True, first_player=1)
    move = refill("BBYR", "KKWW", "BYRK", "WWWW", "RRRY")
    assert s.validate(move).ok
    after = s.apply(move)
    assert after.phase is az.Phase.FACTORY_OFFER
    assert after.current_player == 1
    assert after.factories[3] == (W, W, W, W)
    assert len(after.bag) == 80
    assert count_all_tiles(after) == {c: 20 for c in C}
    assert after.validate(az.Take(0, B, 0)).ok


def test_refill_by_the_wrong_player() -> None:
    """T1: the filler is the starting player."""
    s = az.new_game(2, external_draws=True, first_player=1)
    move = az.Refill(refill("BBYR", "KKWW", "BYRK", "WWWW", "RRRY").factories, player=0)
    assert s.validate(move).codes == (E.NOT_YOUR_TURN,)


def test_fill_impossible_more_than_four_tiles() -> None:
    """R2: a factory holds at most 4 tiles."""
    s = az.new_game(2, external_draws=True, first_player=0)
    result = s.validate(refill("BBYRR", "KKWW", "BYRK", "WWWW", "RRRY"))
    assert result.codes == (E.FILL_IMPOSSIBLE,)
    assert result.violations[0].rule == "R2"
    assert result.violations[0].message == "factory 1 shows 5 tiles: a factory holds at most 4"


def test_fill_impossible_wrong_number_of_factories() -> None:
    """S2, R2: five factories with two players."""
    s = az.new_game(2, external_draws=True, first_player=0)
    result = s.validate(refill("BBYR", "KKWW", "BYRK", "WWWW"))
    assert result.codes == (E.FILL_IMPOSSIBLE,)
    assert "4 factories were described: this table has 5" in result.violations[0].message


def test_fill_impossible_short_factory_while_tiles_remain() -> None:
    """R2: factories are filled with 4 tiles while the bag (or lid) has tiles."""
    s = az.new_game(2, external_draws=True, first_player=0)
    result = s.validate(refill("BBY", "KKWW", "BYRK", "WWWW", "RRRY"))
    assert result.codes == (E.FILL_IMPOSSIBLE,)
    assert result.violations[0].param_dict["reason"] == "short"


def test_fill_impossible_more_of_a_colour_than_bag_and_lid_hold() -> None:
    """R2: 24 whites cannot be drawn when only 20 exist."""
    s = az.new_game(4, external_draws=True, first_player=0)
    result = s.validate(refill(*(["WWWW"] * 6 + ["BBBB"] * 3)))
    assert result.codes == (E.FILL_IMPOSSIBLE,)
    assert result.violations[0].param_dict == {
        "reason": "color",
        "color": W,
        "seen": 24,
        "available": 20,
    }


def test_fill_impossible_lid_tiles_before_the_bag_ran_out() -> None:
    """R2: the lid is poured in only once the bag is empty: a tile only the lid holds
    cannot appear while the bag still has tiles."""
    players = [board(floor_text=""), board()]
    s = state(
        players, [""] * 5, "", bag="BBBBBBBBBBBBBBBBBBBBYYYYYYYY", lid=None, phase=az.Phase.REFILL
    )
    result = s.validate(refill("BBBB", "BBBB", "BBBB", "BBBB", "BBBW"))
    assert result.codes == (E.FILL_IMPOSSIBLE,)
    assert result.violations[0].param_dict == {"reason": "lid_before_bag", "color": W}


def test_refill_pours_the_lid_when_the_bag_runs_out() -> None:
    """R2: the bag's 6 tiles are drawn first, then the lid's."""
    s = state([board(), board()], [""] * 5, "", bag="BBYYRR", lid=None, phase=az.Phase.REFILL)
    move = refill("BBYY", "RRKK", "KKKK", "WWWW", "WWWW")
    assert s.validate(move).ok
    after = s.apply(move)
    assert after.lid == ()
    assert len(s.lid) == 94
    assert len(after.bag) == 80  # 6 from the bag, then 14 of the 94 poured from the lid
    assert count_all_tiles(after) == {c: 20 for c in C}


def test_r6_external_refill_of_nothing_ends_the_game() -> None:
    """R6: nothing left to deal: an empty refill ends the game."""
    from tests.core.test_rounds import starved_table

    s = starved_table(bag="", lid="")
    external = attrs.evolve(s, context=attrs.evolve(s.context, rng_state=None))
    waiting = external.apply(az.Take(az.CENTER, R, 3))
    assert waiting.phase is az.Phase.REFILL
    move = az.Refill(((),) * 9)
    assert waiting.validate(move).ok
    ended = waiting.apply(move)
    assert ended.is_over and ended.outcome is not None


def test_refill_must_be_a_refill_object() -> None:
    with pytest.raises(az.FormatError):
        az.Refill("BBYR")  # type: ignore[arg-type]
    with pytest.raises(az.FormatError):
        az.Refill([["B"]])  # type: ignore[list-item]
