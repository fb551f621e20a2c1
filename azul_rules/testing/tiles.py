"""Tiles counted and dealt, without Hypothesis: what the strategies and checks share.

* :func:`tile_counts` counts every tile of a position by colour, wherever it lies;
* :func:`fill_factories` deals a refill tile by tile, the bag first and then the lid
  (R2), with a caller choosing each tile's colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from azul_rules.core.colors import COLORS, Color
from azul_rules.core.moves import Refill
from azul_rules.core.state import GameState

__all__ = ["fill_factories", "tile_counts"]


def tile_counts(state: GameState) -> dict[Color, int]:
    """Every tile of ``state`` by colour, wherever it lies (20 each in a valid state)."""
    counts = dict.fromkeys(COLORS, 0)
    places: list[Sequence[Color]] = [state.bag, state.lid, state.center, *state.factories]
    for tiles in places:
        for tile in tiles:
            counts[tile] += 1
    for board in state.players:
        for row in board.wall:
            for space in row:
                if space is not None:
                    counts[space] += 1
        for line in board.pattern_lines:
            if line.color is not None:
                counts[line.color] += line.count
        for item in board.floor:
            if isinstance(item, Color):
                counts[item] += 1
    return counts


def fill_factories(state: GameState, pick: Callable[[list[Color]], Color]) -> Refill:
    """The draw of :func:`refills`, tile by tile, with ``pick`` choosing each tile's
    colour among the colours left in the bag (in ``COLORS`` order): at most four tiles
    per factory (R2).  ``azul-rules differential`` picks with its own choices, counted;
    not in the package's ``__all__``: a building block, not part of the testing kit."""
    bag = dict.fromkeys(COLORS, 0)
    for tile in state.bag:
        bag[tile] += 1
    lid = list(state.lid)
    factories = []
    for _ in state.factories:
        tiles: list[Color] = []
        while len(tiles) < 4:
            if not any(bag.values()):
                if not lid:
                    break
                for tile in lid:  # R2: the lid goes into the bag
                    bag[tile] += 1
                lid = []
            tile = pick([c for c in COLORS if bag[c]])
            bag[tile] -= 1
            tiles.append(tile)
        factories.append(tuple(tiles))
    return Refill(tuple(factories))
