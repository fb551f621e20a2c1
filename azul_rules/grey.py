"""The grey wall (V1-V5): players choose the column of each tile when tiling.

When the factory offer ends, a grey game enters ``Phase.WALL_TILING``.  Players tile in
turn order from the round's starting player; each places the tiles of their complete
pattern lines from top to bottom (V3), one :class:`PlaceTile` per line, each scored at
once (W3).  A complete line whose colour has no legal space goes whole to the floor by
itself (V4), and a player with nothing to decide is not waited for.  After the last
placement the floors, the end check and the refill run as on the coloured wall.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import attrs

from azul_rules.board import PlayerBoard, pattern_line
from azul_rules.colors import FLOOR_SIZE, Color, Tiles
from azul_rules.errors import ErrorCode, Violation
from azul_rules.moves import PlaceTile
from azul_rules.phases import Phase, Variant
from azul_rules.rounds import place_on_wall
from azul_rules.scoring import PlayerTiling, RoundScoring

if TYPE_CHECKING:
    from azul_rules.state import GameState

__all__ = [
    "begin_tiling",
    "check_placement",
    "game_can_end",
    "legal_columns",
    "legal_placements",
    "next_line",
    "place",
    "row_can_be_completed",
]

_PLACE_TILES: Final = tuple(
    tuple(PlaceTile(line, column) for column in range(5)) for line in range(5)
)


def next_line(board: PlayerBoard) -> int | None:
    """The top complete pattern line still to tile (V3), or ``None``."""
    for index, line in enumerate(board.pattern_lines):
        if line.color is not None and line.count == line.capacity:
            return index
    return None


def legal_columns(board: PlayerBoard, row: int) -> tuple[int, ...]:
    """The columns where the tile of complete line ``row`` may go: an empty space of its
    row (V1) in a column not holding its colour yet (V2)."""
    color = board.pattern_lines[row].color
    wall = board.wall
    return tuple(
        c for c in range(5) if wall[row][c] is None and all(wall[r][c] != color for r in range(5))
    )


def legal_placements(state: GameState) -> tuple[PlaceTile, ...]:
    """Every legal ``PlaceTile`` of the player to decide."""
    board = state.players[state.current_player]
    row = next_line(board)
    if row is None:
        return ()
    return tuple(_PLACE_TILES[row][c] for c in legal_columns(board, row))


def check_placement(state: GameState, move: PlaceTile, found: list[Violation]) -> None:
    """S4, W2, V1-V3: the line exists, is complete and is the next to tile; the space
    is free and its column lacks the colour."""
    line, column = move.line, move.column
    if not 0 <= line < 5:
        found.append(Violation.of(ErrorCode.NO_SUCH_LINE, "S4", line=line))
    if not 0 <= column < 5:
        found.append(Violation.of(ErrorCode.NO_SUCH_LINE, "S4", reason="column", column=column))
    if found:
        return
    board = state.players[state.current_player]
    pattern = board.pattern_lines[line]
    expected = next_line(board)
    if pattern.color is None or pattern.count < pattern.capacity:
        found.append(
            Violation.of(
                ErrorCode.WRONG_PHASE, "W2", reason="incomplete_line", line=line,
                count=pattern.count, capacity=pattern.capacity,
            )
        )  # fmt: skip
        return
    if line != expected:
        found.append(
            Violation.of(
                ErrorCode.WRONG_PHASE, "V3", reason="not_next_line", line=line, next=expected
            )
        )
        return
    if board.wall[line][column] is not None:
        found.append(Violation.of(ErrorCode.SPACE_OCCUPIED, "V1", row=line, column=column))
    color = pattern.color
    if any(board.wall[r][column] == color for r in range(5)):
        found.append(
            Violation.of(ErrorCode.COLUMN_COLOR_CONFLICT, "V2", column=column, color=color)
        )


def begin_tiling(
    state: GameState, players: tuple[PlayerBoard, ...], lid: Tiles, marker_holder: int | None
) -> GameState:
    """Enter the grey wall tiling with the round's starting player (V3)."""
    record = RoundScoring(
        state.round,
        tuple(PlayerTiling(i, b.score, (), 0, b.score) for i, b in enumerate(players)),
        False,
    )
    waiting = attrs.evolve(
        state,
        players=players,
        factories=((),) * len(state.factories),
        center=(),
        current_player=state.start_player,
        marker_holder=marker_holder,
        context=attrs.evolve(state.context, lid=lid, phase=Phase.WALL_TILING, last_scoring=record),
    )
    return _advance(waiting)


