"""Property-based testing with Hypothesis: strategies and a state machine.

Needs Hypothesis, the ``testing`` extra (``pip install -e '.[testing]'`` in the project's
checkout).  Everything here is public::

    from hypothesis import given
    from azul_rules import testing as azt

    @given(azt.game_states(players=[4], stage="near_end"))
    def test_my_ui_draws_any_position(state): ...

* :func:`colors`, :func:`game_states`, :func:`legal_moves`, :func:`illegal_moves`,
  :func:`table_takes`, :func:`game_records` return ``SearchStrategy`` objects;
* :class:`RefereeMachine` drives random games through the referee and checks its
  invariants; :func:`differential_machine` plugs another implementation of Azul into a
  :class:`GameMachine` and compares the two move by move (see
  ``examples/differential_testing.py``);
* :func:`protocol_engine` gives that implementation for any program speaking the engine
  protocol (``docs/engine-protocol.md``), whatever its language.

``st.from_type(GameState)`` (and ``Color``, ``GameRecord``) works once both Hypothesis
and ``azul_rules`` are imported: the ``hypothesis`` entry point registers functions, so
neither import is slowed by the other.

Layer: engine testing (this package also holds the engine protocol, the engine process
and ``differential``).  May import the AI doors (``azul_rules.ai.spiel``, lazily),
``actions``, ``svg``, ``adjudication``, ``formats`` and ``core``; only the command
line, the reference engine and the web judge sit above it.
"""

from __future__ import annotations

import atexit
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal, Protocol, cast

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from azul_rules.core.board import PlayerBoard
from azul_rules.core.colors import CENTER, COLORS, FLOOR, MARKER, Color
from azul_rules.core.errors import ErrorCode, IllegalMoveError
from azul_rules.core.moves import Move, PlaceTile, Refill, TableTake, Take
from azul_rules.core.phases import Phase, Variant
from azul_rules.core.shown import shown
from azul_rules.core.state import GameState, new_game
from azul_rules.formats.record import GameRecord
from azul_rules.testing.conformance import (
    Difference,
    Step,
    move_set_differences,
    refusal_difference,
)
from azul_rules.testing.conformance import view_differences as _view_differences
from azul_rules.testing.engine_process import DEFAULT_TIMEOUT, EngineProcess, Refusal, check_timeout
from azul_rules.testing.protocol import EngineInfo

__all__ = [
    "GameMachine",
    "Implementation",
    "ProtocolEngine",
    "RefereeMachine",
    "Stage",
    "colors",
    "differential_machine",
    "game_records",
    "game_states",
    "illegal_moves",
    "legal_moves",
    "protocol_engine",
    "refills",
    "spiel_differential_machine",
    "table_takes",
    "tile_counts",
]

Stage = Literal["any", "near_end", "starved"]
"""Which positions ``game_states`` aims at: any, close to the end (a wall row with 4
tiles), or with a nearly empty bag (refills will need the lid, or fall short)."""

E = ErrorCode


def colors() -> st.SearchStrategy[Color]:
    """Any tile colour."""
    return st.sampled_from(COLORS)


def tile_counts(state: GameState) -> dict[Color, int]:
    """Every tile of ``state`` by colour, wherever it lies (20 each in a valid state)."""
    counts = dict.fromkeys(COLORS, 0)
    places: list[Sequence[Color]] = [state.bag, state.lid, state.center, *state.factories]
    for tiles in places:
        for tile in tiles:
            counts[tile] += 1
    for board in state.players:
        for row in board.wall:
            for space in row:
                if space is not None:
                    counts[space] += 1
        for line in board.pattern_lines:
            if line.color is not None:
                counts[line.color] += line.count
        for item in board.floor:
            if isinstance(item, Color):
                counts[item] += 1
    return counts


def _reached(state: GameState, stage: Stage) -> bool:
    if stage == "near_end":
        return any(sum(t is not None for t in row) >= 4 for b in state.players for row in b.wall)
    if stage == "starved":
        return len(state.bag) < 4 * len(state.factories)
    return False


