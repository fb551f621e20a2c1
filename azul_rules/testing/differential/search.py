"""The search of ``azul-rules differential``: the referee and the engine play the same
games, and the first disagreement is shrunk to the shortest disagreeing game.

:func:`run` starts the engine (any program speaking the engine protocol, in any
language), and lets Hypothesis play games through the referee and the engine side by
side: the same first player, the same factories (external draws, drawn by Hypothesis
from the bag and then the lid, R2), the same moves.  After every step it compares the
engine's view, its legal moves (when it lists them) and its refusals with the referee's;
on the first disagreement Hypothesis shrinks the game, then :class:`_Shortening` replays
variations of its rounds, and the shortest disagreeing game found is the
:class:`Report`'s :class:`Disagreement`, with the position, what differed and the rules
broken (:mod:`~azul_rules.testing.differential.report` words it).

Every game of the search is played to its end (or to ``MAX_MOVES``, or to a
disagreement): each one makes the same number of Hypothesis choices (``CHOICES``), so
that no choice sequence Hypothesis derives from one game runs out before its game ends.

Needs Hypothesis, the ``testing`` extra (``pip install -e '.[testing]'`` in the project's
checkout).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

import attrs

from azul_rules.core._extras import extra

with extra("testing", "azul_rules.testing"):
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

from azul_rules.core.colors import CENTER, Color
from azul_rules.core.messages import LANGUAGES
from azul_rules.core.moves import Move, Refill, Take
from azul_rules.core.phases import Phase as GamePhase
from azul_rules.core.phases import Variant
from azul_rules.core.shown import shown
from azul_rules.core.state import GameState, new_game
from azul_rules.formats.record import GameRecord
from azul_rules.testing.conformance import (
    Difference,
    Step,
    move_set_differences,
    refusal_difference,
    view_differences,
)
from azul_rules.testing.engine_process import DEFAULT_TIMEOUT, EngineProcess, Refusal
from azul_rules.testing.protocol import EngineInfo, ProtocolError
from azul_rules.testing.tiles import fill_factories

__all__ = ["CHOICES", "DEFAULT_GAMES", "MAX_MOVES", "Disagreement", "Report", "run"]

DEFAULT_GAMES: Final = 100
"""Games played when neither ``games`` nor ``time_budget`` is given."""

MAX_MOVES: Final = 400
"""A game is cut after this many moves (a grey game may starve without ending)."""

CHOICES: Final = {2: 360, 3: 480, 4: 640}
"""Hypothesis's choices for one game's steps (one per move, four per factory dealt), by the
largest player count of the run.  A game that would need more is finished by a random
generator seeded by one more choice; a game that needs fewer spends the rest as
padding.  Every game thus makes the same number of choices, and a choice sequence that
Hypothesis builds from another game's (its mutations, which copy a part of it over
another part drawn by the same strategy) never runs out before its game ends, as it did
for about a game in three when each game made only the choices it needed
(``benchmarks/differential_endings.py``).  So every part that Hypothesis may copy over
another is as long: a choice per move, per player count, per variant, four choices per
factory for each deal; the padding is one part per game."""


@attrs.frozen
class Disagreement:
    """The shortest disagreeing game found: its ``record`` (every move, refills
    included), the ``step`` where the engine parted from the referee, and what
    differed there."""

    record: GameRecord
    step: Step
    differences: tuple[Difference, ...]

    @property
    def rule(self) -> str:
        """The rule the engine broke (the likeliest of the first difference)."""
        return self.differences[0].rules[0]

    @property
    def moves(self) -> int:
        """Moves in the record, refills included."""
        return len(self.record.moves)


@attrs.frozen
class Report:
    """What a differential run found.  ``status`` is the command's exit status: 0 the
    engine agrees, 1 it disagrees, 2 it failed to speak the protocol."""

    command: str
    seed: int
    games: int
    """Games of the search, each compared to its end (or to ``MAX_MOVES``), to the
    disagreement found or to the engine's protocol failure: ``games=N`` plays N, or
    fewer when a disagreement or a protocol failure ends the search first (shrinking
    not included)."""
    moves: int
    """Moves compared, shrinking included."""
    elapsed: float
    engine: EngineInfo | None = None
    disagreement: Disagreement | None = None
    failure: ProtocolError | None = None
    first_found: int | None = None
    played: tuple[tuple[int, Variant, int], ...] = ()
    """The search's games by player count and variant (they add up to ``games``)."""
    shrink_games: int = 0
    """Games replayed while shrinking a disagreement."""
    cut: int = 0
    """Games of the search cut at ``MAX_MOVES`` (a starved grey wall that cannot end);
    the others of ``games`` reached their end (E1, R6, R7), or the disagreement."""
    abandoned: int = 0
    """Games of the search that Hypothesis ended before their end (not in ``games``):
    none, as every game makes the same number of choices (``CHOICES``)."""

    @property
    def status(self) -> int:
        """0 agree, 1 disagree, 2 protocol failure."""
        if self.failure is not None:
            return 2
        return 1 if self.disagreement is not None else 0


