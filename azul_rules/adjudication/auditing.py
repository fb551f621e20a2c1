"""Auditing a claimed wall tiling: the tiles as the players laid them, and the figures.

Given the position at the end of a factory offer (every factory and the centre empty,
pattern lines and floors as they are) and a :class:`~azul_rules.adjudication.claims.Claim`,
:func:`audit` recomputes the wall tiling (W1-W5, V1-V4) and the end (E1-E4, R7) and names
every difference:

* the board as the players left it, when claimed: a tile on a space of another colour
  (S5) or in another row (W1), a colour twice in a row (P3, V5) or a column (V2), a tile
  on an occupied space (V1), a line with no legal space not sent to the floor (V4), a
  complete line left untiled (W1) or with its leftovers kept (W1), an incomplete line
  tiled or emptied (W2), a floor line not cleared (W5), tiles appearing or vanishing,
  and the lid when it was counted;
* the scores: a mistake is named only when recomputing *with that mistake* gives
  exactly the claimed figure (:mod:`azul_rules.adjudication.miscount`); a score that the players'
  own (wrong) tiling gives is not a second mistake; anything else is ``SCORE_MISCOUNT``;
* the end: whether the game ends, the bonuses and the winners.

On the grey wall the claimed wall *is* the players' choice of columns: each placement is
checked as a ``PlaceTile`` would be, and the scores are recomputed from those columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from azul_rules.adjudication.claims import (
    Claim,
    ClaimedBoard,
    claim_from_dict,
    claim_from_json,
    validated,
)
from azul_rules.adjudication.miscount import Tiling, counted_with, explain
from azul_rules.core.board import PlayerBoard, Wall, pattern_line
from azul_rules.core.colors import (
    COLORS,
    FLOOR_SIZE,
    Color,
    FloorItem,
    color_counts,
    wall_color,
    wall_column,
)
from azul_rules.core.errors import ErrorCode, FormatError, Result, Violation
from azul_rules.core.grey import legal_columns, walls_can_end
from azul_rules.core.phases import Variant
from azul_rules.core.rounds import place_on_wall, tile_colored
from azul_rules.core.scoring import WallPlacement, decide_outcome, end_bonuses, floor_penalty, runs
from azul_rules.core.state import GameState
from azul_rules.formats.serialization import position_at_offer_end, position_at_offer_end_from_dict

__all__ = [
    "Claim",
    "ClaimedBoard",
    "audit",
    "claim_from_dict",
    "claim_from_json",
    "counted_with",
    "expected_boards",
    "position_from_dict",
    "position_from_json",
]

E = ErrorCode
_Cell = tuple[int, int, Color]  # row, column, colour of a tile the claimed wall gained


@attrs.frozen
class _Judged:
    """One player's audited tiling: what was wrong, and what the audit goes on from."""

    violations: tuple[Violation, ...]
    after: PlayerBoard  # the rules' board after the tiling (or as laid, see _reference)
    lid: tuple[Color, ...] | None  # what the rules' tiling puts in the lid, if known
    shown: tuple[Color, ...]  # the tiles the claim leaves on this board (for the lid)


def audit(state: GameState, claim: Claim) -> Result:
    """Every mistake in ``claim`` about the wall tiling that follows ``state``.

    ``state`` is the position when the factory offer has just ended, on either wall.

    :raises FormatError: with JSON paths, for a claim that is malformed or does not fit
        the position, a grey-wall claim that leaves the players' choice of columns
        unknown (give each player's wall), and a ``state`` that is not a ``GameState``.
    """
    _check_state(state)
    claim = validated(claim)
    _check_fits(state, claim)
    return audit_checked(state, claim)


def _check_state(state: object) -> None:
    """``FormatError`` for a ``state`` that is not a ``GameState``."""
    if not isinstance(state, GameState):
        raise FormatError(f"$: expected a GameState, got {type(state).__name__}",
                          (("$", "expected a GameState"),))  # fmt: skip


