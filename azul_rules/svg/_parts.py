"""The pieces and the layout of :mod:`azul_rules.svg` pictures: colours and glyphs,
tiles, the marker, wall spaces, and where each part of the table is drawn.

Private: ``azul_rules.svg`` is the public entry point.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Final, NamedTuple

from azul_rules.core.colors import CENTER, FLOOR_PENALTIES, Color, Marker, wall_color
from azul_rules.core.errors import Result
from azul_rules.core.moves import Move
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.position import Position
from azul_rules.core.scoring import RoundScoring

WIDTH: Final = 600
"""The picture's natural width, in px (user units); ``size`` scales it."""


class Verdict(NamedTuple):
    """What a picture marks: a move, a verdict, a round's wall tiling."""

    move: Move | None = None
    result: Result | None = None
    scoring: RoundScoring | None = None
    audit: Audit | None = None


class Audit(NamedTuple):
    """``board(highlight=Audit(result, scores))``: the verdict of an audit of the wall
    tiling that follows the position (``azul_rules.audit``), and the scores the players
    claimed (``None`` when the claim named none).  The picture is headed "Audit" with
    what was claimed, not with a move's verdict nor the player to move."""

    result: Result
    scores: tuple[int, ...] | None = None


# -- colours and pieces ------------------------------------------------------------------

PAPER: Final = "#fffdf8"
INK: Final = "#222222"
# Each colour: its fill, its edge, and the ink of its glyph.
_PALETTE: Final[Mapping[Color, tuple[str, str, str]]] = {
    Color.BLUE: ("#2a6fdb", "#163f80", "#ffffff"),
    Color.YELLOW: ("#f5c518", "#9c7800", "#4d3b00"),
    Color.RED: ("#d93025", "#7f1610", "#ffffff"),
    Color.BLACK: ("#2b2b2b", "#000000", "#ffffff"),
    Color.WHITE: ("#f4f1ea", "#8c8c8c", "#4a4a4a"),
}
# The printed spaces of the coloured wall: a pale tint and a faint glyph.
_TINTS: Final[Mapping[Color, str]] = {
    Color.BLUE: "#c6d9f6",
    Color.YELLOW: "#fcedb5",
    Color.RED: "#f4c7c3",
    Color.BLACK: "#c4c4c4",
    Color.WHITE: "#fbfaf6",
}
# Glyphs drawn in a 20-unit tile, inside the central [4.5, 15.5] square.
_GLYPHS: Final[Mapping[Color, str]] = {
    Color.BLUE: "M10 4.5L15.5 10L10 15.5L4.5 10Z",
    Color.YELLOW: "M15 10A5 5 0 1 1 5 10A5 5 0 1 1 15 10Z",
    Color.RED: "M5.5 5.5L14.5 14.5M14.5 5.5L5.5 14.5",
    Color.BLACK: "M5 6.5H15M5 10H15M5 13.5H15",
    Color.WHITE: "M10 4.5V15.5M4.5 10H15.5",
}
FONT: Final = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


class Rect(NamedTuple):
    """A box, in user units (px at the natural size)."""

    x: float
    y: float
    w: float
    h: float

    def grown(self, by: float) -> Rect:
        """The box with ``by`` more on every side (less when negative)."""
        return Rect(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)


class Circle(NamedTuple):
    """A disc: a factory, the centre."""

    cx: float
    cy: float
    r: float


def num(value: float) -> str:
    """A coordinate as written: at most two decimals, no trailing zeros."""
    return f"{round(value, 2):g}"


def el(parent: ET.Element, tag: str, cls: str | None = None, **attrs: object) -> ET.Element:
    """A child element; ``stroke_width="2"`` is written ``stroke-width="2"``."""
    node = ET.SubElement(parent, tag)
    if cls:
        node.set("class", cls)
    for name, value in attrs.items():
        text = num(value) if isinstance(value, float) else str(value)
        node.set(name.rstrip("_").replace("_", "-"), text)
    return node


def rect(parent: ET.Element, box: Rect, cls: str, **attrs: object) -> ET.Element:
    """A ``<rect>`` filling ``box``."""
    x, y, w, h = (float(v) for v in box)
    return el(parent, "rect", cls, x=x, y=y, width=w, height=h, **attrs)


def circle(parent: ET.Element, shape: Circle, cls: str, **attrs: object) -> ET.Element:
    """A ``<circle>``."""
    cx, cy, r = (float(v) for v in shape)
    return el(parent, "circle", cls, cx=cx, cy=cy, r=r, **attrs)


def write(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    cls: str,
    *,
    font_size: float = 12,
    anchor: str = "start",
    bold: bool = False,
) -> ET.Element:
    """A line of text at ``(x, y)`` (its baseline)."""
    node = el(
        parent,
        "text",
        cls,
        x=float(x),
        y=float(y),
        font_size=float(font_size),
        fill=INK,
        text_anchor=anchor,
    )
    if bold:
        node.set("font-weight", "bold")
    node.text = text
    return node


