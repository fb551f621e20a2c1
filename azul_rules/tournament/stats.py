"""The numbers of a tournament: per-bot tallies, win rates with Wilson intervals, and
Bradley–Terry ratings on the Elo scale with standard errors from the Fisher information.

How a game counts:

* *wins* are outright victories, *shared wins* victories shared by ``k`` seats (E4, or
  the non-forfeiting seats of a forfeit at 3–4 players); a win is worth 1 point and a
  shared win ``1/k``.  The *win rate* is points / games; its 95 % interval is Wilson's
  score interval with ``n`` = games (exact for 0/1 points, the usual approximation when
  shared wins add fractions).
* *mean score* and *mean margin* count finished games only (a forfeit or an unfinished
  game stops mid-way).  The margin is the bot's final score minus the best score of the
  other seats: positive by as much as it won, negative by as much as it trailed.
* *ratings*: every game is split into its pairs of seats.  A winning seat beats every
  non-winning seat; two winners draw; two non-winners are ordered by score in a finished
  game and draw otherwise (forfeit, unfinished).  A draw is half a win for each.  Pairs
  of seats held by the same bot tell nothing and are skipped.  The Bradley–Terry model
  ``P(i beats j) = 1 / (1 + 10 ** ((r_j - r_i) / 400))`` is fitted by maximum likelihood
  (Hunter's MM iterations) with a prior of one virtual draw between every two bots, so
  that a bot that never lost still has a finite rating; the ratings average 1500.  The
  uncertainty is the standard error from the inverse Fisher information (the prior's
  virtual games included), ``± 1.96`` of it for a 95 % interval.  Pairs from one
  multi-player game are not independent, so at 3–4 players the errors are somewhat too
  small.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, get_args

import attrs

from azul_rules.tournament.referee import Ending, GameSummary

__all__ = [
    "ENDS",
    "Z95",
    "BotStats",
    "Rating",
    "Tally",
    "bradley_terry",
    "wilson_interval",
]

Z95: Final = 1.959963984540054
"""The standard normal quantile of 97.5 %: a two-sided 95 % interval."""

ELO: Final = 400 / math.log(10)
"""Elo points per natural-log unit of Bradley–Terry strength."""

ENDS: Final[tuple[Ending, ...]] = get_args(Ending)
"""How a game can end: ``"finished"``, ``"forfeit"``, ``"unfinished"``; the keys of
``Results.ends``, every one of them present (0 when no game ended so)."""


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``successes / n`` (``(0.0, 1.0)`` when
    ``n`` is 0).

    >>> low, high = wilson_interval(7, 10)
    >>> round(low, 4), round(high, 4)
    (0.3968, 0.8922)
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.frozen
class Rating:
    """A Bradley–Terry rating on the Elo scale and its standard error (Elo points).

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

    rating: float
    error: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval, ``rating ± 1.96 error``."""
        return self.rating - Z95 * self.error, self.rating + Z95 * self.error


def bradley_terry(
    wins: Sequence[Sequence[float]], *, prior: float = 1.0, tolerance: float = 1e-10
) -> tuple[Rating, ...]:
    """Ratings from ``wins[i][j]``, the games ``i`` won against ``j`` (a draw counts half
    to each), with ``prior`` virtual draws between every two players (see the module).

    >>> [round(r.rating) for r in bradley_terry([[0, 3], [1, 0]], prior=0)]
    [1595, 1405]
    """
    n = len(wins)
    if n == 1:
        return (Rating(1500.0, 0.0),)
    played = [[0.0] * n for _ in range(n)]
    won = [0.0] * n
    for i in range(n):
        for j in range(n):
            if i != j:
                played[i][j] = wins[i][j] + wins[j][i] + prior
                won[i] += wins[i][j] + prior / 2
    strength = _mm_fit(played, won, tolerance)
    theta = [math.log(s) for s in strength]
    mean = sum(theta) / n
    errors = _standard_errors(played, theta)
    return tuple(
        Rating(1500 + ELO * (t - mean), ELO * e) for t, e in zip(theta, errors, strict=True)
    )


def _mm_fit(played: list[list[float]], won: list[float], tolerance: float) -> list[float]:
    """Hunter's MM iterations for Bradley–Terry strengths (geometric mean 1).  A player
    without a game or a win keeps a tiny strength rather than zero."""
    n = len(won)
    strength = [1.0] * n
    for _ in range(100_000):
        updated = []
        for i in range(n):
            denominator = sum(
                played[i][j] / (strength[i] + strength[j]) for j in range(n) if played[i][j]
            )
            updated.append(max(won[i], 1e-9) / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(s) for s in updated) / n)
        updated = [s / scale for s in updated]
        change = max(abs(math.log(a / b)) for a, b in zip(updated, strength, strict=True))
        strength = updated
        if change < tolerance:
            break
    return strength


def _standard_errors(played: list[list[float]], theta: list[float]) -> list[float]:
    """Standard errors of the log-strengths under the sum-zero constraint: the diagonal
    of the pseudo-inverse of the Fisher information, a graph Laplacian ``L``, computed as
    ``(L + J/n)^-1 - J/n`` (``J`` all ones; valid when every player is connected)."""
    n = len(theta)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and played[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                weight = played[i][j] * p * (1 - p)
                info[i][j] -= weight
                info[i][i] += weight
    shifted = [[info[i][j] + 1 / n for j in range(n)] for i in range(n)]
    inverse = _invert(shifted)
    if inverse is None:
        return [math.inf] * n
    return [math.sqrt(max(inverse[i][i] - 1 / n, 0.0)) for i in range(n)]


def _invert(matrix: list[list[float]]) -> list[list[float]] | None:
    """Gauss–Jordan inversion with partial pivoting; ``None`` when singular."""
    n = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(rows[r][column]))
        if abs(rows[pivot][column]) < 1e-12:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [v / lead for v in rows[column]]
        for r in range(n):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [row[n:] for row in rows]


@attrs.frozen
class BotStats:
    """One bot's line of the results table (see the module for how games count).

    Raises nothing when built: a record whose fields are not checked (the tournament builds it).
    """

    name: str
    games: int
    wins: int
    shared_wins: int
    losses: int
    forfeits: int
    unfinished: int
    points: float
    win_rate: float
    win_rate_interval: tuple[float, float]
    mean_score: float | None
    mean_margin: float | None
    rating: Rating
    seats: tuple[int, ...]


@attrs.define
class Tally:
    """Running totals, updated game by game (nothing kept per game, so a million games
    take the same memory as ten)."""

    bots: int
    players: int
    games: int = 0
    ends: dict[str, int] = attrs.Factory(lambda: dict.fromkeys(ENDS, 0))
    played: list[int] = attrs.field(init=False)
    wins: list[int] = attrs.field(init=False)
    shared: list[int] = attrs.field(init=False)
    forfeits: list[int] = attrs.field(init=False)
    unfinished: list[int] = attrs.field(init=False)
    points: list[float] = attrs.field(init=False)
    finished: list[int] = attrs.field(init=False)
    score_sum: list[int] = attrs.field(init=False)
    margin_sum: list[int] = attrs.field(init=False)
    seats: list[list[int]] = attrs.field(init=False)
    pair_wins: list[list[float]] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        b = self.bots
        self.played, self.wins, self.shared = [0] * b, [0] * b, [0] * b
        self.forfeits, self.unfinished, self.points = [0] * b, [0] * b, [0.0] * b
        self.finished, self.score_sum, self.margin_sum = [0] * b, [0] * b, [0] * b
        self.seats = [[0] * self.players for _ in range(b)]
        self.pair_wins = [[0.0] * b for _ in range(b)]

    def add(self, game: GameSummary) -> None:
        """Count one game."""
        self.games += 1
        self.ends[game.end] = self.ends.get(game.end, 0) + 1
        winners = set(game.winners)
        for seat, bot in enumerate(game.seats):
            self.played[bot] += 1
            self.seats[bot][seat] += 1
            if seat in winners:
                if len(winners) == 1:
                    self.wins[bot] += 1
                else:
                    self.shared[bot] += 1
                self.points[bot] += 1 / len(winners)
            if game.end == "finished":
                others = [s for i, s in enumerate(game.scores) if i != seat]
                self.finished[bot] += 1
                self.score_sum[bot] += game.scores[seat]
                self.margin_sum[bot] += game.scores[seat] - max(others)
            elif game.end == "unfinished":
                self.unfinished[bot] += 1
            elif game.forfeiter == seat:
                self.forfeits[bot] += 1
        self._add_pairs(game, winners)

    def _add_pairs(self, game: GameSummary, winners: set[int]) -> None:
        seats = game.seats
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = seats[i], seats[j]
                if a == b:
                    continue
                share = _pair_share(game, winners, i, j)
                self.pair_wins[a][b] += share
                self.pair_wins[b][a] += 1 - share

    def stats(self, names: Sequence[str]) -> tuple[BotStats, ...]:
        """The table's lines, in the order of ``names``."""
        ratings = bradley_terry(self.pair_wins)
        result = []
        for b, name in enumerate(names):
            games = self.played[b]
            finished = self.finished[b]
            line = BotStats(
                name=name, games=games, wins=self.wins[b], shared_wins=self.shared[b],
                losses=games - self.wins[b] - self.shared[b] - self.unfinished[b],
                forfeits=self.forfeits[b], unfinished=self.unfinished[b],
                points=self.points[b],
                win_rate=self.points[b] / games if games else 0.0,
                win_rate_interval=wilson_interval(self.points[b], games),
                mean_score=self.score_sum[b] / finished if finished else None,
                mean_margin=self.margin_sum[b] / finished if finished else None,
                rating=ratings[b], seats=tuple(self.seats[b]),
            )  # fmt: skip
            result.append(line)
        return tuple(result)


def _pair_share(game: GameSummary, winners: set[int], i: int, j: int) -> float:
    """Seat ``i``'s share of its pair with seat ``j``: 1 a win, 0.5 a draw, 0 a loss."""
    if (i in winners) != (j in winners):
        return 1.0 if i in winners else 0.0
    if i in winners or game.end != "finished" or game.scores[i] == game.scores[j]:
        return 0.5
    return 1.0 if game.scores[i] > game.scores[j] else 0.0
