"""The AI adapters against their zero-work floors (issue 25), side by side in one process.

Run from the project's root, with the ``openspiel`` and ``pettingzoo`` extras installed::

    .venv/bin/python benchmarks/framework_floors.py                 # both cores, one process each
    .venv/bin/python benchmarks/framework_floors.py --core this     # only the core of this process
    .venv/bin/python benchmarks/framework_floors.py --quick --players 2 4 --variants colored grey

A adapter's **floor** is a game that does no work of its own, pushed through the same
framework machinery as the adapter: its cost is what the framework and the benchmark loop
cost, so a adapter's moves/s over its floor's says how much of the framework's pace the adapter
keeps.  Each floor plays a 70-move game (2 players alternating, 35 moves each) with 20
legal actions at every move, the adapter's action space and observation space:

* PettingZoo: :class:`ZeroWorkEnv`, an ``AECEnv`` with ``raw_env``'s spaces (the same
  ``Dict`` of a float32 ``Box`` and an int8 mask, the same ``Discrete``), whose
  ``observe`` hands out two arrays built once and whose ``step`` only passes the turn;
  ``raw_env``'s floor is it bare, ``env()``'s floor is it in PettingZoo's standard
  wrappers (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
  ``OrderEnforcingWrapper``), those ``env()`` was built with before issue 25;
* OpenSpiel: ``python_zero_work``, a registered Python game (:class:`ZeroWorkGame`)
  whose state holds a move counter: its legal actions are one list built once, its
  ``apply_action`` adds one to the counter.  Its moves/s are player moves; the adapter's
  too (its chance nodes are part of its cost, as they are of any search over it).

The loops are the ones of ``benchmarks/ai_bench.py``, the same for a adapter and its floor:
PettingZoo ``agent_iter()``, ``last()``, a uniform choice among ``np.flatnonzero`` of the
mask, ``step``; OpenSpiel ``is_terminal()``, ``is_chance_node()``, ``chance_outcomes()``
sampled by ``random.choices`` or ``legal_actions()`` and ``random.choice``,
``apply_action``.  In each repetition (61 by default, of 3 games each) every adapter runs
beside its floor, the order alternating from one repetition to the next, on new seeds;
the figures are medians over the repetitions: the adapter's moves/s, its floor's, and the
median of the per-repetition ratios with its quartiles.  Time is the CPU time of the
thread that plays (``--clock wall`` for elapsed time): on a shared machine the other
processes' work then counts less (and numpy's idle BLAS threads not at all), and many
short repetitions let a burst of it meet adapter and floor alike.
With ``--core both`` (the default) the script runs itself twice, once with the compiled
core and once with ``AZUL_RULES_PURE_PYTHON=1``, each in a process of its own.  No test
asserts any timing.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import pyspiel
from ai_bench import aec_loop, spiel_game_loop  # the loops of ai_bench's figures
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import azul_rules as az
import azul_rules.ai.spiel  # registers python_azul
from azul_rules.ai import actions
from azul_rules.ai.pettingzoo import env, raw_env

Loop = Callable[[int], int]  # plays games from a first seed, returns player moves made

FLOOR_MOVES = 70  # a 2-player game of about the length of an Azul game (benchmarks/README.md)
FLOOR_LEGAL = 20  # legal actions at every move, about an Azul take's


# -- PettingZoo: the zero-work environment ---------------------------------------------------


class ZeroWorkEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment with ``raw_env``'s spaces that does no work: ``observe``
    returns two arrays built once (the mask with ``FLOOR_LEGAL`` ones for the agent to
    move, zeros for the others), ``step`` passes the turn and, after ``FLOOR_MOVES``
    moves, ends the game with +1 / -1 as Azul's returns."""

    metadata: Final = {"render_modes": [], "name": "zero_work_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, variant: str = "colored") -> None:
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        template = raw_env(players, variant)  # the very spaces of the adapter
        self.observation_spaces = template.observation_spaces
        self.action_spaces = template.action_spaces
        count = actions.num_actions(players, variant)
        self._vector = np.zeros(actions.observation_size(players), np.float32)
        self._vector[:] = template.observation_spaces["player_0"]["observation"].low
        self._legal = np.zeros(count, np.int8)
        self._legal[np.linspace(0, count - 1, FLOOR_LEGAL).astype(int)] = 1
        self._none = np.zeros(count, np.int8)
        self._moves = 0
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._moves = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = self._legal if agent == self.agent_selection else self._none
        return {"observation": self._vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._moves += 1
        if self._moves >= FLOOR_MOVES:
            self.terminations = dict.fromkeys(self.agents, True)
            self.rewards = {name: (1.0 if i == 0 else -1.0)
                            for i, name in enumerate(self.agents)}  # fmt: skip
        else:
            self.agent_selection = self.possible_agents[self._moves % len(self.possible_agents)]
        self._accumulate_rewards()


def zero_work_env(players: int, variant: str, wrapped: bool) -> Any:
    """The floor of ``env()`` (wrapped) or of ``raw_env`` (bare)."""
    game = ZeroWorkEnv(players, variant)
    if not wrapped:
        return game
    wrapped_game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    wrapped_game = wrappers.AssertOutOfBoundsWrapper(wrapped_game)
    return wrappers.OrderEnforcingWrapper(wrapped_game)


# -- OpenSpiel: the zero-work game --------------------------------------------------------------

ZERO_WORK_GAME = "python_zero_work"
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _zero_work_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=ZERO_WORK_GAME,
        long_name="A game that does no work (the floor of python_azul)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"players": 2, "variant": "colored"},
    )


class ZeroWorkGame(pyspiel.Game):  # type: ignore[misc]
    """``python_azul``'s action space and players, and a game that does no work."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"players": 2, "variant": "colored", **(params or {})}
        players = params["players"]
        count = actions.num_actions(players, params["variant"])
        info = pyspiel.GameInfo(
            num_distinct_actions=count, max_chance_outcomes=0, num_players=players,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=FLOOR_MOVES,
        )  # fmt: skip
        super().__init__(_zero_work_type(), info, params)
        self.players = players
        self.legal = [int(a) for a in np.linspace(0, count - 1, FLOOR_LEGAL).astype(int)]

    def new_initial_state(self) -> ZeroWorkState:
        return ZeroWorkState(self)


class ZeroWorkState(pyspiel.State):  # type: ignore[misc]
    """A counter of moves and the player to move, read as they are."""

    def __init__(self, game: ZeroWorkGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._legal = game.legal
        self._moves = 0
        self._player = 0
        self._over = False

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._over

    def _legal_actions(self, player: int) -> list[int]:
        return self._legal

    def _apply_action(self, action: int) -> None:
        self._moves += 1
        if self._moves >= FLOOR_MOVES:
            self._over = True
            self._player = _TERMINAL
        else:
            self._player = self._moves % self._players

    def returns(self) -> list[float]:
        if self._moves < FLOOR_MOVES:
            return [0.0] * self._players
        return [1.0] + [-1.0 / (self._players - 1)] * (self._players - 1)


pyspiel.register_game(_zero_work_type(), ZeroWorkGame)


# -- side by side --------------------------------------------------------------------------------


def adapters(players: int, variant: str, games: int) -> dict[str, tuple[Loop, Loop, int]]:
    """Each adapter's loop, its floor's, and how many floor games make about as many moves
    as ``games`` of the adapter."""
    params = {"players": players, "variant": variant}
    return {
        "PettingZoo raw_env": (
            aec_loop(raw_env(players, variant), games),
            aec_loop(zero_work_env(players, variant, wrapped=False), games),
            games,
        ),
        "PettingZoo env()": (
            aec_loop(env(players, variant), games),
            aec_loop(zero_work_env(players, variant, wrapped=True), games),
            games,
        ),
        "OpenSpiel python_azul": (
            spiel_game_loop(pyspiel.load_game("python_azul", params), games),
            spiel_game_loop(pyspiel.load_game(ZERO_WORK_GAME, params), games),
            games,
        ),
    }


# The calling thread's CPU time: not the process's, which counts the idle spinning of
# numpy's OpenBLAS threads, nor the elapsed time, which counts the machine's other work.
CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}
clock = time.thread_time


def timed(loop: Loop, first: int) -> float:
    gc.collect()
    start = clock()
    moves = loop(first)
    return moves / (clock() - start)


def measure(players: int, variant: str, games: int, repeats: int) -> dict[str, tuple[float, ...]]:
    """Per adapter: the medians of its moves/s, its floor's and their ratio, and the
    ratio's quartiles.  Many short repetitions (a few games each), the adapter and its
    floor back to back, so that a burst of the machine's other work meets both."""
    found: dict[str, tuple[float, ...]] = {}
    for name, (adapter, floor, _) in adapters(players, variant, games).items():
        adapter(10_000_000)  # warm-up: memo tables, caches, imports
        floor(10_000_000)
        rates: list[float] = []
        floors: list[float] = []
        ratios: list[float] = []
        for repeat in range(repeats):
            first = repeat * games
            if repeat % 2:
                floor_rate = timed(floor, first)
                rate = timed(adapter, first)
            else:
                rate = timed(adapter, first)
                floor_rate = timed(floor, first)
            rates.append(rate)
            floors.append(floor_rate)
            ratios.append(rate / floor_rate)
        quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        found[name] = (
            statistics.median(rates), statistics.median(floors), statistics.median(ratios),
            quartiles[0], quartiles[-1],
        )  # fmt: skip
    return found


TARGETS = {"PettingZoo raw_env": 0.30, "PettingZoo env()": 0.70, "OpenSpiel python_azul": 0.35}


def report(arguments: argparse.Namespace) -> None:
    core = "compiled" if az.accelerated else "pure Python (AZUL_RULES_PURE_PYTHON=1)"
    print(f"core: {core}; Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; {arguments.games} games x "
          f"{arguments.repeats} repetitions, adapter and floor alternating (medians)")  # fmt: skip
    for players in arguments.players:
        for variant in arguments.variants:
            print(f"\n  {players} players, {variant} wall")
            print(f"  {'adapter':24} {'moves/s':>9} {'floor':>9} {'ratio':>6} "
                  f"{'(quartiles)':>13} target")  # fmt: skip
            for name, (rate, floor, ratio, low, high) in measure(
                players, variant, arguments.games, arguments.repeats
            ).items():
                print(f"  {name:24} {rate:9,.0f} {floor:9,.0f} {ratio:6.3f} "
                      f"({low:.3f}-{high:.3f}) {TARGETS[name]:.2f}")  # fmt: skip
    sys.stdout.flush()


_COUNTED = {
    f"{name}{part}": (adapter, part == ":floor")
    for name, adapter in (("raw", "PettingZoo raw_env"), ("env", "PettingZoo env()"),
                       ("spiel", "OpenSpiel python_azul"))
    for part in ("", ":floor")
}  # fmt: skip


def count(which: str, players: int, variant: str, games: int) -> None:
    """One loop, for counting instructions: callgrind counts only what runs inside
    ``functools.reduce`` with ``--toggle-collect=functools_reduce``, so the imports and
    the warm-up are left out::

        valgrind --tool=callgrind --toggle-collect=functools_reduce \\
            .venv/bin/python benchmarks/framework_floors.py --count spiel --games 5

    and the instructions per player move are callgrind's total over the moves printed."""
    name, floor = _COUNTED[which]
    loop = adapters(players, variant, games)[name][1 if floor else 0]
    loop(10_000_000)  # warm-up
    moves = functools.reduce(lambda total, first: total + loop(first), [0], 0)
    print(f"{which}: {moves} player moves ({players} players, {variant} wall)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repetitions")
    parser.add_argument("--players", type=int, nargs="*", default=[2])
    parser.add_argument("--variants", nargs="*", default=["colored", "grey"])
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--core", choices=("both", "this"), default="both",
                        help="both: the compiled and the pure-Python core, one process "
                        "each; this: the core this process imported")  # fmt: skip
    parser.add_argument("--count", metavar="LOOP", choices=tuple(_COUNTED),
                        help="play only this loop (raw, env, spiel, or one of them with "
                        ":floor) for --games games after a warm-up, inside "
                        "functools.reduce: for callgrind --toggle-collect=functools_reduce")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="cpu: the playing thread's CPU time (the default: steady on a "
                        "shared machine); wall: elapsed time")  # fmt: skip
    arguments = parser.parse_args()
    global clock
    clock = CLOCKS[arguments.clock]
    arguments.games = arguments.games or (2 if arguments.quick else 3)
    arguments.repeats = arguments.repeats or (15 if arguments.quick else 61)
    if arguments.count:
        count(arguments.count, arguments.players[0], arguments.variants[0], arguments.games)
        return
    if arguments.core == "this":
        report(arguments)
        return
    for pure in ("0", "1"):
        command = [sys.executable, __file__, "--core", "this",
                   "--games", str(arguments.games), "--repeats", str(arguments.repeats),
                   "--clock", arguments.clock, "--players", *map(str, arguments.players),
                   "--variants", *arguments.variants]  # fmt: skip
        environment = {**os.environ, "AZUL_RULES_PURE_PYTHON": pure}
        subprocess.run(command, env=environment, check=True)
        print()


if __name__ == "__main__":
    main()