def game_states(
    *,
    players: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant | str] = (Variant.COLORED, Variant.GREY),
    stage: Stage = "any",
    include_over: bool = True,
) -> st.SearchStrategy[GameState]:
    """Reachable positions: a seeded game played by random legal moves.

    ``stage`` aims at near-end or starved-bag positions (when a game reaches none, its
    last position before the end is used); ``include_over=False`` never gives a finished
    game.  Every state drawn passes ``state.problems()``.  ``variants`` takes
    ``Variant`` values or their names (``"grey"``).

    :raises ValueError: at once (not at the first draw) for ``players`` or ``variants``
        that are not a non-empty list of 2-4 and of walls, a ``stage`` other than
        ``"any"``, ``"near_end"`` and ``"starved"``, or an ``include_over`` that is not a
        bool.
    """
    if stage not in _STAGES:
        raise ValueError(f"stage is one of {', '.join(map(repr, _STAGES))}, not {shown(stage)}")
    if type(include_over) is not bool:
        raise ValueError(f"include_over is True or False, not {shown(include_over)}")
    return _game_states(players=_player_counts(players, "players"),
                        variants=_variants(variants), stage=stage,
                        include_over=include_over)  # fmt: skip


_STAGES: Final = ("any", "near_end", "starved")


@st.composite
def _game_states(
    draw: st.DrawFn,
    *,
    players: Sequence[int],
    variants: Sequence[Variant],
    stage: Stage,
    include_over: bool,
) -> GameState:
    count = draw(st.sampled_from(tuple(players)), label="players")
    variant = draw(st.sampled_from(tuple(variants)), label="variant")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    chooser = random.Random(draw(st.integers(0, 2**32 - 1), label="moves"))
    depth = draw(st.integers(0, 150), label="depth") if stage == "any" else 2_000
    state = new_game(count, seed=seed, variant=variant)
    hoard = stage == "starved"
    for _ in range(depth):
        if state.is_over or _reached(state, stage):
            break
        moves = state.legal_moves()
        if hoard:  # keep tiles in pattern lines, out of the lid, to starve the bag
            moves = tuple(m for m in moves if not isinstance(m, Take) or m.line != FLOOR) or moves
        following = state.apply(chooser.choice(moves))
        if following.is_over and (not include_over or stage != "any"):
            break
        state = following
    return state


def legal_moves(state: GameState) -> st.SearchStrategy[Take | PlaceTile]:
    """One of the legal compact moves of ``state`` (which must have one)."""
    return st.sampled_from(state.legal_moves())


@st.composite
def refills(draw: st.DrawFn, state: GameState) -> Refill:
    """A draw the table could make to fill ``state``'s factories (R2): four tiles per
    factory from the bag; when the bag runs out, the whole lid goes into it and filling
    goes on; when both are empty the remaining factories stay short or empty.  Shrinks
    towards the first colour (blue) present.  ``state`` waits for a refill (external
    draws, ``Phase.REFILL``), or is any position whose bag and lid are to be drawn from.
    """
    return fill_factories(state, lambda present: draw(st.sampled_from(present)))


def fill_factories(state: GameState, pick: Callable[[list[Color]], Color]) -> Refill:
    """The draw of :func:`refills`, tile by tile, with ``pick`` choosing each tile's
    colour among the colours left in the bag (in ``COLORS`` order): at most four tiles
    per factory (R2).  ``azul-rules differential`` picks with its own choices, counted;
    not in ``__all__``: a building block, not part of the testing kit."""
    bag = dict.fromkeys(COLORS, 0)
    for tile in state.bag:
        bag[tile] += 1
    lid = list(state.lid)
    factories = []
    for _ in state.factories:
        tiles: list[Color] = []
        while len(tiles) < 4:
            if not any(bag.values()):
                if not lid:
                    break
                for tile in lid:  # R2: the lid goes into the bag
                    bag[tile] += 1
                lid = []
            tile = pick([c for c in COLORS if bag[c]])
            bag[tile] -= 1
            tiles.append(tile)
        factories.append(tuple(tiles))
    return Refill(tuple(factories))


