"""The command line: ``azul-rules play``."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from azul_rules.cli import main


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