class _Found(Exception):
    """A disagreement, raised inside a Hypothesis example so that it shrinks."""


class _Stop(BaseException):
    """Ends the Hypothesis run at once (time is up, or the engine broke the protocol):
    not an ``Exception``, so Hypothesis does not try to shrink it."""


@st.composite
def _padding(draw: st.DrawFn, count: int) -> None:
    """``count`` choices that decide nothing (one each): the rest of a game's budget."""
    for _ in range(count):
        draw(st.integers(0, 0))


@st.composite
def _deal(draw: st.DrawFn, state: GameState) -> Refill:
    """The next deal, tile by tile as :func:`azul_rules.testing.refills` draws it
    (shrinks towards blue, R2), in exactly four choices per factory (the tiles the bag
    and the lid cannot give are padding): every deal of a game is as long, so that
    Hypothesis may copy one deal over another."""
    drawn = 0

    def pick(present: list[Color]) -> Color:
        nonlocal drawn
        drawn += 1
        return present[draw(st.integers(0, len(present) - 1))]

    refill = fill_factories(state, pick)
    for _ in range(4 * len(state.factories) - drawn):
        draw(st.integers(0, 0))  # one choice each, as a tile's (not a _padding: see CHOICES)
    return refill


class _Choices:
    """The choices of one game: Hypothesis's, one at a time (each one choice, even
    where there is nothing to choose), while the game's budget lasts; then those of a
    random generator seeded by one more choice.  :meth:`pad` spends the rest of the
    budget, so that every game that ends makes exactly as many choices."""

    def __init__(self, data: st.DataObject, budget: int) -> None:
        self.data = data
        self.left = budget
        self.rng: random.Random | None = None

    def reserve(self, most: int) -> None:
        """Before a step of ``most`` choices at most: past the budget (one kept for the
        seed), the rest of the game comes from the seeded generator."""
        if self.rng is None and most >= self.left:
            self.left -= 1
            self.rng = random.Random(self.data.draw(st.integers(0, 2**32 - 1), label="seed"))

    def index(self, n: int, label: str) -> int:
        """An index below ``n`` (shrinks towards 0)."""
        if self.rng is not None:
            return self.rng.randrange(n)
        assert self.left > 0, "reserve() before drawing"
        self.left -= 1
        return self.data.draw(st.integers(0, n - 1), label=label)

    def refill(self, state: GameState) -> Refill:
        """The next deal (:func:`_deal`, four choices per factory)."""
        cost = 4 * len(state.factories)
        self.reserve(cost)
        if self.rng is not None:
            rng = self.rng
            return fill_factories(state, lambda present: present[rng.randrange(len(present))])
        self.left -= cost
        return self.data.draw(_deal(state), label="deal")

    def move(self, state: GameState) -> Move:
        """One of ``state``'s legal moves (shrinks towards the first)."""
        self.reserve(1)
        legal = state.legal_moves()
        return legal[self.index(len(legal), "move")]

    def pad(self) -> None:
        """Spend the rest of the budget."""
        if self.left > 0:
            self.data.draw(_padding(self.left))
            self.left = 0


@attrs.frozen
class _Round:
    """One round of a disagreeing game: its deal (the tiles of each factory) and the
    moves played in it, takes and grey tilings."""

    deal: tuple[tuple[Color, ...], ...]
    moves: tuple[Move, ...]


