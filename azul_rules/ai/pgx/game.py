"""The rules on arrays, one game at a time (``jax.vmap`` batches them): the take (T1-T4,
P1-P6, F1-F4), the round's end (W1-W5, E1-E4, R1-R6, the refill of R2), the grey wall's
tiling (V1-V4, R7) and the observation of ``azul_rules.ai.actions``."""

from __future__ import annotations

from typing import Final

from azul_rules.core._extras import extra

with extra("pgx", "azul_rules.ai.pgx"):
    import jax
    import jax.numpy as jnp

from azul_rules.ai.actions import (
    factory_count,
)
from azul_rules.ai.pgx.state import (
    _EMPTY,
    _FLOOR_SPACES,
    _MARKER,
    _OFFER,
    _OVER,
    _TILING,
    AzulState,
    _colour_ids,
)
from azul_rules.core.colors import COLORS, FLOOR_PENALTIES, wall_column
from azul_rules.core.scoring import COLOR_BONUS, COLUMN_BONUS, ROW_BONUS

Array = jax.Array


# -- the take (T1-T4, P1-P6, F1-F4) ----------------------------------------------------------


def _row(x: Array, one_hot: Array) -> Array:
    """``x[i]`` for the ``i`` where ``one_hot`` holds, by a select and a sum rather than
    a gather (a batch's gathers are slow on a CPU); ``x`` holds no more than one row per
    index, so the sum is that row."""
    chosen = jnp.where(one_hot.reshape(-1, *[1] * (x.ndim - 1)), x, 0)
    return chosen.sum(axis=0, dtype=x.dtype)


def _put(x: Array, one_hot: Array, row: Array) -> Array:
    """``x`` with ``x[i] = row`` for the ``i`` where ``one_hot`` holds (no scatter)."""
    return jnp.where(one_hot.reshape(-1, *[1] * (x.ndim - 1)), row[None], x)


def _seat(state: AzulState) -> Array:
    """The player to move, one-hot over the players."""
    return jnp.arange(state.score.shape[0]) == state.current_player


# The mask is made as 30-bit words, one a source (``colour * 6 + destination``, the
# action ids' order), then unpacked by testing each word, repeated, against one bit a
# position: a batch's outer product of booleans, [source, colour] by [colour,
# destination], costs XLA three times as much on a CPU (its index arithmetic is not
# vectorised).
_WORD_BITS: Final = 30
_ALL_BITS: Final = (1 << _WORD_BITS) - 1


def _unpack(words: Array, size: int) -> Array:
    """The first ``size`` bits of ``words`` (``uint32``, ``_WORD_BITS`` bits a word,
    lowest first) as booleans."""
    repeated = jnp.broadcast_to(words[:, None], (words.shape[0], _WORD_BITS)).reshape(-1)
    bits = jnp.uint32(1) << (jnp.arange(size, dtype=jnp.uint32) % _WORD_BITS)
    unpacked: Array = (repeated[:size] & bits) != 0
    return unpacked


def _take_words(state: AzulState) -> Array:
    """The legal takes of the player to move (T1-T4, P2-P4, P6): for each source, a
    word whose bit ``colour * 6 + destination`` is set for a legal take; none outside
    the factory offer."""
    seat = _seat(state)
    sources = jnp.concatenate([state.factories, state.center[None]], axis=0) > 0
    sources = sources & (state.phase == _OFFER)  # [source, colour]: T1, T2
    # The floor as a sixth line: empty, and its "row" lacks every colour.
    colors = jnp.append(_row(state.line_color, seat), jnp.int8(_EMPTY))[None, :, None]
    room = jnp.append(_row(state.line_count, seat) < jnp.arange(1, 6, dtype=jnp.int8), True)
    wall = jnp.concatenate([_row(state.wall, seat), jnp.full((1, 5), -2, jnp.int8)])
    colours = _colour_ids()[:, None, None]
    # [colour, destination]: an empty line takes a colour its wall row lacks (P3), a
    # line begun its own colour while it has room (P2, P4), the floor any (P6).  Made
    # by a reduction, which XLA keeps apart, so that each of the mask's 180 values
    # costs one AND.
    destinations = jnp.where(
        colors == _EMPTY, wall[None] != colours, (colors == colours) & room[None, :, None]
    ).all(axis=2)
    # each colour's six destinations as bits, then each source's colours side by side
    bits = (destinations.astype(jnp.uint32) << jnp.arange(6, dtype=jnp.uint32)).sum(
        axis=1, dtype=jnp.uint32
    )
    placed = bits << (6 * jnp.arange(5, dtype=jnp.uint32))
    return jnp.where(sources, placed[None], jnp.uint32(0)).sum(axis=1, dtype=jnp.uint32)


