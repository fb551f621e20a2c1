"""The game state and the referee's entry points: ``legal_moves``, ``validate``, ``apply``.

A :class:`GameState` is an immutable value.  ``apply`` builds the successor in one go
and shares every unchanged part (boards, factories, bag, lid) with its parent.
"""

from __future__ import annotations

import itertools
from typing import Final, cast

import attrs

from azul_rules.core import rules
from azul_rules.core._accelerate import load_compiled, prefer_compiled, prefer_compiled_property
from azul_rules.core._slots import new_instance
from azul_rules.core.board import BOARD_SETTERS, LINES, NOT_LINE, ROOM_BIT, PlayerBoard
from azul_rules.core.codes import StateProblem
from azul_rules.core.colors import (
    CENTER,
    COLORS,
    FLOOR,
    FLOOR_SIZE,
    MARKER,
    SPLITS,
    Color,
    FloorItem,
    Tiles,
    color_counts,
    merge,
    subtract,
)
from azul_rules.core.errors import FormatError, IllegalMoveError, InvalidStateError, Result
from azul_rules.core.grey import (
    legal_columns,
    line_to_floor,
    next_line,
    placements_of,
    walls_can_end,
)
from azul_rules.core.moves import TAKE_OPTIONS, Move, PlaceTile, Refill, TableTake, Take
from azul_rules.core.phases import (
    FACTORY_OFFER,
    GAME_OVER,
    GREY,
    REFILL,
    WALL_TILING,
    Variant,
    variant_of,
)
from azul_rules.core.position import POSITION_SETTERS, Position, RoundContext, build, new_context
from azul_rules.core.problems import Problem, state_problems
from azul_rules.core.render import render_state
from azul_rules.core.rng import below, seed_state
from azul_rules.core.rounds import (
    draw_factories,
    finish_game,
    place_on_wall,
    settle_floor,
    tile_colored,
)
from azul_rules.core.rules import take_is_legal
from azul_rules.core.scoring import (
    PlayerTiling,
    new_scoring,
    new_tiling,
)
from azul_rules.core.shown import number, shown

__all__ = [
    "ACCELERATED", "FACTORY_COUNTS", "REFERENCES", "GameState", "RoundContext", "new_game",
]  # fmt: skip


FACTORY_COUNTS: Final = {2: 5, 3: 7, 4: 9}
"""Factory displays per player count (S2)."""

_ALL_TILES: Final[Tiles] = tuple(c for c in COLORS for _ in range(20))
_NEW_BOARD: Final = PlayerBoard()  # boards are immutable: every new game shares one

_Plan = tuple[tuple[tuple[tuple[Take, ...], ...], int], ...]
# A plan, for a source and the tiles it holds: for each colour there, the legal takes by
# mask of accepting lines, and the shift of that colour's mask in PlayerBoard.accepting.
# _PLANS[factory]: by factory contents, which repeat a lot (70 are possible); the tables
# are cleared if they grow.
_PLANS: Final[tuple[dict[Tiles, _Plan], ...]] = tuple({} for _ in range(9))


def _plan(source: int, tiles: Tiles) -> _Plan:
    plans = _PLANS[source]
    if len(plans) > 20_000:
        plans.clear()
    options = TAKE_OPTIONS[source]
    found = plans[tiles] = tuple((options[c], 5 * c) for c in sorted(set(tiles)))
    return found


# The centre's plans, by the set of colours it holds (31 of them), and a memo of them by
# the centre's tiles (a set costs more to build than a look-up; cleared when it grows).
_CENTER_PLANS: Final[dict[frozenset[Color], _Plan]] = {
    frozenset(colors): tuple((TAKE_OPTIONS[CENTER][c], 5 * c) for c in colors)
    for n in range(1, 6)
    for colors in itertools.combinations(COLORS, n)
}
_CENTER_BY_TILES: Final[dict[Tiles, _Plan]] = {}