@attrs.frozen
class _Decisions:
    """A disagreeing game as :class:`_Replay` replays its variations: who plays, and
    each round's deal and moves."""

    players: int
    variant: Variant
    first: int
    rounds: tuple[_Round, ...]

    @classmethod
    def of(cls, record: GameRecord) -> _Decisions:
        rounds: list[_Round] = []
        for move in record.moves:
            if isinstance(move, Refill):
                rounds.append(_Round(move.factories, ()))
            else:
                rounds[-1] = attrs.evolve(rounds[-1], moves=(*rounds[-1].moves, move))
        return cls(record.players, record.variant, record.first_player or 0, tuple(rounds))

    def key(self, length: int) -> tuple[int, ...]:
        """Smaller is simpler: a game of fewer moves (refills included), fewer players,
        a lower first player, fewer rounds and moves given, fewer colours per factory."""
        given = sum(len(r.moves) for r in self.rounds)
        colors = sum(len(set(factory)) for r in self.rounds for factory in r.deal)
        return (length, self.players, self.first, len(self.rounds), given, colors)

    def with_round(self, at: int, changed: _Round | None) -> _Decisions:
        """Round ``at`` changed, or left out (None)."""
        rounds = (*self.rounds[:at], *(() if changed is None else (changed,)),
                  *self.rounds[at + 1:])  # fmt: skip
        return attrs.evolve(self, rounds=rounds)


class _Replay:
    """The steps of a shrinking candidate: round by round, the deal's tiles where the bag
    (or the lid poured into it, R2) still holds them, else the first colour left; the
    moves given while they are legal, else the first legal move (for the rest of the
    round once one is not)."""

    def __init__(self, decisions: _Decisions) -> None:
        self.given = decisions
        self.rounds = decisions.rounds
        self.round = -1
        self.played = 0
        self.kept: list[_Round] = []
        """Each round's deal as dealt, and the moves given that were played."""

    def decisions(self) -> _Decisions:
        """What decided the game replayed: the same game replays from it."""
        return attrs.evolve(self.given, rounds=tuple(self.kept))

    def refill(self, state: GameState) -> Refill:
        self.round += 1
        self.played = 0
        deal = self.rounds[self.round].deal if self.round < len(self.rounds) else ()
        picked = 0

        def pick(present: list[Color]) -> Color:
            nonlocal picked
            factory, tile = divmod(picked, 4)
            picked += 1
            wanted = deal[factory] if factory < len(deal) else ()
            color = wanted[tile] if tile < len(wanted) else None
            return color if color in present else present[0]

        refill = fill_factories(state, pick)
        self.kept.append(_Round(refill.factories, ()))
        return refill

    def move(self, state: GameState) -> Move:
        legal = state.legal_moves()
        given = self.rounds[self.round].moves if self.round < len(self.rounds) else ()
        if self.played < len(given) and given[self.played] in legal:
            self.played += 1
            kept = self.kept[-1]
            self.kept[-1] = attrs.evolve(kept, moves=(*kept.moves, given[self.played - 1]))
            return given[self.played - 1]
        self.played = len(given)
        return max(legal, key=lambda move: _taken(state, move))

    def pad(self) -> None:
        """Nothing to spend: a replay's steps are not Hypothesis's."""


def _taken(state: GameState, move: Move) -> int:
    """How many tiles ``move`` takes (0 for a grey tiling's move)."""
    if not isinstance(move, Take):
        return 0
    source = state.center if move.source == CENTER else state.factories[move.source]
    return sum(tile == move.color for tile in source)


