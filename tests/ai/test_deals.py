"""A factory's fill as one chance outcome (azul_rules.ai.deals, R2): the deal table, and
probabilities that are the exact ones, checked against an enumeration of every tile
drawn one at a time (the bag, then the lid poured into it, as the referee draws)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.ai import deals

COLORS = tuple(az.Color)


def test_the_deal_table() -> None:
    """125 deals: the 70 multisets of four tiles first, then three, two and one tile, each
    in combinations_with_replacement order; ids and tiles read back."""
    assert len(deals.DEALS) == 125
    assert [len(t) for t in deals.DEALS] == [4] * 70 + [3] * 35 + [2] * 15 + [1] * 5
    assert deals.FULL_DEALS == 70
    assert deals.DEALS[0] == (az.Color.BLUE,) * 4
    assert deals.DEALS[69] == (az.Color.WHITE,) * 4
    assert deals.DEALS[70] == (az.Color.BLUE,) * 3
    assert deals.DEALS[124] == (az.Color.WHITE,)
    assert len(set(deals.DEALS)) == 125
    for index, tiles in enumerate(deals.DEALS):
        assert list(tiles) == sorted(tiles)
        assert deals.deal_id(tiles) == index
        assert deals.deal_id(tuple(reversed(tiles))) == index
        assert deals.deal_tiles(index) is tiles
        assert deals.DEAL_COUNTS[index] == tuple(tiles.count(c) for c in COLORS)
    assert deals.outcome_text(2) == "BBBR"


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: deals.deal_tiles(125), ValueError, "deal ids are 0-124, not 125"),
        (lambda: deals.deal_tiles(True), az.FormatError, "a deal is an int id, not True"),
        (lambda: deals.deal_id(()), ValueError, "one to four tiles, not 0"),
        (lambda: deals.deal_id((az.Color.RED,) * 5), ValueError, "one to four tiles, not 5"),
        (lambda: deals.deal_id((az.MARKER,)), az.FormatError,  # type: ignore[arg-type]
         "holds Colors, not "),
        (lambda: deals.deal_outcomes((1, 2, 3), (0,) * 5), az.FormatError, "bag is five"),
        (lambda: deals.deal_outcomes((0,) * 5, "abcde"), az.FormatError,  # type: ignore[arg-type]
         "lid is five"),
        (lambda: deals.deal_outcomes((-1, 4, 0, 0, 0), (0,) * 5), ValueError, "0-1,000"),
        (lambda: deals.deal((4, 0, 0, 0, 0), (0,) * 5, 200), ValueError, "not a deal"),
        (lambda: deals.deal((4, 0, 0, 0, 0), (0,) * 5, 1), ValueError, "holds 0 yellow"),
        (lambda: deals.deal((0,) * 5, (0,) * 5, 0), ValueError, "nothing is left to deal"),
    ],
)  # fmt: skip
def test_refusals_in_words(call: object, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        call()  # type: ignore[operator]


def enumerated(bag: tuple[int, ...], lid: tuple[int, ...]) -> dict[int, Fraction]:
    """The deal of one factory by drawing its tiles one at a time, every sequence of
    draws weighted exactly: from the bag; when it is empty, the lid is poured in first
    (R2); when both are empty the factory stays short.  Deal id -> probability."""
    weights: dict[int, Fraction] = {}

    def draw(bag: list[int], lid: list[int], taken: list[int], chance: Fraction) -> None:
        if len(taken) == 4 or not (any(bag) or any(lid)):
            if taken:
                index = deals.deal_id(tuple(COLORS[c] for c in taken))
                weights[index] = weights.get(index, Fraction(0)) + chance
            return
        if not any(bag):
            bag, lid = lid, [0] * 5
        total = sum(bag)
        for color in range(5):
            if bag[color]:
                after = list(bag)
                after[color] -= 1
                draw(after, lid, [*taken, color], chance * Fraction(bag[color], total))

    draw(list(bag), list(lid), [], Fraction(1))
    return weights


small = st.tuples(*[st.integers(0, 5)] * 5)


@settings(max_examples=300, deadline=None)
@given(bag=small, lid=small)
def test_r2_the_probabilities_are_the_exact_ones(
    bag: tuple[int, ...], lid: tuple[int, ...]
) -> None:
    """R2: every deal and its probability as an enumeration of the draws one tile at a
    time finds them, correctly rounded (a bag running out into the lid, both running
    out, short factories); they sum to 1."""
    outcomes = deals.deal_outcomes(bag, lid)
    exact = enumerated(bag, lid)
    assert [index for index, _ in outcomes] == sorted(exact)
    for index, chance in outcomes:
        assert chance == float(exact[index])
    if outcomes:
        assert math.fsum(chance for _, chance in outcomes) == pytest.approx(1.0, abs=1e-12)
    else:
        assert not any(bag) and not any(lid)


@settings(max_examples=200, deadline=None)
@given(bag=st.tuples(*[st.integers(0, 20)] * 5), lid=st.tuples(*[st.integers(0, 20)] * 5))
def test_the_probabilities_sum_to_one_on_game_sized_bags(
    bag: tuple[int, ...], lid: tuple[int, ...]
) -> None:
    """Bags and lids of a game's sizes: the multivariate hypergeometric sums to 1."""
    outcomes = deals.deal_outcomes(bag, lid)
    if any(bag) or any(lid):
        assert math.fsum(chance for _, chance in outcomes) == pytest.approx(1.0, abs=1e-12)
        assert all(0.0 < chance <= 1.0 for _, chance in outcomes)
        assert len(outcomes) <= 70


