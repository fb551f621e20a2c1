"""The referee's checks: every way a move can break the rules, as violations.

Pure functions of a state and a move.  Checks run from the most fundamental (the game is
over, the wrong phase, not your turn) to the most specific, and each appends the
violations it finds, so a ``Result`` lists them all in that order.
"""

from __future__ import annotations

from azul_rules.core.board import PlayerBoard
from azul_rules.core.colors import CENTER, FLOOR, Color, Marker, color_counts
from azul_rules.core.errors import OK, ErrorCode, FormatError, Result, Violation
from azul_rules.core.grey import check_placement
from azul_rules.core.moves import (
    DESTINATIONS,
    Move,
    Placements,
    PlaceTile,
    Refill,
    TableTake,
    Take,
)
from azul_rules.core.phases import FACTORY_OFFER, Phase
from azul_rules.core.position import Position
from azul_rules.core.shown import shown

__all__ = ["check_refill", "check_table_take", "check_take", "take_is_legal", "validate"]

E = ErrorCode
_KIND = {Take: "take", TableTake: "table_take", Refill: "refill", PlaceTile: "place_tile"}
_PHASE_OF = {
    Take: Phase.FACTORY_OFFER,
    TableTake: Phase.FACTORY_OFFER,
    Refill: Phase.REFILL,
    PlaceTile: Phase.WALL_TILING,
}


def validate(state: Position, move: Move) -> Result:
    """Every rule ``move`` breaks in ``state`` (an ``OK`` result when legal)."""
    kind = type(move)
    if kind is Take:
        assert isinstance(move, Take)
        if take_is_legal(state, move):
            return OK
        found = check_take(state, move)
    elif kind is TableTake:
        assert isinstance(move, TableTake)
        found = check_table_take(state, move)
    elif kind is Refill:
        assert isinstance(move, Refill)
        found = check_refill(state, move)
    elif kind is PlaceTile:
        assert isinstance(move, PlaceTile)
        found = check_place_tile(state, move)
    else:
        raise FormatError(
            f"not a move: {shown(move)} (expected Take, TableTake, PlaceTile or Refill)"
        )
    return Result(tuple(found)) if found else OK


def check_turn(state: Position, move: Move) -> tuple[list[Violation], bool]:
    """G1, E1, T1: the game goes on, the move fits the phase, and its player is the one
    to move.  Returns the violations and whether the move's content can be judged."""
    if state.phase is Phase.GAME_OVER:
        return [Violation.of(E.GAME_OVER, "E1")], False
    found: list[Violation] = []
    wanted = _PHASE_OF[type(move)]
    if state.phase is not wanted:
        found.append(
            Violation.of(E.WRONG_PHASE, "G1", kind=_KIND[type(move)], phase=state.phase.value)
        )
    if move.player is not None and move.player != state.current_player:
        found.append(
            Violation.of(E.NOT_YOUR_TURN, "T1", player=move.player, current=state.current_player)
        )
    return found, state.phase is wanted


def _check_source(
    state: Position, source: int, color: Color | Marker, found: list[Violation]
) -> int | None:
    """S2, T2-T4: the source exists, holds tiles, and holds ``color``.  Returns how many
    tiles of ``color`` it holds (``None`` when that cannot be known)."""
    factories = state.factories
    if source == CENTER:
        tiles, rule = state.center, "T3"
    elif 0 <= source < len(factories):
        tiles, rule = factories[source], "T2"
    else:
        found.append(Violation.of(E.NO_SUCH_SOURCE, "S2", source=source, factories=len(factories)))
        tiles, rule = None, ""
    if not isinstance(color, Color):
        found.append(Violation.of(E.MARKER_ALONE, "T4"))
        return None
    if tiles is None:
        return None
    if not tiles:
        found.append(Violation.of(E.EMPTY_SOURCE, rule, source=source))
        return None
    available = tiles.count(color)
    if not available:
        found.append(Violation.of(E.COLOR_NOT_IN_SOURCE, rule, source=source, color=color))
    return available