class _Search:
    """The state of one run, shared by the Hypothesis examples."""

    def __init__(
        self, engine: EngineProcess, info: EngineInfo, players: Sequence[int],
        variants: Sequence[Variant], deadline: float | None, shrink_time: float,
        limit: int | None = None, lang: str = "en",
    ) -> None:  # fmt: skip
        self.engine = engine
        self.info = info
        self.players = tuple(players)
        self.variants = tuple(variants)
        self.deadline = deadline
        self.shrink_time = shrink_time
        self.shrink_deadline: float | None = None
        self.best: Disagreement | None = None
        self.first_found: int | None = None
        self.limit = limit
        self.lang = lang
        self.games = 0
        self.cut = 0
        self.abandoned = 0
        self.shrink_games = 0
        self.moves = 0
        self.played: Counter[tuple[int, Variant]] = Counter()
        self.failure: ProtocolError | None = None
        self.stopped = False
        self.starts: list[Disagreement] = []
        """The first disagreement found and the shortest: where :meth:`shorten` starts."""
        self.last: Disagreement | None = None

    def example(self, data: st.DataObject) -> None:
        """One game, stopped at the first disagreement (raised as ``_Found``); the
        search ends after ``limit`` games."""
        now = time.monotonic()
        late = self.shrink_deadline is not None and now > self.shrink_deadline
        searching = self.best is None
        if late or (searching and self.deadline is not None and now > self.deadline):
            self.stopped = True
            raise _Stop
        if searching and self.limit is not None and self.games >= self.limit:
            self.stopped = True
            raise _Stop
        try:
            self._play(data)
        except ProtocolError as error:
            self.failure = error
            self.stopped = True
            raise _Stop from None

    def _play(self, data: st.DataObject) -> None:
        players = self.players[data.draw(st.integers(0, len(self.players) - 1), label="players")]
        variant = self.variants[data.draw(st.integers(0, len(self.variants) - 1),
                                          label="variant")]  # fmt: skip
        first = data.draw(st.integers(0, players - 1), label="first player")
        searching = self.best is None
        outcome: str | None = None  # stays None when Hypothesis ends the game
        choices = _Choices(data, CHOICES[max(self.players)])
        try:
            outcome = self._game(choices, players, variant, first)
            choices.pad()  # the game is compared: it counts even if this were cut short
        except (_Found, ProtocolError):
            outcome = "stopped"
            raise
        finally:
            self._count(players, variant, searching, outcome)

    def _count(self, players: int, variant: Variant, searching: bool, outcome: str | None) -> None:
        """A game of the search counts once compared to its end, to ``MAX_MOVES``, to a
        disagreement or to a protocol failure; every game of the shrinking counts apart."""
        if not searching:
            self.shrink_games += 1
        elif outcome is None:
            self.abandoned += 1
        else:
            self.games += 1
            self.played[players, variant] += 1
            self.cut += outcome == "cut"

    def _game(
        self, choices: _Choices | _Replay, players: int, variant: Variant, first: int,
        limit: int | None = None,
    ) -> str | None:  # fmt: skip
        """Play one game; ``"ended"`` or ``"cut"`` (at ``MAX_MOVES``), or None when a
        shrinking game grows as long as ``limit`` moves (by default, as the shortest
        disagreement)."""
        if limit is None and self.best is not None:
            limit = self.best.moves
        start = new_game(players, variant=variant, first_player=first, external_draws=True)
        dealt = choices.refill(start)
        state = start.apply(dealt)
        moves: list[Move] = [dealt]
        record = GameRecord((), players, 0, variant, first, True)
        self.engine.new_game(players, variant, first, dealt.factories)
        self._compare(Step(None, dealt, state), record, moves)
        while not state.is_over and len(moves) < MAX_MOVES:
            if limit is not None and len(moves) >= limit:
                return None  # only a shorter disagreement is of interest now
            is_refill = state.phase is GamePhase.REFILL
            move = choices.refill(state) if is_refill else choices.move(state)
            moves.append(move)
            refused = self._send(state, move)
            after = state.apply(move)
            step = Step(state, move, after)
            if refused is not None:
                self._found(record, moves, step, [refused])
            self._compare(step, record, moves)
            state = after
            self.moves += 1
        return "ended" if state.is_over else "cut"

    # -- shortening a disagreement past Hypothesis's shrinking ------------------------------

    def shorten(self) -> None:
        """Shorten the disagreement found, after Hypothesis's shrinking and until
        ``shrink_time`` is up: from the first disagreeing game found, then from the
        shortest, replay variations of its rounds (:class:`_Shortening`), keeping each
        simpler game that breaks the same rule.  Hypothesis's shrinker can neither drop a
        move or a round nor lower the player count and keep the moves after them (its
        choices would shift, and mean other moves); these replays can."""
        for found in list(self.starts):
            if self.late():
                return
            try:
                _Shortening(self, found).run()
            except ProtocolError as error:
                self.failure = error
                return

    def late(self) -> bool:
        """Is the time for shrinking up?"""
        return self.shrink_deadline is not None and time.monotonic() > self.shrink_deadline

    def replay(self, decisions: _Decisions, limit: int) -> tuple[Disagreement, _Decisions] | None:
        """Replay ``decisions``'s game to its disagreement (and what decided it, as far as
        it went), or None when it agrees for ``limit`` moves or to its end."""
        self.last = None
        self.shrink_games += 1
        replay = _Replay(decisions)
        try:
            self._game(replay, decisions.players, decisions.variant, decisions.first, limit)
        except _Found:
            assert self.last is not None
            return self.last, replay.decisions()
        return None

    def _send(self, state: GameState, move: Move) -> Difference | None:
        try:
            if isinstance(move, Refill):
                self.engine.refill(move.factories)
            else:
                self.engine.apply(move, state.current_player)
        except Refusal as refusal:
            return refusal_difference(state, move, refusal.code, refusal.message)
        return None

    def _compare(self, step: Step, record: GameRecord, moves: list[Move]) -> None:
        state = step.after
        found = view_differences(step, self.engine.view(len(state.players)))
        waiting = state.phase in (GamePhase.FACTORY_OFFER, GamePhase.WALL_TILING)
        if self.info.legal_moves and waiting:
            found += move_set_differences(state, self.engine.legal_moves(), self.lang)
        if found:
            self._found(record, moves, step, found)

    def _found(
        self, record: GameRecord, moves: list[Move], step: Step, found: list[Difference]
    ) -> None:
        disagreement = Disagreement(attrs.evolve(record, moves=tuple(moves)), step, tuple(found))
        self.last = disagreement
        if self.first_found is None:
            self.first_found = disagreement.moves
            self.shrink_deadline = time.monotonic() + self.shrink_time
            self.starts.append(disagreement)
        if self.best is None or disagreement.moves < self.best.moves:
            self.best = disagreement
            self.starts[1:] = [disagreement]
        raise _Found(str(found[0]))


