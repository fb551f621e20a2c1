"""Moves and the compact notation."""

from __future__ import annotations

import pytest

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
