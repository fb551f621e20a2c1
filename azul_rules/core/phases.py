"""The phases of a round (G1) and the two wall variants."""

from __future__ import annotations

import enum
from typing import Final

from azul_rules.core.errors import FormatError
from azul_rules.core.shown import shown

__all__ = [
    "FACTORY_OFFER", "GAME_OVER", "GREY", "REFILL", "WALL_TILING", "Phase", "Variant",
    "variant_of",
]  # fmt: skip


class Phase(str, enum.Enum):
    """What the game waits for (G1).

    ``WALL_TILING`` waits for input only in the grey variant; ``REFILL`` only when the
    table's draws are entered by hand (``external_draws``).

    :raises ValueError: ``Phase(value)`` for an unknown value (it is an enum).
    """

    FACTORY_OFFER = "factory_offer"
    WALL_TILING = "wall_tiling"
    REFILL = "refill"
    GAME_OVER = "game_over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Variant(str, enum.Enum):
    """The side of the boards: the coloured wall (default) or the grey wall (V1-V5).

    :raises ValueError: ``Variant(value)`` for an unknown value (it is an enum).
    """

    COLORED = "colored"
    GREY = "grey"

    def __repr__(self) -> str:
        return f"Variant.{self.name}"


def variant_of(value: object, name: str = "variant") -> Variant:
    """The wall ``value`` names: a ``Variant``, or its value (``"colored"``, ``"grey"``)
    as every layer takes it -- the JSON format, the engine protocol, OpenSpiel,
    PettingZoo, tournaments.  ``FormatError`` (naming ``name``) for anything else."""
    if isinstance(value, Variant):
        return value
    if isinstance(value, str) and value in _VARIANTS:
        return _VARIANTS[value]
    raise FormatError(f"{name} must be a Variant, 'colored' or 'grey', got {shown(value)}")


_VARIANTS: Final = {v.value: v for v in Variant}

# The members as plain module constants, for the hot paths: on CPython 3.11 reading
# ``Phase.GAME_OVER`` goes through the enum metaclass (about 0.1 µs a time), a module
# global does not.
FACTORY_OFFER: Final = Phase.FACTORY_OFFER
WALL_TILING: Final = Phase.WALL_TILING
REFILL: Final = Phase.REFILL
GAME_OVER: Final = Phase.GAME_OVER
GREY: Final = Variant.GREY
