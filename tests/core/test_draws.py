"""Seeded draws (S7, R2): ``rounds.draw_factories`` fills the factories exactly as
drawing the tiles one by one from the SplitMix64 stream does (one step per factory, each
index read as ``z * size >> 64`` and the low 64 bits kept), pouring the lid into the bag
when it runs out and leaving factories short when both are empty.  The fast path reads
the four indices of a factory as mixed-radix digits of one product; this holds it to the
plain definition, bags larger than the game's 100 tiles included (positions built by
hand)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.core.rng import MASK, step
from azul_rules.core.rounds import draw_factories

Tiles = tuple[az.Color, ...]


def draws_one_by_one(
    count: int, bag: Tiles, lid: Tiles, rng: int
) -> tuple[tuple[Tiles, ...], Tiles, Tiles, int]:
    """R2 by the definition: per factory, the bag's tiles while it has any (the lid
    poured in when it runs out, once), each draw a uniform index from the stream."""
    pool, spare = list(bag), list(lid)
    factories = []
    for _ in range(count):
        drawn: list[az.Color] = []
        if len(pool) < 4 and spare:
            drawn, pool, spare = pool, spare, []  # the bag's last tiles, then the lid
        want = min(4 - len(drawn), len(pool))
        if want:
            z, rng = step(rng)
            for _ in range(want):
                z *= len(pool)
                drawn.append(pool.pop(z >> 64))
                z &= MASK
        factories.append(tuple(sorted(drawn)))
    return tuple(factories), tuple(pool), tuple(spare), rng


multisets = st.lists(st.sampled_from(list(az.Color)), max_size=160).map(lambda t: tuple(sorted(t)))


@given(st.sampled_from([5, 7, 9]), multisets, multisets, st.integers(0, MASK))
def test_s7_r2_seeded_draws_are_the_one_by_one_draws(
    count: int, bag: Tiles, lid: Tiles, rng: int
) -> None:
    """S7, R2: the same factories, bag, lid and generator state as the definition."""
    assert draw_factories(count, bag, lid, rng) == draws_one_by_one(count, bag, lid, rng)


def test_r2_a_game_s_first_deal_is_pinned() -> None:
    """S7: the same seed deals the same factories on every machine and version (these
    are the deals of the versions before the draws' fast path was last changed)."""
    deals = {
        (2, 1): ["YRRK", "YYRW", "BRKW", "BYRW", "BKKW"],
        (4, 7): ["BBYK", "BRWW", "YYRK", "RWWW", "BYWW", "BRRR", "BYKW", "BYKW", "BYRW"],
    }
    for (players, seed), expected in deals.items():
        state = az.new_game(players, seed=seed)
        assert ["".join(t.letter for t in f) for f in state.factories] == expected
