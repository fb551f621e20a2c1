"""The public testing kit (azul_rules.testing), used on the referee itself."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import azul_rules as az
from azul_rules import testing as azt

ROOT = Path(__file__).resolve().parents[2]

TestRefereeMachine = azt.RefereeMachine.TestCase
TestRefereeMachine.settings = settings(
    max_examples=8, stateful_step_count=120, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip


@given(azt.game_states(), st.data())
def test_every_illegal_move_is_refused_with_its_labelled_code(
    state: az.GameState, data: st.DataObject
) -> None:
    """The label of each generated illegal move is the first code of its verdict."""
    move, code = data.draw(azt.illegal_moves(state))
    assert state.validate(move).code is code, (move, state.validate(move))


@given(azt.game_states(include_over=False), st.data())
def test_legal_moves_strategy(state: az.GameState, data: st.DataObject) -> None:
    move = data.draw(azt.legal_moves(state))
    assert state.validate(move).ok


MISTAKES = [
    az.ErrorCode.PARTIAL_TAKE, az.ErrorCode.SPLIT_LOT, az.ErrorCode.FLOOR_WHILE_ROOM,
    az.ErrorCode.TILE_COUNT_MISMATCH, az.ErrorCode.TOO_MANY_TAKEN,
]  # fmt: skip


@settings(suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(azt.game_states(variants=[az.Variant.COLORED], include_over=False), st.data())
def test_table_takes_legal_and_each_mistake(state: az.GameState, data: st.DataObject) -> None:
    if state.phase is not az.Phase.FACTORY_OFFER:
        return
    legal = data.draw(azt.table_takes(state))
    assert state.validate(legal).ok
    assert state.apply(legal) == state.apply(legal.as_take())
    mistake = data.draw(st.sampled_from(MISTAKES))
    strategy = azt.table_takes(state, mistake=mistake)
    if strategy.is_empty:
        return
    move = data.draw(strategy)
    assert state.validate(move).code is mistake


@given(azt.game_states(stage="near_end"))
def test_near_end_states(state: az.GameState) -> None:
    assert not state.problems()
    rows = [sum(t is not None for t in row) for b in state.players for row in b.wall]
    assert max(rows) >= 4 or state.round >= 3


@given(azt.game_states(players=[4], stage="starved"))
def test_starved_bag_states(state: az.GameState) -> None:
    assert not state.problems()
    assert not state.is_over
    assert azt.tile_counts(state) == dict.fromkeys(az.Color, 20)


@given(azt.game_records(players=[2], finished=False))
def test_game_records_replay(record: az.GameRecord) -> None:
    assert record.replay().ok


@given(st.from_type(az.GameState), st.from_type(az.Color))
def test_types_registered_with_hypothesis(state: az.GameState, color: az.Color) -> None:
    assert isinstance(state, az.GameState) and isinstance(color, az.Color)
    assert state.problems() == ()


def test_the_differential_example_catches_a_cross_counted_once() -> None:
    """The documented recipe finds the buggy scorer of examples/differential_testing.py."""
    path = ROOT / "examples" / "differential_testing.py"
    spec = importlib.util.spec_from_file_location("differential_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    machine = module.TestBuggyScorerAgainstTheReferee
    machine.settings = settings(machine.settings, database=None)
    case = machine("runTest")
    with pytest.raises(AssertionError, match="the implementation's scores are"):
        case.runTest()
    cross = [[None, "x", None, None, None], ["x", "x", "x", None, None]] + [[None] * 5] * 3
    assert module.buggy_points(cross, 1, 1) == 4  # the referee says 3 + 2 = 5


PUBLIC = [
    "GameMachine", "Implementation", "ProtocolEngine", "RefereeMachine", "Stage", "colors",
    "differential_machine", "game_records", "game_states", "illegal_moves", "legal_moves",
    "protocol_engine", "refills", "spiel_differential_machine", "table_takes", "tile_counts",
]  # fmt: skip


def test_the_package_exports_the_same_names_from_its_modules() -> None:
    """The kit lives in several modules (strategies, machines, engines, tiles); the
    package still exports every public name, from where it is defined, and
    ``fill_factories`` (a building block ``azul-rules differential`` shares)."""
    from azul_rules.testing import engines, machines, strategies, tiles

    assert sorted(azt.__all__) == sorted(PUBLIC)
    homes = (strategies, machines, engines, tiles)
    for name in [*PUBLIC, "fill_factories"]:
        value = getattr(azt, name)
        assert any(getattr(home, name, None) is value for home in homes), name
    for home in homes:
        assert set(home.__all__) <= {*PUBLIC, "fill_factories", "ProtocolImplementation"}
