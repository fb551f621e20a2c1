"""OpenSpiel's MCTS against a random player in ``python_azul``.

Run it (from the project's root, with the ``openspiel`` extra installed)::

    .venv/bin/python examples/openspiel_mcts.py [GAMES] [SIMULATIONS]

``import azul_rules.ai.spiel`` registers the game; ``MCTSBot`` (random rollouts, a few
simulations a move, to keep it quick) plays seat 0 and ``UniformRandomBot`` seat 1,
then the seats are swapped; chance nodes (the first player, each factory dealt) are
sampled from ``state.chance_outcomes()``.  Prints each game's scores and the tally.
"""

from __future__ import annotations

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

import azul_rules.ai.spiel  # noqa: F401  (registers python_azul)


def play(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: np.random.RandomState) -> pyspiel.State:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def main(games: int = 2, simulations: int = 8) -> None:
    game = pyspiel.load_game("python_azul", {"players": 2})
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(game, uct_c=2, max_simulations=simulations, evaluator=evaluator,
                            random_state=rng)  # fmt: skip
    wins = {"mcts": 0.0, "random": 0.0}
    for number in range(games):
        mcts_seat = number % 2
        randomly = uniform_random.UniformRandomBot(1 - mcts_seat, rng)
        bots = [searcher, randomly] if mcts_seat == 0 else [randomly, searcher]
        state = play(game, bots, rng)
        scores = [board.score for board in state.referee.players]
        returns = state.returns()
        wins["mcts"] += returns[mcts_seat] > 0
        wins["random"] += returns[1 - mcts_seat] > 0
        print(f"game {number + 1}: MCTS in seat {mcts_seat}, scores {scores}, returns {returns}")
    print(f"MCTS ({simulations} simulations a move) won {wins['mcts']:.0f} of {games}; "
          f"the random bot won {wins['random']:.0f}")  # fmt: skip


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(int(arguments[0]) if arguments else 2, int(arguments[1]) if len(arguments) > 1 else 8)
