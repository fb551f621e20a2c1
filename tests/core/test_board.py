"""PlayerBoard (S4): a frozen attrs class, checked when built in public, built fast by
the referee, its accepting lines (P2-P4) always those its lines and wall give."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given

import azul_rules as az
from azul_rules import testing as azt
from azul_rules.core.board import PlayerBoard
from tests.builders import board, lines, wall

B, Y, R = az.Color.BLUE, az.Color.YELLOW, az.Color.RED


def test_s4_a_board_is_a_frozen_attrs_class_and_never_a_tuple() -> None:
    b = board(score=7, pattern=["", "RR"], wall_rows=wall(["B...."]))
    assert attrs.has(PlayerBoard)
    assert b != (7, b.pattern_lines, b.wall, b.floor)  # type: ignore[comparison-overlap]
    assert not isinstance(b, tuple)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        b.score = 3  # type: ignore[misc]
    moved = attrs.evolve(b, score=9)
    assert moved.score == 9 and moved.pattern_lines == b.pattern_lines
    assert moved == board(score=9, pattern=["", "RR"], wall_rows=wall(["B...."]))
    assert hash(moved) == hash(board(score=9, pattern=["", "RR"], wall_rows=wall(["B...."])))


def test_p2_p3_p4_evolve_recomputes_the_accepting_lines() -> None:
    """P3: line 1 refuses blue once the wall row holds blue; P2: line 2 holding reds
    accepts only red; P4: a full line accepts nothing."""
    b = board(pattern=["", "RR", "Y"])
    assert b.accepting_lines(B) & 0b00001  # line 1 may start blue
    walled = attrs.evolve(b, wall=wall(["B...."]))
    assert not walled.accepting_lines(B) & 0b00001
    assert walled.accepting_lines(R) == 0b11001  # line 2 full, line 3 holds yellow
    assert walled.accepting_lines(Y) & 0b00100


def test_s4_the_constructor_checks_types_and_shapes() -> None:
    with pytest.raises(az.FormatError, match="score must be an int"):
        PlayerBoard(score="3")  # type: ignore[arg-type]
    with pytest.raises(az.FormatError, match="needs 5 entries"):
        PlayerBoard(pattern_lines=lines()[:4])
    with pytest.raises(az.FormatError, match="Colors or None"):
        PlayerBoard(wall=(("blue",) * 5,) * 5)
    with pytest.raises(az.FormatError, match="MARKER"):
        PlayerBoard(floor=("red",))
    listed = PlayerBoard(wall=[[None] * 5 for _ in range(5)])
    assert listed == PlayerBoard()


@given(azt.game_states())
def test_p2_p3_p4_the_referee_keeps_every_boards_accepting_lines_exact(
    state: az.GameState,
) -> None:
    """The referee carries the accepting lines over from board to board (a take, a
    tiling, a grey placement, a line sent to the floor); they always equal those the
    lines and the wall give."""
    for b in state.players:
        rebuilt = PlayerBoard(b.score, b.pattern_lines, b.wall, b.floor)
        assert b.accepting == rebuilt.accepting
        assert b == rebuilt
