"""Azul as a PettingZoo AEC environment, refereed by azul_rules (extra ``[pettingzoo]``).

A game of random legal moves::

    from azul_rules.ai.pettingzoo import env

    game = env(players=3, variant="grey")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            action = game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

Like PettingZoo's classic games: agents ``player_0`` … ``player_{n-1}``; observations are
dicts ``{"observation": float32 vector, "action_mask": int8 vector}`` (the mask is all
zeros for every agent but the one to move); ``Discrete`` actions with the ids of
:mod:`azul_rules.ai.actions`; rewards only at the end (the winners split what the losers pay,
1/(players - 1) each, as in ``python_azul``).  ``reset(seed=s)`` plays the referee's game
``azul_rules.new_game(players, seed=s, variant=...)``; ``reset()`` with no seed draws the
game's seed from the last seed given (or from the system when none was).  A game still
going after ``max_rounds`` rounds (default 50) is truncated (``truncations`` all true,
rewards 0).  ``env()`` wraps ``raw_env`` in PettingZoo's standard wrappers: an illegal
action ends the game with ``illegal_reward`` (-1) for its player and 0 for the others,
and ``infos[agent]["illegal_move"]`` holds the referee's verdict (its code, rule id and
message); an action outside the action space fails an assertion; calls out of order
raise.  ``raw_env`` alone does the same for an illegal action, without the wrappers.
"""

from __future__ import annotations

import io
import math
import numbers
import operator
import random
from collections.abc import Callable
from typing import Any, Final

from azul_rules.core._extras import extra

with extra("pettingzoo", __name__):
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger

import azul_rules.ai.actions as codec
import azul_rules.svg as svg
from azul_rules.core.errors import FormatError, IllegalMoveError, Result
from azul_rules.core.phases import Variant
from azul_rules.core.shown import shown
from azul_rules.core.state import GameState, new_game

__all__ = ["RENDER_MODES", "VerdictTerminateIllegalWrapper", "env", "raw_env"]

_FLOAT32_MAX: Final = float(np.finfo(np.float32).max)

RENDER_MODES: Final = ("human", "ansi", "svg", "rgb_array")
"""``"human"`` (the text board printed), ``"ansi"`` (the same text returned), ``"svg"``
(:func:`azul_rules.svg.board`) and ``"rgb_array"`` (that picture rasterised)."""