def illegal_moves(state: GameState) -> st.SearchStrategy[tuple[Move, ErrorCode]]:
    """An illegal move of ``state`` with the code its verdict must start with.

    The label is worked out here from the rules, independently of the referee's checks.
    """
    return st.sampled_from(_illegal_candidates(state))


def _illegal_candidates(state: GameState) -> list[tuple[Move, ErrorCode]]:
    n_factories = len(state.factories)
    other = (state.current_player + 1) % len(state.players)
    wrong_size = Refill(((Color.BLUE,) * 5,) + ((),) * (n_factories - 1))
    if state.phase is Phase.GAME_OVER:
        return [(Take(0, Color.BLUE, 0), E.GAME_OVER), (wrong_size, E.GAME_OVER),
                (PlaceTile(0, 0), E.GAME_OVER)]  # fmt: skip
    if state.phase is Phase.REFILL:
        short = Refill(((),) * (n_factories - 1))
        return [(Take(0, Color.BLUE, 0), E.WRONG_PHASE), (wrong_size, E.FILL_IMPOSSIBLE),
                (short, E.FILL_IMPOSSIBLE), (PlaceTile(0, 0), E.WRONG_PHASE)]  # fmt: skip
    if state.phase is Phase.WALL_TILING:
        return _illegal_placements(state, other)
    return _illegal_takes(state, other)


def _illegal_placements(state: GameState, other: int) -> list[tuple[Move, ErrorCode]]:
    board = state.players[state.current_player]
    found: list[tuple[Move, ErrorCode]] = [
        (Take(0, Color.BLUE, 0), E.WRONG_PHASE),
        (PlaceTile(0, 7), E.NO_SUCH_LINE),
    ]
    legal = state.legal_moves()
    first = legal[0]
    assert isinstance(first, PlaceTile)
    found.append((PlaceTile(first.line, first.column, player=other), E.NOT_YOUR_TURN))
    row = first.line
    color = board.pattern_lines[row].color
    for column in range(5):
        if board.wall[row][column] is not None:
            found.append((PlaceTile(row, column), E.SPACE_OCCUPIED))
        elif any(board.wall[r][column] == color for r in range(5)):
            found.append((PlaceTile(row, column), E.COLUMN_COLOR_CONFLICT))
    for later in range(row + 1, 5):
        found.append((PlaceTile(later, 0), E.WRONG_PHASE))  # not next, or not complete
    return found


def _source_tiles(state: GameState, source: int) -> tuple[Color, ...]:
    return state.center if source == CENTER else state.factories[source]


def _illegal_takes(state: GameState, other: int) -> list[tuple[Move, ErrorCode]]:
    board = state.players[state.current_player]
    n_factories = len(state.factories)
    found: list[tuple[Move, ErrorCode]] = [
        (PlaceTile(0, 0), E.WRONG_PHASE),
        (Refill(((),) * n_factories), E.WRONG_PHASE),
        (Take(n_factories, Color.RED, FLOOR), E.NO_SUCH_SOURCE),
        (Take(n_factories + 3, Color.RED, 0), E.NO_SUCH_SOURCE),
    ]
    sources = [*range(n_factories), CENTER]
    for source in sources:
        tiles = _source_tiles(state, source)
        if not tiles:
            found.append((Take(source, Color.BLUE, FLOOR), E.EMPTY_SOURCE))
            continue
        found.append((Take(source, MARKER, FLOOR), E.MARKER_ALONE))
        present = sorted(set(tiles))
        if len(present) > 1:
            both = (present[0], present[1])
            found.append((TableTake(source, both, 2, {FLOOR: 2}), E.TWO_COLORS))
        for color in COLORS:
            if color not in tiles:
                found.append((Take(source, color, FLOOR), E.COLOR_NOT_IN_SOURCE))
                continue
            found.append((Take(source, color, FLOOR, player=other), E.NOT_YOUR_TURN))
            found.append((Take(source, color, 6), E.NO_SUCH_LINE))
            for line in range(5):
                code = _line_refusal(board, line, color)
                if code is not None:
                    found.append((Take(source, color, line), code))
    for move, mistake in _table_mistakes(state):
        found.append((move, mistake))
    return found


