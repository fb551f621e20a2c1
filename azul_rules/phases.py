"""The phases of a round (G1) and the two wall variants."""

from __future__ import annotations

import enum

__all__ = ["Phase", "Variant"]


class Phase(str, enum.Enum):
    """What the game waits for (G1).

    ``WALL_TILING`` waits for input only in the grey variant; ``REFILL`` only when the
    table's draws are entered by hand (``external_draws``).
    """

    FACTORY_OFFER = "factory_offer"
    WALL_TILING = "wall_tiling"
    REFILL = "refill"
    GAME_OVER = "game_over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Variant(str, enum.Enum):
    """The side of the boards: the coloured wall (default) or the grey wall (V1-V5)."""

    COLORED = "colored"
    GREY = "grey"

    def __repr__(self) -> str:
        return f"Variant.{self.name}"