def env(
    players: int = 2,
    variant: str = "colored",
    render_mode: str | None = None,
    *,
    max_rounds: int = codec.DEFAULT_MAX_ROUNDS,
    illegal_reward: float = -1.0,
) -> Any:
    """The environment in PettingZoo's standard wrappers: an illegal action ends the game
    (``illegal_reward`` for its player, the verdict in its ``infos``), an action outside
    the action space fails an assertion, and calls out of order raise.

    :raises ValueError: for arguments :class:`raw_env` refuses.
    :raises FormatError: for arguments :class:`raw_env` refuses.
    """
    game = raw_env(
        players, variant, render_mode, max_rounds=max_rounds, illegal_reward=illegal_reward
    )  # checks every argument
    wrapped = VerdictTerminateIllegalWrapper(game, illegal_reward=game.illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class VerdictTerminateIllegalWrapper(wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's ``TerminateIllegalWrapper``, which also puts the referee's verdict
    on the illegal action in ``infos[agent]["illegal_move"]``, and ends the game as
    ``raw_env`` does: ``terminations`` true, ``truncations`` false (PettingZoo's wrapper
    sets both, which a learner would read as a cut-off game to bootstrap from), float
    rewards.

    :raises ValueError: from ``step``, for a ``bool`` action, as ``raw_env``
        (``Discrete`` spaces take ``True`` for 1).
    """

    def step(self, action: Any) -> None:
        game = self.env.unwrapped
        agent = game.agent_selection
        live = not (game.terminations[agent] or game.truncations[agent])
        if live and isinstance(action, (bool, np.bool_)):
            raise ValueError(f"an action is an integer id, not {shown(action)}")
        verdict = None
        if live and action is not None:
            # The verdict is asked only of an action the wrapper will refuse: one whose
            # mask entry, which the wrapper reads, is 0.
            if self._prev_obs is None:
                self.observe(agent)
            if isinstance(self._prev_obs, dict) and not self._prev_obs["action_mask"][action]:
                verdict = game.verdict(action)
        super().step(action)
        if verdict is not None:
            game.truncations = dict.fromkeys(game.truncations, False)
            game.rewards = {name: float(reward) for name, reward in game.rewards.items()}
            if agent in game.infos:
                game.infos[agent]["illegal_move"] = verdict


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # PettingZoo's name for it
    """Azul for 2-4 agents on either wall, with no wrapper.

    :raises ValueError: for a player count other than 2-4, a variant other than
        ``"colored"`` and ``"grey"``, a ``render_mode`` not in :data:`RENDER_MODES`, a
        ``max_rounds`` below 1 or an ``illegal_reward`` that is not finite.
    :raises FormatError: for a player count or ``max_rounds`` that is not an int, an
        ``illegal_reward`` that is not a number.
    """

    metadata: Final = {
        "render_modes": list(RENDER_MODES),
        "name": "azul_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 2,
        variant: str = "colored",
        render_mode: str | None = None,
        *,
        max_rounds: int = codec.DEFAULT_MAX_ROUNDS,
        illegal_reward: float = -1.0,
    ) -> None:
        EzPickle.__init__(
            self, players, variant, render_mode, max_rounds=max_rounds,
            illegal_reward=illegal_reward,
        )  # fmt: skip
        super().__init__()
        codec.factory_count(players)  # ValueError for a player count other than 2-4
        if variant not in ("colored", "grey"):
            raise ValueError(f"variant must be 'colored' or 'grey', not {shown(variant)}")
        self._variant = Variant(variant)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {RENDER_MODES} or None, not {shown(render_mode)}"
            )
        if render_mode == "rgb_array":
            self._raster = _rasteriser()
        rounds = _whole(max_rounds)
        if rounds is None:
            raise FormatError(f"max_rounds must be an int, not {shown(max_rounds)}")
        if rounds < 1:
            raise ValueError(f"max_rounds must be 1 or more, not {shown(rounds)}")
        if not _is_number(illegal_reward):
            raise FormatError(f"illegal_reward must be a number, not {shown(illegal_reward)}")
        try:
            reward = float(illegal_reward)
        except OverflowError:  # an integer past a float's range
            reward = math.inf
        if not math.isfinite(reward):
            raise ValueError(f"illegal_reward must be a finite number, not {shown(illegal_reward)}")
        self.render_mode = render_mode
        self.max_rounds = rounds
        self.illegal_reward = reward
        players = operator.index(players)  # checked above: an int or a numpy integer
        self._players = players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._num_actions = codec.num_actions(players, self._variant)
        layout = codec.observation_layout(players)
        low = np.concatenate([np.full(f.size, f.low, np.float32) for f in layout])
        high = np.concatenate([np.full(f.size, self._high(f), np.float32) for f in layout])
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        self._size = codec.observation_size(players)
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # The move of every id of this wall (move_from_action's table, checked once).
        self._moves = tuple(
            codec.move_from_action(a, players, self._variant) for a in range(self._num_actions)
        )
        # Each position's observations, built once: (seat, live) -> (vector, mask).
        self._observed: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = {}
        self._observed_game: GameState | None = None
        self._seeds: random.Random | None = None
        self.game: GameState = new_game(players, variant=self._variant)
        self._start_episode(self.game)

    def _high(self, field: codec.ObservationField) -> float:
        # The round never passes max_rounds + 1: the game is truncated there.  A cap past
        # float32's range leaves the round unbounded.
        if field.name != "round":
            return field.high
        return float(self.max_rounds + 1) if self.max_rounds < _FLOAT32_MAX else math.inf

    # -- the AEC API ------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the referee's ``new_game(players, seed=seed, variant=...)``; with no
        seed, the game's seed is drawn from the last seed given.  A seed is an int (numpy
        integers too); anything else raises ``FormatError`` and changes nothing.  In
        ``"human"`` render mode the new table is printed."""
        if seed is not None:
            game_seed = _whole(seed)
            if game_seed is None:
                raise FormatError(f"seed must be an int, not {shown(seed)}")
            game = new_game(self._players, seed=game_seed, variant=self._variant)
            self._seeds = random.Random(game_seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            game_seed = self._seeds.getrandbits(63)
            game = new_game(self._players, seed=game_seed, variant=self._variant)
        self._start_episode(game)
        self._show()

    def _start_episode(self, game: GameState) -> None:
        self.game = game
        self._observed_game = None  # no array of an earlier episode is handed out again
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[game.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The game seen from ``agent``'s seat, and its legal actions (none when it is
        not the agent to move).  Built once per position: observing the same agent again
        before the next step or reset gives the same two arrays (copy them before
        changing them in place)."""
        seat = self._seats.get(agent) if isinstance(agent, str) else None
        if seat is None:
            seat = self._seat(agent)  # raises
        live = agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent)
        )
        game = self.game
        if game is not self._observed_game:
            self._observed = {}
            self._observed_game = game
        found = self._observed.get((seat, live))
        if found is None:
            vector = np.empty(self._size, np.float32)
            if live:  # observe_into writes every entry of the mask
                mask = np.empty(self._num_actions, np.int8)
                codec.observe_into(game, seat, vector, mask)
            else:
                mask = np.zeros(self._num_actions, np.int8)
                codec.observe_into(game, seat, vector)
            found = self._observed[seat, live] = (vector, mask)
        return {"observation": found[0], "action_mask": found[1]}

    def _seat(self, agent: object) -> int:
        """``agent``'s seat; ``ValueError`` naming the agents for any other name."""
        if isinstance(agent, str) and agent in self._seats:
            return self._seats[agent]
        raise ValueError(
            f"unknown agent {shown(agent)}: the agents are {', '.join(self.possible_agents)}"
        )

    def state(self) -> np.ndarray:
        """The whole game as one vector: the observation from player 0's seat."""
        vector = np.empty(self._size, np.float32)
        codec.observe_into(self.game, 0, vector)
        return vector

    def step(self, action: Any) -> None:
        """Play ``action`` (an id of :mod:`azul_rules.ai.actions`) for the agent to move.
        An illegal action ends the game: ``illegal_reward`` for the agent, 0 for the
        others, and the verdict in ``infos[agent]["illegal_move"]``.  In ``"human"``
        render mode the table is printed after the step.

        :raises ValueError: for an id outside the action space.
        """
        if not self.agents:  # as OrderEnforcingWrapper: a warning, nothing done
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._play(action)
        self._show()

    def _show(self) -> None:
        """``"human"`` render mode: print the table, as after every reset and step."""
        if self.render_mode == "human":
            self.render()

    def _play(self, action: Any) -> None:
        """:meth:`step` of an episode that has agents left."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = action if type(action) is int else _as_int(action)
        if 0 <= number < self._num_actions:
            move = self._moves[number]
        else:  # raises ValueError, in move_from_action's words
            move = codec.move_from_action(number, self._players, self._variant)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            self.game = self.game.apply(move)
        except IllegalMoveError as error:
            self._end_illegal(agent, _verdict_data(number, str(move), error.result))
            return
        game = self.game
        if game.outcome is not None:
            returns = codec.utilities(game.outcome.winners, self._players)
            for index, name in enumerate(self.possible_agents):
                self.rewards[name] = returns[index]
            self.terminations = dict.fromkeys(self.agents, True)
        elif game.round > self.max_rounds:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()

    def verdict(self, action: Any) -> dict[str, Any] | None:
        """The referee's verdict on ``action`` for the agent to move, as plain data
        (``None`` when it is legal): the action, the move, and the first violation's
        ``code``, ``rule`` and ``message`` with every violation listed."""
        try:
            number = _as_int(action)
            move = codec.move_from_action(number, self._players, self._variant)
        except ValueError as error:
            return {"action": action, "move": None, "code": None, "rule": None,
                    "message": str(error), "violations": []}  # fmt: skip
        result = self.game.validate(move)
        if result.ok:
            return None
        return _verdict_data(number, str(move), result)

    def render(self) -> str | np.ndarray | None:
        """The position as text (``"ansi"``), as an SVG document (``"svg"``) or as that
        picture's pixels (``"rgb_array"``: an ``H×W×3`` ``uint8`` array); ``"human"``
        prints the text and returns ``None``, as PettingZoo's classic games do."""
        mode = self.render_mode
        if mode is None:
            return None
        if mode in ("ansi", "human"):
            text = codec.table_string(self.game)
            if mode == "ansi":
                return text
            print(text, flush=True)
            return None
        picture = str(svg.board(self.game))
        return picture if mode == "svg" else self._raster(picture)

    def close(self) -> None:
        """Nothing to release."""

    def _clear_rewards(self) -> None:
        # AECEnv's sets the int 0; rewards are floats here, as at reset and at the end.
        self.rewards = dict.fromkeys(self.rewards, 0.0)

    def _end_illegal(self, agent: str, verdict: dict[str, Any]) -> None:
        """An illegal action ends the game (as PettingZoo's TerminateIllegalWrapper)."""
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards[agent] = self.illegal_reward
        self.infos[agent] = {"illegal_move": verdict}
        self._accumulate_rewards()


def _as_int(action: Any) -> int:
    number = _whole(action)
    if number is None:
        raise ValueError(f"an action is an integer id, not {shown(action)}")
    return number


def _is_number(value: object) -> bool:
    """A real number: an int, a float or a numpy scalar of either; not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _whole(value: Any) -> int | None:
    """``value`` as an int: an int or a numpy integer (a 0-d integer array too), never a
    bool; ``None`` for anything else."""
    if type(value) is int:
        return value
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _verdict_data(action: int, move: str, result: Result) -> dict[str, Any]:
    first = result.violations[0]
    return {
        "action": action,
        "move": move,
        "code": first.code.value,
        "rule": first.rule,
        "message": first.message,
        "violations": [
            {"code": v.code.value, "rule": v.rule, "message": v.message} for v in result.violations
        ],
    }


def _rasteriser() -> Callable[[str], np.ndarray]:
    """The SVG pictures as pixels, for the ``rgb_array`` render mode: resvg (through
    ``resvg-py``, a Rust library in a self-contained wheel) rasterises the document of
    :func:`azul_rules.svg.board` at its own size on white, and Pillow decodes the PNG into
    an ``H×W×3`` ``uint8`` array.  Both are imported only when ``rgb_array`` is asked for
    (docs/ai-pettingzoo.md says why these libraries)."""
    with extra("pettingzoo", __name__):
        import resvg_py
        from PIL import Image

    def rgb_array(picture: str) -> np.ndarray:
        png = resvg_py.svg_to_bytes(svg_string=picture, background="white")
        with Image.open(io.BytesIO(png)) as image:
            return np.asarray(image.convert("RGB"), dtype=np.uint8)

    return rgb_array