def _piece(parent: ET.Element, box: Rect, cls: str) -> ET.Element:
    """A group drawn in a 20-unit square, moved and scaled onto ``box``."""
    return el(
        parent, "g", cls, transform=f"translate({num(box.x)},{num(box.y)}) scale({num(box.w / 20)})"
    )


def _face(group: ET.Element, fill: str, stroke: str, **attrs: object) -> None:
    """A piece's square face, in its 20-unit box."""
    el(group, "rect", "face", x=0.5, y=0.5, width=19, height=19, fill=fill, stroke=stroke, **attrs)


def _glyph(group: ET.Element, color: Color, ink: str, **attrs: object) -> None:
    """A colour's glyph, in its 20-unit box."""
    el(group, "path", "glyph", d=_GLYPHS[color], fill="none", stroke=ink, **attrs)


def draw_tile(parent: ET.Element, color: Color, box: Rect, kind: str = "tile") -> ET.Element:
    """A tile: its fill, its edge, and its colour's glyph (for black-and-white prints)."""
    fill, edge, ink = _PALETTE[color]
    group = _piece(parent, box, f"{kind} {color.name.lower()}")
    _face(group, fill, edge, rx=3)
    _glyph(group, color, ink, stroke_width=1.6, stroke_linecap="round")
    return group


def draw_marker(parent: ET.Element, box: Rect, cls: str = "marker") -> ET.Element:
    """The starting player marker: a white token with a bold 1."""
    group = _piece(parent, box, cls)
    _face(group, "#ffffff", INK, rx=5, stroke_width=1.5)
    one = el(group, "text", "glyph", x=10, y=15, font_size=14, font_weight="bold", fill=INK)
    one.set("text-anchor", "middle")
    one.text = "1"
    return group


def draw_wall_space(parent: ET.Element, variant: Variant, row: int, column: int, box: Rect) -> None:
    """An empty space of the wall: the coloured wall shows its printed colour (S5), the
    grey wall nothing (V1)."""
    if variant is Variant.GREY:
        where = {"data_row": row, "data_column": column}
        rect(parent, box, "wall-space", rx=3, fill="#d6d6d6", stroke="#9a9a9a", **where)
        return
    color = wall_color(row, column)
    group = _piece(parent, box, f"wall-space space-{color.name.lower()}")
    group.set("data-row", str(row))
    group.set("data-column", str(column))
    edge = _PALETTE[color][1]
    _face(group, _TINTS[color], edge, rx=3, stroke_opacity=0.5)
    _glyph(group, color, edge, stroke_opacity=0.45, stroke_width=1.2)


# -- layout ----------------------------------------------------------------------------

MARGIN: Final = 10
HEADER_H: Final = 50
FACTORY_R: Final = 34
_GAP: Final = 10
NOTES_WIDTH: Final = WIDTH - 2 * MARGIN - 20
LAYOUTS: Final = ("wide", "narrow")
"""The arrangements :func:`~azul_rules.svg.board` draws: ``wide`` (the table beside its
information, the boards two by two, 600 wide) or ``narrow`` (one column, 312 wide, for a
phone: larger tiles, no word under 12)."""
NARROW_WIDTH: Final = 312
NARROW_MARGIN: Final = 5
NARROW_FONT: Final = 12  # the smallest text of the narrow picture
_NARROW_FACTORY_R: Final = 44
_NARROW_STEP: Final = 30  # the table's spaces in the narrow picture: 24-unit tiles


class BoardGeometry(NamedTuple):
    """Where a board's parts lie, from its top left corner, in user units."""

    width: float
    height: float
    step: float  # from one space to the next
    tile: float  # a space's side
    lines_x: float
    rows_y: float
    wall_x: float
    floor_y: float
    held: Rect  # the marker held off the floor


_WIDE_BOARD: Final = BoardGeometry(285, 208, 25, 22, 20, 30, 153, 164, Rect(186, 5, 17, 17))
_NARROW_BOARD: Final = BoardGeometry(302, 218, 27, 24, 22, 30, 163, 173, Rect(184, 4, 20, 20))


def _ring_radius(factories: int) -> float:
    """Factories sit on a ring, far enough apart for their discs and labels."""
    if factories < 3:
        return 100.0
    return max(100.0, (2 * FACTORY_R + 22) / (2 * math.sin(math.pi / factories)))


