"""Pictures of positions: :func:`board` draws the whole table as an SVG document.

Standard library only (``xml.etree``).  The picture is self-contained (no script, no
external font, image or reference), legible at 600 px wide and printable in black and
white: every colour has its own glyph besides its fill (blue a diamond, yellow a ring,
red a cross, black three bars, white a plus).  Every element carries CSS classes
(``tile blue``, ``factory``, ``center``, ``pattern-line``, ``wall-space``,
``floor-space``, ``marker``, ``highlight``...) and styles only through presentation
attributes, so an application's stylesheet restyles it.  ``docs/pictures.md`` documents
every class and what ``highlight`` marks.

>>> import azul_rules as az
>>> from azul_rules.svg import board
>>> picture = board(az.new_game(2, seed=1))
>>> picture.startswith("<svg") and picture.count('class="tile ') == 20
True

Layer: pictures.  May import ``azul_rules.formats`` and ``azul_rules.core`` (and the
standard library); the AI adapters, the web judge and the command line draw with it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Final

from azul_rules.core.board import PlayerBoard
from azul_rules.core.colors import CENTER, FLOOR_PENALTIES, Color
from azul_rules.core.errors import FormatError, Result
from azul_rules.core.messages import LANGUAGES, color_name, phase_name
from azul_rules.core.moves import Move, PlaceTile, Refill, TableTake, Take
from azul_rules.core.phases import Variant
from azul_rules.core.position import Position
from azul_rules.core.render import render_state
from azul_rules.core.rules import validate
from azul_rules.core.scoring import RoundScoring, floor_penalty
from azul_rules.core.shown import shown
from azul_rules.svg._checks import checked_result, checked_scoring
from azul_rules.svg._marks import MARK_COLORS, collect_marks, draw_marks
from azul_rules.svg._parts import (
    FONT,
    INK,
    LAYOUTS,
    MARGIN,
    NARROW_FONT,
    NARROW_MARGIN,
    NARROW_WIDTH,
    PAPER,
    WIDTH,
    Audit,
    Item,
    Layout,
    NarrowLayout,
    Rect,
    Verdict,
    circle,
    draw_marker,
    draw_tile,
    draw_wall_space,
    el,
    marker_held_by,
    num,
    rect,
    write,
)
from azul_rules.svg._words import (
    NOTE_SIZE,
    NOTE_STEP,
    Note,
    notes_height,
    result_text,
    subtitle_of,
    title_of,
    verdict_notes,
    word,
    wrap,
)

__all__ = ["WIDTH", "Audit", "Highlight", "Svg", "board"]

Highlight = Move | Result | RoundScoring | tuple[Move, Result] | Audit
"""What ``board(highlight=...)`` accepts: a move (judged in the position), a verdict, an
:class:`Audit`,
both as ``(move, result)``, or a round's wall tiling (``state.last_scoring``)."""


