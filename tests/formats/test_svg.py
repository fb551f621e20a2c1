"""Pictures of positions (``azul_rules.svg``): well-formed, complete, marked where the
rules say, and ``GameState``'s text, repr and notebook picture."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import testing as azt
from azul_rules.adjudication.auditing import audit, claim_from_json, position_from_json
from azul_rules.core.colors import CENTER, FLOOR, wall_color, wall_column
from azul_rules.core.render import render_state
from azul_rules.svg import WIDTH, Svg, board
from azul_rules.svg.game import record_pictures
from tests.pictures import (
    box_of,
    center_of,
    classes,
    color_of,
    elements,
    parse,
    tiles,
)

E = az.ErrorCode
EXAMPLES = Path("examples")


def _position() -> az.GameState:
    return az.from_json((EXAMPLES / "round-2-position.json").read_text(), az.GameState)


def _example_move(name: str) -> az.Move:
    return az.move_from_json((EXAMPLES / f"{name}.json").read_text())


def _name(color: az.Color) -> str:
    return color.name.lower()


def _board_group(root: ET.Element, player: int) -> ET.Element:
    (group,) = [g for g in elements(root, "board") if g.get("data-player") == str(player)]
    return group


def _offending(root: ET.Element, code: az.ErrorCode) -> list[ET.Element]:
    return [m for m in elements(root, "highlight", "offending") if m.get("data-code") == code]


def _verdict_text(root: ET.Element) -> str:
    (verdict,) = elements(root, "verdict")
    return " ".join(t.text or "" for t in verdict.iter() if t.text)


def _wall_space(root: ET.Element, player: int, row: int, column: int) -> ET.Element:
    (space,) = [
        s
        for s in elements(_board_group(root, player), "wall-space")
        if s.get("data-row") == str(row) and s.get("data-column") == str(column)
    ]
    return space


def _close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 0.1 and abs(a[1] - b[1]) < 0.1  # coordinates keep 2 decimals


# -- the document ----------------------------------------------------------------------


def test_a_picture_is_a_complete_self_contained_svg_document() -> None:
    state = az.new_game(2, seed=1)
    picture = board(state)
    assert isinstance(picture, Svg) and isinstance(picture, str)
    assert picture._repr_svg_() == picture
    root = parse(picture)
    assert root.get("viewBox", "").startswith(f"0 0 {WIDTH} ")
    assert root.get("width") == str(WIDTH)
    title = root.find("{http://www.w3.org/2000/svg}title")
    desc = root.find("{http://www.w3.org/2000/svg}desc")
    assert title is not None and title.text is not None
    assert "round 1" in title.text and "player 2 to move" in title.text
    assert desc is not None and desc.text == render_state(state)
    for forbidden in ("<script", "href", "url(", "@import", "@font-face", "<image"):
        assert forbidden not in picture
    assert "sans-serif" in root.get("font-family", "")


def test_each_colour_has_its_own_glyph_for_black_and_white_prints() -> None:
    """S3: five colours, told apart by shape as well as by fill."""
    root = parse(board(_position()))
    glyphs: dict[str, set[str]] = {}
    fills: dict[str, set[str]] = {}
    for tile in tiles(root):
        (glyph,) = elements(tile, "glyph")
        (face,) = elements(tile, "face")
        glyphs.setdefault(color_of(tile), set()).add(glyph.get("d", ""))
        fills.setdefault(color_of(tile), set()).add(face.get("fill", ""))
    assert set(glyphs) == {"blue", "yellow", "red", "black", "white"}
    assert all(len(shapes) == 1 for shapes in glyphs.values())
    assert len({next(iter(s)) for s in glyphs.values()}) == 5
    assert len({next(iter(s)) for s in fills.values()}) == 5


def test_the_coloured_wall_shows_its_printed_colours_and_the_grey_wall_none() -> None:
    """S5 on the coloured wall; V1: the grey wall has no printed colour."""
    root = parse(board(az.new_game(2, seed=3)))
    for space in elements(_board_group(root, 0), "wall-space"):
        row, column = int(space.get("data-row", "")), int(space.get("data-column", ""))
        assert f"space-{_name(wall_color(row, column))}" in classes(space)
    grey = parse(board(az.new_game(2, seed=3, variant=az.Variant.GREY)))
    spaces = elements(_board_group(grey, 0), "wall-space")
    assert len(spaces) == 25
    assert not any(c.startswith("space-") for s in spaces for c in classes(s))


def test_the_floor_line_prints_its_penalties() -> None:
    """F1: -1 -1 -2 -2 -2 -3 -3."""
    root = parse(board(_position()))
    floor = elements(_board_group(root, 1), "floor-line")[0]
    printed = [p.text for p in elements(floor, "penalty")]
    assert printed == ["−1", "−1", "−2", "−2", "−2", "−3", "−3"]
    (total,) = elements(floor, "floor-penalty")
    assert total.text == "−1"  # the marker alone on player 2's floor (F3)


def test_pattern_lines_fill_from_the_right() -> None:
    """P5: a line's tiles sit in its rightmost spaces."""
    state = _position()
    root = parse(board(state))
    line = elements(_board_group(root, 0), "pattern-line")[2]  # blue, 1 of 3
    spaces = sorted(box_of(s)[0] for s in elements(line, "line-space"))
    (tile,) = tiles(line)
    assert box_of(tile)[0] == pytest.approx(spaces[-1])


