"""The batch engine for the CPU: many games in C, read and stepped with numpy arrays.

:func:`make` holds ``num_games`` games in the compiled rules engine (the one behind the
referee's objects) and steps them all at once, an action id a game, in pgx's
conventions: ``legal_action_mask``, ``current_player``, ``rewards``, ``terminated`` and
``truncated`` are numpy arrays, the ``observation`` is the observation vector of
:mod:`azul_rules.ai.actions` from the seat of the player to move, made when it is read.  An
illegal action ends its game, the mover losing as pgx penalises it (``-1``, the others
``players - 1``), the position kept; a game that ends is dealt afresh at its next step
(the step that ended it keeps its flags, rewards and position; the action given to the
fresh game is not played: one step later than pgx's ``auto_reset``).  A batch is for
one thread at a time.  :meth:`VectorEnv.to_state` gives any game as the referee's position.
:func:`playouts` plays random games to their ends entirely in C, on threads.

>>> from azul_rules.ai import vector
>>> env = vector.make(4, players=2, seed=1)
>>> env.legal_action_mask.shape, env.observation.shape
((4, 180), (4, 364))
>>> env.step(env.legal_action_mask.argmax(axis=1))   # the first legal action of each
>>> env.to_state(0).round
1
>>> vector.playouts(100, seed=1).games
100

It needs numpy (``pip install 'azul_rules[vector]'``) and the compiled engine, built at
install with a C compiler; without one, :func:`make` and :func:`playouts` raise
``RuntimeError``.  The Python referee is the reference it is held to:
``azul_rules.testing.batched.vector_differential`` holds random games to it step by
step (``tests/ai/test_vector.py``: 1,000 a player count and wall).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from azul_rules.ai.actions import DEFAULT_MAX_ROUNDS, num_actions, observation_size
from azul_rules.core._accelerate import load_compiled
from azul_rules.core.board import PlayerBoard, pattern_line
from azul_rules.core.colors import COLORS, FLOOR_TOTALS, MARKER, Color, FloorItem, wall_color
from azul_rules.core.errors import FormatError
from azul_rules.core.phases import Phase, Variant, variant_of
from azul_rules.core.rng import GAMMA, MIX_1, MIX_2
from azul_rules.core.scoring import COLOR_BONUS, COLUMN_BONUS, ROW_BONUS, decide_outcome
from azul_rules.core.shown import shown
from azul_rules.core.state import ACCELERATED, GameState

__all__ = ["MAX_GAMES", "Playouts", "VectorEnv", "make", "playouts"]

MAX_GAMES: Final = 1 << 26
"""The most games one batch holds."""

_vector = load_compiled("azul_rules.ai._vector", switch=False)
if _vector is not None:  # the engine's tables, from the Python definitions
    _vector.read_tables(
        FLOOR_TOTALS, [wall_color(r, c) for r in range(5) for c in range(5)],
        (ROW_BONUS, COLUMN_BONUS, COLOR_BONUS), (GAMMA, MIX_1, MIX_2),
    )  # fmt: skip

# The referee's compiled core builds to_state's positions from the engine's struct
# directly, when it is in use (the Python core builds them through GameState.make).
_core = load_compiled() if ACCELERATED else None

_LEGAL_FORMS: Final = ("mask", "ids")
_PHASES: Final = (Phase.FACTORY_OFFER, Phase.WALL_TILING, Phase.REFILL, Phase.GAME_OVER)


def _engine() -> Any:
    if _vector is None:
        raise RuntimeError(
            "azul_rules.ai.vector needs the compiled engine, built at install by a C compiler "
            "(reinstall with one: pip install -e .)"
        )
    return _vector


def _count(value: object, name: str, low: int, high: int) -> int:
    if type(value) is not int and not isinstance(value, np.integer):
        raise FormatError(f"{name} must be an int, not {shown(value)}")
    number = int(value)
    if not low <= number <= high:
        raise ValueError(f"{name} must be {low} to {high:,}, not {shown(number)}")
    return number


def _cores() -> int:
    """The cores this process may run on (its affinity where the system tells it), 256 at
    most: the threads' default."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count() or 1
    return max(1, min(usable, 256))


def _seed(value: object) -> int:
    if type(value) is not int and not isinstance(value, np.integer):
        raise FormatError(f"seed must be an int, not {shown(value)}")
    return int(value) & ((1 << 64) - 1)


