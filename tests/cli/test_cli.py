"""The command line: ``azul-rules play``."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import azul_rules as az
from azul_rules.cli import _parser, main
from tests.builders import LONGEST_NUMBER


def test_play_prints_a_whole_game_and_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Azul, 3 players, seed 4, colored wall")
    assert "== round 1:" in out and "-- wall tiling of round 1 --" in out
    final = re.search(r"final scores: player 1: (\d+), player 2: (\d+), player 3: (\d+)", out)
    assert final is not None
    assert re.search(r"^(winner|shared victory): player \d", out, re.MULTILINE)


def test_play_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["play", "--seed", "9"])
    first = capsys.readouterr().out
    main(["play", "--seed", "9"])
    assert capsys.readouterr().out == first


def test_bad_arguments_exit_2_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "5"]) == 2
    assert main(["play", "--bots", "greedy,smart"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "unknown bot 'smart'" in err


def test_python_dash_m_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "azul_rules", "play", "--players", "2", "--seed", "2"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0
    assert "final scores" in done.stdout


def test_play_a_grey_game(capsys: pytest.CaptureFixture[str]) -> None:
    """V1-V4 through the command: placements are chosen by the bots."""
    assert main(["play", "--variant", "grey", "--players", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "grey wall" in out and "(wall tiling)" in out and "final scores" in out


EXAMPLES = "examples"
AUDIT = f"{EXAMPLES}/audits"


def run_cli(*args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "azul_rules", *args], capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


def test_check_each_example_dispute(capsys: pytest.CaptureFixture[str]) -> None:
    position = f"{EXAMPLES}/round-2-position.json"
    expected = {
        "partial-take": (1, "PARTIAL_TAKE (T2)"),
        "split-lot": (1, "SPLIT_LOT (P1)"),
        "wall-color-conflict": (1, "WALL_COLOR_CONFLICT (P3)"),
        "legal-table-take": (0, "legal: took 3 blue from factory 2"),
    }
    for name, (status, text) in expected.items():
        assert main(["check", position, f"{EXAMPLES}/{name}.json"]) == status
        assert text in capsys.readouterr().out


def test_check_notation_json_and_french(capsys: pytest.CaptureFixture[str]) -> None:
    position = f"{EXAMPLES}/round-2-position.json"
    assert main(["check", position, "2B3"]) == 0
    assert capsys.readouterr().out == "legal: 2B3\n"
    move = (
        '{"type": "table_take", "source": 1, "color": "blue", "count": 2, "placements": {"2": 2}}'
    )
    assert main(["check", position, move, "--json", "--lang", "fr"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["legal"] is False
    assert verdict["ok"] is False  # the word replay --json and the web API use
    assert verdict["violations"][0]["code"] == "PARTIAL_TAKE"
    assert verdict["violations"][0]["rule"] == "T2"
    assert verdict["violations"][0]["message"].startswith("2 des 3 carreaux de couleur bleue")
    assert verdict["violations"][0]["params"]["color"] == "blue"
    assert main(["check", position, "5K3", "--lang", "fr"]) == 1
    assert "coup illégal" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["check", "examples/impossible-position.json", "2B3"],
        ["check", "examples/round-2-position.json", "2Z3"],
        ["check", "examples/round-2-position.json", '{"type": "take"'],
        ["check", "no-such-file.json", "2B3"],
        ["check", "README.md", "2B3"],
        ["show", "examples/partial-take.json"],
        ["replay", "examples/round-2-position.json"],
        ["replay", "/"],
    ],
)
def test_unreadable_input_exits_2_without_traceback(args: list[str]) -> None:
    status, out, err = run_cli(*args)
    assert status == 2
    assert "Traceback" not in err and "Traceback" not in out
    assert err.startswith("azul-rules: ")


def test_impossible_position_lists_every_problem() -> None:
    status, _, err = run_cli("check", "examples/impossible-position.json", "2B3")
    assert status == 2
    assert "TILE_COUNT (S3)" in err
    assert "LINE_COLOR_ON_WALL (P3) at $.players[0].pattern_lines[0]" in err
    assert "MARKER_COUNT (T3)" in err


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", f"{EXAMPLES}/round-2-position.json"]) == 0
    out = capsys.readouterr().out
    assert "round 2, factory offer, player 1 to move" in out
    assert "factory 2: B B B R" in out
    assert "Player 1: score 3  <- to move" in out
    assert "floor: M (1/7, -1)" in out


def test_replay_good_and_disputed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", f"{EXAMPLES}/recorded-game.json"]) == 0
    out = capsys.readouterr().out
    assert "moves, all legal" in out and "final scores: player 1:" in out
    assert main(["replay", f"{EXAMPLES}/disputed-game.json"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("move 7 (CB2), player 1: illegal")
    assert "LINE_COLOR_MISMATCH (P2)" in out
    assert main(["replay", f"{EXAMPLES}/disputed-game.json", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["illegal_move"]["number"] == 7
    assert report["illegal_move"]["player"] == 0
    assert [v["code"] for v in report["illegal_move"]["violations"]] == [
        "LINE_COLOR_MISMATCH", "LINE_FULL"
    ]  # fmt: skip


def test_play_can_save_a_record_that_replays(tmp_path: pytest.TempPathFactory) -> None:
    path = f"{tmp_path}/game.json"
    assert main(["play", "--seed", "12", "--record", path]) == 0
    assert main(["replay", path]) == 0


AUDITS = {
    "cross-counted-once": ["CROSS_COUNTED_ONCE"],
    "diagonal-counted": ["DIAGONAL_COUNTED"],
    "gap-counted": ["GAP_COUNTED"],
    "empty-direction-counted": ["EMPTY_DIRECTION_COUNTED"],
    "marker-penalty-forgotten": ["MARKER_PENALTY_FORGOTTEN"],
    "floor-overflow-penalized": ["FLOOR_OVERFLOW_PENALIZED"],
    "score-below-zero": ["SCORE_BELOW_ZERO"],
    "incomplete-line-cleared": ["INCOMPLETE_LINE_CLEARED"],
    "game-ended-early": ["GAME_ENDED_EARLY"],
    "bonus-miscount": ["BONUS_MISCOUNT"],
    "wrong-winner": ["WRONG_WINNER"],
    "two-mistakes": ["CROSS_COUNTED_ONCE", "MARKER_PENALTY_FORGOTTEN"],
}


@pytest.mark.parametrize("case", sorted(AUDITS))
def test_audit_examples(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = f"{EXAMPLES}/audits/{case}"
    status = main(["audit", f"{folder}/position.json", f"{folder}/claim.json", "--json"])
    assert status == 1
    report = json.loads(capsys.readouterr().out)
    assert report["correct"] is False
    assert [v["code"] for v in report["violations"]] == AUDITS[case]


def test_audit_text_french_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    folder = f"{EXAMPLES}/audits/marker-penalty-forgotten"
    assert main(["audit", f"{folder}/position.json", f"{folder}/claim.json", "--lang", "fr"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("l'annonce est fausse\u202f:")
    assert "marqueur premier joueur" in out
    assert main(["audit", f"{folder}/position.json", f"{folder}/position.json"]) == 2
    assert main(["audit", f"{folder}/claim.json", f"{folder}/claim.json"]) == 2


def test_every_command_speaks_french(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "2", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Azul, 2 joueurs, graine 2, mur coloré")
    assert "== manche 1\u202f: le joueur" in out and "scores finaux\u202f: joueur 1\u202f:" in out
    assert main(["show", f"{EXAMPLES}/round-2-position.json", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "fabrique 2\u202f: B B B R" in out and "plancher\u202f: M (1/7, -1)" in out
    assert main(["replay", f"{EXAMPLES}/disputed-game.json", "--lang", "fr"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("coup 7 (CB2), joueur 1\u202f: illégal")
    assert "ligne de préparation 2 contient déjà des carreaux de couleur jaune" in out


# -- the command line's own messages (a new user's trial) --------------------------------------


def test_a_bots_list_of_one_says_one_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """S1: two players need two bots; the count is told in the singular."""
    assert main(["play", "--bots", "random"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: --bots names 1 bot for 2 players\n"
    )
    assert main(["play", "--bots", "random,random,greedy"]) == 2
    assert capsys.readouterr().err == "azul-rules: --bots names 3 bots for 2 players\n"


def first_round(seed: int = 5) -> tuple[az.GameRecord, tuple[int, ...]]:
    """A record of round 1 (W1-W5 done, round 2 dealt) and the scores after it."""
    state = az.new_game(2, seed=seed)
    moves: list[az.Move] = []
    while state.round == 1:
        move = state.legal_moves()[0]
        moves.append(move)
        state = state.apply(move)
    return az.GameRecord(tuple(moves), 2, seed), tuple(b.score for b in state.players)


def test_one_move_and_one_round_are_counted_in_the_singular(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A one-move record replays as ``1 move, legal``; a one-round scoresheet that is
    right (W3, W4) is ``correct (1 round)``, in both languages."""
    one = tmp_path / "one.json"
    first = az.new_game(2, seed=1)
    one.write_text(az.GameRecord((first.legal_moves()[0],), 2, 1).to_json())
    assert main(["replay", str(one)]) == 0
    assert capsys.readouterr().out.startswith("1 move, legal\n")
    assert main(["replay", str(one), "--lang", "fr"]) == 0
    assert capsys.readouterr().out.startswith("1 coup, légal\n")
    record, scores = first_round()
    path, sheet = tmp_path / "record.json", tmp_path / "sheet.json"
    path.write_text(record.to_json())
    sheet.write_text(json.dumps({"format_version": 1, "rounds": [list(scores)]}))
    assert main(["audit-game", str(path), str(sheet)]) == 0
    assert capsys.readouterr().out == "the scoresheet is correct (1 round)\n"
    assert main(["audit-game", str(path), str(sheet), "--lang", "fr"]) == 0
    assert capsys.readouterr().out == "la feuille de score est correcte (1 manche)\n"


