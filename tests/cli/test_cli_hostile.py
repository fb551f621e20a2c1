"""The command line given hostile arguments and files (issue 24): numbers Python reads
but JSON does not, seconds no timer can wait for, named pipes nobody writes, devices
that never end, values of a megabyte and control characters quoted in messages.  Every
answer is one line on standard error, exit 2, at once."""

from __future__ import annotations

import os
import random
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.cli import main
from tests.formats.test_fuzz import COMMANDS
from tests.fuzz_inputs import HOSTILE_TEXT, _nodes, check_lines, dumps, seed_document

EXAMPLES = Path("examples")
POSITION = str(EXAMPLES / "round-2-position.json")
POSIX = pytest.mark.skipif(os.name != "posix", reason="named pipes and /dev are POSIX")


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the command; assert exit 2, nothing on standard output and one line on
    standard error, which is returned (without ``azul-rules: ``)."""
    status = main(list(args))
    out, err = capsys.readouterr()
    assert (status, out) == (2, ""), (args, err)
    assert err.count("\n") == 1 and err.startswith("azul-rules"), err
    return err.rstrip("\n")


# -- item 7: integer options take ASCII digits, as the JSON readers do ---------------------

_INTEGER_OPTIONS = [
    ("play", "--players"), ("play", "--seed"), ("replay", "--game"),
    ("differential", "--games"), ("differential", "--seed"), ("tournament", "--games"),
    ("tournament", "--players"), ("tournament", "--seed"), ("tournament", "--workers"),
    ("tournament", "--batch"), ("tournament", "--max-rounds"), ("tournament", "--retries"),
    ("serve", "--port"),
]  # fmt: skip
_REQUIRED = {"replay": [POSITION], "differential": ["--engine", "x"],
             "tournament": ["--bots", "random,random", "--games", "1"]}  # fmt: skip


@pytest.mark.parametrize(("command", "option"), _INTEGER_OPTIONS)
@pytest.mark.parametrize("written", ["٣", "１０", "1_0", " 3", "3 ", "+3", "0x10", "३"])
def test_cli_every_integer_option_refuses_what_json_would_not_read(
    command: str, option: str, written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--seed ٣`` played seed 3, ``--players ٢`` two players, ``--seed 1_0`` seed 10:
    Python's ``int`` reads Unicode digits and underscores, the JSON readers do not."""
    err = _refused(capsys, command, *_REQUIRED.get(command, []), option, written)
    assert err == (f"azul-rules: {command}: argument {option}: expected an integer written in "
                   f"digits 0-9, got {written!r} (see azul-rules {command} --help)")  # fmt: skip