def _expected_markers(state: az.GameState) -> int:
    return 0 if state.is_over else 1


@given(azt.game_states())
def test_every_piece_on_the_table_is_drawn_once_with_its_classes(state: az.GameState) -> None:
    """S2-S4, T3, F1, F3: one tile element per tile in each factory, the centre, each
    pattern line, wall and floor, with its colour; the marker once, where it lies."""
    root = parse(board(state))
    counted = _check_table(root, state)
    for player, player_board in enumerate(state.players):
        counted += _check_board(_board_group(root, player), player_board, state.variant)
    assert len(tiles(root)) == counted
    assert len(elements(root, "marker")) == _expected_markers(state)


@st.composite
def refill_states(draw: st.DrawFn) -> az.GameState:
    """Positions waiting for the table's refill (R2, external draws), after 0-2 rounds."""
    players = draw(st.sampled_from((2, 3, 4)))
    variant = draw(st.sampled_from(tuple(az.Variant)))
    chooser = random.Random(draw(st.integers(0, 2**32 - 1)))
    state = az.new_game(players, seed=0, variant=variant, external_draws=True)
    for _ in range(draw(st.integers(0, 2))):
        bag = list(state.bag)
        chooser.shuffle(bag)
        count = len(state.factories)
        state = state.apply(az.Refill(tuple(tuple(bag[4 * i : 4 * i + 4]) for i in range(count))))
        while state.phase is not az.Phase.REFILL and not state.is_over:
            state = state.apply(chooser.choice(state.legal_moves()))
    return state


@given(refill_states())
def test_every_piece_is_drawn_once_while_waiting_for_the_refill(state: az.GameState) -> None:
    """R2, W5: the table is empty, the boards as tiled, the marker with its holder."""
    root = parse(board(state))
    counted = _check_table(root, state)
    for player, player_board in enumerate(state.players):
        counted += _check_board(_board_group(root, player), player_board, state.variant)
    assert len(tiles(root)) == counted
    assert len(elements(root, "marker")) == _expected_markers(state)


def _check_table(root: ET.Element, state: az.GameState) -> int:
    factories = elements(root, "factory")
    assert len(factories) == len(state.factories)
    for index, (group, held) in enumerate(zip(factories, state.factories, strict=True)):
        assert group.get("data-index") == str(index)
        assert sorted(color_of(t) for t in tiles(group)) == sorted(_name(c) for c in held)
    (center,) = elements(root, "center")
    assert sorted(color_of(t) for t in tiles(center)) == sorted(_name(c) for c in state.center)
    in_center = state.phase in (az.Phase.FACTORY_OFFER, az.Phase.WALL_TILING)
    expected = 1 if in_center and state.marker_holder is None else 0
    assert len(elements(center, "marker")) == expected
    return sum(len(f) for f in state.factories) + len(state.center)


def _check_board(group: ET.Element, player_board: az.PlayerBoard, variant: az.Variant) -> int:
    lines = elements(group, "pattern-line")
    assert len(lines) == 5
    for index, (drawn, line) in enumerate(zip(lines, player_board.pattern_lines, strict=True)):
        assert drawn.get("data-line") == str(index)
        colors = [_name(line.color)] * line.count if line.color is not None else []
        assert [color_of(t) for t in tiles(drawn)] == colors
        assert len(elements(drawn, "line-space")) == line.capacity
    (wall,) = elements(group, "wall")
    spaces = elements(wall, "wall-space")
    assert len(spaces) == 25
    for space in spaces:  # S5: the coloured wall's printed colours; V1: none on the grey
        row, column = int(space.get("data-row", "")), int(space.get("data-column", ""))
        printed = {f"space-{_name(wall_color(row, column))}"}
        assert classes(space) - {"wall-space"} == (
            printed if variant is az.Variant.COLORED else set()
        )
    drawn_wall = {
        (int(t.get("data-row", "")), int(t.get("data-column", ""))): color_of(t)
        for t in tiles(wall)
    }
    placed = {
        (r, c): _name(color)
        for r, row in enumerate(player_board.wall)
        for c, color in enumerate(row)
        if color is not None
    }
    assert drawn_wall == placed and len(tiles(wall)) == len(placed)
    (floor,) = elements(group, "floor-line")
    assert len(elements(floor, "floor-space")) == 7
    floor_colors = [_name(i) for i in player_board.floor if isinstance(i, az.Color)]
    assert [color_of(t) for t in tiles(floor)] == floor_colors
    assert len(elements(floor, "marker")) == player_board.floor.count(az.MARKER)
    lines_count = sum(line.count for line in player_board.pattern_lines)
    return lines_count + len(placed) + len(floor_colors)


