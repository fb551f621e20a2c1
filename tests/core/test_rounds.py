"""The round cycle: wall tiling (W1-W5), the floor (F3, F4), the next round (R1-R6) and the
end of the game (E1-E4), all through ``apply`` of the round's last take."""

from __future__ import annotations

import azul_rules as az
from azul_rules import CENTER, FLOOR
from azul_rules import Color as C
from tests.builders import board, colored_wall, count_all_tiles, state, tiles

B, Y, R, K, W = C.BLUE, C.YELLOW, C.RED, C.BLACK, C.WHITE
EMPTY5 = ["", "", "", "", ""]


def last_take_state(
    players: list[az.PlayerBoard], *, center: str = "R", current: int = 1, **kw: object
) -> az.GameState:
    """A position whose only tile left is in the centre; the marker is already taken
    by player 1 (its floor holds it)."""
    return state(players, EMPTY5, center, current=current, **kw)  # type: ignore[arg-type]


def test_round_lina_8_placement_points_2_floor_points_net_6() -> None:
    """W1, W3, W4, seed example: 7 (runs of 4 and 3) + 1 (isolated) - 2 (floor) = +6."""
    lina = board(
        score=10,
        pattern=["W", "", "BBB", "KK", ""],
        wall_rows=colored_wall(["", "..x..", "xx.x.", "..x.."]),
        floor_text="RR",
    )
    other = board(floor_text="M")
    s = last_take_state([lina, other], marker_holder=1, lid="")
    after = s.apply(az.Take(CENTER, R, FLOOR))
    tiling = after.last_scoring
    assert tiling is not None and tiling.round == 2 and not tiling.game_over
    mine = tiling.players[0]
    assert [
        (p.row, p.column, p.color, p.horizontal, p.vertical, p.points) for p in mine.placements
    ] == [
        (0, 4, W, 1, 1, 1),
        (2, 2, B, 4, 3, 7),
    ]
    assert mine.placement_points == 8
    assert mine.floor_penalty == 2
    assert (mine.score_before, mine.score_after) == (10, 16)
    me = after.players[0]
    assert me.score == 16
    assert me.wall[2][2] == B and me.wall[0][4] == W
    # W2: the incomplete line keeps its tiles and colour.
    assert (me.pattern_lines[3].color, me.pattern_lines[3].count) == (K, 2)
    assert me.pattern_lines[2].count == 0 and me.pattern_lines[0].count == 0
    assert me.floor == ()


def test_w1_discards_of_complete_lines_go_to_the_lid() -> None:
    """W1, W5: a complete line of 3 sends 1 tile to the wall and 2 to the lid; floor
    tiles go to the lid, the marker does not."""
    p0 = board(pattern=["", "", "BBB"], floor_text="KW")
    p1 = board(floor_text="M")
    s = last_take_state([p0, p1], marker_holder=1, lid="", rng_state=None)
    after = s.apply(az.Take(CENTER, R, FLOOR))
    assert after.phase is az.Phase.REFILL  # external draws: waits for the table
    assert after.lid == tiles("BBKWR")
    assert count_all_tiles(after) == {c: 20 for c in C}


def test_f3_four_tiles_and_the_marker_cost_8() -> None:
    """F3, seed example (Peter): 4 tiles and the marker on the floor lose 8 points."""
    peter = board(score=20, floor_text="MKKK")
    s = last_take_state([board(), peter], marker_holder=1, center="Y")
    after = s.apply(az.Take(CENTER, Y, FLOOR))
    tiling = after.last_scoring
    assert tiling is not None
    assert tiling.players[1].floor_penalty == 8
    assert after.players[1].score == 12


def test_w4_clamp_once_after_the_floor_total() -> None:
    """W4: placements first, then the floor's total, then the clamp at 0 once:
    2 + 4 - 4 = 2 (clamping before adding the placements would give 0 + 4 = 4)."""
    p0 = board(score=2, pattern=["R"], wall_rows=colored_wall(["xx.x."]), floor_text="KKW")
    p1 = board(floor_text="M")
    s = last_take_state([p0, p1], marker_holder=1)
    after = s.apply(az.Take(CENTER, R, FLOOR))
    tiling = after.last_scoring
    assert tiling is not None
    mine = tiling.players[0]
    assert mine.placements[0].points == 4  # red at row 1, column 3 joins a run of 4
    assert mine.floor_penalty == 4
    assert after.players[0].score == 2