def _center_plan(center: Tiles) -> _Plan:
    if len(_CENTER_BY_TILES) > 50_000:
        _CENTER_BY_TILES.clear()
    found = _CENTER_BY_TILES[center] = _CENTER_PLANS[frozenset(center)]
    return found


_compiled = load_compiled()
ACCELERATED: Final = _compiled is not None
"""True when the compiled engine is in use (``azul_rules.accelerated``)."""


@attrs.frozen
class GameState(Position):
    """A position of the game, between two moves, with the referee's entry points:
    :meth:`legal_moves`, :meth:`validate`, :meth:`apply` and :meth:`problems`.

    Its parts and what can be read from them are those of :class:`Position` (see there:
    ``players``, ``factories``, ``center``, ``bag``, ``lid``, ``current_player``,
    ``phase``, ``round``...).  Build states with :func:`new_game`, :meth:`make` or
    ``from_json``.  The constructor and ``attrs.evolve`` take the fields (``players``,
    ``factories``, ``center``, ``current_player``, ``marker_holder``, ``context``);
    :meth:`make` and :meth:`replace` take every part by name (``round``, ``phase``,
    ``bag``...).  All four check the parts and store tile multisets sorted; whether the
    position can arise in a game is :meth:`problems`' question (``from_json`` asks it).

    :raises FormatError: a part of the wrong type (tiles that are not colours
        (``Color``), a mapping or a set given for a multiset -- ``{Color.RED: 21}`` is
        not 21 reds --, players that are not boards (``PlayerBoard``), a round below 1,
        a generator state past 64 bits).
    :raises InvalidStateError: what the referee could not even read: a player count
        other than 2-4 (S1), a factory count that does not fit it (S2), a current
        player, starting player or marker holder not at the table (G2, T3).
    """

    # -- showing ---------------------------------------------------------------------

    def __str__(self) -> str:
        """The table as readable text, in English (``azul-rules show``)."""
        return render_state(self)

    def __repr__(self) -> str:
        """Short enough for a traceback: ``str(state)`` draws the table, ``to_json`` keeps
        every detail."""
        where = f"current_player={self.current_player}"
        if self.outcome is not None:
            where = f"winners={self.outcome.winners}"
        scores = ", ".join(number(board.score) for board in self.players)
        return (
            f"<GameState {len(self.players)} players, {self.variant.value} wall, round "
            f"{number(self.round)}, {self.phase.value}, {where}, scores=({scores})>"
        )

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows (``azul_rules.svg.board``)."""
        from azul_rules.svg import board

        return str(board(self))

    # -- the referee -----------------------------------------------------------------

    def _legal_moves_reference(self) -> tuple[Take | PlaceTile, ...]:
        """Every legal compact move, in a fixed order.

        In the factory offer, the takes: factories in order, then the centre; colours in
        order; pattern lines 0-4, then the floor.  In the grey wall tiling, the
        placements of the next line, by column.  Empty when the game waits for a
        :class:`Refill` or is over.  Raises nothing."""
        phase = self.context.phase
        if phase is not FACTORY_OFFER:
            if phase is WALL_TILING:
                return placements_of(self.players[self.current_player])
            return ()
        packed = self.players[self.current_player].accepting
        moves: list[Take | PlaceTile] = []
        for source, tiles in enumerate(self.factories):
            if tiles:
                for by_mask, shift in _PLANS[source].get(tiles) or _plan(source, tiles):
                    moves += by_mask[packed >> shift & 31]  # cheaper than a call to extend
        center = self.center
        if center:
            for by_mask, shift in _CENTER_BY_TILES.get(center) or _center_plan(center):
                moves += by_mask[packed >> shift & 31]
        return tuple(moves)

    legal_moves = prefer_compiled(_compiled, _legal_moves_reference, "legal_moves")

    is_over = prefer_compiled_property(_compiled, Position.__dict__["is_over"], "is_over")

    def problems(self) -> tuple[Problem, ...]:
        """Every reason this position could not arise in a game (empty when it can):
        tiles not adding up to 20 per colour, lines over capacity or holding a colour of
        their wall row, misplaced wall tiles, markers, players out of range...  Raises
        nothing."""
        return state_problems(self)

    def validate(self, move: Move) -> Result:
        """The verdict on ``move``: ``ok``, or every violation it commits, the most
        fundamental first.  Never raises for an illegal move: the verdict says it.

        :raises FormatError: for something that is not a move.
        """
        return rules.validate(self, move)

    def is_legal(self, move: Move) -> bool:
        """True when ``validate(move)`` is ok.

        :raises FormatError: for something that is not a move.
        """
        return rules.validate(self, move).ok

    def _apply_reference(self, move: Move) -> GameState:
        """The state after ``move``; ``self`` is untouched.  The last take of a round also
        runs the wall tiling, the floor, the end check and, with seeded draws, the refill.

        :raises IllegalMoveError: for an illegal move (a ``ValueError``; its ``result``
            is the verdict).
        :raises FormatError: for something that is not a move.
        """
        if type(move) is Take:  # the hot path: no further look at the move's type
            after = self._take(move)
            if after is None:
                raise IllegalMoveError(Result(tuple(rules.check_take(self, move))))
            return after
        if type(move) is PlaceTile:  # the grey wall's hot path
            after = self._place_tile(move)
            if after is None:
                raise IllegalMoveError(Result(tuple(rules.check_place_tile(self, move))))
            return after
        if isinstance(move, TableTake):
            found = rules.check_table_take(self, move)
            if found:
                raise IllegalMoveError(Result(tuple(found)))
            after = self._take(move.as_take())
            assert after is not None
            return after
        if isinstance(move, Refill):
            found = rules.check_refill(self, move)
            if found:
                raise IllegalMoveError(Result(tuple(found)))
            return self._refill(move.factories)
        if isinstance(move, PlaceTile):
            found = rules.check_place_tile(self, move)
            if found:
                raise IllegalMoveError(Result(tuple(found)))
            return self._place(move)
        raise IllegalMoveError(self.validate(move))

    apply = prefer_compiled(_compiled, _apply_reference, "apply")

    def _successor_reference(self, move: Take | PlaceTile) -> GameState | None:
        """:meth:`apply`'s hot path without its verdict: the state after a legal ``Take``
        or ``PlaceTile`` (exact types), ``None`` for an illegal one (the OpenSpiel game
        plays its actions through it)."""
        if type(move) is Take:
            return self._take(move)
        return self._place_tile(cast(PlaceTile, move))

    _successor = prefer_compiled(_compiled, _successor_reference, "successor")

    # -- mechanics -------------------------------------------------------------------

    def _take(self, move: Take) -> GameState | None:
        """T2, T3, P1, P5, F1-F4: move the lot, then end the offer if nothing is left;
        ``None`` when the take is illegal (``rules.take_is_legal``, asked first)."""
        if not take_is_legal(self, move):
            return None
        context = self.context
        player = self.current_player
        source, line = move.source, move.line
        color: Color = move.color  # type: ignore[assignment]  # a tile: take_is_legal
        factories = self.factories
        marker_holder = self.marker_holder
        takes_marker = False
        if source == CENTER:  # centres vary too much for SPLITS' memo to pay
            center = self.center
            taken = center.count(color)
            first = center.index(color)  # a sorted multiset: the lot lies in one run
            center = center[:first] + center[first + taken :]
            if marker_holder is None:
                takes_marker = True
                marker_holder = player
        else:
            taken, rest = SPLITS[factories[source]][color]
            center = self.center
            if rest:  # colors.merge, inlined
                center = tuple(sorted(center + rest)) if center else rest
            emptied = list(factories)  # faster than slicing and concatenating
            emptied[source] = ()
            factories = tuple(emptied)
        board = self.players[player]
        packed = board.accepting
        floor = board.floor
        to_lid: Tiles = ()
        if line == FLOOR:
            floor, to_lid = _fill_floor(floor, color, taken, takes_marker)
            lines = board.pattern_lines
        else:
            # PlayerBoard.with_tiles, inlined: line ``line`` accepts ``color`` while it
            # has room, and nothing else (P2, P4).
            current = board.pattern_lines[line]
            count = current.count
            room = current.capacity - count
            if taken > room:
                floor, to_lid = _fill_floor(floor, color, taken - room, takes_marker)
                count += room
            else:
                if takes_marker:
                    floor, to_lid = _fill_floor(floor, color, 0, True)
                count += taken
            changed = list(board.pattern_lines)
            changed[line] = LINES[line][color][count]
            lines = tuple(changed)
            packed = packed & NOT_LINE[line] | ROOM_BIT[line][color][count]
        moved = _new(PlayerBoard)  # board.new_board, inlined
        _set_score(moved, board.score)
        _set_lines(moved, lines)
        _set_wall(moved, board.wall)
        _set_floor(moved, floor)
        _set_accepting(moved, packed)
        if to_lid:
            context = _context(
                context.bag, merge(context.lid, to_lid), context.start_player, context.phase,
                context.round, context.variant, context.rng_state, context.outcome,
                context.last_scoring,
            )  # fmt: skip
        boards = list(self.players)
        boards[player] = moved
        players = tuple(boards)
        if center or factories.count(()) != len(factories):
            after = _new(GameState)  # position.build, inlined
            _set_players(after, players)
            _set_factories(after, factories)
            _set_center(after, center)
            _set_current(after, (player + 1) % len(players))
            _set_marker(after, marker_holder)
            _set_context(after, context)
            return after
        return self._end_offer(players, context.lid, marker_holder)

    def _end_offer(
        self, players: tuple[PlayerBoard, ...], lid: Tiles, marker_holder: int | None
    ) -> GameState:
        """The factory offer is over (P7): the wall tiling.  The coloured wall tiles
        every board at once; the grey wall waits for the players' choices (V1-V4)."""
        if self.context.variant is GREY:
            records = _no_tilings(players)
            return self._grey_tiling(players, records, list(lid), self.start_player, marker_holder)
        to_lid: list[Color] = list(lid)
        boards = []
        tilings = []
        ends = False
        for index, board in enumerate(players):
            board, tiling = tile_colored(index, board, to_lid)  # the floor included
            boards.append(board)
            tilings.append(tiling)
            ends = ends or board.has_complete_row()
        return self._close_round(tuple(boards), tuple(tilings), to_lid, marker_holder, ends)

    # -- the grey wall tiling (V1-V4) ---------------------------------------------------

    def _place_tile(self, move: PlaceTile) -> GameState | None:
        """V1-V3, W1, W3: the tile of the next complete line goes to the wall, and the
        tiling goes on; ``None`` when the placement is illegal.

        The checks of ``rules.check_place_tile`` (G1, T1, V1-V3), made on the way: the
        second place the legality of a placement is written; the property test that
        holds ``apply`` to ``validate`` holds the two together.
        """
        player = self.current_player
        if self.context.phase is not WALL_TILING or (
            move.player is not None and move.player != player
        ):
            return None
        board = self.players[player]
        line, column = move.line, move.column
        if line != next_line(board) or not 0 <= column < 5:
            return None  # V3: only the next complete line is tiled (none: nothing to tile)
        wall = board.wall
        color = board.pattern_lines[line].color
        if wall[line][column] is not None:  # V1
            return None
        for row in wall:  # V2
            if row[column] is color:
                return None
        return self._place(move)

    def _place(self, move: PlaceTile) -> GameState:
        """Apply a legal ``PlaceTile``: the tile goes to the wall and scores at once (W3),
        the line's other tiles go to the lid; then the tiling moves on."""
        player = self.current_player
        lid = list(self.lid)
        board, placed = place_on_wall(self.players[player], move.line, move.column, lid)
        boards = list(self.players)
        boards[player] = board
        tilings = list(self._tilings_so_far())
        done = tilings[player]
        tilings[player] = new_tiling(
            player, done.score_before, (*done.placements, placed), 0, board.score, None,
            done.floor_lines,
        )  # fmt: skip
        return self._grey_tiling(tuple(boards), tuple(tilings), lid, player, self.marker_holder)

    def _tilings_so_far(self) -> tuple[PlayerTiling, ...]:
        """This round's grey tiling record so far.  The record is history, not position:
        it is carried on when it agrees with the boards, and started afresh from them
        otherwise (a position typed in mid-tiling)."""
        record = self.last_scoring
        players = self.players
        if record is None or record.round != self.round or record.game_over:
            return _no_tilings(players)
        tilings = record.players
        if len(tilings) != len(players):
            return _no_tilings(players)
        for index, board in enumerate(players):  # a loop: this runs at every placement
            tiling = tilings[index]
            if tiling.player != index or tiling.score_after != board.score:
                return _no_tilings(players)
        return tilings

    def _grey_tiling(
        self,
        boards: tuple[PlayerBoard, ...],
        tilings: tuple[PlayerTiling, ...],
        lid: list[Color],
        player: int,
        marker_holder: int | None,
    ) -> GameState:
        """V3, V4: from ``player`` on, in turn order up to the round's starting player,
        send each line with no legal space to the floor and stop at the first player
        with a decision to make; settle the round when nobody has one.

        A starting player who is not at the table (a state changed behind the
        constructors, ``object.__setattr__``) is an ``InvalidStateError``: going round
        the table would never meet them."""
        players = list(boards)
        records = list(tilings)
        start = self.start_player
        if type(start) is not int or not 0 <= start < len(players):
            raise InvalidStateError((Problem.of(
                StateProblem.PLAYER_OUT_OF_RANGE, "G2", "$.start_player", player=start),))
        while True:
            board = players[player]
            row = next_line(board)
            while row is not None and not legal_columns(board, row):
                board = line_to_floor(board, row, lid)
                done = records[player]
                records[player] = new_tiling(
                    player, done.score_before, done.placements, done.floor_penalty,
                    done.score_after, done.bonuses, (*done.floor_lines, row),
                )  # fmt: skip
                row = next_line(board)
            players[player] = board
            if row is not None:
                context = self.context
                scoring = new_scoring(context.round, tuple(records), False)
                waiting = _context(
                    context.bag, tuple(sorted(lid)), start, WALL_TILING, context.round,
                    context.variant, context.rng_state, None, scoring,
                )  # fmt: skip
                factories = ((),) * len(self.factories)
                return build(
                    GameState, tuple(players), factories, (), player, marker_holder, waiting
                )
            player = (player + 1) % len(players)
            if player == start:
                return self._settle_grey_round(tuple(players), tuple(records), lid, marker_holder)

    def _settle_grey_round(
        self,
        boards: tuple[PlayerBoard, ...],
        tilings: tuple[PlayerTiling, ...],
        lid: list[Color],
        marker_holder: int | None,
    ) -> GameState:
        """After every placement of a grey round: the floors (W4, W5), then the end of
        the game (E1, or R7 when no wall row can ever be completed) or the next round."""
        settled = [settle_floor(b, t, lid) for b, t in zip(boards, tilings, strict=True)]
        final_boards = tuple(b for b, _ in settled)
        ends = any(b.has_complete_row() for b in final_boards) or not walls_can_end(final_boards)
        return self._close_round(
            final_boards, tuple(t for _, t in settled), lid, marker_holder, ends
        )

    def _close_round(
        self,
        boards: tuple[PlayerBoard, ...],
        tilings: tuple[PlayerTiling, ...],
        lid: list[Color],
        marker_holder: int | None,
        ends: bool,
    ) -> GameState:
        """The round is tiled and the floors settled: the end of the game when a wall row
        is complete (E1) or none can be (R7), else the next round (R1-R5)."""
        next_start = self.start_player if marker_holder is None else marker_holder
        new_lid = tuple(sorted(lid))
        if ends:
            return self._game_over(boards, tilings, self.bag, new_lid, next_start, self.rng_state)
        return self._next_round(boards, tilings, new_lid, next_start)

    def _next_round(
        self,
        boards: tuple[PlayerBoard, ...],
        tilings: tuple[PlayerTiling, ...],
        lid: Tiles,
        starter: int,
    ) -> GameState:
        """R1-R5: refill from the seeded bag (ending the game if nothing can be dealt,
        R6), or wait for the table's ``Refill``."""
        context = self.context
        round = context.round
        scoring = new_scoring(round, tilings, False)
        rng = context.rng_state
        if rng is None:  # the table's draws: wait for its Refill
            empty = ((),) * len(self.factories)
            return build(GameState,
                boards,
                empty,
                (),
                starter,
                None,
                _context(context.bag, lid, starter, REFILL, round + 1, context.variant, None,
                         None, scoring),
            )  # fmt: skip
        factories, bag, lid, rng = draw_factories(len(self.factories), context.bag, lid, rng)
        if not any(factories):
            return self._game_over(boards, tilings, bag, lid, starter, rng)
        return build(GameState,
            boards,
            factories,
            (),
            starter,
            None,
            _context(bag, lid, starter, FACTORY_OFFER, round + 1, context.variant, rng, None,
                     scoring),
        )  # fmt: skip

    def _game_over(
        self,
        boards: tuple[PlayerBoard, ...],
        tilings: tuple[PlayerTiling, ...],
        bag: Tiles,
        lid: Tiles,
        starter: int,
        rng: int | None,
    ) -> GameState:
        """E1-E4: end bonuses, the outcome, and no further move.  The state keeps the
        number of the last round played (R6 with the table's draws ends the game before
        the round it could not deal)."""
        final, tilings, outcome = finish_game(boards, tilings)
        context = self.context
        round = context.round if context.phase is not REFILL else max(1, context.round - 1)
        scoring = new_scoring(round, tilings, True)
        return build(GameState,
            final,
            ((),) * len(self.factories),
            (),
            starter,
            None,
            _context(bag, lid, starter, GAME_OVER, round, context.variant, rng, outcome, scoring),
        )  # fmt: skip

    def _refill(self, seen: tuple[Tiles, ...]) -> GameState:
        """R2 with the table's draws: take the tiles seen from the bag, then the lid."""
        drawn = color_counts(tuple(t for f in seen for t in f))
        if sum(drawn) <= len(self.bag):
            bag, lid = subtract(self.bag, drawn), self.lid
        else:
            from_lid = [n - b for n, b in zip(drawn, color_counts(self.bag), strict=True)]
            bag, lid = subtract(self.lid, from_lid), ()
        if not any(seen):
            # R6: nothing could be dealt; the game ends where it is.
            last = self.last_scoring
            tilings = last.players if last is not None else _no_tilings(self.players)
            return self._game_over(self.players, tilings, bag, lid, self.current_player, None)
        return GameState.make(
            players=self.players,
            factories=seen,
            center=(),
            bag=bag,
            lid=lid,
            current_player=self.current_player,
            start_player=self.current_player,
            phase=FACTORY_OFFER,
            round=self.round,
            variant=self.variant,
            last_scoring=self.last_scoring,
        )