def audit_checked(state: GameState, claim: Claim) -> Result:
    """:func:`audit` of a claim already validated and known to fit ``state`` (the
    scoresheet audit builds its claims itself)."""
    judged = [_judge_player(state, p, claim) for p in range(len(state.players))]
    found = [v for j in judged for v in j.violations]
    found += _judge_lid(state, claim, judged)
    found += _judge_end(state, claim, [j.after for j in judged])
    return Result.of(found)


def expected_boards(state: GameState, claim: Claim | None = None) -> tuple[PlayerBoard, ...]:
    """The boards the rules give after the tiling that follows ``state`` (scores after
    the floor, before any bonus).  On the grey wall the columns come from ``claim``'s
    walls (a column the rules do not allow is taken as laid).  Raises ``FormatError``
    as :func:`audit` does (a ``state`` that is not a ``GameState`` included)."""
    _check_state(state)
    claim = validated(claim) if claim is not None else Claim(scores=(0,) * len(state.players))
    _check_fits(state, claim, need_columns=claim.boards is not None)
    return tuple(_judge_player(state, p, claim).after for p in range(len(state.players)))


# -- one player's tiling ---------------------------------------------------------------------


class _PlayerAudit:
    """Compares one player's claimed board with the tiling of the rules."""

    def __init__(self, player: int, board: PlayerBoard, claimed: ClaimedBoard, grey: bool):
        self.player, self.board, self.claimed, self.grey = player, board, claimed, grey
        self.found: list[Violation] = []
        lines = board.pattern_lines
        self.complete = {r: line.color for r, line in enumerate(lines)
                         if line.color is not None and line.count == line.capacity}  # fmt: skip
        self.own: dict[int, int] = {}  # complete line -> column of its tile in its own row
        self.tiled: set[int] = set()  # complete lines whose tile reached the wall somewhere
        self.to_floor: set[int] = set()  # grey lines with no legal space (V4), as laid
        self.reported: set[int] = set()  # lines already named in a violation
        self.kept: set[int] = set()  # lines with no legal space that the players kept (V4)
        self.laid: list[WallPlacement] = []
        self.laid_walls: list[Wall] = []
        self.laid_wall: Wall = board.wall

    def add(self, code: ErrorCode, rule: str, reason: str, **params: object) -> None:
        self.found.append(Violation.of(code, rule, reason=reason, player=self.player, **params))

    # The wall as laid ---------------------------------------------------------------------

    def check_wall(self, wall: Wall) -> None:
        """Each tile the claimed wall gained or lost, row by row from the top (W1, V3)."""
        before = self.board.wall
        current = [list(row) for row in before]
        for r in range(5):
            for c in range(5):
                if before[r][c] is not None and wall[r][c] is None:
                    self.add(E.TILE_COUNT_MISMATCH, "S3", "removed", row=r, column=c,
                             color=before[r][c])  # fmt: skip
                    current[r][c] = None
        gained = [(r, c, t) for r in range(5) for c in range(5)
                  if (t := wall[r][c]) is not None and t != before[r][c]]  # fmt: skip
        for r, c, color in gained:
            if self.complete.get(r) == color and r not in self.own:
                self.own[r] = c
        strays = [(r, c, t) for r, c, t in gained if self.own.get(r) != c]
        self._match_strays(strays, wall)
        for r in range(5):
            self._lay_row(r, current, [cell for cell in gained if cell[0] == r])
        self.laid_wall = tuple(tuple(row) for row in current)
        for r in self.complete:
            if r not in self.tiled and r not in self.to_floor:
                self.add(E.WRONG_PHASE, "W1", "untiled", line=r, color=self.complete[r])
                self.reported.add(r)

    def _match_strays(self, strays: list[_Cell], wall: Wall) -> None:
        """Tiles away from their line's row: each is matched to a complete line of its
        colour whose tile is missing (a tile in the wrong row), or named."""
        missing = [r for r in self.complete if r not in self.own]
        for r, c, color in strays:
            line = next((m for m in missing if self.complete[m] == color), None)
            if line is not None:
                missing.remove(line)
                self.tiled.add(line)
            twice = [k for k in range(5) if k != c and wall[r][k] == color]
            if twice:
                self.add(E.WALL_COLOR_CONFLICT, "V5" if self.grey else "P3", "twice_in_row",
                         row=r, column=c, color=color)  # fmt: skip
            elif line is not None:
                self.add(E.NOT_WALL_COLOR_SPACE, "V1" if self.grey else "W1", "wrong_row",
                         line=line, row=r, column=c, color=color, correct_row=line)  # fmt: skip
            elif self._incomplete_color(r) == color:
                self.add(E.INCOMPLETE_LINE_CLEARED, "W2", "tiled", line=r, row=r, column=c,
                         color=color, count=self.board.pattern_lines[r].count,
                         capacity=r + 1)  # fmt: skip
                self.reported.add(r)
            else:
                self.add(E.TILE_COUNT_MISMATCH, "S3", "appeared", row=r, column=c, color=color)

    def _incomplete_color(self, row: int) -> Color | None:
        line = self.board.pattern_lines[row]
        return line.color if 0 < line.count < line.capacity else None

    def _lay_row(self, r: int, current: list[list[Color | None]], cells: list[_Cell]) -> None:
        """Check the tile of line ``r`` where it lies, then lay row ``r``'s new tiles."""
        color = self.complete.get(r)
        if color is not None and self.grey:
            wall_now = tuple(tuple(row) for row in current)
            probe = PlayerBoard(score=0, pattern_lines=self.board.pattern_lines, wall=wall_now,
                                floor=())  # fmt: skip
            if not legal_columns(probe, r):
                self.to_floor.add(r)
        if r in self.own:
            self.tiled.add(r)
            self._check_own(r, self.own[r], current)
        for row, c, tile in sorted(cells, key=lambda cell: cell[1] != self.own.get(r)):
            current[row][c] = tile
            h, v, points = runs(current, row, c)
            self.laid.append(WallPlacement(row, c, tile, h, v, points))
            self.laid_walls.append(tuple(tuple(x) for x in current))

    def _check_own(self, r: int, c: int, current: list[list[Color | None]]) -> None:
        """The tile of complete line ``r`` lies in row ``r``, column ``c``: S5 on the
        coloured wall; V1, V2 and V4 on the grey wall."""
        color = self.complete[r]
        if not self.grey:
            right = wall_column(r, color)
            if c != right:
                self.add(E.NOT_WALL_COLOR_SPACE, "S5", "tiling", line=r, row=r, column=c,
                         color=color, space_color=wall_color(r, c),
                         correct_column=right)  # fmt: skip
            return
        no_space = r in self.to_floor
        extra: dict[str, object] = {"count": r + 1} if no_space else {}
        reason = "no_space" if no_space else "tiling"
        covered = self.board.wall[r][c]
        if covered is not None:
            self.add(E.SPACE_OCCUPIED, "V4" if no_space else "V1", reason, line=r, row=r,
                     column=c, color=color, covered=covered, **extra)  # fmt: skip
        if any(current[k][c] == color for k in range(5) if k != r):
            self.add(E.COLUMN_COLOR_CONFLICT, "V4" if no_space else "V2", reason, line=r, row=r,
                     column=c, color=color, **extra)  # fmt: skip

    # Pattern lines and floor --------------------------------------------------------------

    def check_lines(self, shown: Sequence[tuple[Color, ...]], wall_claimed: bool) -> None:
        """W1, W2, V4: complete lines are emptied, incomplete ones kept as they were."""
        for r, line in enumerate(self.board.pattern_lines):
            tiles = shown[r]
            count = len(tiles)
            if (tiles and tiles[0] != line.color) or count > line.count:
                self.add(E.TILE_COUNT_MISMATCH, "S3", "line_changed", line=r)
            elif r in self.complete:
                self._check_complete_line(r, count, wall_claimed)
            elif count < line.count and r not in self.reported:
                self.add(E.INCOMPLETE_LINE_CLEARED, "W2", "emptied", line=r, count=line.count,
                         capacity=line.capacity)  # fmt: skip

    def _check_complete_line(self, r: int, left: int, wall_claimed: bool) -> None:
        if not left or r in self.reported:
            return
        if r in self.to_floor:
            self.add(E.WRONG_PHASE, "V4", "kept", line=r, color=self.complete[r], count=left)
            self.kept.add(r)
        elif r in self.tiled or (not wall_claimed and left < r + 1):
            self.add(E.TILE_COUNT_MISMATCH, "W1", "leftovers", line=r, count=left)
        else:
            self.add(E.WRONG_PHASE, "W1", "untiled", line=r, color=self.complete[r])
        self.reported.add(r)

    def check_floor(self, floor: tuple[FloorItem, ...]) -> None:
        """W5: the floor line is empty after the tiling."""
        if floor:
            self.add(E.TILE_COUNT_MISMATCH, "W5", "floor", count=len(floor))

    # The tiling as laid -------------------------------------------------------------------

    def laid_tiling(self) -> tuple[Tiling, PlayerBoard]:
        """The tiling the claimed wall shows, scored by the rules (W3, W4), with the lines
        that had no legal space on the floor (V4)."""
        floor = list(self.board.floor)
        for r in sorted(self.to_floor - self.kept - self.tiled):
            floor += [self.complete[r]] * min(r + 1, FLOOR_SIZE - len(floor))
        points = sum(p.points for p in self.laid)
        score = max(0, self.board.score + points - floor_penalty(len(floor)))
        lines = tuple(pattern_line(r, None, 0) if r in self.complete else line
                      for r, line in enumerate(self.board.pattern_lines))  # fmt: skip
        tiling = Tiling(self.player, self.board.score, tuple(self.laid), tuple(self.laid_walls),
                        tuple(floor), score)  # fmt: skip
        after = PlayerBoard(score=score, pattern_lines=lines, wall=self.laid_wall, floor=())
        return tiling, after


