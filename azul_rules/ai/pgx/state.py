"""The state of an Azul game in the JAX engine: :class:`AzulState` (pgx's ``State``)
and the values its fields take (the package's docstring lists the fields)."""

from __future__ import annotations

from typing import Final

from azul_rules.core._extras import extra

with extra("pgx", "azul_rules.ai.pgx"):
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx._src.struct import dataclass



Array = jax.Array


_EMPTY: Final = -1
_MARKER: Final = 5  # the marker's value in ``floor``
_OFFER: Final = 0
_TILING: Final = 1
_CLOSING: Final = 2  # the grey tiling over, within a step only (the referee's refill phase)
_OVER: Final = 3
_FLOOR_SPACES: Final = 7


def _colour_ids() -> Array:
    """0-4, the colours (S5), made in the traced code rather than held as a constant: a
    ``custom_vmap`` function (``_only_where``) under a batched ``lax.cond`` must close
    over no array constant."""
    return jnp.arange(5)


@dataclass
class AzulState(pgx.State):  # type: ignore[misc]  # pgx ships no type information
    """One game (or a batch: a leading axis on every field); the module's docstring
    says what each game field holds."""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array
    factories: Array
    center: Array
    bag: Array
    lid: Array
    line_color: Array
    line_count: Array
    wall: Array
    floor: Array
    score: Array
    marker_holder: Array
    start_player: Array
    round: Array
    phase: Array

    @property
    def env_id(self) -> str:
        """pgx's id of the game (not one of pgx's own: ``pgx.make`` does not know it)."""
        return "azul"
