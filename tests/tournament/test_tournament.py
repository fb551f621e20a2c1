"""Tournaments (azul_rules.tournament): the schedule, refereeing with forfeits, the
JSON-lines file and --resume, the statistics, the process backend and the command line.
The Ray backend is tested in test_tournament_ray.py."""

from __future__ import annotations

import contextlib
import hashlib
import io
import itertools
import json
import math
import os
import re
import subprocess
import sys
import types
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import azul_rules as az
from azul_rules.cli import main
from azul_rules.core.bots import BotSpecError, bot_factory, build_bot, seat_seed
from azul_rules.tournament import (
    GameSummary,
    TournamentError,
    bradley_terry,
    cycle_length,
    deal_seed,
    game_spec,
    lineup,
    load_record,
    run,
    wilson_interval,
)
from azul_rules.tournament.lines import OutFile, read_existing
from azul_rules.tournament.runner import _progress
from azul_rules.tournament.settings import Settings, entrants
from azul_rules.tournament.stats import Tally
from tests import tournament_bots

BOTS = "tests.tournament_bots"


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- the schedule ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bots", "players"),
    [(1, 2), (2, 2), (3, 2), (2, 3), (2, 4), (3, 4), (4, 4), (5, 4), (6, 3), (5, 2)],
)
def test_every_bot_plays_every_seat_equally_in_a_cycle(bots: int, players: int) -> None:
    cycle = cycle_length(bots, players)
    assert cycle == (math.comb(bots, players) * players if bots >= players else bots)
    seats: Counter[tuple[int, int]] = Counter()
    for position in range(cycle):
        seated = lineup(position, bots, players)
        assert len(seated) == players
        if bots >= players:
            assert len(set(seated)) == players
        seats.update((bot, seat) for seat, bot in enumerate(seated))
    per_seat = set(seats.values())
    assert len(per_seat) == 1 and len(seats) == bots * players


def test_lineups_follow_the_order_of_itertools_combinations() -> None:
    groups = [lineup(p * 3, 7, 3) for p in range(math.comb(7, 3))]
    assert groups == list(itertools.combinations(range(7), 3))
    assert [lineup(p, 7, 3) for p in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_a_cycle_shares_one_deal_and_seeds_are_the_documented_hashes() -> None:
    def blake(text: str) -> int:
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest()) >> 11

    assert deal_seed(0, 0) == blake("azul-rules/deal:0:0") == 8221124002630337
    assert seat_seed(7, 1) == blake("azul-rules/seat:7:1") == 4417063254433813
    specs = [game_spec(i, bots=3, players=2, seed=5) for i in range(12)]
    assert [s.deal for s in specs] == [0] * 6 + [1] * 6
    assert {s.seed for s in specs[:6]} == {deal_seed(5, 0)}
    assert specs[7].seed == deal_seed(5, 1)
    assert specs[4].bot_seeds == (seat_seed(specs[4].seed, 0), seat_seed(specs[4].seed, 1))
    explicit = game_spec(7, bots=3, players=2, seed=5, seeds=[11, 22])
    assert (explicit.seed, explicit.seats) == (22, specs[7].seats)


# -- bots ------------------------------------------------------------------------------


def test_bot_specs_name_built_in_and_imported_factories() -> None:
    assert bot_factory("greedy") is az_bots().GreedyBot
    assert bot_factory(f"{BOTS}:SeededBot") is tournament_bots.SeededBot
    seeded = build_bot(tournament_bots.SeededBot, 42)
    assert isinstance(seeded, tournament_bots.SeededBot) and seeded.seed == 42
    assert isinstance(build_bot(tournament_bots.FirstMoveBot, 42), tournament_bots.FirstMoveBot)


def az_bots() -> Any:
    from azul_rules.core import bots

    return bots


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("smart", "unknown bot 'smart': choose random, greedy or package.module:Factory"),
        ("no_such_module_x:Bot", "cannot import bot 'no_such_module_x:Bot' "
         "(ModuleNotFoundError: No module named 'no_such_module_x')"),
        (f"{BOTS}:Missing", "tests.tournament_bots has no attribute 'Missing'"),
        (f"{BOTS}:ILLEGAL", "is not callable"),
        ("os.path", "unknown bot 'os.path'"),
    ],
)  # fmt: skip
def test_a_bad_bot_spec_is_one_clear_value_error(spec: str, says: str) -> None:
    with pytest.raises(BotSpecError) as caught:
        bot_factory(spec)
    assert isinstance(caught.value, ValueError)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_duplicate_names_are_numbered() -> None:
    assert [e.name for e in entrants(["random", "random", "greedy"])] == [
        "random", "random#2", "greedy"
    ]  # fmt: skip


# -- refereeing: forfeits, the round cap ----------------------------------------------


