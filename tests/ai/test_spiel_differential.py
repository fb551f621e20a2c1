"""Differential testing of OpenSpiel Azul games against the referee
(azul_rules.testing.spiel_differential_machine): python_azul must agree; a game that
counts a cross tile once (W3, CROSS_COUNTED_ONCE) must be caught."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.extras import needs

pyspiel = needs("pyspiel")

import azul_rules as az  # noqa: E402
from azul_rules import testing as azt  # noqa: E402
from azul_rules.ai import deals  # noqa: E402
from azul_rules.ai import spiel as azs  # noqa: E402

QUICK = settings(
    max_examples=6,
    stateful_step_count=100,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
    report_multiple_bugs=False,
)


class CrossOnceState(azs.AzulState):
    """python_azul with the classic scoring bug: a tile that joins a horizontal and a
    vertical run scores one point short (runs of 2 and 2 give 3, not 4)."""

    def _play(self, move: az.Move) -> az.GameState:
        before = self.referee
        after = super()._play(move)
        record = after.last_scoring
        if record is None or record is before.last_scoring:
            return after
        boards = list(after.players)
        for tiling in record.players:
            crosses = sum(1 for p in tiling.placements if p.horizontal > 1 and p.vertical > 1)
            if crosses:
                board = boards[tiling.player]
                boards[tiling.player] = az.PlayerBoard(
                    score=max(0, board.score - crosses), pattern_lines=board.pattern_lines,
                    wall=board.wall, floor=board.floor,
                )  # fmt: skip
        return attrs.evolve(after, players=tuple(boards))


class CrossOnceGame(azs.AzulGame):
    state_class = CrossOnceState


pyspiel.register_game(
    azs.game_type("python_azul_cross_once", "Azul, a cross tile counted once"), CrossOnceGame
)


def test_python_azul_agrees_with_the_referee() -> None:
    """Same player to move, legal action ids, scores after every move, end and winners,
    on both walls and every player count."""
    machine = azt.spiel_differential_machine("python_azul")
    run_state_machine_as_test(machine, settings=QUICK)



def test_differential_machine_takes_an_openspiel_game_by_name() -> None:
    """``differential_machine("name")`` is ``spiel_differential_machine("name")``."""
    machine = azt.differential_machine("python_azul", player_counts=(2,),
                                       variants=(az.Variant.COLORED,))  # fmt: skip
    run_state_machine_as_test(machine, settings=settings(QUICK, max_examples=2))
    wrong = azt.differential_machine(
        "python_azul_cross_once", player_counts=(2,), variants=(az.Variant.COLORED,)
    )
    with pytest.raises(AssertionError, match=r"the implementation's scores are .* the referee's"):
        run_state_machine_as_test(wrong, settings=settings(QUICK, max_examples=30))
    with pytest.raises(ValueError, match="OpenSpiel knows no game 'no_such_azul'"):
        azt.differential_machine("no_such_azul")

def test_a_cross_counted_once_is_caught_w3() -> None:
    """W3: the differential machine finds the game whose scores fall behind."""
    machine = azt.spiel_differential_machine(
        "python_azul_cross_once", player_counts=(2,), variants=(az.Variant.COLORED,)
    )
    with pytest.raises(AssertionError, match=r"the implementation's scores are .* the referee's"):
        run_state_machine_as_test(machine, settings=settings(QUICK, max_examples=30))


def test_chance_sequence_deals_each_factory_r2() -> None:
    """R2: one deal per factory, the first player (125 + k) first in a new game; a
    factory filled across the pour of the lid is dealt as its four tiles, and python_azul
    takes that deal where the bag ran out."""
    red, blue = az.Color.RED, az.Color.BLUE
    before = az.GameState.make(
        players=(az.PlayerBoard(), az.PlayerBoard()), factories=((),) * 5, center=(),
        bag=(blue, red), lid=(red,) * 20, current_player=0, start_player=0,
        phase=az.Phase.FACTORY_OFFER, round=3,
    )  # fmt: skip
    after = az.GameState.make(
        players=before.players, factories=((red, red, red, blue),) + ((red,) * 4,) * 4,
        center=(), bag=(), lid=(red,) * 2, current_player=0, start_player=0,
        phase=az.Phase.FACTORY_OFFER, round=4,
    )  # fmt: skip
    outcomes = azs.chance_sequence(after, before)
    assert outcomes == [deals.deal_id((blue, red, red, red))] + [deals.deal_id((red,) * 4)] * 4
    waiting = pyspiel.load_game("python_azul").state_from(before.replace(phase=az.Phase.REFILL))
    for outcome in outcomes:
        assert outcome in dict(waiting.chance_outcomes())
        waiting.apply_action(outcome)
    assert waiting.referee.factories == after.factories
    assert (waiting.referee.bag, waiting.referee.lid) == ((red, red), ())  # the lid was poured
    first = azs.chance_sequence(az.new_game(2, seed=1, first_player=1), None)
    assert first[0] == 126  # player 1 starts (S7)
    assert len(first) == 6


def test_a_game_with_other_legal_actions_is_caught() -> None:
    """A game that differs in its legal actions is reported before the move."""

    class NoFloor(azs.AzulState):
        def _legal_actions(self, player: int) -> list[int]:
            found: list[int] = super()._legal_actions(player)
            if player >= 0 and len(found) > 1:
                return [a for a in found if a % 6 != 5 or a >= 150]
            return found

    class NoFloorGame(azs.AzulGame):
        state_class = NoFloor

    pyspiel.register_game(azs.game_type("python_azul_no_floor", "Azul, no floor"), NoFloorGame)
    machine = azt.spiel_differential_machine(
        "python_azul_no_floor", player_counts=(2,), variants=(az.Variant.COLORED,)
    )
    with pytest.raises(AssertionError, match="legal actions differ; the game lacks"):
        run_state_machine_as_test(machine, settings=QUICK)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", [az.Variant.COLORED, az.Variant.GREY])
def test_whole_seeded_games_agree(players: int, variant: az.Variant) -> None:
    """Whole seeded games to their end (E1-E4; the lid poured when the bag runs out, R2),
    the referee's moves replayed in python_azul, the scores compared at every move."""
    import random

    chooser = random.Random(players)
    state = az.new_game(players, seed=players * 7, variant=variant)
    other = azs.SpielImplementation()
    other.start(state)
    while not state.is_over and state.round <= 30:
        move = chooser.choice(state.legal_moves())
        state = state.apply(move)
        other.play(move)
        assert tuple(other.scores()) == tuple(b.score for b in state.players)
    assert other.state.is_terminal() == state.is_over


