"""The batch engine for the CPU (azul_rules.ai.vector, issue 35): many games in the
compiled engine, held to the referee step by step, in pgx's conventions."""

from __future__ import annotations

import gc
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.ai.forged import capsule_of, struct_bytes
from tests.conftest import THOROUGH
from tests.extras import needs, required

np = needs("numpy")

import azul_rules as az  # noqa: E402  (after numpy is known to be there)
from azul_rules.ai import actions, vector  # noqa: E402
from azul_rules.testing.batched import vector_differential  # noqa: E402

pytestmark = pytest.mark.skipif(
    vector._vector is None and not required(),
    reason="the batch engine is compiled at install (CI's install has a C compiler: there "
    "its absence fails these tests)",
)

VARIANTS = ["colored", "grey"]


def _outputs(env: vector.VectorEnv) -> tuple[Any, ...]:
    return tuple(np.array(a) for a in (env.legal_action_mask, env.current_player, env.rewards,
                                       env.terminated, env.truncated, env.observation))  # fmt: skip


# -- held to the referee -------------------------------------------------------------------


@pytest.mark.parametrize("legal", ["mask", "ids"])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_with_the_referee_step_by_step(players: int, variant: str,
                                                          legal: str) -> None:  # fmt: skip
    """Every step of 24 random games, auto-resets included: the legal actions in both
    forms (the one the steps write, the one made when read), the position (T1-T4, P1-P7,
    F1-F4, W1-W5, V1-V4, R1-R7, E1-E4), the observation, the rewards."""
    moves = vector_differential(players, 24, variant=variant, batch=8, seed=players,
                                legal=legal)  # fmt: skip
    assert moves > 24 * 40  # whole games: dozens of takes each


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_thousand_random_games_agree_with_the_referee(players: int, variant: str) -> None:
    """Issue 35's count: 1,000 random games per player count and wall, every step (the
    steps writing the mask for some, the listed ids for the others)."""
    legal = "ids" if (players + (variant == "grey")) % 2 else "mask"
    moves = vector_differential(players, 1000, variant=variant, batch=100, seed=100 + players,
                                legal=legal)  # fmt: skip
    assert moves > 1000 * 40


