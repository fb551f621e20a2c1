"""Bots: the protocol a player program follows, two simple built-in players (a random one
and a greedy one), and how a bot is named on the command line.

A bot is any object with ``choose(state) -> move``.  Bots are built by *factories*: a
factory is any callable returning a bot; it is called with ``seed=`` when its signature
takes a ``seed`` parameter (or ``**kwargs``), otherwise with no argument
(:func:`build_bot`).  :func:`bot_factory` turns a name -- ``random``, ``greedy`` or
``package.module:Factory`` -- into a factory; :func:`seat_seed` is the seed a bot gets for
one seat of one game, so that a game between seeded bots is the same wherever it is played.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import inspect
import random
import re
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import attrs

from azul_rules.core.board import PlayerBoard
from azul_rules.core.colors import CENTER, FLOOR, Color, wall_column
from azul_rules.core.moves import Move, PlaceTile, Take
from azul_rules.core.scoring import floor_penalty, score_placement
from azul_rules.core.shown import clipped, shown
from azul_rules.core.state import GameState

__all__ = [
    "BUILT_IN_BOTS",
    "Bot",
    "BotFactory",
    "BotSpecError",
    "GreedyBot",
    "RandomBot",
    "bot_factory",
    "build_bot",
    "derive_seed",
    "placement_value",
    "seat_seed",
    "take_value",
]


@runtime_checkable
class Bot(Protocol):
    """A player program: ``choose(state)`` returns the move it plays in ``state`` (the
    referee judges it; it is never trusted)."""

    def choose(self, state: GameState) -> Move:
        """The move to play in ``state``, where it is this bot's turn."""
        ...


BotFactory = Callable[..., Bot]
"""A callable returning a new bot, called as ``factory(seed=s)`` when it takes a ``seed``
parameter, else as ``factory()`` (see :func:`build_bot`)."""


@attrs.define
class RandomBot:
    """Plays a uniformly random legal move, from its own seeded generator."""

    seed: int = 0
    name: str = "random"
    _rng: random.Random = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def choose(self, state: GameState) -> Take | PlaceTile:
        """A random legal move."""
        return self._rng.choice(state.legal_moves())


@attrs.define
class GreedyBot:
    """Plays the take worth most right now (see :func:`take_value`); ties go to the
    first in ``legal_moves`` order."""

    name: str = "greedy"

    def choose(self, state: GameState) -> Take | PlaceTile:
        """The best move by its immediate value."""
        board = state.players[state.current_player]
        best: Take | PlaceTile | None = None
        best_value = float("-inf")
        for move in state.legal_moves():
            if isinstance(move, Take):
                value = take_value(state, board, move)
            else:
                value = placement_value(board, move)
            if value > best_value:
                best, best_value = move, value
        assert best is not None, "a game waiting for a move always has a legal one (T1)"
        return best


def placement_value(board: PlayerBoard, move: PlaceTile) -> float:
    """The points a grey-wall placement scores at once (W3)."""
    color = board.pattern_lines[move.line].color
    assert color is not None
    wall = list(board.wall)
    row = wall[move.line]
    wall[move.line] = row[: move.column] + (color,) + row[move.column + 1 :]
    return score_placement(wall, move.line, move.column).points


def take_value(state: GameState, board: PlayerBoard, move: Take) -> float:
    """A quick estimate of a take: tiles placed, plus the wall points of a line it
    completes, minus the floor points it costs."""
    assert isinstance(move.color, Color)
    source = state.center if move.source == CENTER else state.factories[move.source]
    taken = source.count(move.color)
    marker = 1 if move.source == CENTER and state.marker_holder is None else 0
    placed = 0
    completion = 0.0
    if move.line != FLOOR:
        line = board.pattern_lines[move.line]
        placed = min(taken, line.room)
        if placed == line.room:
            column = wall_column(move.line, move.color)
            row = board.wall[move.line]
            wall = list(board.wall)
            wall[move.line] = row[:column] + (move.color,) + row[column + 1 :]
            completion = score_placement(wall, move.line, column).points + 0.5 * line.capacity
    on_floor = len(board.floor)
    cost = floor_penalty(on_floor + marker + taken - placed) - floor_penalty(on_floor)
    return placed * 0.3 + completion - cost


BUILT_IN_BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
"""The bots named by a single word on the command line."""

_SPEC = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_CHOICES = "random, greedy or package.module:Factory"