class Svg(str):
    """A complete SVG document; a ``str`` that Jupyter and IPython display as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def board(
    state: Position,
    *,
    player: int | None = None,
    highlight: Highlight | None = None,
    lang: str = "en",
    size: int | None = None,
    layout: str = "wide",
) -> Svg:
    """The whole table of ``state`` as an SVG document.

    ``player`` (0-based) draws the boards from that player's seat: their board first,
    framed, then the others clockwise (G2).  ``highlight`` marks a move (its source, the
    tiles taken, its target line or wall space) and its verdict (the offending place of
    each violation, the verdict's text under the table); a ``Result`` alone marks its
    violations; a ``RoundScoring`` marks the tiles that tiling placed.  ``lang`` is
    ``"en"``, ``"fr"`` or any language of the catalogues (:mod:`azul_rules.text`);
    ``size`` the width in px (the height follows).  ``layout`` is ``"wide"`` (the table
    beside its information, the boards two by two, 600 units wide) or ``"narrow"`` (for a
    phone: one column 312 units wide, the factories three a row over the centre, the
    boards one under the other, 24-unit tiles and spaces, no word under 12 units).

    :raises ValueError: for a player out of range, an unknown language or layout, or a
        size below 1 or above 100,000 (``MAX_SIZE``).
    :raises FormatError: for arguments of the wrong type, a ``Result`` or
        ``RoundScoring`` built by hand with fields of other types among them (or
        violations whose params their messages cannot be worded from).
    """
    _check_arguments(state, player, lang, size)
    _check_layout(layout)
    verdict = _verdict_of(state, highlight, lang)
    notes = verdict_notes(verdict, lang)
    order = _seat_order(len(state.players), player)
    audited = verdict.audit is not None
    if layout == "narrow":
        places: Layout = NarrowLayout(
            state,
            order,
            notes_height(notes, NARROW_WIDTH - 2 * NARROW_MARGIN - 20),
            header_h=_header_height(state, lang, audited),
            info_h=_info_height(state, lang),
        )
    else:
        places = Layout(state, order, notes_height(notes))
    return _drawn(state, places, verdict, notes, player, lang, size)


def _drawn(
    state: Position,
    layout: Layout,
    verdict: Verdict,
    notes: Sequence[Note],
    player: int | None,
    lang: str,
    size: int | None,
) -> Svg:
    root = _root(layout, size)
    ET.SubElement(root, "title").text = title_of(state, lang, audited=verdict.audit is not None)
    ET.SubElement(root, "desc").text = "\n".join(
        [render_state(state, lang)] + [t for _, t in notes]
    )
    rect(root, Rect(0, 0, layout.width, layout.height), "background", fill=PAPER)
    _draw_header(root, state, layout, lang, audited=verdict.audit is not None)
    _draw_table(root, state, layout, lang)
    _draw_info(root, state, layout, lang)
    _draw_notes(root, notes, layout, verdict)
    _draw_boards(root, state, layout, player, lang)
    draw_marks(root, collect_marks(state, layout, verdict))
    return Svg(ET.tostring(root, encoding="unicode"))


# -- arguments -----------------------------------------------------------------------


def _check_arguments(state: object, player: object, lang: object, size: object) -> None:
    if not isinstance(state, Position):
        raise FormatError(f"board() draws a GameState, not {type(state).__name__}")
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {shown(lang)}: choose one of {', '.join(LANGUAGES)}")
    if player is not None:
        if type(player) is not int:
            raise FormatError(f"player must be an int (0-based) or None, got {shown(player)}")
        if not 0 <= player < len(state.players):
            raise ValueError(
                f"player must be 0 to {len(state.players) - 1} (0-based), not {shown(player)}"
            )
    if size is not None:
        if type(size) is not int:
            raise FormatError(f"size must be an int (px) or None, got {shown(size)}")
        if size < 1:
            raise ValueError(f"size must be at least 1 px, not {shown(size)}")
        if size > MAX_SIZE:
            raise ValueError(f"size must be at most {MAX_SIZE} px, not {shown(size)}")


def _check_layout(layout: object) -> None:
    if type(layout) is not str:
        raise FormatError(f"layout must be a str, one of {', '.join(LAYOUTS)}, not {shown(layout)}")
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {shown(layout)}: choose one of {', '.join(LAYOUTS)}")


MAX_SIZE: Final = 100_000
"""The widest picture :func:`board` draws, in px (a float width must stay exact)."""


_MOVES: Final = (Take, TableTake, PlaceTile, Refill)


def _verdict_of(state: Position, highlight: object, lang: str) -> Verdict:
    """What ``highlight`` asks to mark; a move alone is judged in ``state``.  A
    ``Result`` or ``RoundScoring`` built by hand is checked (``_svg_checks``)."""
    if highlight is None:
        return Verdict()
    if isinstance(highlight, Audit):
        scores = highlight.scores
        if scores is not None and not all(type(n) is int for n in scores):
            raise FormatError(f"an Audit's scores are ints, not {shown(scores)}")
        return Verdict(audit=Audit(checked_result(highlight.result, lang), scores))
    if isinstance(highlight, Result):
        return Verdict(result=checked_result(highlight, lang))
    if isinstance(highlight, RoundScoring):
        return Verdict(scoring=checked_scoring(highlight))
    if isinstance(highlight, _MOVES):
        return Verdict(highlight, validate(state, highlight))
    if isinstance(highlight, tuple) and len(highlight) == 2:
        move, result = highlight
        if isinstance(move, _MOVES) and isinstance(result, Result):
            return Verdict(move, checked_result(result, lang))
    raise FormatError(
        "highlight must be a move (Take, TableTake, PlaceTile, Refill), a Result, "
        f"(move, result) or a RoundScoring, not {shown(highlight)}"
    )


def _seat_order(players: int, player: int | None) -> tuple[int, ...]:
    """The boards in drawing order: seat order, or from ``player``'s seat clockwise."""
    first = player or 0
    return tuple((first + k) % players for k in range(players))


def _root(layout: Layout, size: int | None) -> ET.Element:
    width = float(size if size is not None else layout.width)
    return ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "class": "azul",
            "role": "img",
            "viewBox": f"0 0 {num(layout.width)} {num(layout.height)}",
            "width": num(width),
            "height": num(width * layout.height / layout.width),
            "font-family": FONT,
        },
    )