def _line_exists(line: int) -> bool:
    return line == FLOOR or 0 <= line < 5


def _check_line(board: PlayerBoard, line: int, color: Color, found: list[Violation]) -> bool:
    """P2-P4: pattern line ``line`` may receive ``color``.  Returns True when it may."""
    if board.accepting_lines(color) >> line & 1:
        return True
    pattern = board.pattern_lines[line]
    if pattern.color is None or pattern.color == color:
        if color in board.wall[line]:
            found.append(
                Violation.of(E.WALL_COLOR_CONFLICT, "P3", row=line, line=line, color=color)
            )
    else:
        found.append(
            Violation.of(
                E.LINE_COLOR_MISMATCH, "P2", line=line, color=color, line_color=pattern.color
            )
        )
    if pattern.is_full:
        found.append(Violation.of(E.LINE_FULL, "P4", reason="complete", line=line))
    return False


def take_is_legal(state: Position, move: Take) -> bool:
    """Whether a compact take is legal (E1, G1, T1-T4, S2, S4, P2-P4, F1): True exactly
    when ``check_take`` finds nothing.  The one place a take's legality is decided:
    ``validate`` (through ``check_take``), ``apply`` (``GameState._take`` asks it first)
    and ``legal_moves`` (its takes are ``moves.TAKE_OPTIONS``, built on the same
    ``moves.destinations``); ``tests/core/test_invariants.py`` holds the three together over
    the whole space of compact moves, off-table numbers and the marker included."""
    if state.context.phase is not FACTORY_OFFER:
        return False
    player = move.player
    if player is not None and player != state.current_player:
        return False
    source = move.source
    if source == CENTER:
        tiles = state.center
    elif 0 <= source < len(state.factories):
        tiles = state.factories[source]
    else:
        return False
    color = move.color
    if color not in tiles:  # also rules out the marker, which is never a tile
        return False
    packed = state.players[state.current_player].accepting
    return move.line in DESTINATIONS[packed >> 5 * color & 31]


def check_take(state: Position, move: Take) -> list[Violation]:
    """All violations of a compact take (E1, G1, T1-T4, S2, S4, P2-P4)."""
    if take_is_legal(state, move):
        return []
    found, judge = check_turn(state, move)
    if not judge:
        return found
    line = move.line
    _check_source(state, move.source, move.color, found)
    if not _line_exists(line):
        found.append(Violation.of(E.NO_SUCH_LINE, "S4", line=line))
    elif line != FLOOR and isinstance(move.color, Color):
        _check_line(state.players[state.current_player], line, move.color, found)
    return found


def check_table_take(state: Position, move: TableTake) -> list[Violation]:
    """All violations of a physical take, naming the documented mistakes (T2, T3, P1,
    P5) beside the checks of a compact take."""
    found, judge = check_turn(state, move)
    if not judge:
        return found
    color, count, placements = move.color, move.count, move.placements
    if isinstance(color, tuple):
        _check_source(state, move.source, color[0], found)
        found[:] = [v for v in found if v.code is not E.COLOR_NOT_IN_SOURCE]
        found.append(Violation.of(E.TWO_COLORS, "T4", colors=color))
        return found
    available = _check_source(state, move.source, color, found)
    rule = "T3" if move.source == CENTER else "T2"
    if available and count != available:
        code = E.PARTIAL_TAKE if count < available else E.TOO_MANY_TAKEN
        found.append(
            Violation.of(
                code, rule, count=count, available=available, color=color, source=move.source
            )
        )
    for line in placements:
        if not _line_exists(line):
            found.append(Violation.of(E.NO_SUCH_LINE, "S4", line=line))
    lines = tuple(k for k in placements if k != FLOOR and _line_exists(k))
    if len(lines) > 1:
        found.append(Violation.of(E.SPLIT_LOT, "P1", lines=lines))
    if isinstance(color, Color):
        _check_placed_lines(state.players[state.current_player], color, placements, lines, found)
    placed = sum(placements.values())
    if placed != count:
        found.append(Violation.of(E.TILE_COUNT_MISMATCH, "P1", taken=count, placed=placed))
    return found