def _line_refusal(board: PlayerBoard, line: int, color: Color) -> ErrorCode | None:
    """Why pattern line ``line`` refuses ``color`` (P2-P4), or None when it accepts."""
    pattern = board.pattern_lines[line]
    if pattern.color is not None and pattern.color != color:
        return E.LINE_COLOR_MISMATCH
    if pattern.count == pattern.capacity:
        return E.LINE_FULL
    if pattern.color is None and color in board.wall[line]:
        return E.WALL_COLOR_CONFLICT
    return None


def _legal_table_take(state: GameState, take: Take) -> TableTake:
    assert isinstance(take.color, Color)
    count = _source_tiles(state, take.source).count(take.color)
    if take.line == FLOOR:
        return TableTake(take.source, take.color, count, {FLOOR: count})
    room = state.players[state.current_player].pattern_lines[take.line].room
    placed = min(room, count)
    placements = {take.line: placed}
    if count > placed:
        placements[FLOOR] = count - placed
    return TableTake(take.source, take.color, count, placements)


def _table_mistakes(state: GameState) -> list[tuple[TableTake, ErrorCode]]:
    """Each documented mistake of a physical take, built from a legal take."""
    board = state.players[state.current_player]
    found: list[tuple[TableTake, ErrorCode]] = []
    for take in state.legal_moves():
        assert isinstance(take, Take) and isinstance(take.color, Color)
        source, color = take.source, take.color
        count = _source_tiles(state, source).count(color)
        if take.line == FLOOR:
            found.append(
                (TableTake(source, color, count + 1, {FLOOR: count + 1}), E.TOO_MANY_TAKEN)
            )
            if count > 1:
                found.append(
                    (TableTake(source, color, count - 1, {FLOOR: count - 1}), E.PARTIAL_TAKE)
                )
                found.append(
                    (TableTake(source, color, count, {FLOOR: count - 1}), E.TILE_COUNT_MISMATCH)
                )
            continue
        room = board.pattern_lines[take.line].room
        if count > 1 and min(count, room) > 1:
            found.append((TableTake(source, color, count, {take.line: 1, FLOOR: count - 1}),
                          E.FLOOR_WHILE_ROOM))  # fmt: skip
        if count > 1:
            for other_line in range(5):
                if other_line != take.line:
                    split = {take.line: 1, other_line: count - 1}
                    found.append((TableTake(source, color, count, split), E.SPLIT_LOT))
                    break
    return found


def table_takes(
    state: GameState, *, mistake: ErrorCode | None = None
) -> st.SearchStrategy[TableTake]:
    """A physical take in ``state``: a legal one (``mistake=None``), or one making the
    given documented mistake (``PARTIAL_TAKE``, ``SPLIT_LOT``, ``FLOOR_WHILE_ROOM``,
    ``TILE_COUNT_MISMATCH``, ``TOO_MANY_TAKEN``), whose verdict starts with that code.
    The state must be in its factory offer."""
    if mistake is None:
        takes = [m for m in state.legal_moves() if isinstance(m, Take)]
        return st.sampled_from([_legal_table_take(state, t) for t in takes])
    matching = [move for move, code in _table_mistakes(state) if code is mistake]
    if not matching:
        return st.nothing()
    return st.sampled_from(matching)


def game_records(
    *,
    players: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant | str] = (Variant.COLORED, Variant.GREY),
    finished: bool = True,
) -> st.SearchStrategy[GameRecord]:
    """A record of a game of random legal moves (to its end when ``finished``; a grey
    game that starves and cannot end is cut after 2,000 moves).

    :raises ValueError: at once for arguments :func:`game_states` refuses, or a
        ``finished`` that is not a bool.
    """
    if type(finished) is not bool:
        raise ValueError(f"finished is True or False, not {shown(finished)}")
    return _game_records(players=_player_counts(players, "players"),
                         variants=_variants(variants), finished=finished)  # fmt: skip