def test_a_one_game_tournament_says_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "greedy,random", "--games", "1", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("1 game: 1 finished, 0 forfeited, 0 unfinished (round cap 100)")
    assert re.fullmatch(r"1 game played in \d+\.\d s \(\d+ games/s\)", lines[-1])


@pytest.mark.parametrize("name", ["examples/nope.json", "nope.json", "NOPE.JSON", "moves/3B2"])
def test_a_move_file_that_is_missing_is_told_missing(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """MOVE with a path separator or a .json suffix names a file: a missing one is
    reported as missing, not as notation that cannot be read."""
    assert main(["check", f"{EXAMPLES}/round-2-position.json", name]) == 2
    assert capsys.readouterr().err == (
        f"azul-rules: {name}: cannot read: No such file or directory\n"
    )


def test_notation_that_is_no_file_is_still_read_as_notation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", f"{EXAMPLES}/round-2-position.json", "2Z3"]) == 2
    assert capsys.readouterr().err.startswith(
        "azul-rules: MOVE: unreadable: cannot read '2Z3' as a move: expected <source><colour>"
    )
    assert main(["check", f"{EXAMPLES}/round-2-position.json", "2B3"]) == 0


def test_an_audit_blames_the_position_whose_offer_is_not_over(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An audit starts when the factory offer is over (W1): a position with tiles left
    is the position file's fault; a claim with a score too many is the claim's."""
    position, claim = f"{EXAMPLES}/round-2-position.json", f"{AUDIT}/two-mistakes/claim.json"
    assert main(["audit", position, claim]) == 2
    assert capsys.readouterr().err == (
        f"azul-rules: {position}: cannot be audited at $.factories: the factory offer is not "
        "over: tiles are left to take\n"
    )
    extra = tmp_path / "claim.json"
    extra.write_text('{"format_version": 1, "scores": [1, 2, 3]}')
    assert main(["audit", position, str(extra)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"azul-rules: {position}: cannot be audited at $.factories: the factory offer is not "
        "over: tiles are left to take",
        f"azul-rules: {extra}: does not fit {position} at $.scores: expected one entry per "
        "player (2), got 3",
    ]


def test_a_scoresheet_that_does_not_fit_its_record_is_blamed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record, scores = first_round()
    path, sheet = tmp_path / "record.json", tmp_path / "sheet.json"
    path.write_text(record.to_json())
    sheet.write_text(json.dumps({"format_version": 1, "rounds": [list(scores)] * 2}))
    assert main(["audit-game", str(path), str(sheet)]) == 2
    assert capsys.readouterr().err == (
        f"azul-rules: {sheet}: does not fit {path} at $.rounds: 2 rounds written, but the "
        "record tiles 1\n"
    )


def status_when_the_reader_leaves(*args: str) -> tuple[int, str]:
    """Run the command with its standard output read by nobody (the pipe closed at
    once, as ``| head`` closes it early); its exit status and standard error."""
    process = subprocess.Popen(
        [sys.executable, "-m", "azul_rules", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read()
    return process.wait(timeout=60), err


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["check", f"{EXAMPLES}/round-2-position.json", f"{EXAMPLES}/partial-take.json",
          "--json"], 1),
        (["check", f"{EXAMPLES}/round-2-position.json", "2B3", "--json"], 0),
        (["rules", "--all"], 0),
        (["replay", f"{EXAMPLES}/disputed-game.json"], 1),
    ],
)  # fmt: skip
def test_the_exit_status_survives_a_reader_that_leaves(args: list[str], status: int) -> None:
    """``azul-rules check ... | head -3`` exits as without ``head`` (0 legal, 1 illegal),
    and says nothing on standard error: no traceback, no "Exception ignored"."""
    assert status_when_the_reader_leaves(*args) == (status, "")


def test_an_error_is_still_told_when_the_reader_of_the_output_leaves() -> None:
    assert status_when_the_reader_leaves("check", f"{EXAMPLES}/round-2-position.json",
                                         "nope.json") == (
        2, "azul-rules: nope.json: cannot read: No such file or directory\n"
    )  # fmt: skip


def test_every_command_but_serve_takes_lang(capsys: pytest.CaptureFixture[str]) -> None:
    """As docs/cli.md says: the web judge takes the language with each request."""
    commands = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    taking = {
        name for name, parser in commands.choices.items()
        if any("--lang" in action.option_strings for action in parser._actions)
    }  # fmt: skip
    assert set(commands.choices) - taking == {"serve"}
    assert main(["serve", "--lang", "fr"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: serve: unrecognized arguments: --lang fr (see azul-rules serve --help)\n"
    )


IMPOSSIBLE_FR = [
    "TILE_COUNT (S3) en {at}\u202f: 21 carreaux de couleur bleue en tout\u202f: le jeu en "
    "compte 20 "
    "de chaque couleur",
    "LINE_COLOR_ON_WALL (P3) en {at}.players[0].pattern_lines[0]\u202f: la ligne de préparation "
    "1 contient la couleur bleue, déjà présente dans la rangée 1 du mur",
    "MARKER_COUNT (T3) en {at}.players\u202f: 2 marqueurs premier joueur sur les "
    "planchers\u202f: il "
    "n'en existe qu'un",
]


def test_an_impossible_position_is_told_in_the_commands_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--lang fr``: each problem of an impossible position (S3, P3, T3) in French, at
    its path (under ``$.initial_state`` in a record), one line each, exit 2 -- for
    every command that reads a position."""
    position = f"{EXAMPLES}/impossible-position.json"
    record = tmp_path / "record.json"
    start = json.loads(Path(position).read_text(encoding="utf-8"))
    record.write_text(json.dumps({"format_version": 1, "initial_state": start, "moves": []}))
    sheet = tmp_path / "sheet.json"
    sheet.write_text('{"format_version": 1, "rounds": []}')
    commands = [
        (["check", position, "2B3"], position, "$"),
        (["show", position], position, "$"),
        (["audit", position, f"{EXAMPLES}/audits/correct-claim/claim.json"], position, "$"),
        (["replay", str(record)], str(record), "$.initial_state"),
        (["audit-game", str(record), str(sheet)], str(record), "$.initial_state"),
    ]
    for args, source, at in commands:
        assert main([*args, "--lang", "fr"]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.splitlines() == [
            f"azul-rules: {source}\u202f: position impossible\u202f: {line.format(at=at)}"
            for line in IMPOSSIBLE_FR
        ]
    assert main(["show", position]) == 2
    assert capsys.readouterr().err.splitlines()[1] == (
        f"azul-rules: {position}: impossible position: LINE_COLOR_ON_WALL (P3) at "
        "$.players[0].pattern_lines[0]: pattern line 1 holds blue, already on wall row 1"
    )


def test_a_tournament_lines_impossible_record_is_told_at_its_path_in_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game line's record lies at ``$.record``: its initial state's problems (S3, P3,
    T3) are named under ``$.record.initial_state``, as its format errors are."""
    start = json.loads(Path(f"{EXAMPLES}/impossible-position.json").read_text(encoding="utf-8"))
    record = {"format_version": 1, "initial_state": start, "moves": []}
    lines = tmp_path / "games.jsonl"
    lines.write_text(json.dumps({"tournament": {}, "game": 0, "record": record}) + "\n")
    assert main(["replay", str(lines), "--game", "0", "--lang", "fr"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"azul-rules: {lines}\u202f: position impossible\u202f: "
        f"{line.format(at='$.record.initial_state')}"
        for line in IMPOSSIBLE_FR
    ]


def test_an_impossible_record_on_standard_input_is_told_as_from_a_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay -`` reads the record from standard input: its initial state's problems
    are told as for a file (they were "not JSON")."""
    start = json.loads(Path(f"{EXAMPLES}/impossible-position.json").read_text(encoding="utf-8"))
    record = json.dumps({"format_version": 1, "initial_state": start, "moves": []})
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(record.encode())))
    assert main(["replay", "-", "--lang", "fr"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"azul-rules: -\u202f: position impossible\u202f: {line.format(at='$.initial_state')}"
        for line in IMPOSSIBLE_FR
    ]


def test_a_record_starting_from_scores_of_4300_digits_is_told_impossible(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """W3: scores of 4,300 digits (the longest JSON text holds) on empty walls cannot
    have been scored: ``audit-game`` refuses the record's start, one line a score,
    exit 2, the number said rather than written (no "internal error", no verdict with
    numbers JSON text cannot hold)."""
    start = az.new_game(2, seed=10)
    start = start.replace(players=tuple(attrs.evolve(b, score=LONGEST_NUMBER)
                                        for b in start.players))  # fmt: skip
    record = tmp_path / "record.json"
    record.write_text(az.to_json(az.GameRecord((start.legal_moves()[0],), initial_state=start)))
    sheet = tmp_path / "sheet.json"
    sheet.write_text('{"format_version": 1, "rounds": [[1, 2]]}')
    assert main(["audit-game", str(record), str(sheet), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"azul-rules: {record}: impossible position: SCORE_OUT_OF_REACH (W3) at "
        f"$.initial_state.players[{player}].score: player {player + 1}'s score is an "
        "integer of 4300 digits, but their wall holds no tile: no point can have been scored"
        for player in (0, 1)
    ]


def test_a_move_numbered_past_4300_digits_is_told_not_raised(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Factory and line 10**4300 (the largest JSON number, plus one when counted from
    1) in a move: NO_SUCH_SOURCE (S2) and NO_SUCH_LINE (S4), the move written as far as
    it can be (it was an "internal error")."""
    nines = "9" * 4300
    move = f'{{"type": "take", "source": {nines}, "color": "blue", "line": {nines}}}'
    assert main(["check", f"{EXAMPLES}/round-2-position.json", move]) == 1
    too_long = "an integer of more than 4300 digits"
    assert capsys.readouterr().out.splitlines() == [
        f"illegal: {too_long}B{too_long}",
        f"  NO_SUCH_SOURCE (S2): there is no factory ({too_long}): this table has factories "
        "1 to 5 and the centre",
        f"  NO_SUCH_LINE (S4): there is no pattern line ({too_long}): pattern lines are 1 to "
        "5, or the floor line",
    ]


# -- play referees the bots it is given as a tournament does (issue 24) --------------------

CHANGED_STATE = (
    "changed the state it was given (with object.__setattr__ on the immutable GameState or "
    "one of its parts): the game stops at the position before this move"
)


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        ("tests.tournament_bots:RaisingBot", "RuntimeError: boom (at tournament_bots.py:"),
        ("os:getcwd", "AttributeError: 'str' object has no attribute 'choose' (at "),
        ("sys:exit", "building the bot: SystemExit"),
        ("tests.tournament_bots:TextBot",
         "not a move: a str (expected Take, TableTake, PlaceTile or Refill)"),
        ("tests.hostile_bots:CheatingBot", CHANGED_STATE),
    ],
)  # fmt: skip
def test_cli_play_forfeits_a_misbehaving_bot_as_a_tournament_does(
    bot: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot that raises, a factory that is no bot (``os:getcwd``) or exits
    (``sys:exit``), an answer that is no move, a bot that gives itself points with
    ``object.__setattr__``: the tournament's forfeits, the reason printed, exit 1; the
    scores are those of the untouched game, which the saved record replays to."""
    record = tmp_path / "game.json"
    assert main(["play", "--bots", f"{bot},random", "--record", str(record)]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    forfeit = re.search(r"^player 1 \((.+)\) forfeits at move (\d+): (.+)$", out, re.MULTILINE)
    assert forfeit is not None, out
    assert forfeit[1] == bot and forfeit[3].startswith(says), forfeit[3]
    replay = az.GameRecord.from_json(record.read_text()).replay()
    assert replay.ok and len(replay.states) == int(forfeit[2])
    scores = [board.score for board in replay.final.players]
    assert out.splitlines()[-3:] == [
        f"scores when the game stopped: player 1: {scores[0]}, player 2: {scores[1]}",
        "winner: player 2",
        f"record saved to {record}",
    ]


def test_cli_play_forfeits_an_illegal_move_with_its_verdict_and_shares_the_victory_T2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An illegal move forfeits (S2: factory 100 does not exist), its violations printed
    as ``replay`` prints them; at three players the two others share the victory; the
    record ends with the illegal move, so ``replay`` stops at it."""
    record = tmp_path / "game.json"
    argv = ["play", "--players", "3", "--bots", "random,tests.tournament_bots:IllegalBot,greedy",
            "--record", str(record), "--lang", "fr"]  # fmt: skip
    assert main(argv) == 1
    out = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(out) if "perd par forfait" in line)
    assert re.fullmatch(
        r"le joueur 2 \(tests\.tournament_bots:IllegalBot\) perd par forfait au coup \d+\u202f: "
        r"coup illégal 100R1", out[at]
    ), out[at]
    assert out[at + 1] == (
        "  NO_SUCH_SOURCE (S2)\u202f: la fabrique 100 n'existe pas\u202f: cette table a "
        "les fabriques 1 "
        "à 7 et le centre"
    )
    assert out[-2] == "victoire partagée\u202f: joueur 1 et joueur 3"
    assert main(["replay", str(record)]) == 1
    assert "NO_SUCH_SOURCE (S2)" in capsys.readouterr().out


def test_cli_play_names_an_unknown_bot_before_counting_the_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--bots smart`` at two players: the unknown bot is the news, not the count."""
    assert main(["play", "--bots", "smart"]) == 2
    assert capsys.readouterr().err == (
        "azul-rules: --bots: unknown bot 'smart': choose random, greedy or "
        "package.module:Factory\n"
    )
