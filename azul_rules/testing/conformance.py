"""Comparing an engine with the referee, one step at a time, and naming the rule broken.

A *step* is what the referee just did: the first deal, a move, or a refill
(:class:`Step`).  After each step the engine's reported view (a ``state`` reply) and
its legal moves are compared with the referee's; every fact that differs becomes a
:class:`Difference` naming the rules it bears on.  Scores after a tiling are
explained further when one documented mistake (``CROSS_COUNTED_ONCE``,
``MARKER_PENALTY_FORGOTTEN``...) reproduces the engine's figure exactly.

No Hypothesis and no subprocess here: ``azul_rules.testing.differential`` drives the games, and
``azul_rules.testing.protocol_engine`` reuses these comparisons.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs

from azul_rules.adjudication.miscount import TILE_MISTAKES, counted_with
from azul_rules.core.colors import CENTER, FLOOR, FLOOR_SIZE, FLOOR_TOTALS, MARKER
from azul_rules.core.moves import Move, PlaceTile, Refill, TableTake, Take
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.scoring import WallPlacement
from azul_rules.core.shown import fill
from azul_rules.core.state import GameState
from azul_rules.testing.protocol import comparable, referee_view

__all__ = [
    "RULE_TITLES",
    "Difference",
    "Step",
    "move_set_differences",
    "refusal_difference",
    "view_differences",
]


@attrs.frozen
class Step:
    """The referee's last step: ``after`` is reached from ``before`` by ``move``
    (``before`` is ``None`` for the first deal, whose ``move`` is its ``Refill``)."""

    before: GameState | None
    move: Move
    after: GameState

    @property
    def settled(self) -> bool:
        """True when this step finished a round's tiling and floors (W1-W5)."""
        before, after = self.before, self.after
        return (
            before is not None
            and after.last_scoring is not None
            and after.last_scoring is not before.last_scoring
            and after.phase is not Phase.WALL_TILING
            and not isinstance(self.move, Refill)
        )


@attrs.frozen
class Difference:
    """One fact on which the engine and the referee disagree.

    ``what`` is a JSON path of the ``state`` view (``$.players[1].score``),
    ``legal_moves``, or the move the engine refused; ``rules`` the rule ids it
    bears on, the likeliest first; ``note`` an explanation when one is known."""

    what: str
    referee: str
    engine: str
    rules: tuple[str, ...]
    note: str = ""

    def __str__(self) -> str:
        text = (
            f"{self.what}: referee {self.referee}; engine {self.engine} ({', '.join(self.rules)})"
        )
        return f"{text}: {self.note}" if self.note else text

    def to_dict(self) -> dict[str, Any]:
        """As JSON-ready data."""
        return {"what": self.what, "referee": self.referee, "engine": self.engine,
                "rules": list(self.rules), "note": self.note}  # fmt: skip


# -- the view ---------------------------------------------------------------------------------

_ORDER: Final = (
    "$.winners", "$.phase", ".score", ".pattern_lines", ".wall", ".floor", "$.marker_holder",
    "$.factories", "$.center", "$.current_player", "$.start_player", "$.round", "$.bag", "$.lid",
)  # fmt: skip


def _rank(path: str) -> tuple[int, str]:
    for index, part in enumerate(_ORDER):
        if part in path:
            return index, path
    return len(_ORDER), path


def view_differences(step: Step, reported: dict[str, object]) -> list[Difference]:
    """Every fact the engine reports (``protocol.comparable`` form) that differs from
    the referee's position after ``step``, the most telling first."""
    expected = comparable(referee_view(step.after))
    differing = [p for p, value in reported.items() if p in expected and value != expected[p]]
    found = []
    for path in sorted(differing, key=_rank):
        rules, note = _explain(step, path, reported[path])
        found.append(Difference(path, _show(expected[path]), _show(reported[path]), rules, note))
    return found


