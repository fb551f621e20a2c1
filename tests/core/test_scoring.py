"""Scoring rules: W3 (placements), F1 (floor), E2 (bonuses), E4 (winner)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.core.scoring import decide_outcome, floor_penalty
from tests.builders import board, colored_wall, wall

EMPTY = wall()


def test_w3_isolated_tile_scores_1() -> None:
    """W3: no horizontal and no vertical neighbour: 1 point."""
    w = colored_wall(["..x.."])
    assert az.score_placement(w, 0, 2) == az.PlacementScore(1, 1, 1)


def test_w3_run_of_4_across_and_3_down_scores_7() -> None:
    """W3, seed example (Lina): a run of 4 and a run of 3 through the new tile give 7."""
    w = colored_wall(["..x..", "xxxx.", "..x.."])
    assert az.score_placement(w, 1, 2) == az.PlacementScore(4, 3, 7)


def test_w3_horizontal_run_only_scores_the_run_not_run_plus_one() -> None:
    """W3 (EMPTY_DIRECTION_COUNTED is the mistake): 3 across, nothing down: 3."""
    w = colored_wall(["xxx.."])
    assert az.score_placement(w, 0, 1) == az.PlacementScore(3, 1, 3)


def test_w3_vertical_run_only() -> None:
    """W3: the rulebook's blue tile with 3 vertically linked tiles scores 3."""
    w = colored_wall(["x....", "x....", "x...."])
    assert az.score_placement(w, 2, 0).points == 3


def test_w3_cross_counts_the_new_tile_twice() -> None:
    """W3: a row of 3 and a column of 2 score 5 (the new tile counts in both)."""
    w = colored_wall([".x...", "xxx.."])
    assert az.score_placement(w, 1, 1) == az.PlacementScore(3, 2, 5)


def test_w3_diagonals_never_count() -> None:
    """W3 (DIAGONAL_COUNTED is the mistake): diagonal neighbours score nothing."""
    w = colored_wall(["x.x..", ".x...", "x.x.."])
    assert az.score_placement(w, 1, 1).points == 1


def test_w3_an_empty_space_ends_a_run() -> None:
    """W3 (GAP_COUNTED is the mistake): tiles beyond a gap do not count."""
    w = colored_wall(["xx.xx"])
    assert az.score_placement(w, 0, 1) == az.PlacementScore(2, 1, 2)
    assert az.score_placement(w, 0, 4) == az.PlacementScore(2, 1, 2)


def test_w3_full_row_and_full_column() -> None:
    """W3: the last tile of a full row and a full column scores 5 + 5."""
    w = colored_wall(["x....", "x....", "xxxxx", "x....", "x...."])
    assert az.score_placement(w, 2, 0) == az.PlacementScore(5, 5, 10)


def test_score_placement_refuses_an_empty_space() -> None:
    with pytest.raises(ValueError, match="holds no tile"):
        az.score_placement(wall(), 0, 0)
    with pytest.raises(ValueError, match="no wall space"):
        az.score_placement(wall(), 5, 0)



@pytest.mark.parametrize(
    ("wall_arg", "row", "column", "message"),
    [
        (EMPTY, "0", 0, "score_placement: row and column are ints (0-4), got '0' and 0"),
        (EMPTY, 0, 1.0, "score_placement: row and column are ints (0-4), got 0 and 1.0"),
        (EMPTY, True, 0, "score_placement: row and column are ints (0-4), got True and 0"),
        (None, 0, 0, "score_placement: the wall is 5 rows of 5 spaces, got None"),
        ("BYRKW", 0, 0, "score_placement: the wall is 5 rows of 5 spaces, got 'BYRKW'"),
        ([[None] * 3] * 3, 0, 0, "score_placement: the wall is 5 rows of 5 spaces, got 3 rows"),
        ([[None] * 5] * 4 + [[None] * 4], 0, 0,
         "score_placement: wall[4] is a row of 5 spaces, got 4 spaces"),
        (["....."] * 5, 0, 0, "score_placement: wall[0] is a row of 5 spaces, got '.....'"),
        ([["blue"] * 5] * 5, 0, 0, "score_placement: wall[0][0] is a Color or None, got 'blue'"),
        ([[None] * 5] * 2 + [[None, None, 2, None, None]] + [[None] * 5] * 2, 2, 2,
         "score_placement: wall[2][2] is a Color or None, got 2"),
    ],
)  # fmt: skip
def test_score_placement_refuses_arguments_of_the_wrong_type_or_shape(
    wall_arg: object, row: object, column: object, message: str
) -> None:
    """W3 is scored on a 5 x 5 wall of Colors or None with int coordinates: anything else
    is a FormatError (a ValueError and a TypeError), never a raw IndexError or TypeError
    and never a score (a wall of strings used to score 10)."""
    with pytest.raises(az.FormatError) as raised:
        az.score_placement(wall_arg, row, column)  # type: ignore[arg-type]
    assert str(raised.value) == message
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, TypeError)


def test_score_placement_reads_lists_as_tuples() -> None:
    """W3: a wall of lists scores as the same wall of tuples (4 across + 3 down = 7)."""
    w = colored_wall(["..x..", "xxxx.", "..x.."])
    assert az.score_placement([list(row) for row in w], 1, 2) == az.PlacementScore(4, 3, 7)


