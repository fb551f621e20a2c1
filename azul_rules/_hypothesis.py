"""Registers ``st.from_type`` strategies for ``GameState``, ``GameRecord`` and ``Color``.

Runs from the ``hypothesis`` entry point when Hypothesis is imported, and from
``azul_rules/__init__`` when ``azul_rules`` is imported after Hypothesis.  It registers
*functions* that import ``azul_rules.testing`` only when a strategy is first needed, and
does nothing until both packages are loaded: neither import slows the other.
"""

from __future__ import annotations

import sys
from typing import Any

_done = False


def _hypothesis_setup_hook() -> None:
    """Register the type strategies if both Hypothesis and azul_rules are loaded."""
    global _done
    if _done or "azul_rules.state" not in sys.modules or "hypothesis.strategies" not in sys.modules:
        return
    _done = True
    from hypothesis import strategies as st

    from azul_rules.colors import Color
    from azul_rules.record import GameRecord
    from azul_rules.state import GameState

    def states(_: type) -> Any:
        from azul_rules.testing import game_states

        return game_states()

    def records(_: type) -> Any:
        from azul_rules.testing import game_records

        return game_records()

    st.register_type_strategy(GameState, states)
    st.register_type_strategy(GameRecord, records)
    st.register_type_strategy(Color, st.sampled_from(list(Color)))