def _check_placed_lines(
    board: PlayerBoard,
    color: Color,
    placements: Placements,
    lines: tuple[int, ...],
    found: list[Violation],
) -> None:
    """P2-P5 for each pattern line a table take used: it accepts the colour, is not
    overfilled, and is not left with room while tiles went to the floor."""
    on_floor = placements.get(FLOOR, 0)
    for line in lines:
        if not _check_line(board, line, color, found):
            continue
        room = board.pattern_lines[line].room
        put = placements[line]
        if put > room:
            found.append(Violation.of(E.LINE_FULL, "P5", line=line, room=room, count=put))
        elif put < room and on_floor:
            found.append(
                Violation.of(E.FLOOR_WHILE_ROOM, "P5", line=line, room=room - put, floor=on_floor)
            )


def check_place_tile(state: Position, move: PlaceTile) -> list[Violation]:
    """All violations of a wall placement.  The coloured wall never waits for one."""
    found, judge = check_turn(state, move)
    if judge:
        check_placement(state.players[state.current_player], move, found)
    return found


def check_refill(state: Position, move: Refill) -> list[Violation]:
    """R2: the factories as seen could come from the bag, then the lid, in order."""
    found, judge = check_turn(state, move)
    if not judge:
        return found
    seen = move.factories
    expected = len(state.factories)
    if len(seen) != expected:
        found.append(
            Violation.of(
                E.FILL_IMPOSSIBLE, "R2", reason="factory_count", count=len(seen), factories=expected
            )
        )
        return found
    for index, tiles in enumerate(seen):
        if len(tiles) > 4:
            found.append(
                Violation.of(
                    E.FILL_IMPOSSIBLE, "R2", reason="too_many", source=index, count=len(tiles)
                )
            )
    if found:
        return found
    _check_fill_order(state, seen, found)
    _check_fill_colors(state, seen, found)
    return found


def _check_fill_order(
    state: Position, seen: tuple[tuple[Color, ...], ...], found: list[Violation]
) -> None:
    remaining = len(state.bag) + len(state.lid)
    for index, tiles in enumerate(seen):
        if len(tiles) < min(4, remaining):
            found.append(
                Violation.of(
                    E.FILL_IMPOSSIBLE,
                    "R2",
                    reason="short",
                    source=index,
                    count=len(tiles),
                    remaining=remaining,
                )
            )
        remaining = max(0, remaining - len(tiles))


def _check_fill_colors(
    state: Position, seen: tuple[tuple[Color, ...], ...], found: list[Violation]
) -> None:
    bag, lid = color_counts(state.bag), color_counts(state.lid)
    drawn = color_counts(tuple(t for f in seen for t in f))
    # Factories wholly filled before the bag ran out hold bag tiles only.
    early: list[Color] = []
    position = 0
    for tiles in seen:
        position += len(tiles)
        if position <= len(state.bag):
            early.extend(tiles)
    early_counts = color_counts(tuple(early))
    # Once more tiles were drawn than the bag held, the bag was emptied: all its tiles
    # are among those drawn.  Before that, no lid tile can appear.
    bag_emptied = sum(drawn) > len(state.bag)
    bag_left_over = bag_emptied and any(drawn[c] < bag[c] for c in Color)
    for color in Color:
        available = bag[color] + lid[color]
        if drawn[color] > available:
            found.append(
                Violation.of(
                    E.FILL_IMPOSSIBLE,
                    "R2",
                    reason="color",
                    color=color,
                    seen=drawn[color],
                    available=available,
                )
            )
        elif early_counts[color] > bag[color] or (
            drawn[color] > bag[color] and (bag_left_over or not bag_emptied)
        ):
            found.append(
                Violation.of(E.FILL_IMPOSSIBLE, "R2", reason="lid_before_bag", color=color)
            )