def test_the_marker_is_shown_in_each_phase() -> None:
    """T3 (in the centre), F3 (on the floor), W5 (back with its holder for the refill),
    none once the game is over."""
    state = az.new_game(2, seed=4, external_draws=True)
    root = parse(board(state))
    held = elements(root, "marker", "held")
    assert len(held) == 1 and len(elements(root, "marker")) == 1
    assert held[0] in list(_board_group(root, state.current_player).iter())
    on_floor = parse(board(_position()))
    (marker,) = elements(on_floor, "marker")
    assert marker in list(elements(_board_group(on_floor, 1), "floor-line")[0].iter())


# -- highlights --------------------------------------------------------------------------


def _has_place(state: az.GameState, violation: az.Violation) -> bool:
    """Whether a violation names a place on the table that the picture can mark."""
    params = violation.param_dict
    code = violation.code
    if code in (E.NO_SUCH_SOURCE, E.NO_SUCH_LINE, E.GAME_OVER, E.TILE_COUNT_MISMATCH):
        return False
    if code is E.WRONG_PHASE:
        return "line" in params
    if code is E.FILL_IMPOSSIBLE:
        return "source" in params
    return True


@given(st.data())
def test_an_illegal_move_marks_each_offending_place(data: st.DataObject) -> None:
    state = data.draw(azt.game_states(), label="state")
    move, code = data.draw(azt.illegal_moves(state), label="move")
    result = state.validate(move)
    root = parse(board(state, highlight=move))
    (verdict,) = elements(root, "verdict")
    assert "illegal" in classes(verdict)
    assert f"{code.value} (" in _verdict_text(root)
    for violation in result.violations:
        assert bool(_offending(root, violation.code)) == _has_place(state, violation), violation


@given(st.data())
def test_a_partial_take_marks_the_tiles_left_behind(data: st.DataObject) -> None:
    """T2, T3: every tile of the colour left in the source is marked, and only those."""
    state = data.draw(azt.game_states(include_over=False, variants=[az.Variant.COLORED]))
    assume(state.phase is az.Phase.FACTORY_OFFER)
    move = data.draw(azt.table_takes(state, mistake=E.PARTIAL_TAKE))
    assert isinstance(move, az.TableTake) and isinstance(move.color, az.Color)
    source = state.center if move.source == az.CENTER else state.factories[move.source]
    root = parse(board(state, highlight=move))
    left = _offending(root, E.PARTIAL_TAKE)
    assert len(left) == source.count(move.color) - move.count
    assert all("left-behind" in classes(m) for m in left)
    marker = move.source == az.CENTER and state.marker_holder is None  # T3: it comes along
    assert len(elements(root, "highlight", "taken")) == move.count + marker


TABLE_MISTAKES = [E.SPLIT_LOT, E.FLOOR_WHILE_ROOM, E.TILE_COUNT_MISMATCH, E.TOO_MANY_TAKEN]


@given(st.data())
def test_table_take_mistakes_mark_each_offending_place(data: st.DataObject) -> None:
    """P1, P5, T2: the lines of a split lot, the line left with room and the floor, the
    source over-claimed; a count mismatch has no place of its own."""
    state = data.draw(azt.game_states(include_over=False, variants=[az.Variant.COLORED]))
    assume(state.phase is az.Phase.FACTORY_OFFER)
    mistake = data.draw(st.sampled_from(TABLE_MISTAKES))
    move = data.draw(azt.table_takes(state, mistake=mistake))
    result = state.validate(move)
    assert result.code is mistake
    root = parse(board(state, highlight=move))
    for violation in result.violations:
        assert bool(_offending(root, violation.code)) == _has_place(state, violation), violation
    if mistake is E.SPLIT_LOT:
        assert len(_offending(root, E.SPLIT_LOT)) == len(violation_lines(result))
    if mistake is E.FLOOR_WHILE_ROOM:
        assert len(_offending(root, E.FLOOR_WHILE_ROOM)) == 2  # the line and the floor


