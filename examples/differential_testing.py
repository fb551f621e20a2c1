"""Differential testing: compare another Azul implementation with the referee.

Run it (from the project's root, with the test extra installed)::

    .venv/bin/python -m pytest examples/differential_testing.py

``BuggyScorer`` below stands for "your implementation": it follows the referee's game
but scores wall placements itself, with a classic bug: a tile that ends both a
horizontal and a vertical run is counted once instead of twice (``CROSS_COUNTED_ONCE``).
The test fails within seconds, and Hypothesis reports the game it played (the seed and
every move drawn), ending with a message such as::

    AssertionError: after CW2: the implementation's scores are (0, 4), the referee's
    (0, 5); the referee's last tiling: ...; player 1: red at (0, 2) runs 3x1 = 3,
    white at (1, 0) runs 2x2 = 4, floor -2

(white at row 1, column 0 ends a run of 2 across and 2 down: 4 points, not 3).

To test your own implementation, write an adapter with ``start(state)``, ``play(move)``
and ``scores()`` (``azul_rules.testing.Implementation``) and pass its class to
``differential_machine``.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import Phase, settings

from azul_rules import GameState, Move, Variant
from azul_rules.testing import differential_machine


def buggy_points(wall: Sequence[Sequence[object]], row: int, column: int) -> int:
    """W3 with the cross counted once: runs of 3 across and 2 down give 4, not 5."""

    def run(dr: int, dc: int) -> int:
        r, c, n = row + dr, column + dc, 0
        while 0 <= r < 5 and 0 <= c < 5 and wall[r][c] is not None:
            r, c, n = r + dr, c + dc, n + 1
        return n

    across = 1 + run(0, -1) + run(0, 1)
    down = 1 + run(-1, 0) + run(1, 0)
    if across > 1 and down > 1:
        return across + down - 1  # the bug
    return max(across, down)


class BuggyScorer:
    """Follows the referee's moves, but keeps its own scores: its own placement points
    (with the bug), the referee's floor penalties and end bonuses."""

    def start(self, state: GameState) -> None:
        self.state = state
        self.my_scores = [b.score for b in state.players]

    def play(self, move: Move) -> None:
        before = self.state
        self.state = before.apply(move)
        tiling = self.state.last_scoring
        if tiling is None or tiling is before.last_scoring:
            return
        for record in tiling.players:
            wall = [list(row) for row in before.players[record.player].wall]
            gained = 0
            for placed in record.placements:
                wall[placed.row][placed.column] = placed.color
                gained += buggy_points(wall, placed.row, placed.column)
            score = max(0, self.my_scores[record.player] + gained - record.floor_penalty)
            if record.bonuses is not None:
                score += record.bonuses.points
            self.my_scores[record.player] = score

    def scores(self) -> Sequence[int]:
        return tuple(self.my_scores)


DifferentialTest = differential_machine(
    BuggyScorer, player_counts=(2,), variants=(Variant.COLORED,)
)
# Shrinking is left out: a scoring bug needs a few rounds to show, and shortening a game
# move by move rarely keeps the bug, so Hypothesis would spend minutes shrinking.  The
# failing game is reported as found; add Phase.shrink to the phases to try anyway.
DifferentialTest.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=150,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    report_multiple_bugs=False,
)
TestBuggyScorerAgainstTheReferee = DifferentialTest.TestCase
