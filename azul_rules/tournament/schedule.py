"""Who plays which seat in which game, with which deal: the tournament's schedule.

The schedule is a *cycle* of lineups, repeated; game ``i`` plays lineup ``i % cycle`` of
deal ``i // cycle``.  Every lineup of a cycle is played on the same deal (the same
``new_game`` seed), so the luck of the draw is shared by every bot and every seat, as in
duplicate bridge.  A game depends only on its index: a schedule is never reshuffled when
more games are asked for, and any game can be played alone, anywhere.

Lineups (``B`` bots, ``P`` players):

* ``B >= P``: every set of ``P`` different bots (in the lexicographic order of their
  indices), each in its ``P`` cyclic rotations of seats: ``C(B, P) * P`` games a cycle.
  Every bot plays every seat ``C(B - 1, P - 1)`` times a cycle.
* ``B < P``: ``B`` lineups, lineup ``k`` seating bot ``(seat + k) % B``; some bots sit
  twice at one table.  Every bot plays every seat once a cycle.

So seat counts are exactly equal after every whole cycle; a run of ``games`` that is not
a multiple of the cycle leaves the last, partial cycle unbalanced (``Results.seat_counts``
shows it).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import attrs

from azul_rules.core.bots import derive_seed, seat_seed

__all__ = ["GameSpec", "cycle_length", "deal_seed", "game_spec", "lineup"]


@attrs.frozen
class GameSpec:
    """One game of the schedule: its ``index`` (from 0), its ``deal`` (the cycle it
    belongs to), the ``seed`` of ``new_game``, the bot (an index into the tournament's
    bots) in each seat, and each seat's bot seed (:func:`azul_rules.core.bots.seat_seed`).

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

    index: int
    deal: int
    seed: int
    seats: tuple[int, ...]
    bot_seeds: tuple[int, ...]


def cycle_length(bots: int, players: int) -> int:
    """The number of games in one cycle of lineups (see the module's docstring)."""
    return comb(bots, players) * players if bots >= players else bots


def lineup(position: int, bots: int, players: int) -> tuple[int, ...]:
    """The bots seated in lineup ``position`` (``0 <= position < cycle_length``), seat 0
    first."""
    if bots < players:
        return tuple((seat + position) % bots for seat in range(players))
    group, rotation = divmod(position, players)
    chosen = _combination(group, bots, players)
    return chosen[rotation:] + chosen[:rotation]


def _combination(rank: int, n: int, k: int) -> tuple[int, ...]:
    """The ``rank``-th ``k``-subset of ``range(n)`` in lexicographic order (the order of
    ``itertools.combinations``), without listing the ones before it."""
    chosen: list[int] = []
    candidate = 0
    while k:
        with_candidate = comb(n - candidate - 1, k - 1)
        if rank < with_candidate:
            chosen.append(candidate)
            k -= 1
        else:
            rank -= with_candidate
        candidate += 1
    return tuple(chosen)


def deal_seed(tournament_seed: int, deal: int) -> int:
    """The ``new_game`` seed of deal ``deal``: BLAKE2b of ``"azul-rules/deal:<seed>:<deal>"``
    cut to 53 bits (see :func:`azul_rules.core.bots.derive_seed`)."""
    return derive_seed("deal", tournament_seed, deal)


def game_spec(
    index: int, *, bots: int, players: int, seed: int, seeds: Sequence[int] | None = None
) -> GameSpec:
    """Game ``index`` of a tournament of ``bots`` bots at ``players`` seats.  Its deal's
    seed is ``seeds[deal]`` when ``seeds`` is given, else ``deal_seed(seed, deal)``."""
    cycle = cycle_length(bots, players)
    deal, position = divmod(index, cycle)
    game_seed = seeds[deal] if seeds is not None else deal_seed(seed, deal)
    seats = lineup(position, bots, players)
    return GameSpec(
        index, deal, game_seed, seats, tuple(seat_seed(game_seed, s) for s in range(players))
    )