def test_an_illegal_move_forfeits_with_the_verdict_and_replays_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S2: factory 100 does not exist; the forfeiting seat loses, its opponent wins."""
    out = tmp_path / "games.jsonl"
    results = run(["greedy", f"{BOTS}:IllegalBot"], games=2, out=str(out))
    for game in lines(out):
        result = game["result"]
        forfeit = result["forfeit"]
        assert result["end"] == "forfeit"
        assert forfeit["reason"] == "illegal_move" and forfeit["move"] == {
            "type": "take", "source": 99, "color": "red", "line": 0}  # fmt: skip
        assert forfeit["bot"] == f"{BOTS}:IllegalBot"
        assert forfeit["violations"][0] == {
            "code": "NO_SUCH_SOURCE", "rule": "S2",
            "message": "there is no factory 100: this table has factories 1 to 5 and the centre",
        }  # fmt: skip
        replay = load_record(str(out), game["game"]).replay()
        assert replay.failed_at == forfeit["move_number"] - 1 and replay.failure is not None
        assert forfeit["violations"] == [
            {"code": v.code.value, "rule": v.rule, "message": v.message}
            for v in replay.final.validate(tournament_bots.ILLEGAL).violations
        ]
        assert result["winners"] == [1 - forfeit["seat"]]
        assert game["record"]["moves"][-1] == forfeit["move"]
        assert result["moves"] == len(game["record"]["moves"]) - 1 == forfeit["move_number"] - 1
    greedy, illegal = results.bots
    assert (greedy.wins, greedy.losses, illegal.forfeits, illegal.wins) == (2, 0, 2, 0)
    assert illegal.mean_score is None and illegal.losses == 2
    assert main(["replay", str(out), "--game", "1"]) == 1
    assert "NO_SUCH_SOURCE (S2): there is no factory 100" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("bot", "reason", "error"),
    [
        ("RaisingBot", "error", "RuntimeError: boom (at tournament_bots.py:"),
        ("TextBot", "not_a_move",
         "not a move: a str (expected Take, TableTake, PlaceTile or Refill)"),
        ("broken_factory", "error",
         "building the bot: ValueError: no weights found (at tournament_bots.py:"),
        ("SleepyBot", "time_limit", "no move within the time limit of 0.05 s"),
        ("StubbornBot", "time_limit", "no move within the time limit of 0.05 s"),
    ],
)  # fmt: skip
def test_a_misbehaving_bot_forfeits_with_the_error(
    tmp_path: Path, bot: str, reason: str, error: str
) -> None:
    out = tmp_path / "games.jsonl"
    results = run(["random", f"{BOTS}:{bot}"], games=2, out=str(out), time_limit=0.05)
    for game in lines(out):
        forfeit = game["result"]["forfeit"]
        assert (forfeit["reason"], forfeit["violations"]) == (reason, [])
        assert forfeit["error"].startswith(error)
        assert game["lineup"][forfeit["seat"]] == f"{BOTS}:{bot}"
        assert load_record(str(out), game["game"]).replay().ok
    assert results.bots[1].forfeits == 2 and results.bots[0].wins == 2


def test_a_forfeit_at_three_players_is_a_shared_win_of_the_others(tmp_path: Path) -> None:
    results = run(["greedy", "random", f"{BOTS}:RaisingBot"], players=3, games=3)
    greedy, random_, raising = results.bots
    assert results.ends == {"finished": 0, "forfeit": 3, "unfinished": 0}
    assert (greedy.wins, greedy.shared_wins, greedy.points) == (0, 3, 1.5)
    assert (raising.forfeits, raising.losses, raising.win_rate) == (3, 3, 0.0)
    assert greedy.rating.rating == pytest.approx(random_.rating.rating)
    assert raising.rating.rating < greedy.rating.rating - 100


def test_the_round_cap_ends_a_game_unfinished(tmp_path: Path) -> None:
    """A game still going after max_rounds rounds ends without a winner."""
    out = tmp_path / "games.jsonl"
    results = run(["greedy", "random"], games=2, max_rounds=1, out=str(out))
    for game in lines(out):
        result = game["result"]
        assert (result["end"], result["winners"], result["rounds"]) == ("unfinished", [], 2)
        assert load_record(str(out), game["game"]).replay().final.round == 2
    for bot in results.bots:
        assert (bot.unfinished, bot.wins, bot.losses, bot.mean_score) == (2, 0, 0, None)
        assert bot.rating.rating == pytest.approx(1500)


def test_grey_games_are_refereed_and_each_line_holds_its_exact_record(tmp_path: Path) -> None:
    """V1-V5 through the bots; every line's record is GameRecord.to_dict() of the game."""
    out = tmp_path / "games.jsonl"
    run(["greedy", "random"], games=2, variant="grey", out=str(out))
    for game in lines(out):
        record = load_record(str(out), game["game"])
        assert record.to_dict() == game["record"] and record.variant is az.Variant.GREY
        replay = record.replay()
        assert replay.ok and len(replay.states) - 1 == game["result"]["moves"]
        if game["result"]["end"] == "finished":
            assert replay.final.outcome is not None
            assert list(replay.final.outcome.scores) == game["result"]["scores"]
            assert list(replay.final.outcome.winners) == game["result"]["winners"]
        else:
            assert game["result"]["end"] == "unfinished" and replay.final.round == 101


def test_seeds_give_the_same_file_and_explicit_seeds_are_used(tmp_path: Path) -> None:
    first, second, third = (tmp_path / f"{n}.jsonl" for n in "abc")
    run(["greedy", "random"], games=4, seed=9, out=str(first))
    run(["greedy", "random"], games=4, seed=9, out=str(second))
    assert first.read_bytes() == second.read_bytes()
    run(["greedy", "random"], seeds=[3, 4], out=str(third))
    assert [g["seed"] for g in lines(third)] == [3, 3, 4, 4]
    assert [g["lineup"] for g in lines(third)][:2] == [["greedy", "random"], ["random", "greedy"]]


