"""The OpenSpiel game python_azul (azul_rules.ai.spiel), with OpenSpiel's own tests."""

from __future__ import annotations

import math
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.extras import needs

pyspiel = needs("pyspiel")
np = needs("numpy")

import azul_rules as az  # noqa: E402
from azul_rules import testing  # noqa: E402
from azul_rules.ai import actions, deals  # noqa: E402
from azul_rules.ai import spiel as azs  # noqa: E402

COMBINATIONS = [(p, v) for p in (2, 3, 4) for v in ("colored", "grey")]


def load(players: int = 2, variant: str = "colored", **more: int) -> Any:
    return pyspiel.load_game("python_azul", {"players": players, "variant": variant, **more})


def sample_chance(state: Any, rng: random.Random) -> int:
    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
    return int(rng.choices(outcomes, weights)[0])


def play_random(state: Any, rng: random.Random, limit: int = 10_000) -> Any:
    """Random legal actions and chance outcomes until the end (or ``limit`` actions)."""
    for _ in range(limit):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("players", "variant"), COMBINATIONS)
def test_random_sim_test(players: int, variant: str) -> None:
    """OpenSpiel's own conformance test: legal actions sorted and empty for others,
    chance outcomes, clone, serialization, returns within the utilities, the game
    within max_game_length."""
    pyspiel.random_sim_test(load(players, variant), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("players", "takes"), [(2, 180), (3, 240), (4, 300)])
def test_game_info(players: int, takes: int) -> None:
    colored = load(players)
    grey = load(players, "grey")
    factories = actions.factory_count(players)
    assert colored.num_players() == players
    assert colored.num_distinct_actions() == takes
    assert grey.num_distinct_actions() == takes + 25
    assert colored.max_chance_outcomes() == 125 + players  # 125 deals, then the first player
    assert colored.max_utility() == 1.0
    assert colored.min_utility() == pytest.approx(-1 / (players - 1))
    assert colored.utility_sum() == 0.0
    assert colored.max_game_length() == 50 * 4 * factories
    assert grey.max_game_length() == 50 * (4 * factories + 5 * players)
    assert load(players, max_rounds=3).max_game_length() == 3 * 4 * factories
    kind = colored.get_type()
    assert kind.short_name == "python_azul"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert colored.observation_tensor_shape() == [actions.observation_size(players)]


def test_load_by_string_and_defaults() -> None:
    game = pyspiel.load_game("python_azul(players=4,variant=grey)")
    assert game.get_parameters() == {"players": 4, "variant": "grey", "max_rounds": 50}
    assert pyspiel.load_game("python_azul").num_players() == 2


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"variant": "purple"}, "variant must be 'colored' or 'grey'"),
        ({"max_rounds": 0}, "max_rounds must be 1 or more"),
    ],
)
def test_bad_parameters(params: dict[str, object], message: str) -> None:
    with pytest.raises(pyspiel.SpielError, match=message):
        pyspiel.load_game("python_azul", params)


def test_first_chance_node_chooses_the_first_player_s7() -> None:
    """S7: uniform over the players, outcome 125 + k; then each factory is dealt (R2):
    one chance node per factory, its outcome the deal of its four tiles."""
    state = load(3).new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(125, 1 / 3), (126, 1 / 3), (127, 1 / 3)]
    # numbered from 0, as the player ids are
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 127) == "player 2 starts"
    state.apply_action(127)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(70))  # every deal of four tiles
    assert dict(outcomes)[0] == math.comb(20, 4) / math.comb(100, 4)  # BBBB
    assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "deal BBBK"
    for _ in range(7):
        state.apply_action(sample_chance(state, random.Random(1)))
    assert state.current_player() == 2
    assert state.referee.start_player == 2
    assert sum(len(f) for f in state.referee.factories) == 28
    assert len(state.referee.bag) == 72


