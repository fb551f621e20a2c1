"""What ``highlight`` marks on a :mod:`azul_rules.svg` picture: the move, the
offending place of each violation, the tiles a wall tiling placed.

Private: ``azul_rules.svg`` is the public entry point; ``docs/pictures.md`` lists the
mark of every error code.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from typing import Final, NamedTuple

from azul_rules.core.colors import CENTER, FLOOR, Color, Marker
from azul_rules.core.errors import ErrorCode
from azul_rules.core.moves import Move, PlaceTile, TableTake, Take
from azul_rules.core.position import Position
from azul_rules.svg._parts import Circle, Layout, Rect, Verdict, circle, el, rect

MARK_COLORS: Final[Mapping[str, str]] = {
    "source": "#1a7f37",
    "taken": "#1a7f37",
    "target": "#1a7f37",
    "expected": "#1a7f37",
    "offending": "#c8007a",
    "placed": "#e07b00",
}
_MARK_DASHES: Final[Mapping[str, str | None]] = {
    "source": "7 4",
    "taken": "7 4",
    "target": "7 4",
    "expected": "2 3",
    "offending": None,
    "placed": None,
}


class Mark(NamedTuple):
    """An outline to draw: around what, why (its role), and for which error code."""

    shape: Rect | Circle
    role: str  # "source", "taken", "target", "expected", "offending" (+ "left-behind"), "placed"
    code: ErrorCode | None = None


class _Marks:
    """Collects the marks of a highlight, checking every index against the table."""

    def __init__(self, state: Position, layout: Layout, move: Move | None) -> None:
        self.state = state
        self.layout = layout
        self.move = move
        self.found: list[Mark] = []

    def add(self, shape: Rect | Circle, role: str, code: ErrorCode | None) -> None:
        self.found.append(Mark(shape, role, code))

    def source(self, source: object, role: str, code: ErrorCode | None = None) -> None:
        if type(source) is int:
            area = self.layout.source(source)
            if area is not None:
                self.add(area._replace(r=area.r + 4), role, code)

    def source_items(
        self,
        source: object,
        items: Sequence[object],
        role: str,
        code: ErrorCode | None = None,
        *,
        skip: int = 0,
        limit: int | None = None,
    ) -> None:
        """The items of ``items``' kinds in a source, from the ``skip``-th on, at most
        ``limit`` of them."""
        if type(source) is not int:
            return
        found = [box for item, box in self.layout.source_boxes(source) if item in items]
        end = None if limit is None else skip + limit
        for box in found[skip:end]:
            self.add(box.grown(1.5), role, code)

    def board(self, player: object, role: str, code: ErrorCode | None = None) -> None:
        if type(player) is int and 0 <= player < len(self.state.players):
            self.add(self.layout.board(player).grown(-2), role, code)

    def line(self, player: int, line: object, role: str, code: ErrorCode | None = None) -> None:
        if line == FLOOR:
            self.floor(player, role, code)
        elif type(line) is int and 0 <= line < 5 and 0 <= player < len(self.state.players):
            self.add(self.layout.line(player, line).grown(3), role, code)

    def floor(self, player: int, role: str, code: ErrorCode | None = None) -> None:
        if 0 <= player < len(self.state.players):
            self.add(self.layout.floor(player).grown(3), role, code)

    def wall(
        self, player: int, row: object, column: object, role: str, code: ErrorCode | None = None
    ) -> None:
        rows_ok = type(row) is int and type(column) is int and 0 <= row < 5 and 0 <= column < 5
        if rows_ok and 0 <= player < len(self.state.players):
            assert isinstance(row, int) and isinstance(column, int)
            self.add(self.layout.wall(player, row, column).grown(3), role, code)

    def owner(self, params: Mapping[str, object]) -> int:
        """The board a violation speaks of: its ``player``, else the player to move."""
        player = params.get("player")
        return player if type(player) is int else self.state.current_player

    def wall_board(self, params: Mapping[str, object]) -> Sequence[Sequence[Color | None]]:
        owner = self.owner(params)
        if 0 <= owner < len(self.state.players):
            return self.state.players[owner].wall
        return ()


def collect_marks(state: Position, layout: Layout, verdict: Verdict) -> list[Mark]:
    """Every mark of a highlight: the move's, then each violation's, then the tiling's."""
    marks = _Marks(state, layout, verdict.move)
    if verdict.move is not None:
        _mark_move(marks, verdict.move)
    if verdict.result is not None:
        for violation in verdict.result.violations:
            _VIOLATION_MARKS.get(violation.code, _mark_nothing)(
                marks, violation.code, violation.param_dict
            )
    if verdict.scoring is not None:
        for tiling in verdict.scoring.players:
            for placement in tiling.placements:
                marks.wall(tiling.player, placement.row, placement.column, "placed")
    return marks.found


