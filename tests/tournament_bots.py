"""Misbehaving and instrumented bots for the tournament tests, importable as
``tests.tournament_bots:Name`` (so that worker processes can build them too)."""

from __future__ import annotations

import contextlib
import os
import random
import time

import azul_rules as az

ILLEGAL = az.Take(99, az.Color.RED, 0)
"""Factory 100 does not exist: NO_SUCH_SOURCE (S2)."""


class IllegalBot:
    """Plays a legal move twice, then a take from factory 100."""

    def __init__(self) -> None:
        self.moves = 0

    def choose(self, state: az.GameState) -> az.Move:
        self.moves += 1
        return ILLEGAL if self.moves > 2 else state.legal_moves()[0]


class RaisingBot:
    """Raises at its first move."""

    def choose(self, state: az.GameState) -> az.Move:
        raise RuntimeError("boom")


class SleepyBot:
    """Sleeps far past any time limit of the tests (the referee interrupts it)."""

    def choose(self, state: az.GameState) -> az.Move:
        time.sleep(30)
        return state.legal_moves()[0]


class StubbornBot:
    """Loops in Python, swallowing every ``Exception`` (not the referee's alarm)."""

    def choose(self, state: az.GameState) -> az.Move:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(Exception):  # the point of this bot
                time.sleep(0.001)
        return state.legal_moves()[0]


class TextBot:
    """Answers with notation instead of a move object."""

    def choose(self, state: az.GameState) -> object:
        return str(state.legal_moves()[0])


def broken_factory() -> FirstMoveBot:
    """A factory that fails before any bot exists."""
    raise ValueError("no weights found")


class ExitBot:
    """Kills its process at its first move (as a crashing native extension would)."""

    def choose(self, state: az.GameState) -> az.Move:
        os._exit(3)


class SeededBot:
    """A random bot that remembers its seed (given because it takes ``seed``)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, state: az.GameState) -> az.Move:
        return self._rng.choice(state.legal_moves())


class FirstMoveBot:
    """Takes no seed: always the first legal move."""

    def choose(self, state: az.GameState) -> az.Move:
        return state.legal_moves()[0]
