"""Batched engines held to the referee, step by step: the JAX engine behind pgx's API
(:func:`pgx_differential`, the ``pgx`` extra) and the batch engine for the CPU
(:func:`vector_differential`, the ``vector`` extra).

Both play random games and check, at every step of every game, that the legal mask is
``actions.legal_actions`` of the referee's position, that the referee's ``apply`` of the
action chosen (then the ``Refill`` of the factories the engine drew) is the engine's
position, and that the observation, the rewards and the flags are the referee's.  They
return the number of moves checked and raise :class:`Disagreement` at the first
difference; the same arguments check the same games.  Neither extra is imported until
its check runs.
"""

from __future__ import annotations

from typing import Any

from azul_rules.ai.actions import (
    Disagreement,
    legal_actions,
    referee_outputs,
    referee_start,
    referee_step,
)
from azul_rules.core.phases import Variant
from azul_rules.core.state import GameState

__all__ = ["Disagreement", "pgx_differential", "vector_differential"]


def pgx_differential(
    players: int = 2, games: int = 16, *, variant: str = "colored", batch: int = 8, seed: int = 0
) -> int:
    """Play ``games`` random games in batches of ``batch`` with the engine of
    ``azul_rules.ai.pgx.make(players, variant)`` and hold every step to the referee.  Each
    step's batch is brought to the host once, then read game by game.

    :raises Disagreement: at the first difference, naming the game, the step and the
        parts that differ.
    :raises ModuleNotFoundError: without the ``pgx`` extra (the message names it).
    """
    import jax
    import numpy as np

    from azul_rules.ai import pgx

    env = pgx.make(players, variant)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(seed)
    choices = np.random.default_rng(seed)
    checked = 0
    for first in range(0, games, batch):
        key, start_key = jax.random.split(key)
        state = jax.device_get(init(jax.random.split(start_key, batch)))
        refs = [referee_start(pgx.to_state(state, i), game=first + i) for i in range(batch)]
        live = [first + i < games for i in range(batch)]
        while any(live):
            chosen = np.zeros(batch, np.int32)
            for i in range(batch):
                if live[i]:
                    legal = state.legal_action_mask[i].nonzero()[0]
                    if legal.tolist() != legal_actions(refs[i]):
                        raise Disagreement(f"game {first + i}, step {checked}: the legal mask "
                                           "differs from the referee's")  # fmt: skip
                    chosen[i] = choices.choice(legal)
            key, step_key = jax.random.split(key)
            state = jax.device_get(step(state, chosen, jax.random.split(step_key, batch)))
            for i in range(batch):
                if live[i]:
                    refs[i] = pgx_follow(refs[i], int(chosen[i]), state, i, first + i)
                    live[i] = not (state.terminated[i] or state.truncated[i])
                    checked += 1
    return checked


def pgx_follow(ref: GameState, action: int, state: Any, index: int, game: int) -> GameState:
    """The referee's position after ``action`` in game ``index`` of the pgx batch
    ``state`` (on the host), its outputs checked.

    :raises Disagreement: where the engine and the referee differ.
    """
    from azul_rules.ai import pgx

    step = int(state._step_count[index])
    ref = referee_step(ref, action, pgx.to_state(state, index), game=game, step=step)
    referee_outputs(ref, int(state.current_player[index]), state.observation[index].tolist(),
                    state.rewards[index].tolist(), bool(state.terminated[index]),
                    game=game)  # fmt: skip
    return ref


def vector_differential(
    players: int = 2, games: int = 16, *, variant: Variant | str = "colored", batch: int = 16,
    seed: int = 0, legal: str = "mask",
) -> int:  # fmt: skip
    """Play ``games`` random games on a batch of ``batch`` of
    ``azul_rules.ai.vector.make`` (its steps writing the ``legal`` form) and hold every
    step to the referee through ``VectorEnv.to_state``: both forms of the legal actions
    (the mask, the listed ids and their count), the position, the outputs.  A slot whose
    game ends deals the next game at its next step (the auto-reset, checked too: the
    referee's first position, no reward, no flag).

    :raises Disagreement: at the first difference, naming the game, the step and what
        differs.
    :raises RuntimeError: when the batch engine was not compiled.
    """
    import numpy as np

    from azul_rules.ai import vector

    env = vector.make(batch, players, variant, seed, legal=legal)
    choose = np.random.default_rng(seed)
    refs = [referee_start(env.to_state(i), game=i) for i in range(batch)]
    number = list(range(batch))  # the game each slot plays
    live = [n < games for n in number]
    ended = [False] * batch  # the slot's game ended at the last step
    started, checked = batch, 0
    everything = np.arange(env.num_actions)
    while any(live):
        chosen = choose.integers(-1, env.num_actions + 1, batch)  # ignored after an end
        mask, ids, count = env.legal_action_mask, env.legal_action_ids, env.legal_action_count
        for i in np.flatnonzero(live).tolist():
            if not ended[i]:
                expected = legal_actions(refs[i])
                listed = ids[i, : count[i]].tolist()
                if np.flatnonzero(mask[i]).tolist() != expected or listed != expected:
                    raise Disagreement(f"game {number[i]}, step {checked}: the legal "
                                       f"actions differ from the referee's {expected}: "
                                       f"mask {np.flatnonzero(mask[i]).tolist()}, ids "
                                       f"{listed}")  # fmt: skip
                if (ids[i, count[i] :] != -1).any():
                    raise Disagreement(f"game {number[i]}, step {checked}: the listed ids "
                                       "go on past their count")  # fmt: skip
                chosen[i] = choose.choice(expected)
        env.step(chosen)
        observed = env.observation
        for i in np.flatnonzero(live).tolist():
            seen = env.to_state(i)
            if ended[i]:
                refs[i] = referee_start(seen, game=number[i])
                ended[i] = False
            else:
                refs[i] = referee_step(refs[i], int(chosen[i]), seen, game=number[i],
                                       step=checked)  # fmt: skip
                checked += 1
            referee_outputs(refs[i], int(env.current_player[i]), observed[i].tolist(),
                            env.rewards[i].tolist(), bool(env.terminated[i]), game=number[i])
            if env.terminated[i] and not (env.legal_action_mask[i].all()
                                          and env.legal_action_count[i] == env.num_actions
                                          and (env.legal_action_ids[i] == everything).all()):
                raise Disagreement(f"game {number[i]}: an ended game's legal actions are "
                                   "not every id (pgx's convention)")  # fmt: skip
            cut = refs[i].round > env.max_rounds and not refs[i].is_over
            if bool(env.truncated[i]) != cut:
                raise Disagreement(f"game {number[i]}: truncation differs from the round cap")
            if refs[i].is_over or cut:
                ended[i] = True
                number[i], started = started, started + 1
                live[i] = number[i] < games
    return checked