def _grid(
    count: int, middle: tuple[float, float], radius: float, max_step: float, *, side: int
) -> list[Rect]:
    """``count`` square spaces in a grid of at least ``side`` by ``side``, centred on
    ``middle`` and inside ``radius``; a tile takes 80 % of its step."""
    if count <= 0:
        return []
    columns = max(side, math.ceil(math.sqrt(count)))
    rows = max(side, math.ceil(count / columns))
    step = min(max_step, 2 * radius / math.hypot(columns, rows))
    size = step * 0.8
    x0 = middle[0] - columns * step / 2 + (step - size) / 2
    y0 = middle[1] - rows * step / 2 + (step - size) / 2
    return [
        Rect(x0 + (k % columns) * step, y0 + (k // columns) * step, size, size)
        for k in range(count)
    ]


Item = Color | Marker


def source_items(state: Position, source: int) -> tuple[Item, ...]:
    """What a source shows, in drawing order: the marker first in the centre."""
    if source == CENTER:
        marker: tuple[Item, ...] = (Marker.MARKER,) if marker_in_center(state) else ()
        return marker + state.center
    if 0 <= source < len(state.factories):
        return state.factories[source]
    return ()


def marker_in_center(state: Position) -> bool:
    """T3: the marker lies in the centre until someone takes from there (it stays there
    through a grey tiling if nobody did)."""
    return state.phase in (Phase.FACTORY_OFFER, Phase.WALL_TILING) and state.marker_holder is None


def marker_held_by(state: Position) -> int | None:
    """The player holding the marker off the floor: after the floor (W5, waiting for the
    refill), or when a full floor had no space for it (F4)."""
    if state.phase is Phase.REFILL:
        return state.current_player
    holder = state.marker_holder
    if holder is None or state.phase is Phase.GAME_OVER or not 0 <= holder < len(state.players):
        return None
    return None if Marker.MARKER in state.players[holder].floor else holder


class Layout:
    """Where everything goes: the header, the ring of factories around the centre, the
    information panel beside them, the verdict's text, then the boards two by two."""

    narrow = False
    width: float = WIDTH
    margin: float = MARGIN
    geometry = _WIDE_BOARD
    header_h: float = HEADER_H

    def __init__(self, state: Position, order: tuple[int, ...], notes_height: float) -> None:
        self.state = state
        self.order = order
        self.ring = _ring_radius(len(state.factories))
        self.table = 2 * (self.ring + FACTORY_R + 18)
        self.cx = MARGIN + self.table / 2
        self.cy = HEADER_H + self.table / 2
        self.notes_y = HEADER_H + self.table + 4
        boards_y = self.notes_y + notes_height + 6
        board = self.geometry
        self.origins = {
            seat: (
                MARGIN + (slot % 2) * (board.width + _GAP),
                boards_y + (slot // 2) * (board.height + _GAP),
            )
            for slot, seat in enumerate(order)
        }
        self.height = boards_y + (len(order) + 1) // 2 * (board.height + _GAP)
        self.info = Rect(MARGIN + self.table + 10, HEADER_H, 0, 0)

    def font(self, size: float) -> float:
        """A text's size: as asked, or the narrow picture's smallest."""
        return size

    # the table
    def factory(self, index: int) -> Circle:
        angle = -math.pi / 2 + 2 * math.pi * index / max(1, len(self.state.factories))
        return Circle(
            self.cx + self.ring * math.cos(angle), self.cy + self.ring * math.sin(angle), FACTORY_R
        )

    def factory_label(self, index: int) -> tuple[float, float]:
        """Where a factory's number is written (its baseline's middle): outside the disc,
        away from the centre."""
        disc = self.factory(index)
        dx, dy = disc.cx - self.cx, disc.cy - self.cy
        reach = (self.ring + FACTORY_R + 13) / self.ring
        return self.cx + dx * reach, self.cy + dy * reach + 4

    def center(self) -> Circle:
        return Circle(self.cx, self.cy, self.ring - FACTORY_R - 6)

    def source(self, source: int) -> Circle | None:
        if source == CENTER:
            return self.center()
        return self.factory(source) if 0 <= source < len(self.state.factories) else None

    def source_boxes(self, source: int) -> list[tuple[Item, Rect]]:
        """Each item of a source with the box it is drawn in (none for a source that
        is not on the table)."""
        if source != CENTER and not 0 <= source < len(self.state.factories):
            return []
        items = source_items(self.state, source)
        center_step, factory_step = self._table_steps()
        if source == CENTER:
            area = self.center()
            boxes = _grid(len(items), (area.cx, area.cy - 6), area.r - 14, center_step, side=1)
        else:
            disc = self.factory(source)
            boxes = _grid(len(items), (disc.cx, disc.cy), disc.r - 1, factory_step, side=2)
        return list(zip(items, boxes, strict=True))

    def _table_steps(self) -> tuple[float, float]:
        """The largest step of the centre's grid, and of a factory's."""
        return 21, 25

    # the boards
    def board(self, player: int) -> Rect:
        x, y = self.origins[player]
        return Rect(x, y, self.geometry.width, self.geometry.height)

    def _space(self, player: int, x: float, y: float) -> Rect:
        bx, by = self.origins[player]
        size = self.geometry.tile
        pad = (self.geometry.step - size) / 2
        return Rect(bx + x + pad, by + y + pad, size, size)

    def line_slot(self, player: int, line: int, slot: int) -> Rect:
        """Slot ``slot`` of pattern line ``line``, counted from the right (P5)."""
        g = self.geometry
        return self._space(player, g.lines_x + (4 - slot) * g.step, g.rows_y + line * g.step)

    def line(self, player: int, line: int) -> Rect:
        left = self.line_slot(player, line, line)
        right = self.line_slot(player, line, 0)
        return Rect(left.x, left.y, right.x + right.w - left.x, left.h)

    def wall(self, player: int, row: int, column: int) -> Rect:
        g = self.geometry
        return self._space(player, g.wall_x + column * g.step, g.rows_y + row * g.step)

    def floor_slot(self, player: int, slot: int) -> Rect:
        g = self.geometry
        return self._space(player, g.lines_x + slot * g.step, g.floor_y)

    def floor(self, player: int) -> Rect:
        first, last = self.floor_slot(player, 0), self.floor_slot(player, len(FLOOR_PENALTIES) - 1)
        return Rect(first.x, first.y, last.x + last.w - first.x, first.h)

    def held_marker(self, player: int) -> Rect:
        bx, by = self.origins[player]
        held = self.geometry.held
        return Rect(bx + held.x, by + held.y, held.w, held.h)


class NarrowLayout(Layout):
    """The picture for a phone, in one column 312 wide: the header (its lines wrapped),
    the factories three a row, the centre under them, the information, the verdict's
    text, then the boards one under the other.  Every tile, line space and wall space
    is 24 units (a 22.8-unit face) and no word under 12 units, so that at 330 px or more
    wide a finger finds each (WCAG 2.5.8's 24 px) and an eye reads it."""

    narrow = True
    width = NARROW_WIDTH
    margin = NARROW_MARGIN
    geometry = _NARROW_BOARD

    def __init__(
        self,
        state: Position,
        order: tuple[int, ...],
        notes_height: float,
        *,
        header_h: float,
        info_h: float,
    ) -> None:
        self.state = state
        self.order = order
        self.header_h = header_h
        inner = self.width - 2 * NARROW_MARGIN
        self.cell = inner / 3
        rows = math.ceil(len(state.factories) / 3)
        self.factories_y = header_h + 2
        center_y = self.factories_y + rows * (2 * _NARROW_FACTORY_R + 8)
        radius = self._center_radius()
        self.cx = self.width / 2
        self.cy = center_y + radius
        self.radius = radius
        self.info = Rect(NARROW_MARGIN + 5, center_y + 2 * radius + 4, inner - 10, info_h)
        self.notes_y = self.info.y + info_h + 4
        boards_y = self.notes_y + notes_height + 6
        step = self.geometry.height + _GAP
        self.origins = {
            seat: (NARROW_MARGIN, boards_y + slot * step) for slot, seat in enumerate(order)
        }
        self.height = boards_y + len(order) * step
        self.ring = 0.0
        self.table = inner

    def font(self, size: float) -> float:
        return max(size, NARROW_FONT)

    def _center_radius(self) -> float:
        """The centre's disc: its tiles' grid at full step, and room for its word."""
        count = len(source_items(self.state, CENTER))
        columns = max(1, math.ceil(math.sqrt(count)))
        rows = max(1, math.ceil(count / columns))
        reach = _NARROW_STEP * math.hypot(columns, rows) / 2 + 0.5
        return max(60.0, reach + 14 + 6)

    def factory(self, index: int) -> Circle:
        """Three a row, in rows from the top, the last row centred."""
        count = len(self.state.factories)
        row, column = divmod(index, 3)
        in_row = min(3, count - 3 * row)
        left = NARROW_MARGIN + (3 - in_row) * self.cell / 2
        cy = self.factories_y + row * (2 * _NARROW_FACTORY_R + 8) + _NARROW_FACTORY_R + 4
        return Circle(left + (column + 0.5) * self.cell, cy, _NARROW_FACTORY_R)

    def factory_label(self, index: int) -> tuple[float, float]:
        """At the disc's top left, outside it."""
        disc = self.factory(index)
        return disc.cx - disc.r + 2, disc.cy - disc.r + 10

    def center(self) -> Circle:
        return Circle(self.cx, self.cy, self.radius)

    def _table_steps(self) -> tuple[float, float]:
        return _NARROW_STEP, _NARROW_STEP