def test_factories_are_dealt_by_the_bags_counts_and_the_lid_is_poured_r2() -> None:
    """R2: each factory's deal is weighted by the bag's tiles (the multivariate
    hypergeometric of its four tiles); once the bag holds fewer than four, the factory
    takes them and the rest is drawn from the lid, poured into the bag; the referee
    accepts every fill."""
    rng = random.Random(4)
    poured = 0
    for _ in range(3):
        state = load(4).new_initial_state()
        state.apply_action(125)
        while not state.is_terminal():
            if not state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            table = state.table
            bag = tuple(table.bag.count(c) for c in az.Color)
            lid = tuple(table.lid.count(c) for c in az.Color)
            outcomes = state.chance_outcomes()
            assert outcomes == deals.deal_outcomes(bag, lid)
            assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
            if len(table.bag) >= 4:
                assert all(sum(deals.DEAL_COUNTS[a]) == 4 for a, _ in outcomes)
            outcome = sample_chance(state, rng)
            state.apply_action(outcome)
            dealt = state.table.factories if state.is_chance_node() else state.referee.factories
            assert deals.deal_id(next(f for f in reversed(dealt) if f)) == outcome or (
                not state.is_chance_node()
            )
            if len(table.bag) < 4 and table.lid:
                poured += 1
                assert not state.table.lid  # poured into the bag
    assert poured > 0


def test_a_fill_stops_when_bag_and_lid_are_empty_r2_r6() -> None:
    """R2: factories stay short when bag and lid run out; R6: nothing to deal ends the
    game, with the usual winner."""
    game = load(2)
    boards = (az.PlayerBoard(score=3), az.PlayerBoard(score=5))
    waiting = az.GameState.make(
        players=boards, factories=((),) * 5, center=(), bag=(az.Color.RED,) * 6, lid=(),
        current_player=1, start_player=1, phase=az.Phase.REFILL, round=4,
    )  # fmt: skip
    state = game.state_from(waiting)
    red = az.Color.RED
    assert state.chance_outcomes() == [(deals.deal_id((red,) * 4), 1.0)]
    state.apply_action(deals.deal_id((red,) * 4))
    assert state.chance_outcomes() == [(deals.deal_id((red,) * 2), 1.0)]  # short (R2)
    state.apply_action(deals.deal_id((red,) * 2))
    assert not state.is_chance_node()  # bag and lid are empty: the fill stops
    assert [len(f) for f in state.referee.factories] == [4, 2, 0, 0, 0]
    assert state.current_player() == 1
    empty = az.GameState.make(
        players=boards, factories=((),) * 5, center=(), bag=(), lid=(), current_player=1,
        start_player=1, phase=az.Phase.REFILL, round=4,
    )  # fmt: skip
    over = game.state_from(empty)
    assert over.is_terminal()
    assert over.returns() == [-1.0, 1.0]


def test_illegal_actions_raise_spiel_error_with_the_verdict() -> None:
    """The message carries the code, rule id and message; ``result`` the verdict."""
    state = load(2).new_initial_state()
    state.apply_action(125)
    blue, yellow, red = az.Color.BLUE, az.Color.YELLOW, az.Color.RED
    for tiles in [(blue,) * 4, (yellow,) * 4] + [(red,) * 4] * 3:  # factories 1-2, then red
        state.apply_action(deals.deal_id(tiles))
    assert state.referee.factories[0] == (az.Color.BLUE,) * 4
    red_from_factory_1 = actions.action_id(az.Take(0, az.Color.RED, 0), 2)
    with pytest.raises(pyspiel.SpielError) as caught:
        state.apply_action(red_from_factory_1)
    text = str(caught.value)
    assert "COLOR_NOT_IN_SOURCE (T2)" in text
    assert "factory 1 holds no red tile" in text
    assert caught.value.result.code is az.ErrorCode.COLOR_NOT_IN_SOURCE
    with pytest.raises(pyspiel.SpielError, match="out of range"):
        state.apply_action(180)  # a placement id, on the coloured wall
    with pytest.raises(pyspiel.SpielError, match=r"the bag holds 0 blue tile\(s\)"):
        chance = load(3).new_initial_state()  # 7 factories dealt
        chance.apply_action(125)
        for _ in range(5):
            chance.apply_action(0)  # BBBB: the 20 blue tiles
        chance.apply_action(0)  # four more blue tiles
    with pytest.raises(pyspiel.SpielError, match="not a first player"):
        load(2).new_initial_state().apply_action(127)
    legal = state.legal_actions()
    state.apply_action(legal[0])  # the failed actions left the state as it was