class BotSpecError(ValueError):
    """A bot name that names no bot: an unknown word, a malformed or unimportable
    ``package.module:Factory``, or one that is not callable.  The message is one line
    naming the spec and the choices."""


def bot_factory(spec: str) -> BotFactory:
    """The factory named by ``spec``: ``random`` (:class:`RandomBot`), ``greedy``
    (:class:`GreedyBot`) or ``package.module:Factory`` (imported; ``Factory`` may be a
    dotted path inside the module, such as ``Outer.make``).

    >>> bot_factory("random") is RandomBot
    True

    :raises BotSpecError: when the spec names nothing callable.
    """
    if not isinstance(spec, str):
        raise BotSpecError(f"a bot is named by a string, not {type(spec).__name__}: "
                           f"choose {_CHOICES}")  # fmt: skip
    name = spec.strip()
    if name in BUILT_IN_BOTS:
        return BUILT_IN_BOTS[name]
    if not _SPEC.match(name) or len(name) > 200:
        raise BotSpecError(f"unknown bot {shown(spec)}: choose {_CHOICES}")
    return _import_factory(name)


def _import_factory(spec: str) -> BotFactory:
    module_name, _, path = spec.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except KeyboardInterrupt:  # Ctrl-C while importing: the organiser's, not the spec's
        raise
    except BaseException as error:  # an import runs arbitrary code, SystemExit included:
        reason = _import_failure(error)  # any failure is the spec's
        raise BotSpecError(
            f"cannot import bot {shown(spec)} ({reason}): choose {_CHOICES}"
        ) from None
    owner = module_name
    for part in path.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise BotSpecError(
                f"unknown bot {shown(spec)}: {clipped(owner)} has no attribute {shown(part)}; "
                f"choose {_CHOICES}"
            ) from None
        except Exception as error:  # a module's __getattr__, a property, may raise anything
            raise BotSpecError(
                f"cannot read bot {shown(spec)} ({_import_failure(error)} reading {shown(part)} of "
                f"{clipped(owner)}): choose {_CHOICES}"
            ) from None
        owner = f"{owner}.{part}"
    if not callable(target):
        raise BotSpecError(f"bot {shown(spec)} is not callable: name a class or a function "
                           f"returning a bot ({_CHOICES})")  # fmt: skip
    factory: BotFactory = target
    return factory


def _import_failure(error: BaseException) -> str:
    """``Type: first line of the message`` (``SystemExit: 3`` for a module that exits
    on import), at most 200 characters."""
    try:
        message = str(error)
    except Exception:
        message = ""
    lines = f"{type(error).__name__}: {message}".splitlines() if message else []
    reason = lines[0] if lines else type(error).__name__
    return reason if len(reason) <= 200 else reason[:199] + "…"


_TAKES_SEED: dict[object, bool] = {}


def build_bot(factory: BotFactory, seed: int) -> Bot:
    """A new bot from ``factory``: ``factory(seed=seed)`` when the factory takes a
    ``seed`` parameter (or ``**kwargs``), else ``factory()``.  Whatever the factory
    raises is raised."""
    try:
        takes = _TAKES_SEED.get(factory)
    except TypeError:  # an unhashable callable
        takes = None
    if takes is None:
        takes = _takes_seed(factory)
        with contextlib.suppress(TypeError):  # an unhashable callable: not cached
            _TAKES_SEED[factory] = takes
    bot: Bot = factory(seed=seed) if takes else factory()
    return bot


def _takes_seed(factory: BotFactory) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # no signature to read (some builtins)
        return False
    return any(
        p.kind is p.VAR_KEYWORD
        or (p.name == "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
        for p in parameters
    )


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` (from 0) of the game dealt with ``game_seed``:
    the first 53 bits of BLAKE2b-64 of ``"azul-rules/seat:<game_seed>:<seat>"`` (an
    integer exact in any JSON reader).  The same on every machine and Python version.

    >>> seat_seed(0, 0) == seat_seed(0, 0) != seat_seed(0, 1)
    True
    """
    return derive_seed("seat", game_seed, seat)


def derive_seed(*parts: object) -> int:
    """A 53-bit seed from ``parts``: BLAKE2b-64 of ``"azul-rules/" + ":".join(parts)``,
    shifted right by 11 bits."""
    text = "azul-rules/" + ":".join(str(p) for p in parts)
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 11