def _take(
    state: AzulState, action: Array, players: int, factories: int, moves: Array | bool = True
) -> AzulState:
    """T2, T3: the lot of one colour from one source; P1, P5: into one pattern line, the
    excess to the floor; F1-F4: the floor, the marker first, the overflow to the lid.
    Where not ``moves``, nothing is taken and the turn stays."""
    source, rest = jnp.divmod(action, 30)
    color, destination = jnp.divmod(rest, 6)
    seat = _seat(state)
    source_is = (jnp.arange(factories + 1) == source) & moves
    this_color = color == _colour_ids()
    from_center = (source == factories) & moves
    held = _row(jnp.concatenate([state.factories, state.center[None]], axis=0), source_is)
    taken = jnp.where(this_color, held, 0).sum(dtype=jnp.int8)
    factories_left = jnp.where(source_is[:factories, None], jnp.int8(0), state.factories)
    kept = jnp.where(from_center, jnp.int8(0), state.center)
    added = jnp.where(from_center, state.center, state.center + held)
    takes_marker = from_center & (state.marker_holder == _EMPTY)
    line_is = seat[:, None] & (jnp.arange(5) == destination)[None] & moves  # [player, line]
    count = jnp.where(line_is, state.line_count, 0).sum(dtype=jnp.int8)
    to_line = jnp.minimum(taken, (destination + 1 - count).astype(jnp.int8))
    to_line = jnp.where(destination == 5, jnp.int8(0), to_line)
    floor, to_lid = _onto_floor(_row(state.floor, seat), color, taken - to_line, takes_marker)
    return state.replace(  # type: ignore[no-any-return]
        factories=factories_left,
        center=jnp.where(this_color, kept, added),
        line_color=jnp.where(line_is, color.astype(jnp.int8), state.line_color),
        line_count=jnp.where(line_is, state.line_count + to_line, state.line_count),
        floor=_put(state.floor, seat, floor),
        lid=state.lid + jnp.where(this_color, to_lid, 0).astype(jnp.int8),
        marker_holder=jnp.where(takes_marker, state.current_player, state.marker_holder).astype(
            jnp.int8
        ),
        current_player=(state.current_player + moves) % players,
    )


def _onto_floor(floor: Array, color: Array, count: Array, marker: Array) -> tuple[Array, Array]:
    """F1-F4 on one floor: the marker first (when it finds a space, F4), then ``count``
    tiles left to right; returns the floor and the tiles that found no space (F2)."""
    spaces = jnp.arange(_FLOOR_SPACES, dtype=jnp.int8)
    used = (floor != _EMPTY).sum(dtype=jnp.int8)
    with_marker = marker & (used < _FLOOR_SPACES)
    floor = jnp.where(with_marker & (spaces == used), jnp.int8(_MARKER), floor)
    used = used + with_marker.astype(jnp.int8)
    placed = jnp.minimum(count, _FLOOR_SPACES - used).astype(jnp.int8)
    tiles = (spaces >= used) & (spaces < used + placed)
    return jnp.where(tiles, color.astype(jnp.int8), floor), count - placed



# -- the round's end (W1-W5, E1-E4, R1-R6) --------------------------------------------------


def _end_round(state: AzulState, key: Array, fresh: AzulState | None = None) -> AzulState:
    """The wall tiling and the floors of every player (W1-W5), then the end of the game
    (E1) or the next round's refill (R1-R5), which may end it too (R6); ``fresh``: see
    :func:`_close_round`."""
    tiled = _settle_floors(_tile_colored(state))
    return _close_round(tiled, (tiled.wall != _EMPTY).all(axis=2).any(), key, fresh)