def test_a_wrong_move_is_caught_by_the_differential(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a referee that plays another take than the one asked."""
    real = actions.move_from_action

    def shifted(action: int, players: int) -> Any:
        return real(action + 1 if action % 6 < 5 else action, players)

    monkeypatch.setattr(actions, "move_from_action", shifted)
    with pytest.raises(actions.Disagreement, match="game"):
        vector_differential(2, 4, batch=4, seed=1)


# -- pgx's conventions ---------------------------------------------------------------------


def test_make_gives_fresh_games_in_pgx_shapes_and_types() -> None:
    """S1-S7: round 1, 20 tiles of each colour between bag and factories, no reward."""
    env = vector.make(6, players=3, variant="grey", seed=4)
    assert env.legal_action_mask.shape == (6, actions.num_actions(3, "grey"))
    assert env.legal_action_mask.dtype == np.bool_
    assert env.current_player.dtype == np.int32
    assert env.rewards.shape == (6, 3) and env.rewards.dtype == np.float32
    assert env.terminated.shape == env.truncated.shape == (6,)
    assert env.observation.shape == (6, actions.observation_size(3))
    assert not env.rewards.any() and not env.terminated.any() and not env.truncated.any()
    for i in range(6):
        state = env.to_state(i)
        assert state.round == 1 and state.phase is az.Phase.FACTORY_OFFER
        assert state.variant is az.Variant.GREY and len(state.factories) == 7
        assert all(len(f) == 4 for f in state.factories)
        assert len(state.bag) == 100 - 28
        assert state.current_player == state.start_player == env.current_player[i]
        assert np.flatnonzero(env.legal_action_mask[i]).tolist() == actions.legal_actions(state)


@pytest.mark.parametrize("legal", ["mask", "ids"])
def test_the_legal_ids_list_the_mask_in_order_then_minus_one(legal: str) -> None:
    """The two forms of the legal actions agree, whichever the steps write, before and
    after steps; an ended game lists every id (T1, pgx's convention)."""
    env = vector.make(40, players=4, variant="grey", seed=2, legal=legal)
    assert env.legal == legal
    assert env.legal_action_ids.shape == env.legal_action_mask.shape == (40, env.num_actions)
    assert env.legal_action_ids.dtype == np.int16 and env.legal_action_count.dtype == np.int32
    rng = np.random.default_rng(3)
    for _ in range(120):
        mask, ids, count = env.legal_action_mask, env.legal_action_ids, env.legal_action_count
        assert (mask.sum(axis=1) == count).all() and (count > 0).all()
        for i in range(40):
            assert ids[i, : count[i]].tolist() == np.flatnonzero(mask[i]).tolist()
            assert (ids[i, count[i] :] == -1).all()
        picked = ids[np.arange(40), (rng.random(40) * count).astype(np.intp)]
        assert mask[np.arange(40), picked].all()
        env.step(picked)
    assert env.terminated.any() or env.truncated.any() or env.to_state(0).round > 1


def test_the_form_of_the_legal_actions_does_not_change_the_games() -> None:
    listed, masked = (vector.make(12, players=3, seed=5, legal=f) for f in ("ids", "mask"))
    rng = np.random.default_rng(6)
    for _ in range(150):
        count = masked.legal_action_count
        chosen = masked.legal_action_ids[np.arange(12), (rng.random(12) * count).astype(np.intp)]
        listed.step(chosen)
        masked.step(chosen)
        assert all(np.array_equal(a, b) for a, b in zip(_outputs(listed), _outputs(masked),
                                                        strict=True))  # fmt: skip
    assert [listed.to_state(i) for i in range(12)] == [masked.to_state(i) for i in range(12)]


def test_the_arrays_are_read_only_views() -> None:
    """Not to be written, nor made writeable again: the engine writes them."""
    env = vector.make(2)
    for array in (env.legal_action_mask, env.legal_action_ids, env.legal_action_count,
                  env.current_player, env.rewards, env.terminated, env.truncated,
                  env.observation):  # fmt: skip
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
        with pytest.raises(ValueError, match="WRITEABLE"):
            array.flags.writeable = True


@pytest.mark.parametrize("count", [2**31 - 1, 100_000, 181, -5])
def test_counts_written_over_behind_the_views_cannot_make_a_step_write_past_a_row(
    count: int,
) -> None:
    """The steps fill a listed row with -1 up to the last count: a count written over
    (through the private array) is taken as the whole row, never past it."""
    env = vector.make(4, seed=3, legal="ids")
    env._count[:] = count
    env.step(env.legal_action_ids[:, 0])
    listed, counts = env.legal_action_ids, env.legal_action_count
    for i in range(4):
        assert (listed[i, counts[i] :] == -1).all()
        assert listed[i, : counts[i]].tolist() == np.flatnonzero(env.legal_action_mask[i]).tolist()


def test_the_same_seed_gives_the_same_games_and_another_seed_others() -> None:
    def play(seed: int) -> list[tuple[Any, ...]]:
        env = vector.make(16, players=2, seed=seed)
        choose = np.random.default_rng(0)
        seen = [_outputs(env)]
        for _ in range(150):  # past the end of the first games: their fresh deals too
            legal = [np.flatnonzero(m) for m in env.legal_action_mask]
            env.step(np.array([choose.choice(ids) for ids in legal]))
            seen.append(_outputs(env))
        return seen

    first, again, other = play(7), play(7), play(8)
    assert all(all(np.array_equal(a, b) for a, b in zip(x, y, strict=True))
               for x, y in zip(first, again, strict=True))  # fmt: skip
    assert not np.array_equal(first[0][5], other[0][5])
    assert any(step[3].any() for step in first)  # some games ended on the way


def test_an_illegal_action_loses_the_game_for_the_mover_and_keeps_the_position() -> None:
    """pgx's penalty: -1 for the mover, players - 1 for each other; the game ends there,
    its mask all true, and the next step deals a fresh game whatever the action."""
    env = vector.make(3, players=3, seed=2)
    before = [env.to_state(i) for i in range(3)]
    movers = env.current_player.copy()
    legal = np.flatnonzero(env.legal_action_mask[1])
    illegal = next(a for a in range(env.num_actions) if a not in legal)
    env.step(np.array([-5, illegal, env.num_actions]))
    assert env.terminated.all() and not env.truncated.any()
    for i in range(3):
        expected = [2.0, 2.0, 2.0]
        expected[movers[i]] = -1.0
        assert env.rewards[i].tolist() == expected
        assert env.to_state(i) == before[i]
        assert env.legal_action_mask[i].all()
    env.step(np.array([10**12, -(10**12), 0]))
    assert not env.terminated.any() and not env.rewards.any()
    for i in range(3):
        fresh = env.to_state(i)
        assert fresh.round == 1 and all(b.score == 0 for b in fresh.players)
        assert fresh != before[i]
        assert np.flatnonzero(env.legal_action_mask[i]).tolist() == actions.legal_actions(fresh)


def test_a_game_ends_with_the_referees_utilities_and_is_dealt_afresh() -> None:
    """E4: the rewards of the step that ends a game are actions.utilities of its
    winners; the flags and rewards stay until the next step, which deals a new game."""
    env = vector.make(1, players=2, seed=11)
    choose = np.random.default_rng(1)
    ref = actions.referee_start(env.to_state(0))
    while not env.terminated[0]:
        action = int(choose.choice(np.flatnonzero(env.legal_action_mask[0])))
        env.step(np.array([action]))
        ref = actions.referee_step(ref, action, env.to_state(0))
    assert ref.outcome is not None
    assert env.rewards[0].tolist() == actions.utilities(ref.outcome.winners, 2)
    assert env.to_state(0).outcome == ref.outcome and env.legal_action_mask[0].all()
    env.step(np.array([0]))
    assert not env.terminated[0] and env.to_state(0).round == 1


def test_a_game_past_the_round_cap_is_truncated_and_dealt_afresh() -> None:
    env = vector.make(4, players=2, seed=3, max_rounds=1)
    choose = np.random.default_rng(3)
    steps = 0
    while not env.truncated.any():
        env.step(np.array([choose.choice(np.flatnonzero(m)) for m in env.legal_action_mask]))
        steps += 1
    cut = int(np.flatnonzero(env.truncated)[0])
    assert env.to_state(cut).round == 2 and not env.terminated[cut]
    assert not env.rewards[cut].any()
    assert steps >= 10  # a whole round of takes
    env.step(np.array([choose.choice(np.flatnonzero(m)) for m in env.legal_action_mask]))
    assert env.to_state(cut).round == 1


def test_the_observation_is_made_when_read_from_the_player_to_move() -> None:
    env = vector.make(5, players=4, seed=9)
    env.step(env.legal_action_mask.argmax(axis=1))
    for i in range(5):
        state = env.to_state(i)
        expected = np.asarray(actions.observation(state, state.current_player), np.float32)
        assert np.array_equal(env.observation[i], expected)


def test_to_state_between_rounds_is_the_referees_after_the_refill() -> None:
    """R1-R2: the engine draws as the round ends; to_state shows the new round."""
    env = vector.make(1, players=2, seed=5)
    choose = np.random.default_rng(5)
    ref = actions.referee_start(env.to_state(0))
    while env.to_state(0).round == 1:
        action = int(choose.choice(np.flatnonzero(env.legal_action_mask[0])))
        env.step(np.array([action]))
        ref = actions.referee_step(ref, action, env.to_state(0))
    state = env.to_state(0)
    assert state.phase is az.Phase.FACTORY_OFFER and state.rng_state is None
    assert sum(len(f) for f in state.factories) == 20 and state == ref


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "error", "match"),
    [
        ((0,), ValueError, "num_games"),
        ((vector.MAX_GAMES + 1,), ValueError, "num_games"),
        ((2, 5), ValueError, "players"),
        ((2, 1), ValueError, "players"),
        ((2, 2, "blue"), ValueError, "variant"),
        ((2.0,), az.FormatError, "num_games"),
        ((True,), az.FormatError, "num_games"),
        ((2, 2, "colored", "seed"), az.FormatError, "seed"),
    ],
)
def test_make_refuses_what_it_cannot_hold(arguments: tuple[Any, ...], error: type[Exception],
                                          match: str) -> None:  # fmt: skip
    with pytest.raises(error, match=match):
        vector.make(*arguments)


