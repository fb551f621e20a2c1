"""Impossible states: every reason a well-formed position cannot arise in a game.

``state.problems()`` lists them all; ``from_json`` raises
:class:`~azul_rules.InvalidStateError` with the list.  Each problem has a stable code
(:class:`StateProblem`), the rule book's id it contradicts, a JSON path and a message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from azul_rules.core.board import PlayerBoard
from azul_rules.core.codes import StateProblem
from azul_rules.core.colors import COLORS, FLOOR_SIZE, MARKER, Color, wall_color
from azul_rules.core.errors import Problem
from azul_rules.core.grey import legal_columns, next_line, walls_can_end
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.position import Position, structure_problems
from azul_rules.core.scoring import count_bonuses, most_points

__all__ = [
    "Problem", "StateProblem", "finished_rounds", "least_round", "round_one_problems",
    "state_problems", "waiting_lines",
]  # fmt: skip

TILES: Final = 100
"""Every tile of the game (S3), all in the bag before the first filling (S6)."""


class _Add(Protocol):
    def __call__(self, code: StateProblem, rule: str, path: str, **params: object) -> None: ...



def state_problems(state: Position) -> tuple[Problem, ...]:
    """Every problem of ``state`` (empty when it can exist)."""
    found: list[Problem] = []

    def add(code: StateProblem, rule: str, path: str, **params: object) -> None:
        found.append(Problem.of(code, rule, path, **params))

    players = state.players
    found.extend(structure_problems(state))  # S1, S2, G2, T3: what the referee needs
    for index, tiles in enumerate(state.factories):
        if len(tiles) > 4:
            add(
                StateProblem.FACTORY_OVERFULL, "R2", f"$.factories[{index}]",
                factory=index, count=len(tiles),
            )  # fmt: skip
    _check_tile_counts(state, add)
    for index, board in enumerate(players):
        _check_board(index, board, state.variant, add)
    _check_turn_and_marker(state, add)
    _check_phase(state, add)
    _check_between_rounds(state, add)
    _check_wall_growth(state, add)
    _check_scores(state, add)
    _check_game_over(state, add)
    _check_takes_so_far(state, add)
    if state.round == 1:
        found.extend(round_one_problems(state))
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
                StateProblem.TILE_COUNT, "S3", "$", count=count, color=color,
            )  # fmt: skip


def _check_board(index: int, board: PlayerBoard, variant: Variant, add: _Add) -> None:
    path = f"$.players[{index}]"
    if board.score < 0:
        add(StateProblem.NEGATIVE_SCORE, "W4", f"{path}.score", score=board.score)
    for row_index, line in enumerate(board.pattern_lines):
        line_path = f"{path}.pattern_lines[{row_index}]"
        if line.capacity != row_index + 1 or not 0 <= line.count <= line.capacity:
            add(
                StateProblem.LINE_OVER_CAPACITY, "S4", line_path,
                line=row_index, count=line.count, capacity=row_index + 1,
            )  # fmt: skip
        if line.color is not None and line.color in board.wall[row_index]:
            add(
                StateProblem.LINE_COLOR_ON_WALL, "P3", line_path,
                line=row_index, color=line.color, row=row_index,
            )  # fmt: skip
    for r, row in enumerate(board.wall):
        tiles = [t for t in row if t is not None]
        if len(tiles) != len(set(tiles)):
            add(
                StateProblem.ROW_REPEATED_COLOR, "P3", f"{path}.wall[{r}]", row=r,
            )  # fmt: skip
        if variant is Variant.COLORED:
            for c, tile in enumerate(row):
                if tile is not None and tile != wall_color(r, c):
                    add(
                        StateProblem.WALL_TILE_OFF_COLOR, "S5", f"{path}.wall[{r}][{c}]",
                        color=tile, space_color=wall_color(r, c),
                    )  # fmt: skip
    for c in range(5):
        column = [row[c] for row in board.wall if row[c] is not None]
        if len(column) != len(set(column)):
            add(
                StateProblem.COLUMN_REPEATED_COLOR, "V2", f"{path}.wall", column=c,
            )  # fmt: skip
    if len(board.floor) > FLOOR_SIZE:
        add(
            StateProblem.FLOOR_TOO_LONG, "F1", f"{path}.floor",
            count=len(board.floor), spaces=FLOOR_SIZE,
        )  # fmt: skip


def _check_turn_and_marker(state: Position, add: _Add) -> None:
    n = len(state.players)
    holder = state.marker_holder  # out of range: reported by structure_problems
    if holder is not None and not 0 <= holder < n:
        holder = None
    on_floors = [i for i, b in enumerate(state.players) if MARKER in b.floor]
    markers = sum(b.floor.count(MARKER) for b in state.players)
    if markers > 1:
        add(StateProblem.MARKER_COUNT, "T3", "$.players", reason="too_many", count=markers)
    elif holder is None and on_floors:
        add(
            StateProblem.MARKER_COUNT, "T3", f"$.players[{on_floors[0]}].floor",
            reason="not_held",
        )  # fmt: skip
    elif holder is not None and on_floors != [holder]:
        board = state.players[holder]
        if on_floors or len(board.floor) < FLOOR_SIZE:
            add(
                StateProblem.MARKER_COUNT, "F3", f"$.players[{holder}].floor",
                reason="off_floor", player=holder,
            )  # fmt: skip


def _check_phase(state: Position, add: _Add) -> None:
    phase = state.phase
    anything_left = bool(state.center) or any(state.factories)
    if phase is Phase.FACTORY_OFFER and not anything_left:
        add(
            StateProblem.PHASE_MISMATCH, "P7", "$.phase", reason="offer_empty",
        )  # fmt: skip
    if phase in (Phase.REFILL, Phase.WALL_TILING, Phase.GAME_OVER) and anything_left:
        add(
            StateProblem.PHASE_MISMATCH, "G1", "$.phase", reason="tiles_left", phase=phase.value,
        )  # fmt: skip
    if phase is Phase.WALL_TILING and state.variant is Variant.COLORED:
        add(
            StateProblem.PHASE_MISMATCH, "G1", "$.phase", reason="colored_tiling",
        )  # fmt: skip
    if phase in (Phase.REFILL, Phase.GAME_OVER) and (
        state.marker_holder is not None or any(MARKER in b.floor for b in state.players)
    ):
        add(
            StateProblem.MARKER_COUNT, "W5", "$.marker_holder", reason="between_rounds",
        )  # fmt: skip
    if phase in (Phase.FACTORY_OFFER, Phase.REFILL) and any(
        b.has_complete_row() for b in state.players
    ):
        add(
            StateProblem.GAME_SHOULD_HAVE_ENDED, "E1", "$.players", reason="complete_row",
        )  # fmt: skip


def _check_between_rounds(state: Position, add: _Add) -> None:
    """W1, W5, R2, R4: between two rounds (and at the end) every complete line has been
    tiled and every floor emptied; a seeded game deals itself and never waits for the
    table's draws; the round's starting player fills the factories, then plays first."""
    if state.phase not in (Phase.REFILL, Phase.GAME_OVER):
        return
    if state.phase is Phase.REFILL and state.rng_state is not None:
        add(
            StateProblem.PHASE_MISMATCH, "R2", "$.rng_state", reason="seeded_refill",
        )  # fmt: skip
    if state.phase is Phase.REFILL and state.current_player != state.start_player:
        add(
            StateProblem.TURN_OUT_OF_ORDER, "R4", "$.current_player", reason="refill",
            player=state.current_player, starter=state.start_player,
        )  # fmt: skip
    for index, board in enumerate(state.players):
        if any(isinstance(t, Color) for t in board.floor):
            add(
                StateProblem.FLOOR_NOT_CLEARED, "W5", f"$.players[{index}].floor",
                player=index,
            )  # fmt: skip
        for row, line in enumerate(board.pattern_lines):
            if line.color is not None and line.count == line.capacity == row + 1:
                add(
                    StateProblem.LINE_NOT_TILED, "W1",
                    f"$.players[{index}].pattern_lines[{row}]", player=index, line=row,
                )  # fmt: skip


def _check_scores(state: Position, add: _Add) -> None:
    """W3, W4, E2: a score is at most what its wall's placements can have scored
    (:func:`~azul_rules.core.scoring.most_points`; the floor only takes points away),
    and at the end those plus the end bonuses; and at the end at least the bonuses,
    which are added after the floor's clamp at 0."""
    over = state.phase is Phase.GAME_OVER
    for index, board in enumerate(state.players):
        path = f"$.players[{index}].score"
        placed = most_points(board.wall)
        tiles = sum(t is not None for row in board.wall for t in row)
        bonuses = count_bonuses(board.wall).points if over else 0
        if board.score > placed + bonuses and not tiles:
            add(
                StateProblem.SCORE_OUT_OF_REACH, "W3", path, reason="no_tile", player=index,
                score=board.score,
            )  # fmt: skip
        elif board.score > placed + bonuses:
            extra = {"placed": placed, "bonuses": bonuses} if over else {}
            add(
                StateProblem.SCORE_OUT_OF_REACH, "E2" if over else "W3", path,
                reason="above_final" if over else "above", player=index, score=board.score,
                tiles=tiles, most=placed + bonuses, **extra,
            )  # fmt: skip
        elif over and 0 <= board.score < bonuses:
            add(
                StateProblem.SCORE_OUT_OF_REACH, "E2", path, reason="below_bonuses",
                player=index, score=board.score, bonuses=bonuses,
            )  # fmt: skip


