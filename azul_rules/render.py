"""A position as readable text (``azul-rules show``), in English or French."""

from __future__ import annotations

from azul_rules.board import PlayerBoard
from azul_rules.colors import FLOOR_PENALTIES, Color, wall_color
from azul_rules.messages import phase_name, phrase
from azul_rules.phases import Phase, Variant
from azul_rules.position import Position
from azul_rules.scoring import floor_penalty

__all__ = ["render_state"]

_VARIANTS = {
    "en": {"colored": "colored", "grey": "grey"},
    "fr": {"colored": "coloré", "grey": "gris"},
}


def _tiles(tiles: tuple[Color, ...]) -> str:
    return " ".join(t.letter for t in tiles) or "-"


def variant_name(variant: Variant, lang: str) -> str:
    """The wall variant in ``lang``."""
    return _VARIANTS[lang][variant.value]


def render_state(state: Position, lang: str = "en") -> str:
    """The table and every board.  Letters: B blue, Y yellow, R red, K black, W white;
    on the coloured wall an empty space shows its printed colour in lower case; ``M``
    is the starting player marker."""
    header = phrase(
        "header", lang, players=len(state.players), variant=variant_name(state.variant, lang),
        round=state.round, phase=phase_name(state.phase.value, lang),
    )  # fmt: skip
    if not state.is_over:
        header += phrase("to_move", lang, player=state.current_player + 1)
    lines = [header]
    for index, tiles in enumerate(state.factories):
        lines.append(phrase("factory", lang, number=index + 1, tiles=_tiles(tiles)))
    marker = " + M" if state.phase is Phase.FACTORY_OFFER and state.marker_holder is None else ""
    lines.append(phrase("centre", lang, tiles=_tiles(state.center) + marker))
    lines.append(phrase("supply", lang, bag=len(state.bag), lid=len(state.lid)))
    for index, board in enumerate(state.players):
        lines.append("")
        lines.extend(_board(index, board, state, lang))
    if state.outcome is not None:
        winners = phrase("and", lang).join(
            phrase("player", lang, player=w + 1) for w in state.outcome.winners
        )
        result = phrase("shared" if state.outcome.is_shared else "winner", lang)
        lines.append("")
        lines.append(phrase("game_over", lang, result=result, winners=winners))
    return "\n".join(lines)


def _board(index: int, board: PlayerBoard, state: Position, lang: str) -> list[str]:
    turn = (
        phrase("board_to_move", lang) if index == state.current_player and not state.is_over else ""
    )
    out = [phrase("board", lang, player=index + 1, score=board.score) + turn]
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
    items = " ".join(t.letter if isinstance(t, Color) else "M" for t in board.floor)
    out.append(
        phrase("floor", lang, items=items or "-", used=len(board.floor),
               spaces=len(FLOOR_PENALTIES), penalty=floor_penalty(len(board.floor)))
    )  # fmt: skip
    return out