def test_variants_are_taken_by_name() -> None:
    """The strings "colored" and "grey" are variants here as everywhere in the AI entry
    points (they failed deep inside with a FormatError)."""
    machine = azt.spiel_differential_machine(
        "python_azul", player_counts=(2,), variants=("colored", az.Variant.GREY)
    )
    assert machine.variants == (az.Variant.COLORED, az.Variant.GREY)
    assert machine.player_counts == (2,)
    run_state_machine_as_test(machine, settings=settings(QUICK, max_examples=2))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"variants": ("gray",)}, "variants lists 'colored' or 'grey' (or Variant values), "
         "at least one, not ('gray',)"),
        ({"variants": "grey"}, "variants is a list such as ('colored',), not 'grey'"),
        ({"variants": ()}, "variants lists 'colored' or 'grey' (or Variant values), at least "
         "one, not ()"),
        ({"variants": (1,)}, "variants lists 'colored' or 'grey' (or Variant values), at "
         "least one, not (1,)"),
        ({"player_counts": (5,)}, "player_counts lists 2, 3 or 4 players (S1), at least one, "
         "not (5,)"),
        ({"player_counts": (True,)}, "player_counts lists 2, 3 or 4 players (S1), at least "
         "one, not (True,)"),
        ({"player_counts": 2}, "player_counts is a list such as (2, 3), not 2"),
        ({"game": "python_azull"}, "OpenSpiel knows no game 'python_azull': register it "
         "(import its module) first; python_azul is registered by importing azul_rules.ai.spiel"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_at_once(arguments: dict[str, object], message: str) -> None:
    """Refused when the machine is built, not deep inside its first game."""
    with pytest.raises(ValueError) as caught:
        azt.spiel_differential_machine(**arguments)  # type: ignore[arg-type]
    assert str(caught.value) == message
