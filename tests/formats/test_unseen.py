"""Positions typed without their unseen parts (docs/json-format.md): the bag and the lid
read as every other tile (S3, S6, R2, F2), the marker's holder from the floors (T3, F3);
never by the strict readers unless asked."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import azul_rules as az
from azul_rules.core.codes import StateProblem

ROUND_THREE = ("c2f3.122_.yr2k..rk2w.rkw2.b2w_b10y9r6k7w8_e3779b97f4a7c150_0.003k2y3b.248g0."
               "_0.1r1y2y2b2w.10000.ym")  # fmt: skip
"""Round 3 of a seeded game, player 1 to move: 40 tiles in the bag, 23 in the lid."""


def typed(state: az.GameState, *leave_out: str) -> dict[str, Any]:
    """``state`` as a player types it: without ``leave_out`` nor the generator."""
    doc = az.to_dict(state)
    for part in (*leave_out, "rng_state"):
        del doc[part]
    return doc


def counts(tiles: tuple[az.Color, ...]) -> Counter[az.Color]:
    return Counter(tiles)


def first_round_after_one_take() -> az.GameState:
    """Round 1 of seed 7 after the first player (0) took the two blues of factory 1 to
    line 2; player 1's board is empty."""
    state = az.new_game(2, seed=7).apply(az.parse_move("1B2"))
    return state.replace(rng_state=None)


def test_s6_round_one_typed_with_one_board_reads_every_other_tile_into_the_bag() -> None:
    """S6, R2: a first round typed with only the board that took (the other empty), no
    round, bag or lid: the 80 tiles the filling left are in the bag, the lid is empty,
    and the position is the game's own."""
    state = first_round_after_one_take()
    doc = typed(state, "bag", "lid", "round", "marker_holder")
    assert not any(doc["players"][1]["pattern_lines"])
    completed, parts = az.complete_unseen(doc)
    assert parts == ("bag", "lid")
    assert sum(completed["bag"].values()) == 80 and completed["lid"] == {}
    read = az.from_dict(doc, az.GameState, infer_unseen=True)
    assert read == state and read.round == 1
    assert len(read.legal_moves()) == len(state.legal_moves()) == 78


def test_s3_the_strict_reader_still_refuses_a_position_without_its_bag() -> None:
    """S3: without ``infer_unseen`` a bag left out is an empty bag, and 80 tiles are
    missing: the reader refuses it (no silent fix), in JSON text too."""
    doc = typed(first_round_after_one_take(), "bag", "lid")
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(doc, az.GameState)
    assert {p.code for p in caught.value.problems} >= {StateProblem.TILE_COUNT}
    with pytest.raises(az.InvalidStateError):
        az.from_json(json.dumps(doc), az.GameState)
    assert az.from_json(json.dumps(doc), az.GameState, infer_unseen=True).bag


def test_s3_round_three_reads_the_unseen_tiles_into_the_bag() -> None:
    """S3: round 3 (40 in the bag, 23 in the lid) typed without both: the 63 unseen
    tiles, colour by colour, are in the bag; the rest of the position is unchanged."""
    state = az.from_notation(ROUND_THREE).replace(rng_state=None)
    read = az.from_dict(typed(state, "bag", "lid"), az.GameState, infer_unseen=True)
    assert counts(read.bag) == counts(state.bag) + counts(state.lid)
    assert read.lid == () and read.round == 3 and not read.problems()
    assert read.replace(bag=state.bag, lid=state.lid) == state
    assert len(read.legal_moves()) == len(state.legal_moves()) == 31


def test_s3_one_part_left_out_holds_what_the_other_does_not() -> None:
    """S3: the bag given, the lid left out: the lid is the game's own (and the other way)."""
    state = az.from_notation(ROUND_THREE).replace(rng_state=None)
    assert az.from_dict(typed(state, "lid"), az.GameState, infer_unseen=True) == state
    assert az.from_dict(typed(state, "bag"), az.GameState, infer_unseen=True) == state
    assert az.complete_unseen(typed(state, "lid"))[1] == ("lid",)


def test_r2_a_factory_short_of_tiles_puts_the_unseen_tiles_in_the_lid() -> None:
    """R2: a factory holding 2 tiles means the bag ran out at the filling, so the unseen
    tiles cannot be in the bag (FACTORY_SHORT): they are read into the lid."""
    doc = typed(az.from_notation(ROUND_THREE), "bag", "lid")
    doc["factories"][1] = doc["factories"][1][:2]
    completed, parts = az.complete_unseen(doc)
    assert parts == ("bag", "lid") and completed["bag"] == {}
    assert sum(completed["lid"].values()) == 65
    assert not az.from_dict(completed, az.GameState).problems()