def test_cli_an_integer_option_of_a_megabyte_is_quoted_cut(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _refused(capsys, "play", "--seed", "1" * 1_000_000)
    assert "got '111" in err and len(err) < 200


def test_cli_differential_player_counts_take_ascii_digits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _refused(capsys, "differential", "--engine", "x", "--players", "2,٣")
    assert err == ("azul-rules differential: --players: expected player counts from 2, 3, 4 "
                   "such as 2,3; got '2,٣'")  # fmt: skip


# -- item 4: every option giving seconds is a finite positive decimal ----------------------

_SECONDS_OPTIONS = [("differential", "--timeout"), ("tournament", "--time-limit")]


@pytest.mark.parametrize(("command", "option"), _SECONDS_OPTIONS)
@pytest.mark.parametrize("written", ["nan", "inf", "1e308", "2000000000", "0", "1_0", "٣",
                                     "infinity", "-0.0"])  # fmt: skip
def test_cli_every_seconds_option_refuses_nan_infinity_and_huge(
    command: str, option: str, written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``differential --timeout nan`` (also ``inf``, ``1e308``) was an internal error;
    ``--timeout -1`` already was a usage error, and now so are they all."""
    err = _refused(capsys, command, *_REQUIRED.get(command, []), f"{option}={written}")
    assert err == (
        f"azul-rules: {command}: argument {option}: expected a number of seconds above 0 "
        f"and at most 1000000000 (such as 10 or 0.5), got {written!r} "
        f"(see azul-rules {command} --help)"
    )


@pytest.mark.parametrize("option", ["--time", "--shrink-time"])
@pytest.mark.parametrize("written", ["٣s", "9" * 400 + "h", "2000000000", "0s", "1_0s"])
def test_cli_differential_durations_are_ascii_finite_and_bounded(
    option: str, written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--time ٣s`` was three seconds, and a duration of 400 nines an infinite one."""
    extra = ["--time", "1s"] if option == "--shrink-time" else []
    err = _refused(capsys, "differential", "--engine", "x", *extra, option, written)
    assert err.startswith(f"azul-rules differential: {option}: expected a duration above 0 "
                          "and at most 1000000000 seconds, such as 60s, 2m or 500ms, got ")
    assert len(err) < 250


# -- item 5: named pipes and devices -------------------------------------------------------

AUDIT = EXAMPLES / "audits" / "correct-claim"
SHEET = EXAMPLES / "audits" / "scoresheet-one-wrong-round"
RECORD = str(EXAMPLES / "recorded-game.json")


@pytest.fixture
def no_hang() -> Iterator[None]:
    """These commands used to wait for ever: past 60 s, the test fails instead."""

    def hung(signum: int, frame: object) -> None:
        raise AssertionError("the command is waiting for ever")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _reading_commands(fifo: str) -> list[list[str]]:
    """Every command line reading ``fifo`` as one of its files."""
    claim, position = str(AUDIT / "claim.json"), str(AUDIT / "position.json")
    record, sheet = str(SHEET / "record.json"), str(SHEET / "scoresheet.json")
    return [
        ["show", fifo], ["check", fifo, "2B3"], ["check", POSITION, fifo], ["moves", fifo],
        ["moves", fifo, "--json"], ["convert", fifo, "--to", "link"],
        ["audit", fifo, claim], ["audit", position, fifo], ["audit-game", fifo, sheet],
        ["audit-game", record, fifo], ["replay", fifo], ["replay", fifo, "--game", "0"],
    ]  # fmt: skip


@POSIX
def test_cli_a_named_pipe_nobody_writes_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_hang: None
) -> None:
    """``mkfifo f; azul-rules show f`` (also ``replay``, ``check``, ``audit``,
    ``audit-game``, either file) waited for a writer for ever."""
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    for args in _reading_commands(str(fifo)):
        err = _refused(capsys, *args)
        assert err == f"azul-rules: {fifo}: cannot read: it is a named pipe (FIFO) that no " \
                      "process writes", args


def _send(fd: int, data: bytes) -> None:
    os.write(fd, data)
    os.close(fd)


@POSIX
def test_cli_a_named_pipe_being_written_is_read_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_hang: None
) -> None:
    """A pipe a process writes (a shell's ``<(...)``) is read, before or after it
    writes: the first bytes read to look at it are not lost."""
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    for args, data, status in (
        (["show", str(fifo)], Path(POSITION).read_bytes(), 0),
        (["replay", str(fifo)], Path(RECORD).read_bytes(), 0),
        (["check", POSITION, str(fifo)], b'{"type": "take", "source": 1, "color": "blue", '
                                         b'"line": 2}', 0),
    ):  # fmt: skip
        keeper = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # holds the pipe's buffer
        writer = os.open(fifo, os.O_WRONLY)
        sender = threading.Thread(target=_send, args=(writer, data))
        sender.start()
        try:
            assert main(args) == status, capsys.readouterr().err
        finally:
            sender.join()
            os.close(keeper)
        assert capsys.readouterr().err == ""