# -- drawing ---------------------------------------------------------------------------


def _draw_header(
    root: ET.Element, state: Position, layout: Layout, lang: str, *, audited: bool = False
) -> None:
    """The round and phase, then the players and whose turn it is -- or, for an audit,
    that the factory offer has ended and its tiling is audited (no one is to move)."""
    group = el(root, "g", "header")
    title, subtitle = _header_lines(state, lang, audited, narrow=layout.narrow)
    x = MARGIN if not layout.narrow else NARROW_MARGIN + 5
    y = 22.0
    for k, part in enumerate(title):
        y += 20 if k else 0
        write(group, x, y, part, "title", font_size=17, bold=True)
    for k, part in enumerate(subtitle):
        y += 15 if k else 19
        write(group, x, y, part, "subtitle", font_size=12)


def _header_lines(
    state: Position, lang: str, audited: bool, *, narrow: bool
) -> tuple[list[str], list[str]]:
    """The header's title and subtitle, in lines (wrapped in the narrow picture only)."""
    title = word("title", lang, round=state.round, phase=phase_name(state.phase.value, lang))
    subtitle = word("audit_subtitle", lang) if audited else subtitle_of(state, lang)
    if not narrow:
        return [title], [subtitle]
    width = NARROW_WIDTH - 2 * NARROW_MARGIN - 10
    return wrap(title, width, 17 * 1.1), wrap(subtitle, width, 12)


def _header_height(state: Position, lang: str, audited: bool) -> float:
    """The narrow picture's header: its lines, and room under the last."""
    title, subtitle = _header_lines(state, lang, audited, narrow=True)
    return 22 + 20 * (len(title) - 1) + 19 + 15 * (len(subtitle) - 1) + 9


def _draw_table(root: ET.Element, state: Position, layout: Layout, lang: str) -> None:
    table = el(root, "g", "table")
    for index in range(len(state.factories)):
        group = el(table, "g", "factory", data_index=index)
        disc = layout.factory(index)
        circle(group, disc, "factory-disc", fill="#f1ece2", stroke="#8a8170", stroke_width=1.5)
        _factory_label(group, layout, index)
        _draw_items(group, layout.source_boxes(index))
    group = el(table, "g", "center")
    area = layout.center()
    circle(group, area, "center-area", fill="none", stroke="#b5ad9c", stroke_dasharray="4 3")
    centre = word("centre", lang)
    write(
        group,
        area.cx,
        area.cy + area.r - 8,
        centre,
        "label",
        font_size=layout.font(11),
        anchor="middle",
    )
    _draw_items(group, layout.source_boxes(CENTER))


def _factory_label(group: ET.Element, layout: Layout, index: int) -> None:
    x, y = layout.factory_label(index)
    write(
        group,
        x,
        y,
        str(index + 1),
        "label",
        font_size=layout.font(11),
        anchor="middle",
        bold=True,
    )


def _draw_items(group: ET.Element, boxes: Sequence[tuple[Item, Rect]]) -> None:
    for item, box in boxes:
        if isinstance(item, Color):
            draw_tile(group, item, box)
        else:
            draw_marker(group, box)


def _draw_info(root: ET.Element, state: Position, layout: Layout, lang: str) -> None:
    """Beside the table: the round, the phase, the turn or the result, bag, lid, legend."""
    group = el(root, "g", "info")
    x = layout.info.x
    width = layout.info.w if layout.narrow else WIDTH - MARGIN - x
    y = layout.info.y + 22
    write(group, x, y, word("round", lang, round=state.round), "round", font_size=15, bold=True)
    for cls, text in _info_lines(state, lang):
        for part in wrap(text, width, 12):
            y += 18
            write(group, x, y, part, cls)
    if layout.narrow:
        _draw_narrow_legend(group, x, y + 16, width, lang)
    else:
        _draw_legend(group, x, y + 16, lang)


