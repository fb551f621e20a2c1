"""Audits of the board as the players left it after the tiling: the coloured wall (S5,
W1, W2, W5), the grey wall (V1, V2, V4, V5), the lid, the end (E1, R7), and strict claims."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.adjudication.auditing import expected_boards
from azul_rules.adjudication.claims import Claim, ClaimedBoard, claim_from_dict, claim_from_json
from azul_rules.core.board import Wall
from tests.builders import board, colored_wall, state, wall

C = az.Color
GREY = az.Variant.GREY


def offer_end(*players: az.PlayerBoard, holder: int | None = None,
              variant: az.Variant = az.Variant.COLORED) -> az.GameState:  # fmt: skip
    return state(list(players), [""] * 5, "", marker_holder=holder, variant=variant)


def codes(result: az.Result) -> list[tuple[str, str]]:
    return [(v.code.value, v.rule) for v in result.violations]


def cells(base: Wall, *changes: tuple[int, int, C | None]) -> Wall:
    rows = [list(r) for r in base]
    for r, c, tile in changes:
        rows[r][c] = tile
    return tuple(tuple(r) for r in rows)


def lines_of(b: az.PlayerBoard) -> tuple[tuple[C, ...], ...]:
    return tuple(tuple([x.color] * x.count) if x.color is not None else () for x in b.pattern_lines)


# Player 1 completes line 2 (red: 3 across + 2 down = 5) and line 3 (black, alone: 1),
# keeps two blues in line 4, and has the marker and a yellow on the floor (-2).
P0 = board(10, ["", "RR", "KKK", "BB"], colored_wall(["...x.", "..x.x"]), "MY")
P1 = board(4, ["W"], colored_wall(["", "x...."]))
TABLE = offer_end(P0, P1, holder=0)
AFTER = expected_boards(TABLE)


def as_left(wall_rows: Wall | None = None, **parts: object) -> Claim:
    """Player 1's board as left, with the rules' scores."""
    claimed = ClaimedBoard(wall=wall_rows, **parts)  # type: ignore[arg-type]
    return Claim(scores=(AFTER[0].score, AFTER[1].score), boards=(claimed, None))


def test_the_rules_tiling_of_the_table() -> None:
    """W1, W3, W4: 10 + 5 + 1 - 2 = 14; the other player 4 + 1 (a white alone)."""
    assert [b.score for b in AFTER] == [14, 5]
    assert AFTER[0].wall[1][3] is C.RED and AFTER[0].wall[2][0] is C.BLACK


def test_a_correct_board_as_left_with_the_lid() -> None:
    """W1, W2, W5: both boards as left, scores and the lid all right."""
    boards = tuple(ClaimedBoard(score=b.score, wall=b.wall, pattern_lines=lines_of(b),
                                floor=()) for b in AFTER)  # fmt: skip
    claim = Claim(boards=boards, lid=(C.RED, C.BLACK, C.BLACK, C.YELLOW))
    assert az.audit(TABLE, claim).ok


def test_s5_a_tile_on_a_space_of_another_colour() -> None:
    """S5 / NOT_WALL_COLOR_SPACE: red put on column 2 (a white space) of row 2."""
    moved = cells(AFTER[0].wall, (1, 3, None), (1, 1, C.RED))
    result = az.audit(TABLE, as_left(moved))
    assert codes(result)[0] == ("NOT_WALL_COLOR_SPACE", "S5")
    v = result.violations[0]
    assert (v.param_dict["column"], v.param_dict["correct_column"]) == (1, 3)
    assert v.message == (
        "player 1's red tile from pattern line 2 lies at row 2, column 2, a blue space: on the "
        "coloured wall it goes to the red space of its row, column 4"
    )
    assert v.message_in("fr").startswith("le carreau de couleur rouge de la ligne de préparation 2")


def test_w1_a_tile_in_the_wrong_row() -> None:
    """W1 / NOT_WALL_COLOR_SPACE (wrong_row): the black of line 3 put in row 4."""
    moved = cells(AFTER[0].wall, (2, 0, None), (3, 1, C.BLACK))
    result = az.audit(TABLE, as_left(moved))
    assert codes(result) == [("NOT_WALL_COLOR_SPACE", "W1")]
    assert result.violations[0].param_dict["correct_row"] == 2


def test_w1_a_complete_line_left_untiled() -> None:
    """W1 / WRONG_PHASE (untiled): the black line kept whole; 10 + 5 - 2 = 13 is what
    the board as left gives, so no second mistake is named for the score; 12 is that
    board's red counted 3 + 2 - 1."""
    kept = ((), (), (C.BLACK,) * 3, (C.BLUE, C.BLUE), ())
    claim = Claim(scores=(13, 5), boards=(ClaimedBoard(wall=cells(AFTER[0].wall, (2, 0, None)),
                                                       pattern_lines=kept), None))  # fmt: skip
    assert codes(az.audit(TABLE, claim)) == [("WRONG_PHASE", "W1")]
    claim = attrs_scores(claim, (12, 5))
    assert codes(az.audit(TABLE, claim)) == [("WRONG_PHASE", "W1"), ("CROSS_COUNTED_ONCE", "W3")]