def _judge_player(state: GameState, player: int, claim: Claim) -> _Judged:
    board = state.players[player]
    claimed = claim.board_of(player)
    grey = state.variant is Variant.GREY
    check = _PlayerAudit(player, board, claimed, grey)
    if claimed.wall is not None:
        check.check_wall(claimed.wall)
    if claimed.pattern_lines is not None:
        check.check_lines(claimed.pattern_lines, claimed.wall is not None)
    if claimed.floor is not None:
        check.check_floor(claimed.floor)
    laid, laid_after = check.laid_tiling()
    rules = _grey_tiling(player, board, check.own) if grey else _colored_tiling(player, board)
    found = list(check.found)
    claimed_score = claim.score_of(player)
    if claimed_score is not None:
        found += _judge_score(claimed_score, rules[0] if rules else None, laid, claim.game_over)
    after = rules[1] if rules is not None else laid_after
    lid = rules[2] if rules is not None else None
    shown = _tiles_shown(claimed, after)
    return _Judged(tuple(found), after, lid, shown)


def _colored_tiling(
    player: int, board: PlayerBoard
) -> tuple[Tiling, PlayerBoard, tuple[Color, ...]]:
    """W1-W5 on the coloured wall, by the referee's own tiling."""
    lid: list[Color] = []
    after, record = tile_colored(player, board, lid)
    walls = []
    wall = [list(row) for row in board.wall]
    for placed in record.placements:
        wall[placed.row][placed.column] = placed.color
        walls.append(tuple(tuple(row) for row in wall))
    tiling = Tiling(player, board.score, record.placements, tuple(walls), board.floor,
                    after.score)  # fmt: skip
    return tiling, after, tuple(lid)


