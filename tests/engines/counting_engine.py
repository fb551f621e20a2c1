"""The reference engine, keeping a log of the games it is sent, for the tests of
``azul-rules differential``: one line ``new_game`` when a game starts, one line ``over``
when a game reaches its end (E1, or R6 / R7), in the file given by ``--log``.

    python tests/engines/counting_engine.py --log FILE

It sees the games from the engine's side: a game the referee starts and then abandons
before its end leaves a ``new_game`` without its ``over``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from azul_rules import GameState, Move, Phase, Refill
from azul_rules.engine import ReferenceEngine, main


class CountingEngine(ReferenceEngine):
    """The reference engine, writing a line to ``log`` at each game's start and end."""

    def __init__(self, log: TextIO) -> None:
        super().__init__()
        self.log = log

    def deal(self, state: GameState, refill: Refill) -> GameState:
        if state.round == 1 and state.phase is Phase.REFILL:  # the deal of new_game
            self._write("new_game")
        return self._ended(state, super().deal(state, refill))

    def play(self, state: GameState, move: Move) -> GameState:
        return self._ended(state, super().play(state, move))

    def _ended(self, before: GameState, after: GameState) -> GameState:
        if after.is_over and not before.is_over:
            self._write("over")
        return after

    def _write(self, line: str) -> None:
        self.log.write(line + "\n")
        self.log.flush()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    arguments = parser.parse_args()
    with open(arguments.log, "a", encoding="utf-8") as log:
        sys.exit(main(CountingEngine(log)))