def _refused(state: Any, outcome: int) -> str:
    """The message of the SpielError that refuses ``outcome``; the state is unchanged."""
    before = str(state)
    with pytest.raises(pyspiel.SpielError) as caught:
        state.apply_action(outcome)
    assert str(state) == before
    return str(caught.value)


def test_a_deal_names_the_outcomes_it_takes_r2() -> None:
    """R2: a deal node takes only the deals the bag (and the lid poured into it) can
    give; outcome 127, a first player (S7) at the game's first chance node, is named
    for what it is; so is a deal the bag cannot give, with the outcomes the node takes."""
    state = load(3).new_initial_state()
    state.apply_action(127)
    every_deal = ", ".join(f"{a} ({deals.outcome_text(a)})" for a in range(70))
    node = f"this chance node deals factory 1 and takes outcomes {every_deal} (R2)"
    assert _refused(state, 127) == (
        "chance outcome 127 is not a deal but a first-player outcome (S7), taken only by "
        f"the game's first chance node; {node}"
    )
    assert _refused(state, 200) == (
        f"chance outcome 200 is not a deal (0-124), nor any outcome of this game (0-127); {node}"
    )
    assert _refused(state, 70) == (
        "chance outcome 70 (BBB): deal 70 (BBB) cannot be dealt: the bag holds 4 tiles or "
        f"more, so the factory gets four (R2); {node}"
    )
    waiting = az.GameState.make(
        players=(az.PlayerBoard(), az.PlayerBoard()), factories=((),) * 5, center=(),
        bag=(az.Color.RED, az.Color.BLUE), lid=(), current_player=0, start_player=0,
        phase=az.Phase.REFILL, round=2,
    )  # fmt: skip
    short = load(2).state_from(waiting)
    assert short.chance_outcomes() == [(deals.deal_id((az.Color.BLUE, az.Color.RED)), 1.0)]
    assert _refused(short, 1) == (
        "chance outcome 1 (BBBY): deal 1 (BBBY) cannot be dealt: the factory takes every "
        "tile left, BR (R2); this chance node deals factory 1 and takes outcomes 107 (BR) (R2)"
    )
    poured = load(2).state_from(waiting.replace(lid=(az.Color.WHITE,) * 3 + (az.Color.RED,)))
    assert _refused(poured, 0) == (
        "chance outcome 0 (BBBB): deal 0 (BBBB) cannot be dealt: the factory takes the "
        "bag's BR and 2 tile(s) drawn from the lid poured into the bag, which holds 1 red, "
        "3 white (R2); this chance node deals factory 1 and takes outcomes 27 (BRRW), "
        "30 (BRWW) (R2)"
    )


def test_the_first_chance_node_names_the_outcomes_it_takes_s7() -> None:
    """S7: the first chance node takes only 125 + k, player k starting."""
    state = load(3).new_initial_state()
    assert _refused(state, 2) == (
        "chance outcome 2 is not a first player: this chance node chooses the first player "
        "(S7) and takes outcomes 125-127 (player 0-2 starts); the deals 0-124 (a factory's "
        "tiles) are the outcomes of the chance nodes after it (R2)"
    )
    assert _refused(state, 128) == (
        "chance outcome 128 is not a first player: this chance node chooses the first player "
        "(S7) and takes outcomes 125-127 (player 0-2 starts)"
    )


