"""The compiled engine against its Python reference (see ``azul_rules.core._accelerate``).

Both cores give the same games, verdicts and records.  With the compiled engine in use,
each call here is made through both cores in one process (the Python one by putting the
Python references of ``GameState``'s compiled functions back for the call, :func:`python_core`) and
the results compared part by part: legal moves, successors (``last_scoring`` and the
boards' accepting lines included), verdicts and exceptions, on reachable, mutated,
hand-built and tampered positions, with legal and illegal moves of every kind, on both
walls, for 2-4 players.
The seeded games of both cores are compared by digest, the Python core's in a process
of its own (``AZUL_RULES_PURE_PYTHON=1``).  CI runs the whole suite on both cores.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import testing
from azul_rules.core import state as state_module
from azul_rules.core.board import PatternLine, pattern_line
from azul_rules.core.colors import COLORS
from tests.core.test_possible_successors import mutated_position
from tests.core_digest import game_digest
from tests.impossible_inputs import deadline, tampered_copy

compiled = pytest.mark.skipif(
    not az.accelerated, reason="the compiled core is not in use (AZUL_RULES_PURE_PYTHON=1)"
)
_REFERENCES = state_module.REFERENCES


@contextlib.contextmanager
def python_core() -> Iterator[None]:
    """The Python reference in place of every compiled version of ``GameState``, for the
    time of a call (a test's own patching: the library never patches a class)."""
    methods = {name: f for name, f in _REFERENCES.items() if name in az.GameState.__dict__}
    saved = {name: az.GameState.__dict__[name] for name in methods}
    try:
        for name, reference in methods.items():
            setattr(az.GameState, name, property(reference) if name == "is_over" else reference)
        yield
    finally:
        for name, value in saved.items():
            setattr(az.GameState, name, value)


def parts(state: az.GameState) -> tuple[object, ...]:
    """Every part of a state, the record of its last tiling and the derived accepting
    lines included, with the exact types of its containers."""
    boards = tuple(
        (type(b), b.score, b.pattern_lines, b.wall, b.floor, b.accepting, type(b.floor))
        for b in state.players
    )
    return (
        type(state), boards, state.factories, state.center, state.bag, state.lid,
        state.current_player, state.marker_holder, state.start_player, state.phase,
        state.round, state.variant, state.rng_state, state.outcome, state.last_scoring,
        type(state.players), type(state.factories), type(state.center), type(state.context),
    )  # fmt: skip


def outcome(call: Callable[[], object]) -> tuple[str, object]:
    """What a call gives: its value's parts, or its exception (type, text, verdict)."""
    try:
        value = call()
    except az.IllegalMoveError as error:
        return "illegal", error.result
    except Exception as error:
        return "raised", (type(error), str(error))
    if isinstance(value, az.GameState):
        return "state", parts(value)
    return "value", value


def assert_same(call: Callable[[], object]) -> tuple[str, object]:
    """The call through the compiled core gives what it gives through the Python one."""
    compiled_result = outcome(call)
    with python_core():
        python_result = outcome(call)
    assert compiled_result == python_result
    return compiled_result


def moves_to_try(state: az.GameState, rnd: random.Random) -> list[az.Move]:
    """Legal moves and illegal ones of every kind."""
    moves: list[az.Move] = list(state.legal_moves())
    colors: tuple[az.Color | az.Marker, ...] = (*COLORS, az.MARKER)
    for _ in range(12):
        moves.append(
            az.Take(rnd.randrange(-1, 10), rnd.choice(colors), rnd.randrange(-1, 5),
                    player=rnd.choice((None, 0, 1, 2, 3)))
        )  # fmt: skip
    moves.append(az.PlaceTile(rnd.randrange(6), rnd.randrange(6)))
    if state.legal_moves() and isinstance(state.legal_moves()[0], az.Take):
        take = rnd.choice(state.legal_moves())
        assert isinstance(take, az.Take)
        moves.append(az.TableTake(take.source, take.color, rnd.randint(1, 4), {take.line: 1}))
    return rnd.sample(moves, min(len(moves), 16))


def check_position(state: az.GameState, rnd: random.Random) -> None:
    assert_same(state.legal_moves)
    for move in moves_to_try(state, rnd):
        assert_same(lambda move=move: state.apply(move))  # type: ignore[misc]


@compiled
@settings(max_examples=60)
@given(state=testing.game_states(), rnd=st.randoms())
def test_both_cores_agree_on_reachable_positions(state: az.GameState, rnd: random.Random) -> None:
    """S1-S7, T1-T4, P1-P7, F1-F4, W1-W5, E1-E4, R1-R7, V1-V5: the same legal moves, and
    for legal and illegal moves the same successor or the same verdict."""
    check_position(state, rnd)


@compiled
@settings(max_examples=60)
@given(rnd=st.randoms(), variant=st.sampled_from(az.Variant), tiling=st.booleans())
def test_both_cores_agree_on_mutated_positions(
    rnd: random.Random, variant: az.Variant, tiling: bool
) -> None:
    """The same on positions built by mutation, possible or not (the referee plays on
    from any position its constructor accepts)."""
    grey_tiling = tiling and variant is az.Variant.GREY
    phase = az.Phase.WALL_TILING if grey_tiling else az.Phase.FACTORY_OFFER
    check_position(mutated_position(rnd, variant, phase), rnd)


_NEW_GAME_ARGUMENTS = [
    ((), {}), ((3,), {}), ((), {"players": 4}), ((2,), {"seed": 7}),
    ((4,), {"seed": -1}), ((2,), {"seed": 2**64 + 5}), ((3,), {"seed": -(2**70)}),
    ((2,), {"variant": az.Variant.GREY, "seed": 3}), ((2,), {"variant": "grey"}),
    ((3,), {"first_player": 2, "seed": 9}), ((2,), {"first_player": None}),
    ((2,), {"external_draws": True}), ((2,), {"external_draws": False, "seed": 1}),
    # what the reference refuses, with its message
    ((5,), {}), ((True,), {}), ((2.0,), {}), ((2,), {"seed": "1"}), ((2,), {"seed": 1.0}),
    ((2,), {"first_player": 2}), ((2,), {"first_player": -1}), ((2,), {"first_player": 0.0}),
    ((2,), {"variant": "blue"}), ((2,), {"external_draws": 1}), ((2, 3), {}),
    ((2,), {"colour": "grey"}), ((), {"players": 2, "seed": 1, "first_player": 1}),
]


@compiled
@pytest.mark.parametrize(("args", "kwargs"), _NEW_GAME_ARGUMENTS)
def test_new_game_agrees_with_its_reference_s1_s7(args: tuple[Any, ...],
                                                  kwargs: dict[str, Any]) -> None:  # fmt: skip
    """S1-S7, R2: the compiled new_game deals what the Python one deals, seeded or not,
    and leaves every refusal (its exception and words) to it."""
    reference = _REFERENCES["new_game"]
    try:
        expected = reference(*args, **kwargs)
    except Exception as error:  # the reference's refusal: the compiled version gives the same
        with pytest.raises(type(error)) as raised:
            az.new_game(*args, **kwargs)
        assert str(raised.value) == str(error)
        return
    made = az.new_game(*args, **kwargs)
    assert parts(made) == parts(expected) and made.rng_state == expected.rng_state


@compiled
def test_new_game_agrees_with_its_reference_on_many_seeds() -> None:
    reference = _REFERENCES["new_game"]
    for seed in range(300):
        players, variant = 2 + seed % 3, ("colored", "grey")[seed % 2]
        variant_value = az.Variant(variant)
        made = az.new_game(players, seed=seed * 7919, variant=variant_value)
        assert parts(made) == parts(reference(players, seed=seed * 7919, variant=variant_value))


@pytest.mark.slow
@compiled
def test_both_cores_play_the_same_seeded_games() -> None:
    """R2, S7: 900 seeded random games (150 seeds, 2-4 players, both walls) give the same
    digest of every successor and tiling record on both cores."""
    compiled_digest = game_digest(150)
    pure = subprocess.run(
        [sys.executable, "-m", "tests.core_digest", "150"],
        env={**os.environ, "AZUL_RULES_PURE_PYTHON": "1"},
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    moves, digest = compiled_digest
    assert pure.stdout.split() == ["moves", str(moves), "digest", digest]
    assert moves > 90_000


# -- the engine's parts through the compiled functions --------------------------------------------


def _last_take(bag: list[az.Color], lid: list[az.Color], rng: int, players: int) -> az.GameState:
    """A factory offer of ``players`` whose one take left (a red of the centre) ends the
    round, with the given bag, lid and generator state: built by hand (its tile counts
    need not add up), for the seeded filling that follows (R2)."""
    state = az.new_game(players, seed=rng % 1000)
    return state.replace(factories=((),) * len(state.factories), center=(az.Color.RED,),
                         bag=tuple(sorted(bag)), lid=tuple(sorted(lid)), rng_state=rng)


@compiled
@settings(max_examples=200)
@given(
    bag=st.lists(st.sampled_from(COLORS), max_size=120),
    lid=st.lists(st.sampled_from(COLORS), max_size=60),
    rng=st.integers(0, 2**64 - 1),
    players=st.integers(2, 4),
)
def test_r2_the_compiled_draws_are_the_python_draws(
    bag: list[az.Color], lid: list[az.Color], rng: int, players: int
) -> None:
    """R2: the same factories, bag, lid and generator state after the round's last take,
    bit for bit, when the bag runs out (the lid poured in) and when both run out (R6)."""
    state = _last_take(bag, lid, rng, players)
    assert_same(lambda: state.apply(az.Take(az.CENTER, az.Color.RED, az.FLOOR)))


boards = st.builds(
    lambda score, fills, wall, floor: (score, fills, wall, floor),
    st.one_of(st.integers(0, 300), st.integers(-(2**70), 2**70)),
    st.lists(st.tuples(st.sampled_from(COLORS), st.integers(0, 5)), min_size=5, max_size=5),
    st.lists(st.lists(st.one_of(st.none(), st.sampled_from(COLORS)), min_size=5, max_size=5),
             min_size=5, max_size=5),
    st.lists(st.sampled_from((*COLORS, az.MARKER)), max_size=7),
)  # fmt: skip


BoardSpec = tuple[int, list[tuple[az.Color, int]], list[list[az.Color | None]], list[object]]


def _board(spec: BoardSpec) -> az.PlayerBoard:
    score, fills, wall, floor = spec
    lines = tuple(pattern_line(i, c, min(n, i + 1)) for i, (c, n) in enumerate(fills))
    rows = tuple(tuple(row) for row in wall)
    return az.PlayerBoard(score, lines, rows, tuple(floor))


@compiled
@settings(max_examples=200)
@given(specs=st.lists(boards, min_size=2, max_size=4), variant=st.sampled_from(az.Variant),
       rnd=st.randoms())  # fmt: skip
def test_w1_w5_e2_hand_built_boards_are_tiled_alike(
    specs: list[BoardSpec], variant: az.Variant, rnd: random.Random
) -> None:
    """W1-W5, V1-V4, E1-E4 on boards built by hand (full lines of any colour, any wall,
    scores past 60 bits, floors with markers): the round's last take tiles them, and
    every move of the grey tiling that follows places alike, on both cores."""
    state = az.new_game(len(specs), seed=rnd.randrange(100), variant=variant)
    state = state.replace(
        players=tuple(_board(spec) for spec in specs), marker_holder=None,
        factories=((),) * len(state.factories), center=(az.Color.RED,),
    )  # fmt: skip
    for _ in range(8):
        moves = state.legal_moves()
        if not moves:
            return
        move = rnd.choice(moves)
        kind, _ = assert_same(lambda move=move, state=state: state.apply(move))  # type: ignore[misc]
        if kind != "state":
            return
        state = state.apply(move)


# -- tampered states: a verdict or an exception, never a crash -----------------------

def _tampered(rnd: random.Random) -> list[tuple[str, object]]:
    """Replacements a program could force into a state's slots (``object.__setattr__``)."""
    return [
        ("factories", [(az.Color.RED,)] * 5),
        ("factories", ((az.Color.RED, 2),) + ((),) * 4),
        ("factories", ((az.Color.RED,) * 40,) + ((),) * 4),
        ("factories", ((az.Color.RED,),) * 12),
        ("center", (az.MARKER, az.Color.RED)),
        ("center", (az.Color.WHITE, az.Color.BLUE, az.Color.BLUE)),
        ("center", tuple(rnd.choice(COLORS) for _ in range(500))),
        ("center", None),
        ("current_player", -1),
        ("current_player", 7),
        ("current_player", True),
        ("current_player", 2**80),
        ("current_player", "0"),
        ("marker_holder", "x"),
        ("marker_holder", 2**70),
        ("players", ()),
        ("players", [None, None]),
        ("context", None),
    ]


def _tampered_board(rnd: random.Random) -> list[tuple[str, object]]:
    return [
        ("score", 2**100),
        ("score", -(2**65)),
        ("score", "12"),
        ("accepting", -1),
        ("accepting", 2**40),
        ("accepting", None),
        ("floor", (az.Color.RED,) * 9),
        ("floor", [az.MARKER]),
        ("pattern_lines", ()),
        ("pattern_lines", (None,) * 5),
        ("wall", ((0,) * 5,) * 5),
        ("wall", None),
    ]


def tampered_states(
    rnd: random.Random, seed: int, *, past_the_engine: bool = False
) -> Iterator[tuple[az.GameState, az.GameState]]:
    """A played position of each wall and, one at a time, copies of it with a slot
    replaced (:func:`_tampered`, :func:`_tampered_board`; ``past_the_engine``: also a
    score past the engine's 24 bits and a player to move the table did not give)."""
    for variant in az.Variant:
        state = az.new_game(rnd.choice((2, 3, 4)), seed=seed, variant=variant)
        for _ in range(rnd.randrange(40)):
            state = state.apply(rnd.choice(state.legal_moves()))
        changes: list[tuple[int | None, str, object]] = [
            (None, name, value) for name, value in _tampered(rnd)
        ]
        changes += [(state.current_player, name, value) for name, value in _tampered_board(rnd)]
        if past_the_engine:
            changes += [(state.current_player, "score", 2**24 + 1), (None, "current_player", 1)]
        for player, name, value in changes:
            yield state, tampered_copy(state, player, name, value)


@compiled
@pytest.mark.parametrize("seed", range(6))
def test_a_tampered_state_gets_the_same_answer_from_both_cores(seed: int) -> None:
    """Slots replaced behind the constructors' back: both cores answer alike (a
    successor, a verdict or the same exception), and the process never crashes."""
    rnd = random.Random(seed)
    for state, copy in tampered_states(rnd, seed):
        for move in (*state.legal_moves()[:3], *moves_to_try(state, rnd)[:6]):
            assert_same(lambda copy=copy, move=move: copy.apply(move))  # type: ignore[misc]
        assert_same(copy.legal_moves)


def printed_with_switch(code: str, switch: str = "1") -> list[str]:
    """The words ``code`` prints in a Python of its own with ``AZUL_RULES_PURE_PYTHON``
    set to ``switch``."""
    done = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "AZUL_RULES_PURE_PYTHON": switch},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.split()


def test_the_switch_forces_the_python_core() -> None:
    """``AZUL_RULES_PURE_PYTHON=1`` at import: ``accelerated`` is False and every compiled
    function is the Python one; a value of ``0`` forces nothing."""
    code = (
        "import azul_rules as az, azul_rules.core.state as s\n"
        "print(az.accelerated, az.GameState.apply is s.REFERENCES['apply'],"
        " az.GameState.legal_moves is s.REFERENCES['legal_moves'])"
    )
    assert printed_with_switch(code) == ["False", "True", "True"]
    zero = subprocess.run(
        [sys.executable, "-c", "import azul_rules as az; print(type(az.accelerated).__name__)"],
        env={**os.environ, "AZUL_RULES_PURE_PYTHON": "0"},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert zero.stdout.split() == ["bool"]


def test_ci_uses_the_compiled_core() -> None:
    """CI installs with gcc: its first run must use the compiled core (its second run
    forces the Python one), so that a build that silently fell back would fail here."""
    if os.environ.get("AZUL_REQUIRE_EXTRAS") != "1":
        pytest.skip("only CI requires the compiled core")
    forced = os.environ.get("AZUL_RULES_PURE_PYTHON", "") not in ("", "0")
    assert az.accelerated is (not forced)


@compiled
def test_the_compiled_functions_hold_no_reference_too_many() -> None:
    """The same games played again leave the memory as it was: a reference the C code
    forgot to release (a leaked successor, board or tile tuple) would grow it by tens of
    kilobytes a game."""
    import gc
    import tracemalloc

    def play() -> int:
        moves = 0
        for variant in az.Variant:
            for seed in range(12):
                state = az.new_game(2 + seed % 3, seed=seed, variant=variant)
                choose = random.Random(seed).choice
                while not state.is_over and state.round <= 30:
                    state = state.apply(choose(state.legal_moves()))
                    moves += 1
                for move in state.legal_moves()[:1]:
                    with contextlib.suppress(az.IllegalMoveError):
                        state.apply(move)
        return moves

    play()  # the memo tables filled, as in a long run
    tracemalloc.start()
    try:
        play()
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        moves = sum(play() for _ in range(3))
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert moves > 5_000
    assert grown < 20_000, f"{grown} bytes more after {moves} moves"


def _tampered_line(count: object, capacity: object, color: object) -> PatternLine:
    """A pattern line changed behind its constructor (``object.__setattr__``), never
    one of the shared lines."""
    line: PatternLine = object.__new__(PatternLine)
    for name, value in (("color", color), ("count", count), ("capacity", capacity)):
        object.__setattr__(line, name, value)
    return line


def _last_placement_of_a_round(rnd: random.Random, players: int) -> az.GameState:
    """A grey wall tiling of a random game where the next placement is the round's last
    decision (the tiling then goes round the table to its starting player)."""
    while True:
        state = az.new_game(players, seed=rnd.randrange(10**6), variant=az.Variant.GREY)
        while not state.is_over:
            if state.phase is az.Phase.WALL_TILING and not any(
                state.apply(move).phase is az.Phase.WALL_TILING for move in state.legal_moves()
            ):
                return state
            state = state.apply(rnd.choice(state.legal_moves()))


@pytest.mark.parametrize("seed", range(4))
def test_g2_s4_a_tampered_round_context_or_line_gets_an_exception_never_a_hang(
    seed: int,
) -> None:
    """G2, S4, V3: the round's starting player out of the table (4 at a 4-player grey
    table: going round the table never meets them) at the round's last placement, or
    the line being placed changed to 2**31 tiles or to 5 spaces on the top row:
    ``apply`` raises (the same on both cores), at once, and never moves that many
    tiles."""
    rnd = random.Random(seed)
    state = _last_placement_of_a_round(rnd, 4)
    player = state.current_player
    row = state.legal_moves()[0].line
    copies = []
    for start in (4, -1, 2**70, "0", None):
        context = attrs.evolve(state.context)
        object.__setattr__(context, "start_player", start)
        copy = attrs.evolve(state)
        object.__setattr__(copy, "context", context)
        copies.append(copy)
    for line in (_tampered_line(2**31, 2**31, az.Color.RED), _tampered_line(5, 5, az.Color.BLUE),
                 _tampered_line(row + 1, row + 1, 7)):  # fmt: skip
        board = attrs.evolve(state.players[player])
        changed = list(board.pattern_lines)
        changed[row] = line
        object.__setattr__(board, "pattern_lines", tuple(changed))
        players = list(state.players)
        players[player] = board
        copy = attrs.evolve(state)
        object.__setattr__(copy, "players", tuple(players))
        copies.append(copy)
    for copy in copies:
        with deadline(20):
            for move in state.legal_moves():
                kind, _ = assert_same(lambda copy=copy, move=move: copy.apply(move))  # type: ignore[misc]
                assert kind == "raised"


# -- positions built from plain data (the batch engines' to_state) -------------------------


def _plain(state: az.GameState) -> tuple[Any, ...]:
    """``state`` as the plain data ``state_of_position`` reads (the batch engine's
    ``Games.position``): counts by colour, -1 an empty line or space, 5 the marker."""

    def counts(tiles: tuple[az.Color, ...]) -> list[int]:
        return [tiles.count(c) for c in COLORS]

    def code(item: Any) -> int:
        return -1 if item is None else 5 if item is az.MARKER else COLORS.index(item)

    def board(b: az.PlayerBoard) -> tuple[Any, ...]:
        lines, wall, floor = b.pattern_lines, b.wall, b.floor
        colors, filled = [code(line.color) for line in lines], [line.count for line in lines]
        return (b.score, colors, filled, [[code(c) for c in row] for row in wall],
                [code(item) for item in floor])

    phases = (az.Phase.FACTORY_OFFER, az.Phase.WALL_TILING, az.Phase.REFILL, az.Phase.GAME_OVER)
    holder = state.marker_holder
    return (phases.index(state.phase), state.round, state.current_player, state.start_player,
            -1 if holder is None else holder, [counts(f) for f in state.factories],
            counts(state.center), counts(state.bag), counts(state.lid),
            [board(b) for b in state.players])  # fmt: skip


def _with_odd_leaf(value: Any, rnd: random.Random) -> Any:
    """``value`` with one leaf or sequence replaced by something odd."""
    if isinstance(value, (list, tuple)) and value and rnd.random() < 0.8:
        at = rnd.randrange(len(value))
        items = list(value)
        items[at] = _with_odd_leaf(items[at], rnd)
        return type(value)(items) if isinstance(value, tuple) else items
    return rnd.choice([None, -2, -1, 0, 5, 6, 7, 8, 99, 2**15, 65536, 2**63, -(2**63) - 1,
                       "1", 1.0, [], [0] * 9, (0,) * 5, True])  # fmt: skip


@compiled
@settings(max_examples=60, deadline=None)
@given(state=testing.game_states(), rnd=st.randoms())
def test_a_position_read_from_plain_data_is_the_state_or_refused(
    state: az.GameState, rnd: random.Random
) -> None:
    """The compiled core's reader of plain positions (pgx's to_state) gives back the
    position it was given (with the table's draws; the outcome of a game over by E4),
    kept as a known position that plays on as the referee does (T1-T4, P1-P7, F1-F4,
    W1-W5); tampered data is refused with a ValueError or TypeError, never a crash or a
    position out of range."""
    if state.phase is az.Phase.REFILL:
        return  # the batch engines draw at once: they never wait for a Refill
    core: Any = state_module._compiled
    grey = state.variant is az.Variant.GREY
    built = core.state_of_position(grey, _plain(state))
    assert built == state.replace(rng_state=None, last_scoring=None)
    moves = state.legal_moves()
    if moves:
        move = rnd.choice(moves)
        assert parts(built.apply(move)) == parts(built.replace().apply(move))
    for _ in range(20):
        data = _with_odd_leaf(_plain(state), rnd)
        try:
            other = core.state_of_position(grey, data)
        except (ValueError, TypeError, OverflowError):
            continue
        assert isinstance(other, az.GameState) and len(other.players) == len(state.players)