def _grey_tiling(player: int, board: PlayerBoard, columns: dict[int, int]
                 ) -> tuple[Tiling, PlayerBoard, tuple[Color, ...]] | None:  # fmt: skip
    """V1-V4 with the players' ``columns`` (complete line -> column): ``None`` when a
    line's column is unknown or not one the rules allow, so the rules' tiling cannot be
    told.  A line with a single legal column needs no choice."""
    lid: list[Color] = []
    placements: list[WallPlacement] = []
    walls: list[Wall] = []
    for r in range(5):
        line = board.pattern_lines[r]
        if line.color is None or line.count < line.capacity:
            continue
        legal = legal_columns(board, r)
        if not legal:
            board = _line_to_floor(board, r, lid)
            continue
        column = columns.get(r, legal[0] if len(legal) == 1 else None)
        if column not in legal:
            return None
        board, placed = place_on_wall(board, r, column, lid)
        placements.append(placed)
        walls.append(board.wall)
    score = max(0, board.score - floor_penalty(len(board.floor)))
    lid += [t for t in board.floor if isinstance(t, Color)]
    before = board.score - sum(p.points for p in placements)
    tiling = Tiling(player, before, tuple(placements), tuple(walls), board.floor, score)
    after = PlayerBoard(score=score, pattern_lines=board.pattern_lines, wall=board.wall, floor=())
    return tiling, after, tuple(lid)


