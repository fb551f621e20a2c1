"""The factory offer: takes (T1-T4), pattern lines (P1-P7), the floor (F1-F4), and the
codes a take or a table take can produce."""

from __future__ import annotations

import pytest

import azul_rules as az
from azul_rules import CENTER, FLOOR, MARKER
from azul_rules import Color as C
from azul_rules import ErrorCode as E
from tests.builders import board, colored_wall, count_all_tiles, state, tiles

Y, B, R, K, W = C.YELLOW, C.BLUE, C.RED, C.BLACK, C.WHITE


def andrea() -> az.GameState:
    """The rulebook's example: Andrea's rows 2 and 3 hold yellow on the wall, her
    fourth pattern line holds one blue; factory 1 shows two yellows."""
    wall_ = colored_wall(["", "..x..", "...x."])
    assert wall_[1][2] == Y and wall_[2][3] == Y
    me = board(pattern=["", "", "", "B", ""], wall_rows=wall_)
    return state([me, board()], ["YYRK", "BBRW", "KKWW", "RRRB", "YBKW"])


def test_p3_rulebook_example_two_yellows_have_exactly_three_placements() -> None:
    """P2, P3, P5, P6: two yellows may go to line 1 (one to the floor), line 5, or the
    floor; lines 2 and 3 conflict with the wall, line 4 holds blue."""
    s = andrea()
    yellow_moves = [
        m for m in s.legal_moves() if isinstance(m, az.Take) and m.source == 0 and m.color == Y
    ]
    assert [str(m) for m in yellow_moves] == ["1Y1", "1Y5", "1YF"]
    assert s.validate(az.Take(0, Y, 1)).codes == (E.WALL_COLOR_CONFLICT,)
    assert s.validate(az.Take(0, Y, 2)).codes == (E.WALL_COLOR_CONFLICT,)
    assert s.validate(az.Take(0, Y, 3)).codes == (E.LINE_COLOR_MISMATCH,)
    assert s.validate(az.Take(0, Y, 3)).violations[0].rule == "P2"
    assert s.validate(az.Take(0, Y, 1)).violations[0].rule == "P3"


def test_p5_one_in_line_1_and_the_excess_to_the_floor() -> None:
    """P5 (option A): line 1 takes one yellow, the other goes to the floor."""
    after = andrea().apply(az.Take(0, Y, 0))
    me = after.players[0]
    assert (me.pattern_lines[0].color, me.pattern_lines[0].count) == (Y, 1)
    assert me.floor == (Y,)


def test_p1_both_in_line_5() -> None:
    """P1 (option B): the whole lot in line 5."""
    me = andrea().apply(az.Take(0, Y, 4)).players[0]
    assert (me.pattern_lines[4].color, me.pattern_lines[4].count) == (Y, 2)
    assert me.floor == ()


def test_p6_whole_lot_to_the_floor() -> None:
    """P6 (option C): the whole lot to the floor, even though a line could take it."""
    me = andrea().apply(az.Take(0, Y, FLOOR)).players[0]
    assert me.floor == (Y, Y)
    assert all(line.count == 0 for i, line in enumerate(me.pattern_lines) if i != 3)


def test_t2_other_tiles_go_to_the_centre_and_the_factory_is_emptied() -> None:
    """T2: every tile of the colour is taken, the rest goes to the centre."""
    after = andrea().apply(az.Take(0, Y, 4))
    assert after.factories[0] == ()
    assert after.center == tiles("RK")
    assert after.current_player == 1


def test_g2_turns_go_clockwise_and_wrap() -> None:
    """G2: increasing index, from the last player back to player 0."""
    s = state(
        [board(), board(), board()],
        ["YYRK", "BBRW", "KKWW", "RRRB", "YBKW", "BBBB", "RRRR"],
        current=2,
    )
    after = s.apply(az.Take(0, Y, 4))
    assert after.current_player == 0


def test_t3_first_from_centre_takes_the_marker_to_the_floor() -> None:
    """T3, F3: the first taker from the centre puts the marker on the leftmost free
    floor space, before any overflow."""
    s = state(
        [board(pattern=["", "", "", "", ""], floor_text="K"), board()],
        ["", "", "", "", "BBRW"],
        "YYY",
    )
    after = s.apply(az.Take(CENTER, Y, 1))  # line 2 holds 2: one yellow overflows
    assert after.players[0].floor == (K, MARKER, Y)
    assert after.marker_holder == 0
    assert after.center == ()


