"""azul_rules: a strict, fast referee for the board game Azul.

>>> import azul_rules as az
>>> state = az.new_game(2, seed=7)
>>> move = state.legal_moves()[0]
>>> state.validate(move).ok
True
>>> az.parse_move("3B2")
Take(source=2, color=Color.BLUE, line=1, player=None)
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from azul_rules.core.ask import Answer, ask
from azul_rules.core.board import PatternLine, PlayerBoard
from azul_rules.core.colors import CENTER, FLOOR, MARKER, Color, Marker
from azul_rules.core.errors import (
    ErrorCode,
    FormatError,
    IllegalMoveError,
    InvalidStateError,
    Problem,
    Result,
    StateProblem,
    Violation,
)
from azul_rules.core.moves import Move, Placements, PlaceTile, Refill, TableTake, Take, parse_move
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.rulebook import rule
from azul_rules.core.scoring import (
    Bonuses,
    Outcome,
    PlacementScore,
    PlayerTiling,
    RoundScoring,
    WallPlacement,
    end_bonuses,
    score_placement,
)
from azul_rules.core.state import ACCELERATED, GameState, new_game

if TYPE_CHECKING:
    from azul_rules.adjudication.auditing import Claim, audit
    from azul_rules.adjudication.scoresheet import audit_game
    from azul_rules.formats.jsonio import (
        from_dict,
        from_json,
        move_from_dict,
        move_from_json,
        to_dict,
        to_json,
    )
    from azul_rules.formats.notation import to_notation
    from azul_rules.formats.record import GameRecord, Replay
    from azul_rules.formats.serialization import from_notation
    from azul_rules.formats.unseen import complete_unseen

# The names below come from modules built on cattrs (JSON, records, audits): they are
# imported on first use (PEP 562), so that ``import azul_rules`` stays fast for programs
# that never read or write JSON.
_ON_FIRST_USE = {
    "Claim": "azul_rules.adjudication.auditing",
    "audit": "azul_rules.adjudication.auditing",
    "GameRecord": "azul_rules.formats.record",
    "Replay": "azul_rules.formats.record",
    "audit_game": "azul_rules.adjudication.scoresheet",
    "from_notation": "azul_rules.formats.serialization",
    "complete_unseen": "azul_rules.formats.unseen",
    "to_notation": "azul_rules.formats.notation",
    **dict.fromkeys(
        ("from_dict", "from_json", "move_from_dict", "move_from_json", "to_dict", "to_json"),
        "azul_rules.formats.jsonio",
    ),
}


def __getattr__(name: str) -> Any:
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module 'azul_rules' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_ON_FIRST_USE))


accelerated: bool = ACCELERATED
"""True when the compiled engine (``azul_rules.core._compiled``, the C rules engine of
``azul_rules/core/_engine/`` behind the referee's objects) is in use; the Python core
otherwise (no C compiler at install, or ``AZUL_RULES_PURE_PYTHON=1`` at import).  Both
give the same games, verdicts and records."""

__all__ = [
    "CENTER",
    "FLOOR",
    "MARKER",
    "Answer",
    "Bonuses",
    "Claim",
    "Color",
    "ErrorCode",
    "FormatError",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "InvalidStateError",
    "Marker",
    "Move",
    "Outcome",
    "PatternLine",
    "Phase",
    "PlaceTile",
    "PlacementScore",
    "Placements",
    "PlayerBoard",
    "PlayerTiling",
    "Problem",
    "Refill",
    "Replay",
    "Result",
    "RoundScoring",
    "StateProblem",
    "TableTake",
    "Take",
    "Variant",
    "Violation",
    "WallPlacement",
    "accelerated",
    "ask",
    "audit",
    "audit_game",
    "complete_unseen",
    "end_bonuses",
    "from_dict",
    "from_json",
    "from_notation",
    "move_from_dict",
    "move_from_json",
    "new_game",
    "parse_move",
    "rule",
    "score_placement",
    "to_dict",
    "to_json",
    "to_notation",
]


_hypothesis_registered = False


def _hypothesis_setup_hook() -> None:
    """Register ``st.from_type`` strategies for ``GameState``, ``GameRecord`` and ``Color``.

    Runs from the ``hypothesis`` entry point when Hypothesis is imported, and at the end of
    this module when ``azul_rules`` is imported after Hypothesis.  It registers *functions*
    that import :mod:`azul_rules.testing` only when a strategy is first needed, and does
    nothing until both packages are loaded: neither import slows the other.
    """
    global _hypothesis_registered
    loaded = "azul_rules.core.state" in sys.modules and "hypothesis.strategies" in sys.modules
    if _hypothesis_registered or not loaded:
        return
    _hypothesis_registered = True
    from hypothesis import strategies as st

    from azul_rules.formats.record import GameRecord as Record

    def states(_: type) -> Any:
        from azul_rules.testing import game_states

        return game_states()

    def records(_: type) -> Any:
        from azul_rules.testing import game_records

        return game_records()

    st.register_type_strategy(GameState, states)
    st.register_type_strategy(Record, records)
    st.register_type_strategy(Color, st.sampled_from(list(Color)))


__version__ = "0.1.0"

# st.from_type(GameState) when Hypothesis was imported first.
_hypothesis_setup_hook()
