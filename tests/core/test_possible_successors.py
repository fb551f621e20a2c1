"""No legal move leads from a position that can exist to one that cannot (S3, W1, V3).

Positions reached by play are possible by construction, so these tests also build them
by mutation: a grey wall tiling (or a factory offer) reached by play, then tiles moved
between the bag or lid and the walls and pattern lines, and the round moved, keeping
only what :meth:`~azul_rules.GameState.problems` accepts.  Every legal move of such a
position must lead to a position ``problems()`` accepts too, which JSON reads back; and
so must the position read with its round left out (the least round its walls allow).
"""

from __future__ import annotations

import json
import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.core.board import pattern_line
from azul_rules.core.colors import COLORS
from tests.builders import board, state, wall

GREY = az.Variant.GREY


def played_position(rnd: random.Random, variant: az.Variant, phase: az.Phase) -> az.GameState:
    """A position in ``phase`` of a random game (2-4 players), chosen among those the
    game went through."""
    while True:
        players = rnd.choice((2, 3, 4))
        s = az.new_game(players, seed=rnd.randrange(10**6), variant=variant)
        seen = []
        while not s.is_over and s.round <= 12:
            if s.phase is phase:
                seen.append(s)
            s = s.apply(rnd.choice(s.legal_moves()))
        if seen:
            return rnd.choice(seen)


def _take_tile(pools: list[list[az.Color]], color: az.Color) -> bool:
    for pool in pools:
        if color in pool:
            pool.remove(color)
            return True
    return False


def mutated(s: az.GameState, rnd: random.Random) -> az.GameState:
    """``s`` with one change that keeps the 100 tiles (S3): a tile from the bag or lid
    put on a wall (on a row whose pattern line is complete, more often than not), a
    wall tile put in the lid, a pattern line completed from the bag or lid, or the
    round moved by one."""
    bag, lid = list(s.bag), list(s.lid)
    boards = list(s.players)
    index = rnd.randrange(len(boards))
    b = boards[index]
    rows = [list(row) for row in b.wall]
    lines = list(b.pattern_lines)
    complete = [r for r, line in enumerate(lines) if line.count == r + 1]
    action = rnd.randrange(5)
    if action == 0:  # a tile onto the wall
        row = rnd.choice(complete) if complete and rnd.random() < 0.7 else rnd.randrange(5)
        column = rnd.randrange(5)
        color = (
            rnd.choice(COLORS) if s.variant is GREY else az.Color((column - row) % 5)
        )  # fmt: skip
        if rows[row][column] is None and _take_tile([bag, lid], color):
            rows[row][column] = color
    elif action == 1:  # a wall tile into the lid
        cells = [(r, c) for r in range(5) for c in range(5) if rows[r][c] is not None]
        if cells:
            r, c = rnd.choice(cells)
            lid.append(rows[r][c])  # type: ignore[arg-type]
            rows[r][c] = None
    elif action == 2:  # a pattern line completed
        row = rnd.randrange(5)
        color = lines[row].color or rnd.choice(COLORS)
        missing = row + 1 - lines[row].count
        if all(_take_tile([bag, lid], color) for _ in range(missing)):
            lines[row] = pattern_line(row, color, row + 1)
        else:
            return s
    else:  # the round moved
        step = -1 if action == 3 else 1
        return s.replace(round=max(1, s.round + step), last_scoring=None)
    boards[index] = attrs.evolve(
        b, wall=tuple(tuple(row) for row in rows), pattern_lines=tuple(lines)
    )
    return s.replace(players=tuple(boards), bag=tuple(bag), lid=tuple(lid), last_scoring=None)


def mutated_position(rnd: random.Random, variant: az.Variant, phase: az.Phase) -> az.GameState:
    s = played_position(rnd, variant, phase)
    for _ in range(rnd.randint(1, 5)):
        s = mutated(s, rnd)
    return s


def successors_problems(s: az.GameState) -> list[tuple[str, list[str]]]:
    """Each legal move of ``s`` whose successor cannot exist, with its problems; and
    each whose successor JSON does not read back."""
    found = []
    for move in s.legal_moves():
        after = s.apply(move)
        problems = [p.message for p in after.problems()]
        if not problems:
            try:
                az.from_json(az.to_json(after), az.GameState)
            except az.InvalidStateError as error:
                problems = [str(error)]
        if problems:
            found.append((str(move), problems))
    return found


