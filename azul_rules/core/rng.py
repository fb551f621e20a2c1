"""The seeded generator behind draws from the bag (S7, R2).

A SplitMix64 stream on Python integers: the same seed gives the same numbers on every
machine and Python version.  Its whole state is one integer kept in the ``GameState``,
so drawing is a pure function ``state -> (value, next state)``.
"""

from __future__ import annotations

from typing import Final

__all__ = ["GAMMA", "MASK", "MIX_1", "MIX_2", "below", "seed_state", "step"]

MASK: Final = (1 << 64) - 1
_MASK: Final = MASK
GAMMA: Final = 0x9E3779B97F4A7C15
MIX_1: Final = 0xBF58476D1CE4E5B9
MIX_2: Final = 0x94D049BB133111EB
"""SplitMix64's increment and its two mixing multipliers (:func:`step` and the inlined
copy in ``rounds.draw_factories``)."""


def seed_state(seed: int) -> int:
    """The generator state for ``seed`` (any integer)."""
    return seed & _MASK


def step(state: int) -> tuple[int, int]:
    """One step: a 64-bit output and the next state."""
    state = (state + GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * MIX_1) & _MASK
    z = ((z ^ (z >> 27)) * MIX_2) & _MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """A number in ``range(n)`` and the next state (``n`` >= 1)."""
    z, state = step(state)
    return (z * n) >> 64, state