def attrs_scores(claim: Claim, scores: tuple[int, ...]) -> Claim:
    import attrs

    return attrs.evolve(claim, scores=scores)


def test_w1_leftovers_and_w5_floor_not_cleared() -> None:
    """W1, W5 / TILE_COUNT_MISMATCH: two blacks kept in line 3, the floor left as it was."""
    left = ((), (), (C.BLACK, C.BLACK), (C.BLUE, C.BLUE), ())
    claim = as_left(AFTER[0].wall, pattern_lines=left, floor=(az.MARKER, C.YELLOW))
    result = az.audit(TABLE, claim)
    assert codes(result) == [("TILE_COUNT_MISMATCH", "W1"), ("TILE_COUNT_MISMATCH", "W5")]
    assert [v.param_dict["count"] for v in result.violations] == [2, 2]


def test_w2_an_incomplete_line_tiled_or_emptied() -> None:
    """W2 / INCOMPLETE_LINE_CLEARED: a blue of line 4 on the wall, or line 4 emptied."""
    tiled = cells(AFTER[0].wall, (3, 3, C.BLUE))
    result = az.audit(TABLE, as_left(tiled, pattern_lines=((),) * 5))
    assert codes(result) == [("INCOMPLETE_LINE_CLEARED", "W2")]
    assert result.violations[0].param_dict["reason"] == "tiled"
    emptied = az.audit(TABLE, as_left(pattern_lines=((),) * 5))
    assert codes(emptied) == [("INCOMPLETE_LINE_CLEARED", "W2")]


def test_s3_tiles_appearing_or_vanishing_and_the_lid() -> None:
    """S3 / TILE_COUNT_MISMATCH: a tile no line gave, a wall tile gone, the lid short."""
    extra = cells(AFTER[0].wall, (4, 4, C.YELLOW))
    assert codes(az.audit(TABLE, as_left(extra))) == [("TILE_COUNT_MISMATCH", "S3")]
    gone = cells(AFTER[0].wall, (0, 3, None))
    found = az.audit(TABLE, as_left(gone)).violations[0]
    assert (found.code, found.param_dict["reason"]) == (az.ErrorCode.TILE_COUNT_MISMATCH,
                                                        "removed")  # fmt: skip
    short = Claim(scores=(14, 5), lid=(C.RED, C.BLACK, C.BLACK))
    lid = az.audit(TABLE, short).violations[0]
    assert (lid.param_dict["claimed"], lid.param_dict["correct"]) == (3, 4)
    assert lid.param_dict["colors"] == (C.YELLOW,)


# -- the grey wall ---------------------------------------------------------------------------

# Player 1: line 2 red and line 3 black complete; row 2 holds blue at column 1 and column 3
# holds red (row 4).  Player 2: a yellow in line 1.
G0 = board(5, ["", "RR", "KKK"], wall(["", "B....", "", "..R..", ""]))
G1 = board(0, ["Y"], wall())
GREY_TABLE = offer_end(G0, G1, variant=GREY)
G1_WALL = cells(G1.wall, (0, 4, C.YELLOW))


def grey_claim(wall0: Wall, score: int, **parts: object) -> Claim:
    first = ClaimedBoard(wall=wall0, **parts)  # type: ignore[arg-type]
    return Claim(scores=(score, 1), boards=(first, ClaimedBoard(wall=G1_WALL)))


def test_v1_v3_legal_columns_are_scored_from_the_choice() -> None:
    """V1, V3, W3: red to column 2 (2 across), black to column 2 below it (2 down)."""
    chosen = cells(G0.wall, (1, 1, C.RED), (2, 1, C.BLACK))
    assert expected_boards(GREY_TABLE, grey_claim(chosen, 0))[0].score == 9
    assert az.audit(GREY_TABLE, grey_claim(chosen, 9)).ok
    assert codes(az.audit(GREY_TABLE, grey_claim(chosen, 10))) == [
        ("EMPTY_DIRECTION_COUNTED", "W3")
    ]