@st.composite
def _game_records(
    draw: st.DrawFn,
    *,
    players: Sequence[int],
    variants: Sequence[Variant],
    finished: bool,
) -> GameRecord:
    count = draw(st.sampled_from(tuple(players)))
    variant = draw(st.sampled_from(tuple(variants)))
    seed = draw(st.integers(0, 2**32 - 1))
    chooser = random.Random(draw(st.integers(0, 2**32 - 1)))
    limit = 2_000 if finished else draw(st.integers(0, 120))
    state = new_game(count, seed=seed, variant=variant)
    moves: list[Move] = []
    while not state.is_over and len(moves) < limit:
        move = chooser.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    return GameRecord(tuple(moves), count, seed, variant)


# -- the state machine ---------------------------------------------------------------------


class Implementation(Protocol):
    """Another implementation of Azul, adapted for :func:`differential_machine`.

    ``start`` receives the referee's initial position (``azul_rules.to_dict(state)``
    gives it as JSON-ready data); ``play`` receives each legal move in turn (seeded
    refills happen inside the move that ends a round, as in the referee); ``scores``
    returns every player's score now.
    """

    def start(self, state: GameState) -> None: ...

    def play(self, move: Move) -> None: ...

    def scores(self) -> Sequence[int]: ...


class GameMachine(RuleBasedStateMachine):
    """Plays random games through the referee, one legal move per step, and calls
    :meth:`on_start` and :meth:`on_move` so that a subclass can check anything it likes
    (``apply`` leaving its input alone is always checked)."""

    player_counts: Sequence[int] = (2, 3, 4)
    variants: Sequence[Variant] = (Variant.COLORED, Variant.GREY)

    def __init__(self) -> None:
        super().__init__()
        self.state = new_game()

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        """A new game: players, variant and seed drawn."""
        self._new_game(data)

    @precondition(lambda self: self.state.is_over)
    @rule(data=st.data())
    def play_again(self, data: st.DataObject) -> None:
        """The game is over: a new one, so that a run plays on for all its steps
        (otherwise Hypothesis finds no rule to apply once a game ends)."""
        self._new_game(data)

    def _new_game(self, data: st.DataObject) -> None:
        players = data.draw(st.sampled_from(tuple(self.player_counts)), label="players")
        variant = data.draw(st.sampled_from(tuple(self.variants)), label="variant")
        seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        self.state = new_game(players, seed=seed, variant=variant)
        self.on_start(self.state)

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def play_legal_move(self, data: st.DataObject) -> None:
        """A legal move; its input state must not change."""
        before = self.state
        snapshot = hash(before), repr(before.players)
        move = data.draw(legal_moves(before), label="move")
        after = before.apply(move)
        assert (hash(before), repr(before.players)) == snapshot, "apply changed its input"
        self.state = after
        self.on_move(before, move, after)

    def on_start(self, state: GameState) -> None:
        """Called with each new game's first state."""

    def on_move(self, before: GameState, move: Move, after: GameState) -> None:
        """Called after each legal move."""


class RefereeMachine(GameMachine):
    """A :class:`GameMachine` that also checks the referee's invariants after every
    step: 20 tiles of each colour, no negative score, every listed legal move accepted
    by ``validate``, and labelled illegal moves refused with their code."""

    @rule(data=st.data())
    def refuse_illegal_move(self, data: st.DataObject) -> None:
        """A labelled illegal move is refused, with its code first."""
        move, code = data.draw(illegal_moves(self.state), label="illegal move")
        result = self.state.validate(move)
        assert result.code is code, f"{move}: expected {code.value}, got {result}"
        try:
            self.state.apply(move)
        except IllegalMoveError as error:
            assert error.result == result
        else:
            raise AssertionError(f"apply accepted the illegal move {move}")

    @invariant()
    def tiles_are_accounted_for(self) -> None:
        """S3: 20 tiles of each colour, always."""
        assert tile_counts(self.state) == dict.fromkeys(COLORS, 20)

    @invariant()
    def scores_are_never_negative(self) -> None:
        """W4: scores never drop below 0."""
        assert all(b.score >= 0 for b in self.state.players)

    @invariant()
    def legal_moves_are_all_valid(self) -> None:
        """Every listed move is accepted; none is listed twice."""
        moves = self.state.legal_moves()
        assert len(set(moves)) == len(moves)
        assert all(self.state.validate(m).ok for m in moves)