def violation_lines(result: az.Result) -> tuple[int, ...]:
    lines = result.violations[0].param_dict["lines"]
    assert isinstance(lines, tuple)
    return lines


def test_partial_take_example_marks_the_blue_tile_left_on_factory_2() -> None:
    """examples/: 2 of the 3 blues of factory 2 taken (T2)."""
    root = parse(board(_position(), highlight=_example_move("partial-take")))
    (left,) = _offending(root, E.PARTIAL_TAKE)
    factory = elements(root, "factory")[1]
    blues = [t for t in tiles(factory) if color_of(t) == "blue"]
    assert len(blues) == 3
    assert _close(center_of(left), center_of(blues[2]))
    taken = elements(root, "highlight", "taken")
    assert len(taken) == 2
    for mark, tile in zip(sorted(taken, key=center_of), blues[:2], strict=True):
        assert _close(center_of(mark), center_of(tile))
    (source,) = elements(root, "highlight", "source")
    assert _close(center_of(source), center_of(elements(factory, "factory-disc")[0]))
    assert "PARTIAL_TAKE (T2): 2 of the 3 blue tiles of factory 2" in _verdict_text(root)


def test_wall_color_conflict_marks_the_wall_space_holding_the_colour() -> None:
    """examples/: a yellow into line 4, whose wall row already holds yellow (P3)."""
    state = _position()
    root = parse(board(state, highlight=_example_move("wall-color-conflict")))
    (mark,) = _offending(root, E.WALL_COLOR_CONFLICT)
    column = wall_column(3, az.Color.YELLOW)
    assert state.players[0].wall[3][column] is az.Color.YELLOW
    (tile,) = [
        t
        for t in tiles(_board_group(root, 0))
        if t.get("data-row") == "3" and t.get("data-column") == str(column)
    ]
    assert color_of(tile) == "yellow"
    assert _close(center_of(mark), center_of(tile))


def test_the_first_take_from_the_centre_marks_the_marker_taken_along() -> None:
    """T3: the marker goes with the first take from the centre."""
    state = az.new_game(2, seed=1)
    state = state.apply(state.legal_moves()[0])
    color = state.center[0]
    root = parse(board(state, highlight=az.Take(az.CENTER, color, az.FLOOR)))
    (center,) = elements(root, "center")
    (marker,) = elements(center, "marker")
    wanted = [marker] + [t for t in tiles(center) if color_of(t) == _name(color)]
    taken = elements(root, "highlight", "taken")
    assert len(taken) == len(wanted)
    for mark, piece in zip(
        sorted(taken, key=center_of), sorted(wanted, key=center_of), strict=True
    ):
        assert _close(center_of(mark), center_of(piece))


def test_two_colours_mark_both_lots_and_the_marker_alone_marks_the_marker() -> None:
    """T4: one colour per turn, and the marker is not a colour."""
    state = _position()  # factory 2 holds B B B R
    two = az.TableTake(1, (az.Color.BLUE, az.Color.RED), 4, {2: 3, az.FLOOR: 1})
    root = parse(board(state, highlight=two))
    factory_tiles = tiles(elements(root, "factory")[1])
    marks = _offending(root, E.TWO_COLORS)
    assert len(marks) == len(factory_tiles) == 4
    pairs = zip(sorted(marks, key=center_of), sorted(factory_tiles, key=center_of), strict=True)
    assert all(_close(center_of(mark), center_of(tile)) for mark, tile in pairs)
    fresh = az.new_game(2, seed=1)
    fresh = fresh.apply(fresh.legal_moves()[0])
    root = parse(board(fresh, highlight=az.Take(az.CENTER, az.MARKER, 0)))
    (mark,) = _offending(root, E.MARKER_ALONE)
    (marker,) = elements(root, "marker")
    assert _close(center_of(mark), center_of(marker))


@pytest.mark.parametrize(
    ("move", "code", "source"),
    [
        (az.Take(0, az.Color.BLUE, 0), E.EMPTY_SOURCE, 0),
        (az.Take(2, az.Color.BLUE, 3), E.COLOR_NOT_IN_SOURCE, 2),
        (az.TableTake(4, az.Color.BLACK, 3, {3: 3}), E.TOO_MANY_TAKEN, 4),
    ],
)
def test_source_errors_mark_the_factory(move: az.Move, code: az.ErrorCode, source: int) -> None:
    """T2: an empty factory, a colour it does not hold, more tiles than it holds."""
    root = parse(board(_position(), highlight=move))
    (mark,) = _offending(root, code)
    disc = elements(elements(root, "factory")[source], "factory-disc")[0]
    assert _close(center_of(mark), center_of(disc))


