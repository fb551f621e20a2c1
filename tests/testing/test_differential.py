"""``azul-rules differential``: engines tested against the referee through the engine
protocol.  The reference engine agrees; engines with one rule bug each (in Python, and
in JavaScript when node is there) are caught with a short game naming the rule; engines
that break the protocol are reported with exit status 2, quickly, and ended."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

import azul_rules as az
from azul_rules.cli import main
from azul_rules.testing import differential, differential_machine, protocol_engine
from azul_rules.testing.engine_process import EngineProcess
from azul_rules.testing.protocol import EngineInfo, ProtocolError
from tests.extras import required

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "tests" / "engines"
REFERENCE = [sys.executable, "-m", "azul_rules.engine"]
NODE = shutil.which("node")


def buggy(bug: str) -> list[str]:
    return [sys.executable, str(ENGINES / "buggy_engine.py"), "--bug", bug]


def broken(mode: str, *extra: str) -> list[str]:
    return [sys.executable, str(ENGINES / "broken_engine.py"), "--mode", mode, *extra]


def replays_to_the_disagreement(found: differential.Disagreement) -> bool:
    """The record is legal move by move and reaches the reported position."""
    again = az.GameRecord.from_json(found.record.to_json()).replay()
    return again.ok and again.final == found.step.after


@pytest.mark.slow
@pytest.mark.parametrize("variant", [az.Variant.COLORED, az.Variant.GREY])
def test_the_reference_engine_agrees_with_the_referee(variant: az.Variant) -> None:
    """2, 3 and 4 players, every move's effect, legal-move sets and final scores."""
    report = differential.run(REFERENCE, variants=[variant], games=25, seed=7, timeout=30)
    assert report.failure is None and report.disagreement is None
    assert report.status == 0
    assert report.games == 25 and report.moves > 25 * 30
    assert sum(k for _, _, k in report.played) == 25 and report.shrink_games == 0
    assert {n for n, v, _ in report.played} == {2, 3, 4}
    assert {v for _, v, _ in report.played} == {variant}


