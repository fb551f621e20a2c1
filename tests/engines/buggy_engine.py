"""Engines with one rule bug each, for the differential tests: the reference engine with
one thing done wrong, the way public Azul engines get it wrong.

    python tests/engines/buggy_engine.py --bug cross-once

* ``cross-once`` (W3): a tile ending both a horizontal and a vertical run is counted once;
* ``marker-free`` (F3): the starting player marker's floor space costs nothing;
* ``floor-while-room`` (P5): lists takes that put tiles on the floor while the chosen
  line still has room (as ``table_take`` moves);
* ``shared-tie`` (E4): a tie on the highest score is always shared (no row tie-break);
* ``lid-forgotten`` (R2): the lid is never poured into the bag, so a refill that needs
  the lid's tiles is refused.

The score bugs keep the engine's own scores beside the referee's state and report them.
Coloured wall only.  ``--bug none`` plays by the rules; ``--minimal`` makes the engine
as small as the protocol allows: its view holds the scores only, and it lists no moves.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

from azul_rules import CENTER, FLOOR, MARKER, GameState, Move, Refill, Take
from azul_rules.core.colors import FLOOR_SIZE, FLOOR_TOTALS
from azul_rules.engine import ReferenceEngine, RequestError, main

BUGS = ("none", "cross-once", "marker-free", "floor-while-room", "shared-tie", "lid-forgotten")


class BuggyEngine(ReferenceEngine):
    """The reference engine with one bug."""

    variants = ("colored",)

    def __init__(self, bug: str, minimal: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.minimal = minimal
        self.lists_legal_moves = not minimal
        self.name = f"buggy engine ({bug})"
        self.scores: list[int] = []

    def deal(self, state: GameState, refill: Refill) -> GameState:
        if state.round == 1:
            self.scores = [0] * len(state.players)
        if self.bug == "lid-forgotten":
            bag = Counter(state.bag)
            drawn = Counter(tile for factory in refill.factories for tile in factory)
            if any(drawn[c] > bag[c] for c in drawn):
                raise RequestError("illegal_move", "the bag does not hold these tiles")
        return super().deal(state, refill)

    def play(self, state: GameState, move: Move) -> GameState:
        after = super().play(state, move)
        scoring = after.last_scoring
        if scoring is not None and scoring is not state.last_scoring:
            for tiling in scoring.players:
                points = sum(self._points(p.horizontal, p.vertical, p.points)
                             for p in tiling.placements)  # fmt: skip
                penalty = self._penalty(state, move, tiling.player, tiling.floor_penalty)
                bonus = tiling.bonuses.points if tiling.bonuses is not None else 0
                score = self.scores[tiling.player] + points - penalty
                self.scores[tiling.player] = max(0, score) + bonus
        return after

    def _points(self, horizontal: int, vertical: int, points: int) -> int:
        if self.bug == "cross-once" and horizontal > 1 and vertical > 1:
            return points - 1
        return points

    def _penalty(self, before: GameState, move: Move, player: int, penalty: int) -> int:
        if self.bug != "marker-free":
            return penalty
        floor = before.players[player].floor
        took = (
            isinstance(move, Take) and move.source == CENTER and before.marker_holder is None
            and before.current_player == player and len(floor) < FLOOR_SIZE
        )  # fmt: skip
        if MARKER in floor or took:
            return FLOOR_TOTALS[FLOOR_TOTALS.index(penalty) - 1]
        return penalty

    def view(self, state: GameState) -> dict[str, Any]:
        doc = super().view(state)
        if self.bug in ("cross-once", "marker-free"):
            for board, score in zip(doc["players"], self.scores, strict=True):
                board["score"] = score
        if self.bug == "shared-tie" and state.outcome is not None:
            scores = state.outcome.scores
            doc["winners"] = [i for i, s in enumerate(scores) if s == max(scores)]
        if self.minimal:
            return {"players": [{"score": board["score"]} for board in doc["players"]]}
        return doc

    def legal(self, state: GameState) -> list[dict[str, Any]]:
        moves = super().legal(state)
        if self.bug != "floor-while-room":
            return moves
        board = state.players[state.current_player]
        for move in state.legal_moves():
            if not isinstance(move, Take) or move.line == FLOOR:
                continue
            tiles = state.center if move.source == CENTER else state.factories[move.source]
            count = tiles.count(move.color)
            if count > 1 and board.pattern_lines[move.line].room > 1:
                source = "center" if move.source == CENTER else move.source
                moves.append({"type": "table_take", "source": source,
                              "color": move.color.name.lower(), "count": count,
                              "placements": {str(move.line): 1, "floor": count - 1}})  # fmt: skip
        return moves


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bug", choices=BUGS, required=True)
    parser.add_argument("--minimal", action="store_true")
    arguments = parser.parse_args()
    sys.exit(main(BuggyEngine(arguments.bug, arguments.minimal)))