def test_split_lot_marks_both_lines() -> None:
    """examples/: three blues spread over lines 3 and 4 (P1)."""
    root = parse(board(_position(), highlight=_example_move("split-lot")))
    marks = _offending(root, E.SPLIT_LOT)
    lines = elements(_board_group(root, 0), "pattern-line")
    assert len(marks) == 2
    for mark, line in zip(marks, (lines[2], lines[3]), strict=True):
        x, y, w, h = box_of(mark)
        for space in elements(line, "line-space"):
            sx, sy, sw, sh = box_of(space)
            assert x < sx and sx + sw < x + w and y < sy and sy + sh < y + h


def test_a_legal_table_take_marks_the_move_and_no_violation() -> None:
    """examples/: two blues to line 3, one to the floor (P5): legal."""
    root = parse(board(_position(), highlight=_example_move("legal-table-take")))
    assert not elements(root, "offending")
    (verdict,) = elements(root, "verdict")
    assert "legal" in classes(verdict)
    assert _verdict_text(root).startswith("Legal: 3 blue from factory 2")
    assert len(elements(root, "highlight", "taken")) == 3
    assert len(elements(root, "highlight", "target")) == 2  # line 3 and the floor


def test_line_marks_for_a_mismatched_and_full_line() -> None:
    """P2, P4: the disputed game's seventh move marks pattern line 2 for both."""
    record = az.GameRecord.from_json((EXAMPLES / "disputed-game.json").read_text())
    replay = record.replay()
    assert replay.failed_at == 6 and replay.failure is not None
    root = parse(board(replay.final, highlight=(record.moves[6], replay.failure)))
    line = elements(_board_group(root, 0), "pattern-line")[1]
    for code in (E.LINE_COLOR_MISMATCH, E.LINE_FULL):
        (mark,) = _offending(root, code)
        assert _close(center_of(mark), _span_center(elements(line, "line-space")))


def _span_center(nodes: list[ET.Element]) -> tuple[float, float]:
    boxes = [box_of(n) for n in nodes]
    left = min(b[0] for b in boxes)
    right = max(b[0] + b[2] for b in boxes)
    return (left + right) / 2, boxes[0][1] + boxes[0][3] / 2


def test_not_your_turn_marks_both_boards() -> None:
    """T1: the board of the player who moved, and the one whose turn it is."""
    state = az.new_game(3, seed=2)
    other = (state.current_player + 1) % 3
    move = state.legal_moves()[0]
    assert isinstance(move, az.Take)
    wrong = az.Take(move.source, move.color, move.line, player=other)
    root = parse(board(state, highlight=wrong))
    (offending,) = _offending(root, E.NOT_YOUR_TURN)
    (expected,) = elements(root, "highlight", "expected")
    frame = elements(_board_group(root, other), "board-frame")[0]
    mover = elements(_board_group(root, state.current_player), "board-frame")[0]
    assert _close(center_of(offending), center_of(frame))
    assert _close(center_of(expected), center_of(mover))


def _grey_case(code: az.ErrorCode) -> tuple[az.GameState, az.PlaceTile]:
    """A grey wall tiling and a placement whose verdict starts with ``code``."""
    for seed in range(200):
        chooser = random.Random(seed)
        state = az.new_game(2, seed=seed, variant=az.Variant.GREY)
        while not state.is_over and state.round < 6:
            if state.phase is az.Phase.WALL_TILING:
                first = state.legal_moves()[0]
                assert isinstance(first, az.PlaceTile)
                for column in range(5):
                    move = az.PlaceTile(first.line, column)
                    if state.validate(move).code is code:
                        return state, move
            state = state.apply(chooser.choice(state.legal_moves()))
    raise AssertionError(f"no grey position gives {code}")


@pytest.mark.parametrize("code", [E.SPACE_OCCUPIED, E.COLUMN_COLOR_CONFLICT])
def test_grey_placements_mark_the_wall_space_at_fault(code: az.ErrorCode) -> None:
    """V1 (the space is taken), V2 (the column already holds the colour)."""
    state, move = _grey_case(code)
    player = state.current_player
    wall = state.players[player].wall
    if code is E.SPACE_OCCUPIED:
        row = move.line
    else:
        color = state.players[player].pattern_lines[move.line].color
        row = next(r for r in range(5) if wall[r][move.column] == color)
    root = parse(board(state, highlight=move))
    marks = _offending(root, code)
    assert marks
    assert _close(center_of(marks[0]), center_of(_wall_space(root, player, row, move.column)))
    (target,) = elements(root, "highlight", "target")
    assert _close(center_of(target), center_of(_wall_space(root, player, move.line, move.column)))


