"""Positions built through the Python API (the constructors, ``attrs.evolve``,
``GameState.make`` and ``replace``): a part of the wrong type is a ``FormatError``, a
position the referee could not even read (players not at the table, a player count
other than 2-4, factories that do not fit it) an ``InvalidStateError``; whatever is
accepted can be asked every question without any other exception."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az


def parts(state: az.GameState) -> dict[str, Any]:
    """Everything ``make`` takes, read from ``state``."""
    names = ("players", "factories", "center", "bag", "lid", "current_player",
             "start_player", "phase", "round", "variant", "marker_holder", "rng_state",
             "outcome", "last_scoring")  # fmt: skip
    return {name: getattr(state, name) for name in names}


def problems_of(error: az.InvalidStateError) -> list[tuple[str, str, str]]:
    return [(p.code.value, p.rule, p.path) for p in error.problems]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"current_player": 7}, [("PLAYER_OUT_OF_RANGE", "G2", "$.current_player")]),
        ({"current_player": -1}, [("PLAYER_OUT_OF_RANGE", "G2", "$.current_player")]),
        ({"marker_holder": 2}, [("PLAYER_OUT_OF_RANGE", "T3", "$.marker_holder")]),
        ({"players": ()}, [("PLAYER_COUNT", "S1", "$.players"),
                           ("PLAYER_OUT_OF_RANGE", "G2", "$.current_player"),
                           ("PLAYER_OUT_OF_RANGE", "G2", "$.start_player")]),
        ({"players": (az.PlayerBoard(),) * 5}, [("PLAYER_COUNT", "S1", "$.players")]),
        ({"factories": ((),) * 10}, [("FACTORY_COUNT", "S2", "$.factories")]),
    ],
)
def test_s1_s2_g2_t3_evolve_refuses_what_the_referee_cannot_read(
    change: dict[str, Any], expected: list[tuple[str, str, str]]
) -> None:
    """S1, S2, G2, T3: such a state once reached legal_moves() and raised IndexError."""
    state = az.new_game(2, seed=1)
    with pytest.raises(az.InvalidStateError) as caught:
        attrs.evolve(state, **change)
    assert problems_of(caught.value) == expected


def test_g2_start_player_out_of_range_is_refused_by_make() -> None:
    """G2: the round's starting player sits at the table."""
    with pytest.raises(az.InvalidStateError) as caught:
        az.GameState.make(**{**parts(az.new_game(3, seed=2)), "start_player": 3})
    assert problems_of(caught.value) == [("PLAYER_OUT_OF_RANGE", "G2", "$.start_player")]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"rng_state": 2**65}, "rng_state is a 64-bit state"),
        ({"rng_state": -1}, "rng_state is a 64-bit state"),
        ({"bag": ["red"]}, "holds 'red', not a Color"),
        ({"round": "2"}, "round must be int, got '2'"),
        ({"round": 0}, "round counts from 1, got 0"),
        ({"round": True}, "round must be int, got True"),
        ({"variant": "purple"}, "variant must be a Variant, 'colored' or 'grey', got 'purple'"),
        ({"phase": "refill"}, "phase must be Phase, got 'refill'"),
        ({"current_player": "0"}, "current_player must be int, got '0'"),
        ({"factories": [["blue"]]}, r"factories\[0\] holds 'blue', not a Color"),
        ({"players": ["board"]}, "players holds PlayerBoards only"),
        ({"bag": {az.Color.RED: 21}}, r"must be a sequence of Colors, got \{Color.RED: 21\}"),
        ({"lid": {az.Color.RED}}, r"must be a sequence of Colors, got \{Color.RED\}"),
        ({"center": frozenset()}, "must be a sequence of Colors, got frozenset"),
        ({"factories": {(az.Color.RED,) * 4: 1}}, "factories is a sequence of tile multisets"),
    ],
)
def test_make_checks_every_part(change: dict[str, Any], words: str) -> None:
    """``GameState.make`` goes through the checked constructors (it once stored a string
    round, a bag of strings or a generator state past 64 bits as given)."""
    with pytest.raises(az.FormatError, match=words):
        az.GameState.make(**{**parts(az.new_game(2, seed=1)), **change})


def test_make_names_itself_and_every_missing_part() -> None:
    """``GameState.make()`` with parts left out was Python's ``TypeError`` naming
    ``Position.make()``, a class the user never met: it names ``GameState.make()``,
    every missing part, and the parts that may be left out."""
    some = {k: v for k, v in parts(az.new_game(2, seed=1)).items()
            if k not in ("bag", "lid", "phase")}  # fmt: skip
    with pytest.raises(TypeError) as caught:
        az.GameState.make(**some)
    assert str(caught.value) == (
        "GameState.make() needs every part of a position by name: bag, lid, phase are "
        "missing (only round, variant, marker_holder, rng_state, outcome, last_scoring may "
        "be left out)"
    )
    with pytest.raises(TypeError, match=r"^GameState.make\(\) needs .*: players, factories,"):
        az.GameState.make()