def _show(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, tuple):
        if value and all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], int)
                         and isinstance(v[0], str) for v in value):  # fmt: skip
            return "{" + ", ".join(f"{k}: {n}" for k, n in value if n) + "}"
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _explain(step: Step, path: str, got: object) -> tuple[tuple[str, ...], str]:
    """The rules a difference at ``path`` bears on, given what the step did."""
    move, before, after = step.move, step.before, step.after
    taking = isinstance(move, (Take, TableTake))
    placing = isinstance(move, PlaceTile)
    dealing = isinstance(move, Refill)
    if path.endswith(".score"):
        return _explain_score(step, int(path.split("[")[1].split("]")[0]), got)
    if path == "$.winners":
        return ("E4",) if after.is_over and got else ("E1", "E4"), ""
    if path == "$.phase":
        if after.is_over or got == Phase.GAME_OVER.value:
            return ("E1", "R6") if dealing else ("E1", "R1"), ""
        return ("P7", "G1") if taking else ("G1",), ""
    if ".pattern_lines" in path:
        if taking:
            return ("P1", "P2", "P5"), ""
        return (("V4", "W1", "W2") if placing else ("W1", "W2")), ""
    if ".wall" in path:
        if placing:
            return ("V1", "V2", "V3"), ""
        return ("W1", "S5") if after.variant is Variant.COLORED else ("W1", "V1"), ""
    if ".floor" in path:
        if taking and before is not None:
            return _explain_floor(before, move), ""
        return ("V4", "W5") if placing else ("W4", "W5"), ""
    if path == "$.marker_holder":
        return ("T3",), ""
    if path in ("$.factories", "$.center"):
        if dealing:
            return ("R2",), ""
        from_center = taking and getattr(move, "source", None) == CENTER
        return ("T3",) if from_center else ("T2",), ""
    if path == "$.current_player":
        if placing or after.phase is Phase.WALL_TILING:
            return ("V3",), ""
        return (("G2", "T1") if taking and not step.settled else ("R4", "R5")), ""
    if path == "$.start_player":
        return ("R4", "R5"), ""
    if path == "$.round":
        return ("R1",), ""
    if path in ("$.bag", "$.lid"):
        if dealing:
            return ("R2",), ""
        return (("F2",) if taking and not step.settled else ("W1", "W5", "F2")), ""
    return ("G1",), ""


def _explain_floor(before: GameState, move: Move) -> tuple[str, ...]:
    board = before.players[before.current_player]
    source = getattr(move, "source", None)
    if source == CENTER and before.marker_holder is None:
        return ("T3", "F3", "F4") if len(board.floor) >= FLOOR_SIZE else ("T3", "F3")
    if len(board.floor) >= FLOOR_SIZE:
        return ("F2",)
    return ("P5", "P6", "F1")


# -- scores -----------------------------------------------------------------------------------


def _explain_score(step: Step, player: int, got: object) -> tuple[tuple[str, ...], str]:
    before, after = step.before, step.after
    if before is None or not isinstance(got, int):
        return ("S4",), "scores start at 0"
    record = after.last_scoring
    placing = isinstance(step.move, PlaceTile)
    if record is None or not (step.settled or placing):
        return ("W1", "W3"), "scores change only when the wall is tiled"
    tiling = record.players[player]
    if placing:  # grey: only this step's placement is new (V3)
        mine = player == before.current_player and tiling.placements
        placements = tiling.placements[-1:] if mine else ()
    else:
        placements = tiling.placements
    penalty = tiling.floor_penalty if step.settled else 0
    bonus = tiling.bonuses.points if tiling.bonuses is not None else 0
    scored = _Scored(player, before.players[player].score, placements, penalty, bonus)
    named = _named_mistake(before, step.move, scored, got)
    if named is not None:
        return named
    rules: tuple[str, ...] = ("W3",) if not step.settled else ("W3", "W4")
    if tiling.bonuses is not None:
        rules += ("E2",)
    return rules, _tiling_in_words(scored, tiling.score_after if step.settled else None)


@attrs.frozen
class _Scored:
    """What one step scored for one player: from ``start`` (agreed at the previous
    step), the new placements, the floor penalty and the end bonuses."""

    player: int
    start: int
    placements: tuple[WallPlacement, ...]
    penalty: int
    bonus: int

    def total(self, points: Sequence[int], penalty: int, clamp: bool = True) -> int:
        raw = self.start + sum(points) - penalty
        return (max(0, raw) if clamp else raw) + self.bonus


def _marker_on_floor(before: GameState, move: Move, player: int) -> bool:
    board = before.players[player]
    if MARKER in board.floor:
        return True
    takes_marker = (
        isinstance(move, (Take, TableTake)) and move.source == CENTER
        and before.marker_holder is None and before.current_player == player
    )  # fmt: skip
    return takes_marker and len(board.floor) < FLOOR_SIZE