def _info_lines(state: Position, lang: str) -> list[tuple[str, str]]:
    """The information's lines under the round: the phase, the turn or the result, the
    bag and the lid."""
    phase = phase_name(state.phase.value, lang)
    lines = [("phase", phase[:1].upper() + phase[1:])]
    if state.outcome is not None:
        result = result_text(state, lang)
        lines.append(("result", result[:1].upper() + result[1:]))
    else:
        turn = word("to_move", lang, player=state.current_player + 1)
        lines.append(("turn", turn[:1].upper() + turn[1:]))
    lines.append(("bag", word("bag", lang, count=len(state.bag))))
    lines.append(("lid", word("lid", lang, count=len(state.lid))))
    return lines


def _info_height(state: Position, lang: str) -> float:
    """The narrow picture's information: its lines, then the legend in two columns."""
    width = NARROW_WIDTH - 2 * NARROW_MARGIN - 10
    lines = sum(len(wrap(text, width, 12)) for _, text in _info_lines(state, lang))
    marker = 14 * (len(_marker_words(lang, width)) - 1)
    return 22 + 18 * lines + 16 + 3 * _NARROW_LEGEND_STEP + marker + 2


_LEGEND_STEP: Final = 19


def _draw_legend(parent: ET.Element, x: float, y: float, lang: str) -> None:
    group = el(parent, "g", "legend")
    for color in Color:
        draw_tile(group, color, Rect(x, y, 15, 15), kind="swatch")
        write(group, x + 21, y + 12, color_name(color, lang), "legend-text", font_size=11)
        y += _LEGEND_STEP
    draw_marker(group, Rect(x, y, 15, 15), "swatch swatch-marker")
    write(group, x + 21, y + 12, word("marker", lang), "legend-text", font_size=11)


