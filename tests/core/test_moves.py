"""Moves and the compact notation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import CENTER, FLOOR
from azul_rules import Color as C


def test_parse_move_factory_colour_line() -> None:
    """``3B2``: factory 3, blue, pattern line 2, all 1-based."""
    assert az.parse_move("3B2") == az.Take(2, C.BLUE, 1)


def test_parse_move_centre_black_floor_case_insensitive() -> None:
    assert az.parse_move("ckf") == az.Take(CENTER, C.BLACK, FLOOR)
    assert az.parse_move(" 9W5 ") == az.Take(8, C.WHITE, 4)


@pytest.mark.parametrize("text", ["", "0B1", "3B6", "3X2", "3B", "10B1", "3B2x", "C B 1", "3b0"])
def test_parse_move_rejects_anything_else(text: str) -> None:
    with pytest.raises(az.FormatError, match="cannot read"):
        az.parse_move(text)


def test_parse_move_rejects_non_strings() -> None:
    with pytest.raises(az.FormatError):
        az.parse_move(32)  # type: ignore[arg-type]


def test_str_round_trips_every_compact_take() -> None:
    for source in [*range(9), CENTER]:
        for color in C:
            for line in [*range(5), FLOOR]:
                move = az.Take(source, color, line)
                assert az.parse_move(str(move)) == move


def test_moves_are_hashable_and_compare_by_value() -> None:
    assert hash(az.Take(0, C.RED, 1)) == hash(az.Take(0, C.RED, 1))
    assert len({az.Take(0, C.RED, 1), az.Take(0, C.RED, 1), az.Take(0, C.RED, 2)}) == 2
    assert az.TableTake(0, C.RED, 2, {1: 2}) == az.TableTake(0, C.RED, 2, {1: 2, 3: 0})
    assert hash(az.TableTake(0, C.RED, 2, {1: 2})) == hash(az.TableTake(0, C.RED, 2, {1: 2}))


def test_moves_reject_wrong_types() -> None:
    with pytest.raises(az.FormatError, match=r"Take\.source must be an int"):
        az.Take("1", C.RED, 0)  # type: ignore[arg-type]
    with pytest.raises(az.FormatError, match=r"Take\.color must be a Color"):
        az.Take(0, "red", 0)  # type: ignore[arg-type]
    with pytest.raises(az.FormatError, match=r"Take\.line must be an int"):
        az.Take(0, C.RED, True)
    with pytest.raises(az.FormatError, match="negative"):
        az.TableTake(0, C.RED, 2, {1: -2})
    with pytest.raises(az.FormatError):
        az.TableTake(0, C.RED, 2, "1:2")  # type: ignore[arg-type]
    with pytest.raises(az.FormatError):
        az.PlaceTile(0, 1.5)  # type: ignore[arg-type]


def test_placements_mapping() -> None:
    placements = az.TableTake(0, C.RED, 3, {FLOOR: 1, 2: 2}).placements
    assert placements[2] == 2 and placements[FLOOR] == 1
    assert dict(placements) == {FLOOR: 1, 2: 2}
    assert len(placements) == 2
    with pytest.raises(KeyError):
        placements[0]


def test_reprs_are_valid_python() -> None:
    move = az.Take(2, C.BLUE, 1, player=1)
    assert eval(repr(move), {"Take": az.Take, "Color": az.Color}) == move


def test_validate_refuses_a_non_move() -> None:
    with pytest.raises(az.FormatError, match="not a move"):
        az.new_game().validate("3B2")  # type: ignore[arg-type]


HUGE = 10**5000  # past Python's 4,300 digits: str() and repr() of it raise ValueError


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (5, "TableTake.placements must be a mapping or (line, count) pairs, got 5"),
        (None, "TableTake.placements must be a mapping or (line, count) pairs, got None"),
        ("12", "TableTake.placements must be a mapping or (line, count) pairs, got '12'"),
        (b"\x01\x02", "TableTake.placements must be a mapping or (line, count) pairs, "
         "got b'\\x01\\x02'"),
        ([5], "TableTake.placements holds (line, count) pairs, got 5"),
        ([[0, 1]], "TableTake.placements holds (line, count) pairs, got [0, 1]"),
        ({"0": 1}, "TableTake.placements maps a line (int, or FLOOR) to a tile count (int), "
         "got '0': 1"),
        ({0: True}, "TableTake.placements maps a line (int, or FLOOR) to a tile count (int), "
         "got 0: True"),
        ({-HUGE: 1}, "TableTake.placements: line an integer of more than 4300 digits is "
         "neither 0 or more nor FLOOR"),
        ({0: -HUGE}, "TableTake.placements[0] is negative (an integer of more than 4300 "
         "digits)"),
        ([(HUGE, 1), (HUGE, 2)], "TableTake.placements names line an integer of more than "
         "4300 digits twice"),
    ],
)  # fmt: skip
def test_placements_refuses_what_json_refuses_with_a_format_error(
    items: Any, message: str
) -> None:
    """The user's report: ``Placements(5)`` raised a raw TypeError (iterating an int);
    every refusal of ``Placements`` is a FormatError saying what it got, as a table
    take's ``placements`` in JSON (T2)."""
    with pytest.raises(az.FormatError) as raised:
        az.Placements(items)
    assert str(raised.value) == message
    assert raised.value.errors == (("$", message),)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: az.Take(-HUGE, C.RED, 0), "Take.source must be a factory number from 0, "
         "or CENTER, got an integer of more than 4300 digits"),
        (lambda: az.Take(0, C.RED, -HUGE), "Take.line must be a pattern line from 0, or "
         "FLOOR, got an integer of more than 4300 digits"),
        (lambda: az.PlaceTile(0, -HUGE), "PlaceTile.column must be 0 or more, got an "
         "integer of more than 4300 digits"),
        (lambda: az.TableTake(0, C.RED, -HUGE, {}), "TableTake.count must be 0 or more, "
         "got an integer of more than 4300 digits"),
    ],
)  # fmt: skip
def test_a_negative_number_past_4300_digits_is_named_not_raised(build: Any, message: str) -> None:
    with pytest.raises(az.FormatError) as raised:
        build()
    assert str(raised.value) == message