def test_a_file_of_explicit_seeds_holds_no_game_beyond_them(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    run(["greedy", "random"], seeds=[3], out=str(out))
    line = out.read_text().splitlines()[1].replace('"game":1', '"game":7')
    out.write_text(line + "\n")
    with pytest.raises(TournamentError, match="line 1: \"game\" is not a game number of this"):
        run(["greedy", "random"], seeds=[3], out=str(out), resume=True)


def test_replay_of_garbage_on_standard_input_is_a_format_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"9" * 5000)))
    with pytest.raises(az.FormatError, match="more than 4300 digits"):
        load_record("-")


def test_python_factories_run_locally_but_the_process_backend_needs_picklable_ones() -> None:
    results = run({"first": lambda: tournament_bots.FirstMoveBot(), "greedy": "greedy"}, games=2)
    assert [b.name for b in results.bots] == ["first", "greedy"]
    with pytest.raises(TournamentError, match="'first' cannot be sent to the process backend"):
        run({"first": lambda: tournament_bots.FirstMoveBot(), "g": "greedy"}, games=2,
            backend="process")  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"games": -1}, "games must be a number of games"),
        ({}, "give the number of games"),
        ({"games": 5, "seeds": [1]},
         r"5 games need 3 deal seeds \(2 games a deal\), but seeds= gives 1"),
        ({"games": 2, "backend": "gpu"}, "unknown backend 'gpu'"),
        ({"games": 2, "time_limit": 0}, "time_limit must be a positive number"),
        ({"games": 2, "resume": True}, r"resume=True needs the file to continue \(out=\.\.\.\)"),
        ({"games": 2, "batch": 0}, "batch must be a positive integer"),
        ({"games": 2, "ray_address": "auto"},
         r"ray_address is for the ray backend, not local \(backend='ray'\)"),
        ({"games": 2, "backend": "process", "ray_address": "127.0.0.1:6379"},
         "is for the ray backend, not process"),
    ],
)  # fmt: skip
def test_settings_that_cannot_run_are_tournament_errors(kwargs: Any, says: str) -> None:
    with pytest.raises(TournamentError, match=says):
        run(["greedy", "random"], **kwargs)


# -- statistics ------------------------------------------------------------------------


def test_wilson_interval_on_known_numbers() -> None:
    """Published values (four decimals): 7/10 → 0.3968–0.8922, 0/10 → 0–0.2775,
    50/100 → 0.4038–0.5962."""
    assert wilson_interval(7, 10) == pytest.approx((0.3968, 0.8922), abs=5e-5)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-5)
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=5e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bradley_terry_on_a_known_result_set() -> None:
    """30 wins of 40, plus the prior's virtual draw: 400·log10(30.5/10.5) Elo apart."""
    strong, weak = bradley_terry([[0, 30], [10, 0]])
    assert strong.rating - weak.rating == pytest.approx(400 * math.log10(30.5 / 10.5))
    assert (strong.rating + weak.rating) / 2 == pytest.approx(1500)
    p = 30.5 / 41
    expected = 400 / math.log(10) * math.sqrt(1 / (4 * 41 * p * (1 - p)))
    assert strong.error == pytest.approx(expected) and weak.error == pytest.approx(expected)
    even = bradley_terry([[0, 5, 5], [5, 0, 5], [5, 5, 0]])
    assert [r.rating for r in even] == pytest.approx([1500, 1500, 1500])
    chain = bradley_terry([[0, 8, 9], [2, 0, 8], [1, 2, 0]])
    assert chain[0].rating > chain[1].rating > chain[2].rating
    unbeaten = bradley_terry([[0, 20], [0, 0]])
    assert math.isfinite(unbeaten[0].rating) and unbeaten[0].rating > 1700


def test_the_tally_counts_wins_shares_margins_and_pairs() -> None:
    tally = Tally(3, 3)
    tally.add(GameSummary(0, (0, 1, 2), "finished", (0,), (50, 40, 30)))
    tally.add(GameSummary(1, (1, 2, 0), "finished", (0, 1), (45, 45, 20)))
    tally.add(GameSummary(2, (2, 0, 1), "forfeit", (1, 2), (3, 4, 5), forfeiter=0))
    a, b, c = tally.stats(["a", "b", "c"])
    assert (a.wins, a.shared_wins, a.points, a.losses) == (1, 1, 1.5, 1)
    assert (b.wins, b.shared_wins, b.points, b.losses) == (0, 2, 1.0, 1)
    assert (c.wins, c.shared_wins, c.forfeits, c.losses) == (0, 1, 1, 2)
    assert a.mean_score == (50 + 20) / 2 and a.mean_margin == (10 - 25) / 2
    assert c.mean_score == (30 + 45) / 2 and c.mean_margin == (-20 + 0) / 2
    assert tally.pair_wins[0][1] == 1 + 0 + 0.5 and tally.pair_wins[1][0] == 0 + 1 + 0.5
    assert tally.pair_wins[2][0] == 0 + 1 + 0 and tally.pair_wins[1][2] == 1 + 0.5 + 1


