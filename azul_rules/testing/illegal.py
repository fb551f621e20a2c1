"""Illegal moves labelled with the error code their verdict must start with.

Each label is worked out here from the rules (R, P, W and the table's mistakes), apart
from the referee's own checks, so that a property test comparing the two means
something: :func:`illegal_candidates` lists the illegal moves of a position and
:func:`table_mistakes` the documented mistakes of a physical take.
"""

from __future__ import annotations

from azul_rules.core.board import PlayerBoard
from azul_rules.core.colors import CENTER, COLORS, FLOOR, MARKER, Color
from azul_rules.core.errors import ErrorCode
from azul_rules.core.moves import Move, PlaceTile, Refill, TableTake, Take
from azul_rules.core.phases import Phase
from azul_rules.core.state import GameState

__all__ = ["illegal_candidates", "legal_table_take", "table_mistakes"]

E = ErrorCode


def illegal_candidates(state: GameState) -> list[tuple[Move, ErrorCode]]:
    """The illegal moves of ``state`` worked out from the rules, each with its code."""
    n_factories = len(state.factories)
    other = (state.current_player + 1) % len(state.players)
    wrong_size = Refill(((Color.BLUE,) * 5,) + ((),) * (n_factories - 1))
    if state.phase is Phase.GAME_OVER:
        return [(Take(0, Color.BLUE, 0), E.GAME_OVER), (wrong_size, E.GAME_OVER),
                (PlaceTile(0, 0), E.GAME_OVER)]  # fmt: skip
    if state.phase is Phase.REFILL:
        short = Refill(((),) * (n_factories - 1))
        return [(Take(0, Color.BLUE, 0), E.WRONG_PHASE), (wrong_size, E.FILL_IMPOSSIBLE),
                (short, E.FILL_IMPOSSIBLE), (PlaceTile(0, 0), E.WRONG_PHASE)]  # fmt: skip
    if state.phase is Phase.WALL_TILING:
        return _illegal_placements(state, other)
    return _illegal_takes(state, other)


def _illegal_placements(state: GameState, other: int) -> list[tuple[Move, ErrorCode]]:
    board = state.players[state.current_player]
    found: list[tuple[Move, ErrorCode]] = [
        (Take(0, Color.BLUE, 0), E.WRONG_PHASE),
        (PlaceTile(0, 7), E.NO_SUCH_LINE),
    ]
    legal = state.legal_moves()
    first = legal[0]
    assert isinstance(first, PlaceTile)
    found.append((PlaceTile(first.line, first.column, player=other), E.NOT_YOUR_TURN))
    row = first.line
    color = board.pattern_lines[row].color
    for column in range(5):
        if board.wall[row][column] is not None:
            found.append((PlaceTile(row, column), E.SPACE_OCCUPIED))
        elif any(board.wall[r][column] == color for r in range(5)):
            found.append((PlaceTile(row, column), E.COLUMN_COLOR_CONFLICT))
    for later in range(row + 1, 5):
        found.append((PlaceTile(later, 0), E.WRONG_PHASE))  # not next, or not complete
    return found


def _source_tiles(state: GameState, source: int) -> tuple[Color, ...]:
    return state.center if source == CENTER else state.factories[source]


def _illegal_takes(state: GameState, other: int) -> list[tuple[Move, ErrorCode]]:
    board = state.players[state.current_player]
    n_factories = len(state.factories)
    found: list[tuple[Move, ErrorCode]] = [
        (PlaceTile(0, 0), E.WRONG_PHASE),
        (Refill(((),) * n_factories), E.WRONG_PHASE),
        (Take(n_factories, Color.RED, FLOOR), E.NO_SUCH_SOURCE),
        (Take(n_factories + 3, Color.RED, 0), E.NO_SUCH_SOURCE),
    ]
    sources = [*range(n_factories), CENTER]
    for source in sources:
        tiles = _source_tiles(state, source)
        if not tiles:
            found.append((Take(source, Color.BLUE, FLOOR), E.EMPTY_SOURCE))
            continue
        found.append((Take(source, MARKER, FLOOR), E.MARKER_ALONE))
        present = sorted(set(tiles))
        if len(present) > 1:
            both = (present[0], present[1])
            found.append((TableTake(source, both, 2, {FLOOR: 2}), E.TWO_COLORS))
        for color in COLORS:
            if color not in tiles:
                found.append((Take(source, color, FLOOR), E.COLOR_NOT_IN_SOURCE))
                continue
            found.append((Take(source, color, FLOOR, player=other), E.NOT_YOUR_TURN))
            found.append((Take(source, color, 6), E.NO_SUCH_LINE))
            for line in range(5):
                code = _line_refusal(board, line, color)
                if code is not None:
                    found.append((Take(source, color, line), code))
    for move, mistake in table_mistakes(state):
        found.append((move, mistake))
    return found


def _line_refusal(board: PlayerBoard, line: int, color: Color) -> ErrorCode | None:
    """Why pattern line ``line`` refuses ``color`` (P2-P4), or None when it accepts."""
    pattern = board.pattern_lines[line]
    if pattern.color is not None and pattern.color != color:
        return E.LINE_COLOR_MISMATCH
    if pattern.count == pattern.capacity:
        return E.LINE_FULL
    if pattern.color is None and color in board.wall[line]:
        return E.WALL_COLOR_CONFLICT
    return None


def legal_table_take(state: GameState, take: Take) -> TableTake:
    """The physical take that plays the legal compact ``take`` in ``state``."""
    assert isinstance(take.color, Color)
    count = _source_tiles(state, take.source).count(take.color)
    if take.line == FLOOR:
        return TableTake(take.source, take.color, count, {FLOOR: count})
    room = state.players[state.current_player].pattern_lines[take.line].room
    placed = min(room, count)
    placements = {take.line: placed}
    if count > placed:
        placements[FLOOR] = count - placed
    return TableTake(take.source, take.color, count, placements)


def table_mistakes(state: GameState) -> list[tuple[TableTake, ErrorCode]]:
    """Each documented mistake of a physical take, built from a legal take."""
    board = state.players[state.current_player]
    found: list[tuple[TableTake, ErrorCode]] = []
    for take in state.legal_moves():
        assert isinstance(take, Take) and isinstance(take.color, Color)
        source, color = take.source, take.color
        count = _source_tiles(state, source).count(color)
        if take.line == FLOOR:
            found.append(
                (TableTake(source, color, count + 1, {FLOOR: count + 1}), E.TOO_MANY_TAKEN)
            )
            if count > 1:
                found.append(
                    (TableTake(source, color, count - 1, {FLOOR: count - 1}), E.PARTIAL_TAKE)
                )
                found.append(
                    (TableTake(source, color, count, {FLOOR: count - 1}), E.TILE_COUNT_MISMATCH)
                )
            continue
        room = board.pattern_lines[take.line].room
        if count > 1 and min(count, room) > 1:
            found.append((TableTake(source, color, count, {take.line: 1, FLOOR: count - 1}),
                          E.FLOOR_WHILE_ROOM))  # fmt: skip
        if count > 1:
            for other_line in range(5):
                if other_line != take.line:
                    split = {take.line: 1, other_line: count - 1}
                    found.append((TableTake(source, color, count, split), E.SPLIT_LOT))
                    break
    return found
