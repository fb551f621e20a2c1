"""Impossible states: every reason a well-formed position cannot arise in a game.

``state.problems()`` lists them all; ``from_json`` raises
:class:`~azul_rules.InvalidStateError` with the list.  Each problem has a stable code
(:class:`StateProblem`), the RULES.md id it contradicts, a JSON path and a message.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from azul_rules.colors import COLORS, FLOOR_SIZE, MARKER, Color, wall_color
from azul_rules.phases import Phase, Variant

if TYPE_CHECKING:
    from azul_rules.board import PlayerBoard
    from azul_rules.state import GameState

__all__ = ["Problem", "StateProblem", "state_problems"]

_Add = Callable[["StateProblem", str, str, str], None]


class StateProblem(str, enum.Enum):
    """Why a position cannot exist (value == name)."""

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

    def __str__(self) -> str:
        return self.value


@attrs.frozen
class Problem:
    """One reason a state cannot exist."""

    code: StateProblem
    rule: str
    path: str
    message: str

    def rule_text(self, lang: str = "en") -> str:
        """The text of the contradicted rule (``rule``) from the rule book, in ``lang``."""
        from azul_rules.rulebook import rule

        return rule(self.rule).text(lang)

    def __str__(self) -> str:
        return f"{self.code.value} ({self.rule}) at {self.path}: {self.message}"


def state_problems(state: GameState) -> tuple[Problem, ...]:
    """Every problem of ``state`` (empty when it can exist)."""
    found: list[Problem] = []

    def add(code: StateProblem, rule: str, path: str, message: str) -> None:
        found.append(Problem(code, rule, path, message))

    players = state.players
    n = len(players)
    if n not in (2, 3, 4):
        add(StateProblem.PLAYER_COUNT, "S1", "$.players", f"{n} players: Azul has 2 to 4")
    expected = {2: 5, 3: 7, 4: 9}.get(n)
    if expected is not None and len(state.factories) != expected:
        add(
            StateProblem.FACTORY_COUNT, "S2", "$.factories",
            f"{len(state.factories)} factories: {n} players play with {expected}",
        )  # fmt: skip
    for index, tiles in enumerate(state.factories):
        if len(tiles) > 4:
            add(
                StateProblem.FACTORY_OVERFULL, "R2", f"$.factories[{index}]",
                f"factory {index + 1} holds {len(tiles)} tiles: at most 4",
            )  # fmt: skip
    _check_tile_counts(state, add)
    for index, board in enumerate(players):
        _check_board(index, board, state.variant, add)
    _check_turn_and_marker(state, add)
    return tuple(found)


def _check_tile_counts(state: GameState, add: _Add) -> None:
    counts = dict.fromkeys(COLORS, 0)
    everywhere: list[Color] = [*state.bag, *state.lid, *state.center]
    for tiles in state.factories:
        everywhere.extend(tiles)
    for board in state.players:
        everywhere.extend(t for row in board.wall for t in row if t is not None)
        everywhere.extend(t for t in board.floor if isinstance(t, Color))
        for line in board.pattern_lines:
            if line.color is not None:
                everywhere.extend([line.color] * max(line.count, 0))
    for tile in everywhere:
        counts[tile] += 1
    for color, count in counts.items():
        if count != 20:
            add(
                StateProblem.TILE_COUNT, "S3", "$",
                f"{count} {color.name.lower()} tiles in all: the game has 20 of each colour",
            )  # fmt: skip


def _check_board(index: int, board: PlayerBoard, variant: Variant, add: _Add) -> None:
    path = f"$.players[{index}]"
    if board.score < 0:
        add(StateProblem.NEGATIVE_SCORE, "W4", f"{path}.score", f"score {board.score} < 0")
    for row_index, line in enumerate(board.pattern_lines):
        line_path = f"{path}.pattern_lines[{row_index}]"
        if line.capacity != row_index + 1 or not 0 <= line.count <= line.capacity:
            add(
                StateProblem.LINE_OVER_CAPACITY, "S4", line_path,
                f"pattern line {row_index + 1} holds {line.count} tiles: it has "
                f"{row_index + 1} spaces",
            )  # fmt: skip
        if line.color is not None and line.color in board.wall[row_index]:
            add(
                StateProblem.LINE_COLOR_ON_WALL, "P3", line_path,
                f"pattern line {row_index + 1} holds {line.color.name.lower()}, already on "
                f"wall row {row_index + 1}",
            )  # fmt: skip
    for r, row in enumerate(board.wall):
        tiles = [t for t in row if t is not None]
        if len(tiles) != len(set(tiles)):
            add(
                StateProblem.ROW_REPEATED_COLOR, "P3", f"{path}.wall[{r}]",
                f"wall row {r + 1} holds a colour twice",
            )  # fmt: skip
        if variant is Variant.COLORED:
            for c, tile in enumerate(row):
                if tile is not None and tile != wall_color(r, c):
                    add(
                        StateProblem.WALL_TILE_OFF_COLOR, "S5", f"{path}.wall[{r}][{c}]",
                        f"a {tile.name.lower()} tile on the "
                        f"{wall_color(r, c).name.lower()} space of the coloured wall",
                    )  # fmt: skip
    for c in range(5):
        column = [row[c] for row in board.wall if row[c] is not None]
        if len(column) != len(set(column)):
            add(
                StateProblem.COLUMN_REPEATED_COLOR, "V2", f"{path}.wall",
                f"wall column {c + 1} holds a colour twice",
            )  # fmt: skip
    if len(board.floor) > FLOOR_SIZE:
        add(
            StateProblem.FLOOR_TOO_LONG, "F1", f"{path}.floor",
            f"{len(board.floor)} items on a floor line of {FLOOR_SIZE} spaces",
        )  # fmt: skip


def _check_turn_and_marker(state: GameState, add: _Add) -> None:
    n = len(state.players)
    for name, value in (
        ("current_player", state.current_player),
        ("start_player", state.start_player),
    ):
        if not 0 <= value < n:
            add(StateProblem.PLAYER_OUT_OF_RANGE, "G2", f"$.{name}", f"no player {value + 1}")
    holder = state.marker_holder
    if holder is not None and not 0 <= holder < n:
        add(StateProblem.PLAYER_OUT_OF_RANGE, "T3", "$.marker_holder", f"no player {holder + 1}")
        holder = None
    on_floors = [i for i, b in enumerate(state.players) if MARKER in b.floor]
    markers = sum(b.floor.count(MARKER) for b in state.players)
    if markers > 1:
        add(
            StateProblem.MARKER_COUNT,
            "T3",
            "$.players",
            f"{markers} markers on the floors: one exists",
        )
    elif holder is None and on_floors:
        add(
            StateProblem.MARKER_COUNT, "T3", f"$.players[{on_floors[0]}].floor",
            "the marker is on a floor but marker_holder says it is in the centre",
        )  # fmt: skip
    elif holder is not None and on_floors != [holder]:
        board = state.players[holder]
        if on_floors or len(board.floor) < FLOOR_SIZE:
            add(
                StateProblem.MARKER_COUNT, "F3", f"$.players[{holder}].floor",
                f"player {holder + 1} holds the marker but it is not on their floor "
                "(only a full floor leaves it off, F4)",
            )  # fmt: skip
    _check_phase(state, add)


def _check_phase(state: GameState, add: _Add) -> None:
    phase = state.phase
    anything_left = bool(state.center) or any(state.factories)
    if phase is Phase.FACTORY_OFFER and not anything_left:
        add(
            StateProblem.PHASE_MISMATCH, "P7", "$.phase",
            "the factory offer cannot go on: no tile is left in the factories or the centre",
        )  # fmt: skip
    if phase in (Phase.REFILL, Phase.WALL_TILING, Phase.GAME_OVER) and anything_left:
        add(
            StateProblem.PHASE_MISMATCH, "G1", "$.phase",
            f"tiles lie in the factories or the centre during the {phase.value} phase",
        )  # fmt: skip
    if phase is Phase.WALL_TILING and state.variant is Variant.COLORED:
        add(
            StateProblem.PHASE_MISMATCH, "G1", "$.phase",
            "the coloured wall never waits for a wall placement",
        )  # fmt: skip
    if phase in (Phase.REFILL, Phase.GAME_OVER) and (
        state.marker_holder is not None or any(MARKER in b.floor for b in state.players)
    ):
        add(
            StateProblem.MARKER_COUNT, "W5", "$.marker_holder",
            "between rounds the marker is with the next starting player, not on a floor",
        )  # fmt: skip
    if phase in (Phase.FACTORY_OFFER, Phase.REFILL) and any(
        b.has_complete_row() for b in state.players
    ):
        add(
            StateProblem.GAME_SHOULD_HAVE_ENDED, "E1", "$.players",
            "a wall has a complete row: the game ended after the tiling that completed it",
        )  # fmt: skip