def test_results_ends_always_counts_the_three_ways_a_game_ends(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``Results.ends`` is ``{"finished": n, "forfeit": n, "unfinished": n}`` as
    docs/tournament.md says, zeros included (``ends["forfeit"]`` raised KeyError when
    no game was forfeited), in the results' JSON and the command's ``--json`` too."""
    results = run(["greedy", "random"], games=4, seed=1)
    assert results.ends == {"finished": 4, "forfeit": 0, "unfinished": 0}
    assert list(results.ends) == ["finished", "forfeit", "unfinished"]
    assert results.ends["forfeit"] == 0 and results.ends["unfinished"] == 0
    assert results.to_dict()["ends"] == {"finished": 4, "forfeit": 0, "unfinished": 0}
    assert results.table().splitlines()[-1].startswith(
        "4 games: 4 finished, 0 forfeited, 0 unfinished (round cap 100)"
    )
    assert main(["tournament", "--bots", "greedy,random", "--games", "4", "--seed", "1",
                 "--json"]) == 0  # fmt: skip
    printed = json.loads(capsys.readouterr().out)
    assert printed["ends"] == {"finished": 4, "forfeit": 0, "unfinished": 0}
    assert Tally(2, 2).ends == {"finished": 0, "forfeit": 0, "unfinished": 0}
    built = attrs.evolve(results, ends={"unfinished": 2})
    assert built.ends == {"finished": 0, "forfeit": 0, "unfinished": 2}


def test_the_results_table_names_every_figure() -> None:
    results = run(["greedy", f"{BOTS}:IllegalBot"], games=2)
    table = results.table().splitlines()
    assert table[0].split()[:5] == ["bot", "games", "wins", "shared", "forfeits"]
    assert table[2].split()[:5] == ["greedy", "2", "2", "0", "0"]
    assert "100.0% (34.2–100.0)" in table[2]
    assert table[-1].startswith("2 games: 0 finished, 2 forfeited, 0 unfinished")
    assert results.to_dict()["bots"][1]["forfeits"] == 2


# -- the file: resume, truncation, corruption -----------------------------------------


def test_resume_after_an_interrupted_write_gives_the_uninterrupted_file(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    bots = ["greedy", "random", f"{BOTS}:IllegalBot"]
    run(bots, games=9, seed=3, out=str(whole))
    run(bots, games=5, seed=3, out=str(cut))
    sixth = whole.read_text().splitlines()[5]
    with cut.open("a") as partial:
        partial.write(sixth[: len(sixth) // 2])
    results = run(bots, games=9, seed=3, out=str(cut), resume=True)
    assert cut.read_bytes() == whole.read_bytes()
    assert (results.resumed, results.played, results.games) == (5, 4, 9)
    assert results.cut_bytes == len(sixth) // 2
    again = run(bots, games=9, seed=3, out=str(cut), resume=True)
    assert (again.played, again.games, cut.read_bytes() == whole.read_bytes()) == (0, 9, True)
    assert [b.wins for b in again.bots] == [b.wins for b in results.bots]


def test_resume_names_an_odd_settings_key_briefly(tmp_path: Path) -> None:
    """A settings key of the file's own (hostile: 10,000 characters, a control character)
    is quoted and cut in the one-line error, never echoed whole."""
    out = tmp_path / "games.jsonl"
    run(["greedy", "random"], games=1, out=str(out))
    odd = "\\u0007" + "k" * 10_000  # as JSON writes it: BEL, then 10,000 k
    text = out.read_text().replace('{"tournament":{', '{"tournament":{"' + odd + '":1,', 1)
    out.write_text(text)
    with pytest.raises(TournamentError) as caught:
        run(["greedy", "random"], games=1, out=str(out), resume=True)
    message = str(caught.value)
    assert "was written with other settings: '\\x07kkk" in message
    assert len(message) < 300 and "\x07" not in message and "k" * 100 not in message


def test_resume_refuses_a_file_of_other_settings(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    run(["greedy", "random"], games=2, out=str(out))
    with pytest.raises(TournamentError, match=r"line 1 was written with other settings: "
                       r"players 2 there, 3 here"):  # fmt: skip
        run(["greedy", "random"], players=3, games=2, out=str(out), resume=True)
    with pytest.raises(TournamentError, match=r"bots \['greedy', 'random'\] there, "
                       r"\['random', 'greedy'\] here"):  # fmt: skip
        run(["random", "greedy"], games=2, out=str(out), resume=True)
    with pytest.raises(TournamentError, match="already holds games: continue it with resume=True"):
        run(["greedy", "random"], games=2, out=str(out))


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda ls: [ls[0], "{oops", ls[1]], "line 2: not JSON"),
        (lambda ls: [ls[0], ls[0]], r"line 2 repeats game 0 \(first on line 1\)"),
        (lambda ls: [ls[0], "", ls[1]], "line 2: an empty line"),
        (lambda ls: [re.sub(r'"deal":0,"seed":\d+', '"deal":0,"seed":1', ls[1])],
         "line 1: game 1 has seed 1 and lineup"),
        (lambda ls: [ls[0].replace('"end":"finished"', '"end":"won"')],
         "line 1: \\$\\.result\\.end: 'won', but its record replays to 'finished'$"),
        (lambda ls: ['{"game": 0}'], 'line 1: not a tournament game line'),
        (lambda ls: [ls[0], '{"game": ' + "9" * 5000 + "}"],
         "line 2: not acceptable JSON: an integer of more than 4300 digits$"),
        (lambda ls: [ls[0], ls[1].replace('"game":1', '"game":1,"game":1')],
         "line 2: \\$: the same key given twice: 'game'$"),
        (lambda ls: [ls[0].replace('"end":"finished"', '"end":"finished","end":"won"')],
         "line 1: \\$.result: the same key given twice: 'end'$"),
        (lambda ls: [ls[0][:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}"],
         "line 1: not acceptable JSON: nested too deeply$"),
        (lambda ls: [ls[0].replace('"game":0', '"game":-3')], "not a game number"),
        (lambda ls: [ls[0].replace('"time_limit":null,', '')],
         "line 1 was written with other settings: time_limit missing there, None here"),
        (lambda ls: [ls[0].replace('"seed":0,', '"seed":false,', 1)],
         "line 1 was written with other settings: seed False there, 0 here"),
        (lambda ls: [ls[0].replace('"max_rounds":100}', '"max_rounds":100,"extra":null}')],
         "line 1 was written with other settings: extra None there, missing here"),
    ],
)  # fmt: skip
def test_a_damaged_complete_line_is_an_error_naming_it(
    tmp_path: Path, damage: Any, says: str
) -> None:
    out = tmp_path / "games.jsonl"
    run(["greedy", "random"], games=2, out=str(out))
    out.write_text("\n".join(damage(out.read_text().splitlines())) + "\n")
    before = out.read_bytes()
    with pytest.raises(TournamentError, match=says):
        run(["greedy", "random"], games=4, out=str(out), resume=True)
    assert out.read_bytes() == before


def _forfeit_by_seat_0(doc: dict[str, Any]) -> None:
    """An invented forfeit on a game its record plays to the end."""
    doc["result"].update(end="forfeit", winners=[1], forfeit={
        "seat": 0, "bot": "greedy", "reason": "error", "move_number": 50, "move": None,
        "violations": [], "error": "RuntimeError: boom"})  # fmt: skip


def _set(path: str, value: object) -> Any:
    """A change to game 0's line (greedy beats random 60-0 in 49 moves, 5 rounds)."""
    keys = path.split(".")

    def change(doc: dict[str, Any]) -> None:
        for key in keys[:-1]:
            doc = doc[key]
        doc[keys[-1]] = value

    return change


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (_set("result.scores", [10**400, 0]),
         r"\$\.result\.scores: \[1000.*\.\.\., but its record replays to \[60, 0\]"),
        (_set("result.scores", [10**20, 0]),
         r"\$\.result\.scores: \[100000000000000000000, 0\], but its record replays to "
         r"\[60, 0\]"),
        (lambda doc: doc.update(result={**doc["result"], "scores": [999, 0], "winners": [1]}),
         r"\$\.result\.winners: \[1\], but its record replays to \[0\]"),
        (_set("result.rounds", -5), r"\$\.result\.rounds: -5, but its record replays to 5"),
        (_set("result.moves", "x"), r"\$\.result\.moves: 'x', but its record replays to 49"),
        (lambda doc: doc.pop("record"), r"\$\.record: required field missing"),
        (lambda doc: doc["record"].update(initial_state=az.to_dict(az.new_game(2))),
         r"\$\.record: give either initial_state or new_game settings, not both"),
        (lambda doc: doc["record"].update(moves=doc["record"]["moves"][:20]),
         r"\$\.result\.end: 'finished', but its record stops in round 2 with the game going "
         r"on \(not over, the round cap 100 not reached\) and no forfeit"),
        (_forfeit_by_seat_0, r"\$\.result\.end: 'forfeit', but its record replays to "
                             r"'finished'"),
    ],
)  # fmt: skip
def test_tournament_resume_believes_a_line_only_as_far_as_its_record_replays(
    tmp_path: Path, change: Any, says: str
) -> None:
    """``--resume`` reads each line as strictly as ``replay --game N`` reads its record,
    and checks its result against the record's replay (end, winners, scores, rounds,
    moves, forfeit): a score of 400 digits (a bare ``OverflowError`` in the statistics),
    a flipped winner, a cut record still ``finished``, an invented forfeit... are a
    ``TournamentError`` naming the line and the JSON path, the file left untouched."""
    out = tmp_path / "games.jsonl"
    run(["greedy", "random"], games=2, out=str(out))
    first, second = out.read_text().splitlines()
    doc = json.loads(first)
    assert doc["result"]["scores"] == [60, 0]  # what the cases above were written for
    change(doc)
    out.write_text(json.dumps(doc) + "\n" + second + "\n")
    before = out.read_bytes()
    with pytest.raises(TournamentError, match=f"^{re.escape(str(out))} line 1: {says}$"):
        run(["greedy", "random"], games=4, out=str(out), resume=True)
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("bots", "players", "kwargs"),
    [
        (["greedy", "random", f"{BOTS}:IllegalBot", f"{BOTS}:RaisingBot", f"{BOTS}:TextBot",
          f"{BOTS}:broken_factory", "tests.hostile_bots:CheatingBot",
          "tests.hostile_bots:HugeSourceBot"], 2, {}),
        (["random", "greedy", "tests.hostile_bots:WrappedRandomBot", f"{BOTS}:broken_factory"],
         3, {"max_rounds": 1}),
        (["random", f"{BOTS}:SleepyBot"], 2, {"time_limit": 0.05}),
    ],
)  # fmt: skip
def test_tournament_resume_reads_back_every_ending_the_referee_writes(
    tmp_path: Path, bots: list[str], players: int, kwargs: dict[str, Any]
) -> None:
    """Every line the referee writes is believed: finished, unfinished (the round cap),
    forfeits of every reason (an illegal move held by the record or not, a raise, a
    factory failing for any seat, an answer that is no move, a changed state, the time
    limit); the table read back is the table played."""
    out = tmp_path / "games.jsonl"
    games = cycle_length(len(bots), players)
    played = run(bots, players=players, games=games, out=str(out), **kwargs)
    ends = {game["result"]["end"] for game in lines(out)}
    assert ends == ({"forfeit", "unfinished"} if "max_rounds" in kwargs
                    else {"forfeit"} if "time_limit" in kwargs else {"finished", "forfeit"})
    again = run(bots, players=players, games=games, out=str(out), resume=True, **kwargs)
    assert (again.resumed, again.played) == (games, 0)
    assert again.bots == played.bots and again.ends == played.ends


