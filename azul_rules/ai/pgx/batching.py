"""The heavy steps run only for the games of a batch that reach them: under
``jax.vmap`` a ``lax.cond`` runs both branches for every game, so the round's end is a
``jax.custom_batching.custom_vmap`` function whose batched rule gathers the games due (a
share of the batch at a time, as often as needed), runs it on those and puts them back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from azul_rules.core._extras import extra

with extra("pgx", "azul_rules.ai.pgx"):
    import jax
    import jax.numpy as jnp


from azul_rules.ai.pgx.game import _place, _resolve_tiling, _where
from azul_rules.ai.pgx.state import _CLOSING, _OFFER, _TILING, AzulState

Array = jax.Array


# -- the heavy steps, only for the games of a batch that reach them --------------------------

# How many games of a batch the round's end takes at a time: a share of the batch, and no
# fewer than a floor (each pass has a fixed cost); more wait for the next pass of the loop
# in ``_only_where``.  A round ends for about one game in ten at each step.
_SHARE: Final = 8
# Of the games placing a tile on the grey wall, about one in twelve ends the tiling: the
# round's close takes them a share of the games placing at a time.
_CLOSE_SHARE: Final = 8
_FEWEST: Final = 64


def _only_where(
    due: Callable[[AzulState], Array],
    work: Callable[[AzulState, Array, Array], AzulState],
    share: int | None = None,
) -> Callable[[AzulState, Array, Array], AzulState]:
    """``work(state, argument, key)`` where ``due(state)``, else ``state``.  One game: a
    ``lax.cond``.  Under ``jax.vmap`` a ``cond`` would run ``work`` for every game of
    the batch (a select), and the round's end costs several times a take: so the
    batched rule gathers the games that are due (``1 / share`` of the batch at a time,
    ``_SHARE`` unless given, as often as needed), runs ``work`` on those only and puts
    them back.  The results are the same as one game at a time."""

    def keep(state: AzulState, argument: Array, key: Array) -> AzulState:
        return state

    @jax.custom_batching.custom_vmap
    def run(state: AzulState, argument: Array, key: Array) -> AzulState:
        chosen: AzulState = jax.lax.cond(due(state), work, keep, state, argument, key)
        return chosen

    @run.def_vmap
    def batched(
        size: int, in_batched: Any, state: AzulState, argument: Array, key: Array
    ) -> tuple[AzulState, Any]:
        state, argument, key = jax.tree_util.tree_map(
            lambda x, b: x if b else jnp.broadcast_to(x, (size, *jnp.shape(x))),
            (state, argument, key),
            tuple(in_batched),
        )
        chunk = min(size, max(_FEWEST, size // (share or _SHARE)))

        def one_pass(carry: tuple[AzulState, Array]) -> tuple[AzulState, Array]:
            state, waiting = carry
            index = jnp.nonzero(waiting, size=chunk, fill_value=size)[0]
            part = jax.tree_util.tree_map(lambda x: x[index], state)
            done = jax.vmap(work)(part, argument[index], key[index])
            state = jax.tree_util.tree_map(
                lambda x, d: x.at[index].set(d, mode="drop"), state, done
            )
            return state, waiting.at[index].set(False, mode="drop")

        waiting = jax.vmap(due)(state)
        state, _ = jax.lax.while_loop(lambda c: c[1].any(), one_pass, (state, waiting))
        return state, jax.tree_util.tree_map(lambda _: True, state)

    return run


def _offer_over(state: AzulState) -> Array:
    """P7: the last take emptied the factories and the centre (the factory offer goes
    on while the phase says so: the grey wall's tiling changes it at once)."""
    empty = (state.factories.sum() == 0) & (state.center.sum() == 0)
    return empty & (state.phase == _OFFER)


def _tiling_due(state: AzulState) -> Array:
    """The grey wall's tiling is under way: a placement, or the take that began it."""
    return state.phase == _TILING


def _closing(state: AzulState) -> Array:
    """The grey wall's tiling is over: the round is to close."""
    return state.phase == _CLOSING


def _ended_here(state: AzulState) -> Array:
    """A game that ended at this step and was not dealt afresh yet (an illegal action,
    R6, the round cap: a game dealt afresh has not moved yet)."""
    return (state.terminated | state.truncated) & (state._step_count > 0)


def _stripped(
    state: AzulState,
    compacted: Callable[[AzulState, Array, Array], AzulState],
    action: Array,
    key: Array,
    before: AzulState,
) -> AzulState:
    """``compacted(state, action, key)`` without the observation and the mask (made
    afresh after the move: the games gathered need not carry them), then ``before``'s."""
    game = state.replace(
        observation=jnp.zeros(0, before.observation.dtype),
        legal_action_mask=jnp.zeros(0, jnp.bool_),
    )
    after: AzulState = compacted(game, action, key).replace(
        observation=before.observation, legal_action_mask=before.legal_action_mask
    )
    return after


def _tile_grey(state: AzulState, placement: Array) -> AzulState:
    """V1-V4: the placement (when ``placement >= 0``), the tiling on to the next decision;
    when nobody has one left, the phase says that the round is to close (``_CLOSING``:
    the floors and the round's end, W4, W5, E1, R7, by :func:`_close_grey`)."""
    players = state.score.shape[0]
    placed = _where(placement >= 0, _place(state, jnp.maximum(placement, 0)), state)
    resolved, finished = _resolve_tiling(placed, players)
    return resolved.replace(  # type: ignore[no-any-return]
        phase=jnp.where(finished, jnp.int8(_CLOSING), resolved.phase)
    )