def differential_machine(
    implementation: Callable[[], Implementation] | str,
    *,
    player_counts: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant] = (Variant.COLORED, Variant.GREY),
) -> type[GameMachine]:
    """A :class:`GameMachine` that also plays every move on a fresh ``implementation()``
    and fails as soon as its scores differ from the referee's (or, for an
    implementation with a ``differences()`` method such as :func:`protocol_engine`'s, as
    soon as that method lists one).  Only legal moves are
    played, so Hypothesis shrinks a failure to a short game quickly.

    Use it from a test module: ``TestMine = differential_machine(MyAdapter).TestCase``.

    ``implementation`` may also be the name of an OpenSpiel Azul game
    (``differential_machine("python_azul")``): that is
    :func:`spiel_differential_machine` with its defaults.

    :raises TypeError: for an ``implementation`` that is neither callable nor a name.
    :raises ValueError: for a name, as :func:`spiel_differential_machine`.
    """
    if isinstance(implementation, str):
        return spiel_differential_machine(
            implementation, player_counts=player_counts, variants=variants
        )
    if not callable(implementation):
        raise TypeError(
            "differential_machine() takes a callable returning an implementation, or the "
            f"name of an OpenSpiel Azul game, not {shown(implementation)}"
        )
    factory: Callable[[], Implementation] = implementation

    class DifferentialMachine(GameMachine):
        def on_start(self, state: GameState) -> None:
            self.other = factory()
            self.other.start(state)
            self._compare(state, None)

        def on_move(self, before: GameState, move: Move, after: GameState) -> None:
            self.other.play(move)
            self._compare(after, move)

        def _compare(self, state: GameState, move: Move | None) -> None:
            detailed = getattr(self.other, "differences", None)
            if callable(detailed):
                found = detailed()
                if found:
                    raise AssertionError(f"after {move}: " + "; ".join(map(str, found)))
                return
            expected = tuple(b.score for b in state.players)
            got = tuple(self.other.scores())
            if got != expected:
                raise AssertionError(
                    f"after {move}: the implementation's scores are {got}, the referee's "
                    f"{expected}{_describe_tiling(state)}"
                )

    DifferentialMachine.player_counts = tuple(player_counts)
    DifferentialMachine.variants = tuple(variants)
    DifferentialMachine.__name__ = (
        f"DifferentialMachine[{getattr(factory, '__name__', 'impl')}]"
    )
    return DifferentialMachine


def spiel_differential_machine(
    game: str = "python_azul",
    *,
    player_counts: Sequence[int] = (2, 3, 4),
    variants: Sequence[Variant | str] = (Variant.COLORED, Variant.GREY),
    parameters: Callable[[int, Variant], Mapping[str, Any]] | None = None,
    deal: Callable[[GameState, GameState | None], list[int]] | None = None,
    scores: Callable[[Any], Sequence[int]] | None = None,
) -> type[GameMachine]:
    """:func:`differential_machine` for an OpenSpiel Azul game loaded by name (needs the
    ``[openspiel]`` extra; ``import azul_rules.ai.spiel`` registers ``python_azul``).

    Besides the scores after every move, each step checks the player to move, the legal
    action ids (:mod:`azul_rules.ai.actions`), the end of the game and its winners; see
    :class:`azul_rules.ai.spiel.SpielImplementation` for ``parameters``, ``deal`` and
    ``scores``, needed by a game whose parameters, chance outcomes or observation
    differ from ``python_azul``'s.

    ``variants`` takes ``Variant`` values or the strings ``"colored"`` and ``"grey"``
    (``parameters`` receives ``Variant`` values).

    :raises ValueError: at once for a game OpenSpiel does not know, for player counts
        other than 2, 3 and 4, or for another variant, and for an empty or bare (not a
        list) ``player_counts`` or ``variants``.
    """
    import pyspiel

    from azul_rules.ai.spiel import SpielImplementation

    if not isinstance(game, str) or game not in pyspiel.registered_names():
        raise ValueError(
            f"OpenSpiel knows no game {shown(game)}: register it (import its module) first; "
            "python_azul is registered by importing azul_rules.ai.spiel"
        )
    counts = _player_counts(player_counts)
    walls = _variants(variants)

    def implementation() -> Implementation:
        return SpielImplementation(game, parameters=parameters, deal=deal, scores=scores)

    implementation.__name__ = game
    return differential_machine(implementation, player_counts=counts, variants=walls)


