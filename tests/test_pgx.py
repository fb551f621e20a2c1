"""The batched JAX engine behind pgx's API (azul_rules.pgx, issue 28), held to the referee
step by step: random games in small batches on the CPU."""

from __future__ import annotations

import random
import runpy
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

import attrs
import pytest

from tests.extras import needs

jax = needs("jax")
needs("pgx")
np = needs("numpy")

import azul_rules as az  # noqa: E402
import azul_rules.pgx as engine  # noqa: E402  (after the extras are known to be there)
from azul_rules import actions  # noqa: E402
from azul_rules.core.board import PlayerBoard  # noqa: E402
from azul_rules.core.colors import COLORS, Color  # noqa: E402
from azul_rules.core.grey import walls_can_end  # noqa: E402


@pytest.mark.parametrize("variant", ["colored", "grey"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_with_the_referee_step_by_step(players: int, variant: str) -> None:
    """Every step of 16 games: the mask, the position, the observation, the rewards."""
    steps = engine.differential(players, 16, variant=variant, batch=8, seed=players)
    assert steps > 16 * 40  # whole games: dozens of takes each


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["colored", "grey"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_thousand_random_games_agree_with_the_referee(players: int, variant: str) -> None:
    """Issue 28's count: 1,000 random games per player count and wall."""
    steps = engine.differential(players, 1000, variant=variant, batch=100, seed=100 + players)
    assert steps > 1000 * 40


def _random_wall(choose: random.Random) -> tuple[tuple[Color | None, ...], ...]:
    """A grey wall obeying V2 (no colour twice in a row or a column), often with rows
    that can no longer be completed."""
    wall: list[list[Color | None]] = [[None] * 5 for _ in range(5)]
    for row, column in choose.sample([(r, c) for r in range(5) for c in range(5)], 25):
        taken = {wall[row][c] for c in range(5)} | {wall[r][column] for r in range(5)}
        allowed = [color for color in COLORS if color not in taken]
        if allowed and choose.random() < 0.7:
            wall[row][column] = choose.choice(allowed)
    return tuple(tuple(cells) for cells in wall)


def test_r7_agrees_with_the_referee_on_random_grey_walls() -> None:
    """R7 (no wall row can ever be completed) is rare in random games, so it is held to
    the referee's ``walls_can_end`` on random walls, both answers seen."""
    choose = random.Random(28)
    answers = set()
    for _ in range(300):
        walls = [_random_wall(choose) for _ in range(2)]
        expected = walls_can_end([PlayerBoard(wall=wall) for wall in walls])
        codes = [[[-1 if c is None else int(c) for c in row] for row in wall] for wall in walls]
        found = bool(engine._walls_can_end(jax.numpy.asarray(codes, dtype=jax.numpy.int8)))
        assert found == expected, walls
        answers.add(found)
    assert answers == {True, False}


def test_a_wrong_floor_penalty_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: a full floor costing 13 instead of 14 (F1) is a disagreement."""
    monkeypatch.setattr(engine, "_PENALTY", np.array([0, 1, 2, 4, 6, 8, 11, 13], dtype=np.int16))
    with pytest.raises(engine.Disagreement, match="players"):
        engine.differential(4, 32, batch=16, seed=3)


def test_the_env_speaks_pgx_with_the_ids_and_features_of_actions() -> None:
    env = engine.make(3)
    state = env.init(jax.random.PRNGKey(7))
    assert (env.num_players, env.id, env.version) == (3, "azul", "v0")
    assert env.num_actions == actions.num_actions(3, "colored")
    assert env.observation_shape == (actions.observation_size(3),)
    assert state.observation.dtype == np.float32
    referee = engine.to_state(state)
    assert np.asarray(state.legal_action_mask).nonzero()[0].tolist() == actions.legal_actions(
        referee
    )
    assert state.observation.tolist() == actions.observation(referee, referee.current_player)


def test_a_game_past_the_round_cap_is_truncated() -> None:
    """As the other AI doors: after ``max_rounds`` rounds the game is truncated, not ended."""
    env = engine.AzulEnv(2, max_rounds=1)
    state = env.init(jax.random.PRNGKey(0))
    key = jax.random.PRNGKey(1)
    while not bool(state.truncated):
        assert int(state.round) == 1 and not bool(state.terminated)
        key, step_key = jax.random.split(key)
        action = int(np.asarray(state.legal_action_mask).nonzero()[0][0])
        state = env.step(state, action, step_key)
    assert int(state.round) == 2 and not bool(state.terminated)
    assert not np.asarray(state.rewards).any()


def test_step_needs_a_key_and_the_grey_wall_has_the_placements() -> None:
    env = engine.make(2)
    state = env.init(jax.random.PRNGKey(0))
    with pytest.raises(ValueError, match="key"):
        env.step(state, 5)
    assert engine.make(4, "grey").num_actions == actions.num_actions(4, "grey")


def test_the_self_play_example_plays_whole_games_zero_sum() -> None:
    """examples/pgx_selfplay.py: a jitted batch of random games, every one to its end."""
    example = runpy.run_path(str(Path(__file__).resolve().parents[1] / "examples/pgx_selfplay.py"))
    final = example["self_play"](8, 2, "colored")(jax.random.PRNGKey(3))
    assert bool(final.terminated.all())
    outcomes = {tuple(game) for game in np.asarray(final.rewards).tolist()}
    # actions.utilities of one winner, of the other, or of a shared victory (E4)
    assert outcomes <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    out = StringIO()
    with redirect_stdout(out):
        example["main"](batch=4, players=2)
    assert "4 games of 2 players on the colored wall: 4 ended" in out.getvalue()


def _positions(variant: str) -> list[az.GameState]:
    """Positions of random seeded games (every phase but the refill), a few per game."""
    choose = random.Random(variant)
    found = []
    for seed in range(6):
        state = az.new_game(3, seed=seed, variant=variant)
        while not state.is_over and state.round <= 50:
            if choose.random() < 0.1:
                found.append(state)
            state = state.apply(choose.choice(state.legal_moves()))
        found.append(state)
    return found


@pytest.mark.parametrize("variant", ["colored", "grey"])
def test_from_state_is_the_inverse_of_to_state(variant: str) -> None:
    positions = _positions(variant)
    assert {p.phase for p in positions} >= {az.Phase.FACTORY_OFFER, az.Phase.GAME_OVER}
    for position in positions:
        assert engine.to_state(engine.from_state(position)) == position.replace(rng_state=None)


def test_the_marker_taken_onto_a_full_floor_agrees_with_the_referee() -> None:
    """F4, which random games almost never reach: a position built by hand (player 0's
    floor full), then the engine and the referee in step, player 0 taking from the
    centre as soon as it can."""
    dealt = az.new_game(2, seed=5)
    referee = az.new_game(2, external_draws=True, first_player=0).apply(az.Refill(dealt.factories))
    full = attrs.evolve(referee.players[0], floor=(az.Color.RED,) * 7)
    referee = referee.replace(players=(full, referee.players[1]))
    env = engine.AzulEnv(2)
    state = jax.tree_util.tree_map(lambda a: a[None], engine.from_state(referee))
    step = jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(0)
    marker_on_full_floor = False
    for _ in range(40):
        if bool(state.terminated[0]):
            break
        legal = actions.legal_actions(referee)
        centre = [a for a in legal if a // 30 == 5]
        action = centre[0] if referee.current_player == 0 and centre else legal[0]
        taker_floor = len(referee.players[referee.current_player].floor)
        takes_marker = action // 30 == 5 and referee.marker_holder is None
        marker_on_full_floor |= takes_marker and taker_floor == 7
        key, draw = jax.random.split(key)
        state = step(state, np.asarray([action], np.int32), draw[None])
        referee = engine._follow(referee, action, state, 0, 2, 0)
    assert marker_on_full_floor


def test_nothing_to_deal_ends_the_game_as_the_referee_does() -> None:
    """R6, which random games never reach: bag and lid empty, the last tile of the round
    kept in a pattern line, so that the refill deals nothing and the game ends there."""
    dealt = az.new_game(2, seed=5)
    referee = az.new_game(2, external_draws=True, first_player=0).apply(az.Refill(dealt.factories))
    referee = referee.replace(
        factories=((az.Color.BLUE,), (), (), (), ()), center=(), bag=(), lid=()
    )
    state = jax.tree_util.tree_map(lambda a: a[None], engine.from_state(referee))
    step = jax.jit(jax.vmap(engine.AzulEnv(2).step))
    action = 1  # factory 1, blue, pattern line 2: kept there, not in the lid
    state = step(state, np.asarray([action], np.int32), jax.random.PRNGKey(0)[None])
    referee = engine._follow(referee, action, state, 0, 2, 0)
    assert referee.is_over and bool(state.terminated[0])
    assert not any(board.has_complete_row() for board in referee.players)
