"""Whole-game scoresheets: audit_game and azul-rules audit-game (W3, W4, F3, E2, E4)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.adjudication.scoresheet import (
    Scoresheet,
    scoresheet_from_dict,
    scoresheet_from_json,
)
from azul_rules.cli import main
from azul_rules.core.bots import GreedyBot

ROOT = Path(__file__).resolve().parents[2]
CASE = ROOT / "examples" / "audits" / "scoresheet-one-wrong-round"
RECORD = az.GameRecord.from_json((CASE / "record.json").read_text())
TRUE_ROUNDS = ((3, 0), (11, 0), (24, 0), (45, 0), (44, 3))
BONUSES = (11, 2)


def sheet(rounds: tuple[tuple[int, ...], ...] = TRUE_ROUNDS, **rest: object) -> Scoresheet:
    return Scoresheet(rounds, **rest)  # type: ignore[arg-type]


def test_a_correct_sheet_is_confirmed() -> None:
    """E2, E4: the true totals, bonuses, final scores and winner."""
    verdict = az.audit_game(RECORD, sheet(bonuses=BONUSES, final=(55, 5), winners=(0,)))
    assert verdict.ok and verdict.first_wrong is None and verdict.result.ok
    assert verdict.final_scores == (55, 5) and verdict.winners == (0,)
    assert [r.correct for r in verdict.rounds] == list(TRUE_ROUNDS)


def test_f3_the_first_wrong_figure_and_its_mistake_then_carried() -> None:
    """F3 / MARKER_PENALTY_FORGOTTEN in round 3; rounds 4 and 5 carry the error without a
    new mistake, and the final total is judged from the sheet's own last figure."""
    written = scoresheet_from_json((CASE / "scoresheet.json").read_text())
    verdict = az.audit_game(RECORD, written)
    assert not verdict.ok and verdict.first_wrong == (3, 0)
    assert [(r.round, [v.code.value for v in r.violations]) for r in verdict.rounds] == [
        (1, []), (2, []), (3, ["MARKER_PENALTY_FORGOTTEN"]), (4, []), (5, []),
    ]  # fmt: skip
    assert [r.ok for r in verdict.rounds] == [True, True, False, False, False]
    mistake = verdict.violations[0]
    assert mistake.param_dict["round"] == 3 and mistake.rule == "F3"
    assert not verdict.end


def test_w3_a_fresh_mistake_later_on_a_carried_sheet() -> None:
    """W3: round 2 one point short, then round 4 one more short: a mistake in each."""
    rounds = ((3, 0), (10, 0), (23, 0), (43, 0), (42, 3))
    verdict = az.audit_game(RECORD, sheet(rounds))
    named = {r.round: [v.code.value for v in r.violations] for r in verdict.rounds}
    assert named[2] == ["CROSS_COUNTED_ONCE"] and named[4] == ["CROSS_COUNTED_ONCE"]
    assert named[3] == named[5] == []


def test_e2_e4_bonuses_final_and_winner() -> None:
    """E2 / BONUS_MISCOUNT, SCORE_MISCOUNT on the final total, E4 / WRONG_WINNER."""
    verdict = az.audit_game(RECORD, sheet(bonuses=(4, 2), final=(50, 5), winners=(1,)))
    assert [(v.code.value, v.rule) for v in verdict.end] == [
        ("BONUS_MISCOUNT", "E2"), ("SCORE_MISCOUNT", "E2"), ("WRONG_WINNER", "E4"),
    ]  # fmt: skip
    assert verdict.end[1].message == (
        "player 1 wrote a final total of 50 where their last round and end bonuses give 48"
    )