def test_tournament_resume_on_the_command_line_refuses_a_line_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command: exit 2, one line naming the line and its path, no internal error."""
    out = tmp_path / "games.jsonl"
    run(["greedy", "random"], games=2, out=str(out))
    first, second = out.read_text().splitlines()
    doc = json.loads(first)
    doc["result"]["scores"] = [10**400, 0]
    out.write_text(json.dumps(doc) + "\n" + second + "\n")
    argv = ["tournament", "--bots", "greedy,random", "--games", "4", "--out", str(out),
            "--resume", "--no-progress"]  # fmt: skip
    assert main(argv) == 2
    out_text, err = capsys.readouterr()
    assert out_text == ""
    assert re.fullmatch(f"azul-rules: {re.escape(str(out))} line 1: \\$\\.result\\.scores: "
                        r"\[1000[^\n]*, but its record replays to \[60, 0\]\n", err), err


def test_two_runs_cannot_write_one_file_at_once(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    holder = OutFile(str(out))
    try:
        with pytest.raises(TournamentError, match="is being written by another tournament run"):
            run(["greedy", "random"], games=2, out=str(out), resume=True)
    finally:
        holder.close()
    assert run(["greedy", "random"], games=2, out=str(out), resume=True).played == 2


SETTINGS = Settings(entrants(["greedy", "random"]))


@given(st.binary(max_size=300), st.booleans())
def test_reading_back_any_bytes_errs_cleanly(
    tmp_path_factory: Any, data: bytes, head: bool
) -> None:
    """Whatever follows a line, reading it back raises only the documented errors."""
    path = tmp_path_factory.mktemp("fuzz") / "games.jsonl"
    good = (
        b'{"tournament":{"format":1,"bots":["greedy","random"],"players":2,"variant":"colored",'
        b'"seed":0,"time_limit":null,"max_rounds":100},"game":0}\n'
    )
    path.write_bytes((good if head else b"") + data)
    try:
        read_existing(str(path), SETTINGS, 10)
    except TournamentError as error:
        assert "\n" not in str(error)
    with contextlib.suppress(az.FormatError):
        load_record(str(path), 0)


# -- backends and the command line -----------------------------------------------------


def test_the_process_backend_gives_the_local_games(tmp_path: Path) -> None:
    local, pool = tmp_path / "local.jsonl", tmp_path / "pool.jsonl"
    bots = ["greedy", "random", f"{BOTS}:SeededBot", f"{BOTS}:TextBot"]
    run(bots, games=24, seed=2, out=str(local))
    results = run(bots, games=24, seed=2, out=str(pool), backend="process", batch=5, workers=2)
    assert sorted(pool.read_text().splitlines()) == sorted(local.read_text().splitlines())
    assert results.played == 24 and results.balanced and not results.lost


def test_a_dead_worker_s_batch_is_retried_alone_then_reported(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    results = run(
        ["random", "greedy", f"{BOTS}:ExitBot"], games=6, batch=1, workers=2, retries=1,
        backend="process", out=str(out),
    )  # fmt: skip
    assert sorted(g["game"] for g in lines(out)) == [0, 1]
    assert sorted(i for lost in results.lost for i in lost.games) == [2, 3, 4, 5]
    assert all("worker process died" in lost.error and "2 times" in lost.error
               for lost in results.lost)  # fmt: skip
    assert results.games == 2 and results.lost_games == 4


def test_tournament_command_prints_the_table_and_writes_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "games.jsonl"
    args = ["tournament", "--bots", "greedy,random", "--games", "4", "--out", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "greedy" in printed and "4 games: 4 finished" in printed
    assert len(lines(out)) == 4
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(out.read_bytes())))
    assert main(["replay", "-"]) == 2
    assert "holds 4 games: choose one with --game N" in capsys.readouterr().err
    line = out.read_text().splitlines()[2] + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(line.encode())))
    assert main(["replay", "-"]) == 0
    assert "moves, all legal" in capsys.readouterr().out
    assert main(["replay", str(out), "--game", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--bots", "greedy,smart", "--games", "2"],
         "azul-rules: --bots: unknown bot 'smart': choose random, greedy or "
         "package.module:Factory"),
        (["--bots", "greedy,random", "--games", "2", "--resume"],
         "azul-rules: --resume needs the file to continue (--out FILE)"),
        (["--bots", "greedy,random", "--games", "-2"],
         "azul-rules: tournament: argument --games: expected a number of games, 1 or more, "
         "not -2 (see azul-rules tournament --help)"),
        (["--bots", "greedy,random", "--games", "2", "--ray-address", "auto"],
         "azul-rules: --ray-address is for the ray backend, not local (--backend ray)"),
    ],
)  # fmt: skip
def test_tournament_command_errors_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    assert main(["tournament", *args]) == 2
    err = capsys.readouterr().err
    assert err == says + "\n"


def test_tournament_games_0_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``--games 0`` printed a results table of no game, exit 0."""
    assert main(["tournament", "--bots", "greedy,random", "--games", "0"]) == 2
    assert capsys.readouterr() == ("", (
        "azul-rules: tournament: argument --games: expected a number of games, 1 or more, "
        "not 0 (see azul-rules tournament --help)\n"))  # fmt: skip