# Building states and boards on the hot path, through the slots (see
# azul_rules.core.position.build and board.new_board, which _take inlines).
_context: Final = new_context
_new: Final = new_instance
(_set_players, _set_factories, _set_center, _set_current, _set_marker,
 _set_context) = POSITION_SETTERS  # fmt: skip
_set_score, _set_lines, _set_wall, _set_floor, _set_accepting = BOARD_SETTERS


def _no_tilings(players: tuple[PlayerBoard, ...]) -> tuple[PlayerTiling, ...]:
    """A fresh record of a tiling: nothing placed yet, every score as it stands."""
    return tuple([new_tiling(i, b.score, (), 0, b.score) for i, b in enumerate(players)])


def _fill_floor(
    floor: tuple[FloorItem, ...], color: Color, count: int, marker: bool
) -> tuple[tuple[FloorItem, ...], Tiles]:
    """F1-F4: the marker first, then ``count`` tiles, left to right; what finds no space
    goes to the lid (tiles) or is simply held (the marker, F4)."""
    room = FLOOR_SIZE - len(floor)
    if marker:
        if not room:
            return floor, (color,) * count
        floor += _MARKER_ALONE
        room -= 1
    if count <= room:
        return floor + (color,) * count, ()
    return floor + (color,) * room, (color,) * (count - room)