def test_v2_a_colour_twice_in_a_column() -> None:
    """V2 / COLUMN_COLOR_CONFLICT: red put in column 3, which holds red."""
    chosen = cells(G0.wall, (1, 2, C.RED), (2, 1, C.BLACK))
    result = az.audit(GREY_TABLE, grey_claim(chosen, 7))
    assert codes(result) == [("COLUMN_COLOR_CONFLICT", "V2")]
    assert result.violations[0].message.startswith("player 1's red tile from pattern line 2")


def test_v1_a_tile_on_an_occupied_space() -> None:
    """V1 / SPACE_OCCUPIED: red put on the blue tile's space."""
    chosen = cells(G0.wall, (1, 0, C.RED), (2, 1, C.BLACK))
    result = az.audit(GREY_TABLE, grey_claim(chosen, 7))
    assert codes(result) == [("SPACE_OCCUPIED", "V1")]
    assert result.violations[0].param_dict["covered"] is C.BLUE


def test_v5_a_colour_twice_in_a_row() -> None:
    """V5 / WALL_COLOR_CONFLICT: a second red in wall row 4."""
    chosen = cells(G0.wall, (1, 1, C.RED), (2, 1, C.BLACK), (3, 0, C.RED))
    result = az.audit(GREY_TABLE, grey_claim(chosen, 10))
    assert ("WALL_COLOR_CONFLICT", "V5") in codes(result)


# Red line 2 has no legal space: columns 1-2 of row 2 are taken, columns 3-5 hold red.
V0 = board(5, ["", "RR"], wall(["", "BK...", "..R..", "...R.", "....R"]))
V4_TABLE = offer_end(V0, board(0), variant=GREY)
EMPTY_BOARD = ClaimedBoard(wall=wall())


def test_v4_a_line_with_no_legal_space_goes_to_the_floor() -> None:
    """V4: both reds to the floor, -2: 5 -> 3; kept in the line, or placed anyway, is
    named."""
    right = Claim(scores=(3, 0), boards=(ClaimedBoard(wall=V0.wall, pattern_lines=((),) * 5),
                                         EMPTY_BOARD))  # fmt: skip
    assert az.audit(V4_TABLE, right).ok
    kept = Claim(scores=(5, 0), boards=(ClaimedBoard(wall=V0.wall, pattern_lines=(
        (), (C.RED, C.RED), (), (), ())), EMPTY_BOARD))  # fmt: skip
    assert codes(az.audit(V4_TABLE, kept)) == [("WRONG_PHASE", "V4")]
    placed = Claim(scores=(10, 0), boards=(ClaimedBoard(wall=cells(V0.wall, (1, 2, C.RED))),
                                           EMPTY_BOARD))  # fmt: skip
    result = az.audit(V4_TABLE, placed)
    assert codes(result) == [("COLUMN_COLOR_CONFLICT", "V4")]
    assert "all 2 tiles of the line go to the floor line" in result.violations[0].message


def test_grey_claims_need_the_chosen_columns() -> None:
    """V1: without the walls the grey tiling cannot be told."""
    with pytest.raises(az.FormatError) as caught:
        az.audit(GREY_TABLE, Claim(scores=(9, 1)))
    assert [p for p, _ in caught.value.errors] == ["$.boards[0].wall", "$.boards[1].wall"]


def test_r7_a_grey_game_that_can_no_longer_end_ends_in_the_audit() -> None:
    """R7 in the audit: after this tiling no wall row of either player can ever be
    completed, so a claim that the game ends (a shared victory, E4) is right and one that
    it goes on is GAME_OVER."""
    stuck_wall = wall(["...WY", "R.B..", "B.R..", ".W.Y.", ".Y..K"])
    # Row 1 lacks blue, red and black; its empty columns 1 and 3 already hold red and
    # blue, so both could only take black (V2): the row can never be completed.
    from azul_rules.core.grey import row_can_be_completed

    p0 = board(0, [], stuck_wall)
    assert not any(row_can_be_completed(p0, r) for r in range(5))
    p1 = board(0, [], stuck_wall)
    table = offer_end(p0, p1, variant=GREY)
    boards = (ClaimedBoard(wall=stuck_wall), ClaimedBoard(wall=stuck_wall))
    ends = Claim(scores=(0, 0), boards=boards, game_over=True, winners=(0, 1))
    assert az.audit(table, ends).ok
    goes_on = Claim(scores=(0, 0), boards=boards, game_over=False)
    assert codes(az.audit(table, goes_on)) == [("GAME_OVER", "E1")]


# -- strict claims ---------------------------------------------------------------------------