class VectorEnv:
    """``num_games`` games in the compiled engine, stepped together (see the module).

    The arrays are read-only views, rewritten by each :meth:`step`: copy one to keep it.
    ``legal`` is the form of the legal actions the steps write (see :func:`make`).

    One thread at a time: a call while another thread steps the batch, or makes one of
    its arrays, raises ``RuntimeError``, and arrays read meanwhile may be half-written
    (share a batch between threads behind a lock).
    """

    def __init__(self, num_games: int, players: int, variant: Variant, seed: int,
                 max_rounds: int, threads: int, legal: str) -> None:  # fmt: skip
        self.num_games: Final = num_games
        self.num_players: Final = players
        self.variant: Final = variant
        self.num_actions: Final = num_actions(players, variant)
        self.observation_size: Final = observation_size(players)
        self.max_rounds: Final = max_rounds
        self.threads: Final = threads
        self.legal: Final = legal
        listed = legal == "ids"
        grey = variant is Variant.GREY
        self._games = _engine().Games(num_games, players, grey, seed, max_rounds, threads,
                                      listed)  # fmt: skip
        self._mask = np.zeros((num_games, self.num_actions), np.bool_)
        self._ids = np.full((num_games, self.num_actions), -1, np.int16)
        self._count = np.zeros(num_games, np.int32)
        # the form of the legal actions each step writes; the other is made when read
        self._written: npt.NDArray[Any] = self._ids if listed else self._mask
        self._other: npt.NDArray[Any] = self._mask if listed else self._ids
        self._other_made = False
        self._current = np.zeros(num_games, np.int32)
        self._rewards = np.zeros((num_games, players), np.float32)
        self._terminated = np.zeros(num_games, np.bool_)
        self._truncated = np.zeros(num_games, np.bool_)
        self._observation: npt.NDArray[np.float32] | None = None
        self._games.write(self._written, self._count, self._current, self._rewards,
                          self._terminated, self._truncated)  # fmt: skip

    @staticmethod
    def _view(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """``array`` seen through a read-only buffer: a view numpy cannot make writeable
        again (the engine writes these arrays; nothing else may)."""
        buffer: Any = array  # a numpy array is a buffer (numpy's stubs do not say so)
        view: npt.NDArray[Any] = np.asarray(memoryview(buffer).toreadonly())
        return view

    def _legal(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        if array is self._other and not self._other_made:
            self._games.legal(self._other, self._count, self._other is self._ids)
            self._other_made = True
        return self._view(array)

    @property
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """``num_games x num_actions`` booleans: the legal action ids of each game (all
        true for a game that has just ended, pgx's convention).  Written by each step
        with ``legal="mask"``, made on the first read after a step with ``"ids"``."""
        return self._legal(self._mask)

    @property
    def legal_action_ids(self) -> npt.NDArray[np.int16]:
        """``num_games x num_actions`` int16: row ``i`` lists game ``i``'s legal action
        ids in increasing order in its first ``legal_action_count[i]`` entries, ``-1``
        after them (every id for a game that has just ended, as the mask).  Written by
        each step with ``legal="ids"``, made on the first read after a step with
        ``"mask"``.  A uniform random legal action a game, with numpy::

            k = (rng.random(env.num_games) * env.legal_action_count).astype(np.intp)
            env.step(env.legal_action_ids[np.arange(env.num_games), k])
        """
        return self._legal(self._ids)

    @property
    def legal_action_count(self) -> npt.NDArray[np.int32]:
        """How many actions are legal in each game (int32; ``num_actions`` for a game
        that has just ended)."""
        return self._view(self._count)

    @property
    def current_player(self) -> npt.NDArray[np.int32]:
        """The player to move in each game (int32)."""
        return self._view(self._current)

    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        """``num_games x players``: what the last step gave each player (float32): at a
        game's end ``actions.utilities`` of its winners, after an illegal action pgx's
        penalty, otherwise 0."""
        return self._view(self._rewards)

    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """Whether the last step ended each game (its end, or an illegal action)."""
        return self._view(self._terminated)

    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        """Whether the last step cut each game at the round cap (``max_rounds``)."""
        return self._view(self._truncated)

    @property
    def observation(self) -> npt.NDArray[np.float32]:
        """``num_games x observation_size`` floats: each game seen from its player to
        move's seat (``actions.observation``), made on the first read after a step."""
        if self._observation is None:
            made = np.empty((self.num_games, self.observation_size), np.float32)
            self._games.observe(made)
            self._observation = made
        return self._view(self._observation)

    def step(self, actions: npt.ArrayLike) -> None:
        """One action id a game (``num_games`` integers, the ids of
        :mod:`azul_rules.ai.actions`); the arrays then tell what it did.

        :raises FormatError: for actions that are not integers.
        :raises ValueError: for another number of actions than games.
        """
        chosen = np.asarray(actions)
        if chosen.dtype.kind not in "iu":
            raise FormatError(f"actions are integer action ids, not {chosen.dtype}")
        if chosen.shape != (self.num_games,):
            raise ValueError(f"step() takes {self.num_games} actions, one a game, not an array "
                             f"of shape {chosen.shape}")  # fmt: skip
        ids = np.ascontiguousarray(chosen, np.int64)
        self._games.step(ids, self._written, self._count, self._current, self._rewards,
                         self._terminated, self._truncated)  # fmt: skip
        self._other_made = False
        self._observation = None

    def to_state(self, index: int) -> GameState:
        """Game ``index`` as the referee's position, with the table's draws
        (``rng_state`` None): between rounds the engine has already drawn, so the
        position is the referee's after the ``Refill`` of those factories.  The compiled
        core builds it from the engine's struct (and ``apply`` on it starts from there);
        the Python core through ``GameState.make``.

        :raises FormatError: for an index that is not an int.
        :raises IndexError: for a game that is not in the batch.
        """
        if type(index) is not int and not isinstance(index, np.integer):
            raise FormatError(f"a game's index is an int, not {shown(index)}")
        if _core is not None:
            built: GameState = _core.state_of_game(self._games.game(index))
            return built
        return self._built_in_python(index)

    def _built_in_python(self, index: int) -> GameState:
        phase, round, current, start, holder, factories, center, bag, lid, boards = (
            self._games.position(index)
        )
        players = tuple(_board(board) for board in boards)
        over = _PHASES[phase] is Phase.GAME_OVER
        return GameState.make(
            players=players, factories=tuple(_tiles(f) for f in factories),
            center=_tiles(center), bag=_tiles(bag), lid=_tiles(lid), current_player=current,
            start_player=start, phase=_PHASES[phase], round=round, variant=self.variant,
            marker_holder=None if holder < 0 else holder,
            outcome=decide_outcome(players) if over else None,
        )  # fmt: skip

    def __repr__(self) -> str:
        return (f"<VectorEnv {self.num_games} games, {self.num_players} players, "
                f"{self.variant.value} wall>")  # fmt: skip


def _tiles(counts: Sequence[int]) -> tuple[Color, ...]:
    return tuple(color for color, n in zip(COLORS, counts, strict=True) for _ in range(n))


def _board(data: tuple[Any, ...]) -> PlayerBoard:
    score, colors, counts, wall, floor = data
    lines = tuple(pattern_line(row, None if c < 0 else COLORS[c], n)
                  for row, (c, n) in enumerate(zip(colors, counts, strict=True)))  # fmt: skip
    rows = tuple(tuple(None if c < 0 else COLORS[c] for c in row) for row in wall)
    items: tuple[FloorItem, ...] = tuple(MARKER if c == 5 else COLORS[c] for c in floor)
    return PlayerBoard(score, lines, rows, items)


def make(num_games: int, players: int = 2, variant: Variant | str = Variant.COLORED,
         seed: int = 0, *, max_rounds: int = DEFAULT_MAX_ROUNDS,
         threads: int | None = None, legal: str = "mask") -> VectorEnv:  # fmt: skip
    """``num_games`` new games, each dealt from its own stream of ``seed`` (the same
    arguments give the same games, whatever the threads), cut at ``max_rounds``; each
    :meth:`~VectorEnv.step` splits the games over ``threads`` (default: the machine's
    cores; a slice of 512 games at least each) with the GIL released.  ``legal`` picks
    the form of the legal actions the steps write in those threads: ``"mask"``
    (:attr:`~VectorEnv.legal_action_mask`, pgx's) or ``"ids"``
    (:attr:`~VectorEnv.legal_action_ids`, the quicker for drawing a legal action); the
    other form is made when it is first read after a step.  The games are the same
    either way.

    :raises FormatError: for arguments of the wrong type.
    :raises ValueError: for 0 games or more than :data:`MAX_GAMES`, a player count
        other than 2-4, a round cap below 1, threads outside 1-256, ``legal`` other
        than ``"mask"`` or ``"ids"``.
    :raises RuntimeError: when the compiled engine was not built.
    """
    workers = _cores() if threads is None else threads
    if not isinstance(legal, str):
        raise FormatError(f"legal must be 'mask' or 'ids', not {shown(legal)}")
    if legal not in _LEGAL_FORMS:
        raise ValueError(f"legal must be 'mask' or 'ids', not {shown(legal)}")
    return VectorEnv(_count(num_games, "num_games", 1, MAX_GAMES),
                     _count(players, "players", 2, 4), variant_of(variant), _seed(seed),
                     _count(max_rounds, "max_rounds", 1, 1 << 40),
                     _count(workers, "threads", 1, 256), legal)  # fmt: skip


@attrs.frozen
class Playouts:
    """What :func:`playouts` counted: the games played, the moves made, the games cut at
    the round cap (100: random grey games can stall), the final scores summed and each
    seat's wins (a shared victory counts for each winner)."""

    games: int
    moves: int
    capped: int
    score: int
    wins: tuple[int, ...]


def playouts(games: int, players: int = 2, variant: Variant | str = Variant.COLORED,
             seed: int = 0, threads: int | None = None) -> Playouts:  # fmt: skip
    """``games`` random games played to their ends in C (a legal action drawn uniformly
    at each move), split over ``threads`` (default: the cores the process may run on)
    with the GIL released; each game has its own streams of ``seed``, so the same
    arguments give the same counts whatever the threads.  For benchmarks, differential
    tests and rollouts.

    :raises FormatError: for arguments of the wrong type.
    :raises ValueError: for a negative number of games, a player count other than 2-4,
        or threads outside 1-256.
    :raises RuntimeError: when the compiled engine was not built.
    """
    count = _count(games, "games", 0, 1 << 50)
    seats = _count(players, "players", 2, 4)
    grey = variant_of(variant) is Variant.GREY
    workers = _count(_cores() if threads is None else threads, "threads", 1, 256)
    done, moves, capped, score, wins = _engine().playouts(count, seats, grey, _seed(seed),
                                                          workers)  # fmt: skip
    return Playouts(done, moves, capped, score, wins)

