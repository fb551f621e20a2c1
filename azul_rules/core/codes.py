"""The stable codes of the referee's verdicts: :class:`ErrorCode` for a move or a claim
that breaks a rule (the rule book's error tables), :class:`StateProblem` for a position that
cannot exist.  Both are ``str`` enums whose value is their name, so they survive JSON
unchanged."""

from __future__ import annotations

import enum

__all__ = ["ErrorCode", "StateProblem"]


class ErrorCode(str, enum.Enum):
    """A stable name for each way of breaking the rules (the rule book's error tables).

    The value is the same string as the name, so codes survive JSON unchanged.

    :raises ValueError: ``ErrorCode(value)`` for an unknown value (it is an enum).
    """

    # Documented mistakes of the rule texts.
    PARTIAL_TAKE = "PARTIAL_TAKE"
    SPLIT_LOT = "SPLIT_LOT"
    WALL_COLOR_CONFLICT = "WALL_COLOR_CONFLICT"
    INCOMPLETE_LINE_CLEARED = "INCOMPLETE_LINE_CLEARED"
    DIAGONAL_COUNTED = "DIAGONAL_COUNTED"
    GAP_COUNTED = "GAP_COUNTED"
    MARKER_PENALTY_FORGOTTEN = "MARKER_PENALTY_FORGOTTEN"
    GAME_ENDED_EARLY = "GAME_ENDED_EARLY"
    # Other ways a move or a claim can break the rules.
    GAME_OVER = "GAME_OVER"
    WRONG_PHASE = "WRONG_PHASE"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    NO_SUCH_SOURCE = "NO_SUCH_SOURCE"
    EMPTY_SOURCE = "EMPTY_SOURCE"
    COLOR_NOT_IN_SOURCE = "COLOR_NOT_IN_SOURCE"
    TOO_MANY_TAKEN = "TOO_MANY_TAKEN"
    TWO_COLORS = "TWO_COLORS"
    MARKER_ALONE = "MARKER_ALONE"
    NO_SUCH_LINE = "NO_SUCH_LINE"
    LINE_COLOR_MISMATCH = "LINE_COLOR_MISMATCH"
    LINE_FULL = "LINE_FULL"
    FLOOR_WHILE_ROOM = "FLOOR_WHILE_ROOM"
    TILE_COUNT_MISMATCH = "TILE_COUNT_MISMATCH"
    COLUMN_COLOR_CONFLICT = "COLUMN_COLOR_CONFLICT"
    SPACE_OCCUPIED = "SPACE_OCCUPIED"
    NOT_WALL_COLOR_SPACE = "NOT_WALL_COLOR_SPACE"
    FILL_IMPOSSIBLE = "FILL_IMPOSSIBLE"
    EMPTY_DIRECTION_COUNTED = "EMPTY_DIRECTION_COUNTED"
    CROSS_COUNTED_ONCE = "CROSS_COUNTED_ONCE"
    SCORE_MISCOUNT = "SCORE_MISCOUNT"
    FLOOR_OVERFLOW_PENALIZED = "FLOOR_OVERFLOW_PENALIZED"
    SCORE_BELOW_ZERO = "SCORE_BELOW_ZERO"
    BONUS_MISCOUNT = "BONUS_MISCOUNT"
    WRONG_WINNER = "WRONG_WINNER"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"ErrorCode.{self.name}"


class StateProblem(str, enum.Enum):
    """Why a position cannot exist (value == name).

    :raises ValueError: ``StateProblem(value)`` for an unknown value (it is an enum).
    """

    PLAYER_COUNT = "PLAYER_COUNT"
    FACTORY_COUNT = "FACTORY_COUNT"
    TILE_COUNT = "TILE_COUNT"
    FACTORY_OVERFULL = "FACTORY_OVERFULL"
    LINE_OVER_CAPACITY = "LINE_OVER_CAPACITY"
    LINE_MIXED_COLORS = "LINE_MIXED_COLORS"
    LINE_COLOR_ON_WALL = "LINE_COLOR_ON_WALL"
    WALL_TILE_OFF_COLOR = "WALL_TILE_OFF_COLOR"
    ROW_REPEATED_COLOR = "ROW_REPEATED_COLOR"
    COLUMN_REPEATED_COLOR = "COLUMN_REPEATED_COLOR"
    FLOOR_TOO_LONG = "FLOOR_TOO_LONG"
    MARKER_COUNT = "MARKER_COUNT"
    PLAYER_OUT_OF_RANGE = "PLAYER_OUT_OF_RANGE"
    NEGATIVE_SCORE = "NEGATIVE_SCORE"
    PHASE_MISMATCH = "PHASE_MISMATCH"
    GAME_SHOULD_HAVE_ENDED = "GAME_SHOULD_HAVE_ENDED"
    LINE_NOT_TILED = "LINE_NOT_TILED"
    FLOOR_NOT_CLEARED = "FLOOR_NOT_CLEARED"
    TOO_MANY_WALL_TILES = "TOO_MANY_WALL_TILES"
    GAME_OVER_WITHOUT_CAUSE = "GAME_OVER_WITHOUT_CAUSE"
    SCORE_OUT_OF_REACH = "SCORE_OUT_OF_REACH"
    NO_TAKE_YET = "NO_TAKE_YET"
    TURN_OUT_OF_ORDER = "TURN_OUT_OF_ORDER"
    FACTORY_SHORT = "FACTORY_SHORT"
    TILES_FROM_NOWHERE = "TILES_FROM_NOWHERE"

    def __str__(self) -> str:
        return self.value