class _Shortening:
    """Greedy passes over the rounds of one disagreeing game, each variation replayed
    (:meth:`_Search.replay`) and kept when it breaks the same rule in a simpler game
    (:meth:`_Decisions.key`): fewer players or a lower first player; a round left out
    (its deal and moves: the next round's are played in its place); runs of 8, 4, 2 and
    1 moves left out; a factory dealt one colour.  The passes repeat until none helps or
    the time for shrinking is up."""

    def __init__(self, search: _Search, found: Disagreement) -> None:
        self.search = search
        self.rule = found.rule
        self.decisions = _Decisions.of(found.record)
        self.length = found.moves

    def run(self) -> None:
        while not self.search.late():
            length = self.length
            self._fewer_players()
            self._fewer_rounds()
            self._fewer_moves()
            self._fewer_colors()
            if self.length == length:
                return  # a round of passes that only simplified: the game is as short

    def _try(self, candidate: _Decisions) -> bool:
        """Replay ``candidate``; keep it if it breaks the rule in a simpler game."""
        if self.search.late():
            return False
        replayed = self.search.replay(candidate, self.length + 1)
        if replayed is None or replayed[0].rule != self.rule:
            return False
        found, decisions = replayed
        if decisions.key(found.moves) >= self.decisions.key(self.length):
            return False
        self.decisions, self.length = decisions, found.moves
        return True

    def _fewer_players(self) -> None:
        for players in sorted(self.search.players):
            if players < self.decisions.players:
                first = min(self.decisions.first, players - 1)
                self._try(attrs.evolve(self.decisions, players=players, first=first))
        for first in range(self.decisions.first):
            self._try(attrs.evolve(self.decisions, first=first))

    def _fewer_rounds(self) -> None:
        at = 0
        while at < len(self.decisions.rounds) - 1:
            if not self._try(self.decisions.with_round(at, None)):
                at += 1

    def _fewer_moves(self) -> None:
        for run in (8, 4, 2, 1):
            for at in range(len(self.decisions.rounds)):
                move = 0
                while at < len(self.decisions.rounds) and not self.search.late():
                    round_ = self.decisions.rounds[at]
                    if move >= len(round_.moves):
                        break
                    moves = round_.moves[:move] + round_.moves[move + run :]
                    shorter = attrs.evolve(round_, moves=moves)
                    if not self._try(self.decisions.with_round(at, shorter)):
                        move += 1

    def _fewer_colors(self) -> None:
        for at in range(len(self.decisions.rounds)):
            for factory in range(7):
                if at >= len(self.decisions.rounds):
                    return
                round_ = self.decisions.rounds[at]
                if factory >= len(round_.deal) or len(set(round_.deal[factory])) < 2:
                    continue
                tiles = round_.deal[factory]
                for color in sorted(set(tiles), key=tiles.count, reverse=True):
                    deal = _replaced(round_.deal, factory, (color,) * len(tiles))
                    if self._try(self.decisions.with_round(at, attrs.evolve(round_, deal=deal))):
                        break