def _named_mistake(
    before: GameState, move: Move, scored: _Scored, got: int
) -> tuple[tuple[str, ...], str] | None:
    """The one documented mistake that turns the referee's count into ``got``."""
    correct = [p.points for p in scored.placements]
    walls = _walls_after_each(before, scored)
    for code, model in TILE_MISTAKES.items():
        counts = [model(w, p.row, p.column) for w, p in zip(walls, scored.placements, strict=True)]
        if counts != correct and scored.total(counts, scored.penalty) == got:
            tiles = [
                f"the {p.color.name.lower()} tile at row {p.row + 1}, column {p.column + 1} "
                f"scores {p.points}, not {n} ({counted_with(code, w, p.row, p.column)})"
                for p, n, w in zip(scored.placements, counts, walls, strict=True)
                if n != p.points
            ]
            return ("W3",), f"{code.value}: " + "; ".join(tiles)
    penalty = scored.penalty
    if penalty and _marker_on_floor(before, move, scored.player):
        spaces = FLOOR_TOTALS.index(penalty) if penalty in FLOOR_TOTALS else 0
        if spaces and scored.total(correct, FLOOR_TOTALS[spaces - 1]) == got:
            return ("F3",), (
                f"MARKER_PENALTY_FORGOTTEN: player {scored.player + 1}'s floor costs {penalty}, "
                f"not {FLOOR_TOTALS[spaces - 1]}: the starting player marker takes a space and "
                "is penalised by it"
            )
    if scored.total(correct, penalty, clamp=False) == got:
        return ("W4",), "SCORE_BELOW_ZERO: a score never drops below 0"
    pre = scored.total(correct, penalty) - scored.bonus
    if scored.bonus and got - pre in _bonus_sums():
        return ("E2",), f"BONUS_MISCOUNT: end bonuses +{scored.bonus}, not +{got - pre}"
    return None


def _bonus_sums() -> set[int]:
    return {2 * r + 7 * c + 10 * k for r in range(6) for c in range(6) for k in range(6)}


def _walls_after_each(before: GameState, scored: _Scored) -> list[Any]:
    wall = [list(row) for row in before.players[scored.player].wall]
    walls = []
    for placed in scored.placements:
        wall[placed.row][placed.column] = placed.color
        walls.append(tuple(tuple(row) for row in wall))
    return walls


def _tiling_in_words(scored: _Scored, total: int | None) -> str:
    parts = [f"{scored.start}"]
    for p in scored.placements:
        parts.append(f"+ {p.points} ({p.color.name.lower()} at row {p.row + 1}, column "
                     f"{p.column + 1}: {p.horizontal} across, {p.vertical} down)")  # fmt: skip
    if total is not None:
        parts.append(f"- floor {scored.penalty}")
    if scored.bonus:
        parts.append(f"+ bonuses {scored.bonus}")
    shown = " ".join(parts) + (f" = {total}" if total is not None else "")
    return f"the referee counts for player {scored.player + 1}: {shown}"


# -- moves ------------------------------------------------------------------------------------


def _plain(move: Move, state: GameState) -> Move:
    """``move`` without a ``player`` naming the player to move; a legal table take as
    its compact take."""
    if getattr(move, "player", None) == state.current_player:
        move = attrs.evolve(move, player=None)
    if isinstance(move, TableTake) and state.validate(move).ok:
        return move.as_take()
    return move


def _missing_rules(state: GameState, move: Move) -> tuple[str, ...]:
    """The rule that makes a legal move legal, for an engine that refuses it."""
    if isinstance(move, PlaceTile):
        return ("V1", "V2")
    if isinstance(move, Take) and move.line == FLOOR:
        return ("P6",)
    if isinstance(move, Take):
        line = state.players[state.current_player].pattern_lines[move.line]
        return ("P2", "P5") if line.color is not None else ("P2", "P3")
    return ("R2",)


