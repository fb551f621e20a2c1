"""A factory's fill as one chance outcome (R2): the chance nodes of ``python_azul``.

Filling a factory draws four tiles from the bag; only the multiset of the four matters
to the game, so one chance outcome per factory names it: a **deal**.  Deals are numbered
by their tiles, sorted, in the order of :func:`itertools.combinations_with_replacement`
over the colours (blue 0, yellow 1, red 2, black 3, white 4, S5), four tiles first, then
the short deals of three, two and one tile (a factory left short when the bag and the lid
run out, R2):

====  ===================  ================================================
ids   tiles                examples
====  ===================  ================================================
0-69  four                 0 ``BBBB``, 1 ``BBBY``, 2 ``BBBR``, 69 ``WWWW``
70-104  three              70 ``BBB``, 104 ``WWW``
105-119  two               105 ``BB``, 119 ``WW``
120-124  one               120 ``B``, 124 ``W``
====  ===================  ================================================

:func:`deal_outcomes` gives the deals a factory can get and their probabilities, exact
(each the correctly rounded float of a ratio of integers): with ``N >= 4`` tiles in the
bag, the multivariate hypergeometric ``prod C(n_c, k_c) / C(N, 4)`` of drawing those four
tiles; with fewer, the factory takes the bag's ``N`` tiles, the lid is poured into the
bag and ``4 - N`` more are drawn from it (``prod C(m_c, j_c) / C(M, 4 - N)``), and when
the lid holds no more than that the factory takes everything left, a single deal of
probability 1 (short when fewer than four tiles were left).  This is the referee's R2
exactly: ``rounds.draw_factories`` and ``GameState._refill`` pour the lid at the same
point.  Pure Python, no dependency beyond the core; with the compiled core,
``deal_outcomes`` is its C version (see ``azul_rules.core._accelerate``).

>>> from azul_rules.ai import deals
>>> deals.deal_tiles(2)
(Color.BLUE, Color.BLUE, Color.BLUE, Color.RED)
>>> deals.deal_id(deals.deal_tiles(2))
2
>>> deals.deal_outcomes((4, 0, 0, 0, 1), (0, 0, 0, 0, 0))   # BBBB, or BBBW
[(0, 0.2), (4, 0.8)]
>>> deals.deal_outcomes((1, 0, 0, 0, 0), (0, 2, 0, 0, 0))   # the bag's B, then the lid
[(75, 1.0)]
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, Final

from azul_rules.core._accelerate import prefer_compiled
from azul_rules.core.colors import Color
from azul_rules.core.errors import FormatError
from azul_rules.core.shown import shown
from azul_rules.core.state import _compiled

__all__ = [
    "DEALS",
    "DEAL_COUNTS",
    "FULL_DEALS",
    "deal",
    "deal_counted",
    "deal_id",
    "deal_outcomes",
    "deal_tiles",
    "outcome_text",
]

_COLORS: Final = tuple(Color)

DEALS: Final[tuple[tuple[Color, ...], ...]] = tuple(
    tuple(_COLORS[c] for c in combination)
    for size in (4, 3, 2, 1)
    for combination in itertools.combinations_with_replacement(range(5), size)
)
"""The tiles of each deal, by id: 125 sorted tuples of ``Color`` (four tiles: ids 0-69)."""

FULL_DEALS: Final = 70
"""The deals of four tiles are ids ``0 … FULL_DEALS - 1``."""

DEAL_COUNTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(tiles.count(color) for color in _COLORS) for tiles in DEALS
)
"""The tiles of each deal by colour (five counts), by id."""

_ID_BY_COUNTS: Final = {counts: index for index, counts in enumerate(DEAL_COUNTS)}

# The deals of each size, by id: _BY_SIZE[size] for size 1-4.
_BY_SIZE: Final = {
    size: tuple(i for i, counts in enumerate(DEAL_COUNTS) if sum(counts) == size)
    for size in (1, 2, 3, 4)
}

_MOST: Final = 1000
"""The most tiles of a colour :func:`deal_outcomes` takes (a game has 20)."""


def deal_tiles(outcome: int) -> tuple[Color, ...]:
    """The tiles of deal ``outcome`` (a sorted tuple of colours, the same object each
    time).  ``ValueError`` for an id outside 0-124, ``FormatError`` for a non-int."""
    index = _integer(outcome, "a deal")
    if not 0 <= index < len(DEALS):
        raise ValueError(f"deal ids are 0-{len(DEALS) - 1}, not {shown(index)}")
    return DEALS[index]


def deal_id(tiles: Sequence[Color]) -> int:
    """The id of the deal of ``tiles`` (one to four colours, in any order).
    ``ValueError`` for no tile or more than four, ``FormatError`` for a non-colour."""
    counts = [0] * 5
    for tile in tiles:
        if not isinstance(tile, Color):
            raise FormatError(f"a deal holds Colors, not {shown(tile)}")
        counts[tile] += 1
    found = _ID_BY_COUNTS.get(tuple(counts))
    if found is None:
        raise ValueError(f"a deal is one to four tiles, not {sum(counts)}")
    return found


def outcome_text(outcome: int) -> str:
    """A deal's tiles as letters (``"BBYR"``)."""
    return "".join(tile.letter for tile in deal_tiles(outcome))