def _mark_move(marks: _Marks, move: Move) -> None:
    """The move itself: its source and the tiles taken, then where they go."""
    me = marks.state.current_player
    if isinstance(move, (Take, TableTake)):
        _mark_take(marks, move)
        targets = [move.line] if isinstance(move, Take) else list(move.placements)
        for line in targets:
            marks.line(me, line, "target")
    elif isinstance(move, PlaceTile):
        marks.line(me, move.line, "source")
        marks.wall(me, move.line, move.column, "target")


def _mark_take(marks: _Marks, move: Take | TableTake) -> None:
    """T2, T3: the source, the tiles of the colour taken (a table take's ``count`` of
    them), and the marker when it comes along from the centre."""
    marks.source(move.source, "source")
    colors = move.color if isinstance(move.color, tuple) else (move.color,)
    limit = move.count if isinstance(move, TableTake) and len(colors) == 1 else None
    marks.source_items(move.source, colors, "taken", limit=limit)
    if move.source == CENTER and Marker.MARKER not in colors:
        marks.source_items(CENTER, (Marker.MARKER,), "taken")


_MarkFn = Callable[[_Marks, ErrorCode, Mapping[str, object]], None]


def _mark_nothing(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """No place on the table to point at (a source or line that does not exist, the game
    over, a wrong phase): the verdict's text says it."""


def _mark_source(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    marks.source(params.get("source"), "offending", code)


def _mark_left_behind(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """PARTIAL_TAKE (T2, T3): the tiles of the colour left in the source."""
    count = params.get("count")
    skip = count if type(count) is int and count > 0 else 0
    marks.source_items(
        params.get("source"), (params.get("color"),), "offending left-behind", code, skip=skip
    )


def _mark_line(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    marks.line(marks.owner(params), params.get("line"), "offending", code)


def _mark_lines(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """SPLIT_LOT (P1): every pattern line the lot was spread over."""
    lines = params.get("lines")
    for line in lines if isinstance(lines, tuple) else ():
        marks.line(marks.owner(params), line, "offending", code)


def _mark_line_and_floor(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """FLOOR_WHILE_ROOM (P5): the line left with room, and the floor."""
    _mark_line(marks, code, params)
    marks.floor(marks.owner(params), "offending", code)


def _mark_row_color(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """WALL_COLOR_CONFLICT (P3): the wall space of that row already holding the colour."""
    row, color = params.get("row"), params.get("color")
    wall = marks.wall_board(params)
    if type(row) is not int or not 0 <= row < len(wall):
        return
    for column, cell in enumerate(wall[row]):
        if cell is not None and cell == color:
            marks.wall(marks.owner(params), row, column, "offending", code)


def _mark_column_color(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """COLUMN_COLOR_CONFLICT (V2): the wall space of that column already holding it."""
    column, color = params.get("column"), params.get("color")
    wall = marks.wall_board(params)
    if type(column) is not int or not 0 <= column < 5:
        return
    for row, cells in enumerate(wall):
        if cells[column] == color and color is not None:
            marks.wall(marks.owner(params), row, column, "offending", code)


def _mark_space(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    marks.wall(marks.owner(params), params.get("row"), params.get("column"), "offending", code)


def _mark_turn(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """NOT_YOUR_TURN (T1): the player who moved, and the one whose turn it is."""
    marks.board(params.get("player"), "offending", code)
    marks.board(params.get("current"), "expected", code)


def _mark_phase(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """WRONG_PHASE in a grey tiling: the line not complete (W2), or not next (V3) with
    the line that comes first."""
    if "line" in params:
        _mark_line(marks, code, params)
    nxt = params.get("next")
    if nxt is not None:
        marks.line(marks.owner(params), nxt, "expected", code)


def _mark_colors(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """TWO_COLORS (T4): the tiles of every colour taken, in the move's source."""
    colors = params.get("colors")
    if marks.move is not None and isinstance(colors, tuple):
        source = getattr(marks.move, "source", None)
        marks.source_items(source, colors, "offending", code)


def _mark_marker(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """MARKER_ALONE (T4): the marker in the centre, or the centre."""
    before = len(marks.found)
    marks.source_items(CENTER, (Marker.MARKER,), "offending", code)
    if len(marks.found) == before:
        marks.source(CENTER, "offending", code)


def _mark_claim(marks: _Marks, code: ErrorCode, params: Mapping[str, object]) -> None:
    """An audit's wrong figure: the wall tile it scored, the floor, or the board."""
    owner = marks.owner(params)
    reason = params.get("reason")
    if reason == "tile":
        _mark_space(marks, code, params)
    elif reason == "floor":
        marks.floor(owner, "offending", code)
    elif "player" in params:
        marks.board(owner, "offending", code)


E = ErrorCode
_VIOLATION_MARKS: Final[Mapping[ErrorCode, _MarkFn]] = {
    E.PARTIAL_TAKE: _mark_left_behind,
    E.TOO_MANY_TAKEN: _mark_source,
    E.EMPTY_SOURCE: _mark_source,
    E.COLOR_NOT_IN_SOURCE: _mark_source,
    E.FILL_IMPOSSIBLE: _mark_source,
    E.SPLIT_LOT: _mark_lines,
    E.WALL_COLOR_CONFLICT: _mark_row_color,
    E.LINE_COLOR_MISMATCH: _mark_line,
    E.LINE_FULL: _mark_line,
    E.INCOMPLETE_LINE_CLEARED: _mark_line,
    E.FLOOR_WHILE_ROOM: _mark_line_and_floor,
    E.COLUMN_COLOR_CONFLICT: _mark_column_color,
    E.SPACE_OCCUPIED: _mark_space,
    E.NOT_WALL_COLOR_SPACE: _mark_space,
    E.NOT_YOUR_TURN: _mark_turn,
    E.WRONG_PHASE: _mark_phase,
    E.TWO_COLORS: _mark_colors,
    E.MARKER_ALONE: _mark_marker,
    E.DIAGONAL_COUNTED: _mark_claim,
    E.GAP_COUNTED: _mark_claim,
    E.EMPTY_DIRECTION_COUNTED: _mark_claim,
    E.CROSS_COUNTED_ONCE: _mark_claim,
    E.MARKER_PENALTY_FORGOTTEN: _mark_claim,
    E.FLOOR_OVERFLOW_PENALIZED: _mark_claim,
    E.SCORE_BELOW_ZERO: _mark_claim,
    E.SCORE_MISCOUNT: _mark_claim,
    E.BONUS_MISCOUNT: _mark_claim,
    E.GAME_ENDED_EARLY: _mark_claim,
}


def draw_marks(root: ET.Element, marks: Sequence[Mark]) -> None:
    """Outlines on top of everything: dashed green for the move, solid magenta with a
    white halo for what breaks a rule, dotted for what was expected, orange for tiles
    a tiling placed."""
    group = el(root, "g", "highlights")
    for mark in marks:
        role = mark.role.split()[0]
        color = MARK_COLORS[role]
        small = isinstance(mark.shape, Rect) and mark.shape.w < 30  # one tile
        if _MARK_DASHES[role] is None:
            _outline(group, mark.shape, "halo", stroke="#ffffff", stroke_width=5 if small else 7)
        width = 2.5 if small else 3.5
        node = _outline(
            group, mark.shape, f"highlight {mark.role}", stroke=color, stroke_width=width
        )
        dashes = _MARK_DASHES[role]
        if dashes is not None:
            node.set("stroke-dasharray", dashes)
        if mark.code is not None:
            node.set("data-code", mark.code.value)


def _outline(parent: ET.Element, shape: Rect | Circle, cls: str, **attrs: object) -> ET.Element:
    if isinstance(shape, Circle):
        return circle(parent, shape, cls, fill="none", **attrs)
    return rect(parent, shape, cls, rx=5, fill="none", **attrs)
