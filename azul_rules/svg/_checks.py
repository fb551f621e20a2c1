"""The checks :func:`azul_rules.svg.board` makes of the records it is asked to mark.

``Result``, ``Violation``, ``RoundScoring`` and their parts are records the referee
builds and never checks when built (their docstrings, in docs/api-core.md): whoever
reads one checks it.  A picture reads a verdict's codes, rule ids and the params its
messages are worded from, and a tiling's ints; one built by hand with other values is a
``FormatError`` here, named, rather than a ``KeyError`` or ``AttributeError`` from deep
inside the drawing.  Values of the right types that do not fit the position (a player
or a space not on this table) are drawn as far as they fit: see ``docs/pictures.md``.

Private: ``azul_rules.svg`` is the public entry point.
"""

from __future__ import annotations

from azul_rules.core.codes import ErrorCode
from azul_rules.core.errors import FormatError, Result, Violation
from azul_rules.core.scoring import Bonuses, PlayerTiling, RoundScoring, WallPlacement
from azul_rules.core.shown import shown

__all__ = ["checked_result", "checked_scoring"]

_WORDING_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError, AssertionError)
"""What wording a message raises when its params are not the referee's."""


def checked_result(result: Result, lang: str) -> Result:
    """``result`` when every violation can be drawn: a :class:`Violation` with an
    ``ErrorCode``, a rule id and params its message can be worded from (the referee's
    always are); else ``FormatError`` naming the first that cannot."""
    violations = result.violations
    if not isinstance(violations, (tuple, list)):
        raise FormatError(
            f"highlight: a Result's violations are a tuple of Violations, not {shown(violations)}"
        )
    for index, violation in enumerate(violations):
        where = f"highlight: the Result's violations[{index}]"
        if not (
            isinstance(violation, Violation)
            and isinstance(violation.code, ErrorCode)
            and isinstance(violation.rule, str)
        ):
            raise FormatError(f"{where} is not a Violation of an ErrorCode and a rule id: "
                              f"{shown(violation)}")  # fmt: skip
        try:
            violation.message_in(lang)
        except _WORDING_ERRORS:
            raise FormatError(
                f"{where} ({violation.code.value}) cannot be worded from its params "
                f"{shown(violation.params)}: build violations with the referee "
                "(state.validate, audit) or with the params its messages name"
            ) from None
    return result


def checked_scoring(scoring: RoundScoring) -> RoundScoring:
    """``scoring`` when its fields have the types the referee gives them (ints, Colors,
    ``PlayerTiling`` and ``WallPlacement`` records); else ``FormatError`` naming the
    first field that has not."""
    problem = _scoring_problem(scoring)
    if problem is not None:
        raise FormatError(f"highlight: the RoundScoring's {problem}")
    return scoring


def _scoring_problem(scoring: RoundScoring) -> str | None:
    if type(scoring.round) is not int:
        return f"round is {shown(scoring.round)}, not an int"
    tilings = scoring.players
    if not isinstance(tilings, (tuple, list)):
        return f"players is {shown(tilings)}, not a tuple of PlayerTilings"
    for index, tiling in enumerate(tilings):
        problem = _tiling_problem(tiling)
        if problem is not None:
            return f"players[{index}]{problem}"
    return None


def _tiling_problem(tiling: object) -> str | None:
    if not isinstance(tiling, PlayerTiling):
        return f" is {shown(tiling)}, not a PlayerTiling"
    for name in ("player", "score_before", "floor_penalty", "score_after"):
        if type(getattr(tiling, name)) is not int:
            return f".{name} is {shown(getattr(tiling, name))}, not an int"
    bonuses = tiling.bonuses
    if bonuses is not None and not (
        isinstance(bonuses, Bonuses)
        and all(type(getattr(bonuses, n)) is int for n in ("rows", "columns", "colors"))
    ):
        return f".bonuses is {shown(bonuses)}, not None or Bonuses of ints"
    placements = tiling.placements
    if not isinstance(placements, (tuple, list)):
        return f".placements is {shown(placements)}, not a tuple of WallPlacements"
    for number, placed in enumerate(placements):
        if not isinstance(placed, WallPlacement) or not all(
            type(getattr(placed, n)) is int
            for n in ("row", "column", "horizontal", "vertical", "points")
        ):
            return f".placements[{number}] is {shown(placed)}, not a WallPlacement of ints"
    return None
