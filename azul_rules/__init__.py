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
from typing import TYPE_CHECKING, Any

from azul_rules._hypothesis import _hypothesis_setup_hook
from azul_rules.board import PatternLine, PlayerBoard
from azul_rules.colors import CENTER, FLOOR, MARKER, Color, Marker
from azul_rules.errors import (
    ErrorCode,
    FormatError,
    IllegalMoveError,
    InvalidStateError,
    Problem,
    Result,
    StateProblem,
    Violation,
)
from azul_rules.moves import Move, Placements, PlaceTile, Refill, TableTake, Take, parse_move
from azul_rules.phases import Phase, Variant
from azul_rules.rulebook import rule
from azul_rules.scoring import (
    Bonuses,
    Outcome,
    PlacementScore,
    PlayerTiling,
    RoundScoring,
    WallPlacement,
    end_bonuses,
    score_placement,
)
from azul_rules.state import ACCELERATED, GameState, new_game

if TYPE_CHECKING:
    from azul_rules.auditing import Claim, audit
    from azul_rules.jsonio import (
        from_dict,
        from_json,
        move_from_dict,
        move_from_json,
        to_dict,
        to_json,
    )
    from azul_rules.record import GameRecord, Replay
    from azul_rules.scoresheet import audit_game

# The names below come from modules built on cattrs (JSON, records, audits): they are
# imported on first use (PEP 562), so that ``import azul_rules`` stays fast for programs
# that never read or write JSON.
_ON_FIRST_USE = {
    "Claim": "azul_rules.auditing",
    "audit": "azul_rules.auditing",
    "GameRecord": "azul_rules.record",
    "Replay": "azul_rules.record",
    "audit_game": "azul_rules.scoresheet",
    **dict.fromkeys(
        ("from_dict", "from_json", "move_from_dict", "move_from_json", "to_dict", "to_json"),
        "azul_rules.jsonio",
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
"""True when the compiled core (``azul_rules._speedups``) is in use; the Python core
otherwise (no C compiler at install, or ``AZUL_RULES_PURE_PYTHON=1`` at import).  Both
give the same games, verdicts and records."""

__all__ = [
    "CENTER",
    "FLOOR",
    "MARKER",
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
    "audit",
    "audit_game",
    "end_bonuses",
    "from_dict",
    "from_json",
    "move_from_dict",
    "move_from_json",
    "new_game",
    "parse_move",
    "rule",
    "score_placement",
    "to_dict",
    "to_json",
]

__version__ = "0.1.0"

# st.from_type(GameState) when Hypothesis was imported first (see azul_rules._hypothesis).
_hypothesis_setup_hook()