@pytest.mark.parametrize(
    ("args", "kwargs", "command", "python"),
    [
        (["--out", "{out}"], {"out": "{out}"},
         "{out} already holds games: continue it with --resume, or choose another file",
         "{out} already holds games: continue it with resume=True, or choose another file"),
        (["--resume"], {"resume": True},
         "--resume needs the file to continue (--out FILE)",
         "resume=True needs the file to continue (out=...)"),
        (["--ray-address", "auto"], {"ray_address": "auto"},
         "--ray-address is for the ray backend, not local (--backend ray)",
         "ray_address is for the ray backend, not local (backend='ray')"),
        (["--max-rounds", "0"], {"max_rounds": 0},
         "--max-rounds must be a positive integer, not 0",
         "max_rounds must be a positive integer, not 0"),
        (["--batch", "0"], {"batch": 0},
         "--batch must be a positive integer, not 0", "batch must be a positive integer, not 0"),
        (["--workers", "-1"], {"workers": -1},
         "--workers must be a positive integer, not -1",
         "workers must be a positive integer, not -1"),
        (["--retries", "-1"], {"retries": -1},
         "--retries must be 0 or more, not -1", "retries must be 0 or more, not -1"),
        (["--out", os.devnull, "--resume"], {"out": os.devnull, "resume": True},
         f"cannot continue {os.devnull}: --resume reads back a regular file, and this is a "
         "device",
         f"cannot continue {os.devnull}: resume=True reads back a regular file, and this is a "
         "device"),
    ],
)  # fmt: skip
def test_tournament_command_speaks_in_options_and_run_in_parameters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
    kwargs: dict[str, Any], command: str, python: str,
) -> None:  # fmt: skip
    """The command names its options (``--resume``), ``run`` its parameters
    (``resume=True``): ``continue it with --resume (resume=True)`` spoke both at once."""
    out = tmp_path / "games.jsonl"
    out.write_text("x\n")  # a file holding something
    args = [arg.format(out=out) for arg in args]
    kwargs = {k: v.format(out=out) if isinstance(v, str) else v for k, v in kwargs.items()}
    assert main(["tournament", "--bots", "greedy,random", "--games", "2", *args]) == 2
    assert capsys.readouterr().err == f"azul-rules: {command.format(out=out)}\n"
    with pytest.raises(TournamentError) as raised:
        run(["greedy", "random"], games=2, **kwargs)
    assert str(raised.value) == python.format(out=out)