def _player_counts(player_counts: object, name: str = "player_counts") -> tuple[int, ...]:
    if isinstance(player_counts, (str, bytes)) or not isinstance(player_counts, Sequence):
        raise ValueError(f"{name} is a list such as (2, 3), not {shown(player_counts)}")
    if not player_counts or any(type(n) is not int or n not in (2, 3, 4) for n in player_counts):
        raise ValueError(
            f"{name} lists 2, 3 or 4 players (S1), at least one, not {shown(player_counts)}"
        )
    return tuple(player_counts)


def _variants(variants: object) -> tuple[Variant, ...]:
    if isinstance(variants, (str, bytes)) or not isinstance(variants, Sequence):
        raise ValueError(f"variants is a list such as ('colored',), not {shown(variants)}")
    if not variants or any(not isinstance(v, str) or v not in _VARIANT_NAMES for v in variants):
        raise ValueError(
            f"variants lists 'colored' or 'grey' (or Variant values), at least one, "
            f"not {shown(variants)}"
        )
    return tuple(Variant(v) for v in variants)


_VARIANT_NAMES = frozenset(v.value for v in Variant)


def _describe_tiling(state: GameState) -> str:
    """The referee's last tiling, for a failure message (rows and columns from 0)."""
    if state.last_scoring is None:
        return ""
    parts = []
    for tiling in state.last_scoring.players:
        placed = ", ".join(
            f"{p.color.name.lower()} at ({p.row}, {p.column}) runs "
            f"{p.horizontal}x{p.vertical} = {p.points}"
            for p in tiling.placements
        )
        parts.append(f"player {tiling.player}: {placed or 'nothing placed'}, "
                     f"floor -{tiling.floor_penalty}")  # fmt: skip
    return "; the referee's last tiling: " + "; ".join(parts)


# -- engines speaking the engine protocol -------------------------------------------------