def test_make_refuses_a_round_cap_below_one() -> None:
    with pytest.raises(ValueError, match="max_rounds"):
        vector.make(2, max_rounds=0)


@pytest.mark.parametrize(("legal", "error"), [("list", ValueError), ("", ValueError),
                                               (None, az.FormatError), (1, az.FormatError)])
def test_make_refuses_a_form_of_the_legal_actions_it_does_not_write(
    legal: Any, error: type[Exception]
) -> None:
    with pytest.raises(error, match="legal must be 'mask' or 'ids'"):
        vector.make(2, legal=legal)


@pytest.mark.parametrize(
    ("actions_given", "error", "match"),
    [
        (np.zeros(3, np.float64), az.FormatError, "integer"),
        (np.zeros(2, np.int64), ValueError, "3 actions"),
        (np.zeros((3, 1), np.int64), ValueError, "3 actions"),
        ([[0], [0], [0]], ValueError, "3 actions"),
        (["a", "b", "c"], az.FormatError, "integer"),
    ],
)
def test_step_refuses_actions_that_are_not_one_id_a_game(
    actions_given: Any, error: type[Exception], match: str
) -> None:
    env = vector.make(3)
    before = _outputs(env)
    with pytest.raises(error, match=match):
        env.step(actions_given)
    assert all(np.array_equal(a, b) for a, b in zip(before, _outputs(env), strict=True))


