"""JSON in and out: round trips, the documented format, strict loading, and fuzzing."""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import CENTER, FLOOR, MARKER
from azul_rules import Color as C

ROOT = Path(__file__).resolve().parents[2]


def reachable_states(seed: int, players: int, variant: az.Variant) -> list[az.GameState]:
    rnd = random.Random(seed)
    s = az.new_game(players, seed=seed, variant=variant)
    out = [s]
    while not s.is_over and len(out) < 1500:  # a starved grey game may never end
        s = s.apply(rnd.choice(s.legal_moves()))
        out.append(s)
    return out


@given(st.integers(0, 10**9), st.sampled_from([2, 3, 4]), st.sampled_from(list(az.Variant)))
def test_every_reachable_state_round_trips(seed: int, players: int, variant: az.Variant) -> None:
    """from_json(to_json(x), GameState) == x, the scoring record included."""
    for s in (
        reachable_states(seed, players, variant)[::5]
        + reachable_states(seed, players, variant)[-1:]
    ):
        back = az.from_json(az.to_json(s), az.GameState)
        assert back == s
        assert back.last_scoring == s.last_scoring
        assert back.outcome == s.outcome
        assert az.from_dict(az.to_dict(s), az.GameState) == s
        assert az.from_json(az.to_json(s, indent=None), az.GameState) == s


def test_grey_state_mid_tiling_and_refill_phase_round_trip() -> None:
    s = az.new_game(3, seed=11, variant=az.Variant.GREY)
    rnd = random.Random(2)
    while s.phase is not az.Phase.WALL_TILING:
        s = s.apply(rnd.choice(s.legal_moves()))
    assert az.from_json(az.to_json(s), az.GameState) == s
    waiting = az.new_game(2, external_draws=True, first_player=1)
    assert az.from_json(az.to_json(waiting), az.GameState) == waiting


MOVES: list[az.Move] = [
    az.Take(2, C.BLUE, 1),
    az.Take(CENTER, C.RED, FLOOR, player=1),
    az.Take(0, MARKER, 0),
    az.TableTake(1, C.BLUE, 3, {2: 2, FLOOR: 1}),
    az.TableTake(CENTER, C.WHITE, 1, {}, player=0),
    az.PlaceTile(0, 3, player=2),
    az.Refill(((C.BLUE, C.RED, C.RED, C.WHITE), (), (C.YELLOW,))),
]


@pytest.mark.parametrize("move", MOVES, ids=str)
def test_every_move_round_trips(move: az.Move) -> None:
    text = az.to_json(move)
    assert az.from_json(text, type(move)) == move
    assert az.move_from_json(text) == move
    assert az.from_dict(az.to_dict(move), type(move)) == move


def test_moves_use_stable_tags_and_names() -> None:
    assert az.to_dict(az.Take(CENTER, C.BLACK, FLOOR)) == {
        "type": "take", "source": "center", "color": "black", "line": "floor"
    }  # fmt: skip
    assert az.to_dict(az.TableTake(1, C.BLUE, 3, {2: 2, FLOOR: 1}))["placements"] == {
        "floor": 1, "2": 2
    }  # fmt: skip


def test_a_state_has_a_format_version_and_colour_names() -> None:
    data = az.to_dict(az.new_game(2, seed=1))
    assert data["format_version"] == 1
    assert set(data["factories"][0]) <= {"blue", "yellow", "red", "black", "white"}


def test_the_documented_example_position_loads() -> None:
    text = (ROOT / "docs" / "json-format.md").read_text()
    block = re.search(r"```json\n(\{\n  \"format_version\".*?)```", text, re.S)
    assert block is not None
    s = az.from_json(block.group(1), az.GameState)
    assert s.round == 2 and s.current_player == 0 and s.marker_holder == 1
    assert s.factories[1] == (C.BLUE, C.BLUE, C.BLUE, C.RED)
    assert s.validate(az.TableTake(1, C.BLUE, 2, {2: 2})).code == az.ErrorCode.PARTIAL_TAKE



def _documented_fields() -> list[tuple[str, str]]:
    """``(field, default)`` for each row of the position's field table in
    docs/json-format.md (a row naming two fields gives both)."""
    text = (ROOT / "docs" / "json-format.md").read_text()
    table = text.split("| field | meaning | default |", 1)[1].split("\n\n", 1)[0]
    rows: list[tuple[str, str]] = []
    for line in table.strip().splitlines()[1:]:
        names, _, default = line.strip("|").split(" | ")
        rows.extend((name, default.strip()) for name in re.findall(r"`(\w+)`", names))
    return rows


def test_the_documented_fields_are_each_listed_once_with_the_reader_s_default() -> None:
    """docs/json-format.md listed ``round`` twice, with the defaults "1" and "the least
    round the walls allow"; the reader takes the least round (W1: at most 5 tiles a
    tiling): the documented position, left without its round, is read as round 2."""
    fields = _documented_fields()
    names = [name for name, _ in fields]
    assert len(names) == len(set(names)), names
    assert set(names) == set(az.to_dict(az.new_game(2, seed=1))) | {"last_scoring"}
    assert dict(fields)["round"] == "the least round the walls allow (see below)"
    text = (ROOT / "docs" / "json-format.md").read_text()
    block = re.search(r"```json\n(\{\n  \"format_version\".*?)```", text, re.S)
    assert block is not None
    doc = json.loads(block.group(1))
    del doc["round"]
    assert az.from_dict(doc, az.GameState).round == 2