def _deal_outcomes_reference(bag: Sequence[int], lid: Sequence[int]) -> list[tuple[int, float]]:
    """The deals the next factory can get from a bag and a lid holding ``bag`` and
    ``lid`` tiles of each colour (five counts each), with their probabilities, sorted by
    id (R2; see the module's documentation).  Empty when bag and lid are both empty.
    The probabilities are the exact ratios, correctly rounded; they sum to 1 within
    float rounding.  ``FormatError`` for counts that are not five ints, ``ValueError``
    for a negative count or one past 1,000.  With the compiled core this is its C version."""
    in_bag = _check_counts(bag, "bag")
    in_lid = _check_counts(lid, "lid")
    tiles = sum(in_bag)
    if tiles >= 4:
        return _draws(in_bag, 4, tiles)
    left = sum(in_lid)
    want = min(4 - tiles, left)
    if want == left:  # everything left goes to this factory
        if tiles + left == 0:
            return []
        total = tuple(b + m for b, m in zip(in_bag, in_lid, strict=True))
        return [(_ID_BY_COUNTS[total], 1.0)]
    drawn = _draws(in_lid, want, left)
    # The bag's tiles go with those drawn from the lid (the bag ran out, R2).
    return sorted(
        (_ID_BY_COUNTS[tuple(map(operator.add, DEAL_COUNTS[index], in_bag))], chance)
        for index, chance in drawn
    )


deal_outcomes = prefer_compiled(_compiled, _deal_outcomes_reference, "deal_outcomes")


def _draws(supply: tuple[int, ...], size: int, total: int) -> list[tuple[int, float]]:
    """The deals of ``size`` tiles drawn from ``supply`` (``total`` tiles): the
    multivariate hypergeometric, by deal id."""
    ways = math.comb(total, size)
    w0, w1, w2, w3, w4 = (_ways(n) for n in supply)
    found = []
    for index, k0, k1, k2, k3, k4 in _BY_SIZE_FLAT[size]:
        number = w0[k0] * w1[k1] * w2[k2] * w3[k3] * w4[k4]
        if number:
            found.append((index, number / ways))
    return found


def _ways(n: int) -> tuple[int, ...]:
    """``math.comb(n, k)`` for ``k`` 0-4."""
    found = _WAYS.get(n)
    if found is None:
        found = tuple(math.comb(n, k) for k in range(5))
    return found


_WAYS: Final = {n: tuple(math.comb(n, k) for k in range(5)) for n in range(101)}
_BY_SIZE_FLAT: Final = {
    size: tuple((index, *DEAL_COUNTS[index]) for index in ids) for size, ids in _BY_SIZE.items()
}


def deal(
    bag: Sequence[int], lid: Sequence[int], outcome: int
) -> tuple[tuple[Color, ...], tuple[int, ...], tuple[int, ...]]:
    """Deal ``outcome`` to the next factory: its tiles, and the bag and the lid after it
    (five counts each; the lid poured into the bag when the bag ran out, R2).
    ``ValueError`` saying why when ``outcome`` is not among :func:`deal_outcomes`."""
    in_bag = _check_counts(bag, "bag")
    in_lid = _check_counts(lid, "lid")
    index = _integer(outcome, "a chance outcome")
    if not 0 <= index < len(DEALS):
        raise ValueError(f"chance outcome {shown(index)} is not a deal (0-{len(DEALS) - 1})")
    return deal_counted(in_bag, in_lid, index)


