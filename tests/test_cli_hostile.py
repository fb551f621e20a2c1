"""The command line given hostile arguments and files (issue 24): numbers Python reads
but JSON does not, seconds no timer can wait for, named pipes nobody writes, devices
that never end, values of a megabyte and control characters quoted in messages.  Every
answer is one line on standard error, exit 2, at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from azul_rules.cli import main

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