def test_t3_later_takers_from_centre_do_not_take_the_marker() -> None:
    """T3: only the first taker from the centre takes the marker."""
    s = state(
        [board(floor_text="M"), board()],
        ["", "", "", "", "BBRW"],
        "YYR",
        current=1,
        marker_holder=0,
    )
    after = s.apply(az.Take(CENTER, R, 0))
    assert after.players[1].floor == ()
    assert after.players[0].floor == (MARKER,)


def test_t4_marker_is_not_a_tile_of_the_centre() -> None:
    """T4: a centre holding only the marker is empty; the marker cannot be taken alone."""
    s = state([board(), board()], ["BBRW", "", "", "", ""], "")
    assert s.validate(az.Take(CENTER, B, 0)).codes == (E.EMPTY_SOURCE,)
    assert s.validate(az.Take(CENTER, MARKER, 0)).code == E.MARKER_ALONE
    assert s.validate(az.Take(CENTER, MARKER, 0)).violations[0].rule == "T4"
    assert all(m.source == 0 for m in s.legal_moves())  # type: ignore[union-attr]


def test_p4_complete_line_accepts_nothing() -> None:
    """P4: a full pattern line takes no tile."""
    s = state([board(pattern=["", "BB"]), board()], ["BBRW", "YYYY", "KKKK", "RRRR", "WWWB"])
    result = s.validate(az.Take(0, B, 1))
    assert result.codes == (E.LINE_FULL,)
    assert result.violations[0].rule == "P4"


def test_full_line_of_another_colour_reports_both_problems() -> None:
    """P2 and P4: every violation is listed, most fundamental first."""
    s = state([board(pattern=["", "RR"]), board()], ["BBRW", "YYYY", "KKKK", "RRRR", "WWWB"])
    assert s.validate(az.Take(0, B, 1)).codes == (E.LINE_COLOR_MISMATCH, E.LINE_FULL)


def test_p2_started_line_accepts_its_own_colour() -> None:
    """P2: a started line accepts more of its own colour."""
    s = state([board(pattern=["", "", "R"]), board()], ["BBRW", "YYYY", "KKKK", "RRRR", "WWWB"])
    after = s.apply(az.Take(3, R, 2))
    assert after.players[0].pattern_lines[2].count == 3
    assert after.players[0].floor == (R, R)


def test_f2_floor_overflow_goes_to_the_lid_and_costs_nothing_more() -> None:
    """F2: with 6 floor spaces taken, three overflowing tiles: 1 on the floor, 2 to the lid."""
    s = state(
        [board(floor_text="BYRKW" + "B"), board()], ["RRRB", "YYYY", "KKKK", "", "WWWB"], lid="KK"
    )
    after = s.apply(az.Take(0, R, FLOOR))
    assert after.players[0].floor == (B, Y, R, K, W, B, R)
    assert after.lid == tiles("KKRR")
    assert count_all_tiles(after) == {c: 20 for c in C}


def test_f4_full_floor_still_takes_the_marker_at_no_cost() -> None:
    """F4: a full floor takes the marker's place nowhere; the taker still holds it and
    starts the next round; no tile is displaced; the overflow goes to the lid."""
    s = state([board(floor_text="BBYYRRK"), board()], ["", "", "", "", "WWWB"], "KK", lid="")
    after = s.apply(az.Take(CENTER, K, FLOOR))
    assert after.players[0].floor == (B, B, Y, Y, R, R, K)
    assert after.marker_holder == 0
    assert after.lid == (K, K)


def test_e1_no_move_after_the_end() -> None:
    """E1: a finished game answers GAME_OVER, never a lesser code."""
    s = state([board(), board()], ["", "", "", "", ""], phase=az.Phase.GAME_OVER)
    result = s.validate(az.Take(0, B, 0))
    assert result.codes == (E.GAME_OVER,)
    assert result.violations[0].rule == "E1"
    assert s.legal_moves() == ()
    with pytest.raises(az.IllegalMoveError) as caught:
        s.apply(az.Take(0, B, 0))
    assert caught.value.result.code == E.GAME_OVER


def test_g1_wrong_phase_for_a_take_and_a_refill() -> None:
    """G1: each phase takes only its own kind of move."""
    waiting = az.new_game(2, external_draws=True, first_player=0)
    assert waiting.validate(az.Take(0, B, 0)).codes == (E.WRONG_PHASE,)
    assert waiting.validate(az.Take(0, B, 0)).violations[0].rule == "G1"
    offer = az.new_game(2, seed=1)
    assert offer.validate(az.Refill(((),) * 5)).codes == (E.WRONG_PHASE,)
    assert offer.validate(az.PlaceTile(0, 0)).codes == (E.WRONG_PHASE,)