class ProtocolEngine:
    """A factory of :class:`Implementation` objects backed by one engine process that
    speaks the engine protocol; see :func:`protocol_engine`.  The process starts at the
    first game, serves every game after it (each begins with ``new_game``), is started
    again if it has died, and is ended by :meth:`close` or at interpreter exit.

    :raises ValueError: for a ``timeout`` that is not a positive number of seconds.
    """

    def __init__(self, command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.timeout = check_timeout(timeout)
        self.command = command
        self.__name__ = "ProtocolEngine"
        self._process: EngineProcess | None = None
        self._info: EngineInfo | None = None
        atexit.register(self.close)

    def __call__(self) -> ProtocolImplementation:
        return ProtocolImplementation(self)

    def connect(self) -> tuple[EngineProcess, EngineInfo]:
        """The running engine and its ``hello``, started if need be.  A failed start or
        ``hello`` ends the process, so the next call starts it again (and raises
        :class:`~azul_rules.testing.protocol.ProtocolError` again if the engine still fails)."""
        process, info = self._process, self._info
        if process is not None and info is not None and process.running:
            return process, info
        self.close()
        process = EngineProcess(self.command, timeout=self.timeout)
        try:
            info = process.hello()
        except BaseException:
            process.close()
            raise
        self._process, self._info = process, info
        return process, info

    def close(self) -> None:
        """End the engine process (safe to call twice)."""
        process, self._process, self._info = self._process, None, None
        if process is not None:
            process.close()


class ProtocolImplementation:
    """One game on a protocol engine, as :func:`differential_machine` drives it:
    ``start``, ``play`` and ``scores``, plus ``differences()``, every fact of the engine's
    view, legal moves and refusals that differs from the referee's after the last step.

    :raises ~azul_rules.testing.protocol.ProtocolError: from its methods, when the engine
        breaks the protocol.
    """

    def __init__(self, engine: ProtocolEngine) -> None:
        self.engine = engine
        self.state: GameState | None = None
        self.step: Step | None = None
        self.refused: list[Difference] = []
        self._pending = False

    def start(self, state: GameState) -> None:
        """A new game: ``state`` is a fresh ``new_game`` (seeded, or with external draws
        and waiting for its first ``Refill``)."""
        process, _ = self.engine.connect()
        self.state, self.step, self.refused = state, None, []
        fresh = state.round == 1 and all(b == PlayerBoard() for b in state.players)
        if fresh and state.phase is Phase.REFILL:
            self._pending = True  # new_game goes with the first Refill
            return
        if not fresh or state.phase is not Phase.FACTORY_OFFER or state.center:
            raise ValueError(
                "the engine protocol starts games with new_game: start from a new game"
            )
        self._pending = False
        process.new_game(len(state.players), state.variant, state.current_player, state.factories)
        self.step = Step(None, Refill(state.factories), state)

    def play(self, move: Move) -> None:
        """Play the referee's legal ``move`` on the engine too (and, in a seeded game, the
        refill the referee drew inside it)."""
        process, _ = self.engine.connect()
        before = self.state
        assert before is not None, "start() first"
        after = before.apply(move)
        try:
            if self._pending and isinstance(move, Refill):
                self._pending = False
                n = len(before.players)
                process.new_game(n, before.variant, before.current_player, move.factories)
                self.state, self.step = after, Step(None, move, after)
                return
            if isinstance(move, Refill):
                process.refill(move.factories)
            else:
                process.apply(move, before.current_player)
            if before.rng_state is not None and _dealt_inside(before, after):
                process.refill(after.factories)
        except Refusal as refusal:
            self.refused.append(refusal_difference(before, move, refusal.code, refusal.message))
        self.state, self.step = after, Step(before, move, after)

    def scores(self) -> Sequence[int]:
        """The scores the engine reports."""
        process, _ = self.engine.connect()
        assert self.state is not None
        view = process.view(len(self.state.players))
        return tuple(
            cast(int, view[f"$.players[{i}].score"]) for i in range(len(self.state.players))
        )

    def differences(self) -> list[Difference]:
        """What differs between the engine and the referee after the last step."""
        if self.step is None:
            return []
        process, info = self.engine.connect()
        state = self.step.after
        found = list(self.refused)
        found += _view_differences(self.step, process.view(len(state.players)))
        if info.legal_moves and state.phase in (Phase.FACTORY_OFFER, Phase.WALL_TILING):
            found += move_set_differences(state, process.legal_moves())
        return found


def _dealt_inside(before: GameState, after: GameState) -> bool:
    """A seeded game drew the next round's factories inside the last move (or found
    nothing to deal, R6)."""
    if after.round > before.round and after.phase is Phase.FACTORY_OFFER:
        return True
    ended = after.is_over and after.last_scoring is not before.last_scoring
    return ended and not any(b.has_complete_row() for b in after.players)


def protocol_engine(
    command: str | Sequence[str], *, timeout: float = DEFAULT_TIMEOUT
) -> ProtocolEngine:
    """An implementation for :func:`differential_machine` backed by a program that speaks
    the engine protocol (``docs/engine-protocol.md``), in any language::

        engine = protocol_engine("node my-engine.js")
        TestMyEngine = differential_machine(engine, variants=[Variant.COLORED]).TestCase

    Every step compares the engine's reported view, its legal moves (when it lists them)
    and its refusals with the referee's.  ``timeout`` bounds each reply, in seconds.

    :raises ValueError: for a ``timeout`` that is not a positive number.
    """
    return ProtocolEngine(command, timeout=timeout)
