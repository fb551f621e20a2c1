"""``azul-rules differential`` plays every game of its search to the end: Hypothesis
abandons none (before, about a game in three was cut short when Hypothesis replayed a
choice sequence too short for its game), and the report counts exactly the games
compared to their end (E1, R6, R7), to ``MAX_MOVES`` or to a disagreement."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.testing import differential

ENGINES = Path(__file__).resolve().parents[1] / "engines"


def counting(log: Path) -> list[str]:
    return [sys.executable, str(ENGINES / "counting_engine.py"), "--log", str(log)]


def buggy(bug: str) -> list[str]:
    return [sys.executable, str(ENGINES / "buggy_engine.py"), "--bug", bug]


@pytest.mark.slow
def test_every_game_started_reaches_its_end_E1(tmp_path: Path) -> None:
    """4 players on the grey wall, the longest games: each game the engine is sent
    reaches its end (E1, R6, R7) as the engine sees it (none starves here, so none is
    cut at MAX_MOVES), and the report counts those games."""
    log = tmp_path / "games.log"
    report = differential.run(counting(log), players=[4], variants=[az.Variant.GREY], games=24,
                              seed=5, timeout=30)  # fmt: skip
    seen = log.read_text(encoding="utf-8").splitlines()
    assert report.status == 0, differential.report_text(report)
    assert (seen.count("new_game"), seen.count("over"), report.games) == (24, 24, 24)
    assert (report.cut, report.abandoned, report.shrink_games) == (0, 0, 0)
    assert report.played == ((4, az.Variant.GREY, 24),)


def test_a_game_past_its_budget_is_finished_and_compared_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a budget of 24 choices (the first deal and four moves), every game is
    finished by the seeded generator, still to its end."""
    monkeypatch.setattr(differential.search, "CHOICES", {2: 24, 3: 24, 4: 24})
    log = tmp_path / "games.log"
    report = differential.run(counting(log), players=[2], variants=[az.Variant.COLORED],
                              games=6, seed=3, timeout=30)  # fmt: skip
    seen = log.read_text(encoding="utf-8").splitlines()
    assert report.status == 0 and report.abandoned == 0
    assert seen.count("new_game") == seen.count("over") == report.games == 6
    assert report.moves > 6 * 40


def test_a_disagreement_past_the_budget_is_reported_as_a_replayable_game_W3(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """W3 broken (a cross tile counted once), found where the moves come from the seed:
    the game reported replays legally to the position where the engine parted."""
    monkeypatch.setattr(differential.search, "CHOICES", {2: 24, 3: 24, 4: 24})
    report = differential.run(buggy("cross-once"), players=[2], games=30, seed=11, timeout=30,
                              shrink_time=10)  # fmt: skip
    found = report.disagreement
    assert report.status == 1 and found is not None and found.rule == "W3"
    assert found.moves > 4  # the deal and three moves are Hypothesis's; the rest the seed's
    assert report.first_found is not None and found.moves <= report.first_found
    assert report.abandoned == 0
    again = az.GameRecord.from_json(found.record.to_json()).replay()
    assert again.ok and again.final == found.step.after