def _line_to_floor(board: PlayerBoard, row: int, lid: list[Color]) -> PlayerBoard:
    """V4: every tile of complete line ``row`` to the floor, left to right; those finding
    no space to the lid (F2)."""
    line = board.pattern_lines[row]
    assert line.color is not None
    kept = min(FLOOR_SIZE - len(board.floor), line.count)
    lid.extend([line.color] * (line.count - kept))
    lines = tuple(pattern_line(row, None, 0) if r == row else pl
                  for r, pl in enumerate(board.pattern_lines))  # fmt: skip
    return PlayerBoard(score=board.score, pattern_lines=lines, wall=board.wall,
                       floor=board.floor + (line.color,) * kept)  # fmt: skip


def _judge_score(claimed: int, rules: Tiling | None, laid: Tiling,
                 game_over: bool | None) -> list[Violation]:  # fmt: skip
    """The claimed score against the rules' tiling, then against the tiling as laid
    (whose own mistakes are already named)."""
    reference = rules or laid
    if rules is not None and claimed == rules.score:
        return []
    if game_over and claimed == reference.before and reference.score != reference.before:
        return [Violation.of(E.GAME_ENDED_EARLY, "E1", reason="skipped", player=reference.player,
                             claimed=claimed, correct=reference.score)]  # fmt: skip
    differs = rules is None or laid.placements != rules.placements or laid.floor != rules.floor
    if differs and claimed == laid.score:
        return []
    explained = explain(rules, claimed) if rules is not None else None
    if explained is None and differs:
        explained = explain(laid, claimed)
    if explained is None:
        return [Violation.of(E.SCORE_MISCOUNT, _miscount_rule(reference, claimed),
                             player=reference.player, claimed=claimed,
                             correct=reference.score)]  # fmt: skip
    return explained


def _miscount_rule(reference: Tiling, claimed: int) -> str:
    """The rule an unexplained score breaks: W4 when it is the tiles' points less the
    penalty of a floor of another length (the floor counted wrong: forgotten, or a V4
    line's tiles left out), else W3 (the tiles counted wrong)."""
    tiles = reference.before + sum(p.points for p in reference.placements)
    if any(max(0, tiles - floor_penalty(k)) == claimed for k in range(FLOOR_SIZE + 1)):
        return "W4"
    return "W3"


def _tiles_shown(claimed: ClaimedBoard, after: PlayerBoard) -> tuple[Color, ...]:
    """The tiles the claim leaves on a board (the rules' parts where it says nothing)."""
    wall = claimed.wall if claimed.wall is not None else after.wall
    tiles = [t for row in wall for t in row if t is not None]
    if claimed.pattern_lines is not None:
        tiles += [t for line in claimed.pattern_lines for t in line]
    else:
        tiles += [line.color for line in after.pattern_lines if line.color is not None
                  for _ in range(line.count)]  # fmt: skip
    tiles += [t for t in claimed.floor or () if isinstance(t, Color)]
    return tuple(tiles)


# -- the lid and the end -----------------------------------------------------------------------