def _draw_narrow_legend(parent: ET.Element, x: float, y: float, width: float, lang: str) -> None:
    """The legend of the narrow picture: the colours and the marker in two columns of
    three, its swatches larger (the marker's 1 is a word too) and its words at 12."""
    group = el(parent, "g", "legend")
    column = width / 2
    for k, color in enumerate(Color):
        left, top = x + (k // 3) * column, y + (k % 3) * _NARROW_LEGEND_STEP
        draw_tile(group, color, Rect(left, top, 18, 18), kind="swatch")
        name = color_name(color, lang)
        write(group, left + 24, top + 14, name, "legend-text", font_size=NARROW_FONT)
    left, top = x + column, y + 2 * _NARROW_LEGEND_STEP
    draw_marker(group, Rect(left, top, 18, 18), "swatch swatch-marker")
    for k, part in enumerate(_marker_words(lang, width)):
        write(group, left + 24, top + 14 + 14 * k, part, "legend-text", font_size=NARROW_FONT)


_NARROW_LEGEND_STEP: Final = 22


def _marker_words(lang: str, width: float) -> list[str]:
    """The marker's name in the narrow legend, in lines half ``width`` wide."""
    return wrap(word("marker", lang), width / 2 - 24, NARROW_FONT)


def _draw_notes(root: ET.Element, notes: Sequence[Note], layout: Layout, verdict: Verdict) -> None:
    """The verdict (or the tiling) in words, under the table."""
    if not notes:
        return
    kind = (
        "audit" if verdict.audit is not None
        else "tiling" if verdict.result is None
        else "legal" if verdict.result.ok else "illegal"
    )  # fmt: skip
    group = el(root, "g", f"verdict {kind}")
    width = layout.width - 2 * layout.margin
    box = Rect(layout.margin, layout.notes_y, width, notes_height(notes, width - 20) - 4)
    rect(
        group,
        box,
        "verdict-box",
        rx=6,
        fill="#ffffff",
        stroke=MARK_COLORS[
            "offending" if kind == "illegal" or (verdict.audit and not verdict.audit.result.ok)
            else "source"
        ],
        stroke_width=1.5,
    )
    y = box.y + 4
    for cls, text in notes:
        bold = cls.startswith("verdict-head")
        for part in wrap(text, width - 20, NOTE_SIZE):
            y += NOTE_STEP
            write(group, box.x + 10, y, part, cls, font_size=NOTE_SIZE, bold=bold)


def _draw_boards(
    root: ET.Element, state: Position, layout: Layout, player: int | None, lang: str
) -> None:
    group = el(root, "g", "boards")
    for seat in layout.order:
        _draw_board(group, state, layout, seat, seat == player, lang)


def _board_classes(state: Position, seat: int, selected: bool) -> str:
    classes = ["board"]
    if seat == state.current_player and state.outcome is None:
        classes.append("to-move")
    if state.outcome is not None and seat in state.outcome.winners:
        classes.append("winner")
    if selected:
        classes.append("selected")
    return " ".join(classes)


def _draw_board(
    parent: ET.Element, state: Position, layout: Layout, seat: int, selected: bool, lang: str
) -> None:
    """One player's board: name and score, pattern lines, wall, floor line (S4)."""
    group = el(parent, "g", _board_classes(state, seat, selected), data_player=seat)
    frame = layout.board(seat)
    rect(
        group,
        frame,
        "board-frame",
        rx=6,
        fill="#fbf7ee",
        stroke=INK if selected else "#b9b2a3",
        stroke_width=3 if selected else 1,
    )
    _draw_board_header(group, state, layout, seat, lang)
    board = state.players[seat]
    _draw_pattern_lines(group, board, layout, seat)
    _draw_wall(group, board, state.variant, layout, seat)
    _draw_floor(group, board, layout, seat, lang)


def _draw_board_header(
    group: ET.Element, state: Position, layout: Layout, seat: int, lang: str
) -> None:
    frame = layout.board(seat)
    name = word("player", lang, player=seat + 1)
    if "to-move" in _board_classes(state, seat, False):
        rect(group, Rect(frame.x, frame.y + 8, 5, frame.h - 16), "turn-bar", fill="#1a7f37")
        name += " · " + word("board_to_move", lang)
    if state.outcome is not None and seat in state.outcome.winners:
        name += " · " + word("winner", lang)
    write(group, frame.x + 12, frame.y + 19, name, "player-name", font_size=13, bold=True)
    score = word("score", lang, score=state.players[seat].score)
    write(
        group,
        frame.x + frame.w - 10,
        frame.y + 19,
        score,
        "score",
        font_size=13,
        anchor="end",
        bold=True,
    )
    if marker_held_by(state) == seat:
        draw_marker(group, layout.held_marker(seat), "marker held")


def _draw_pattern_lines(group: ET.Element, board: PlayerBoard, layout: Layout, seat: int) -> None:
    """Pattern lines fill from right to left (P5)."""
    lines = el(group, "g", "pattern-lines")
    for index, line in enumerate(board.pattern_lines):
        row = el(lines, "g", "pattern-line", data_line=index)
        label = layout.line_slot(seat, index, 4)
        write(
            row,
            layout.board(seat).x + 11,
            label.y + label.h / 2 + 4,
            str(index + 1),
            "label",
            font_size=layout.font(10),
            anchor="middle",
        )
        for slot in range(line.capacity):
            rect(
                row,
                layout.line_slot(seat, index, slot),
                "line-space",
                rx=3,
                fill="#ece5d6",
                stroke="#b8ad96",
            )
        if line.color is not None:
            for slot in range(line.count):
                draw_tile(row, line.color, layout.line_slot(seat, index, slot))


def _draw_wall(
    group: ET.Element, board: PlayerBoard, variant: Variant, layout: Layout, seat: int
) -> None:
    wall = el(group, "g", "wall")
    for row in range(5):
        for column in range(5):
            draw_wall_space(wall, variant, row, column, layout.wall(seat, row, column))
    for row, cells in enumerate(board.wall):
        for column, color in enumerate(cells):
            if color is not None:
                tile = draw_tile(wall, color, layout.wall(seat, row, column))
                tile.set("data-row", str(row))
                tile.set("data-column", str(column))


def _draw_floor(
    group: ET.Element, board: PlayerBoard, layout: Layout, seat: int, lang: str
) -> None:
    """The floor line with its printed penalties (F1), filled from the left."""
    floor = el(group, "g", "floor-line")
    for slot, penalty in enumerate(FLOOR_PENALTIES):
        space = el(floor, "g", "floor-space", data_space=slot)
        box = layout.floor_slot(seat, slot)
        rect(space, box, "space", rx=3, fill="#ece5d6", stroke="#b8ad96")
        write(
            space,
            box.x + box.w / 2,
            box.y + box.h + 12,
            f"−{penalty}",
            "penalty",
            font_size=layout.font(10),
            anchor="middle",
        )
    for slot, item in enumerate(board.floor):
        box = layout.floor_slot(seat, slot)
        if isinstance(item, Color):
            draw_tile(floor, item, box)
        else:
            draw_marker(floor, box)
    right = layout.floor(seat)
    x = right.x + right.w + 9
    write(floor, x, right.y + 9, word("floor", lang), "label", font_size=layout.font(11))
    penalty = floor_penalty(len(board.floor))
    total = f"−{penalty}" if penalty else "0"
    write(floor, x, right.y + 25, total, "floor-penalty", font_size=13, bold=True)