def move_set_differences(
    state: GameState, listed: Iterable[Move], lang: str = "en"
) -> list[Difference]:
    """The moves the engine lists that the referee refuses (each group named by the
    referee's verdict, its message in ``lang``), and the legal moves it leaves out."""
    legal = state.legal_moves()
    engine = {_plain(m, state) for m in listed}
    extra: dict[tuple[str, str], list[Move]] = {}
    for move in sorted(set(engine) - set(legal), key=str):
        verdict = state.validate(move)
        first = verdict.violations[0] if verdict.violations else None
        key = (first.code.value, first.rule) if first else ("LEGAL", "G1")
        extra.setdefault(key, []).append(move)
    found = []
    for (code, rule), moves in extra.items():
        verdict = state.validate(moves[0])
        found.append(Difference(
            "legal_moves", f"refuses {_examples(moves)}",
            fill("lists {n} such {n:move|moves}", "en", n=len(moves)),
            (rule,),
            f"{code}: {verdict.violations[0].message_in(lang)}" if verdict.violations else "",
        ))  # fmt: skip
    missing: dict[tuple[str, ...], list[Move]] = {}
    for move in legal:
        if move not in engine:
            missing.setdefault(_missing_rules(state, move), []).append(move)
    for rules, moves in missing.items():
        found.append(Difference(
            "legal_moves", f"allows {_examples(moves)}",
            fill("leaves out {n} such {n:move|moves}", "en", n=len(moves)),
            rules,
        ))  # fmt: skip
    return found


def _examples(moves: Sequence[Move]) -> str:
    shown = ", ".join(_move_text(m) for m in moves[:3])
    return shown + (f" and {len(moves) - 3} more" if len(moves) > 3 else "")


def _move_text(move: Move) -> str:
    text = str(move)
    return text if isinstance(move, Take) else f"({text})"


def refusal_difference(state: GameState, move: Move, code: str, message: str) -> Difference:
    """The engine refused ``move``, which the referee holds legal in ``state``."""
    what = "refill" if isinstance(move, Refill) else f"apply {_move_text(move)}"
    return Difference(
        what,
        "legal",
        f"refuses it ({code}: {message})" if message else f"refuses it ({code})",
        _missing_rules(state, move),
    )


RULE_TITLES: Final = {
    "G1": "each phase accepts only its own kind of move",
    "G2": "play goes clockwise, by increasing player index",
    "S4": "the player boards and a score starting at 0",
    "S5": "the coloured wall's fixed pattern",
    "T1": "the player to move must take tiles",
    "T2": "a take from a factory takes every tile of one colour; the rest go to the centre",
    "T3": "a take from the centre; the first one takes the starting player marker",
    "T4": "one colour per turn; the marker is not a colour",
    "P1": "the whole lot goes into one pattern line, or onto the floor",
    "P2": "a pattern line holds one colour",
    "P3": "no colour in a line whose wall row already has it",
    "P4": "a complete pattern line accepts no tile",
    "P5": "the excess goes to the floor, and only the excess",
    "P6": "the whole lot may always go to the floor",
    "P7": "the factory offer ends when no tile is left",
    "F1": "floor spaces fill left to right: -1 -1 -2 -2 -2 -3 -3",
    "F2": "tiles beyond a full floor go to the lid and cost nothing",
    "F3": "the starting player marker takes a floor space and is penalised by it",
    "F4": "a marker taken onto a full floor costs nothing",
    "W1": "complete lines are tiled top to bottom, each tile scored at once",
    "W2": "an incomplete line keeps its tiles",
    "W3": "a placed tile scores its horizontal and vertical runs",
    "W4": "the floor's penalty, the score never below 0",
    "W5": "floor tiles to the lid; the marker holder starts the next round",
    "R1": "a new round unless a wall row is complete",
    "R2": "factories filled from the bag, then the lid poured into it",
    "R3": "tiles left in pattern lines stay there",
    "R4": "the marker holder takes the first turn",
    "R5": "nobody took from the centre: the same player starts again",
    "R6": "nothing can be dealt: the game ends",
    "E1": "the game ends after the tiling of the round completing a wall row",
    "E2": "end bonuses: +2 a row, +7 a column, +10 a colour",
    "E4": "highest score wins; a tie goes to more complete rows, else shared",
    "V1": "grey wall: the player picks the column",
    "V2": "grey wall: a colour at most once per column",
    "V3": "grey wall: tiling line by line, player by player, in turn order",
    "V4": "grey wall: a line with no legal space goes whole to the floor",
}
"""A short title for every rule id a :class:`Difference` may name (``docs/rules.md``)."""