def _close_round(
    tiled: AzulState, ends: Array, key: Array, fresh: AzulState | None = None
) -> AzulState:
    """The round is tiled and the floors settled: the end of the game when ``ends``
    (E1, R7), else the next round's refill (R1-R5), which may end it too (R6).  With
    ``fresh`` (a new game not yet dealt, for auto_reset), a game that ends is replaced
    by ``fresh`` dealt with the same refill, keeping the ended game's flags and rewards
    (pgx's auto_reset)."""
    starter = jnp.where(
        tiled.marker_holder == _EMPTY, tiled.start_player, tiled.marker_holder
    ).astype(jnp.int8)
    between = tiled.replace(
        current_player=starter.astype(jnp.int32),
        start_player=starter,
        marker_holder=jnp.int8(_EMPTY),
    )
    following = between.replace(round=between.round + 1)
    if fresh is not None:
        following = _where(ends, fresh, following)
    refilled = _refill(following, key)
    dealt = refilled.factories.sum() > 0
    over = _game_over(_where(ends, between, refilled.replace(round=between.round)))
    if fresh is not None:
        replaced = refilled.replace(terminated=jnp.bool_(True), rewards=over.rewards)
        return _where(ends, replaced, _where(dealt, refilled, over))
    return _where(ends | ~dealt, over, refilled)


_WALL_COLUMN: Final = tuple(tuple(wall_column(row, c) for c in COLORS) for row in range(5))
"""``_WALL_COLUMN[row][colour]``: the coloured wall (S5), read from ``colors``."""


def _wall_columns(color: Array, rows: Array) -> Array:
    """The column of ``color`` in each row ``rows`` of the coloured wall (S5), from the
    table (Python ints only: a ``custom_vmap`` function closes over no array)."""
    column = jnp.zeros_like(color)
    for row in range(5):
        for c in range(5):
            column = jnp.where((rows == row) & (color == c), _WALL_COLUMN[row][c], column)
    return column


def _tile_colored(state: AzulState) -> AzulState:
    """W1-W3 on the coloured wall for every player at once: each complete line's tile to
    its row's space of that colour (W2), scored as if placed top to bottom (W3), the
    line's other tiles to the lid."""
    rows = jnp.arange(5, dtype=jnp.int8)
    full = state.line_count == rows + 1  # [player, row]
    color = state.line_color
    placed = full[:, :, None] & (_wall_columns(color, rows)[:, :, None] == _colour_ids())
    points = _placement_points(state.wall != _EMPTY, placed)
    to_lid = (jnp.where(full, rows, 0)[:, :, None] * (color[:, :, None] == _colour_ids())).sum(
        axis=(0, 1), dtype=jnp.int8
    )
    return state.replace(  # type: ignore[no-any-return]
        wall=jnp.where(placed, color[:, :, None], state.wall),
        score=state.score + points,
        lid=state.lid + to_lid,
        line_color=jnp.where(full, jnp.int8(_EMPTY), color),
        line_count=jnp.where(full, jnp.int8(0), state.line_count),
    )


def _placement_points(before: Array, placed: Array) -> Array:
    """W3 for the tiles ``placed`` (``[..., row, column]``, at most one a row) on walls
    occupied as ``before``, as if placed top to bottom: for each, the horizontal run
    through it and the vertical one, each counted when longer than 1, else 1 point.
    The rows above a tile are seen with their own placements made, those below
    without: so all are scored at once, with no loop over the rows."""
    after = before | placed
    horizontal = 1 + _run_before(after, -1, False) + _run_before(after, -1, True)
    vertical = 1 + _run_before(after, -2, False) + _run_before(before, -2, True)
    runs = jnp.where(horizontal > 1, horizontal, 0) + jnp.where(vertical > 1, vertical, 0)
    points = jnp.where(placed, jnp.maximum(runs, 1), 0)
    return points.sum(axis=(-2, -1), dtype=jnp.int16)


def _run_before(occupied: Array, axis: int, backwards: bool) -> Array:
    """For each space, how many occupied spaces run next to it on one side along
    ``axis`` (towards index 0, or towards 4 when ``backwards``)."""
    occupied = jnp.moveaxis(occupied, axis, 0).astype(jnp.int16)
    order = range(4, -1, -1) if backwards else range(5)
    runs: dict[int, Array] = {}
    previous: int | None = None
    for k in order:
        if previous is None:
            runs[k] = jnp.zeros_like(occupied[k])
        else:
            runs[k] = occupied[previous] * (1 + runs[previous])
        previous = k
    return jnp.moveaxis(jnp.stack([runs[k] for k in range(5)]), 0, axis)


