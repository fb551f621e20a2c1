"""One episode of the PettingZoo environment with masked random actions.

Run it (from the project's root, with the ``pettingzoo`` extra installed)::

    .venv/bin/python examples/pettingzoo_random.py [PLAYERS] [VARIANT] [SEED]

Each agent samples a legal action from its ``action_mask`` (PettingZoo's ``Discrete``
space samples within a mask); the referee's final scores and the rewards are printed.
"""

from __future__ import annotations

import sys

from azul_rules.ai.pettingzoo import env


def main(players: int = 3, variant: str = "colored", seed: int = 1) -> None:
    game = env(players=players, variant=variant, render_mode="ansi")
    game.reset(seed=seed)
    for index, agent in enumerate(game.possible_agents):
        game.action_space(agent).seed(seed + index)
    rewards = dict.fromkeys(game.possible_agents, 0.0)
    steps = 0
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            rewards[agent] = reward
            game.step(None)
            continue
        game.step(game.action_space(agent).sample(observation["action_mask"]))
        steps += 1
    final = game.unwrapped.game
    print(game.render())
    print()
    ending = "truncated at the round cap" if final.outcome is None else "over"
    print(f"{steps} actions, {final.round} rounds: the game is {ending}")
    print("final scores:", ", ".join(f"player_{i} {b.score}" for i, b in enumerate(final.players)))
    print("rewards:", ", ".join(f"{agent} {value:+.2f}" for agent, value in rewards.items()))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(
        int(arguments[0]) if arguments else 3,
        arguments[1] if len(arguments) > 1 else "colored",
        int(arguments[2]) if len(arguments) > 2 else 1,
    )
