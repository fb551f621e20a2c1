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
_BOARD_W: Final = 285
_BOARD_H: Final = 208
_GAP: Final = 10
_STEP: Final = 25  # a board's spaces
_TILE: Final = 22
_LINES_X: Final = 20
_ROWS_Y: Final = 30
_WALL_X: Final = 153
_FLOOR_Y: Final = 164
NOTES_WIDTH: Final = WIDTH - 2 * MARGIN - 20


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

    def __init__(self, state: Position, order: tuple[int, ...], notes_height: float) -> None:
        self.state = state
        self.order = order
        self.ring = _ring_radius(len(state.factories))
        self.table = 2 * (self.ring + FACTORY_R + 18)
        self.cx = MARGIN + self.table / 2
        self.cy = HEADER_H + self.table / 2
        self.notes_y = HEADER_H + self.table + 4
        boards_y = self.notes_y + notes_height + 6
        self.origins = {
            seat: (
                MARGIN + (slot % 2) * (_BOARD_W + _GAP),
                boards_y + (slot // 2) * (_BOARD_H + _GAP),
            )
            for slot, seat in enumerate(order)
        }
        self.height = boards_y + (len(order) + 1) // 2 * (_BOARD_H + _GAP)

    # the table
    def factory(self, index: int) -> Circle:
        angle = -math.pi / 2 + 2 * math.pi * index / max(1, len(self.state.factories))
        return Circle(
            self.cx + self.ring * math.cos(angle), self.cy + self.ring * math.sin(angle), FACTORY_R
        )

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
        if source == CENTER:
            area = self.center()
            boxes = _grid(len(items), (area.cx, area.cy - 6), area.r - 14, 21, side=1)
        else:
            disc = self.factory(source)
            boxes = _grid(len(items), (disc.cx, disc.cy), disc.r - 1, 25, side=2)
        return list(zip(items, boxes, strict=True))

    # the boards
    def board(self, player: int) -> Rect:
        x, y = self.origins[player]
        return Rect(x, y, _BOARD_W, _BOARD_H)

    def _space(self, player: int, x: float, y: float) -> Rect:
        bx, by = self.origins[player]
        pad = (_STEP - _TILE) / 2
        return Rect(bx + x + pad, by + y + pad, _TILE, _TILE)

    def line_slot(self, player: int, line: int, slot: int) -> Rect:
        """Slot ``slot`` of pattern line ``line``, counted from the right (P5)."""
        return self._space(player, _LINES_X + (4 - slot) * _STEP, _ROWS_Y + line * _STEP)

    def line(self, player: int, line: int) -> Rect:
        left = self.line_slot(player, line, line)
        right = self.line_slot(player, line, 0)
        return Rect(left.x, left.y, right.x + right.w - left.x, left.h)

    def wall(self, player: int, row: int, column: int) -> Rect:
        return self._space(player, _WALL_X + column * _STEP, _ROWS_Y + row * _STEP)

    def floor_slot(self, player: int, slot: int) -> Rect:
        return self._space(player, _LINES_X + slot * _STEP, _FLOOR_Y)

    def floor(self, player: int) -> Rect:
        first, last = self.floor_slot(player, 0), self.floor_slot(player, len(FLOOR_PENALTIES) - 1)
        return Rect(first.x, first.y, last.x + last.w - first.x, first.h)

    def held_marker(self, player: int) -> Rect:
        bx, by = self.origins[player]
        return Rect(bx + 186, by + 5, 17, 17)
