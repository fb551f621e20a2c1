"""The phases of a round (G1) and the two wall variants."""

from __future__ import annotations

import enum
from typing import Final

__all__ = ["FACTORY_OFFER", "GAME_OVER", "GREY", "REFILL", "WALL_TILING", "Phase", "Variant"]


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


# The members as plain module constants, for the hot paths: on CPython 3.11 reading
# ``Phase.GAME_OVER`` goes through the enum metaclass (about 0.1 µs a time), a module
# global does not.
FACTORY_OFFER: Final = Phase.FACTORY_OFFER
WALL_TILING: Final = Phase.WALL_TILING
REFILL: Final = Phase.REFILL
GAME_OVER: Final = Phase.GAME_OVER
GREY: Final = Variant.GREY