def test_s3_more_than_20_tiles_of_a_colour_seen_is_refused_naming_the_colour() -> None:
    """S3: 23 red tiles seen on the table leave no red unseen; the reader refuses the
    position with TILE_COUNT, naming red and its count."""
    doc = typed(first_round_after_one_take(), "bag", "lid")
    doc["players"][1]["pattern_lines"] = [["red"] * (i + 1) for i in range(5)]
    doc["players"][0]["pattern_lines"][4] = ["red"] * 5
    completed, _ = az.complete_unseen(doc)
    assert "red" not in completed["bag"]
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(doc, az.GameState, infer_unseen=True)
    red = [p for p in caught.value.problems if p.code is StateProblem.TILE_COUNT]
    seen = json.dumps(doc).count('"red"')
    assert seen > 20
    message = f"{seen} red tiles in all: the game has 20 of each colour"
    assert [p.message for p in red] == [message]


def test_t3_the_marker_holder_is_read_from_the_floor_holding_the_marker() -> None:
    """T3, F3: the marker on player 1's floor and no ``marker_holder``: player 1 took it
    from the centre.  The strict reader refuses the same document (MARKER_COUNT)."""
    state = first_round_after_one_take().apply(az.parse_move("CY1"))
    assert state.marker_holder == 1
    doc = typed(state, "bag", "lid", "marker_holder")
    completed, parts = az.complete_unseen(doc)
    assert parts == ("bag", "lid", "marker_holder") and completed["marker_holder"] == 1
    assert az.from_dict(doc, az.GameState, infer_unseen=True) == state
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(typed(state, "marker_holder"), az.GameState)
    assert StateProblem.MARKER_COUNT in {p.code for p in caught.value.problems}


def test_t3_no_marker_on_a_floor_leaves_it_in_the_centre() -> None:
    """T3: nobody's floor holds the marker: it lies in the centre (``null``), nothing
    is said to be inferred about it."""
    doc = typed(first_round_after_one_take(), "bag", "lid", "marker_holder")
    completed, parts = az.complete_unseen(doc)
    assert parts == ("bag", "lid") and "marker_holder" not in completed
    assert az.from_dict(doc, az.GameState, infer_unseen=True).marker_holder is None


def test_s3_a_complete_document_or_a_notation_comes_back_as_it_is() -> None:
    """S3: nothing left out, nothing inferred; a notation is complete already."""
    doc = az.to_dict(az.new_game(3, seed=1))
    assert az.complete_unseen(doc) == (doc, ())
    assert az.complete_unseen(ROUND_THREE) == (ROUND_THREE, ())
    assert az.from_dict(ROUND_THREE, az.GameState, infer_unseen=True) == az.from_notation(
        ROUND_THREE
    )


def test_s3_unreadable_parts_are_left_to_the_reader() -> None:
    """S3: a document whose parts are of the wrong shape is not guessed at: the reader
    names the path; a document past the size limits is refused at once."""
    doc = typed(first_round_after_one_take(), "bag", "lid")
    doc["factories"] = "five"
    with pytest.raises(az.FormatError, match=r"\$\.factories"):
        az.from_dict(doc, az.GameState, infer_unseen=True)
    with pytest.raises(az.FormatError):
        az.complete_unseen({"center": ["red"] * 101})
    assert az.complete_unseen([1, 2]) == ([1, 2], ())
    with pytest.raises(TypeError):
        az.from_dict({}, az.GameRecord, infer_unseen=True)


def test_f2_round_one_with_a_full_floor_keeps_80_in_the_bag_and_the_rest_in_the_lid() -> None:
    """S6, F2: in round 1 a full floor line sent two reds to the lid; typed with its
    round but without bag and lid, the bag keeps the 80 tiles the filling left and the
    lid the other 2 (from the colour with the most unseen: red, as in the game)."""
    state = az.from_notation("c2f1.211_....byw2.byk2_b16y16r17k18w13_b54cda58fbbee885"
                             "_0.00000.00000.wwwwwmr_0.1b2y000.00000.b")  # fmt: skip
    assert state.lid == (az.Color.RED, az.Color.RED)
    completed, _ = az.complete_unseen(typed(state, "bag", "lid"))
    assert sum(completed["bag"].values()) == 80 and completed["lid"] == {"red": 2}
    read = az.from_dict(completed, az.GameState)
    assert read.round == 1 and not read.problems()
