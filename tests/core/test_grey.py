"""The grey-wall variant (V1-V5): choosing the column when tiling."""

from __future__ import annotations

import azul_rules as az
from azul_rules import CENTER, FLOOR
from azul_rules import Color as C
from azul_rules import ErrorCode as E
from tests.builders import board, count_all_tiles, state, wall

B, Y, R, K, W = C.BLUE, C.YELLOW, C.RED, C.BLACK, C.WHITE
GREY = az.Variant.GREY
def tiling(players: list[az.PlayerBoard], *, start: int = 0) -> az.GameState:
    """Take the round's last tile (the red in the centre, to the floor, by the player
    before ``start``) and return the grey tiling that follows."""
    taker = (start - 1) % len(players)
    empty = [""] * {2: 5, 3: 7, 4: 9}[len(players)]  # S2
    s = state(players, empty, "R", current=taker, start=start, marker_holder=taker,
              variant=GREY)  # fmt: skip
    after = s.apply(az.Take(CENTER, R, FLOOR))
    return after


def test_v1_offer_end_waits_for_the_player_to_choose_a_column() -> None:
    """V1, G1: the grey game stops in WALL_TILING; the legal moves are the free spaces of
    the row whose column lacks the colour."""
    p0 = board(pattern=["B"], wall_rows=wall(["Y....", "", "..B.."]))
    s = tiling([p0, board(floor_text="M")])
    assert s.phase is az.Phase.WALL_TILING
    assert s.current_player == 0
    assert s.legal_moves() == (az.PlaceTile(0, 1), az.PlaceTile(0, 3), az.PlaceTile(0, 4))
    assert count_all_tiles(s) == {c: 20 for c in C}


def test_v1_the_choice_of_column_changes_the_points() -> None:
    """V1, W3: next to the yellow the blue scores 2; apart from it, 1."""
    p0 = board(score=5, pattern=["B"], wall_rows=wall(["Y....", "", "..B.."]))
    s = tiling([p0, board(floor_text="M")])
    beside = s.apply(az.PlaceTile(0, 1))
    apart = s.apply(az.PlaceTile(0, 4))
    assert beside.players[0].score == 5 + 2
    assert apart.players[0].score == 5 + 1
    record = beside.last_scoring
    assert record is not None
    assert record.players[0].placements == (az.WallPlacement(0, 1, B, 2, 1, 2),)
    assert beside.phase is az.Phase.FACTORY_OFFER  # nobody else had to decide
    assert beside.players[0].wall[0][1] == B


def test_v2_column_colour_conflict_and_v1_space_occupied() -> None:
    """V2: blue already in column 3; V1: the yellow's space is taken."""
    p0 = board(pattern=["B"], wall_rows=wall(["Y....", "", "..B.."]))
    s = tiling([p0, board(floor_text="M")])
    conflict = s.validate(az.PlaceTile(0, 2))
    assert conflict.codes == (E.COLUMN_COLOR_CONFLICT,)
    assert conflict.violations[0].rule == "V2"
    assert conflict.violations[0].message == "column 3 of the wall already holds blue"
    occupied = s.validate(az.PlaceTile(0, 0))
    assert occupied.codes == (E.SPACE_OCCUPIED,)
    assert occupied.violations[0].rule == "V1"
    assert s.validate(az.PlaceTile(0, 7)).codes == (E.NO_SUCH_LINE,)


def test_v3_lines_are_tiled_top_to_bottom_and_earlier_choices_shape_later_ones() -> None:
    """V3: line 1 before line 2; where line 1's blue goes decides whether line 2's red
    can score a vertical run."""
    p0 = board(pattern=["B", "RR", "KK"], wall_rows=wall(["", "", "", ""]))
    s = tiling([p0, board(floor_text="M")])
    not_next = s.validate(az.PlaceTile(1, 0))
    assert not_next.codes == (E.WRONG_PHASE,)
    assert not_next.violations[0].rule == "V3"
    assert "pattern line 1 comes first" in not_next.violations[0].message
    incomplete = s.validate(az.PlaceTile(3, 0))
    assert incomplete.codes == (E.WRONG_PHASE,)
    assert incomplete.violations[0].rule == "W2"
    after_blue = s.apply(az.PlaceTile(0, 2))
    assert after_blue.current_player == 0
    under = after_blue.apply(az.PlaceTile(1, 2))  # red under the blue: a run of 2 down
    record = under.last_scoring
    assert record is not None
    assert [p.points for p in record.players[0].placements] == [1, 2]
    elsewhere = after_blue.apply(az.PlaceTile(1, 4))
    record = elsewhere.last_scoring
    assert record is not None
    assert [p.points for p in record.players[0].placements] == [1, 1]