def test_step_takes_any_integer_type() -> None:
    env = vector.make(3, seed=1)
    first = env.legal_action_mask.argmax(axis=1)
    for dtype in (np.int8, np.uint16, np.int32, np.uint64):
        other = vector.make(3, seed=1)
        other.step(first.astype(dtype))
        assert [other.to_state(i) for i in range(3)] == [
            env.to_state(i).apply(actions.move_from_action(int(first[i]), 2)) for i in range(3)
        ]


@pytest.mark.skipif(vector._core is None, reason="the compiled core builds them (CI's first pass)")
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_to_state_built_by_the_compiled_core_is_the_one_built_in_python(
    players: int, variant: str
) -> None:
    """Every position of random games (the ends and fresh deals too), built from the
    engine's struct by the compiled core, is equal to the one GameState.make builds
    (same hash, same text, no problem: S1-S7), and plays on alike."""
    env = vector.make(16, players, variant, seed=players, legal="ids", max_rounds=6)
    rng = np.random.default_rng(players)
    for _ in range(160):
        for i in range(16):
            built, made = env.to_state(i), env._built_in_python(i)
            assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
            if not made.is_over:
                move = made.legal_moves()[int(rng.integers(len(made.legal_moves())))]
                assert built.apply(move) == made.apply(move)
        assert built.problems() == ()
        k = (rng.random(16) * env.legal_action_count).astype(np.intp)
        env.step(env.legal_action_ids[np.arange(16), k])


_FORGED = """
import random, sys
from azul_rules.ai import vector
from azul_rules.core import _compiled
from tests.ai.forged import capsule_of, struct_bytes
size = vector._vector.GAME_SIZE
env = vector.make(8, players=3, variant="grey", seed=4, legal="ids")
choose = random.Random(int(sys.argv[1]))
built = refused = 0
for case in range(300):
    for _ in range(choose.randrange(6)):
        env.step(env.legal_action_ids[:, 0])
    capsule = env._games.game(case % 8)
    raw = struct_bytes(capsule, size)
    for _ in range(choose.randrange(1, 9)):
        raw[choose.randrange(size)] = choose.randrange(256)
    forged, buffer = capsule_of(raw)
    try:
        state = _compiled.state_of_game(forged)
    except ValueError:
        refused += 1
        continue
    built += 1
    for move in state.legal_moves()[:3]:
        state.validate(move)
        try:
            state.apply(move)
        except Exception:
            pass
    state.problems()
print(built, refused)
"""