def test_lang_fr_records_the_forfeits_verdicts_in_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """S2 (factory 100 does not exist): --lang fr writes the referee's message in French;
    the header, and so --resume, does not depend on it."""
    out = tmp_path / "games.jsonl"
    bots = ["--bots", f"greedy,{BOTS}:IllegalBot", "--no-progress", "--out", str(out)]
    assert main(["tournament", *bots, "--games", "2", "--lang", "fr"]) == 0
    capsys.readouterr()
    assert [game["result"]["forfeit"]["violations"][0] for game in lines(out)] == [{
        "code": "NO_SUCH_SOURCE", "rule": "S2",
        "message": "la fabrique 100 n'existe pas\u202f: cette table a les fabriques 1 à 5 "
        "et le centre",
    }] * 2  # fmt: skip
    assert "lang" not in lines(out)[0]["tournament"]
    assert main(["tournament", *bots, "--games", "3", "--resume"]) == 0
    assert lines(out)[2]["result"]["forfeit"]["violations"][0]["message"] == (
        "there is no factory 100: this table has factories 1 to 5 and the centre"
    )
    assert main(["tournament", *bots, "--games", "2", "--lang", "de"]) == 2
    assert "argument --lang: invalid choice: 'de'" in capsys.readouterr().err
    with pytest.raises(TournamentError, match="lang must be one of en, fr, not 'de'"):
        run(["greedy", "random"], games=1, lang="de")


def test_an_out_path_that_is_a_directory_or_unwritable_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--out names the file games are appended to: a directory (empty or not, with or
    without --resume) or a path that cannot be written is said so, before any game."""
    bots = ["--bots", "greedy,random", "--games", "2", "--no-progress"]
    for extra in ([], ["--resume"]):
        assert main(["tournament", *bots, "--out", str(tmp_path), *extra]) == 2
        assert capsys.readouterr() == ("", (
            f"azul-rules: cannot write games to {tmp_path}: it is a directory (name a file "
            f"in it, such as {tmp_path / 'games.jsonl'})\n"
        ))  # fmt: skip
    under_a_file = tmp_path / "file.txt"
    under_a_file.write_text("not a folder")
    for path, reason in [
        (under_a_file / "games.jsonl", "Not a directory"),
        (tmp_path / "missing" / "games.jsonl", "No such file or directory"),
    ]:
        assert main(["tournament", *bots, "--out", str(path)]) == 2
        assert capsys.readouterr().err == f"azul-rules: cannot write {path}: {reason}\n"
    assert main(["tournament", *bots, "--out", "nul\0l.jsonl"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: cannot write nul\\x00l.jsonl: embedded null byte\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0,
                    reason="root may write any file; no POSIX modes")  # fmt: skip
def test_an_out_file_without_write_permission_is_refused_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Even when it holds games: --resume would not help."""
    out = tmp_path / "games.jsonl"
    assert main(["tournament", "--bots", "greedy,random", "--games", "2", "--out", str(out),
                 "--no-progress"]) == 0  # fmt: skip
    out.chmod(0o444)
    assert main(["tournament", "--bots", "greedy,random", "--games", "2", "--out", str(out)]) == 2
    assert capsys.readouterr().err == f"azul-rules: cannot write {out}: Permission denied\n"