def test_documented_move_examples_load() -> None:
    text = (ROOT / "docs" / "json-format.md").read_text()
    lines = [line for line in text.splitlines() if line.startswith('{"type"')]
    assert len(lines) == 5
    kinds = [type(az.move_from_json(line)).__name__ for line in lines]
    assert kinds == ["Take", "Take", "TableTake", "PlaceTile", "Refill"]


# -- strict loading ------------------------------------------------------------------------


def base_doc() -> dict[str, Any]:
    return az.to_dict(az.new_game(2, seed=4))


def format_error(data: object, cls: type = az.GameState) -> az.FormatError:
    with pytest.raises(az.FormatError) as caught:
        az.from_dict(data, cls)
    return caught.value


def test_every_format_problem_is_reported_at_once_with_its_path() -> None:
    doc = base_doc()
    doc["players"][1]["score"] = "12"
    doc["factories"][2][0] = "purple"
    doc["center"] = "blue"
    doc["bag"]["blue"] = -1
    doc["surprise"] = True
    del doc["current_player"]
    error = format_error(doc)
    paths = dict(error.errors)
    assert paths["$.players[1].score"] == "expected an integer, got '12'"
    assert "got 'purple'" in paths["$.factories[2][0]"]
    assert paths["$.center"] == "expected a JSON array, got 'blue'"
    assert paths["$.bag.blue"] == "expected a number from 0, got -1"
    assert paths["$.current_player"] == "required field missing"
    assert paths["$"] == "unknown field: surprise"


def test_shapes_and_versions() -> None:
    doc = base_doc()
    doc["format_version"] = 2
    doc["round"] = 0
    doc["players"][0]["wall"] = doc["players"][0]["wall"][:4]
    doc["players"][1]["pattern_lines"].append([])
    paths = dict(format_error(doc).errors)
    assert set(paths) == {
        "$.format_version", "$.round", "$.players[0].wall", "$.players[1].pattern_lines"
    }  # fmt: skip


def test_bad_enum_values_and_booleans_are_not_numbers() -> None:
    doc = base_doc()
    doc["phase"] = "scoring"
    doc["variant"] = "gray"
    doc["current_player"] = True
    paths = dict(format_error(doc).errors)
    assert "expected one of factory_offer" in paths["$.phase"]
    assert "expected one of colored, grey" in paths["$.variant"]
    assert "expected a" in paths["$.current_player"]


def test_bad_moves() -> None:
    assert dict(format_error({"type": "take", "source": -1, "color": "blue", "line": 0},
                             az.Take).errors) == {
        "$.source": "expected a factory number (from 0) or 'center', got -1"
    }  # fmt: skip
    assert "$.type" in dict(format_error({"type": "pass"}, az.Take).errors)
    assert "$.type" in dict(format_error({"type": "refill", "factories": []}, az.Take).errors)
    error = format_error({"type": "table_take", "source": 0, "color": "blue", "count": 1,
                          "placements": {"left": 1}, "extra": 1}, az.TableTake)  # fmt: skip
    assert error.errors == (
        ("$.placements.left", "expected a pattern line (from 0) or 'floor', got 'left'"),
        ("$", "unknown field: extra"),
    )


def test_not_json_at_all() -> None:
    with pytest.raises(az.FormatError, match="not JSON"):
        az.from_json('{"format_version": 1,', az.GameState)
    with pytest.raises(az.FormatError):
        az.from_json("[]", az.GameState)
    with pytest.raises(az.FormatError):
        az.move_from_json("3")


# -- fuzzing: only FormatError or InvalidStateError, never anything else --------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False)
    | st.sampled_from(["blue", "red", "marker", "center", "floor", "take", "x", ""]),
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.sampled_from(["type", "score", "wall", "players", "color", "line",
                                        "source", "count", "floor", "format_version", "z"]),
                      inner, max_size=6),
    max_leaves=30,
)  # fmt: skip


@given(json_values)
def test_random_json_never_crashes_the_reader(value: object) -> None:
    text = json.dumps(value)
    for cls in (az.GameState, az.Take, az.TableTake, az.Refill, az.PlaceTile):
        with contextlib.suppress(az.FormatError, az.InvalidStateError):
            az.from_json(text, cls)
    with contextlib.suppress(az.FormatError):
        az.move_from_json(text)


def _paths(value: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_paths(item, (*prefix, index)))
    return found


@given(st.integers(0, 10**6), st.data())
def test_a_valid_state_with_one_part_replaced_never_crashes_the_reader(
    seed: int, data: st.DataObject
) -> None:
    doc = az.to_dict(reachable_states(seed, 2, az.Variant.COLORED)[7])
    paths = [p for p in _paths(doc) if p]
    path = data.draw(st.sampled_from(paths))
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(json_values)
    with contextlib.suppress(az.FormatError, az.InvalidStateError):
        az.from_dict(doc, az.GameState)


@given(st.integers(0, 10**6), st.integers(1, 2000))
def test_truncated_files_are_format_errors(seed: int, cut: int) -> None:
    text = az.to_json(reachable_states(seed, 3, az.Variant.COLORED)[3])
    with pytest.raises(az.FormatError):
        az.from_json(text[: min(cut, len(text) - 1)], az.GameState)