def place(state: GameState, move: PlaceTile) -> GameState:
    """Apply a legal ``PlaceTile``: the tile goes to the wall and scores at once (W3),
    the line's other tiles go to the lid; then the tiling moves on."""
    player = state.current_player
    lid = list(state.lid)
    board, placed = place_on_wall(state.players[player], move.line, move.column, lid)
    record = state.last_scoring
    assert record is not None
    tilings = list(record.players)
    tilings[player] = attrs.evolve(
        tilings[player],
        placements=(*tilings[player].placements, placed),
        score_after=board.score,
    )
    players = state.players[:player] + (board,) + state.players[player + 1 :]
    moved = attrs.evolve(
        state,
        players=players,
        context=attrs.evolve(
            state.context,
            lid=tuple(sorted(lid)),
            last_scoring=attrs.evolve(record, players=tuple(tilings)),
        ),
    )
    return _advance(moved)


def _advance(state: GameState) -> GameState:
    """Send lines with no legal space to the floor (V4), skip players with nothing to
    decide, and settle the round once every player is done."""
    record = state.last_scoring
    assert record is not None
    players = list(state.players)
    tilings = list(record.players)
    lid = list(state.lid)
    player = state.current_player
    while True:
        board = players[player]
        row = next_line(board)
        while row is not None and not legal_columns(board, row):
            board, tilings[player] = _to_floor(board, row, tilings[player], lid)
            row = next_line(board)
        players[player] = board
        if row is not None:
            return attrs.evolve(
                state,
                players=tuple(players),
                current_player=player,
                context=attrs.evolve(
                    state.context,
                    lid=tuple(sorted(lid)),
                    last_scoring=attrs.evolve(record, players=tuple(tilings)),
                ),
            )
        player = (player + 1) % len(players)
        if player == state.start_player:
            return state.settle_round(tuple(players), tuple(tilings), lid, state.marker_holder)


def _to_floor(
    board: PlayerBoard, row: int, tiling: PlayerTiling, lid: list[Color]
) -> tuple[PlayerBoard, PlayerTiling]:
    """V4: every tile of complete line ``row`` goes to the floor, left to right; those
    finding no space go to the lid (F2)."""
    line = board.pattern_lines[row]
    assert line.color is not None
    room = FLOOR_SIZE - len(board.floor)
    kept = min(room, line.count)
    lid.extend([line.color] * (line.count - kept))
    lines = board.pattern_lines
    lines = lines[:row] + (pattern_line(row, None, 0),) + lines[row + 1 :]
    floor = board.floor + (line.color,) * kept
    moved = PlayerBoard(board.score, lines, board.wall, floor)
    return moved, attrs.evolve(tiling, floor_lines=(*tiling.floor_lines, row))


def row_can_be_completed(board: PlayerBoard, row: int) -> bool:
    """True when wall row ``row`` can still be filled: its missing colours can go to its
    empty spaces, one each, with no colour twice in a column (V1, V2).  Walls only grow,
    so once False it stays False."""
    wall = board.wall
    empty = [c for c in range(5) if wall[row][c] is None]
    missing = [color for color in Color if color not in wall[row]]
    allowed = {c: {color for color in missing if all(wall[r][c] != color for r in range(5))}
               for c in empty}  # fmt: skip
    return _perfect_matching(empty, allowed, {})


def _perfect_matching(
    columns: list[int], allowed: dict[int, set[Color]], taken: dict[Color, int]
) -> bool:
    if not columns:
        return True
    first, rest = columns[0], columns[1:]
    for color in allowed[first]:
        if color not in taken:
            taken[color] = first
            if _perfect_matching(rest, allowed, taken):
                return True
            del taken[color]
    return False


def game_can_end(state: GameState) -> bool:
    """False when no wall row of any player can ever be completed, so that E1 can never
    end the game: possible on the grey wall (RULES.md has no rule for it; only R6, a bag
    and lid with nothing left to deal, could still end it).  Always True on the
    coloured wall, where every colour has its own space."""
    if state.is_over or state.variant is not Variant.GREY:
        return True
    return any(row_can_be_completed(board, row) for board in state.players for row in range(5))