def test_returns_follow_the_outcome_e4() -> None:
    rng = random.Random(11)
    for players in (2, 3, 4):
        state = play_random(load(players).new_initial_state(), rng)
        outcome = state.referee.outcome
        assert outcome is not None
        assert state.returns() == actions.utilities(outcome.winners, players)
        assert sum(state.returns()) == pytest.approx(0.0)
        assert str(state).startswith("game over")


def test_the_round_cap_ends_the_game_as_a_draw() -> None:
    state = play_random(load(3, max_rounds=1).new_initial_state(), random.Random(2))
    assert state.is_terminal()
    assert state.capped
    assert state.referee.round == 2
    assert state.returns() == [0.0, 0.0, 0.0]
    assert str(state).startswith("stopped after round 1 (round cap): a draw")


def test_game_and_state_pickle() -> None:
    game = load(3, "grey")
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = game.new_initial_state()
    play_random(state, random.Random(5), limit=70)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state)
    assert copy.history() == state.history()
    assert copy.legal_actions() == state.legal_actions()
    serialized = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(serialized)
    assert str(restored) == str(state)


def test_clones_are_independent() -> None:
    state = load(2).new_initial_state()
    play_random(state, random.Random(6), limit=30)
    clone = state.clone()
    before = str(state)
    play_random(clone, random.Random(7))
    assert str(state) == before
    assert clone.is_terminal() and not state.is_terminal()


def test_observations() -> None:
    game = load(2)
    state = game.new_initial_state()
    bag = next(f for f in actions.observation_layout(2) if f.name == "bag")
    tensor = state.observation_tensor(0)
    assert tensor[bag.offset : bag.offset + 5] == [20.0] * 5  # every tile in the bag
    assert sum(tensor) == 100 + 1 + 1  # the tiles, round 1, the refill phase
    play_random(state, random.Random(8), limit=60)
    referee = state.referee
    for player in (0, 1):
        tensor = state.observation_tensor(player)
        if state.is_chance_node():
            continue
        assert tensor == pytest.approx(actions.observation(referee, player))
        text = state.observation_string(player)
        assert actions.observation_string(referee, player) in text
    from open_spiel.python.observation import make_observation

    seen = make_observation(game)
    seen.set_from(state, 1)
    assert seen.dict["factories"].shape == (5, 5)
    assert seen.dict["board0.wall"].shape == (5, 5, 5)
    assert float(seen.dict["board0.score"][0]) == state.referee.players[1].score
    assert state.information_state_string(0) == ", ".join(str(a) for a in state.history())


def test_observation_during_a_fill_shows_the_factories_dealt() -> None:
    state = load(2).new_initial_state()
    state.apply_action(126)
    black, white = az.Color.BLACK, az.Color.WHITE
    state.apply_action(deals.deal_id((white, black, white, white)))
    assert state.table.factories[0] == (black, white, white, white)
    assert state.table.factories[1] == ()
    assert len(state.table.bag) == 96
    tensor = state.observation_tensor(0)
    factories = next(f for f in actions.observation_layout(2) if f.name == "factories")
    assert tensor[factories.offset : factories.offset + 10] == [0, 0, 0, 1, 3] + [0] * 5
    assert "chance: factory 2 of 5 is dealt (R2)" in str(state)
    assert "factories: KWWW - - - -" in str(state)


def test_mcts_plays_whole_games() -> None:
    """OpenSpiel's MCTSBot (few simulations) against itself, to the end."""
    from open_spiel.python.algorithms import mcts

    game = load(2)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2, 4, evaluator, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    chance = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert state.referee.is_over
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]


def test_state_from_a_seeded_position() -> None:
    """A seeded referee position is taken as it is; its next fills are chance nodes."""
    game = load(2, "grey")
    position = az.new_game(2, seed=9, variant=az.Variant.GREY)
    state = game.state_from(position)
    assert state.current_player() == position.current_player
    assert state.legal_actions() == actions.legal_actions(position)
    with pytest.raises(pyspiel.SpielError, match="3 players"):
        game.state_from(az.new_game(3, seed=1))
    play_random(state, random.Random(1))
    assert state.is_terminal()