def test_a_result_alone_marks_its_violations_and_no_move() -> None:
    state = _position()
    result = state.validate(_example_move("partial-take"))
    root = parse(board(state, highlight=result))
    assert len(_offending(root, E.PARTIAL_TAKE)) == 1
    assert not elements(root, "highlight", "taken") and not elements(root, "highlight", "source")
    assert _verdict_text(root).startswith("Illegal PARTIAL_TAKE")


def test_an_audit_result_marks_the_tile_scored_wrongly() -> None:
    """W3: the audit's CROSS_COUNTED_ONCE points at the red tile's wall space."""
    folder = EXAMPLES / "audits" / "cross-counted-once"
    state = position_from_json((folder / "position.json").read_text())
    result = audit(state, claim_from_json((folder / "claim.json").read_text()))
    violation = result.violations[0]
    params = violation.param_dict
    root = parse(board(state, highlight=result))
    (mark,) = _offending(root, E.CROSS_COUNTED_ONCE)
    space = _wall_space(root, int(str(params["player"])), int(str(params["row"])), 3)
    assert params["column"] == 3
    assert _close(center_of(mark), center_of(space))


def test_a_round_scoring_marks_every_tile_placed() -> None:
    """W1: the tiles the last tiling placed, and its points in words."""
    state = az.new_game(2, seed=8)
    chooser = random.Random(1)
    while state.round == 1:
        state = state.apply(chooser.choice(state.legal_moves()))
    scoring = state.last_scoring
    assert scoring is not None
    root = parse(board(state, highlight=scoring))
    placed = elements(root, "highlight", "placed")
    expected = [(t.player, p.row, p.column) for t in scoring.players for p in t.placements]
    assert len(placed) == len(expected) > 0
    centres = sorted(center_of(m) for m in placed)
    spaces = sorted(center_of(_wall_space(root, *where)) for where in expected)
    assert all(_close(a, b) for a, b in zip(centres, spaces, strict=True))
    assert "Wall tiling of round 1" in _verdict_text(root)


# -- arguments -------------------------------------------------------------------------


def test_player_draws_the_boards_from_that_seat() -> None:
    """G2: the chosen player's board first and framed, then clockwise."""
    root = parse(board(az.new_game(4, seed=1), player=2))
    order = [g.get("data-player") for g in elements(root, "board")]
    assert order == ["2", "3", "0", "1"]
    assert [g.get("data-player") for g in elements(root, "board", "selected")] == ["2"]
    first, second = (box_of(elements(g, "board-frame")[0]) for g in elements(root, "board")[:2])
    assert first[1] == second[1] and first[0] < second[0]


def test_size_scales_the_picture() -> None:
    root = parse(board(az.new_game(2), size=300))
    natural = parse(board(az.new_game(2)))
    assert root.get("width") == "300"
    assert float(root.get("height", "")) == pytest.approx(float(natural.get("height", "")) / 2)
    assert root.get("viewBox") == natural.get("viewBox")


def test_french_text() -> None:
    state = _position()
    picture = board(state, lang="fr", highlight=_example_move("wall-color-conflict"))
    root = parse(picture)
    assert "manche 2" in picture and "plancher" in picture and "Sac\u202f: 72 carreaux" in picture
    assert "floor line" not in picture
    assert _verdict_text(root).startswith(
        "Coup illégal\u202f: 1 carreau de couleur jaune pris de la fabrique 3\u202f: 1 "
        "vers la ligne "
        "de préparation 4"
    )
    assert "la rangée 4 du mur contient déjà la couleur jaune" in _verdict_text(root)
    desc = root.find("{http://www.w3.org/2000/svg}desc")
    assert desc is not None and desc.text is not None
    assert desc.text.startswith(render_state(state, "fr"))


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"player": 2}, ValueError, "player must be 0 to 1"),
        ({"player": -1}, ValueError, "player must be 0 to 1"),
        ({"player": "1"}, TypeError, "player must be an int"),
        ({"player": True}, TypeError, "player must be an int"),
        ({"lang": "de"}, ValueError, "unknown language 'de'"),
        ({"size": 0}, ValueError, "size must be at least 1"),
        ({"size": 10**5000}, ValueError, "size must be at most 100000 px, not an integer of"),
        ({"size": 600.0}, TypeError, "size must be an int"),
        ({"highlight": "2B3"}, TypeError, "highlight must be a move"),
        ({"highlight": (az.Result(), az.Take(0, az.Color.RED, 0))}, TypeError, "highlight"),
    ],
)
def test_bad_arguments_raise(kwargs: dict[str, object], error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        board(az.new_game(2), **kwargs)  # type: ignore[arg-type]


def test_only_a_state_is_drawn() -> None:
    with pytest.raises(az.FormatError, match="draws a GameState"):
        board("state")  # type: ignore[arg-type]


# -- GameState -------------------------------------------------------------------------


def test_state_text_repr_and_notebook_picture() -> None:
    state = _position()
    assert str(state) == render_state(state)
    assert repr(state) == (
        "<GameState 2 players, colored wall, round 2, factory_offer, current_player=0, "
        "scores=(3, 2)>"
    )
    assert state._repr_svg_() == str(board(state))
    assert state == _position() and hash(state) == hash(_position())


def test_a_finished_game_repr_names_the_winners() -> None:
    record = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text())
    final = record.replay().final
    assert repr(final).endswith("game_over, winners=(0,), scores=(68, 0)>")
    assert len(repr(final)) < 120