def _replaced(items: tuple[Any, ...], at: int, item: Any) -> tuple[Any, ...]:
    return items[:at] + (item,) + items[at + 1 :]


def run(
    command: str | Sequence[str],
    *,
    players: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant] | None = None,
    games: int | None = None,
    time_budget: float | None = None,
    seed: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    shrink_time: float = 60.0,
    lang: str = "en",
) -> Report:
    """Play games through the referee and the engine ``command`` side by side.

    ``games`` games (default 100; fewer when a disagreement is found first, and then
    more are replayed while shrinking it), or as many as ``time_budget`` seconds allow; the
    variants the engine declares in ``hello`` unless ``variants`` is given; ``timeout``
    seconds at most for each reply; ``shrink_time`` seconds at most for shrinking a
    disagreement.  The same ``seed`` and a deterministic engine give the same report.
    ``lang`` (``"en"``, ``"fr"``...) is the language of the referee's verdicts quoted in
    the differences.  Never raises for the engine's failures: they are in
    ``Report.failure``; raises ``ValueError`` for an unknown ``lang``.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {shown(lang)}: expected one of {', '.join(LANGUAGES)}")
    seed = random.randrange(2**32) if seed is None else seed
    text = command if isinstance(command, str) else " ".join(command)
    started = time.monotonic()
    try:
        engine = EngineProcess(command, timeout=timeout)
    except ProtocolError as error:
        return Report(text, seed, 0, 0, 0.0, failure=error)
    try:
        info = engine.hello()
        chosen = tuple(variants) if variants else info.variants
        unknown = [v.value for v in chosen if v not in info.variants]
        if unknown:
            plays = ", ".join(v.value for v in info.variants)
            raise ProtocolError(
                f"the engine does not play the {', '.join(unknown)} wall (its hello lists {plays})"
            )
        deadline = started + time_budget if time_budget is not None else None
        budget = games if games is not None else (None if time_budget else DEFAULT_GAMES)
        search = _Search(engine, info, players, chosen, deadline, shrink_time, budget, lang)
        _hypothesis_run(search, 10**9 if budget is None else budget, seed)
        if search.best is not None and search.failure is None:
            search.shorten()
    except ProtocolError as error:
        return Report(text, seed, 0, 0, time.monotonic() - started, failure=error)
    finally:
        engine.close()
    played = tuple((n, v, k) for (n, v), k in sorted(search.played.items()))
    return Report(
        text, seed, search.games, search.moves, time.monotonic() - started, info,
        search.best, search.failure, search.first_found, played, search.shrink_games,
        search.cut, search.abandoned,
    )  # fmt: skip


def _hypothesis_run(search: _Search, examples: int, seed: int) -> None:
    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate, Phase.shrink],
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
    )
    @given(st.data())
    def differential(data: st.DataObject) -> None:
        search.example(data)

    try:
        differential()
    except _Stop:
        pass
    except Exception:  # the disagreement, a flaky engine, or Hypothesis minding the stop
        if search.best is None and search.failure is None and not search.stopped:
            raise