def _settle_floors(state: AzulState) -> AzulState:
    """W4, W5: every floor's penalties (F1, the marker included) subtracted, the score
    clamped at 0 once; the floor's tiles to the lid."""
    floor = state.floor
    used = (floor != _EMPTY).sum(axis=1, dtype=jnp.int16)
    # F1: the penalty of each occupied space, left to right (colors.FLOOR_PENALTIES)
    penalty = sum(cost * (used > space) for space, cost in enumerate(FLOOR_PENALTIES))
    score = jnp.maximum(state.score - penalty, 0).astype(jnp.int16)
    lid = state.lid + (floor[:, :, None] == _colour_ids()).sum(axis=(0, 1), dtype=jnp.int8)
    return state.replace(  # type: ignore[no-any-return]
        score=score, lid=lid, floor=jnp.full_like(floor, _EMPTY)
    )


def _where(condition: Array, yes: AzulState, no: AzulState) -> AzulState:
    """``yes`` where ``condition``, else ``no``, field by field."""
    return jax.tree_util.tree_map(  # type: ignore[no-any-return]
        lambda a, b: jnp.where(condition, a, b), yes, no
    )


def _game_over(state: AzulState) -> AzulState:
    """E2: the end bonuses; E4: the winners and their rewards (``actions.utilities``)."""
    players = state.score.shape[0]
    on_wall = state.wall != _EMPTY
    rows = on_wall.all(axis=2).sum(axis=1)
    columns = on_wall.all(axis=1).sum(axis=1)
    colors = ((state.wall[:, :, :, None] == _colour_ids()).sum(axis=(1, 2)) == 5).sum(axis=1)
    score = state.score + ROW_BONUS * rows + COLUMN_BONUS * columns + COLOR_BONUS * colors
    score = score.astype(jnp.int16)
    tied = score == score.max()
    winners = tied & (rows == jnp.where(tied, rows, -1).max())
    count = winners.sum()
    share = (players - count) / (players - 1) / count
    rewards = jnp.where(winners, share, -1.0 / (players - 1)).astype(jnp.float32)
    return state.replace(  # type: ignore[no-any-return]
        score=score, rewards=rewards, terminated=jnp.bool_(True), phase=jnp.int8(_OVER),
        factories=jnp.zeros_like(state.factories), center=jnp.zeros_like(state.center),
    )  # fmt: skip


def _mix(x: Array) -> Array:
    """A 32-bit finalizer (multiply-xorshift): each output bit depends on every input
    bit."""
    x = (x ^ (x >> 16)) * jnp.uint32(0x7FEB352D)
    x = (x ^ (x >> 15)) * jnp.uint32(0x846CA68B)
    return x ^ (x >> 16)


def _words(key: Array, count: int, salt: int = 0) -> Array:
    """``count`` random 24-bit numbers (``int32``) from the key: its two words mixed with
    each draw's number (and ``salt``, for another use of the same key).  ``jax.random``
    runs threefry, which XLA rolls into a loop on a CPU, and whose steps cost more than
    the refill's 20 draws."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        key = jax.random.key_data(key)
    halves = key.reshape(-1).astype(jnp.uint32)
    draws = (jnp.arange(count, dtype=jnp.uint32) + jnp.uint32(salt << 8)) * jnp.uint32(0x9E3779B9)
    mixed = _mix(halves[-1] ^ _mix(halves[0] + draws))
    return (mixed >> 8).astype(jnp.int32)


def _refill(state: AzulState, key: Array) -> AzulState:
    """R2: four tiles to each factory in turn, drawn from the bag; when the bag is empty
    and a tile is wanted, the lid is poured into it; when both are empty the remaining
    factories stay short.  Each draw is written colour by colour on single numbers (no
    reductions, which XLA would run apart), in a loop over the draws (unrolled, the
    draws' dependence on each other makes XLA's compilation explode)."""
    factories = state.factories.shape[0]

    def draw(carry: tuple[Array, Array], word: Array) -> tuple[tuple[Array, Array], Array]:
        bag, lid = carry
        poured = bag[0] + bag[1] + bag[2] + bag[3] + bag[4] == 0
        bag = jnp.where(poured, lid, bag)
        lid = jnp.where(poured, 0, lid)
        total = bag[0] + bag[1] + bag[2] + bag[3] + bag[4]
        index = (word * total) >> 24  # uniform in [0, total)
        below = bag[0]
        color = (index >= below).astype(jnp.int32)
        for c in range(1, 4):
            below = below + bag[c]
            color = color + (index >= below)
        taken = (color == _colour_ids()) & (total > 0)
        return (bag - taken, lid), jnp.where(total > 0, color, _EMPTY)

    start = (state.bag.astype(jnp.int32), state.lid.astype(jnp.int32))
    (bag, lid), drawn = jax.lax.scan(draw, start, _words(key, factories * 4))
    tiles = (drawn.reshape(factories, 4)[:, :, None] == _colour_ids()).sum(axis=1)
    return state.replace(  # type: ignore[no-any-return]
        factories=tiles.astype(jnp.int8),
        bag=bag.astype(jnp.int8),
        lid=lid.astype(jnp.int8),
        phase=jnp.int8(_OFFER),
    )


# -- the grey wall's tiling (V1-V4, R7) ------------------------------------------------------


def _next_line(counts: Array) -> tuple[Array, Array]:
    """V3: of one player's pattern lines (their ``counts``), the top complete one (and
    whether there is one)."""
    full = counts == jnp.arange(1, 6, dtype=counts.dtype)
    return jnp.argmax(full), full.any()


def _free_columns(wall: Array, colors: Array) -> Array:
    """V1, V2: [line, column], on one player's ``wall``, the empty spaces of each line's
    row whose column lacks that line's colour (``colors``)."""
    in_column = (wall[None, :, :] == colors[:, None, None]).any(axis=1)  # [line, column]
    return (wall == _EMPTY) & ~in_column