def test_a_full_bag_gives_every_deal_of_four() -> None:
    """S3: 20 tiles of each colour: the 70 deals of four, BBBB with probability
    C(20, 4) / C(100, 4), BYRK with 20**4 / C(100, 4)."""
    outcomes = dict(deals.deal_outcomes((20,) * 5, (0,) * 5))
    assert sorted(outcomes) == list(range(70))
    assert outcomes[0] == math.comb(20, 4) / math.comb(100, 4)
    byrk = deals.deal_id((az.Color.BLUE, az.Color.YELLOW, az.Color.RED, az.Color.BLACK))
    assert outcomes[byrk] == 20**4 / math.comb(100, 4)


@settings(max_examples=300, deadline=None)
@given(bag=small, lid=small)
def test_a_deal_takes_its_tiles_from_the_bag_then_the_poured_lid_r2(
    bag: tuple[int, ...], lid: tuple[int, ...]
) -> None:
    """R2: dealing an outcome leaves the bag and the lid the referee's draws leave: the
    bag less the deal while it holds four tiles; else the lid poured into it, less the
    tiles drawn from it.  Every other deal is refused."""
    outcomes = dict(deals.deal_outcomes(bag, lid))
    for index in range(len(deals.DEALS)):
        if index not in outcomes:
            with pytest.raises(ValueError):
                deals.deal(bag, lid, index)
            continue
        tiles, after_bag, after_lid = deals.deal(bag, lid, index)
        counts = deals.DEAL_COUNTS[index]
        assert tiles == deals.DEALS[index]
        if sum(bag) >= 4:
            assert after_bag == tuple(b - k for b, k in zip(bag, counts, strict=True))
            assert after_lid == lid
        else:
            drawn = tuple(k - b for k, b in zip(counts, bag, strict=True))
            assert min(drawn) >= 0
            assert after_bag == tuple(m - d for m, d in zip(lid, drawn, strict=True))
            assert after_lid == (0, 0, 0, 0, 0)
        assert sum(after_bag) + sum(after_lid) + len(tiles) == sum(bag) + sum(lid)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_dealt_by_deals_are_refereed_r2(players: int) -> None:
    """R2: games whose every fill is dealt factory by factory (the deals sampled by their
    probabilities, the bag running out into the lid) give Refills the referee accepts,
    leaving the bag and the lid the deals left."""
    poured = 0
    for seed in range(4):
        rnd = random.Random(seed)
        state = az.new_game(players, external_draws=True, first_player=seed % players)
        factories = len(state.factories)
        while not state.is_over and state.round <= 40:
            if state.phase is not az.Phase.REFILL:
                state = state.apply(rnd.choice(state.legal_moves()))
                continue
            bag, lid = counts(state.bag), counts(state.lid)
            seen: list[tuple[az.Color, ...]] = []
            while len(seen) < factories and (any(bag) or any(lid)):
                outcomes = deals.deal_outcomes(bag, lid)
                poured += sum(bag) < 4 and any(lid)
                index = rnd.choices(*zip(*outcomes, strict=True))[0]
                tiles, bag, lid = deals.deal(bag, lid, index)
                seen.append(tiles)
            state = state.apply(az.Refill((*seen, *[()] * (factories - len(seen)))))
            if not state.is_over:
                assert (counts(state.bag), counts(state.lid)) == (bag, lid)
    assert poured


def counts(tiles: tuple[az.Color, ...]) -> tuple[int, ...]:
    return tuple(tiles.count(c) for c in COLORS)


def test_every_fill_of_a_tiny_table_is_the_referees_r2() -> None:
    """R2, exhaustively: a bag of 5 and a lid of 6 over 5 factories; every sequence of
    deals gives a fill the referee accepts (the lid poured, the third factory short,
    the others empty), and the fills' probabilities sum to 1."""
    boards = (az.PlayerBoard(), az.PlayerBoard())
    bag_tiles = (az.Color.BLUE, az.Color.BLUE, az.Color.RED, az.Color.WHITE, az.Color.WHITE)
    lid_tiles = (az.Color.YELLOW,) * 3 + (az.Color.RED,) * 2 + (az.Color.BLACK,)
    waiting = az.GameState.make(
        players=boards, factories=((),) * 5, center=(), bag=bag_tiles, lid=lid_tiles,
        current_player=0, start_player=0, phase=az.Phase.REFILL, round=3,
    )  # fmt: skip
    fills: list[tuple[tuple[tuple[az.Color, ...], ...], Fraction]] = []

    def explore(
        bag: tuple[int, ...],
        lid: tuple[int, ...],
        seen: tuple[tuple[az.Color, ...], ...],
        chance: Fraction,
    ) -> None:
        if not (any(bag) or any(lid)):
            fills.append((seen, chance))
            return
        for index, probability in deals.deal_outcomes(bag, lid):
            tiles, after_bag, after_lid = deals.deal(bag, lid, index)
            explore(after_bag, after_lid, (*seen, tiles), chance * Fraction(probability))

    explore(counts(bag_tiles), counts(lid_tiles), (), Fraction(1))
    assert len(fills) > 10
    for seen, _ in fills:
        assert [len(tiles) for tiles in seen] == [4, 4, 3]
        waiting.apply(az.Refill((*seen, (), ())))  # accepted
    assert float(sum(chance for _, chance in fills)) == pytest.approx(1.0, abs=1e-12)