@pytest.mark.skipif(vector._core is None, reason="the compiled core builds them (CI's first pass)")
@pytest.mark.parametrize("seed", range(3))
def test_a_forged_engine_struct_is_refused_or_built_from_what_it_holds(seed: int) -> None:
    """A copy of a game's struct with bytes changed at random (the way to it goes through
    ctypes): refused with a ValueError, or built from what it holds (the derived fields
    worked out again), and that position plays: never a crash (in a process of its own,
    so that a crash is a failure here)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", _FORGED, str(seed)], capture_output=True,
                          text=True, timeout=300, cwd=root)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    built, refused = map(int, done.stdout.split())
    assert built + refused == 300 and built > 0


@pytest.mark.skipif(vector._core is None, reason="the compiled core builds them (CI's first pass)")
def test_a_struct_with_wrong_derived_fields_is_built_from_what_it_holds() -> None:
    """The sources holding each colour are worked out from the counts: a copy whose
    record of them is wrong gives the position's own legal moves."""
    engine: Any = vector._vector
    core: Any = vector._core
    size = engine.GAME_SIZE
    env = vector.make(1, seed=0)
    truth = env.to_state(0)
    raw = struct_bytes(env._games.game(0), size)
    changed = 0
    for offset in range(size):  # every byte of the struct, one at a time, that keeps it
        for value in (0, 0xFF):
            if raw[offset] == value:
                continue
            forged_bytes = bytearray(raw)
            forged_bytes[offset] = value
            capsule, _buffer = capsule_of(forged_bytes)
            try:
                state = core.state_of_game(capsule)
            except ValueError:
                continue
            if state == truth:
                changed += 1
                assert state.legal_moves() == truth.legal_moves(), offset
    assert changed > 0


@pytest.mark.skipif(vector._core is None, reason="the compiled core builds them (CI's first pass)")
def test_the_compiled_core_builds_only_from_an_engine_position() -> None:
    core: Any = vector._core
    with pytest.raises((TypeError, ValueError)):
        core.state_of_game(object())
    zeros, _kept = capsule_of(bytes(4096))
    with pytest.raises(ValueError, match="not a position of the engine"):
        core.state_of_game(zeros)
    other, _also_kept = capsule_of(bytes(4096), b"another.name")
    with pytest.raises(ValueError):
        core.state_of_game(other)


@pytest.mark.parametrize("index", [-1, 3, 2**70, "0", 1.0])
def test_to_state_refuses_a_game_not_in_the_batch(index: Any) -> None:
    env = vector.make(3)
    with pytest.raises((IndexError, TypeError)):
        env.to_state(index)


def test_without_the_compiled_engine_make_and_playouts_say_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vector, "_vector", None)
    with pytest.raises(RuntimeError, match="compiled engine"):
        vector.make(2)
    with pytest.raises(RuntimeError, match="compiled engine"):
        vector.playouts(2)


def test_the_batch_engine_ignores_the_pure_python_switch() -> None:
    """It has no Python version: AZUL_RULES_PURE_PYTHON chooses the referee's core only."""
    assert vector._vector is not None


# -- playouts ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_give_the_same_counts_whatever_the_threads(players: int, variant: str) -> None:
    one = vector.playouts(300, players, variant, seed=players, threads=1)
    assert one == vector.playouts(300, players, variant, seed=players, threads=7)
    assert one == vector.playouts(300, players, variant, seed=players)
    assert one != vector.playouts(300, players, variant, seed=players + 1, threads=1)
    assert one.games == 300 and len(one.wins) == players
    # E4: every finished game has a winner, and a random game makes dozens of moves.
    assert sum(one.wins) >= one.games - one.capped
    assert one.moves > 300 * 10 * players


