"""A position as readable text (``azul-rules show``), in any language of the catalogues."""

from __future__ import annotations

from azul_rules.core.board import PlayerBoard
from azul_rules.core.colors import CENTER, FLOOR, FLOOR_PENALTIES, Color, wall_color
from azul_rules.core.messages import color_name, phase_name, phrase, says
from azul_rules.core.moves import Move, PlaceTile, TableTake, Take
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.position import Position
from azul_rules.core.scoring import floor_penalty
from azul_rules.core.shown import number

__all__ = ["move_text", "render_state"]

def _tiles(tiles: tuple[Color, ...]) -> str:
    return " ".join(t.letter for t in tiles) or "-"


def variant_name(variant: Variant, lang: str) -> str:
    """The wall variant in ``lang``."""
    return says(lang, f"variant.{variant.value}")


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


def move_text(move: Move, lang: str = "en") -> str:
    """A move as the command line shows it: ``str(move)`` in English (the notation for
    a ``Take``, words for the other moves), the catalogue's words (``move.*``) in the
    other languages (a ``Take`` keeps its notation)."""
    if lang == "en" or isinstance(move, Take):
        return str(move)
    if isinstance(move, TableTake):
        return _table_take(move, lang)
    if isinstance(move, PlaceTile):
        return says(lang, "move.place_tile", line=number(move.line + 1),
                    column=number(move.column + 1))  # fmt: skip
    return says(lang, "move.refill", factories=str(move).removeprefix("refill "))


def _table_take(move: TableTake, lang: str) -> str:
    """``TableTake.__str__`` in ``lang``: in French, ``2 carreaux de couleur bleue pris de
    la fabrique 2 : 2 vers la ligne 3``."""
    count = move.count  # an int: written, and counted, in ``lang``
    if isinstance(move.color, Color):
        what = says(lang, "move.tiles", count=count, color=color_name(move.color, lang))
    elif isinstance(move.color, tuple):
        names = [color_name(c, lang) for c in move.color]
        colors = f"{', '.join(names[:-1])} {says(lang, 'word.and')} {names[-1]}"
        what = says(lang, "move.colors", count=count, colors=colors)
    else:
        what = says(lang, "move.marker", count=count)
    if move.source == CENTER:
        source = says(lang, "move.from_centre")
    else:
        source = says(lang, "move.from_factory", number=number(move.source + 1))
    where = ", ".join(
        says(lang, "move.to_floor", count=n) if k == FLOOR
        else says(lang, "move.to_line", count=n, number=number(k + 1))
        for k, n in move.placements.items()
    )  # fmt: skip
    nowhere = says(lang, "move.nowhere", count=move.count)
    return says(lang, "move.table_take", what=what, source=source, where=where or nowhere)
