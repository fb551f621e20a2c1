"""Game records and replays."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import azul_rules as az

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def played(seed: int, players: int = 2, variant: az.Variant = az.Variant.COLORED) -> az.GameRecord:
    rnd = random.Random(seed)
    s = az.new_game(players, seed=seed, variant=variant)
    moves: list[az.Move] = []
    while not s.is_over and len(moves) < 1500:
        move = rnd.choice(s.legal_moves())
        moves.append(move)
        s = s.apply(move)
    return az.GameRecord.of_game(moves, players=players, seed=seed, variant=variant)


@pytest.mark.parametrize("variant", list(az.Variant))
def test_a_record_replays_to_the_same_end_and_round_trips(variant: az.Variant) -> None:
    record = played(3, 3, variant)
    replay = record.replay()
    assert replay.ok and replay.final.is_over
    back = az.GameRecord.from_json(record.to_json())
    assert back == record
    assert back.replay().final == replay.final


def test_replay_stops_at_the_first_illegal_move() -> None:
    record = played(4)
    moves = list(record.moves)
    moves[5] = az.Take(0, az.Color.RED, 0)  # factory 1 is empty by then, or not red
    bad = az.GameRecord(tuple(moves), players=2, seed=4)
    replay = bad.replay()
    assert not replay.ok
    assert replay.failed_at == 5
    assert replay.failure is not None and not replay.failure.ok
    assert len(replay.states) == 6


def test_external_draws_record_with_refills() -> None:
    state = az.new_game(2, external_draws=True, first_player=0)
    refill = az.Refill(((az.Color.BLUE,) * 4,) + ((az.Color.RED,) * 4,) * 4)
    record = az.GameRecord((refill, az.parse_move("1B1")), players=2, first_player=0,
                           external_draws=True)  # fmt: skip
    replay = record.replay()
    assert replay.ok
    assert replay.final.players[0].pattern_lines[0].count == 1
    assert replay.states[0] == state
    assert az.GameRecord.from_json(record.to_json()) == record


def test_record_from_an_initial_state() -> None:
    start = az.new_game(2, seed=9)
    move = start.legal_moves()[0]
    record = az.GameRecord((move,), initial_state=start)
    assert az.GameRecord.from_json(record.to_json()).replay().final == start.apply(move)


def test_bad_records_name_every_problem() -> None:
    with pytest.raises(az.FormatError) as caught:
        az.GameRecord.from_dict(
            {"format_version": 1, "players": 5, "moves": ["3B2", "9Z9", {"type": "take"}],
             "colour": "x"}
        )  # fmt: skip
    paths = [p for p, _ in caught.value.errors]
    assert paths == ["$.colour", "$.players", "$.moves[1]", "$.moves[2].source",
                     "$.moves[2].color", "$.moves[2].line"]  # fmt: skip
    with pytest.raises(az.FormatError):
        az.GameRecord.from_json("not json")
    with pytest.raises(az.FormatError):
        az.GameRecord.from_dict({"format_version": 1, "seed": 1, "moves": [],
                                 "initial_state": az.to_dict(az.new_game())})  # fmt: skip


def test_the_example_records() -> None:
    good = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text()).replay()
    assert good.ok and good.final.is_over
    assert good.final.outcome is not None
    disputed = az.GameRecord.from_json((EXAMPLES / "disputed-game.json").read_text()).replay()
    assert disputed.failed_at == 6
    assert disputed.failure is not None
    assert disputed.failure.codes == (az.ErrorCode.LINE_COLOR_MISMATCH, az.ErrorCode.LINE_FULL)
    data = json.loads((EXAMPLES / "recorded-game.json").read_text())
    assert data["format_version"] == 1


def test_a_record_without_format_version_is_told_it_is_missing() -> None:
    """A record with no ``format_version`` was told ``expected 1``, as if it had a wrong
    one: it is missing, as a position's is."""
    with pytest.raises(az.FormatError) as missing:
        az.GameRecord.from_dict({"moves": [], "players": 2})
    assert dict(missing.value.errors)["$.format_version"] == "required field missing"
    with pytest.raises(az.FormatError) as wrong:
        az.GameRecord.from_dict({"format_version": 2, "moves": [], "players": 2})
    assert dict(wrong.value.errors)["$.format_version"] == "expected 1, got 2"
