"""A position as readable text (``azul-rules show``)."""

from __future__ import annotations

from azul_rules.board import PlayerBoard
from azul_rules.colors import FLOOR_PENALTIES, Color, wall_color
from azul_rules.phases import Phase, Variant
from azul_rules.scoring import floor_penalty
from azul_rules.state import GameState

__all__ = ["render_state"]


def _tiles(tiles: tuple[Color, ...]) -> str:
    return " ".join(t.letter for t in tiles) or "-"


def render_state(state: GameState) -> str:
    """The table and every board.  Letters: B blue, Y yellow, R red, K black, W white;
    on the coloured wall an empty space shows its printed colour in lower case; ``M``
    is the starting player marker."""
    phase = state.phase.value.replace("_", " ")
    lines = [
        f"Azul, {len(state.players)} players, {state.variant.value} wall, round {state.round}, "
        f"{phase}" + ("" if state.is_over else f", player {state.current_player + 1} to move"),
    ]
    for index, tiles in enumerate(state.factories):
        lines.append(f"  factory {index + 1}: {_tiles(tiles)}")
    marker = " + M" if state.phase is Phase.FACTORY_OFFER and state.marker_holder is None else ""
    lines.append(f"  centre: {_tiles(state.center)}{marker}")
    lines.append(f"  bag: {len(state.bag)} tiles, lid: {len(state.lid)} tiles")
    for index, board in enumerate(state.players):
        lines.append("")
        lines.extend(_board(index, board, state))
    if state.outcome is not None:
        winners = " and ".join(f"player {w + 1}" for w in state.outcome.winners)
        lines.append("")
        lines.append(f"Game over: {'shared victory' if state.outcome.is_shared else 'winner'} "
                     f"{winners}")  # fmt: skip
    return "\n".join(lines)


def _board(index: int, board: PlayerBoard, state: GameState) -> list[str]:
    turn = "  <- to move" if index == state.current_player and not state.is_over else ""
    out = [f"Player {index + 1}: score {board.score}{turn}"]
    for row, line in enumerate(board.pattern_lines):
        cells = []
        for column, tile in enumerate(board.wall[row]):
            if tile is not None:
                cells.append(tile.letter)
            elif state.variant is Variant.COLORED:
                cells.append(wall_color(row, column).letter.lower())
            else:
                cells.append(".")
        out.append(f"  {line!s:>5} | {' '.join(cells)}")
    floor = " ".join(t.letter if isinstance(t, Color) else "M" for t in board.floor)
    penalty = floor_penalty(len(board.floor))
    spaces = len(FLOOR_PENALTIES)
    out.append(f"  floor: {floor or '-'} ({len(board.floor)}/{spaces}, -{penalty})")
    return out
