"""Impossible states: every reason a well-formed position cannot arise in a game.

``state.problems()`` lists them all; ``from_json`` raises
:class:`~azul_rules.InvalidStateError` with the list.  Each problem has a stable code
(:class:`StateProblem`), the RULES.md id it contradicts, a JSON path and a message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from azul_rules.board import PlayerBoard
from azul_rules.codes import StateProblem
from azul_rules.colors import COLORS, FLOOR_SIZE, MARKER, Color, wall_color
from azul_rules.errors import Problem
from azul_rules.grey import legal_columns, next_line, walls_can_end
from azul_rules.phases import Phase, Variant
from azul_rules.position import Position, structure_problems

__all__ = ["Problem", "StateProblem", "finished_rounds", "least_round", "state_problems"]

_Add = Callable[["StateProblem", str, str, str], None]


def state_problems(state: Position) -> tuple[Problem, ...]:
    """Every problem of ``state`` (empty when it can exist)."""
    found: list[Problem] = []

    def add(code: StateProblem, rule: str, path: str, message: str) -> None:
        found.append(Problem(code, rule, path, message))

    players = state.players
    found.extend(structure_problems(state))  # S1, S2, G2, T3: what the referee needs
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
    _check_phase(state, add)
    _check_between_rounds(state, add)
    _check_wall_growth(state, add)
    if state.variant is Variant.GREY:
        _check_grey(state, add)
    return tuple(found)


def _check_tile_counts(state: Position, add: _Add) -> None:
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


def _check_turn_and_marker(state: Position, add: _Add) -> None:
    n = len(state.players)
    holder = state.marker_holder  # out of range: reported by structure_problems
    if holder is not None and not 0 <= holder < n:
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


def _check_phase(state: Position, add: _Add) -> None:
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


def _check_between_rounds(state: Position, add: _Add) -> None:
    """W1, W5, R2: between two rounds (and at the end) every complete line has been
    tiled and every floor emptied; a seeded game deals itself and never waits for the
    table's draws."""
    if state.phase not in (Phase.REFILL, Phase.GAME_OVER):
        return
    if state.phase is Phase.REFILL and state.rng_state is not None:
        add(
            StateProblem.PHASE_MISMATCH, "R2", "$.rng_state",
            "a seeded game fills its factories itself: it never waits for a refill "
            "(rng_state must be null with external draws)",
        )  # fmt: skip
    for index, board in enumerate(state.players):
        if any(isinstance(t, Color) for t in board.floor):
            add(
                StateProblem.FLOOR_NOT_CLEARED, "W5", f"$.players[{index}].floor",
                f"player {index + 1}'s floor line holds tiles, but floors are emptied at "
                "the wall tiling",
            )  # fmt: skip
        for row, line in enumerate(board.pattern_lines):
            if line.color is not None and line.count == line.capacity == row + 1:
                add(
                    StateProblem.LINE_NOT_TILED, "W1",
                    f"$.players[{index}].pattern_lines[{row}]",
                    f"player {index + 1}'s pattern line {row + 1} is complete, but complete "
                    "lines are tiled at the end of the round",
                )  # fmt: skip


def finished_rounds(phase: Phase, round: int) -> int:
    """How many wall tilings a position of ``round`` in ``phase`` has behind it: the
    tiling under way counts during the wall tiling and at the end."""
    return round if phase in (Phase.WALL_TILING, Phase.GAME_OVER) else round - 1


def least_round(phase: Phase, boards: Sequence[PlayerBoard]) -> int:
    """The least round a position in ``phase`` with these walls can be in: each tiling
    adds at most 5 tiles to a wall (W1).  Used when a position gives no round."""
    most = max((sum(t is not None for row in b.wall for t in row) for b in boards), default=0)
    tilings = -(-most // 5)
    if phase in (Phase.WALL_TILING, Phase.GAME_OVER):
        return max(1, tilings)
    return tilings + 1


def _check_wall_growth(state: Position, add: _Add) -> None:
    """W1: a tiling puts at most one tile per pattern line, 5 per wall."""
    allowed = 5 * max(0, finished_rounds(state.phase, state.round))
    for index, board in enumerate(state.players):
        tiles = sum(t is not None for row in board.wall for t in row)
        if tiles > allowed:
            add(
                StateProblem.TOO_MANY_WALL_TILES, "W1", f"$.players[{index}].wall",
                f"player {index + 1}'s wall holds {tiles} tiles, but {allowed} at most can "
                f"be placed by round {state.round} ({state.phase.value}): 5 per tiling",
            )  # fmt: skip


def _check_grey(state: Position, add: _Add) -> None:
    """R7 between rounds; V3, V4 during the wall tiling."""
    if state.phase in (Phase.FACTORY_OFFER, Phase.REFILL) and not walls_can_end(state.players):
        add(
            StateProblem.GAME_SHOULD_HAVE_ENDED, "R7", "$.players",
            "no wall row of any player can ever be completed: the game ended after the "
            "tiling that made it so",
        )  # fmt: skip
    n = len(state.players)
    if state.phase is not Phase.WALL_TILING or not (
        0 <= state.current_player < n and 0 <= state.start_player < n
    ):
        return
    _check_tiling_order(state, add)


def _check_tiling_order(state: Position, add: _Add) -> None:
    """V3, V4: the players before the one deciding (from the round's starting player)
    have tiled every complete line; the one deciding has a line with a legal space."""
    n = len(state.players)
    current = state.current_player
    player = state.start_player
    while player != current:
        if next_line(state.players[player]) is not None:
            add(
                StateProblem.PHASE_MISMATCH, "V3", f"$.players[{player}].pattern_lines",
                f"player {player + 1} tiles before player {current + 1} this round, but "
                "still has a complete pattern line",
            )  # fmt: skip
        player = (player + 1) % n
    board = state.players[current]
    row = next_line(board)
    if row is None:
        add(
            StateProblem.PHASE_MISMATCH, "V3", "$.current_player",
            f"player {current + 1} is to place a tile on the wall, but has no complete "
            "pattern line",
        )  # fmt: skip
    elif not legal_columns(board, row):
        add(
            StateProblem.PHASE_MISMATCH, "V4", f"$.players[{current}].pattern_lines[{row}]",
            f"player {current + 1}'s pattern line {row + 1} has no legal wall space: it "
            "goes to the floor by itself, with nothing to decide",
        )  # fmt: skip