def test_repr_names_a_score_past_4300_digits() -> None:
    """``repr`` must work for any state ``str`` draws: a score past Python's limit of
    digits (in a state built by hand: ``replace`` checks only what the referee must
    read, ``problems()`` names it SCORE_OUT_OF_REACH) is named, not raised."""
    state = _position()
    huge = state.replace(players=(attrs.evolve(state.players[0], score=10**5000),
                                  state.players[1]))  # fmt: skip
    assert repr(huge).endswith(", scores=(an integer of more than 4300 digits, 2)>")


def test_importing_azul_rules_does_not_import_the_pictures() -> None:
    code = "import sys, azul_rules; print('azul_rules.svg' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# -- recorded games --------------------------------------------------------------------


def test_record_pictures_of_a_whole_game() -> None:
    record = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text())
    pictures = record_pictures(record)
    names = [name for name, _ in pictures]
    assert names == [f"round-0{r}-{kind}.svg" for r in range(1, 6) for kind in ("start", "tiled")]
    last = parse(pictures[-1][1])
    assert "Wall tiling of round 5" in _verdict_text(last)
    assert elements(last, "winner")


def test_record_pictures_stop_at_the_illegal_move() -> None:
    record = az.GameRecord.from_json((EXAMPLES / "disputed-game.json").read_text())
    pictures = record_pictures(record, lang="fr")
    assert [name for name, _ in pictures] == ["round-01-start.svg", "move-007-illegal.svg"]
    root = parse(pictures[-1][1])
    assert _offending(root, E.LINE_COLOR_MISMATCH)
    assert "Coup illégal" in _verdict_text(root)


def test_record_pictures_with_external_draws_and_a_grey_wall() -> None:
    """R2 (the table's refills) and V1-V4 (tiling waits for the players)."""
    chooser = random.Random(5)
    state = az.new_game(2, seed=5, variant=az.Variant.GREY, external_draws=True)
    moves: list[az.Move] = []
    bag = list(state.bag)
    while state.round <= 2 and not state.is_over:
        if state.phase is az.Phase.REFILL:
            chooser.shuffle(bag)
            move: az.Move = az.Refill(tuple(tuple(bag[4 * i : 4 * i + 4]) for i in range(5)))
            bag = bag[20:]
        else:
            move = chooser.choice(state.legal_moves())
        state = state.apply(move)
        moves.append(move)
    record = az.GameRecord(
        tuple(moves), players=2, seed=5, variant=az.Variant.GREY, external_draws=True
    )
    names = [name for name, _ in record_pictures(record)]
    assert names[:4] == [
        "round-01-refill.svg",
        "round-01-start.svg",
        "round-01-tiled.svg",
        "round-02-start.svg",
    ]


def test_a_shared_victory_names_every_winner() -> None:
    """E4: a shared victory labels each winner's board."""
    record = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text())
    final = record.replay().final
    shared = attrs.evolve(
        final, context=attrs.evolve(final.context, outcome=az.Outcome((0, 1), (68, 68)))
    )
    root = parse(board(shared))
    assert [g.get("data-player") for g in elements(root, "board", "winner")] == ["0", "1"]
    (subtitle,) = elements(root, "subtitle")
    assert subtitle.text == "2 players, colored wall · shared victory: players 1 and 2"
    assert not elements(root, "to-move")