def test_grey_games_are_checked_from_the_columns_played() -> None:
    """V1, V3: a grey game's sheet, right and then one figure off."""
    state, bot, moves = az.new_game(2, seed=6, variant=az.Variant.GREY), GreedyBot(), []
    while not state.is_over:
        move = bot.choose(state)
        moves.append(move)
        state = state.apply(move)
    record = az.GameRecord(tuple(moves), 2, 6, az.Variant.GREY)
    rounds = [r.correct for r in az.audit_game(record, _guess(record)).rounds]
    assert az.audit_game(record, sheet(tuple(rounds))).ok
    wrong = [list(r) for r in rounds]
    wrong[1][1] += 40
    verdict = az.audit_game(record, sheet(tuple(map(tuple, wrong))))
    assert verdict.first_wrong == (2, 1)
    assert [v.code.value for v in verdict.rounds[1].violations] == ["SCORE_MISCOUNT"]


def _guess(record: az.GameRecord) -> Scoresheet:
    """A sheet of zeros, as long as the game (its verdict gives the true totals)."""
    state, tiled = record.start(), 0
    for move in record.moves:
        after = state.apply(move)
        if after.round != state.round or (after.is_over and not state.is_over):
            tiled += 1
        state = after
    return sheet(tuple((0, 0) for _ in range(tiled)))


def test_an_illegal_move_in_the_record_is_reported() -> None:
    """T2: the record's sixth move is replaced by one taking from an emptied factory."""
    moves = list(RECORD.moves)
    moves[5] = moves[0]
    broken = az.GameRecord(tuple(moves), 2, 11)
    verdict = az.audit_game(broken, sheet(((3, 0),)))
    assert verdict.failed_at == 5 and verdict.failure is not None and not verdict.ok


def test_sheets_that_do_not_fit_or_are_malformed() -> None:
    bad: list[tuple[object, list[str]]] = [
        ({"rounds": [[3, 0, 1]]}, ["$.rounds[0]", "$.rounds"]),
        ({"rounds": [[3, 0]] * 6}, ["$.rounds"]),
        ({"rounds": [[3, 0]] * 4, "bonuses": [1, 2]}, ["$.rounds"]),
        ({"rounds": [[3, "0"]], "winners": [0, 0], "x": 1}, ["$.x", "$.rounds[0][1]", "$.winners"]),
        ({"rounds": 5}, ["$.rounds"]),
        ({}, ["$.rounds"]),
        (sheet(((3, [0]),)), ["$.rounds[0][1]"]),  # type: ignore[arg-type]
        (Scoresheet(rounds=None), ["$.rounds"]),  # type: ignore[arg-type]
        ([1, 2], ["$"]),
    ]
    for doc, paths in bad:
        with pytest.raises(az.FormatError) as caught:
            az.audit_game(RECORD, doc)  # type: ignore[arg-type]
        assert [p for p, _ in caught.value.errors] == paths, doc
    with pytest.raises(az.FormatError):
        az.audit_game("record", sheet())  # type: ignore[arg-type]
    with pytest.raises(az.FormatError):
        scoresheet_from_json("{")
    assert scoresheet_from_dict({"rounds": []}).rounds == ()