def test_playouts_agree_with_random_games_stepped_from_python_on_average() -> None:
    """The same rules, the same uniform choice: the mean length and score of 4,000
    playouts lie within a few standard errors of 400 games stepped through make()."""
    played = vector.playouts(4000, 2, seed=1)
    env = vector.make(400, players=2, seed=2)
    choose = np.random.default_rng(2)
    done = np.zeros(400, bool)
    moves = np.zeros(400)
    score = np.zeros(400)
    while not done.all():
        legal = [np.flatnonzero(m) for m in env.legal_action_mask]
        env.step(np.array([choose.choice(ids) for ids in legal]))
        moves += ~done
        for i in np.flatnonzero(env.terminated & ~done):
            score[i] = sum(board.score for board in env.to_state(i).players)
        done |= env.terminated | env.truncated
    assert abs(played.moves / played.games - moves.mean()) < 4 * moves.std() / 20
    assert abs(played.score / played.games - score.mean()) < 4 * score.std() / 20


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _play(env: vector.VectorEnv, steps: int) -> list[int]:
    for _ in range(steps):
        env.step(env.legal_action_ids[:, 0])
    return [int(x) for x in env.legal_action_count[:64]] + [int(env.current_player.sum())]


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_a_batch_keeps_its_threads_between_steps_and_ends_them_when_freed() -> None:
    """The steps of a batch split over threads reuse the same threads (started when the
    batch is made), which end with the batch; the games are those of one thread."""
    gc.collect()  # the batches of earlier tests, with their threads
    before = _threads()
    env = vector.make(2048, seed=7, threads=4, legal="ids")
    single = vector.make(2048, seed=7, threads=1, legal="ids")
    assert _threads() == before + 3
    assert _play(env, 30) == _play(single, 30)
    assert _threads() == before + 3
    assert _play(env, 30) == _play(single, 30)
    assert _threads() == before + 3
    del env
    gc.collect()
    assert _threads() == before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_process_forked_while_another_thread_steps_can_step_its_copy() -> None:
    """The copy of a batch that was busy in the parent is not busy in the child (the
    thread stepping it stayed with the parent)."""
    env = vector.make(1 << 15, seed=1, threads=2, legal="ids")
    actions_given = np.zeros(env.num_games, np.int64)
    stop = threading.Event()

    def stepper() -> None:
        while not stop.is_set():
            env.step(actions_given)

    thread = threading.Thread(target=stepper)
    thread.start()
    statuses = []
    try:
        for _ in range(4):
            child = os.fork()
            if child == 0:  # pragma: no cover (the child's status says it)
                try:
                    env.step(actions_given)
                    os._exit(0)
                except RuntimeError:
                    os._exit(3)
            statuses.append(os.waitpid(child, 0)[1])
    finally:
        stop.set()
        thread.join()
    assert statuses == [0, 0, 0, 0]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_process_steps_its_copy_of_a_batch_on_threads_of_its_own() -> None:
    """A batch whose threads were started, stepped again in a forked child: the child
    starts its own (the parent's are not there) and plays the same games."""
    env = vector.make(1024, seed=8, threads=2, legal="ids")
    _play(env, 5)
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's report goes through the pipe)
        try:
            os.write(writer, repr(_play(env, 40)).encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as pipe:
        told = pipe.read()
    os.waitpid(child, 0)
    assert told == repr(_play(env, 40))


def test_playouts_release_the_gil() -> None:
    """Another Python thread runs while playouts play (they would block it otherwise)."""
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        vector.playouts(30_000 if THOROUGH else 10_000, 2, seed=0, threads=1)
    finally:
        stop.set()
        counter.join()
    assert ticks > 1000


def test_no_playouts_is_an_empty_count() -> None:
    assert vector.playouts(0) == vector.Playouts(0, 0, 0, 0, (0, 0))


@pytest.mark.parametrize(
    ("arguments", "error", "match"),
    [
        ((-1,), ValueError, "games"),
        ((10, 5), ValueError, "players"),
        ((10, 2, "colored", 0, 0), ValueError, "threads"),
        ((10, 2, "colored", 0, 257), ValueError, "threads"),
        (("10",), az.FormatError, "games"),
        ((10, 2, "purple"), ValueError, "variant"),
    ],
)
def test_playouts_refuse_what_they_cannot_play(
    arguments: tuple[Any, ...], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        vector.playouts(*arguments)