def _check_game_over(state: Position, add: _Add) -> None:
    """E1, R6, R7: a game ends only after a tiling that completes a wall row (E1), a
    filling that deals nothing, the bag and the lid being empty (R6), or, on the grey
    wall, a tiling after which no row can be completed any more (R7)."""
    if state.phase is not Phase.GAME_OVER:
        return
    if any(board.has_complete_row() for board in state.players):
        return
    if not state.bag and not state.lid:
        return
    grey = state.variant is Variant.GREY
    if grey and not walls_can_end(state.players):
        return
    add(
        StateProblem.GAME_OVER_WITHOUT_CAUSE, "E1", "$.phase",
        reason="grey" if grey else "colored", left=len(state.bag) + len(state.lid),
    )  # fmt: skip


def _check_takes_so_far(state: Position, add: _Add) -> None:
    """R2, T2, T3, R4, G2, W1, W5: during the factory offer, what the takes so far can
    have left.  A factory is filled with 4 tiles while the bag holds any after the
    filling (R2), and a take empties it (T2).  Every factory holding tiles means nobody
    has taken yet: the centre is empty, the marker there, the floors empty and no
    pattern line complete (the wall tiling emptied every complete one), and the round's
    starting player is to move (R4).  While the marker lies in the centre, nobody has
    taken from it (T3): every take so far emptied a factory, one turn each (G2)."""
    if state.phase is not Phase.FACTORY_OFFER:
        return
    factories = state.factories
    if state.bag:
        for index, tiles in enumerate(factories):
            if 0 < len(tiles) < 4:
                add(
                    StateProblem.FACTORY_SHORT, "R2", f"$.factories[{index}]",
                    factory=index, count=len(tiles), bag=len(state.bag),
                )  # fmt: skip
    untaken = all(factories)
    if untaken:
        _check_untaken_round(state, add)
    n = len(state.players)
    start, current = state.start_player, state.current_player
    if state.marker_holder is None and (untaken or state.bag) and 0 <= start < n:
        taken = factories.count(())
        expected = (start + taken) % n
        if current != expected and not taken:
            add(
                StateProblem.TURN_OUT_OF_ORDER, "R4", "$.current_player", reason="no_take",
                player=current, starter=start,
            )  # fmt: skip
        elif current != expected:
            add(
                StateProblem.TURN_OUT_OF_ORDER, "G2", "$.current_player",
                reason="factory_takes", player=current, due=expected, starter=start,
                taken=taken,
            )  # fmt: skip