def test_v3_players_tile_in_turn_order_from_the_starting_player() -> None:
    """V3: the round's starting player tiles first; current_player says who decides."""
    p0 = board(pattern=["B"], floor_text="M")  # takes the last tile, holds the marker
    p1 = board(pattern=["Y"])
    p2 = board(pattern=["K"])
    p3 = board()
    s = tiling([p0, p1, p2, p3], start=1)
    assert s.current_player == 1
    assert s.validate(az.PlaceTile(0, 0, player=0)).codes == (E.NOT_YOUR_TURN,)
    s = s.apply(az.PlaceTile(0, 0))
    assert s.current_player == 2
    s = s.apply(az.PlaceTile(0, 4))
    assert s.current_player == 0  # player 4 (index 3) has nothing to decide: skipped
    assert s.phase is az.Phase.WALL_TILING
    s = s.apply(az.PlaceTile(0, 3))
    assert s.phase is az.Phase.FACTORY_OFFER
    assert s.current_player == 0  # W5: the marker holder starts the next round


def test_v4_a_line_with_no_legal_space_goes_whole_to_the_floor() -> None:
    """V4: red can go nowhere in row 2 (its one free space is in a column holding red):
    both tiles go to the floor at once, placing nothing; reported in the round's data."""
    rows = wall(["...R.", "BYK.W"])
    p0 = board(score=10, pattern=["", "RR"], wall_rows=rows)
    s = tiling([p0, board(floor_text="M")])
    assert s.phase is az.Phase.FACTORY_OFFER  # nobody had a decision to make
    record = s.last_scoring
    assert record is not None
    mine = record.players[0]
    assert mine.floor_lines == (1,)
    assert mine.placements == ()
    assert mine.floor_penalty == 2
    assert s.players[0].score == 8
    assert s.players[0].pattern_lines[1].count == 0
    assert s.players[0].wall == rows
    assert count_all_tiles(s) == {c: 20 for c in C}


def test_v4_the_forced_line_cannot_end_the_game() -> None:
    """V4, E1: the only line that would complete a row is forced to the floor, so the
    game goes on."""
    rows = wall(["...R.", "BYK.W"])
    s = tiling([board(pattern=["", "RR"], wall_rows=rows), board(floor_text="M")])
    assert not s.is_over
    assert s.round == 3


def test_v4_forced_tiles_overflow_to_the_lid() -> None:
    """V4, F2: with 5 floor spaces taken, a forced line of 3 puts 2 on the floor and 1
    in the lid."""
    rows = wall(["", "", "B.YKW", ".R..."])
    p0 = board(pattern=["", "", "RRR"], wall_rows=rows, floor_text="BBYYK")
    s = tiling([p0, board(floor_text="M")])
    record = s.last_scoring
    assert record is not None
    assert record.players[0].floor_lines == (2,)
    assert record.players[0].floor_penalty == 14
    assert count_all_tiles(s) == {c: 20 for c in C}


def test_v5_p3_applies_unchanged_on_the_grey_wall() -> None:
    """V5, P3: a colour already in the wall row cannot start that pattern line."""
    p0 = board(wall_rows=wall(["", "...Y."]))
    s = state([p0, board()], ["YYRK", "", "", "", ""], variant=GREY)
    assert s.validate(az.Take(0, Y, 1)).codes == (E.WALL_COLOR_CONFLICT,)
    assert s.validate(az.Take(0, Y, 2)).ok


def test_e2_grey_bonuses_count_colours_by_tile_and_the_game_ends_after_tiling() -> None:
    """E1, E2: a grey row completed by a placement ends the game; the five blues, in no
    diagonal, count as a complete colour."""
    rows = wall(["YRKW.", "B....", ".B...", "...B.", "..B.."])
    p0 = board(score=20, pattern=["B"], wall_rows=rows)
    s = tiling([p0, board(floor_text="M")])
    assert s.legal_moves() == (az.PlaceTile(0, 4),)
    end = s.apply(az.PlaceTile(0, 4))
    assert end.is_over
    record = end.last_scoring
    assert record is not None and record.game_over
    mine = record.players[0]
    assert mine.bonuses == az.Bonuses(rows=1, columns=0, colors=1)
    assert mine.placements[0].points == 5
    assert end.players[0].score == 20 + 5 + 2 + 10


def test_coloured_games_never_wait_for_a_placement() -> None:
    s = az.new_game(2, seed=2)
    assert s.validate(az.PlaceTile(0, 0)).codes == (E.WRONG_PHASE,)


def test_a_grey_row_whose_last_space_cannot_take_its_missing_colour_is_dead() -> None:
    """V1, V2, R7: row 1 lacks black, whose only free column already holds black: the
    row can never be completed; the game can end while another row still can."""
    from azul_rules.core.grey import row_can_be_completed, walls_can_end

    rows = wall(["YRWB.", "....K"])
    assert not row_can_be_completed(board(wall_rows=rows), 0)
    assert row_can_be_completed(board(wall_rows=rows), 1)
    assert walls_can_end([board(wall_rows=rows), board()])