_MARKER_ALONE: Final[tuple[FloorItem, ...]] = (MARKER,)


def _new_game_reference(
    players: int = 2,
    *,
    seed: int = 0,
    variant: Variant | str = Variant.COLORED,
    first_player: int | None = None,
    external_draws: bool = False,
) -> GameState:
    """A new game (S1-S7).

    The starting player is ``first_player``, or drawn from ``seed``.  With seeded draws
    the factories are filled at once and the game is in ``Phase.FACTORY_OFFER``; with
    ``external_draws=True`` it waits in ``Phase.REFILL`` for the table's real draws.
    ``variant`` is a ``Variant`` or its value, ``"colored"`` or ``"grey"``, as everywhere
    (:meth:`~GameState.make`, :meth:`~GameState.replace`, records, tournaments,
    OpenSpiel, PettingZoo).

    :raises ValueError: a player count other than 2-4, a ``first_player`` out of range.
    :raises FormatError: ``players``, ``seed``, ``first_player``, ``variant`` or
        ``external_draws`` of the wrong type (``players=True``, ``seed="1"``,
        ``first_player=0.0``).
    """
    if type(players) is not int:  # True is no player count
        raise FormatError(f"players must be an int (2, 3 or 4), got {shown(players)} (S1)")
    if players not in FACTORY_COUNTS:
        raise ValueError(f"Azul is played by 2, 3 or 4 players, not {shown(players)} (S1)")
    if type(seed) is not int:
        raise FormatError(f"seed must be an int, got {shown(seed)}")
    variant = variant_of(variant)
    if not isinstance(external_draws, bool):
        raise FormatError(f"external_draws must be True or False, got {shown(external_draws)}")
    if first_player is not None and type(first_player) is not int:
        raise FormatError(f"first_player must be an int or None, got {shown(first_player)}")
    if first_player is not None and not 0 <= first_player < players:
        raise ValueError(f"first_player must be 0 to {players - 1}, not {shown(first_player)}")
    rng = seed_state(seed)
    if first_player is None:
        first_player, rng = below(rng, players)
    boards = (_NEW_BOARD,) * players
    count = FACTORY_COUNTS[players]
    if external_draws:
        return GameState.make(
            players=boards,
            factories=((),) * count,
            center=(),
            bag=_ALL_TILES,
            lid=(),
            current_player=first_player,
            start_player=first_player,
            phase=REFILL,
            variant=variant,
        )
    factories, bag, lid, rng = draw_factories(count, _ALL_TILES, (), rng)  # sorted
    context = _context(bag, lid, first_player, FACTORY_OFFER, 1, variant, rng, None, None)
    return build(GameState, boards, factories, (), first_player, None, context)


new_game = prefer_compiled(_compiled, _new_game_reference, "new_game")


# -- the compiled functions (azul_rules.core._accelerate) ----------------------------------

REFERENCES: Final = {
    "legal_moves": GameState._legal_moves_reference,
    "apply": GameState._apply_reference,
    "_successor": GameState._successor_reference,
    "is_over": Position.__dict__["is_over"].fget,
    "new_game": _new_game_reference,
}
"""The Python reference of each compiled version of :class:`GameState`, by name."""