def without_round(s: az.GameState) -> az.GameState | None:
    """``s`` read from JSON with its round left out, and so its record of the last
    tiling, which names a round (None when that cannot exist)."""
    document = json.loads(az.to_json(s))
    del document["round"]
    document.pop("last_scoring", None)
    try:
        return az.from_json(json.dumps(document), az.GameState)
    except az.InvalidStateError:
        return None


def test_w1_a_complete_line_waiting_in_the_grey_tiling_owes_its_row_a_tile() -> None:
    """W1, V3 (the reported case): round 2, grey wall tiling, player 2's wall row 1
    holds blue and red while pattern line 1 holds a black still to be tiled; the
    tiling would make the row's third tile in two tilings."""
    waiting = board(0, ["K"], wall(["BR"]))
    s = state(
        [board(0), waiting], ["", "", "", "", ""], current=1, lid=None, bag="",
        phase=az.Phase.WALL_TILING, round_number=2, variant=GREY,
    )  # fmt: skip
    (problem,) = s.problems()
    assert problem.code is az.StateProblem.TOO_MANY_WALL_TILES
    assert problem.rule == "W1"
    assert problem.path == "$.players[1].wall[0]"
    assert dict(problem.params)["allowed"] == 1
    assert dict(problem.params)["wall_tiles"] == 2
    assert problem.message == (
        "row 1 of player 2's wall holds 2 tiles, but at most 1 can be there by round 2 "
        "(wall tiling): pattern line 1 is complete and still waits to be tiled, so this "
        "round's tile of the row is not on the wall yet (one per tiling)"
    )
    with pytest.raises(az.InvalidStateError, match="TOO_MANY_WALL_TILES"):
        az.from_json(az.to_json(s), az.GameState)
    # Read with the round left out, the least round is 3 (two tilings, and the third
    # under way): every placement then leads to a position that can exist.
    inferred = without_round(s)
    assert inferred is not None and inferred.round == 3
    assert len(inferred.legal_moves()) == 3
    assert successors_problems(inferred) == []


def test_w1_the_whole_wall_owes_a_tile_to_each_waiting_line() -> None:
    """W1: in round 1's grey tiling, a wall of 4 tiles with two complete lines still
    waiting cannot exist (5 a tiling, two of them still to come)."""
    waiting = board(0, ["K", "BB", "", "", ""], wall(["", "R", "Y", "W", "K"]))
    s = state(
        [board(0), waiting], ["", "", "", "", ""], current=1, lid=None, bag="",
        phase=az.Phase.WALL_TILING, round_number=1, variant=GREY,
    )  # fmt: skip
    codes = {(p.code, p.path, dict(p.params).get("reason")) for p in s.problems()}
    assert (az.StateProblem.TOO_MANY_WALL_TILES, "$.players[1].wall", "waiting") in codes
    wall_problem = next(p for p in s.problems() if p.path == "$.players[1].wall")
    assert dict(wall_problem.params)["allowed"] == 3
    assert "(2 here)" in wall_problem.message


@pytest.mark.parametrize("seed", range(60))
def test_w1_v3_no_legal_move_leads_to_an_impossible_position_grey_tiling(seed: int) -> None:
    """S3, W1, V3: mutated grey wall tilings that can exist (and the same read without
    their round) have only successors that can exist."""
    rnd = random.Random(seed)
    tried = 0
    while tried < 3:
        s = mutated_position(rnd, GREY, az.Phase.WALL_TILING)
        if s.problems():
            continue
        tried += 1
        assert successors_problems(s) == [], az.to_json(s)
        inferred = without_round(s)
        assert inferred is not None, az.to_json(s)  # the round given was possible
        assert successors_problems(inferred) == [], az.to_json(s)


@given(rnd=st.randoms(), variant=st.sampled_from(az.Variant), tiling=st.booleans())
def test_w1_no_legal_move_leads_to_an_impossible_position(
    rnd: random.Random, variant: az.Variant, tiling: bool
) -> None:
    """S3, W1, V3, P7: the same over both walls, in the factory offer and the grey
    wall tiling, the mutations chosen by Hypothesis."""
    phase = az.Phase.WALL_TILING if tiling and variant is GREY else az.Phase.FACTORY_OFFER
    s = mutated_position(rnd, variant, phase)
    if s.problems():
        return
    assert successors_problems(s) == [], az.to_json(s)
    inferred = without_round(s)
    if inferred is not None:
        assert successors_problems(inferred) == [], az.to_json(s)
