"""What play reaches is possible: every position of thousands of random games reads back
from JSON and from its notation with no problem (``problems() == ()``).

The readers refuse what play cannot reach (docs/rules.md, "Impossible positions"); this
holds them to refusing nothing play can reach.  The games: 2-4 players, both walls,
seeded draws and the table's own (``Refill`` moves drawn at random, R2), played by a
random bot, the greedy bot, and a hoarder that keeps its tiles off the floor line
(which starves the bag, R2, and reaches short fillings).  The quick run plays 120
games; the thorough run (CI) 2,160.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import azul_rules as az
from azul_rules.core.bots import GreedyBot
from azul_rules.testing import fill_factories

GAMES_A_CHUNK = 60
STYLES = ("random", "greedy", "hoard")


def game(number: int) -> Iterator[az.GameState]:
    """Every position of random game ``number``, the first included."""
    rnd = random.Random(number)
    players = (2, 3, 4)[number % 3]
    variant = (az.Variant.COLORED, az.Variant.GREY)[number // 3 % 2]
    style = STYLES[number // 6 % 3]
    if number // 18 % 3 == 2:  # a third of the games with the table's own draws
        state = az.new_game(players, variant=variant, external_draws=True,
                            first_player=rnd.randrange(players))  # fmt: skip
    else:
        state = az.new_game(players, seed=rnd.randrange(2**32), variant=variant)
    greedy = GreedyBot()
    yield state
    while not state.is_over and state.round <= 40:
        state = state.apply(_choice(state, style, greedy, rnd))
        yield state


def _choice(state: az.GameState, style: str, greedy: GreedyBot, rnd: random.Random) -> az.Move:
    if state.phase is az.Phase.REFILL:
        return fill_factories(state, rnd.choice)
    moves = state.legal_moves()
    if style == "greedy" and rnd.random() < 0.9:
        return greedy.choose(state)
    if style == "hoard":
        kept = [m for m in moves if not (isinstance(m, az.Take) and m.line == az.FLOOR)]
        return rnd.choice(kept or moves)
    return rnd.choice(moves)


def check_games(first: int) -> tuple[int, set[tuple[az.Phase, bool]]]:
    """Read back every position of games ``first`` to ``first + GAMES_A_CHUNK - 1``;
    how many there were, and which phases (with or without external draws) they saw."""
    count = 0
    seen: set[tuple[az.Phase, bool]] = set()
    for number in range(first, first + GAMES_A_CHUNK):
        for state in game(number):
            # from_json checks problems(): an impossible position is refused, its
            # problems named in the InvalidStateError (docs/rules.md)
            assert az.from_json(az.to_json(state), az.GameState) == state
            assert az.from_notation(az.to_notation(state)) == state
            seen.add((state.phase, state.external_draws))
            count += 1
    return count, seen


@pytest.mark.parametrize("chunk", range(2))
def test_every_position_of_random_games_is_possible(chunk: int) -> None:
    """S1-S7, T1-T4, P1-P7, F1-F4, W1-W5, R1-R7, E1-E4, V1-V5: 120 random games, every
    position read back from JSON and from its notation, no problem found."""
    count, seen = check_games(chunk * GAMES_A_CHUNK)
    assert count > GAMES_A_CHUNK * 30
    assert (az.Phase.GAME_OVER, False) in seen and (az.Phase.FACTORY_OFFER, True) in seen


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(2, 36))
def test_every_position_of_thousands_of_random_games_is_possible(chunk: int) -> None:
    """The same over 2,040 more games (2,160 in all)."""
    count, _ = check_games(chunk * GAMES_A_CHUNK)
    assert count > GAMES_A_CHUNK * 30


def test_the_games_reach_every_phase_and_ending() -> None:
    """The games above go through every phase, with both kinds of draws, to ends by a
    complete row (E1) and on the grey wall."""
    phases = set()
    endings = set()
    for number in range(0, 2 * GAMES_A_CHUNK, 3):
        for state in game(number):
            phases.add((state.phase, state.variant, state.external_draws))
            if state.is_over:
                endings.add(any(b.has_complete_row() for b in state.players))
    assert {(az.Phase.WALL_TILING, az.Variant.GREY, False),
            (az.Phase.REFILL, az.Variant.GREY, True),
            (az.Phase.REFILL, az.Variant.COLORED, True)} <= phases  # fmt: skip
    assert True in endings