def _place_word(state: AzulState) -> Array:
    """The legal placements of the player to decide, as a word whose bit ``line * 5 +
    column`` (the id after the takes) is set for each; none outside the grey tiling."""
    seat = _seat(state)
    row, found = _next_line(_row(state.line_count, seat))
    free = _free_columns(_row(state.wall, seat), _row(state.line_color, seat))
    columns = _row(free, jnp.arange(5) == row) & found & (state.phase == _TILING)
    bits = (columns.astype(jnp.uint32) << jnp.arange(5, dtype=jnp.uint32)).sum(dtype=jnp.uint32)
    return bits << (5 * row).astype(jnp.uint32)


def _place(state: AzulState, placement: Array) -> AzulState:
    """V1, W1, W3: the tile of the line to the wall space chosen, scored at once; the
    line's other tiles to the lid."""
    seat = _seat(state)
    row, column = jnp.divmod(placement, 5)
    line_is = jnp.arange(5) == row
    color = _row(_row(state.line_color, seat), line_is)
    space = line_is[:, None] & (jnp.arange(5) == column)
    points = _placement_points(_row(state.wall, seat) != _EMPTY, space)
    emptied = seat[:, None] & line_is[None]  # [player, line]
    return state.replace(  # type: ignore[no-any-return]
        wall=jnp.where(seat[:, None, None] & space[None], color, state.wall),
        score=state.score + jnp.where(seat, points, 0).astype(jnp.int16),
        lid=state.lid + jnp.where(_colour_ids() == color, row, 0).astype(jnp.int8),
        line_color=jnp.where(emptied, jnp.int8(_EMPTY), state.line_color),
        line_count=jnp.where(emptied, jnp.int8(0), state.line_count),
    )


def _resolve_tiling(state: AzulState, players: int) -> tuple[AzulState, Array]:
    """V3, V4 from the player to decide on, in turn order up to the round's starting
    player: each complete line above the player's first one with a legal space goes to
    the floor, top to bottom (a line sent to the floor changes no wall, so which lines
    have a legal space is known at once); the tiling stops at the first player with a
    choice to make; ``finished`` when nobody has one."""
    stopped = jnp.bool_(False)
    finished = jnp.bool_(False)
    rows = jnp.arange(5)
    for _ in range(players):
        seat = _seat(state)
        colors, counts = _row(state.line_color, seat), _row(state.line_count, seat)
        complete = counts == rows + 1
        choice = complete & _free_columns(_row(state.wall, seat), colors).any(axis=1)
        first_choice = jnp.where(choice.any(), jnp.argmax(choice), 5)
        stuck = complete & (rows < first_choice) & ~stopped  # V4, in row order
        floor, lid = _row(state.floor, seat), state.lid
        for row in range(5):
            count = jnp.where(stuck[row], jnp.int8(row + 1), jnp.int8(0))
            floor, to_lid = _onto_floor(floor, colors[row], count, jnp.bool_(False))
            lid = lid + jnp.where(_colour_ids() == colors[row], to_lid, 0).astype(jnp.int8)
        emptied = seat[:, None] & stuck[None]
        found = choice.any()
        following = (state.current_player + 1) % players
        finished = finished | (~stopped & ~found & (following == state.start_player))
        moves_on = ~stopped & ~found & ~finished
        state = state.replace(
            floor=_put(state.floor, seat, floor),
            lid=lid,
            line_color=jnp.where(emptied, jnp.int8(_EMPTY), state.line_color),
            line_count=jnp.where(emptied, jnp.int8(0), state.line_count),
            current_player=jnp.where(moves_on, following, state.current_player),
        )
        stopped = stopped | found | finished
    return state, finished