def test_registered_on_import() -> None:
    names = [g.short_name for g in pyspiel.registered_games()]
    assert azs.GAME_NAME in names


def test_mcts_example_runs() -> None:
    """examples/openspiel_mcts.py: MCTS against the random bot, the result printed."""
    import runpy
    from contextlib import redirect_stdout
    from io import StringIO
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "openspiel_mcts.py"
    example = runpy.run_path(str(script))
    out = StringIO()
    with redirect_stdout(out):
        example["main"](games=1, simulations=2)
    assert "MCTS (2 simulations a move) won" in out.getvalue()


# -- a hostile user's pass ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "variant", "most"),
    [(2, "colored", 107_374_182), (4, "grey", 38_347_922)],
)
def test_a_round_cap_past_a_32_bit_game_length_is_refused_by_name(
    players: int, variant: str, most: int
) -> None:
    """max_game_length (rounds x moves a round) is a C++ int: a cap that overflowed it
    raised pybind's TypeError ("incompatible constructor arguments") from GameInfo."""
    game = load(players, variant, max_rounds=most)
    assert game.max_game_length() == most * (
        4 * (2 * players + 1) + (5 * players if variant == "grey" else 0)
    )
    with pytest.raises(pyspiel.SpielError, match=f"max_rounds must be at most {most:,} with"):
        load(players, variant, max_rounds=most + 1)


def test_action_to_string_names_only_the_games_own_actions() -> None:
    """A chance outcome past the players was "player 96 starts"; a grey placement id in a
    coloured game was "place line 1 at column 1"."""
    colored = load(2).new_initial_state()
    chance = int(pyspiel.PlayerId.CHANCE)
    assert colored.action_to_string(chance, 126) == "player 1 starts"
    assert colored.action_to_string(chance, 127) == "chance outcome 127"
    assert colored.action_to_string(chance, 1000) == "chance outcome 1000"
    assert colored.action_to_string(chance, 4) == "deal BBBW"
    assert colored.action_to_string(chance, 124) == "deal W"
    assert colored.action_to_string(0, 180) == "action 180"
    grey = load(2, "grey").new_initial_state()
    assert grey.action_to_string(0, 180) == "place line 1 at column 1"
    assert grey.action_to_string(0, 205) == "action 205"
    names = [grey.action_to_string(1, a) for a in range(205)]
    assert names == [actions.action_to_string(a, 2) for a in range(205)]
    assert len(set(names)) == 205


def test_a_state_serialized_in_a_game_of_other_parameters_is_refused() -> None:
    """OpenSpiel restores a Python state's pickled attributes into a new state of the
    game at hand: a 2-player state came back in a 3-player game (2 returns, a ValueError
    for player 2's observation)."""
    state = play_random(load(2).new_initial_state(), random.Random(3), limit=40)
    serialized = state.serialize()
    assert load(2).deserialize_state(serialized).history() == state.history()
    wrong = "this state was serialized in python_azul\\(max_rounds=50,players=2,variant=colored\\)"
    with pytest.raises(pyspiel.SpielError, match=wrong + ", not in this game, .*players=3"):
        load(3).deserialize_state(serialized)
    with pytest.raises(pyspiel.SpielError, match="max_rounds=9,players=2"):
        load(2, max_rounds=9).deserialize_state(serialized)


def test_a_game_stopped_at_the_round_cap_shows_no_player_to_move() -> None:
    """A capped game is terminal: its observation had the next round's starter in
    `to_move` (documented as zeros once over)."""
    state = play_random(load(3, max_rounds=1).new_initial_state(), random.Random(2))
    assert state.capped
    layout = {f.name: f for f in actions.observation_layout(3)}
    for player in range(3):
        tensor = state.observation_tensor(player)
        to_move, start = layout["to_move"], layout["start_player"]
        assert tensor[to_move.offset : to_move.offset + 3] == [0.0, 0.0, 0.0]
        assert sum(tensor[start.offset : start.offset + 3]) == 1.0


