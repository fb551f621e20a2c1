"""Hypothesis strategies: colours, reachable positions, legal and illegal moves, physical
takes, refills and game records.

Every function here returns a ``SearchStrategy`` (``refills`` is one, built with
``st.composite``); arguments are checked at once, when the strategy is made, not at
its first draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Literal

from azul_rules.core._extras import extra

with extra("testing", "azul_rules.testing"):
    from hypothesis import strategies as st

from azul_rules.core.colors import COLORS, FLOOR, Color
from azul_rules.core.errors import ErrorCode
from azul_rules.core.moves import Move, PlaceTile, Refill, TableTake, Take
from azul_rules.core.phases import Variant
from azul_rules.core.shown import shown
from azul_rules.core.state import GameState, new_game
from azul_rules.formats.record import GameRecord
from azul_rules.testing.illegal import illegal_candidates, legal_table_take, table_mistakes
from azul_rules.testing.tiles import fill_factories

__all__ = [
    "Stage",
    "colors",
    "game_records",
    "game_states",
    "illegal_moves",
    "legal_moves",
    "refills",
    "table_takes",
]

Stage = Literal["any", "near_end", "starved"]
"""Which positions ``game_states`` aims at: any, close to the end (a wall row with 4
tiles), or with a nearly empty bag (refills will need the lid, or fall short)."""


def colors() -> st.SearchStrategy[Color]:
    """Any tile colour."""
    return st.sampled_from(COLORS)


def _reached(state: GameState, stage: Stage) -> bool:
    if stage == "near_end":
        return any(sum(t is not None for t in row) >= 4 for b in state.players for row in b.wall)
    if stage == "starved":
        return len(state.bag) < 4 * len(state.factories)
    return False


def game_states(
    *,
    players: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant | str] = (Variant.COLORED, Variant.GREY),
    stage: Stage = "any",
    include_over: bool = True,
) -> st.SearchStrategy[GameState]:
    """Reachable positions: a seeded game played by random legal moves.

    ``stage`` aims at near-end or starved-bag positions (when a game reaches none, its
    last position before the end is used); ``include_over=False`` never gives a finished
    game.  Every state drawn passes ``state.problems()``.  ``variants`` takes
    ``Variant`` values or their names (``"grey"``).

    :raises ValueError: at once (not at the first draw) for ``players`` or ``variants``
        that are not a non-empty list of 2-4 and of walls, a ``stage`` other than
        ``"any"``, ``"near_end"`` and ``"starved"``, or an ``include_over`` that is not a
        bool.
    """
    if stage not in _STAGES:
        raise ValueError(f"stage is one of {', '.join(map(repr, _STAGES))}, not {shown(stage)}")
    if type(include_over) is not bool:
        raise ValueError(f"include_over is True or False, not {shown(include_over)}")
    return _game_states(players=checked_player_counts(players, "players"),
                        variants=checked_variants(variants), stage=stage,
                        include_over=include_over)  # fmt: skip


_STAGES: Final = ("any", "near_end", "starved")


@st.composite
def _game_states(
    draw: st.DrawFn,
    *,
    players: Sequence[int],
    variants: Sequence[Variant],
    stage: Stage,
    include_over: bool,
) -> GameState:
    count = draw(st.sampled_from(tuple(players)), label="players")
    variant = draw(st.sampled_from(tuple(variants)), label="variant")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    chooser = random.Random(draw(st.integers(0, 2**32 - 1), label="moves"))
    depth = draw(st.integers(0, 150), label="depth") if stage == "any" else 2_000
    state = new_game(count, seed=seed, variant=variant)
    hoard = stage == "starved"
    for _ in range(depth):
        if state.is_over or _reached(state, stage):
            break
        moves = state.legal_moves()
        if hoard:  # keep tiles in pattern lines, out of the lid, to starve the bag
            moves = tuple(m for m in moves if not isinstance(m, Take) or m.line != FLOOR) or moves
        following = state.apply(chooser.choice(moves))
        if following.is_over and (not include_over or stage != "any"):
            break
        state = following
    return state


def legal_moves(state: GameState) -> st.SearchStrategy[Take | PlaceTile]:
    """One of the legal compact moves of ``state`` (which must have one)."""
    return st.sampled_from(state.legal_moves())


@st.composite
def refills(draw: st.DrawFn, state: GameState) -> Refill:
    """A draw the table could make to fill ``state``'s factories (R2): four tiles per
    factory from the bag; when the bag runs out, the whole lid goes into it and filling
    goes on; when both are empty the remaining factories stay short or empty.  Shrinks
    towards the first colour (blue) present.  ``state`` waits for a refill (external
    draws, ``Phase.REFILL``), or is any position whose bag and lid are to be drawn from.
    """
    return fill_factories(state, lambda present: draw(st.sampled_from(present)))


def illegal_moves(state: GameState) -> st.SearchStrategy[tuple[Move, ErrorCode]]:
    """An illegal move of ``state`` with the code its verdict must start with.

    The label is worked out here from the rules, independently of the referee's checks.
    """
    return st.sampled_from(illegal_candidates(state))


def table_takes(
    state: GameState, *, mistake: ErrorCode | None = None
) -> st.SearchStrategy[TableTake]:
    """A physical take in ``state``: a legal one (``mistake=None``), or one making the
    given documented mistake (``PARTIAL_TAKE``, ``SPLIT_LOT``, ``FLOOR_WHILE_ROOM``,
    ``TILE_COUNT_MISMATCH``, ``TOO_MANY_TAKEN``), whose verdict starts with that code.
    The state must be in its factory offer."""
    if mistake is None:
        takes = [m for m in state.legal_moves() if isinstance(m, Take)]
        return st.sampled_from([legal_table_take(state, t) for t in takes])
    matching = [move for move, code in table_mistakes(state) if code is mistake]
    if not matching:
        return st.nothing()
    return st.sampled_from(matching)


def game_records(
    *,
    players: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant | str] = (Variant.COLORED, Variant.GREY),
    finished: bool = True,
) -> st.SearchStrategy[GameRecord]:
    """A record of a game of random legal moves (to its end when ``finished``; a grey
    game that starves and cannot end is cut after 2,000 moves).

    :raises ValueError: at once for arguments :func:`game_states` refuses, or a
        ``finished`` that is not a bool.
    """
    if type(finished) is not bool:
        raise ValueError(f"finished is True or False, not {shown(finished)}")
    return _game_records(players=checked_player_counts(players, "players"),
                         variants=checked_variants(variants), finished=finished)  # fmt: skip


@st.composite
def _game_records(
    draw: st.DrawFn,
    *,
    players: Sequence[int],
    variants: Sequence[Variant],
    finished: bool,
) -> GameRecord:
    count = draw(st.sampled_from(tuple(players)))
    variant = draw(st.sampled_from(tuple(variants)))
    seed = draw(st.integers(0, 2**32 - 1))
    chooser = random.Random(draw(st.integers(0, 2**32 - 1)))
    limit = 2_000 if finished else draw(st.integers(0, 120))
    state = new_game(count, seed=seed, variant=variant)
    moves: list[Move] = []
    while not state.is_over and len(moves) < limit:
        move = chooser.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    return GameRecord(tuple(moves), count, seed, variant)


def checked_player_counts(
    player_counts: object, name: str = "player_counts"
) -> tuple[int, ...]:
    """``player_counts`` as a tuple, or a ValueError naming the argument ``name``
    (shared with the state machines; not in the package's ``__all__``)."""
    if isinstance(player_counts, (str, bytes)) or not isinstance(player_counts, Sequence):
        raise ValueError(f"{name} is a list such as (2, 3), not {shown(player_counts)}")
    if not player_counts or any(type(n) is not int or n not in (2, 3, 4) for n in player_counts):
        raise ValueError(
            f"{name} lists 2, 3 or 4 players (S1), at least one, not {shown(player_counts)}"
        )
    return tuple(player_counts)


def checked_variants(variants: object) -> tuple[Variant, ...]:
    """``variants`` (``Variant`` values or their names) as ``Variant`` values, or a
    ValueError (shared with the state machines; not in the package's ``__all__``)."""
    if isinstance(variants, (str, bytes)) or not isinstance(variants, Sequence):
        raise ValueError(f"variants is a list such as ('colored',), not {shown(variants)}")
    if not variants or any(not isinstance(v, str) or v not in _VARIANT_NAMES for v in variants):
        raise ValueError(
            f"variants lists 'colored' or 'grey' (or Variant values), at least one, "
            f"not {shown(variants)}"
        )
    return tuple(Variant(v) for v in variants)


_VARIANT_NAMES = frozenset(v.value for v in Variant)