def _close_grey(state: AzulState, key: Array, fresh: AzulState | None = None) -> AzulState:
    """After the last placement: the floors (W4, W5), then the end of the game when a
    wall row is complete (E1) or none can ever be (R7), else the next round; ``fresh``:
    see :func:`_close_round`."""
    settled = _settle_floors(state)
    complete = (settled.wall != _EMPTY).all(axis=2).any()
    return _close_round(settled, complete | ~_walls_can_end(settled.wall), key, fresh)


def _walls_can_end(wall: Array) -> Array:
    """R7: whether some wall row of some player can still be completed: the colours the
    row lacks can each go to a different empty space of the row whose column lacks that
    colour (V1, V2).  Hall's condition, checked for every set of the row's missing
    colours (31 sets): together they may go to at least as many spaces as they number.
    The spaces a colour may go to are a 5-bit word, so a set's spaces are an OR."""
    colours = _colour_ids()
    holds = wall[:, :, :, None] == colours  # [P, row, column, colour]
    missing = ~holds.any(axis=2)  # [P, row, colour]
    lacks = ~holds.any(axis=1)  # [P, column, colour]
    empty = wall == _EMPTY  # [P, row, column]
    fits = empty[:, :, :, None] & lacks[:, None]  # [P, row, column, colour]
    column_bits = (jnp.uint32(1) << jnp.arange(5, dtype=jnp.uint32))[:, None]
    spaces = jnp.where(fits, column_bits, jnp.uint32(0)).sum(axis=2, dtype=jnp.uint32)
    row_ok = jnp.ones(wall.shape[:2], jnp.bool_)  # [P, row]
    for subset in range(1, 32):
        members = [c for c in range(5) if subset >> c & 1]
        chosen = missing[:, :, members[0]]
        reach = spaces[:, :, members[0]]
        for c in members[1:]:
            chosen = chosen & missing[:, :, c]
            reach = reach | spaces[:, :, c]
        enough = jax.lax.population_count(reach) >= len(members)
        row_ok = row_ok & (~chosen | enough)
    return row_ok.any()


# -- the observation (actions.observation, as an array) ---------------------------------------


def _observe(state: AzulState, player: Array, players: int) -> Array:
    """The fields of ``actions.observation_layout(players)``, in order, from ``player``'s
    seat: each board's features, the boards turned so that ``player``'s comes first,
    then the table's."""
    colours = _colour_ids()

    def turned(x: Array) -> Array:  # a board's part, the observer's board first
        out = x
        for shift in range(1, players):
            out = jnp.where(player == shift, jnp.roll(x, -shift, axis=0), out)
        return out

    line_color, line_count = turned(state.line_color), turned(state.line_count)
    wall, floor = turned(state.wall), turned(state.floor)
    lines = jnp.where(line_color[:, :, None] == colours, line_count[:, :, None], 0)
    boards = jnp.concatenate(
        [
            turned(state.score)[:, None],
            lines.reshape(players, 25).astype(jnp.float32),
            (wall[:, :, :, None] == colours).reshape(players, 125).astype(jnp.float32),
            (floor[:, :, None] == colours).sum(axis=1, dtype=jnp.float32),
            (floor == _MARKER).any(axis=1)[:, None].astype(jnp.float32),
        ],
        axis=1,
    )  # [board, feature]
    seats = (jnp.arange(players) + player) % players
    table = jnp.concatenate(
        [
            state.factories.reshape(-1),
            state.center,
            ((state.marker_holder == _EMPTY) & (state.phase == _OFFER))[None],
            state.bag,
            state.lid,
            jnp.zeros(1, jnp.int8),  # the round, put in below (it may pass 127)
            jnp.arange(4) == state.phase,
            (seats == state.current_player) & (state.phase != _OVER),
            seats == state.start_player,
        ]
    ).astype(jnp.float32)
    table = table.at[_ROUND_AT[players]].set(state.round.astype(jnp.float32))
    return jnp.concatenate([boards.reshape(-1), table])


# Where the round lies in the table's part of the observation, by player count.
_ROUND_AT: Final = {p: factory_count(p) * 5 + 5 + 1 + 5 + 5 for p in (2, 3, 4)}