def test_state_from_refuses_what_is_not_a_position() -> None:
    """It raised AttributeError ('dict' object has no attribute 'players')."""
    with pytest.raises(az.FormatError, match=r"state_from\(\) reads a GameState, not \{\}"):
        load(2).state_from({})


# -- the chance nodes of a fill, one per factory (issue 25) ---------------------------------


@settings(max_examples=60, deadline=None)
@given(state=testing.game_states(include_over=False), rnd=st.randoms(use_true_random=False))
def test_a_fill_dealt_factory_by_factory_is_the_referees_refill_r2(
    state: az.GameState, rnd: random.Random
) -> None:
    """R2: the position python_azul builds after a fill (through the slots, without the
    Refill's checks) is the one ``referee.apply(Refill(...))`` gives, part for part, for
    fills sampled by the deals' probabilities from reachable bags and lids."""
    waiting = az.GameState.make(
        players=state.players, factories=((),) * len(state.factories), center=(),
        bag=state.bag, lid=state.lid, current_player=state.start_player,
        start_player=state.start_player, phase=az.Phase.REFILL, round=state.round,
        variant=state.variant, last_scoring=state.last_scoring,
    )  # fmt: skip
    game = load(len(state.players), state.variant.value)
    spiel_state = game.state_from(waiting)
    seen: list[tuple[az.Color, ...]] = []
    while spiel_state.is_chance_node():
        before = spiel_state.table
        outcome = sample_chance(spiel_state, rnd)
        spiel_state.apply_action(outcome)
        seen.append(deals.deal_tiles(outcome))
        assert len(before.factories[len(seen) - 1]) == 0
    seen += [()] * (len(state.factories) - len(seen))
    expected = waiting.apply(az.Refill(tuple(seen)))
    got = spiel_state.referee
    assert got == expected
    assert hash(got) == hash(expected)
    assert az.to_json(got) == az.to_json(expected)
    assert [type(f) for f in got.factories] == [tuple] * len(seen)
    assert (got.phase, got.context.rng_state, got.marker_holder) == (
        expected.phase, expected.context.rng_state, expected.marker_holder,
    )  # fmt: skip


def test_refilled_hands_an_empty_fill_to_the_referee_r6() -> None:
    """R6: a fill that deals nothing goes through the referee, which ends the game."""
    boards = (az.PlayerBoard(score=3), az.PlayerBoard(score=5))
    empty = az.GameState.make(
        players=boards, factories=((),) * 5, center=(), bag=(), lid=(), current_player=1,
        start_player=1, phase=az.Phase.REFILL, round=4,
    )  # fmt: skip
    over = azs.refilled(empty, ((),) * 5, (0,) * 5, (0,) * 5)
    assert over == empty.apply(az.Refill(((),) * 5))
    assert over.is_over


def test_a_state_in_the_middle_of_a_fill_clones_pickles_and_serializes() -> None:
    """A state between two deals: its clone, its pickle and its serialization go on to
    the same game as the state itself."""
    game = load(3, "grey")
    state = game.new_initial_state()
    state.apply_action(126)
    state.apply_action(sample_chance(state, random.Random(2)))
    state.apply_action(sample_chance(state, random.Random(3)))
    assert state.is_chance_node() and len(state.table.bag) == 92
    copies = [
        state.clone(),
        pickle.loads(pickle.dumps(state)),
        game.deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ]
    end = play_random(state, random.Random(9))
    for copy in copies:
        assert str(play_random(copy, random.Random(9))) == str(end)
        assert copy.history() == end.history()


def test_a_chance_node_per_factory_and_per_round() -> None:
    """One chance node per factory filled and one for the first player: 1 + 5 per round
    of a 2-player game while the bag lasts (20 tiles per round)."""
    state = load(2).new_initial_state()
    rng = random.Random(5)
    chance = 0
    while state.referee.round < 3 or state.is_chance_node():
        if state.is_chance_node():
            chance += 1
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance == 1 + 5 * 3
    assert len(state.referee.bag) == 40