def test_w4_score_never_below_zero() -> None:
    """W4: 1 + 1 - 14 clamps to 0."""
    p0 = board(score=1, pattern=["W"], floor_text="BBYYRRK")
    p1 = board(floor_text="M")
    after = last_take_state([p0, p1], marker_holder=1).apply(az.Take(CENTER, R, FLOOR))
    assert after.players[0].score == 0
    tiling = after.last_scoring
    assert tiling is not None and tiling.players[0].floor_penalty == 14


def test_f4_full_floor_marker_costs_nothing_and_its_taker_starts() -> None:
    """F4, W5, R4: player 1's floor is full when it takes the marker; it pays 14, not
    more, and starts the next round."""
    p0 = board()
    p1 = board(score=30, floor_text="BBYYRRK")
    s = state([p0, p1], EMPTY5, "R", current=1, start=0, marker_holder=None)
    after = s.apply(az.Take(CENTER, R, FLOOR))
    assert after.players[1].score == 16
    assert after.current_player == 1
    assert after.start_player == 1
    assert after.phase is az.Phase.FACTORY_OFFER
    assert after.marker_holder is None  # R4: back in the centre


def test_w5_marker_holder_starts_the_next_round() -> None:
    """W5, R4: the player with the marker on the floor starts the next round."""
    s = state([board(), board(floor_text="M")], EMPTY5, "R", current=0, start=0, marker_holder=1)
    after = s.apply(az.Take(CENTER, R, FLOOR))
    assert after.round == 3
    assert after.current_player == 1
    assert after.players[1].floor == ()
    assert after.marker_in_center