def test_play_takes_imported_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", f"greedy,{BOTS}:SeededBot", "--seed", "3"]) == 0
    assert f"player 2: {BOTS}:SeededBot" in capsys.readouterr().out
    assert main(["play", "--bots", "greedy,nowhere_x:Bot"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unreadable" not in err and "nowhere_x:Bot" in err


def test_the_progress_bar_shows_only_when_wanted() -> None:
    quiet = _progress(None, 10, 0)
    assert type(quiet).__name__ == "_Quiet"
    bar = _progress(True, 10, 3)
    assert getattr(bar, "n", None) == 3
    bar.close()


def test_worker_processes_that_cannot_build_the_bots_stop_the_run_with_one_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A factory that pickles here but cannot be imported in a fresh process."""
    ghost = types.ModuleType("ghost_bots_x")

    class Ghost(tournament_bots.FirstMoveBot):
        pass

    Ghost.__module__ = "ghost_bots_x"
    Ghost.__qualname__ = "Ghost"
    ghost.Ghost = Ghost  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ghost_bots_x", ghost)
    with pytest.raises(TournamentError, match="the worker processes could not start"):
        run([Ghost, "greedy"], games=2, backend="process", workers=1)


def test_tournament_process_backend_in_a_script_without_the_main_guard_says_so(
    tmp_path: Path,
) -> None:
    """A script calling ``run(..., backend="process")`` at its top level: each worker
    imports it again (spawn).  The workers end with one line each, and the error names
    the missing ``if __name__ == "__main__":`` guard; it advised giving the bots "as a
    spec", which they were, after two tracebacks."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from azul_rules.tournament import run\n"
        "results = run(['greedy', 'random'], games=20, backend='process', workers=1,\n"
        "              out='results.jsonl')\n"
        "print(results.table())\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)  # fmt: skip
    assert done.returncode == 1 and done.stdout == ""
    guard = "if __name__ == '__main__':"
    assert done.stderr.count("Traceback") == 1, done.stderr  # the script's own, not the workers'
    assert done.stderr.splitlines()[-1] == (
        "azul_rules.tournament.settings.TournamentError: the worker processes could not start "
        "(their error is above): each imports the main script again (the process backend "
        f"starts them with spawn), so a script must call run(..., backend='process') under {guard}"
    )
    assert (
        "azul-rules: run() was called while a worker process was importing the main script "
        f"again (spawn): call it under {guard}"
    ) in done.stderr.splitlines()
    assert "give it as a spec" not in done.stderr


# -- what a game line can hold -------------------------------------------------------------

HUGE = 10**5000  # past the 4,300 digits JSON text holds in Python


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"games": 1, "seed": HUGE}, "seed"),
        ({"games": 1, "seed": -HUGE}, "seed"),
        ({"seeds": [1, HUGE]}, "seeds[1]"),
        ({"games": 1, "max_rounds": HUGE}, "max_rounds"),
    ],
)
def test_a_number_no_game_line_can_hold_is_a_tournament_error(kwargs: Any, says: str) -> None:
    """Every game line writes the seeds and the settings: one past 4,300 digits raised
    Python's raw ValueError in the middle of the run (from ``json.dumps``, or the seeds'
    hash); it is refused before the first game."""
    with pytest.raises(TournamentError) as raised:
        run(["random", "random"], **kwargs)
    assert str(raised.value) == (
        f"{says} must be an integer of at most 4300 digits, which a game line can hold as "
        "JSON, not an integer of more than 4300 digits"
    )


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"players": HUGE}, "players must be 2, 3 or 4, not an integer of more than 4300 "
         "digits (S1)"),
        ({"games": 1, "time_limit": HUGE}, "time_limit must be a positive number of "
         "seconds, not an integer of more than 4300 digits"),
        ({"games": 1, "time_limit": 10**400}, "time_limit must be a positive number of "
         "seconds, not an integer of 401 digits"),
        ({"games": HUGE, "seeds": [1]}, "an integer of more than 4300 digits games need an "
         "integer of more than 4300 digits deal seeds (2 games a deal), but seeds= gives 1"),
    ],
)  # fmt: skip
def test_settings_past_4300_digits_are_named_in_the_error(kwargs: Any, says: str) -> None:
    with pytest.raises(TournamentError) as raised:
        run(["random", "random"], **kwargs)
    assert str(raised.value) == says


def test_a_game_reaching_the_most_moves_a_record_holds_ends_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record holds at most ``MAX_RECORD_MOVES`` moves (10,000): a game that would
    run longer ends unfinished there, so that its line's record is read back
    (``replay --game``).  The limit is lowered to 7 moves to see it."""
    monkeypatch.setattr("azul_rules.tournament.referee.MAX_RECORD_MOVES", 7)
    out = tmp_path / "games.jsonl"
    results = run(["random", "random"], games=1, out=str(out), progress=False)
    assert results.ends == {"finished": 0, "forfeit": 0, "unfinished": 1}
    line = json.loads(out.read_text(encoding="utf-8"))
    assert line["result"]["end"] == "unfinished" and line["result"]["moves"] == 7
    record = load_record(str(out), 0)
    assert len(record.moves) == 7 and record.replay().ok