def test_t1_not_your_turn() -> None:
    """T1: a move naming another player than the one to move."""
    s = andrea()
    result = s.validate(az.Take(0, Y, 4, player=1))
    assert result.codes == (E.NOT_YOUR_TURN,)
    assert "player 1's turn, not player 2's" in result.violations[0].message
    assert s.validate(az.Take(0, Y, 4, player=0)).ok


def test_s2_no_such_source_and_s4_no_such_line() -> None:
    """S2: 5 factories with two players; S4: pattern lines 0-4."""
    s = andrea()
    assert s.validate(az.Take(5, Y, 0)).codes == (E.NO_SUCH_SOURCE,)
    assert s.validate(az.Take(0, Y, 5)).codes == (E.NO_SUCH_LINE,)
    assert s.validate(az.Take(7, Y, 9)).codes == (E.NO_SUCH_SOURCE, E.NO_SUCH_LINE)


def test_t2_colour_not_in_source_and_empty_source() -> None:
    """T2: a colour the factory lacks; an emptied factory."""
    s = andrea()
    assert s.validate(az.Take(0, W, 0)).codes == (E.COLOR_NOT_IN_SOURCE,)
    after = s.apply(az.Take(0, Y, 4))
    result = after.validate(az.Take(0, R, 0))
    assert result.codes == (E.EMPTY_SOURCE,)
    assert result.violations[0].rule == "T2"


def test_apply_raises_with_the_full_result_and_leaves_the_state_alone() -> None:
    """apply raises IllegalMoveError carrying the same Result as validate."""
    s = andrea()
    before = az.from_json(az.to_json(s), az.GameState)
    with pytest.raises(az.IllegalMoveError) as caught:
        s.apply(az.Take(0, Y, 1))
    assert caught.value.result == s.validate(az.Take(0, Y, 1))
    assert isinstance(caught.value, ValueError)
    assert s == before


# -- table takes: the documented mistakes ----------------------------------------------


def test_table_take_legal_applies_like_its_take() -> None:
    """A correct table take equals its compact take."""
    s = andrea()
    move = az.TableTake(0, Y, 2, {0: 1, FLOOR: 1})
    assert s.validate(move).ok
    assert move.as_take() == az.Take(0, Y, 0)
    assert s.apply(move) == s.apply(az.Take(0, Y, 0))


def test_partial_take_from_a_factory() -> None:
    """T2 / PARTIAL_TAKE: two of three blues taken."""
    s = state([board(), board()], ["BBBR", "YYYY", "KKKK", "RRRR", "WWWB"])
    result = s.validate(az.TableTake(0, B, 2, {3: 2}))
    assert result.codes == (E.PARTIAL_TAKE,)
    assert result.violations[0].rule == "T2"
    assert result.violations[0].message == (
        "2 of the 3 blue tiles of factory 1 were taken: "
        "every tile of the chosen colour must be taken"
    )


def test_partial_take_from_the_centre() -> None:
    """T3 / PARTIAL_TAKE from the centre."""
    s = state([board(), board()], ["", "YYYY", "KKKK", "RRRR", "WWWB"], "BBB", marker_holder=None)
    result = s.validate(az.TableTake(CENTER, B, 1, {0: 1}))
    assert result.codes == (E.PARTIAL_TAKE,)
    assert result.violations[0].rule == "T3"


def test_split_lot_over_two_lines() -> None:
    """P1 / SPLIT_LOT: three reds spread over lines 1 and 2."""
    s = state([board(), board()], ["RRRB", "YYYY", "KKKK", "RRRR", "WWWB"])
    result = s.validate(az.TableTake(0, R, 3, {0: 1, 1: 2}))
    assert result.codes == (E.SPLIT_LOT,)
    assert result.violations[0].param_dict["lines"] == (0, 1)


def test_wall_colour_conflict_from_a_table_take() -> None:
    """P3 / WALL_COLOR_CONFLICT."""
    s = andrea()
    assert s.validate(az.TableTake(0, Y, 2, {1: 2})).codes == (E.WALL_COLOR_CONFLICT,)