def _check_untaken_round(state: Position, add: _Add) -> None:
    """T2, T3, W1, W5: the traces of a take while every factory still holds its tiles."""
    if state.center:
        add(
            StateProblem.NO_TAKE_YET, "T2", "$.center", reason="center",
            count=len(state.center),
        )  # fmt: skip
    if state.marker_holder is not None:
        add(StateProblem.NO_TAKE_YET, "T3", "$.marker_holder", reason="marker")
    for index, board in enumerate(state.players):
        path = f"$.players[{index}]"
        tiles = sum(isinstance(item, Color) for item in board.floor)  # the marker: above
        if tiles:
            add(
                StateProblem.NO_TAKE_YET, "W5", f"{path}.floor", reason="floor",
                player=index, count=tiles,
            )  # fmt: skip
        for row, line in enumerate(board.pattern_lines):
            if line.color is not None and line.count == line.capacity == row + 1:
                add(
                    StateProblem.NO_TAKE_YET, "W1", f"{path}.pattern_lines[{row}]",
                    reason="line", player=index, line=row,
                )  # fmt: skip


def round_one_problems(state: Position) -> tuple[Problem, ...]:
    """S6, R2, F2: what ``state`` would break if it were in round 1, before any wall
    tiling.  Every tile starts in the bag (S6); the first filling takes 4 a factory and
    the bag keeps the rest until the next filling (R2); before the first tiling, tiles
    reach the lid only from a full floor line (F2).  ``state_problems`` reports these
    in round 1; a position read without its round is put in round 2 when it has any."""
    found: list[Problem] = []
    phase = state.phase
    dealt = TILES - 4 * len(state.factories)
    if phase is Phase.REFILL and len(state.bag) != TILES:
        found.append(Problem.of(
            StateProblem.TILES_FROM_NOWHERE, "S6", "$.bag", reason="refill", bag=len(state.bag),
        ))  # fmt: skip
    elif phase in (Phase.FACTORY_OFFER, Phase.WALL_TILING) and len(state.bag) != dealt:
        found.append(Problem.of(
            StateProblem.TILES_FROM_NOWHERE, "R2", "$.bag", reason="bag", bag=len(state.bag),
            expected=dealt,
        ))  # fmt: skip
    if phase is Phase.FACTORY_OFFER and state.lid and all(
        len(board.floor) < FLOOR_SIZE for board in state.players
    ):
        found.append(Problem.of(
            StateProblem.TILES_FROM_NOWHERE, "F2", "$.lid", reason="lid", count=len(state.lid),
        ))  # fmt: skip
    return tuple(found)