def test_cli_audit_game(capsys: pytest.CaptureFixture[str]) -> None:
    """F3 through the command: exit 1, the round, the carried rounds, the JSON form."""
    args = ["audit-game", str(CASE / "record.json"), str(CASE / "scoresheet.json")]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "round 3: written 25, 0; the rules give 24, 0" in out
    assert "MARKER_PENALTY_FORGOTTEN (F3)" in out and "carried" in out
    assert main([*args, "--json", "--explain"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["first_wrong"] == [3, 0] and doc["final_scores"] == [55, 5]
    assert doc["rounds"][2]["violations"][0]["rule_text"].startswith("The starting player")
    assert main(["audit-game", str(CASE / "record.json"), str(CASE / "record.json")]) == 2
    assert capsys.readouterr().err == (  # a record given for the sheet: said in one line
        f"azul-rules: {CASE / 'record.json'}: a game record, not a scoresheet (replay and "
        "audit-game read game records)\n"
    )


def _table_draws(state: az.GameState, rng: random.Random) -> az.Refill:
    """R2 as a table would do it: four tiles per factory from the shuffled bag, then the
    lid poured in when the bag runs out."""
    bag, lid = list(state.bag), list(state.lid)
    rng.shuffle(bag)
    rng.shuffle(lid)
    factories = []
    for _ in state.factories:
        tiles: list[az.Color] = []
        while len(tiles) < 4 and (bag or lid):
            if not bag:
                bag, lid = lid, []
            tiles.append(bag.pop())
        factories.append(tuple(tiles))
    return az.Refill(tuple(factories))


def test_r2_a_game_with_the_table_s_draws() -> None:
    """R2, E4: a record with Refill moves; the true sheet is confirmed, and a round
    written 2 too high is named."""
    rng, bot = random.Random(3), GreedyBot()
    state, moves = az.new_game(2, external_draws=True, first_player=0), []
    while not state.is_over:
        move = _table_draws(state, rng) if state.phase is az.Phase.REFILL else bot.choose(state)
        moves.append(move)
        state = state.apply(move)
    record = az.GameRecord(tuple(moves), 2, external_draws=True, first_player=0)
    assert state.outcome is not None
    zeros = az.audit_game(record, sheet(((0, 0),) * 5))
    truth = tuple(r.correct for r in zeros.rounds)
    assert az.audit_game(record, sheet(truth, winners=state.outcome.winners)).ok
    wrong = [list(r) for r in truth]
    wrong[3][0] += 2
    verdict = az.audit_game(record, sheet(tuple(map(tuple, wrong))))
    assert verdict.first_wrong == (4, 0) and verdict.rounds[3].violations


def test_a_total_past_4300_digits_is_named_not_raised() -> None:
    """Plain data may hold any integer; the reader quoted it with ``str``, which raised
    ValueError past 4,300 digits (W4: a score is a total of points)."""
    huge = 10**5000
    with pytest.raises(az.FormatError) as raised:
        scoresheet_from_dict({"format_version": 1, "rounds": [[huge, 3]], "final": -huge})
    assert raised.value.errors == (
        ("$.rounds[0][0]", "expected an integer from -1000000 to 1000000, got an integer "
         "of more than 4300 digits"),
        ("$.final", "expected a JSON array, got an integer of more than 4300 digits"),
    )  # fmt: skip


@pytest.mark.parametrize("variant", [az.Variant.COLORED, az.Variant.GREY])
def test_w3_w4_a_round_written_right_is_confirmed_as_the_full_audit_would(
    variant: az.Variant,
) -> None:
    """W3, W4: a round whose totals before and after are the rules' is confirmed without a
    second audit; the full audit of its offer's end agrees, on both walls (the grey walls
    as the record laid them, V1), over random games of 2 to 4 players."""
    from azul_rules.adjudication.claims import ClaimedBoard
    from azul_rules.adjudication.scoresheet import _replay

    for players in (2, 3, 4):
        state, rng = az.new_game(players, seed=players, variant=variant), random.Random(7)
        moves: list[az.Move] = []
        while not state.is_over and len(moves) < 400:
            move = rng.choice(state.legal_moves())
            moves.append(move)
            state = state.apply(move)
        record = az.GameRecord.of_game(moves, players=players, seed=players, variant=variant)
        rounds = _replay(record)[0]
        written = tuple(tuple(b.score for b in r.after) for r in rounds)
        verdict = az.audit_game(record, Scoresheet(written))
        assert [r.violations for r in verdict.rounds] == [()] * len(rounds)
        for played in rounds:
            walls = None
            if variant is az.Variant.GREY:
                walls = tuple(ClaimedBoard(wall=b.wall) for b in played.after)
            claim = az.Claim(scores=tuple(b.score for b in played.after), boards=walls)
            assert az.audit(played.offer_end(), claim).ok