def test_python_claims_are_checked_field_by_field() -> None:
    """A Claim built in Python with wrong types is a FormatError with JSON paths."""
    bad: list[tuple[object, list[str]]] = [
        (Claim(scores=None), ["$.scores"]),
        (Claim(scores=((14,), 6)), ["$.scores[0]"]),  # type: ignore[arg-type]
        (Claim(scores=(14, True)), ["$.scores[1]"]),
        (Claim(scores=(14, 6), boards=(ClaimedBoard(wall=((C.RED,),)), None)),
         ["$.boards[0].wall"]),
        (Claim(scores=(14, 6), lid=("red",)), ["$.lid"]),  # type: ignore[arg-type]
        (Claim(scores=(14, 6), winners=(1, 1)), ["$.winners"]),
        (Claim(scores=(14, 6), boards=(ClaimedBoard(score=3), None)), ["$.boards[0].score"]),
        ({"scores": [14, 6]}, ["$"]),
    ]
    for claim, paths in bad:
        with pytest.raises(az.FormatError) as caught:
            az.audit(TABLE, claim)  # type: ignore[arg-type]
        assert [p for p, _ in caught.value.errors] == paths, claim


def test_json_claims_name_every_malformed_field() -> None:
    doc = {
        "scores": [14, [6]],
        "boards": [{"wall": [[None] * 5] * 4, "pattern_lines": [[], ["red", "blue"], [], [],
                                                                 ["red"] * 6]}, 7],
        "lid": {"red": -1, "pink": 1},
        "bonuses": "none",
        "extra": 1,
    }  # fmt: skip
    with pytest.raises(az.FormatError) as caught:
        claim_from_dict(doc)
    assert [p for p, _ in caught.value.errors] == [
        "$.extra", "$.scores[1]", "$.bonuses", "$.boards[0].wall",
        "$.boards[0].pattern_lines[1]", "$.boards[0].pattern_lines[4]", "$.boards[1]",
        "$.lid.red", "$.lid.pink",
    ]  # fmt: skip
    for text in ("", "[", '{"scores": [1e999]}', "1" * 5000, '{"scores": ' + "[" * 5000):
        with pytest.raises(az.FormatError):
            claim_from_json(text)
    assert claim_from_json('{"scores": [1, 2], "lid": {"red": 2}}').lid == (C.RED, C.RED)


# -- fuzzing ---------------------------------------------------------------------------------


_tiles = st.one_of(st.sampled_from(list(C)), st.none(), st.just(az.MARKER), st.integers(-1, 9),
                   st.text(max_size=3))  # fmt: skip
_rows = st.lists(st.lists(_tiles, min_size=5, max_size=5), min_size=5, max_size=5)
_walls = st.one_of(st.none(), _rows.map(lambda rows: tuple(map(tuple, rows))))
_lines = st.one_of(st.none(), st.lists(st.lists(st.sampled_from(list(C)), max_size=3).map(tuple),
                                       min_size=5, max_size=5).map(tuple))  # fmt: skip
_floors = st.one_of(st.none(), st.lists(_tiles, max_size=8).map(tuple))
_boards = st.builds(ClaimedBoard, score=st.one_of(st.none(), st.integers(-3, 40)), wall=_walls,
                    pattern_lines=_lines, floor=_floors)  # fmt: skip
_claims = st.builds(
    Claim,
    scores=st.one_of(st.none(), st.lists(st.one_of(st.integers(-5, 40), st.booleans()),
                                         min_size=1, max_size=3).map(tuple)),
    boards=st.one_of(st.none(), st.lists(st.one_of(st.none(), _boards), min_size=1,
                                         max_size=3).map(tuple)),
    lid=st.one_of(st.none(), st.lists(_tiles, max_size=6).map(tuple)),
    game_over=st.one_of(st.none(), st.booleans()),
    winners=st.one_of(st.none(), st.lists(st.integers(-1, 4), max_size=3).map(tuple)),
)  # fmt: skip


@given(claim=_claims, grey=st.booleans())
def test_any_python_claim_gets_a_verdict_or_a_format_error(claim: Claim, grey: bool) -> None:
    """Whatever a program puts in a Claim, audit answers with a Result or a FormatError
    naming JSON paths (never a TypeError, IndexError or KeyError)."""
    table = GREY_TABLE if grey else TABLE
    try:
        result = az.audit(table, claim)
    except az.FormatError as error:
        assert error.errors and all(path.startswith("$") for path, _ in error.errors)
        return
    for violation in result.violations:
        assert violation.message and violation.message_in("fr") and violation.rule_text()
