"""Auditing claimed scores: which documented mistake explains a wrong claim.

Given the position at the end of a factory offer (every factory and the centre empty,
the pattern lines and floors as they are) and what the players claim the wall tiling
gave, :func:`audit` recomputes the tiling (W1-W5), the end (E1-E4) and, for every claim
that differs, looks for the documented mistakes that reproduce it: a mistake is named
only when recomputing with it gives exactly the claimed figure.  One mistake alone is
tried first, then two together; a claim that none explains is ``SCORE_MISCOUNT``.

Coloured wall only: a grey-wall tiling depends on the players' column choices.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from azul_rules.board import PlayerBoard
from azul_rules.colors import FLOOR_SIZE, FLOOR_TOTALS, MARKER, Color
from azul_rules.errors import ErrorCode, FormatError, Result, Violation
from azul_rules.phases import Variant
from azul_rules.rounds import tile_colored
from azul_rules.scoring import WallPlacement, decide_outcome, end_bonuses
from azul_rules.state import GameState

__all__ = [
    "Claim",
    "audit",
    "claim_from_dict",
    "claim_from_json",
    "counted_with",
    "position_from_json",
]

E = ErrorCode

# -- the claim -----------------------------------------------------------------------------


@attrs.frozen
class Claim:
    """What the players claim the wall tiling gave.

    ``scores``: each player's score after the tiling and the floor, before any end
    bonus.  Optional: ``pattern_lines`` (per player, the five lines as left after the
    tiling, or ``None``), ``game_over`` (whether the game ends), ``bonuses`` (each
    player's end-bonus points) and ``winners``.
    """

    scores: tuple[int, ...]
    pattern_lines: tuple[tuple[tuple[Color, ...], ...] | None, ...] | None = None
    game_over: bool | None = None
    bonuses: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None


# -- the mistaken ways of scoring a tile (W3) ----------------------------------------------


def _run(wall: Sequence[Sequence[Color | None]], row: int, col: int, dr: int, dc: int,
         jump_gaps: bool) -> int:  # fmt: skip
    length, r, c = 0, row + dr, col + dc
    while 0 <= r < 5 and 0 <= c < 5:
        if wall[r][c] is not None:
            length += 1
        elif not jump_gaps:
            break
        r, c = r + dr, c + dc
    return length


def _lines_through(wall: Sequence[Sequence[Color | None]], row: int, col: int,
                   jump_gaps: bool = False) -> tuple[int, int, int, int]:  # fmt: skip
    """The runs through a tile: across, down, and the two diagonals."""

    def through(dr: int, dc: int) -> int:
        return (
            1 + _run(wall, row, col, dr, dc, jump_gaps) + _run(wall, row, col, -dr, -dc, jump_gaps)
        )

    return through(0, 1), through(1, 0), through(1, 1), through(1, -1)


def _correct(runs: tuple[int, ...]) -> int:
    total = sum(r for r in runs[:2] if r > 1)
    return total or 1


def _diagonal(wall: Any, row: int, col: int) -> int:
    across, down, diag, anti = _lines_through(wall, row, col)
    return sum(r for r in (across, down, diag, anti) if r > 1) or 1


def _gap(wall: Any, row: int, col: int) -> int:
    return _correct(_lines_through(wall, row, col, jump_gaps=True))


def _empty_direction(wall: Any, row: int, col: int) -> int:
    across, down, _, _ = _lines_through(wall, row, col)
    return across + down if across > 1 or down > 1 else 1


def _cross_once(wall: Any, row: int, col: int) -> int:
    across, down, _, _ = _lines_through(wall, row, col)
    if across > 1 and down > 1:
        return across + down - 1
    return _correct((across, down))


def counted_with(mistake: ErrorCode, wall: Any, row: int, column: int) -> str:
    """The runs a claimant scoring with ``mistake`` must have counted, as a sum such
    as ``"3 + 2 - 1"`` (language-neutral, for messages)."""
    across, down, diag, anti = _lines_through(wall, row, column)
    if mistake is E.DIAGONAL_COUNTED:
        terms = [str(r) for r in (across, down, diag, anti) if r > 1]
    elif mistake is E.GAP_COUNTED:
        terms = [str(r) for r in _lines_through(wall, row, column, jump_gaps=True)[:2] if r > 1]
    elif mistake is E.EMPTY_DIRECTION_COUNTED:
        terms = [str(across), str(down)]
    else:
        return f"{across} + {down} - 1"
    return " + ".join(terms) or "1"


TILE_MISTAKES: Final[dict[ErrorCode, Callable[[Any, int, int], int]]] = {
    E.DIAGONAL_COUNTED: _diagonal,
    E.GAP_COUNTED: _gap,
    E.EMPTY_DIRECTION_COUNTED: _empty_direction,
    E.CROSS_COUNTED_ONCE: _cross_once,
}


# -- what the rules give, and what each mistake would give -----------------------------


@attrs.frozen
class _Tiling:
    player: int
    before: int
    placements: tuple[WallPlacement, ...]
    walls: tuple[Any, ...]  # the wall just after each placement
    floor: tuple[object, ...]
    score: int  # after the floor, before bonuses


def _tile_all(state: GameState) -> list[_Tiling]:
    found = []
    for index, board in enumerate(state.players):
        tiled, record = tile_colored(index, board, [])
        walls = []
        wall = [list(row) for row in board.wall]
        for placed in record.placements:
            wall[placed.row][placed.column] = placed.color
            walls.append(tuple(tuple(r) for r in wall))
        found.append(_Tiling(index, board.score, record.placements, tuple(walls), board.floor,
                             tiled.score))  # fmt: skip
    return found


def _floor_options(floor: tuple[object, ...]) -> list[tuple[tuple[ErrorCode, ...], int]]:
    """The floor penalty the rules give, and the ones the floor mistakes give."""
    options: list[tuple[tuple[ErrorCode, ...], int]] = [((), FLOOR_TOTALS[len(floor)])]
    if MARKER in floor:
        options.append(((E.MARKER_PENALTY_FORGOTTEN,), FLOOR_TOTALS[len(floor) - 1]))
    if len(floor) == FLOOR_SIZE:
        for extra in range(1, 15):  # tiles past the 7 spaces penalised at -3 each
            options.append(((E.FLOOR_OVERFLOW_PENALIZED,), 14 + 3 * extra))
    return options


def _explain(t: _Tiling, claimed: int) -> list[Violation] | None:
    """The fewest mistakes (one, then two) that turn the rules' score into ``claimed``."""
    correct_tiles = [p.points for p in t.placements]
    tile_options: list[tuple[tuple[ErrorCode, ...], list[int], list[int]]] = [
        ((), correct_tiles, [])
    ]
    for code, model in TILE_MISTAKES.items():
        mistaken = [model(w, p.row, p.column) for w, p in zip(t.walls, t.placements, strict=True)]
        changed = [
            i for i, (a, b) in enumerate(zip(mistaken, correct_tiles, strict=True)) if a != b
        ]
        if changed:
            tile_options.append(((code,), mistaken, changed))
            for i in changed if len(changed) > 1 else []:  # the mistake on one tile only
                one = list(correct_tiles)
                one[i] = mistaken[i]
                tile_options.append(((code,), one, [i]))
    best: list[Violation] | None = None
    best_size = 3
    for (tile_codes, tiles, changed), (floor_codes, penalty), clamp in itertools.product(
        tile_options, _floor_options(t.floor), (True, False)
    ):
        raw = t.before + sum(tiles) - penalty
        score = max(0, raw) if clamp else raw
        codes = tile_codes + floor_codes + (() if clamp or raw >= 0 else (E.SCORE_BELOW_ZERO,))
        if not clamp and raw >= 0:
            continue
        if score != claimed or not codes or len(codes) >= best_size:
            continue
        best_size = len(codes)
        best = _violations(t, claimed, tile_codes, tiles, changed, floor_codes, penalty)
        if not clamp:
            best.append(Violation.of(E.SCORE_BELOW_ZERO, "W4", player=t.player,
                                     claimed=claimed, correct=t.score))  # fmt: skip
    return best


def _violations(t: _Tiling, claimed: int, tile_codes: tuple[ErrorCode, ...], tiles: list[int],
                changed: list[int], floor_codes: tuple[ErrorCode, ...],
                penalty: int) -> list[Violation]:  # fmt: skip
    found = []
    for code in tile_codes:
        for i in changed:
            p = t.placements[i]
            found.append(Violation.of(
                code, "W3", reason="tile", player=t.player, row=p.row, column=p.column,
                color=p.color, claimed=tiles[i], correct=p.points,
                horizontal=p.horizontal, vertical=p.vertical,
                counted=counted_with(code, t.walls[i], p.row, p.column),
            ))  # fmt: skip
    for code in floor_codes:
        rule = "F3" if code is E.MARKER_PENALTY_FORGOTTEN else "F2"
        found.append(Violation.of(code, rule, reason="floor", player=t.player,
                                  claimed=penalty, correct=FLOOR_TOTALS[len(t.floor)]))  # fmt: skip
    return found


# -- the audit -------------------------------------------------------------------------------


def audit(state: GameState, claim: Claim) -> Result:
    """Every mistake in ``claim`` about the wall tiling that follows ``state``.

    ``state`` is the position when the factory offer has just ended (coloured wall).
    Raises ``FormatError`` when the claim does not fit the position.
    """
    _check_fits(state, claim)
    tilings = _tile_all(state)
    found: list[Violation] = []
    boards_after = [_board_after(state.players[t.player], t) for t in tilings]
    ends = any(b.has_complete_row() for b in boards_after)
    for t, claimed in zip(tilings, claim.scores, strict=True):
        if claimed == t.score:
            continue
        if claim.game_over and claimed == t.before and t.score != t.before:
            found.append(Violation.of(E.GAME_ENDED_EARLY, "E1", reason="skipped", player=t.player,
                                      claimed=claimed, correct=t.score))  # fmt: skip
            continue
        explained = _explain(t, claimed)
        if explained is None:
            found.append(Violation.of(E.SCORE_MISCOUNT, "W3", player=t.player,
                                      claimed=claimed, correct=t.score))  # fmt: skip
        else:
            found.extend(explained)
    if claim.pattern_lines is not None:
        found.extend(_cleared_lines(state, claim))
    if claim.game_over and not ends:
        found.append(Violation.of(E.GAME_ENDED_EARLY, "E1", reason="no_row"))
    final = [b._replace(score=b.score + end_bonuses(b.wall).points) for b in boards_after]
    if ends and claim.bonuses is not None:
        for index, (board, claimed_bonus) in enumerate(
            zip(boards_after, claim.bonuses, strict=True)
        ):
            bonus = end_bonuses(board.wall)
            if claimed_bonus != bonus.points:
                found.append(Violation.of(
                    E.BONUS_MISCOUNT, "E2", player=index, claimed=claimed_bonus,
                    correct=bonus.points, complete_rows=bonus.rows, complete_columns=bonus.columns,
                    complete_colors=bonus.colors,
                ))  # fmt: skip
    if ends and claim.winners is not None:
        winners = decide_outcome(final).winners
        if tuple(sorted(claim.winners)) != winners:
            found.append(Violation.of(E.WRONG_WINNER, "E4", claimed_players=tuple(claim.winners),
                                      correct_players=winners))  # fmt: skip
    return Result.of(found)


def _board_after(board: PlayerBoard, t: _Tiling) -> PlayerBoard:
    tiled, _ = tile_colored(t.player, board, [])
    return tiled


def _cleared_lines(state: GameState, claim: Claim) -> list[Violation]:
    """W2: an incomplete line keeps its tiles."""
    found = []
    assert claim.pattern_lines is not None
    for index, (board, lines) in enumerate(zip(state.players, claim.pattern_lines, strict=True)):
        if lines is None:
            continue
        for row, (line, claimed) in enumerate(zip(board.pattern_lines, lines, strict=True)):
            if 0 < line.count < line.capacity and len(claimed) < line.count:
                found.append(Violation.of(E.INCOMPLETE_LINE_CLEARED, "W2", player=index, line=row,
                                          count=line.count, capacity=line.capacity))  # fmt: skip
    return found


def _check_fits(state: GameState, claim: Claim) -> None:
    errors = []
    n = len(state.players)
    if state.variant is not Variant.COLORED:
        errors.append(("$", "audits cover the coloured wall (a grey tiling depends on choices)"))
    if state.center or any(state.factories):
        errors.append(("$.factories", "the factory offer is not over: tiles are left to take"))
    for name in ("scores", "bonuses", "pattern_lines"):
        value = getattr(claim, name)
        if value is not None and len(value) != n:
            errors.append((f"$.{name}", f"expected one entry per player ({n}), got {len(value)}"))
    if claim.winners is not None and any(not 0 <= w < n for w in claim.winners):
        errors.append(("$.winners", f"players are numbered 0 to {n - 1}"))
    if errors:
        raise FormatError("; ".join(f"{p}: {m}" for p, m in errors), tuple(errors))


def claim_from_dict(data: object) -> Claim:
    """Read a claim (see ``docs/audit.md``); ``FormatError`` names every problem."""
    from azul_rules.serialization import _BY_NAME

    errors: list[tuple[str, str]] = []
    if not isinstance(data, dict):
        raise FormatError("$: a claim is a JSON object", (("$", "expected a JSON object"),))
    known = {"scores", "pattern_lines", "game_over", "bonuses", "winners"}
    for key in sorted(set(data) - known):
        errors.append((f"$.{key}", "unknown field"))

    def ints(name: str, required: bool) -> tuple[int, ...] | None:
        value = data.get(name)
        if value is None:
            if required:
                errors.append((f"$.{name}", "required field missing"))
            return None
        if not isinstance(value, list) or any(type(v) is not int for v in value):
            errors.append((f"$.{name}", "expected a JSON array of integers"))
            return None
        return tuple(value)

    scores = ints("scores", True)
    bonuses = ints("bonuses", False)
    winners = ints("winners", False)
    game_over = data.get("game_over")
    if game_over is not None and not isinstance(game_over, bool):
        errors.append(("$.game_over", "expected true or false"))
    lines: list[tuple[tuple[Color, ...], ...] | None] | None = None
    raw_lines = data.get("pattern_lines")
    if raw_lines is not None:
        lines = []
        if not isinstance(raw_lines, list):
            errors.append(("$.pattern_lines", "expected a JSON array (one entry per player)"))
            raw_lines = []
        for p, board in enumerate(raw_lines):
            if board is None:
                lines.append(None)
                continue
            if not isinstance(board, list) or len(board) != 5:
                errors.append((f"$.pattern_lines[{p}]", "expected 5 pattern lines"))
                continue
            parsed = []
            for i, line in enumerate(board):
                if not isinstance(line, list) or any(c not in _BY_NAME for c in line):
                    errors.append((f"$.pattern_lines[{p}][{i}]", "expected a list of colours"))
                    line = []
                parsed.append(tuple(_BY_NAME[c] for c in line))
            lines.append(tuple(parsed))
    if errors or scores is None:
        raise FormatError("; ".join(f"{p}: {m}" for p, m in errors), tuple(errors))
    return Claim(scores, tuple(lines) if lines is not None else None, game_over, bonuses, winners)


def claim_from_json(text: str | bytes) -> Claim:
    """Read a claim from JSON text."""
    from azul_rules.serialization import _load

    return claim_from_dict(_load(text))


def position_from_json(text: str | bytes) -> GameState:
    """Read the position an audit starts from: a state whose factory offer has just
    ended (every factory and the centre empty) is accepted here."""
    from azul_rules.serialization import position_at_offer_end

    state: GameState = position_at_offer_end(text)
    return state
