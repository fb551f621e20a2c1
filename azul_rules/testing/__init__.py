"""Property-based testing with Hypothesis: strategies and a state machine.

Needs Hypothesis, the ``testing`` extra (``pip install -e '.[testing]'`` in the project's
checkout).  Everything here is public::

    from hypothesis import given
    from azul_rules import testing as azt

    @given(azt.game_states(players=[4], stage="near_end"))
    def test_my_ui_draws_any_position(state): ...

* :func:`colors`, :func:`game_states`, :func:`legal_moves`, :func:`illegal_moves`,
  :func:`table_takes`, :func:`game_records` return ``SearchStrategy`` objects;
* :class:`RefereeMachine` drives random games through the referee and checks its
  invariants; :func:`differential_machine` plugs another implementation of Azul into a
  :class:`GameMachine` and compares the two move by move (see
  ``examples/differential_testing.py``);
* :func:`protocol_engine` gives that implementation for any program speaking the engine
  protocol (``docs/engine-protocol.md``), whatever its language.

``st.from_type(GameState)`` (and ``Color``, ``GameRecord``) works once both Hypothesis
and ``azul_rules`` are imported: the ``hypothesis`` entry point registers functions, so
neither import is slowed by the other.

The package's modules, each re-exported here:

* :mod:`~azul_rules.testing.strategies` — the Hypothesis strategies;
* :mod:`~azul_rules.testing.machines` — the state machines;
* :mod:`~azul_rules.testing.engines` — engines speaking the engine protocol;
* :mod:`~azul_rules.testing.tiles` and :mod:`~azul_rules.testing.illegal` — tiles
  counted and dealt, illegal moves labelled from the rules (no Hypothesis in either);
* :mod:`~azul_rules.testing.protocol`, :mod:`~azul_rules.testing.engine_process`,
  :mod:`~azul_rules.testing.conformance` and :mod:`~azul_rules.testing.differential` —
  the engine protocol, the engine process, the comparisons with the referee and
  ``azul-rules differential``; :mod:`~azul_rules.testing.batched` — the batched engines'
  differential harnesses.

Without Hypothesis, ``import azul_rules.testing`` (or any of its modules) raises an
``ImportError`` naming the ``testing`` extra and how to install it.

Layer: engine testing.  May import the AI adapters (``azul_rules.ai.spiel``, lazily),
``actions``, ``svg``, ``adjudication``, ``formats`` and ``core``; only the command
line, the reference engine and the web judge sit above it.
"""

from __future__ import annotations

from azul_rules.testing.engines import ProtocolEngine, protocol_engine
from azul_rules.testing.machines import (
    GameMachine,
    Implementation,
    RefereeMachine,
    differential_machine,
    spiel_differential_machine,
)
from azul_rules.testing.strategies import (
    Stage,
    colors,
    game_records,
    game_states,
    illegal_moves,
    legal_moves,
    refills,
    table_takes,
)
from azul_rules.testing.tiles import fill_factories as fill_factories
from azul_rules.testing.tiles import tile_counts

__all__ = [
    "GameMachine",
    "Implementation",
    "ProtocolEngine",
    "RefereeMachine",
    "Stage",
    "colors",
    "differential_machine",
    "game_records",
    "game_states",
    "illegal_moves",
    "legal_moves",
    "protocol_engine",
    "refills",
    "spiel_differential_machine",
    "table_takes",
    "tile_counts",
]