def test_r5_nobody_took_from_the_centre_same_starter() -> None:
    """R5: every take empties a one-colour factory; the marker never leaves the centre
    and the same player starts again."""
    s = state([board(), board()], ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"], current=1, start=1)
    for move in ["1BF", "2Y5", "3R4", "4K4", "5W5"]:
        assert s.center == ()
        s = s.apply(az.parse_move(move))
    assert s.round == 3
    assert s.start_player == 1
    assert s.current_player == 1
    assert sum(len(f) for f in s.factories) == 20


def starved_table(bag: str, lid: str) -> az.GameState:
    """Four players whose walls and pattern lines hold every tile but ``bag``, ``lid``
    and one red in the centre.  Player p's wall lacks colour p in every row (so no row
    or column is complete) and its pattern lines hold colour p, never complete."""
    players = []
    counts = {B: 5, Y: 5, R: 5, K: 5}
    for ch in bag + lid + "R":
        counts[{"B": B, "Y": Y, "R": R, "K": K}[ch]] -= 1
    for p, color in enumerate([B, Y, R, K]):
        wall_ = tuple(
            tuple(
                None if az.Color((c - r) % 5) == color else az.Color((c - r) % 5) for c in range(5)
            )
            for r in range(5)
        )
        letter = "BYRK"[p]
        n = counts[color]
        spec = ["", letter * min(n, 1), "", "", letter * max(0, n - 1)]
        players.append(board(pattern=spec, wall_rows=wall_, floor_text="M" if p == 1 else ""))
    return state(players, [""] * 9, "R", current=2, start=0, marker_holder=1, bag=bag, lid=lid)


def test_r2_bag_runs_out_mid_fill_and_the_lid_is_poured_in() -> None:
    """R2: a bag of 2 tiles starts factory 1; the lid (3 tiles) is poured in and filling
    continues; with nothing left after that, the other factories stay short or empty."""
    s = starved_table(bag="BB", lid="YYK")
    assert count_all_tiles(s) == {c: 20 for c in C}
    after = s.apply(az.Take(CENTER, R, 3))
    assert after.phase is az.Phase.FACTORY_OFFER
    assert [len(f) for f in after.factories] == [4, 1, 0, 0, 0, 0, 0, 0, 0]
    assert sorted(after.factories[0] + after.factories[1]) == sorted(tiles("BBYYK"))
    assert after.bag == () and after.lid == ()
    assert count_all_tiles(after) == {c: 20 for c in C}
    # R3: the red went to pattern line 4 and stays there; nothing else moved.
    assert after.players[2].pattern_lines[3].count == 1


def test_r2_bag_empty_at_the_start_of_the_fill_takes_the_lid() -> None:
    """R2: the fill starts from the lid when the bag is already empty."""
    s = starved_table(bag="", lid="BYRKK")
    after = s.apply(az.Take(CENTER, R, 3))
    assert [len(f) for f in after.factories][:3] == [4, 1, 0]
    assert after.lid == () and after.bag == ()


def test_r2_bag_exactly_enough_leaves_the_lid_alone() -> None:
    """R2: the lid is poured only when the bag runs out."""
    players = [board(floor_text="M"), board()]
    s = state(
        players, EMPTY5, "R", current=1, marker_holder=0, bag="BBBBYYYYRRRRKKKKWWWW", lid=None
    )
    lid_before = s.lid
    after = s.apply(az.Take(CENTER, R, FLOOR))
    assert after.bag == ()
    assert sorted(t for f in after.factories for t in f) == sorted(tiles("BBBBYYYYRRRRKKKKWWWW"))
    assert after.lid == tuple(sorted(lid_before + (R,)))


def test_r6_nothing_to_deal_ends_the_game() -> None:
    """R6: bag and lid both empty after the tiling: the game ends with the bonuses."""
    s = starved_table(bag="", lid="")
    after = s.apply(az.Take(CENTER, R, 3))
    assert after.is_over
    assert after.phase is az.Phase.GAME_OVER
    assert after.outcome is not None
    # Every wall has 4 complete colours (20 tiles, 5 of each other colour): +40 each.
    assert after.outcome.scores == tuple(b.score for b in after.players)
    tiling = after.last_scoring
    assert tiling is not None and tiling.game_over
    assert [t.bonuses.colors for t in tiling.players if t.bonuses] == [4, 4, 4, 4]


def end_position() -> az.GameState:
    """Player 0 completes row 1 in this tiling; player 1 still tiles and pays its floor."""
    p0 = board(score=40, pattern=["B"], wall_rows=colored_wall([".xxxx"]))
    p1 = board(
        score=30, pattern=["", "YY"], wall_rows=colored_wall(["..x..", "x...."]), floor_text="MKK"
    )
    return state([p0, p1], EMPTY5, "R", current=0, start=1, marker_holder=1)


def test_e1_game_ends_after_every_players_tiling_and_floor() -> None:
    """E1: the row is completed in the tiling; player 1 still tiles and pays its
    floor; then the bonuses (E2) and the winner (E4); no new round."""
    s = end_position()
    before_end = s.apply(az.Take(CENTER, R, FLOOR))
    assert before_end.is_over
    assert before_end.legal_moves() == ()
    tiling = before_end.last_scoring
    assert tiling is not None and tiling.game_over
    p0, p1 = tiling.players
    assert p0.placements[0].points == 5  # completes the row: 5 across
    assert p0.floor_penalty == 1  # the red taken to the floor
    assert p0.score_after == 40 + 5 - 1 + 2  # + one complete row
    assert p1.placements[0].points == 2  # yellow at row 2, column 3: 2 down
    assert p1.floor_penalty == 4  # marker + 2 tiles
    assert p1.score_after == 30 + 2 - 4
    assert before_end.outcome == az.Outcome(winners=(0,), scores=(46, 28))
    assert all(f == () for f in before_end.factories)


def test_e1_a_complete_row_before_the_last_take_does_not_stop_the_offer() -> None:
    """E1: a row completed on the wall ends the game only after the round's tiling."""
    p0 = board(score=10, wall_rows=colored_wall(["xxxxx"]))
    s = state([p0, board()], ["BBYR", "", "", "", ""], "", current=0)
    after = s.apply(az.Take(0, B, 2))
    assert not after.is_over
    assert after.phase is az.Phase.FACTORY_OFFER
    assert after.legal_moves()


def test_e4_shared_victory_at_the_end_of_a_game() -> None:
    """E4: equal scores and equal rows: both win."""
    p0 = board(score=20, wall_rows=colored_wall(["xxxxx"]))
    p1 = board(score=20, wall_rows=colored_wall(["", "xxxxx"]), floor_text="M")
    s = state([p0, p1], EMPTY5, "R", current=0, marker_holder=1)
    after = s.apply(az.Take(CENTER, R, FLOOR))
    # Each: 20 - 1 (one floor space) + 2 (one complete row) = 21, one row each.
    assert after.outcome == az.Outcome(winners=(0, 1), scores=(21, 21))
    assert after.outcome.is_shared