def _judge_lid(state: GameState, claim: Claim, judged: list[_Judged]) -> list[Violation]:
    """The lid as counted: what the rules' tiling puts there, or what the boards as the
    players left them imply (their own mistakes being named already)."""
    if claim.lid is None:
        return []
    shown = [t for j in judged for t in j.shown] + list(state.bag)
    implied = [20 - n for n in color_counts(tuple(shown))]
    counted = color_counts(claim.lid)
    if all(j.lid is not None for j in judged):
        rules = color_counts(tuple(state.lid) + tuple(t for j in judged for t in j.lid or ()))
        if counted == rules:
            return []
    else:
        rules = implied
    if counted == implied:
        return []
    wrong = tuple(c for c in COLORS if counted[c] != rules[c])
    return [Violation.of(E.TILE_COUNT_MISMATCH, "S3", reason="lid", claimed=len(claim.lid),
                         correct=sum(rules), colors=wrong)]  # fmt: skip


def _judge_end(state: GameState, claim: Claim, boards: list[PlayerBoard]) -> list[Violation]:
    """E1, R7: whether the game ends; E2: the bonuses; E4: the winners."""
    found: list[Violation] = []
    ends = any(b.has_complete_row() for b in boards) or (
        state.variant is Variant.GREY and not walls_can_end(boards)
    )
    if claim.game_over and not ends:
        found.append(Violation.of(E.GAME_ENDED_EARLY, "E1", reason="no_row"))
    if claim.game_over is False and ends:
        found.append(Violation.of(E.GAME_OVER, "E1", reason="continued"))
    if not ends:
        return found
    bonuses = [end_bonuses(b.wall) for b in boards]
    for player, (bonus, claimed) in enumerate(zip(bonuses, claim.bonuses or (), strict=False)):
        if claimed != bonus.points:
            found.append(Violation.of(
                E.BONUS_MISCOUNT, "E2", player=player, claimed=claimed, correct=bonus.points,
                complete_rows=bonus.rows, complete_columns=bonus.columns,
                complete_colors=bonus.colors,
            ))  # fmt: skip
    if claim.winners is not None:
        final = [PlayerBoard(score=b.score + bonus.points, pattern_lines=b.pattern_lines,
                             wall=b.wall, floor=b.floor)
                 for b, bonus in zip(boards, bonuses, strict=True)]  # fmt: skip
        winners = decide_outcome(final).winners
        if tuple(sorted(claim.winners)) != winners:
            found.append(Violation.of(E.WRONG_WINNER, "E4", claimed_players=claim.winners,
                                      correct_players=winners))  # fmt: skip
    return found


# -- fitting the claim to the position ---------------------------------------------------------


def _check_fits(state: GameState, claim: Claim, need_columns: bool = True) -> None:
    errors = []
    n = len(state.players)
    if state.center or any(state.factories):
        errors.append(("$.factories", "the factory offer is not over: tiles are left to take"))
    for name in ("scores", "bonuses", "pattern_lines", "boards"):
        value = getattr(claim, name)
        if value is not None and len(value) != n:
            errors.append((f"$.{name}", f"expected one entry per player ({n}), got {len(value)}"))
    if claim.winners is not None and any(not 0 <= w < n for w in claim.winners):
        errors.append(("$.winners", f"players are numbered 0 to {n - 1}"))
    if state.variant is Variant.GREY and need_columns and not errors:
        errors += _unknown_columns(state, claim)
    if errors:
        raise FormatError("; ".join(f"{p}: {m}" for p, m in errors), tuple(errors))


def _unknown_columns(state: GameState, claim: Claim) -> list[tuple[str, str]]:
    """Grey wall: a player with a choice of columns must have their wall claimed."""
    errors = []
    for p, board in enumerate(state.players):
        if claim.board_of(p).wall is not None:
            continue
        if _grey_tiling(p, board, {}) is None:
            errors.append((f"$.boards[{p}].wall", "the grey wall's tiling depends on the columns "
                           "chosen: give the wall as the player left it"))  # fmt: skip
    return errors


def position_from_json(text: str | bytes) -> GameState:
    """Read the position an audit starts from: a state whose factory offer has just
    ended (every factory and the centre empty) is accepted here."""
    state: GameState = position_at_offer_end(text)
    return state


def position_from_dict(data: object) -> GameState:
    """:func:`position_from_json` of plain data (``to_dict``'s form of a state)."""
    state: GameState = position_at_offer_end_from_dict(data)
    return state