def test_floor_while_room() -> None:
    """P5 / FLOOR_WHILE_ROOM: one yellow to line 5, one to the floor, while line 5 has room."""
    s = andrea()
    result = s.validate(az.TableTake(0, Y, 2, {4: 1, FLOOR: 1}))
    assert result.codes == (E.FLOOR_WHILE_ROOM,)
    assert result.violations[0].param_dict["room"] == 4


def test_tile_count_mismatch() -> None:
    """P1 / TILE_COUNT_MISMATCH: two taken, one placed."""
    s = andrea()
    result = s.validate(az.TableTake(0, Y, 2, {4: 1}))
    assert result.codes == (E.TILE_COUNT_MISMATCH,)
    assert result.violations[0].message == "2 tiles were taken but 1 was placed"


def test_too_many_taken() -> None:
    """T2 / TOO_MANY_TAKEN: claiming three yellows from a factory with two."""
    s = andrea()
    assert s.validate(az.TableTake(0, Y, 3, {4: 3})).codes == (E.TOO_MANY_TAKEN,)


def test_overfilled_line_is_line_full() -> None:
    """P5 / LINE_FULL: three tiles into a line with room for one."""
    s = state([board(pattern=["", "R"]), board()], ["RRRB", "YYYY", "KKKK", "RRRR", "WWWB"])
    result = s.validate(az.TableTake(0, R, 3, {1: 3}))
    assert result.codes == (E.LINE_FULL,)
    assert result.violations[0].rule == "P5"


def test_several_mistakes_at_once_are_all_named() -> None:
    """A partial take split over two lines with a tile lost: every mistake listed."""
    s = state([board(), board()], ["BBBR", "YYYY", "KKKK", "RRRR", "WWWB"])
    result = s.validate(az.TableTake(0, B, 2, {0: 1, 3: 2}))
    assert result.codes == (E.PARTIAL_TAKE, E.SPLIT_LOT, E.TILE_COUNT_MISMATCH)


def test_table_take_of_the_marker_alone() -> None:
    """T4 / MARKER_ALONE."""
    s = state([board(), board()], ["BBBR", "YYYY", "KKKK", "RRRR", "WWWB"])
    assert s.validate(az.TableTake(CENTER, MARKER, 1, {FLOOR: 1})).code == E.MARKER_ALONE


def test_two_colours_taken_in_one_turn() -> None:
    """T4 / TWO_COLORS: the blues and the red of a factory taken together."""
    s = state([board(), board()], ["BBBR", "YYYY", "KKKK", "RRRR", "WWWB"])
    move = az.TableTake(0, (B, R), 4, {3: 4})
    result = s.validate(move)
    assert result.codes == (E.TWO_COLORS,)
    assert result.violations[0].rule == "T4"
    assert result.violations[0].message == (
        "tiles of blue and red were taken in one turn: a turn takes one colour"
    )
    assert str(move) == "took 4 blue and red from factory 1: 4 to line 4"
    assert az.from_json(az.to_json(move), az.TableTake) == move
    with pytest.raises(az.FormatError):
        move.as_take()
    with pytest.raises(az.FormatError):
        az.TableTake(0, (B,), 1, {0: 1})
    empty = s.apply(az.Take(0, B, 3))
    assert empty.validate(az.TableTake(0, (B, R), 4, {3: 4}, player=1)).codes == (
        E.EMPTY_SOURCE, E.TWO_COLORS
    )  # fmt: skip


def test_is_legal_agrees_with_validate() -> None:
    s = andrea()
    assert s.is_legal(az.Take(0, Y, 4)) is True
    assert s.is_legal(az.Take(0, Y, 1)) is False


def test_t2_make_stores_multisets_sorted_so_a_centre_take_removes_the_whole_lot() -> None:
    """T2: ``GameState.make`` accepts tiles in any order and stores each multiset sorted;
    taking red from a centre given as R, B, R, K, R then leaves exactly B, K."""
    s = az.GameState.make(
        players=(board(), board()),
        factories=((R, B, Y, B), (), (), (), ()),
        center=(R, B, R, K, R),
        bag=(W, K, Y),
        lid=(),
        current_player=0,
        start_player=0,
        phase=az.Phase.FACTORY_OFFER,
        marker_holder=1,
    )
    assert s.center == (B, R, R, R, K)
    assert s.factories[0] == (B, B, Y, R)
    assert s.bag == (Y, K, W)
    after = s.apply(az.Take(CENTER, R, 2))
    assert after.center == (B, K)
    assert after.players[0].pattern_lines[2] == az.PatternLine(R, 3, 3)
