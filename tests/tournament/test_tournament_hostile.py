"""A hostile pass over the tournament runner (docs/tournament.md, issue 16): bots that
misbehave in every way a bot can, bot specs that should not import, output files that
are not files, and runs stopped by signals.  The bots are in ``tests/hostile_bots.py``.

Real processes where the behaviour involves them (the command's standard output, SIGTERM,
a killed parent, the process backend's workers)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import azul_rules as az
from azul_rules.core.bots import BotSpecError, bot_factory
from azul_rules.tournament import TournamentError, load_record, run
from azul_rules.tournament.lines import MAX_LINE_BYTES, OutFile
from tests import hostile_bots

BOTS = "tests.hostile_bots"
ROOT = Path(__file__).resolve().parents[2]
POSIX = pytest.mark.skipif(os.name != "posix", reason="signals, fork and FIFOs are POSIX")


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def forfeits(path: Path) -> list[dict[str, Any]]:
    return [game["result"]["forfeit"] for game in lines(path)]


# -- what a bot raises ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bot", "error"),
    [
        ("GeneratorExitBot", "GeneratorExit (at hostile_bots.py:"),
        ("OwnBaseExceptionBot", "OwnError: deep in the search (at hostile_bots.py:"),
        ("UnprintableErrorBot",
         "UnprintableError: (its message cannot be shown: str() of it raised) (at "),
        ("own_error_factory", "building the bot: OwnError: cannot load the weights (at "),
        ("EscapingErrorBot", "ValueError: \\x1b[31mred\\x1b[0m\\rover (at hostile_bots.py:"),
    ],
)  # fmt: skip
def test_any_exception_but_ctrl_c_forfeits_the_bot_s_game(
    tmp_path: Path, bot: str, error: str
) -> None:
    """A bot's ``BaseException`` of any kind (``GeneratorExit``, its own subclass, one
    whose ``str`` raises) forfeits its game with the reason ``error``: the run goes on."""
    out = tmp_path / "games.jsonl"
    results = run(["random", f"{BOTS}:{bot}"], games=2, out=str(out))
    assert results.ends == {"finished": 0, "forfeit": 2, "unfinished": 0}
    for forfeit in forfeits(out):
        assert forfeit["reason"] == "error" and forfeit["error"].startswith(error)
        assert forfeit["bot"] == f"{BOTS}:{bot}"


def test_a_bot_raising_keyboard_interrupt_stops_the_run_as_ctrl_c_does(tmp_path: Path) -> None:
    """``KeyboardInterrupt`` is the organiser's Ctrl-C (a bot cannot be told apart from
    it): the run stops, the file keeps the finished games and can be continued."""
    out = tmp_path / "games.jsonl"
    hostile_bots.InterruptBot.built = 0
    with pytest.raises(KeyboardInterrupt):
        run(["random", f"{BOTS}:InterruptBot"], games=6, out=str(out))
    assert [game["game"] for game in lines(out)] == [0, 1, 2]
    hostile_bots.InterruptBot.built = 100
    results = run(["random", f"{BOTS}:InterruptBot"], games=6, out=str(out), resume=True)
    assert (results.resumed, results.played) == (3, 3)


# -- what a bot returns -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("bot", "error"),
    [
        ("RaisingTakeBot", "not a move: a RaisingTake, a subclass of Take (return the "
                           "library's own Take, TableTake, PlaceTile or Refill)"),
        ("ImpostorBot", "not a move: a Impostor (expected Take, TableTake, PlaceTile or "
                        "Refill)"),
        ("OddPartsBot", "not a move: a Take whose parts its constructor refuses (FormatError: "
                        "Take.source must be an int, got"),
    ],
)  # fmt: skip
def test_only_the_referee_s_own_moves_built_by_their_constructors_are_moves(
    tmp_path: Path, bot: str, error: str
) -> None:
    """A subclass of a move (its equality and hash may raise), an object lying to
    ``isinstance``, a ``Take`` holding an ``int`` subclass (numpy's ints): ``not_a_move``,
    never a crash of the run, nor a move recorded with parts no reader expects."""
    out = tmp_path / "games.jsonl"
    run([f"{BOTS}:{bot}", "random"], games=2, out=str(out))
    for game, forfeit in zip(lines(out), forfeits(out), strict=True):
        assert forfeit["reason"] == "not_a_move" and forfeit["error"].startswith(error)
        assert game["record"]["moves"] == game["record"]["moves"][: game["result"]["moves"]]
        assert load_record(str(out), game["game"]).replay().ok


def test_a_type_name_of_megabytes_is_cut_and_the_file_can_be_continued(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    run([f"{BOTS}:LongTypeNameBot", "random"], games=2, out=str(out))
    assert max(map(len, out.read_bytes().splitlines())) < 2000 < MAX_LINE_BYTES
    assert forfeits(out)[0]["error"] == (
        f"not a move: a {'X' * 99}… (expected Take, TableTake, PlaceTile or Refill)"
    )
    assert run([f"{BOTS}:LongTypeNameBot", "random"], games=4, out=str(out),
               resume=True).resumed == 2  # fmt: skip


def test_tournament_an_illegal_move_no_json_can_hold_is_recorded_as_text_S2(
    tmp_path: Path,
) -> None:
    """A take from factory 10**5000 (S2): forfeited as an illegal move, written as text
    (it stopped the run with a bare ValueError from ``json.dumps``), left out of the
    record, and the file can be continued."""
    out = tmp_path / "games.jsonl"
    results = run([f"{BOTS}:HugeSourceBot", "random"], games=2, out=str(out))
    assert results.ends["forfeit"] == 2
    for game, forfeit in zip(lines(out), forfeits(out), strict=True):
        assert forfeit["reason"] == "illegal_move"
        assert forfeit["move"] == "a Take holding an integer of more than 4300 digits"
        assert [v["code"] for v in forfeit["violations"]] == ["NO_SUCH_SOURCE"]
        assert len(game["record"]["moves"]) == game["result"]["moves"]
    again = run([f"{BOTS}:HugeSourceBot", "random"], games=2, out=str(out), resume=True)
    assert (again.resumed, again.played) == (2, 0)
    first, second = out.read_text().splitlines()
    doc = json.loads(first)
    doc["result"]["forfeit"]["violations"][0]["code"] = ["NO_SUCH_SOURCE"]  # no error code
    out.write_text(json.dumps(doc) + "\n" + second + "\n")
    with pytest.raises(TournamentError, match=r"line 1: \$\.result\.forfeit: an illegal move "
                       r"its record does not hold is written as text, with the referee's "
                       r"violations \(code, rule, message\)$"):  # fmt: skip
        run([f"{BOTS}:HugeSourceBot", "random"], games=2, out=str(out), resume=True)


# -- a bot changing the state it is given -----------------------------------------------


@pytest.mark.parametrize("bot", ["CheatingBot", "ForgetfulSearchBot", "UnhashablePartBot"])
def test_a_bot_that_changes_the_state_it_is_given_forfeits_at_the_position_before(
    tmp_path: Path, bot: str
) -> None:
    """``object.__setattr__`` on the frozen state or a board (50 points for itself, a
    search that forgets to undo, a list for the factories) forfeits the game; the line's
    scores are those of the untouched game, which its record replays to."""
    out = tmp_path / "games.jsonl"
    results = run(["greedy", f"{BOTS}:{bot}"], games=2, out=str(out))
    assert results.ends["forfeit"] == 2
    for game, forfeit in zip(lines(out), forfeits(out), strict=True):
        assert forfeit["reason"] == "error"
        assert forfeit["error"].startswith("changed the state it was given")
        assert game["lineup"][forfeit["seat"]] == f"{BOTS}:{bot}"
        replay = load_record(str(out), game["game"]).replay()
        assert replay.ok
        assert game["result"]["scores"] == [b.score for b in replay.final.players]
        assert game["result"]["scores"] == [0, 0]  # both forfeits come in round 1


@pytest.mark.parametrize("backend", ["local", "process"])
@pytest.mark.parametrize("bot", ["LineTamperingBot", "HugeLineBot"])
def test_s4_a_bot_that_changes_a_pattern_line_forfeits_and_poisons_nothing(
    tmp_path: Path, bot: str, backend: str
) -> None:
    """S4: ``object.__setattr__`` on a pattern line (5 spaces on the top line, or 2**31
    tiles there) forfeits the bot's game with the state put back; the pattern lines are
    shared values (every new game's empty lines), so the other games of the process,
    and the games after the tournament, are played on untouched lines."""
    out = tmp_path / "games.jsonl"
    results = run(["random", f"{BOTS}:{bot}"], games=4, out=str(out), backend=backend,
                  workers=1)  # fmt: skip
    assert results.ends["forfeit"] == 4
    for game, forfeit in zip(lines(out), forfeits(out), strict=True):
        assert forfeit["reason"] == "error"
        assert forfeit["error"].startswith("changed the state it was given")
        replay = load_record(str(out), game["game"]).replay()
        assert replay.ok
    fresh = az.new_game(2, seed=1)
    assert [(line.count, line.capacity) for line in fresh.players[0].pattern_lines] == [
        (0, row + 1) for row in range(5)
    ]
    untouched = run(["random", "greedy"], games=2, out=str(tmp_path / "after.jsonl"),
                    backend=backend, workers=1)  # fmt: skip
    assert untouched.ends["finished"] == 2


@POSIX
def test_a_forked_copy_of_the_referee_exits_instead_of_playing_on(tmp_path: Path) -> None:
    """A bot that forks and lets the copy return into the referee: the copy exits
    (status 70) instead of playing the rest of the tournament a second time into the
    same file.  (In a process of its own: a copy that played on would run on into
    whatever called ``run``.)"""
    out = tmp_path / "games.jsonl"
    script = (
        "import json, sys\n"
        "from azul_rules.tournament import run\n"
        "from tests import hostile_bots\n"
        f"results = run(['{BOTS}:ForkingBot', 'random'], games=3, out=sys.argv[1])\n"
        "print(json.dumps([results.ends, hostile_bots.ForkingBot.statuses]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(out)], capture_output=True,
                          env=_environment(), cwd=ROOT, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    ends, statuses = json.loads(done.stdout.splitlines()[-1])
    assert sorted(game["game"] for game in lines(out)) == [0, 1, 2]
    assert ends["finished"] == 3
    assert statuses and set(statuses) == {70}
    assert b"a process forked by a bot" in done.stderr


# -- bot specs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "spec", "says"),
    [
        ("raise SystemExit(7)\n", "exits_on_import:Bot",
         "cannot import bot 'exits_on_import:Bot' (SystemExit: 7)"),
        ("class Own(BaseException):\n    pass\nraise Own('no GPU')\n", "own_on_import:Bot",
         "cannot import bot 'own_on_import:Bot' (Own: no GPU)"),
        ("def __getattr__(name):\n    raise RuntimeError('lazy load failed')\n",
         "lazy_module:Bot",
         "cannot read bot 'lazy_module:Bot' (RuntimeError: lazy load failed reading 'Bot' "
         "of lazy_module)"),
    ],
)  # fmt: skip
def test_a_module_that_exits_or_raises_anything_is_a_bot_spec_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, spec: str, says: str
) -> None:
    (tmp_path / f"{spec.partition(':')[0]}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotSpecError) as raised:
        bot_factory(spec)
    assert str(raised.value).startswith(says)


def test_a_spec_that_imports_a_function_of_the_standard_library_forfeits_when_called() -> None:
    """``os:getcwd`` names a callable: it is a factory, whose "bot" has no ``choose``."""
    results = run(["os:getcwd", "random"], games=2)
    assert results.bots[0].forfeits == 2


# -- the output file --------------------------------------------------------------------


@POSIX
def test_a_fifo_nobody_reads_is_refused_at_once_and_one_being_read_is_written(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    with pytest.raises(TournamentError, match=r"it is a named pipe \(FIFO\) that no process reads"):
        run(["greedy", "random"], games=2, out=str(fifo))
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    try:
        deadline = time.monotonic() + 10
        while True:  # the reader opens the FIFO in its own time
            try:
                run(["greedy", "random"], games=2, out=str(fifo))
                break
            except TournamentError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
    finally:
        reader.join(timeout=10)
    assert [json.loads(line)["game"] for line in received[0].splitlines()] == [0, 1]
    with pytest.raises(TournamentError, match="named pipe"):
        run(["greedy", "random"], games=2, out=str(fifo), resume=True)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_tournament_error_and_closing_does_not_raise_again() -> None:
    with pytest.raises(TournamentError, match=r"^cannot write /dev/full: No space left"):
        run(["greedy", "random"], games=2, out="/dev/full")
    writer = OutFile("/dev/full")
    with pytest.raises(TournamentError):
        writer.write(["{}"])
    writer.close()
    writer.close()


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_resume_refuses_a_device_and_dev_null_takes_the_games() -> None:
    assert run(["greedy", "random"], games=2, out=os.devnull).played == 2
    with pytest.raises(TournamentError, match="this is a device"):
        run(["greedy", "random"], games=2, out=os.devnull, resume=True)


# -- the command, in real processes -----------------------------------------------------


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "azul_rules", "tournament", "--no-progress", *args]


def _environment() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path}


def _endless_process_run(out: Path, output: int) -> subprocess.Popen[bytes]:
    """The command playing an endless tournament into ``out`` on two worker processes,
    its standard output and error to ``output`` (``subprocess.PIPE`` or ``DEVNULL``)."""
    return subprocess.Popen(
        _command("--bots", "greedy,random", "--games", "100000000", "--out", str(out),
                 "--backend", "process", "--workers", "2", "--batch", "5"),
        stdout=output, stderr=output, env=_environment(), cwd=ROOT,
    )  # fmt: skip


@pytest.mark.parametrize("backend", ["local", "process"])
def test_what_bots_print_goes_to_standard_error_so_json_stays_json(backend: str) -> None:
    done = subprocess.run(
        _command("--bots", f"{BOTS}:PrintingBot,random", "--games", "2", "--json",
                 "--backend", backend, "--workers", "1"),
        capture_output=True, env=_environment(), cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ends"]["finished"] == 2
    for said in (b"thinking...", b"more thoughts", b"raw thoughts"):
        assert said in done.stderr


def _wait_for_lines(path: Path, count: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not path.exists() or path.read_bytes().count(b"\n") < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no game written in a minute"
        time.sleep(0.05)


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(child) for child in found.stdout.split()]


def _gone(pids: list[int], within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(os.path.exists(f"/proc/{pid}") for pid in pids):
            return True
        time.sleep(0.1)
    return False


needs_proc = pytest.mark.skipif(
    not os.path.isdir("/proc/self") or subprocess.run(["which", "pgrep"]).returncode != 0,
    reason="needs /proc and pgrep",
)


@POSIX
@needs_proc
def test_sigterm_stops_a_process_run_like_ctrl_c_and_the_file_goes_on(tmp_path: Path) -> None:
    """SIGTERM (``kill``, a scheduler) to the command alone: exit 143 with one line, no
    worker left behind, the file whole and resumable."""
    out = tmp_path / "games.jsonl"
    process = _endless_process_run(out, subprocess.PIPE)
    try:
        _wait_for_lines(out, 10, process)
        workers = _children(process.pid)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 143
    assert err.decode().strip().endswith(
        f"azul-rules: terminated (SIGTERM); {out} keeps every finished game: add --resume "
        "to go on"
    )
    assert _gone(workers, within=10)
    data = out.read_bytes()
    assert data.endswith(b"\n")
    held = data.count(b"\n")
    results = run(["greedy", "random"], games=held + 2, out=str(out), resume=True)
    assert (results.resumed, results.played, results.lost) == (held, 2, ())


def _sigint_as_in_a_terminal() -> None:
    """In the child, before the command starts: SIGINT's default action, which Python
    turns into ``KeyboardInterrupt`` (it does not when SIGINT is ignored at its start, as
    in a background job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@POSIX
@needs_proc
def test_an_interrupted_process_run_does_not_wait_for_its_running_batches(
    tmp_path: Path,
) -> None:
    """SIGINT to the command alone, while each worker plays a batch lasting minutes:
    the workers are ended, the command exits 130 (it used to wait for the batches).

    The command gets SIGINT as a terminal's foreground job has it, whatever this test
    process has: a suite started in the background by a script (``pytest ... &``)
    ignores SIGINT, its children inherit that, and Python then never raises
    ``KeyboardInterrupt`` -- the command rightly played on, and this test waited its 60 s
    (issue 24).  The test ignores SIGINT while it starts the command, so that it runs in
    that worst case every time."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a background suite has it
    try:
        process = subprocess.Popen(
            _command("--bots", f"{BOTS}:SlowBot,random", "--games", "100", "--batch", "50",
                     "--backend", "process", "--workers", "2"),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_environment(), cwd=ROOT,
            preexec_fn=_sigint_as_in_a_terminal,
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 3:  # the resource tracker and two workers
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.1)
        time.sleep(1.0)  # the workers are inside their batches
        workers = _children(process.pid)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)  # a batch lasts some 20 minutes
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert _gone(workers, within=10)


@POSIX
@needs_proc
def test_workers_of_a_killed_run_exit_instead_of_living_on_as_orphans(tmp_path: Path) -> None:
    """SIGKILL (the out-of-memory killer) cannot be caught: the workers notice that
    their parent is gone and exit within a few seconds."""
    out = tmp_path / "games.jsonl"
    process = _endless_process_run(out, subprocess.DEVNULL)
    try:
        _wait_for_lines(out, 10, process)
        workers = _children(process.pid)
    finally:
        process.kill()
        process.wait()
    assert len(workers) >= 2
    assert _gone(workers, within=15)
    held = out.read_bytes()
    results = run(["greedy", "random"], games=2, out=str(out), resume=True)
    assert results.cut_bytes == len(held) - len(held[: held.rfind(b"\n") + 1])


def test_a_stranger_s_bot_checked_move_by_move_plays_the_very_games_of_the_library_s(
    tmp_path: Path,
) -> None:
    """The library's own bots skip the checks a stranger's moves pass (the state left
    alone, the move rebuilt by its constructor); the checks change no game: RandomBot
    behind another class plays the same records."""
    own, wrapped = tmp_path / "own.jsonl", tmp_path / "wrapped.jsonl"
    run(["random", "greedy"], games=6, out=str(own))
    run([f"{BOTS}:WrappedRandomBot", "greedy"], games=6, out=str(wrapped))
    assert [(g["record"], g["result"]) for g in lines(own)] == [
        (g["record"], g["result"]) for g in lines(wrapped)
    ]