def deal_counted(
    in_bag: tuple[int, ...], in_lid: tuple[int, ...], index: int
) -> tuple[tuple[Color, ...], tuple[int, ...], tuple[int, ...]]:
    """:func:`deal` for arguments already checked: five-int tuples and a deal id
    ``0-124`` (``python_azul`` calls it at every chance node)."""
    k0, k1, k2, k3, k4 = DEAL_COUNTS[index]
    b0, b1, b2, b3, b4 = in_bag
    tiles = b0 + b1 + b2 + b3 + b4
    if tiles >= 4:  # four tiles drawn from the bag
        if index < FULL_DEALS and k0 <= b0 and k1 <= b1 and k2 <= b2 and k3 <= b3 and k4 <= b4:
            return DEALS[index], (b0 - k0, b1 - k1, b2 - k2, b3 - k3, b4 - k4), in_lid
        raise ValueError(_why_not(index, in_bag, "the bag"))
    # The bag runs out: its tiles, then the rest drawn from the lid poured into it.
    m0, m1, m2, m3, m4 = in_lid
    j0, j1, j2, j3, j4 = k0 - b0, k1 - b1, k2 - b2, k3 - b3, k4 - b4
    left = m0 + m1 + m2 + m3 + m4
    if (
        k0 + k1 + k2 + k3 + k4 == tiles + min(4 - tiles, left)
        and 0 <= j0 <= m0
        and 0 <= j1 <= m1
        and 0 <= j2 <= m2
        and 0 <= j3 <= m3
        and 0 <= j4 <= m4
    ):
        return DEALS[index], (m0 - j0, m1 - j1, m2 - j2, m3 - j3, m4 - j4), (0, 0, 0, 0, 0)
    if tiles + left == 0:
        raise ValueError("nothing is left to deal: the bag and the lid are empty (R2)")
    return _refuse_short(index, in_bag, in_lid, tiles, min(4 - tiles, left))


def _refuse_short(
    index: int, bag: tuple[int, ...], lid: tuple[int, ...], tiles: int, want: int
) -> tuple[tuple[Color, ...], tuple[int, ...], tuple[int, ...]]:
    bag_part = "".join(c.letter * n for c, n in zip(_COLORS, bag, strict=True))
    if want == sum(lid):
        raise ValueError(
            f"deal {index} ({outcome_text(index)}) cannot be dealt: the factory takes every "
            f"tile left, {outcome_text(_ID_BY_COUNTS[tuple(map(operator.add, bag, lid))])} (R2)"
        )
    held = f"the bag's {bag_part} and " if tiles else ""
    raise ValueError(
        f"deal {index} ({outcome_text(index)}) cannot be dealt: the factory takes {held}"
        f"{want} tile(s) drawn from the lid poured into the bag, which holds "
        f"{_holding(lid)} (R2)"
    )


def _why_not(index: int, supply: tuple[int, ...], place: str) -> str:
    counts = DEAL_COUNTS[index]
    if sum(counts) != 4:
        return (
            f"deal {index} ({outcome_text(index)}) cannot be dealt: {place} holds 4 tiles or "
            "more, so the factory gets four (R2)"
        )
    short = next(c for c in _COLORS if counts[c] > supply[c])
    return (
        f"deal {index} ({outcome_text(index)}) cannot be dealt: {place} holds "
        f"{supply[short]} {short.name.lower()} tile(s) (R2)"
    )


def _holding(counts: tuple[int, ...]) -> str:
    return ", ".join(f"{n} {c.name.lower()}" for c, n in zip(_COLORS, counts, strict=True) if n)


def _integer(value: object, what: str) -> int:
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise FormatError(f"{what} is an int id, not {shown(value)}")


def _check_counts(counts: object, name: str) -> tuple[int, ...]:
    """Five counts as a tuple of ints; ``FormatError`` or ``ValueError`` otherwise."""
    if type(counts) is tuple and len(counts) == 5 and all(type(n) is int for n in counts):
        values: tuple[int, ...] = counts
    else:
        if isinstance(counts, (str, bytes)) or not isinstance(counts, Sequence):
            raise FormatError(f"{name} is five counts of tiles by colour, not {shown(counts)}")
        items = list(counts)
        if len(items) != 5 or any(isinstance(n, bool) for n in items):
            raise FormatError(f"{name} is five counts of tiles by colour, not {shown(counts)}")
        try:
            values = tuple(operator.index(n) for n in items)
        except TypeError:
            raise FormatError(
                f"{name} is five counts of tiles by colour, not {shown(counts)}"
            ) from None
    if not all(0 <= n <= _MOST for n in values):
        raise ValueError(f"{name} counts are 0-{_MOST:,} tiles by colour, not {shown(values)}")
    return values


# -- the compiled version (azul_rules.core._accelerate) --------------------------------------------

REFERENCES: Final[dict[str, Callable[..., Any]]] = {"deal_outcomes": _deal_outcomes_reference}
"""The Python reference of each function of this module that has a compiled version."""