@pytest.mark.parametrize(
    ("wall_arg", "message"),
    [
        (None, "end_bonuses: the wall is 5 rows of 5 spaces, got None"),
        ([[None] * 5] * 6, "end_bonuses: the wall is 5 rows of 5 spaces, got 6 rows"),
        ([[az.Color.BLUE] * 5] * 4 + [["white"] * 5],
         "end_bonuses: wall[4][0] is a Color or None, got 'white'"),
        ([[az.Color.BLUE] * 5] * 4 + [[az.MARKER] * 5],
         "end_bonuses: wall[4][0] is a Color or None, got MARKER"),
    ],
)  # fmt: skip
def test_end_bonuses_refuses_a_wall_of_the_wrong_type_or_shape(
    wall_arg: object, message: str
) -> None:
    """E2 is counted on a 5 x 5 wall of Colors or None: anything else is a FormatError."""
    with pytest.raises(az.FormatError) as raised:
        az.end_bonuses(wall_arg)  # type: ignore[arg-type]
    assert str(raised.value) == message


_SPACES = st.one_of(st.none(), st.sampled_from(az.Color), st.integers(), st.text(max_size=2))
_WALLS = st.one_of(
    st.none(), st.integers(), st.text(max_size=6),
    st.lists(st.one_of(st.text(max_size=6), st.lists(_SPACES, max_size=6)), max_size=6),
    st.lists(st.lists(st.one_of(st.none(), st.sampled_from(az.Color)), min_size=5,
                      max_size=5), min_size=5, max_size=5),
)  # fmt: skip


@given(_WALLS, st.one_of(st.integers(-2, 6), st.booleans(), st.text(max_size=1)),
       st.integers(-2, 6))  # fmt: skip
def test_scoring_functions_only_raise_the_documented_errors(
    wall_arg: object, row: object, column: int
) -> None:
    """W3, E2: any wall and coordinates give a score or a ValueError (FormatError
    included); a score only for a 5 x 5 wall of Colors or None and a tile at 0-4."""
    try:
        score = az.score_placement(wall_arg, row, column)  # type: ignore[arg-type]
    except ValueError:
        pass
    else:
        assert type(row) is int and 0 <= row < 5 and 0 <= column < 5
        assert isinstance(wall_arg, list) and wall_arg[row][column] is not None
        assert 1 <= score.points <= 10
    try:
        bonuses = az.end_bonuses(wall_arg)  # type: ignore[arg-type]
    except az.FormatError:
        pass
    else:
        assert isinstance(wall_arg, list) and len(wall_arg) == 5
        assert all(all(s is None or type(s) is az.Color for s in r) for r in wall_arg)
        assert 0 <= bonuses.points <= 2 * 5 + 7 * 5 + 10 * 5

def test_f1_penalties_left_to_right() -> None:
    """F1: -1, -1, -2, -2, -2, -3, -3; a full floor costs 14."""
    assert [floor_penalty(n) for n in range(8)] == [0, 1, 2, 4, 6, 8, 11, 14]


def test_f2_spaces_past_seven_cost_nothing() -> None:
    """F2: the floor cannot cost more than 14."""
    assert floor_penalty(9) == 14


def test_e2_bonus_rows_columns_colours_48_becomes_69() -> None:
    """E2, seed example: 48 + 2 rows (4) + 1 column (7) + 1 colour (10) = 69."""
    w = colored_wall(["xxxxx", "xxxxx", "x.x..", "x..x.", "x...x"])
    bonuses = az.end_bonuses(w)
    assert (bonuses.rows, bonuses.columns, bonuses.colors) == (2, 1, 1)
    assert bonuses.points == 21
    assert 48 + bonuses.points == 69


def test_e2_colours_count_by_tile_colour() -> None:
    """E2: a colour counts when all 5 of its tiles are on the wall, wherever they lie."""
    w = wall(["B....", ".B...", "..B..", "...B.", "....B"])
    assert az.end_bonuses(w) == az.Bonuses(rows=0, columns=0, colors=1)


def test_e4_highest_score_wins() -> None:
    """E4: the highest score wins."""
    outcome = decide_outcome([board(30), board(41), board(12)])
    assert outcome == az.Outcome(winners=(1,), scores=(30, 41, 12))


def test_e4_tie_goes_to_more_complete_rows() -> None:
    """E4: among tied players, more complete horizontal rows wins."""
    one_row = colored_wall(["xxxxx"])
    two_rows = colored_wall(["xxxxx", "xxxxx"])
    outcome = decide_outcome([board(50, wall_rows=one_row), board(50, wall_rows=two_rows)])
    assert outcome.winners == (1,)
    assert not outcome.is_shared


def test_e4_tie_break_counts_rows_among_tied_players_only() -> None:
    """E4: a lower-scoring player with more rows takes no part in the tie-break."""
    one = colored_wall(["xxxxx"])
    two = colored_wall(["xxxxx", "xxxxx"])
    three = colored_wall(["xxxxx", "xxxxx", "xxxxx"])
    outcome = decide_outcome(
        [board(50, wall_rows=one), board(50, wall_rows=two), board(49, wall_rows=three)]
    )
    assert outcome.winners == (1,)


def test_e4_shared_victory() -> None:
    """E4: equal scores and equal rows share the victory."""
    one = colored_wall(["xxxxx"])
    other = colored_wall(["", "xxxxx"])
    outcome = decide_outcome([board(44, wall_rows=one), board(20), board(44, wall_rows=other)])
    assert outcome.winners == (0, 2)
    assert outcome.is_shared