@pytest.mark.parametrize(
    ("record", "options", "kind", "message"),
    [
        ("x", {}, az.FormatError, "record_pictures() pictures a GameRecord, not str "
         "(GameRecord.from_json or from_dict reads one)"),
        ({"players": 2}, {}, az.FormatError, "record_pictures() pictures a GameRecord, not "
         "dict (GameRecord.from_json or from_dict reads one)"),
        (az.GameRecord(), {"lang": "de"}, ValueError,
         "unknown language 'de': choose one of en, fr"),
        (az.GameRecord(), {"size": True}, az.FormatError,
         "size must be an int (px) or None, got True"),
        (az.GameRecord(), {"size": 0}, ValueError, "size must be at least 1 px, not 0"),
        (az.GameRecord(players=7), {}, az.FormatError,
         "the record cannot start: $.players: expected 2, 3 or 4, got 7"),
        (az.GameRecord(moves=("x",)), {}, az.FormatError,  # type: ignore[arg-type]
         "$.moves[0]: expected a move (Take, TableTake, PlaceTile or Refill), got 'x'"),
    ],
    ids=["string", "dict", "lang", "size-bool", "size-zero", "players-S1", "move"],
)  # fmt: skip
def test_record_pictures_checks_its_arguments_like_board(
    record: object, options: dict[str, object], kind: type[Exception], message: str
) -> None:
    """Regression: a non-record raised AttributeError; now FormatError like board()."""
    with pytest.raises(kind) as raised:
        record_pictures(record, **options)  # type: ignore[arg-type]
    assert type(raised.value) is kind and str(raised.value) == message


# -- the narrow picture (a phone's) --------------------------------------------------------

NARROW_TARGETS = ("tile", "marker", "line-space", "wall-space", "space")


def _crowded(players: int) -> az.GameState:
    """A table whose factories but one have been taken, one colour each to the floor:
    their leftovers in the centre with the marker, the floors full (a crowded centre,
    the narrow picture's tallest)."""
    state = az.new_game(players, seed=11)
    for _ in range(len(state.factories) - 1):
        take = next(
            m
            for m in state.legal_moves()
            if isinstance(m, az.Take) and m.source != CENTER and m.line == FLOOR
        )
        state = state.apply(take)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_narrow_picture_has_large_targets_and_words(players: int, lang: str) -> None:
    """layout="narrow": one column 312 units wide, every tile, line space, wall space and
    floor space a 24-unit box (a 22.8-unit face: 25 px drawn 344 px wide, a 390 px
    phone's picture), every word at least 12 units, inside the
    picture, the boards one under the other; the classes and data-* of the wide picture."""
    state = _crowded(players)
    document = board(state, layout="narrow", lang=lang)
    root = parse(document)
    assert root.get("viewBox", "").startswith("0 0 312 ")
    width, height = 312.0, float(root.get("viewBox", "").split()[3])
    assert root.get("width") == "312"
    for node in root.iter():
        if classes(node) & set(NARROW_TARGETS) and "swatch" not in classes(node):
            x, y, w, h = box_of(node)
            assert min(w, h) >= 24 - 1e-6, (classes(node), (x, y, w, h))
            assert x >= 0 and y >= 0 and x + w <= width and y + h <= height
    texts = [n for n in root.iter() if n.tag.endswith("text")]
    assert texts
    for node in texts:
        if "glyph" in classes(node):  # the marker's 1, in a 20-unit piece: below
            continue
        size = float(node.get("font-size", "0"))
        assert size >= 12, (node.text, size)
        assert 0 <= float(node.get("x", "0")) <= width
    for marker in elements(root, "marker") + elements(root, "swatch-marker"):
        assert box_of(marker)[2] * 14 / 20 >= 12, box_of(marker)  # its 1 at 12 or more
    frames = [box_of(f) for f in elements(root, "board-frame")]
    assert len(frames) == players
    assert len({x for x, _, _, _ in frames}) == 1  # one column
    assert all(a[1] + a[3] < b[1] for a, b in itertools.pairwise(frames))
    assert frames[-1][1] + frames[-1][3] <= height
    wide = parse(board(state, lang=lang))
    for cls in ("factory", "center", "pattern-line", "wall-space", "floor-space", "tile"):
        assert len(elements(root, cls)) == len(elements(wide, cls)), cls
    assert {t.get("data-line") for t in elements(root, "pattern-line")} == {*"01234"}


def test_the_narrow_picture_marks_a_move_and_keeps_the_wide_one() -> None:
    """A verdict's marks in the narrow picture fall on its own places; the default stays
    the wide picture, byte for byte the same when asked for by name."""
    state = _position()
    move = _example_move("partial-take")
    assert board(state, highlight=move) == board(state, highlight=move, layout="wide")
    root = parse(board(state, highlight=move, layout="narrow", size=390))
    assert root.get("width") == "390"
    offending = _offending(root, E.PARTIAL_TAKE)
    assert offending
    (box,) = elements(root, "verdict-box")
    assert box_of(box)[0] + box_of(box)[2] <= 312


@pytest.mark.parametrize("layout", ["tall", "", "NARROW"])
def test_an_unknown_layout_is_refused(layout: str) -> None:
    with pytest.raises(ValueError, match="unknown layout"):
        board(_position(), layout=layout)


def test_a_layout_of_another_type_is_refused() -> None:
    with pytest.raises(az.FormatError, match="layout must be a str"):
        board(_position(), layout=None)  # type: ignore[arg-type]
