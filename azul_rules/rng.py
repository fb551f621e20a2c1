"""The seeded generator behind draws from the bag (S7, R2).

A SplitMix64 stream on Python integers: the same seed gives the same numbers on every
machine and Python version.  Its whole state is one integer kept in the ``GameState``,
so drawing is a pure function ``state -> (value, next state)``.
"""

from __future__ import annotations

from typing import Final

__all__ = ["below", "draw_indices", "seed_state"]

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for ``seed`` (any integer)."""
    return seed & _MASK


def below(state: int, n: int) -> tuple[int, int]:
    """A number in ``range(n)`` and the next state (``n`` >= 1)."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return (z * n) >> 64, state


def draw_indices(state: int, sizes: tuple[int, ...]) -> tuple[list[int], int]:
    """One index below each of ``sizes`` (at most 4 of them, each at most 128) from a
    single step of the generator, and the next state.

    The step's 64-bit output is read as a fraction and the indices are peeled off it
    one after another (``index = fraction * size``, keeping the remainder), which
    spends about 7 of its 64 bits per index.
    """
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    indices = []
    for size in sizes:
        z *= size
        indices.append(z >> 64)
        z &= _MASK
    return indices, state