def _huge() -> st.SearchStrategy[int]:
    """``HUGE`` or ``-HUGE``, built when drawn (Hypothesis describes the elements of
    ``sampled_from`` with ``repr``, which such an integer refuses)."""
    return st.booleans().map(lambda negative: -HUGE if negative else HUGE)


def _odd_values() -> st.SearchStrategy[object]:
    """What a careless or hostile caller may pass: numbers of every size (past 4,300
    digits too), strings, bytes, None, colours, and lists, tuples, sets and dicts of
    them, nested."""
    leaves = st.one_of(
        st.none(), st.booleans(), st.integers(), st.integers(min_value=-7, max_value=7),
        _huge(), st.sampled_from([2**64, -(10**30), FLOOR, CENTER]), st.floats(),
        st.text(max_size=5), st.binary(max_size=5), st.sampled_from(list(C)),
        st.just(az.MARKER),
    )  # fmt: skip
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(inner, max_size=4).map(tuple),
            st.tuples(inner, inner),
            st.frozensets(st.one_of(st.integers(), st.text(max_size=3)), max_size=3),
            st.dictionaries(st.one_of(leaves.filter(lambda v: v is not None), st.tuples(
                st.integers(), st.integers())), inner, max_size=4),
        ),
        max_leaves=12,
    )  # fmt: skip


_PAIRS = st.lists(
    st.tuples(st.one_of(st.integers(), _huge(), st.just(FLOOR)), st.one_of(st.integers(), _huge())),
    max_size=6,
)


@given(st.one_of(_odd_values(), _PAIRS, st.dictionaries(st.integers(), st.integers())))
def test_placements_fuzzed_raise_only_format_error(items: object) -> None:
    """Whatever it is given, ``Placements`` builds a mapping or raises FormatError (T2)."""
    try:
        placements = az.Placements(items)  # type: ignore[arg-type]
    except az.FormatError as error:
        assert error.errors and all(type(m) is str for _, m in error.errors)
        return
    assert all(type(k) is int and type(v) is int and v > 0 for k, v in placements.items())


@given(_odd_values(), _odd_values(), _odd_values(), _odd_values(), _odd_values())
def test_table_take_fuzzed_raises_only_format_error(
    source: object, color: object, count: object, placements: object, player: object
) -> None:
    """Every field of a table take odd at once: a TableTake or a FormatError (T2, T4)."""
    try:
        az.TableTake(source, color, count, placements, player=player)  # type: ignore[arg-type]
    except az.FormatError as error:
        assert error.errors
