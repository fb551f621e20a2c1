"""The batched JAX engine behind pgx's API (azul_rules.ai.pgx, issue 28), held to the referee
step by step: random games in small batches on the CPU."""

from __future__ import annotations

import functools
import random
import runpy
from collections.abc import Callable
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.extras import needs

jax = needs("jax")
needs("pgx")
np = needs("numpy")

import azul_rules as az  # noqa: E402
import azul_rules.ai.pgx as engine  # noqa: E402  (after the extras are known to be there)
from azul_rules.ai import actions  # noqa: E402
from azul_rules.ai.pgx import batching, game  # noqa: E402
from azul_rules.core.board import PlayerBoard  # noqa: E402
from azul_rules.core.colors import COLORS, Color  # noqa: E402
from azul_rules.core.grey import walls_can_end  # noqa: E402
from azul_rules.testing.batched import pgx_differential, pgx_follow  # noqa: E402


@pytest.mark.parametrize("variant", ["colored", "grey"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_with_the_referee_step_by_step(players: int, variant: str) -> None:
    """Every step of 16 games: the mask, the position, the observation, the rewards."""
    steps = pgx_differential(players, 16, variant=variant, batch=8, seed=players)
    assert steps > 16 * 40  # whole games: dozens of takes each


@pytest.mark.slow
@pytest.mark.skipif(
    not az.accelerated,
    reason="held to the compiled referee (CI's first pass); the Python referee, its "
    "reference, is held to that one by tests/core/test_compiled_core.py",
)
@pytest.mark.parametrize("variant", ["colored", "grey"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_thousand_random_games_agree_with_the_referee(players: int, variant: str) -> None:
    """Issue 28's count: 1,000 random games per player count and wall."""
    steps = pgx_differential(players, 1000, variant=variant, batch=100, seed=100 + players)
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
    the referee's ``walls_can_end`` on random walls of one and two boards, both answers
    seen many times (the engine checks Hall's condition on each row's missing colours)."""
    choose = random.Random(28)
    check = jax.jit(game._walls_can_end)
    answers = {True: 0, False: 0}
    for boards in [2] * 300 + [1] * 1500:
        walls = [_random_wall(choose) for _ in range(boards)]
        expected = walls_can_end([PlayerBoard(wall=wall) for wall in walls])
        codes = [[[-1 if c is None else int(c) for c in row] for row in wall] for wall in walls]
        found = bool(check(jax.numpy.asarray(codes, dtype=jax.numpy.int8)))
        assert found == expected, walls
        answers[found] += 1
    assert min(answers.values()) >= 40, answers


def test_a_wrong_floor_penalty_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: a full floor costing 13 instead of 14 (F1) is a disagreement."""
    settle = game._settle_floors

    def lenient(state: engine.AzulState) -> engine.AzulState:
        full = (state.floor != -1).sum(axis=1) == 7
        settled = settle(state)
        lenient_state: engine.AzulState = settled.replace(score=settled.score + full)
        return lenient_state

    monkeypatch.setattr(game, "_settle_floors", lenient)
    with pytest.raises(actions.Disagreement, match="players"):
        pgx_differential(4, 32, batch=16, seed=3)


@pytest.mark.parametrize("variant", ["colored", "grey"])
def test_the_round_end_taken_a_few_games_at_a_time_agrees(
    monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    """The batched round's end (and the grey wall's tiling) gathers the games due; with
    one game a pass, many passes a step, every step still agrees with the referee."""
    monkeypatch.setattr(batching, "_FEWEST", 1)
    monkeypatch.setattr(batching, "_SHARE", 64)
    steps = pgx_differential(2, 12, variant=variant, batch=12, seed=11)
    assert steps > 12 * 40


@functools.cache
def _env(
    players: int = 2, variant: str = "colored", max_rounds: int | None = None
) -> engine.AzulEnv:
    """One environment a configuration for the whole module, so that :func:`_jit`'s
    compiled functions are shared by the tests (tracing and compiling the engine is most
    of these tests' time).  Tests that patch the engine's constants build their own."""
    if max_rounds is None:
        return engine.make(players, variant)
    return engine.AzulEnv(players, max_rounds, grey=variant == "grey")


@functools.cache
def _jit(env: engine.AzulEnv, name: str, batched: bool = True) -> Callable[..., Any]:
    """``jax.jit`` of ``env``'s ``init`` or ``step``, under ``jax.vmap`` when ``batched``:
    traced and compiled once a module."""
    function = getattr(env, name)
    compiled: Callable[..., Any] = jax.jit(jax.vmap(function) if batched else function)
    return compiled


def _random_batch(env: engine.AzulEnv, batch: int, steps: int, seed: int) -> engine.AzulState:
    """A batch of games after ``steps`` random moves (some over, most in play)."""
    key = jax.random.PRNGKey(seed)
    state = _jit(env, "init")(jax.random.split(key, batch))
    step = _jit(env, "step")
    choose = np.random.default_rng(seed)
    for _ in range(steps):
        key, now = jax.random.split(key)
        masks = np.asarray(state.legal_action_mask)
        chosen = [choose.choice(mask.nonzero()[0]) for mask in masks]
        state = step(state, jax.numpy.asarray(chosen), jax.random.split(now, batch))
    batch_state: engine.AzulState = state
    return batch_state


def _same(a: engine.AzulState, b: engine.AzulState) -> bool:
    return all(
        np.array_equal(np.asarray(x), np.asarray(y))
        for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b), strict=True)
    )


def _pick(state: engine.AzulState, index: int) -> engine.AzulState:
    """Game ``index`` of a batch: of one pulled to the host with :func:`_host` (numpy
    indexing), since indexing the device's arrays game by game dispatches an operation a
    leaf and a game."""
    game: engine.AzulState = jax.tree_util.tree_map(lambda x: x[index], state)
    return game


def _host(state: engine.AzulState) -> engine.AzulState:
    """The batch's arrays on the host, in one transfer."""
    pulled: engine.AzulState = jax.device_get(state)
    return pulled


@pytest.mark.parametrize("variant", ["colored", "grey"])
def test_a_batch_steps_as_its_games_one_by_one(variant: str) -> None:
    """``jax.vmap(env.step)`` (whose round's end gathers the games due) gives each game
    what ``env.step`` gives it alone, and a batch of batches what one batch gives."""
    env = _env(3, variant)
    state = _random_batch(env, 24, 40, seed=5)
    rounds_before = np.asarray(state.round)
    masks = np.asarray(state.legal_action_mask)
    actions_ = jax.numpy.asarray([mask.nonzero()[0][-1] for mask in masks])
    keys = jax.random.split(jax.random.PRNGKey(9), 24)
    batched = _jit(env, "step")(state, actions_, keys)
    single = _jit(env, "step", batched=False)
    on_host = _host(batched)
    for index in range(24):
        alone = single(_pick(state, index), actions_[index], keys[index])
        assert _same(alone, _pick(on_host, index)), index
    nested = jax.jit(jax.vmap(jax.vmap(env.step)))(
        *jax.tree_util.tree_map(lambda x: x.reshape(4, 6, *x.shape[1:]), (state, actions_, keys))
    )
    assert _same(jax.tree_util.tree_map(lambda x: x.reshape(24, *x.shape[2:]), nested), batched)
    assert (np.asarray(batched.round) > rounds_before).any()  # some rounds ended here


def test_step_keeps_pgx_conventions() -> None:
    """pgx's ``Env.step`` and the engine's agree: a legal move (the same state), a game
    over (kept, rewards zero, mask all true), an illegal action (pgx's penalty for its
    chooser, the game over); the engine leaves an illegal action's position as it was."""
    env = _env(2)
    state = _random_batch(env, 16, 30, seed=8)
    masks = np.asarray(state.legal_action_mask)
    legal = jax.numpy.asarray([mask.nonzero()[0][0] for mask in masks])
    illegal = jax.numpy.asarray([(~mask).nonzero()[0][0] for mask in masks])
    keys = jax.random.split(jax.random.PRNGKey(4), 16)
    ours = _jit(env, "step")
    theirs = jax.jit(jax.vmap(lambda s, a, k: pgx_env_step(env, s, a, k)))
    assert _same(ours(state, legal, keys), theirs(state, legal, keys))
    wrong, reference = ours(state, illegal, keys), theirs(state, illegal, keys)
    assert np.asarray(wrong.terminated).all() and np.asarray(wrong.legal_action_mask).all()
    assert np.array_equal(np.asarray(wrong.rewards), np.asarray(reference.rewards))
    assert np.array_equal(np.asarray(wrong.wall), np.asarray(state.wall))
    assert np.array_equal(np.asarray(wrong.factories), np.asarray(state.factories))
    over = ours(wrong, legal, keys)
    assert _same(over.replace(rewards=wrong.rewards), wrong)
    assert not np.asarray(over.rewards).any()


@pytest.mark.parametrize("variant", ["colored", "grey"])
def test_an_action_id_out_of_range_is_illegal(variant: str) -> None:
    """An id below 0 or at ``num_actions`` and above is illegal: pgx's penalty for the
    player to move, the position kept.  The centre holds white, so that on the coloured
    wall the mask's last entry (white from the centre to the floor, P6) is legal: an id
    clamped onto it would pass."""
    env = _env(2, variant)
    state = _jit(env, "init", batched=False)(jax.random.PRNGKey(3))
    state = state.replace(center=state.center.at[4].set(2))
    state = state.replace(legal_action_mask=env._mask(state))
    assert bool(state.legal_action_mask[-1]) == (variant == "colored")
    step = _jit(env, "step", batched=False)
    mover = int(state.current_player)
    for action in (-1, env.num_actions, env.num_actions + 999, -(2**31), 2**31 - 1):
        after = step(state, action, jax.random.PRNGKey(5))
        assert bool(after.terminated), action
        assert after.rewards.tolist() == [-1.0 if seat == mover else 1.0 for seat in (0, 1)]
        for part in ("factories", "center", "line_count", "floor", "lid"):
            assert np.array_equal(getattr(after, part), getattr(state, part)), (action, part)
    legal = int(np.asarray(state.legal_action_mask).nonzero()[0][-1])
    assert not bool(step(state, legal, jax.random.PRNGKey(5)).terminated)


def test_an_illegal_action_in_the_grey_tiling_leaves_the_position() -> None:
    """G1, V1-V3: in the grey wall's tiling, a take or a placement the mask forbids
    is illegal: pgx's penalty for the player to decide, the wall, the lines, the floors,
    the scores and the lid as they were (the tiling is not carried on)."""
    env = _env(2, "grey")
    state = _random_batch(env, 48, 21, seed=12)
    tiling = np.asarray(state.phase) == 1
    assert tiling.sum() >= 3  # games deciding a placement
    masks = np.asarray(state.legal_action_mask)
    wrong = [
        (~mask[env._takes :]).nonzero()[0][0] + env._takes if index % 2 else 0
        for index, mask in enumerate(masks)
    ]
    keys = jax.random.split(jax.random.PRNGKey(6), 48)
    after = _host(_jit(env, "step")(state, jax.numpy.asarray(wrong), keys))
    state = _host(state)
    for index in tiling.nonzero()[0]:
        game, before = _pick(after, index), _pick(state, index)
        assert bool(game.terminated), index
        mover = int(before.current_player)
        assert game.rewards.tolist() == [-1.0 if seat == mover else 1.0 for seat in (0, 1)]
        for part in ("wall", "line_color", "line_count", "floor", "score", "lid", "phase"):
            assert np.array_equal(getattr(game, part), getattr(before, part)), (index, part)


def pgx_env_step(env: engine.AzulEnv, state: engine.AzulState, action: Any, key: Any) -> Any:
    """pgx's own ``Env.step`` (which the engine's ``step`` overrides) on the engine."""
    import pgx

    return pgx.Env.step(env, state, action, key)


@pytest.mark.parametrize(
    ("variant", "max_rounds"), [("colored", 50), ("grey", 50), ("colored", 2)]
)
def test_auto_reset_deals_a_fresh_game_to_each_game_that_ends(
    variant: str, max_rounds: int
) -> None:
    """auto_reset: a game that goes on is what ``env.step`` makes of it; a game that
    ends (E1, R7, or truncated at the round cap) is ``env.init`` of that step's key,
    with the ended game's ``terminated``, ``truncated`` and rewards; the step after
    clears them (pgx's auto_reset)."""
    env = _env(2, variant, max_rounds)
    stream = jax.jit(jax.vmap(engine.auto_reset(env)))
    step, init = _jit(env, "step"), _jit(env, "init")
    state = init(jax.random.split(jax.random.PRNGKey(1), 32))
    key, dealt, flagged = jax.random.PRNGKey(2), 0, 0
    choose = np.random.default_rng(2)
    for _ in range(260):
        key, now = jax.random.split(key)
        keys = jax.random.split(now, 32)
        masks = np.asarray(state.legal_action_mask)
        chosen = jax.numpy.asarray([choose.choice(mask.nonzero()[0]) for mask in masks])
        over = np.asarray(state.terminated | state.truncated)
        flagged += int(over.sum())
        cleared = state.replace(
            terminated=state.terminated & ~over, truncated=state.truncated & ~over,
            rewards=jax.numpy.where(over[:, None], 0.0, state.rewards),
        )  # fmt: skip
        expected, fresh = _host(step(cleared, chosen, keys)), _host(init(keys))
        after = stream(state, chosen, keys)
        ended = expected.terminated | expected.truncated
        dealt += int(ended.sum())
        # An ended game is the fresh deal with the ended game's flags and rewards; any
        # other is the step's: compared leaf by leaf on the host, the whole batch at once.
        wanted = jax.tree_util.tree_map(
            lambda going, new, ended=ended: np.where(
                ended.reshape(-1, *(1,) * (going.ndim - 1)), new, going
            ),
            expected, fresh,
        ).replace(terminated=expected.terminated, truncated=expected.truncated,
                  rewards=expected.rewards)  # fmt: skip
        assert _same(_host(after), wanted)
        state = after
    assert dealt >= 32 and flagged >= 32  # every game of the batch ended at least once


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
    """As the other AI adapters: after ``max_rounds`` rounds the game is truncated, not ended."""
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
    stream: Any = engine.auto_reset(env)  # called as a user might, without the key
    with pytest.raises(ValueError, match="key"):
        stream(state, 5)
    assert engine.make(4, "grey").num_actions == actions.num_actions(4, "grey")


def test_the_self_play_example_plays_whole_games_zero_sum() -> None:
    """examples/pgx_selfplay.py: a jitted batch of random games, every one to its end."""
    example = runpy.run_path(str(Path(__file__).resolve().parents[2] / "examples/pgx_selfplay.py"))
    final = example["self_play"](8, 2, "colored")(jax.random.PRNGKey(3))
    assert bool(final.terminated.all())
    outcomes = {tuple(game) for game in np.asarray(final.rewards).tolist()}
    # actions.utilities of one winner, of the other, or of a shared victory (E4)
    assert outcomes <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    out = StringIO()
    with redirect_stdout(out):
        example["main"](batch=4, players=2)
    assert "4 games of 2 players on the colored wall: 4 ended" in out.getvalue()


def test_the_mctx_example_searches_and_beats_random_play() -> None:
    """examples/pgx_mctx.py: Gumbel MuZero (mctx) with the engine as its model, jitted
    end to end; every game ends, zero-sum (E4), and the search on seat 0 wins most of
    32 games against uniform random play on seat 1 (30 here; a broken sign of the value
    or of the discount loses most of them)."""
    needs("mctx")
    example = runpy.run_path(str(Path(__file__).resolve().parents[2] / "examples/pgx_mctx.py"))
    final = example["match"](32, 16)(jax.random.PRNGKey(0))
    assert bool(final.terminated.all())
    rewards = np.asarray(final.rewards)
    assert set(map(tuple, rewards.tolist())) <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    search_wins, random_wins = (rewards > 0).sum(axis=0).tolist()
    assert search_wins >= 20 and random_wins <= 8, (search_wins, random_wins)
    out = StringIO()
    with redirect_stdout(out):
        example["main"](batch=4, simulations=4)
    assert "4 games, search (4 simulations) on seat 0, random play on seat 1" in out.getvalue()


def test_the_benchmark_draws_legal_actions_near_uniformly() -> None:
    """benchmarks/pgx_batch.py: its device-side random choice takes only legal actions,
    each of a game's legal actions about equally often (180, 205 and 300 actions), and
    its runners count the moves they play."""
    bench = runpy.run_path(str(Path(__file__).resolve().parents[2] / "benchmarks/pgx_batch.py"))
    choose = jax.jit(bench["uniform_legal"])
    for actions_, legal in ((180, [3, 50, 179]), (205, [0, 104, 204]), (300, [1, 2, 299])):
        masks = np.zeros((60_000, actions_), bool)
        masks[:, legal] = True
        words = jax.random.bits(jax.random.PRNGKey(actions_), (60_000,), jax.numpy.uint32)
        chosen = np.asarray(choose(words, jax.numpy.asarray(masks)))
        counts = np.bincount(chosen, minlength=actions_)
        assert counts[legal].sum() == 60_000
        assert abs(counts[legal] - 20_000).max() < 600, counts[legal]  # 5 standard deviations
    stream = bench["stream_runner"](2, 8, steps=25)
    assert int(stream(jax.random.PRNGKey(1))) == 8 * 25
    games = bench["games_runner"](2, 4)
    assert 4 * 40 < int(games(jax.random.PRNGKey(2))) < 4 * 400


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


@pytest.mark.skipif(engine.convert._core is None, reason="the compiled core builds them")
@pytest.mark.parametrize(("players", "variant"), [(2, "colored"), (4, "grey")])
def test_to_state_built_by_the_compiled_core_is_the_one_built_in_python(
    players: int, variant: str
) -> None:
    """Every game of a random batch after 0-90 steps (ends and fresh deals among them),
    built by the compiled core from the arrays' values, equals the position
    ``GameState.make`` builds (same hash and text), and plays on alike."""
    env = _env(players, variant)
    grey = variant == "grey"
    for steps in (0, 30, 90):
        batch = _host(_random_batch(env, 8, steps, seed=steps + players))
        for i in range(8):
            fields = {name: np.asarray(getattr(batch, name))[i] for name in _FIELDS}
            built, made = engine.to_state(batch, i), engine.convert._made(fields, grey)
            assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
            if not made.is_over:
                move = made.legal_moves()[-1]
                assert built.apply(move) == made.apply(move)


_FIELDS = (
    "factories", "center", "bag", "lid", "line_color", "line_count", "wall", "floor", "score",
    "marker_holder", "start_player", "round", "phase", "current_player",
)  # fmt: skip


@pytest.mark.skipif(engine.convert._core is None, reason="the compiled core builds them")
@pytest.mark.parametrize(
    ("position", "match"),
    [
        (None, "sequence"),
        ((0,) * 9, "10 items"),
        ((0, 1, 0, 0, -1, [], [0] * 5, [0] * 5, [0] * 5, []), "2 to 4 boards"),
        ((9, 1, 0, 0, -1, [], [0] * 5, [0] * 5, [0] * 5, []), "phase out of range"),
        ((0, 0, 0, 0, -1, [], [0] * 5, [0] * 5, [0] * 5, []), "round out of range"),
        ((0, 1, 0, 0, -1, [[0] * 5] * 4, [0] * 5, [0] * 5, [0] * 5,
          [(0, [-1] * 5, [0] * 5, [[-1] * 5] * 5, [])] * 2), "the factories must have 5"),
        ((0, 1, 2, 0, -1, [[0] * 5] * 5, [0] * 5, [0] * 5, [0] * 5,
          [(0, [-1] * 5, [0] * 5, [[-1] * 5] * 5, [])] * 2), "player to move out of range"),
        ((0, 1, 0, 0, -1, [[0] * 5] * 5, [0, 0, 0, 0, 70000], [0] * 5, [0] * 5,
          [(0, [-1] * 5, [0] * 5, [[-1] * 5] * 5, [])] * 2), "the centre out of range"),
        ((0, 1, 0, 0, -1, [[0] * 5] * 5, [0] * 5, [0] * 5, [0] * 5,
          [(0, [-1] * 5, [0] * 5, [[-1] * 5] * 5, [9])] * 2), "a floor item out of range"),
        ((0, 1, 0, 0, -1, [[0] * 5] * 5, [0] * 5, [0] * 5, [0] * 5,
          [(0, [-1] * 5, [0] * 5, [[-1] * 5] * 5, [0] * 8)] * 2), "more than 7"),
        ((0, 1, 0, 0, -1, [[0] * 5] * 5, [0] * 5, [0] * 5, [0] * 5,
          [(0, [2, -1, -1, -1, -1], [0] * 5, [[-1] * 5] * 5, [])] * 2), "colour and count"),
        ((0, 1, 0, 0, -1, [[0] * 5] * 5, [0] * 5, [0] * 5, [0] * 5,
          [(2**80, [-1] * 5, [0] * 5, [[-1] * 5] * 5, [])] * 2), "a score out of range"),
        ((0, 1, 0, 0, -1, [[0] * 5] * 5, [0] * 5, [0] * 5, [0] * 5,
          [(0, [-1] * 5, [0] * 5, [[-1] * 5] * 4, [])] * 2), "a wall must have 5"),
        ((0, 1, 0, 0, -1, [[0] * 5] * 5, [0] * 5, [0] * 5, [0.5] * 5,
          [(0, [-1] * 5, [0] * 5, [[-1] * 5] * 5, [])] * 2), "the lid is not an int"),
    ],
)
def test_the_compiled_core_builds_only_a_position_it_can_hold(position: Any, match: str) -> None:
    """Plain data that is no position of 2-4 players: a ValueError naming what is
    wrong, or a TypeError, before anything is built."""
    core: Any = engine.convert._core
    with pytest.raises((ValueError, TypeError), match=match):
        core.state_of_position(False, position)


def test_the_marker_taken_onto_a_full_floor_agrees_with_the_referee() -> None:
    """F4, which random games almost never reach: a position built by hand (round 2,
    factory 5 taken, player 0's floor full of reds from the bag), then the engine and
    the referee in step, player 0 taking from the centre as soon as it can."""
    dealt = az.new_game(2, seed=5)
    referee = az.new_game(2, external_draws=True, first_player=0).apply(az.Refill(dealt.factories))
    full = attrs.evolve(referee.players[0], floor=(az.Color.RED,) * 7)
    bag = list(referee.bag) + list(referee.factories[4])
    for _ in range(7):
        bag.remove(az.Color.RED)
    referee = referee.replace(players=(full, referee.players[1]), bag=tuple(bag), round=2,
                              factories=(*referee.factories[:4], ()), current_player=1)
    assert referee.problems() == ()
    env = _env(2)
    state = jax.tree_util.tree_map(lambda a: a[None], engine.from_state(referee))
    step = _jit(env, "step")
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
        referee = pgx_follow(referee, action, jax.device_get(state), 0, 0)
    assert marker_on_full_floor


def test_nothing_to_deal_ends_the_game_as_the_referee_does() -> None:
    """R6, which random games never reach: four players whose walls and pattern lines
    hold every tile but one red in the centre, bag and lid empty; the red kept in a
    pattern line, the refill deals nothing and the game ends there."""
    from tests.core.test_rounds import starved_table

    referee = starved_table(bag="", lid="").replace(round=5, rng_state=None)  # W1: 4 tilings
    assert referee.problems() == ()
    state = jax.tree_util.tree_map(lambda a: a[None], engine.from_state(referee))
    step = _jit(_env(4), "step")
    action = 9 * 30 + 2 * 6 + 3  # the centre, red, pattern line 4: kept there
    state = step(state, np.asarray([action], np.int32), jax.random.PRNGKey(0)[None])
    referee = pgx_follow(referee, action, jax.device_get(state), 0, 0)
    assert referee.is_over and bool(state.terminated[0])
    assert not any(board.has_complete_row() for board in referee.players)


def test_from_state_refuses_what_cannot_exist_and_what_the_engine_cannot_hold() -> None:
    """S3, F1, T3, R2, W3: a floor of 8, a centre of 150 tiles, two markers, nine tiles
    on a factory, a score no wall earns (32,767: a round's points would wrap the
    engine's 16 bits, and W4 floor it to 0) are refused with the referee's problems; a
    round past 32,766 with the engine's limit."""
    position = az.new_game(2, seed=3)
    red = az.Color.RED
    board = position.players[0]
    cases = {
        "FLOOR_TOO_LONG": position.replace(players=(attrs.evolve(board, floor=(red,) * 8),
                                                    position.players[1])),
        "TILE_COUNT": position.replace(center=(red,) * 150),
        "MARKER_COUNT": position.replace(players=(attrs.evolve(board, floor=(az.MARKER,)),
                                                  attrs.evolve(board, floor=(az.MARKER,))),
                                         marker_holder=0),
        "FACTORY_OVERFULL": position.replace(factories=((red,) * 9, *position.factories[1:])),
        "SCORE_OUT_OF_REACH": position.replace(players=(attrs.evolve(board, score=2**15 - 1),
                                                        position.players[1])),
    }  # fmt: skip
    for code, case in cases.items():
        with pytest.raises(az.InvalidStateError) as raised:
            engine.from_state(case)
        assert code in [p.code.value for p in raised.value.problems], code
        assert isinstance(raised.value, ValueError)
    engine.from_state(position.replace(round=engine.MAX_ROUND))
    with pytest.raises(ValueError, match="round 32767 is past the engine's last, 32766"):
        engine.from_state(position.replace(round=2**15 - 1))