@POSIX
def test_cli_a_named_pipe_nobody_reads_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_hang: None
) -> None:
    """``play --record f`` played the game, then waited for a reader for ever; so did
    ``--svg`` and ``--svg-dir`` (a pipe among the pictures' names)."""
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    os.mkfifo(pictures / "round-01-start.svg")
    reason = "it is a named pipe (FIFO) that no process reads"
    for args, path in ((["play", "--record", str(fifo)], fifo),
                       (["show", POSITION, "--svg", str(fifo)], fifo),
                       (["check", POSITION, "2B3", "--svg", str(fifo)], fifo),
                       (["replay", RECORD, "--svg-dir", str(pictures)],
                        pictures / "round-01-start.svg")):  # fmt: skip
        assert main(args) == 2
        assert capsys.readouterr().err == f"azul-rules: cannot write {path}: {reason}\n", args


@POSIX
def test_cli_a_named_pipe_being_read_gets_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_hang: None
) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert main(["play", "--seed", "1", "--record", str(fifo)]) == 0
        sent = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert capsys.readouterr().out.endswith(f"record saved to {fifo}\n")
    assert az.GameRecord.from_json(sent).replay().final.is_over


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_cli_a_device_is_read_no_further_than_a_file_too_long(
    device: str, capsys: pytest.CaptureFixture[str], no_hang: None
) -> None:
    for args in _reading_commands(device):
        err = _refused(capsys, *args)
        assert err in (f"azul-rules: {device}: more than 1048576 bytes: not a file this reads",
                       f"azul-rules: {device}: unreadable: --game picks a game of a "
                       f"tournament's JSON-lines file; {device} is not one"), args  # fmt: skip


# -- item 6: values quoted cut and printable, through every command ------------------------


def _hostile_documents(kind: str, rng: random.Random, count: int) -> list[str]:
    """``count`` documents of ``kind``, each with one value, or one key, made hostile: text
    of 3,000 characters with a terminal's escape, or a number of 50 digits."""
    found = []
    for _ in range(count):
        doc = seed_document(kind, rng.randrange(5))
        container, key = rng.choice(_nodes(doc))
        if isinstance(container, dict) and rng.random() < 0.3:
            container[HOSTILE_TEXT] = container.pop(key)
        else:
            container[key] = rng.choice([HOSTILE_TEXT, 10**50, [HOSTILE_TEXT]])
        found.append(dumps(doc))
    return found


@pytest.mark.parametrize("kind", sorted(COMMANDS))
def test_cli_hostile_values_are_quoted_cut_and_printable(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 100,000-character ``variant`` gave a 200,128-character message, a bag key
    300,147, with the control characters as they were: every line a command writes is
    now printable and at most 2,000 characters, whatever value is hostile."""
    path = tmp_path / "input.json"
    for text in _hostile_documents(kind, random.Random(kind), 25):
        path.write_text(text, encoding="utf-8")
        for template in COMMANDS[kind]:
            args = [part.format(path=path) for part in template]
            status = main(args)
            out, err = capsys.readouterr()
            assert status in (0, 1, 2) and "internal error" not in err, (args, err[:300])
            check_lines(args, out, err)


@pytest.mark.parametrize(
    "args",
    [["play", "--variant", HOSTILE_TEXT], ["show", HOSTILE_TEXT], ["rules", HOSTILE_TEXT],
     ["check", POSITION, HOSTILE_TEXT], ["show", POSITION, "--svg", f"no/{HOSTILE_TEXT}"],
     ["play", "--bots", f"{HOSTILE_TEXT},random"], ["tournament", "--bots", "random,random",
     "--games", "1", "--out", f"no/{HOSTILE_TEXT}"], [HOSTILE_TEXT],
     ["show", POSITION, HOSTILE_TEXT], ["differential", "--engine", f"{HOSTILE_TEXT}\x00"]],
)  # fmt: skip
def test_cli_a_hostile_argument_is_quoted_cut_and_printable(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Arguments are quoted in one printable line of at most a few hundred characters,
    exit 2 (``--engine`` with a null character was an internal error)."""
    err = _refused(capsys, *args)
    assert err.isprintable() and len(err) <= 1100, err[:300]
    assert "internal error" not in err