def finished_rounds(phase: Phase, round: int) -> int:
    """How many wall tilings a position of ``round`` in ``phase`` has behind it: the
    tiling under way counts during the wall tiling and at the end."""
    return round if phase in (Phase.WALL_TILING, Phase.GAME_OVER) else round - 1


def least_round(phase: Phase, boards: Sequence[PlayerBoard]) -> int:
    """The least round a position in ``phase`` with these walls can be in: each tiling
    adds at most one tile to a wall row and 5 to a wall (W1), and during the wall
    tiling a complete pattern line still waits for this round's tile of its row.  Used
    when a position gives no round."""
    tiling = phase is Phase.WALL_TILING
    tilings = max((_tilings_needed(board, tiling) for board in boards), default=0)
    if phase in (Phase.WALL_TILING, Phase.GAME_OVER):
        return max(1, tilings)
    return tilings + 1


def waiting_lines(board: PlayerBoard) -> tuple[int, ...]:
    """During the (grey) wall tiling, the complete pattern lines still to be tiled this
    round (W1, V3): a line is emptied when tiled, so every complete one is waiting, and
    its wall row has not had this round's tile yet."""
    return tuple(
        row for row, line in enumerate(board.pattern_lines)
        if line.color is not None and line.count == line.capacity
    )  # fmt: skip


def _tilings_needed(board: PlayerBoard, tiling: bool) -> int:
    """The fewest wall tilings that can have laid ``board``'s wall (W1): one tile per
    row, 5 per wall, each time.  During the wall tiling (``tiling``), each complete
    line's row is owed a tile of the tiling under way, so it counts as laid."""
    rows = [sum(t is not None for t in row) for row in board.wall]
    if tiling:
        for row in waiting_lines(board):
            rows[row] += 1
    return max(-(-sum(rows) // 5), *rows)


def _check_wall_growth(state: Position, add: _Add) -> None:
    """W1: a tiling puts at most one tile per pattern line on its wall row, so at most
    one per row and 5 per wall.  During the wall tiling, a complete line still waiting
    (V3) means its row has not had this round's tile: that row holds at most one tile
    per earlier tiling, and the wall 5 per tiling less one per waiting line."""
    tilings = max(0, finished_rounds(state.phase, state.round))
    tiling = state.phase is Phase.WALL_TILING
    for index, board in enumerate(state.players):
        waiting = waiting_lines(board) if tiling else ()
        rows = [sum(t is not None for t in row) for row in board.wall]
        allowed = 5 * tilings - len(waiting)
        if sum(rows) > allowed:
            add(
                StateProblem.TOO_MANY_WALL_TILES, "W1", f"$.players[{index}].wall",
                player=index, wall_tiles=sum(rows), allowed=allowed,
                round=state.round, phase=state.phase.value,
                **({"reason": "waiting", "waiting": len(waiting)} if waiting else {}),
            )  # fmt: skip
        for row, tiles in enumerate(rows):
            allowed = tilings - (row in waiting)
            if tiles > allowed:
                add(
                    StateProblem.TOO_MANY_WALL_TILES, "W1", f"$.players[{index}].wall[{row}]",
                    player=index, row=row, wall_tiles=tiles, allowed=allowed,
                    round=state.round, phase=state.phase.value,
                    reason="row_waiting" if row in waiting else "row",
                )  # fmt: skip


def _check_grey(state: Position, add: _Add) -> None:
    """R7 between rounds; V3, V4 during the wall tiling."""
    if state.phase in (Phase.FACTORY_OFFER, Phase.REFILL) and not walls_can_end(state.players):
        add(
            StateProblem.GAME_SHOULD_HAVE_ENDED, "R7", "$.players", reason="stuck",
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
                reason="tiled_late", player=player, current=current,
            )  # fmt: skip
        player = (player + 1) % n
    board = state.players[current]
    row = next_line(board)
    if row is None:
        add(
            StateProblem.PHASE_MISMATCH, "V3", "$.current_player",
            reason="nothing_to_place", player=current,
        )  # fmt: skip
    elif not legal_columns(board, row):
        add(
            StateProblem.PHASE_MISMATCH, "V4", f"$.players[{current}].pattern_lines[{row}]",
            reason="no_legal_space", player=current, line=row,
        )  # fmt: skip