SCORING_BUGS = [
    ("cross-once", "W3", "CROSS_COUNTED_ONCE"),
    ("marker-free", "F3", "MARKER_PENALTY_FORGOTTEN"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("bug", "rule", "mistake"), SCORING_BUGS)
def test_a_scoring_bug_is_caught_in_a_short_game(bug: str, rule: str, mistake: str) -> None:
    """W3 and F3: under 40 moves, with the documented mistake named."""
    report = differential.run(buggy(bug), players=[2], games=60, seed=11, timeout=30,
                              shrink_time=8)  # fmt: skip
    found = report.disagreement
    assert report.status == 1 and found is not None
    assert found.rule == rule
    assert found.differences[0].what.endswith(".score")
    assert found.differences[0].note.startswith(mistake)
    assert found.moves < 40
    assert replays_to_the_disagreement(found)


def test_a_disagreement_is_shortened_past_hypothesis_shrinking_W3() -> None:
    """W3 (a cross tile counted once) first found in a 3-player game of 32 moves, which
    Hypothesis's shrinker leaves at 32 (every choice the same length, it can neither drop
    a move nor a round): the replayed variations of its rounds shorten it to 24, still
    W3, and the record replays."""
    report = differential.run(buggy("cross-once"), players=[3, 4], games=100, seed=5,
                              timeout=30, shrink_time=20)  # fmt: skip
    found = report.disagreement
    assert report.status == 1 and found is not None and found.rule == "W3"
    assert report.first_found == 32 and report.abandoned == 0
    assert found.moves <= 26
    assert replays_to_the_disagreement(found)


def test_a_minimal_engine_reporting_scores_only_is_compared_on_them() -> None:
    """The smallest engine the protocol allows agrees; with a W3 bug it is still caught
    from its scores alone."""
    agrees = differential.run([*buggy("none"), "--minimal"], players=[2, 3], games=10, seed=2,
                              timeout=30)  # fmt: skip
    assert agrees.status == 0 and agrees.engine is not None
    assert agrees.engine.legal_moves is False
    report = differential.run([*buggy("cross-once"), "--minimal"], players=[2], games=60,
                              seed=11, timeout=30, shrink_time=8)  # fmt: skip
    found = report.disagreement
    assert found is not None and found.rule == "W3" and found.moves < 40
    assert [d.what for d in found.differences] == ["$.players[0].score"]


def test_a_floor_allowed_while_the_line_has_room_is_caught_at_once_P5() -> None:
    report = differential.run(buggy("floor-while-room"), games=20, seed=3, timeout=30,
                              shrink_time=5)  # fmt: skip
    found = report.disagreement
    assert found is not None and found.rule == "P5"
    assert found.moves == 1  # the first position already lists the wrong takes
    assert found.differences[0].what == "legal_moves"
    assert "FLOOR_WHILE_ROOM" in found.differences[0].note


def test_a_refill_that_forgets_the_lid_is_caught_R2() -> None:
    report = differential.run(buggy("lid-forgotten"), players=[4], games=40, seed=5, timeout=30,
                              shrink_time=5)  # fmt: skip
    found = report.disagreement
    assert found is not None and found.rule == "R2"
    assert isinstance(found.step.move, az.Refill)
    assert found.step.before is not None and found.step.before.round >= 2
    assert found.differences[0].what == "refill"
    assert replays_to_the_disagreement(found)


@pytest.mark.slow
def test_a_wrong_tie_break_is_caught_E4() -> None:
    report = differential.run(buggy("shared-tie"), players=[4], games=150, seed=2, timeout=30,
                              shrink_time=3)  # fmt: skip
    found = report.disagreement
    assert found is not None and found.rule == "E4"
    assert found.step.after.is_over
    outcome = found.step.after.outcome
    assert outcome is not None and len(outcome.winners) == 1
    assert found.differences[0].what == "$.winners"


needs_node = pytest.mark.skipif(
    NODE is None and not required(), reason="node is not installed (AZUL_REQUIRE_EXTRAS=1 fails)"
)


@needs_node
def test_an_engine_in_javascript_agrees_and_its_cross_bug_is_caught_W3() -> None:
    assert NODE is not None, "node is missing but AZUL_REQUIRE_EXTRAS=1"
    script = str(ENGINES / "mini_engine.js")
    agrees = differential.run([NODE, script], games=8, seed=4, timeout=30)
    assert agrees.status == 0, differential.report_text(agrees)
    assert agrees.engine is not None and agrees.engine.name == "mini_engine.js"
    report = differential.run([NODE, script, "--bug", "cross-once"], players=[2], games=60,
                              seed=11, timeout=30, shrink_time=8)  # fmt: skip
    found = report.disagreement
    assert found is not None and found.rule == "W3" and found.moves < 40
    assert found.differences[0].note.startswith("CROSS_COUNTED_ONCE")


# -- engines that break the protocol ------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "says", "line"),
    [
        ("garbage", "a reply that is not JSON", "debug: dealing the factories..."),
        ("shape", "$.state.players[0].score: expected an integer", '"score":"twelve"'),
        ("old", "speaks protocol 0", '"protocol":0'),
    ],
)
def test_a_protocol_breaking_reply_is_reported_with_its_line(
    mode: str, says: str, line: str
) -> None:
    report = differential.run(broken(mode), games=5, seed=1, timeout=10)
    assert report.status == 2 and report.failure is not None
    assert says in report.failure.message
    assert report.failure.line is not None and line in report.failure.line


def test_an_engine_that_exits_early_is_reported_with_its_stderr() -> None:
    report = differential.run(broken("exit"), games=5, seed=1, timeout=10)
    failure = report.failure
    assert report.status == 2 and failure is not None
    assert failure.request == "new_game" and failure.status == 3
    assert "the engine fell over" in failure.stderr


def test_a_hung_engine_times_out_and_is_ended_with_its_children(tmp_path: Path) -> None:
    pids = tmp_path / "pids.json"
    begun = time.monotonic()
    # 3 s: time for the engine to start and write its children's ids on a loaded machine
    # (with 1 s it could be ended before it wrote them).
    report = differential.run(broken("hang", "--pids", str(pids)), games=5, seed=1, timeout=3)
    assert time.monotonic() - begun < 20
    assert report.status == 2 and report.failure is not None
    assert report.failure.message == "no reply within 3 s"
    for pid in json.loads(pids.read_text()):
        assert ended_soon(pid)


