"""A hostile pass over the referee's side of the engine protocol (docs/engine-protocol.md,
issue 17): engines that flood their output, close it, or start it with a byte order mark.
Each engine is a real process, a few lines of Python given to ``python -c``."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from azul_rules.testing.engine_process import EngineProcess
from azul_rules.testing.protocol import ProtocolError

HELLO = (
    '{"id":1,"ok":true,"protocol":1,"engine":"x","legal_moves":true,"variants":["colored"]}'
)


def engine(source: str) -> list[str]:
    return [sys.executable, "-c", source]


def test_an_engine_flooding_its_output_fills_its_own_pipe_not_the_referee_s_memory(
    tmp_path: Path,
) -> None:
    """Lines nobody asked for are read a few at a time, at most: the engine's writes
    block once its pipe is full.  It counts the lines it managed to write; unbounded,
    the referee would have read millions in the same time (hundreds of MB)."""
    count, partial = tmp_path / "written", tmp_path / "written.part"
    # The count is replaced whole (os.replace): read while rewritten in place, it was
    # now and then empty under load.
    source = f"""
import os, sys
sys.stdin.readline()
print({HELLO!r}, flush=True)
written = 0
while True:
    sys.stdout.write("x\\n" * 1000)
    sys.stdout.flush()
    written += 1000
    with open({str(partial)!r}, "w") as file:
        file.write(str(written))
    os.replace({str(partial)!r}, {str(count)!r})
"""
    with EngineProcess(engine(source), timeout=10) as flooding:
        assert flooding.hello().name == "x"
        time.sleep(1.5)
        written = int(count.read_text())
        with pytest.raises(ProtocolError, match="a reply that is not JSON"):
            flooding.legal_moves()
    assert written < 200_000  # a 64 KiB pipe, four queued lines, the reader's buffer


def test_engine_closed_while_its_reader_is_between_two_lines_leaves_no_thread_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 24, item 14: ``close()`` closed the engine's output while the thread reading
    it could be between two lines; its next ``readline`` then raised ``ValueError:
    readline of closed file`` in the thread (PytestUnhandledThreadExceptionWarning, now
    and then under load).  Here the window is held open: once the line ``MARK`` is
    queued, the reader waits for ``close()`` to begin, then long enough for it to have
    closed the pipes, before reading on.  Every thread must end without an exception."""
    failures: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    queue_line = EngineProcess._queue

    def held_open(process: EngineProcess, item: tuple[str, bytes]) -> bool:
        queued = queue_line(process, item)
        if queued and item[1] == b"MARK\n" and process._closing.wait(timeout=20):
            time.sleep(0.5)  # close() kills the engine and closes the pipes meanwhile
        return queued

    monkeypatch.setattr(EngineProcess, "_queue", held_open)
    source = f"import sys, time\nsys.stdin.readline()\nprint({HELLO!r})\nprint('MARK')\n"
    source += "sys.stdout.flush()\ntime.sleep(60)\n"
    with EngineProcess(engine(source), timeout=10) as process:
        assert process.hello().name == "x"
        readers = list(process._threads)
    for thread in readers:
        thread.join(timeout=10)
        assert not thread.is_alive()
    assert [f"{f.exc_type.__name__}: {f.exc_value}" for f in failures] == []


def _running(pid: int) -> bool:
    """True while process ``pid`` runs: neither gone nor a zombie (an orphan's end may
    be reaped late, or never, by the init of a container)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_engine_close_does_not_wait_for_a_process_holding_its_output(tmp_path: Path) -> None:
    """A process the engine starts in a session of its own escapes the kill and keeps
    the engine's output open: ``close()`` used to wait for it to exit (its ``close`` of
    the pipe waited for the reader's ``readline``), for as long as it lived.  It now
    returns while that process still runs, the pipe left to its reader thread."""
    pid_file = tmp_path / "pid"
    source = f"""
import subprocess, sys, time
sys.stdin.readline()
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
                         start_new_session=True)
open({str(pid_file)!r}, "w").write(str(child.pid))
print({HELLO!r}, flush=True)
time.sleep(60)
"""
    with EngineProcess(engine(source), timeout=10) as process:
        assert process.hello().name == "x"
    escaped = int(pid_file.read_text())
    try:
        assert _running(escaped)  # close() did not wait for it to end
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(escaped, signal.SIGKILL)


def _hello_failure(source: str) -> tuple[ProtocolError, bool]:
    """How the engine running ``source`` fails its ``hello``, and whether it still runs
    once the referee has given up on it."""
    with EngineProcess(engine(source), timeout=10) as process:
        with pytest.raises(ProtocolError) as failed:
            process.hello()
        return failed.value, process.running


def test_an_engine_that_closes_its_output_but_runs_on_is_not_said_to_have_exited() -> None:
    source = "import os, sys, time\nsys.stdin.readline()\nos.close(1)\ntime.sleep(60)\n"
    failure, running = _hello_failure(source)
    assert failure.message == (
        "the engine closed its standard output without answering (it was still running)"
    )
    assert failure.status is None
    assert not running


def test_an_engine_that_exits_is_said_to_have_exited_with_its_status() -> None:
    source = "import sys\nsys.stdin.readline()\nsys.exit(3)\n"
    failure, _ = _hello_failure(source)
    assert failure.message == "the engine exited (status 3) without answering"
    assert failure.status == 3


def test_a_reply_starting_with_a_byte_order_mark_is_named_as_such() -> None:
    """.NET's UTF-8 writers put a byte order mark before their first line by default:
    the failure says so, and how to write without one."""
    source = (
        f"import sys\nsys.stdin.readline()\nsys.stdout.write('\\ufeff' + {HELLO!r} + '\\n')\n"
    )
    with EngineProcess(engine(source), timeout=10) as marked, pytest.raises(
        ProtocolError
    ) as failed:
        marked.hello()
    assert failed.value.message.startswith(
        "a reply that is not JSON: it starts with a byte order mark (U+FEFF); write UTF-8 "
        "without one"
    )


# -- hostile words (issue 24): an engine's refusal, name, line or standard error ----------

HOSTILE_ENGINE = [sys.executable, "tests/engines/hostile_engine.py", "--mode"]


@pytest.mark.parametrize("mode", ["refuse", "name", "garbage", "stderr"])
def test_differential_quotes_an_engine_s_hostile_words_cut_and_printable(
    mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``differential`` printed an engine's 200,000-character refusal (its code and
    message) with the raw ESC byte; so its name, its offending line, its standard error.
    Every line of the report is now printable and at most some 2,000 characters."""
    from azul_rules.cli import main

    engine = " ".join([*HOSTILE_ENGINE, mode])
    status = main(["differential", "--engine", engine, "--games", "2", "--seed", "1",
                   "--shrink-time", "1s"])  # fmt: skip
    out, err = capsys.readouterr()
    assert status == {"refuse": 1, "name": 0}.get(mode, 2)
    lines = (out + err).splitlines()
    assert lines and all(line.isprintable() and len(line) <= 2100 for line in lines)
    assert "\\x1b[31mred\\r\\x07xxx" in out + err