@pytest.mark.parametrize("variant", ["grey", az.Variant.GREY])
def test_every_entry_point_takes_the_variant_by_its_value_V1(variant: object) -> None:
    """V1: ``new_game(2, variant="grey")`` was a ``FormatError`` while the JSON format,
    the engine protocol, OpenSpiel, PettingZoo and tournaments take the string; so were
    ``GameState.make(variant="grey")`` and ``state.replace(variant="grey")``."""
    state = az.new_game(2, seed=1, variant=variant)  # type: ignore[arg-type]
    assert state.variant is az.Variant.GREY
    assert state == az.new_game(2, seed=1, variant=az.Variant.GREY)
    made = az.GameState.make(**{**parts(state), "variant": variant})
    assert made == state and made.variant is az.Variant.GREY
    assert az.new_game(2, seed=1).replace(variant=variant).variant is az.Variant.GREY
    with pytest.raises(az.FormatError, match="variant must be a Variant, 'colored' or 'grey'"):
        az.new_game(2, variant="Grey")


def test_replace_changes_any_part_by_name_and_checks_it() -> None:
    """``replace`` takes the names ``make`` takes, context parts included."""
    state = az.new_game(2, seed=1)
    later = state.replace(round=3, current_player=1)
    assert (later.round, later.current_player, later.factories) == (3, 1, state.factories)
    assert later.replace(round=1, current_player=state.current_player) == state
    with pytest.raises(az.FormatError, match="round counts from 1"):
        state.replace(round=0)
    with pytest.raises(TypeError, match=r"unknown parts \['turn'\]"):
        state.replace(turn=1)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("red", 1, 1), "PatternLine.color must be a Color or None"),
        ((az.Color.RED, "1", 1), "PatternLine.count must be an int from 0 to 5"),
        ((az.Color.RED, 2, 1), "holds 2 tiles in 1 space:"),
        ((None, 0, 0), "PatternLine.capacity must be an int from 1 to 5, got 0"),
        ((None, 0, 6), "PatternLine.capacity must be an int from 1 to 5, got 6"),
        ((None, 6, 5), "PatternLine.count must be an int from 0 to 5, got 6"),
        ((None, 1, 1), "a line holding tiles has their colour"),
        ((az.Color.RED, 0, 2), "an empty line has color=None"),
    ],
)
def test_s4_p2_pattern_lines_are_checked(args: tuple[Any, ...], words: str) -> None:
    """S4, P2: a line has 1-5 spaces, at most that many tiles, all of one colour."""
    with pytest.raises(az.FormatError, match=words):
        az.PatternLine(*args)


def test_s4_a_board_line_has_the_spaces_of_its_row() -> None:
    """S4: pattern line 1 has one space (a line of three there once made a take raise
    IndexError)."""
    lines = list(az.PlayerBoard().pattern_lines)
    lines[0] = az.PatternLine(None, 0, 3)
    with pytest.raises(az.FormatError, match=r"pattern_lines\[0\] has 3 spaces"):
        az.PlayerBoard(pattern_lines=tuple(lines))


values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=3),
    st.sampled_from(list(az.Color)), st.just(az.MARKER), st.just(()), st.just((None,) * 5),
    st.lists(st.sampled_from(list(az.Color)), max_size=6).map(tuple),
    st.sampled_from(list(az.Phase)), st.sampled_from(list(az.Variant)),
)  # fmt: skip
PART = st.sampled_from(
    ["players", "factories", "center", "bag", "lid", "current_player", "start_player",
     "phase", "round", "variant", "marker_holder", "rng_state"]
)  # fmt: skip


@given(st.integers(0, 30), st.integers(2, 4), st.lists(st.tuples(PART, values), max_size=3),
       st.integers(0, 40))  # fmt: skip
def test_parts_of_any_value_are_refused_clearly_or_every_question_answered(
    seed: int, players: int, changes: list[tuple[str, Any]], steps: int
) -> None:
    """A position built from a played one with some parts replaced by odd values is
    refused with ``FormatError`` or ``InvalidStateError``, or answers ``legal_moves``,
    ``problems``, ``validate`` and ``apply`` with no other exception (``apply`` of a
    move ``validate`` accepts must succeed)."""
    state = az.new_game(players, seed=seed)
    for _ in range(steps):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply(moves[(seed + steps) % len(moves)])
    try:
        odd = state.replace(**dict(changes))
    except (az.FormatError, az.InvalidStateError):
        return
    odd.problems()
    str(odd)
    moves = odd.legal_moves()
    probes = [*moves[:6], az.Take(0, az.Color.RED, 0), az.Take(az.CENTER, az.Color.BLUE,
              az.FLOOR), az.PlaceTile(0, 0)]  # fmt: skip
    for move in probes:
        if odd.validate(move).ok:
            odd.apply(move)
        else:
            with pytest.raises(az.IllegalMoveError):
                odd.apply(move)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"players": 10**5000}, ValueError, "not an integer of more than 4300 digits"),
        ({"first_player": 10**5000}, ValueError, "not an integer of more than 4300 digits"),
        ({"seed": "x" * 500}, az.FormatError, r"seed must be an int, got 'xxx.*\.\.\.$"),
        ({"players": True}, az.FormatError, r"^players must be an int \(2, 3 or 4\), got True"),
        ({"players": 2.0}, az.FormatError, r"^players must be an int \(2, 3 or 4\), got 2\.0"),
        ({"first_player": False}, az.FormatError, r"^first_player must be an int or None, got F"),
        ({"first_player": 2}, ValueError, r"^first_player must be 0 to 1, not 2$"),
        ({"players": 5}, ValueError, r"^Azul is played by 2, 3 or 4 players, not 5 \(S1\)$"),
    ],
)
def test_s1_new_game_names_a_huge_or_long_argument(
    kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    """S1: ``new_game`` refuses its arguments in one readable line, however long; a
    player count of the wrong type (``True`` is no count) is a FormatError."""
    with pytest.raises(error, match=words):
        az.new_game(**kwargs)