def ended_soon(pid: int, within: float = 10.0) -> bool:
    """True once ``pid`` has ended: a killed process takes a moment to go, longer on a
    loaded machine (the engine's group is killed; its grandchild is reaped by init)."""
    deadline = time.monotonic() + within
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def running(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper has ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True


def test_an_engine_that_cannot_start_or_lacks_a_variant_is_exit_2() -> None:
    missing = differential.run(["/nonexistent/engine"], games=1)
    assert missing.status == 2 and missing.failure is not None
    assert "cannot start" in missing.failure.message
    colored_only = differential.run(buggy("cross-once"), variants=[az.Variant.GREY], games=1)
    assert colored_only.status == 2 and colored_only.failure is not None
    assert "does not play the grey wall" in colored_only.failure.message



def test_an_engine_command_that_cannot_be_split_is_exit_2_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An unclosed quotation is the user's to fix: exit 2 naming it, never "internal error"."""
    report = differential.run('"unterminated --fast', games=1)
    assert report.status == 2 and report.failure is not None
    assert "No closing quotation" in report.failure.message
    assert main(["differential", "--engine", '"unterminated', "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" not in err
    assert "cannot read the engine command" in err


# -- the command ------------------------------------------------------------------------------


def command(*words: str) -> list[str]:
    return ["differential", *words]


def test_the_command_exit_statuses_and_reports(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    engine = " ".join(REFERENCE)
    assert main(command("--engine", engine, "--games", "2", "--seed", "1")) == 0
    assert "agrees with the referee (2 games" in capsys.readouterr().out
    record = tmp_path / "record.json"
    bug = " ".join(buggy("floor-while-room"))
    status = main(command("--engine", bug, "--games", "5", "--seed", "1", "--record",
                          str(record), "--shrink-time", "2s"))  # fmt: skip
    out = capsys.readouterr().out
    assert status == 1
    assert "rule broken: P5" in out and "FLOOR_WHILE_ROOM" in out
    assert main(["replay", str(record)]) == 0
    assert "1 legal move" in capsys.readouterr().out or record.exists()
    assert main(command("--engine", bug, "--games", "5", "--seed", "1", "--json")) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "disagrees" and doc["disagreement"]["rule"] == "P5"
    assert doc["disagreement"]["record"]["external_draws"] is True
    assert main(command("--engine", " ".join(broken("garbage")), "--games", "1")) == 2
    err = capsys.readouterr().err
    assert "failed to speak the protocol" in err and "debug: dealing" in err


def test_games_n_plays_exactly_n_games(capsys: pytest.CaptureFixture[str]) -> None:
    """--games 20 plays 20 games, each to its end, and reports 20; shrinking is counted
    apart (tests/testing/test_differential_endings.py checks the ends from the engine's side)."""
    engine = " ".join(REFERENCE)
    assert main(command("--engine", engine, "--games", "20", "--seed", "1", "--json")) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["games"], doc["shrink_games"]) == (20, 0)
    assert (doc["abandoned"], doc["cut"]) == (0, 0)
    assert sum(entry["games"] for entry in doc["played"]) == 20
    bug = " ".join(buggy("floor-while-room"))
    report = differential.run(bug, games=5, seed=1, timeout=30, shrink_time=2)
    assert report.status == 1 and report.games == 1 and report.shrink_games >= 1
    assert f"1 game (and {report.shrink_games} more while shrinking), " in (
        differential.report_text(report)
    )


def test_the_report_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    """--lang fr: the report's sentences, the broken rule's title (P5) from the rule book
    and the referee's verdict quoted in the difference are French."""
    engine = " ".join(REFERENCE)
    assert main(command("--engine", engine, "--games", "2", "--seed", "1", "--lang", "fr")) == 0
    assert re.fullmatch(
        "azul-rules differential\u202f: azul_rules reference engine est d'accord avec l'arbitre "
        "\\(2 parties, [0-9\u202f]+ coups comparés en [0-9]+,[0-9] s\u202f; graine 1\\)\\.\n",
        capsys.readouterr().out,
    )
    bug = " ".join(buggy("floor-while-room"))
    assert main(command("--engine", bug, "--games", "5", "--seed", "1", "--shrink-time", "2s",
                        "--lang", "fr")) == 1  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "azul-rules differential\u202f: buggy engine (floor-while-room) n'est pas d'accord avec "
        "l'arbitre.",
        "règle enfreinte\u202f: P5 (L'excédent tombe au plancher)",
    ]
    assert lines[2].startswith("la plus courte partie en désaccord\u202f: 1 coup (la première "
                               "trouvée en avait 1)\u202f; 1 partie (et ")  # fmt: skip
    assert lines[3] == "à la première distribution\u202f: refill 1:BBBB 2:BBBB 3:BBBB 4:BBBB 5:BBBB"
    assert "(P5): FLOOR_WHILE_ROOM: 3 carreaux sont allés au plancher" in lines[5]
    with pytest.raises(ValueError, match="unknown language 'de'"):
        differential.run(REFERENCE, games=1, lang="de")


@pytest.mark.parametrize(
    "words",
    [
        ("--players", "5"),
        ("--players", "two"),
        ("--variant", "gray"),
        ("--time", "soon"),
        ("--games", "0"),
        ("--timeout", "-1"),
        ("--games", "3", "--time", "5s"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    words: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(command("--engine", "x", *words)) == 2
    err = capsys.readouterr().err.strip()
    assert err and "Traceback" not in err


def test_a_time_budget_ends_a_run_that_has_no_game_count() -> None:
    """Without ``games``, the search would play on (10**9 examples); the budget alone ends
    it.  A budget spent before the first game plays none and is no failure -- asserted on
    the report, not on a clock, so that a loaded machine cannot fail it."""
    report = differential.run(REFERENCE, players=[2], time_budget=1e-9, seed=1, timeout=30)
    assert (report.status, report.games, report.moves) == (0, 0, 0)
    assert differential.parse_duration("1.5m", "--time") == 90.0
    assert differential.parse_duration("500ms", "--time") == 0.5


def test_without_hypothesis_the_command_says_so_in_one_line() -> None:
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "from azul_rules.cli import main\n"
        "sys.exit(main(['differential', '--engine', 'x']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "azul-rules differential: needs the hypothesis package, the testing extra: "
        "pip install -e '.[testing]' in the project's checkout"
    ]


# -- azul_rules.testing.protocol_engine -------------------------------------------------------


FAST = settings(max_examples=3, stateful_step_count=60, deadline=None,
                phases=[Phase.generate], suppress_health_check=list(HealthCheck))  # fmt: skip


def test_protocol_engine_plugs_an_engine_into_differential_machine() -> None:
    engine = protocol_engine(REFERENCE, timeout=30)
    try:
        run_state_machine_as_test(differential_machine(engine), settings=FAST)
    finally:
        engine.close()


def test_protocol_engine_finds_a_bug_through_differential_machine() -> None:
    engine = protocol_engine(buggy("floor-while-room"), timeout=30)
    machine = differential_machine(engine, player_counts=[2], variants=[az.Variant.COLORED])
    try:
        with pytest.raises(AssertionError, match="FLOOR_WHILE_ROOM"):
            run_state_machine_as_test(machine, settings=FAST)
    finally:
        engine.close()


BAD_TIMEOUTS = [
    (-1, "-1"), (0, "0"), (float("nan"), "nan"), (float("inf"), "inf"),
    (True, "True"), ("10", "'10'"), (1e10, "10000000000.0"), (None, "None"),
]  # fmt: skip


@pytest.mark.parametrize(("timeout", "quoted"), BAD_TIMEOUTS)
def test_protocol_engine_refuses_a_timeout_that_is_not_positive(
    timeout: object, quoted: str
) -> None:
    expected = f"timeout must be a positive number of seconds, not {quoted}"
    with pytest.raises(ValueError) as raised:
        protocol_engine(REFERENCE, timeout=timeout)  # type: ignore[arg-type]
    assert str(raised.value) == expected
    with pytest.raises(ValueError) as raised:
        differential.run(REFERENCE, timeout=timeout)  # type: ignore[arg-type]
    assert str(raised.value) == expected


def test_protocol_engine_after_a_failed_hello_raises_protocol_error_again() -> None:
    """The engine is ended after a failed hello and started again at the next call."""
    engine = protocol_engine(broken("old"), timeout=30)
    try:
        for _ in range(2):
            with pytest.raises(ProtocolError) as raised:
                engine.connect()
            assert raised.value.message == "the engine speaks protocol 0; this referee speaks 1"
            assert raised.value.request == "hello"
            assert engine._process is None
    finally:
        engine.close()


def test_protocol_engine_after_an_interrupted_hello_starts_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not a ProtocolError (an interrupt inside hello): the half-started engine is
    ended, and the next call starts a fresh one rather than using it without hello."""
    real_hello = EngineProcess.hello
    started: list[EngineProcess] = []

    def interrupted_once(process: EngineProcess) -> EngineInfo:
        started.append(process)
        if len(started) == 1:
            raise KeyboardInterrupt
        return real_hello(process)

    monkeypatch.setattr(EngineProcess, "hello", interrupted_once)
    engine = protocol_engine(REFERENCE, timeout=30)
    try:
        with pytest.raises(KeyboardInterrupt):
            engine.connect()
        assert not started[0].running
        process, info = engine.connect()
        assert process is started[1] and process.running
        assert info.protocol == 1
    finally:
        engine.close()


def test_protocol_engine_that_failed_prints_nothing_at_exit() -> None:
    """Regression: the atexit close of a failed engine printed "Exception ignored"."""
    script = f"""
import sys
from azul_rules.testing.protocol import ProtocolError
from azul_rules.testing import protocol_engine
engine = protocol_engine({broken("old")!r}, timeout=30)
try:
    engine.connect()
except ProtocolError as error:
    print(error.message)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (
        0, "the engine speaks protocol 0; this referee speaks 1\n", ""
    )  # fmt: skip


# -- a real engine: azul-game-engine (not installed in CI) -------------------------------------


def test_the_recorded_games_of_azul_game_engine_replay_legally() -> None:
    """The shrunk games quoted in docs/engine-protocol.md are legal to their last move."""
    paths = sorted((ROOT / "examples" / "azul-game-engine").glob("*.json"))
    assert [p.name for p in paths] == [
        "e4-tie-break-over-all-players.json", "legal-moves-first-position.json",
        "r4-next-round-starter.json", "t3-marker-only-in-round-1.json",
    ]  # fmt: skip
    for path in paths:
        replay = az.GameRecord.from_json(path.read_text()).replay()
        assert replay.ok, path.name
    tie = az.GameRecord.from_json(paths[0].read_text()).replay().final
    assert tie.outcome is not None and tie.outcome.winners == (2,)
    assert tie.outcome.scores == (6, 8, 8)


def test_azul_game_engine_starts_the_next_round_with_the_wrong_player_R4() -> None:
    """The documented finding, again (only where the package is installed: not in CI)."""
    pytest.importorskip("azul_game_engine")
    adapter = [sys.executable, str(ROOT / "examples" / "azul_game_engine_adapter.py")]
    report = differential.run(adapter, games=100, seed=1, timeout=30, shrink_time=20)
    found = report.disagreement
    assert found is not None and found.rule == "R4"
    assert found.differences[0].what == "$.current_player"


@pytest.mark.slow
def test_the_same_seed_repeats_the_run() -> None:
    """A deterministic engine and the same --seed give the same shortest game."""
    runs = [differential.run(buggy("marker-free"), players=[2], games=60, seed=21, timeout=30,
                             shrink_time=30) for _ in range(2)]  # fmt: skip
    first, second = (r.disagreement for r in runs)
    assert first is not None and second is not None
    assert first.record == second.record and first.rule == second.rule == "F3"
