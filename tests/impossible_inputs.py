"""Impossible positions, tampered states and hostile catalogues, made at random in the
shapes the readers once accepted: for ``tests/core/test_impossible_fuzz.py`` (seconds, in
CI) and ``benchmarks/impossible_fuzz.py`` (minutes).

* :func:`impossible` changes a position of a random game into one no game reaches, in
  one of :data:`FAMILIES` (a game over with no cause, a final score below its bonuses,
  the traces of a take while every factory is full, tiles from nowhere in round 1, a
  score no wall earns), and says which ``StateProblem`` must name it.
* :func:`tampered` changes a position behind the constructors (``object.__setattr__``:
  a starting player off the table, a pattern line of 2**31 tiles or of 5 spaces on the
  top row), as a careless bot or search would.
* :func:`hostile_catalogue` puts a format spec, a conversion or a nested field into a
  phrase of a catalogue.
"""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import attrs

import azul_rules as az
from azul_rules.core.board import PatternLine
from azul_rules.core.colors import COLORS
from azul_rules.core.grey import walls_can_end
from azul_rules.core.scoring import most_points
from azul_rules.testing import fill_factories
from azul_rules.text.catalogue import FOLDER

__all__ = [
    "FAMILIES", "SPECS", "deadline", "hostile_catalogue", "impossible", "reachable",
    "tampered", "tampered_copy",
]  # fmt: skip

P = az.StateProblem


def reachable(rng: random.Random, until: Callable[[az.GameState], bool] | None = None,
              ) -> az.GameState:  # fmt: skip
    """A position of a random game (2-4 players, both walls, seeded or the table's own
    draws): one ``until`` accepts, or any."""
    while True:
        players = rng.choice((2, 3, 4))
        variant = rng.choice(tuple(az.Variant))
        if rng.random() < 0.3:
            state = az.new_game(players, variant=variant, external_draws=True,
                                first_player=rng.randrange(players))  # fmt: skip
        else:
            state = az.new_game(players, seed=rng.randrange(2**32), variant=variant)
        seen = [state]
        while not state.is_over and state.round < 20:
            if state.phase is az.Phase.REFILL:
                state = state.apply(fill_factories(state, rng.choice))
            else:
                state = state.apply(rng.choice(state.legal_moves()))
            seen.append(state)
        fitting = [s for s in seen if until is None or until(s)]
        if fitting:
            return rng.choice(fitting)


def _take_from(pool: list[az.Color], rng: random.Random) -> az.Color | None:
    if not pool:
        return None
    return pool.pop(rng.randrange(len(pool)))


def _game_over_without_cause(rng: random.Random) -> tuple[az.GameState, P] | None:
    """E1, R6, R7: a game going on, declared over between rounds (its tiles off the
    table back in the bag, its floors in the lid), with no complete row and tiles left."""
    state = reachable(rng, lambda s: not s.is_over)
    bag = list(state.bag) + [t for f in state.factories for t in f] + list(state.center)
    lid = list(state.lid)
    boards = []
    for board in state.players:
        lid += [t for t in board.floor if isinstance(t, az.Color)]
        lines = tuple(line if line.count < line.capacity else PatternLine(None, 0, line.capacity)
                      for line in board.pattern_lines)  # fmt: skip
        bag += [line.color for line in board.pattern_lines  # type: ignore[misc]
                if line.count == line.capacity for _ in range(line.count)]
        boards.append(attrs.evolve(board, floor=(), pattern_lines=lines))
    over = state.replace(players=tuple(boards), factories=((),) * len(state.factories),
                         center=(), bag=tuple(bag), lid=tuple(lid), marker_holder=None,
                         phase=az.Phase.GAME_OVER, last_scoring=None)  # fmt: skip
    grey = over.variant is az.Variant.GREY
    if any(b.has_complete_row() for b in over.players) or not (over.bag or over.lid) or (
        grey and not walls_can_end(over.players)
    ):
        return None
    return over, P.GAME_OVER_WITHOUT_CAUSE


def _final_score_below_bonuses(rng: random.Random) -> tuple[az.GameState, P] | None:
    """E2: a finished game, one score set below that player's end bonuses."""
    state = reachable(rng, lambda s: s.is_over)
    seats = [i for i, b in enumerate(state.players) if az.end_bonuses(b.wall).points]
    if not seats:
        return None
    seat = rng.choice(seats)
    board = state.players[seat]
    low = attrs.evolve(board, score=rng.randrange(az.end_bonuses(board.wall).points))
    players = tuple(low if i == seat else b for i, b in enumerate(state.players))
    return state.replace(players=players, last_scoring=None), P.SCORE_OUT_OF_REACH


def _trace_of_a_take(rng: random.Random) -> tuple[az.GameState, P] | None:
    """T2, T3, R4, W1, W5: a round as dealt (every factory holding tiles), with one
    trace of a take: tiles in the centre, the marker taken, a floor tile, a complete
    pattern line, another player to move."""
    state = reachable(rng, lambda s: s.phase is az.Phase.FACTORY_OFFER and all(s.factories))
    bag = list(state.bag)
    n = len(state.players)
    seat = rng.randrange(n)
    board = state.players[seat]
    kind = rng.randrange(5)
    if kind == 0:
        tile = _take_from(bag, rng)
        if tile is None:
            return None
        return state.replace(center=(tile,), bag=tuple(bag)), P.NO_TAKE_YET
    if kind == 1:
        floor = (az.MARKER,) if rng.random() < 0.7 else ()
        players = tuple(attrs.evolve(b, floor=floor) if i == seat else b
                        for i, b in enumerate(state.players))  # fmt: skip
        return state.replace(players=players, marker_holder=seat), P.NO_TAKE_YET
    if kind == 2:
        tile = _take_from(bag, rng)
        if tile is None:
            return None
        players = tuple(attrs.evolve(b, floor=(tile,)) if i == seat else b
                        for i, b in enumerate(state.players))  # fmt: skip
        return state.replace(players=players, bag=tuple(bag)), P.NO_TAKE_YET
    if kind == 3:
        row = rng.randrange(5)
        line = board.pattern_lines[row]
        color = line.color or rng.choice(COLORS)
        if color in board.wall[row] or bag.count(color) < row + 1 - line.count:
            return None
        for _ in range(row + 1 - line.count):
            bag.remove(color)
        lines = list(board.pattern_lines)
        lines[row] = PatternLine(color, row + 1, row + 1)
        players = tuple(attrs.evolve(b, pattern_lines=tuple(lines)) if i == seat else b
                        for i, b in enumerate(state.players))  # fmt: skip
        return state.replace(players=players, bag=tuple(bag)), P.NO_TAKE_YET
    other = (state.start_player + rng.randrange(1, n)) % n
    return state.replace(current_player=other), P.TURN_OUT_OF_ORDER


def _round_one_tiles(rng: random.Random) -> tuple[az.GameState, P] | None:
    """S6, R2, F2: round 1 of the factory offer, with tiles moved out of the bag (to the
    lid, a floor line or a pattern line) or into it."""
    state = reachable(rng, lambda s: s.round == 1 and s.phase is az.Phase.FACTORY_OFFER)
    bag = list(state.bag)
    tile = _take_from(bag, rng)
    if tile is None:
        return None
    if rng.random() < 0.5:
        return state.replace(bag=tuple(bag), lid=(*state.lid, tile)), P.TILES_FROM_NOWHERE
    seat = rng.randrange(len(state.players))
    board = state.players[seat]
    if len(board.floor) >= 7:
        return None
    players = tuple(attrs.evolve(b, floor=(*b.floor, tile)) if i == seat else b
                    for i, b in enumerate(state.players))  # fmt: skip
    return state.replace(players=players, bag=tuple(bag)), P.TILES_FROM_NOWHERE


def _score_out_of_reach(rng: random.Random) -> tuple[az.GameState, P] | None:
    """W3, E2: one score past the most its wall's placements can have scored (and its
    end bonuses, at the end): by a little, or by a number of thirty digits."""
    state = reachable(rng)
    seat = rng.randrange(len(state.players))
    board = state.players[seat]
    most = most_points(board.wall)
    if state.is_over:
        most += az.end_bonuses(board.wall).points
    score = most + (rng.randint(1, 10) if rng.random() < 0.7 else 10 ** rng.randint(2, 30))
    players = tuple(attrs.evolve(b, score=score) if i == seat else b
                    for i, b in enumerate(state.players))  # fmt: skip
    return state.replace(players=players, last_scoring=None), P.SCORE_OUT_OF_REACH


FAMILIES: Final[dict[str, Callable[[random.Random], tuple[az.GameState, P] | None]]] = {
    "game over with no cause": _game_over_without_cause,
    "final score below its bonuses": _final_score_below_bonuses,
    "a trace of a take before any": _trace_of_a_take,
    "round 1, tiles from nowhere": _round_one_tiles,
    "a score no wall earns": _score_out_of_reach,
}
"""The shapes of impossible positions the readers once accepted, by name."""


def impossible(rng: random.Random, family: str) -> tuple[az.GameState, P]:
    """A position of ``family`` and the problem that must name it (built through the
    public constructors, which check only what the referee must read)."""
    while True:
        made = FAMILIES[family](rng)
        if made is not None:
            return made


# -- behind the constructors -----------------------------------------------------------


def _line(count: object, capacity: object, color: object) -> PatternLine:
    line: PatternLine = object.__new__(PatternLine)
    for name, value in (("color", color), ("count", count), ("capacity", capacity)):
        object.__setattr__(line, name, value)
    return line


def tampered(rng: random.Random) -> tuple[az.GameState, list[az.Move]]:
    """A position changed behind the constructors, and the moves to try on it (those of
    the position before): a starting player off the table, or a pattern line of 2**31
    tiles, of 5 spaces on the top row, or of a colour that is not one."""
    state = reachable(rng, lambda s: s.phase in (az.Phase.FACTORY_OFFER, az.Phase.WALL_TILING))
    moves: list[az.Move] = list(state.legal_moves())
    copy = attrs.evolve(state)
    if rng.random() < 0.4:
        context = attrs.evolve(state.context)
        start = rng.choice((len(state.players), -1, 2**70, "0", None, 1.5))
        object.__setattr__(context, "start_player", start)
        object.__setattr__(copy, "context", context)
        return copy, moves
    seat = state.current_player
    row = rng.randrange(5)
    line = rng.choice((_line(2**31, 2**31, az.Color.RED), _line(5, 5, az.Color.BLUE),
                       _line(1, 5, az.Color.BLUE), _line(row + 1, row + 1, 7),
                       _line(-3, row + 1, az.Color.RED)))  # fmt: skip
    board = attrs.evolve(state.players[seat])
    lines = list(board.pattern_lines)
    lines[row] = line
    object.__setattr__(board, "pattern_lines", tuple(lines))
    players = list(state.players)
    players[seat] = board
    object.__setattr__(copy, "players", tuple(players))
    return copy, moves


# -- catalogues -------------------------------------------------------------------------

SPECS: Final = (
    ":>99999999", ":d", ":.5000f", ":,", ":x", ":=^100000", "!r", "!a", "!s", ":{count}",
    ":%", ":>{count}", ".real", "[0]", ":g", "", ":tile|tiles",
)  # fmt: skip
"""What may follow a placeholder's name in a hostile catalogue: widths, type codes,
conversions, nested fields, attribute and index access; and what is allowed."""


def hostile_catalogue(rng: random.Random, folder: Path) -> Path:
    """A copy of the French catalogue (as ``fr.po``, or as ``en.po``) with format specs,
    conversions or nested fields put into a few of its placeholders."""
    text = Path(FOLDER, "fr.po").read_text(encoding="utf-8")
    names = list(re.finditer(r"\{([a-z_]+)\}", text))
    for match in rng.sample(names, rng.randint(1, 3)):
        spec = rng.choice(SPECS).replace("{count}", "{" + match.group(1) + "}")
        text = text.replace(match.group(0), "{" + match.group(1) + spec + "}", 1)
    path = folder / rng.choice(("fr.po", "en.po"))
    path.write_text(text, encoding="utf-8")
    return path


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail, rather than hang, a block running past ``seconds`` (a tampered state must get
    an exception at once, never a loop that does not end)."""

    def hung(*_: object) -> None:
        raise AssertionError(f"no answer within {seconds} s: a loop that never ends")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def tampered_copy(
    state: az.GameState, player: int | None, name: str, value: object
) -> az.GameState:
    """A copy of ``state`` with one attribute changed behind the constructors: the state's
    own (``player`` None) or that of ``player``'s board."""
    copy = attrs.evolve(state)
    if player is None:
        object.__setattr__(copy, name, value)
        return copy
    board = attrs.evolve(copy.players[player])
    object.__setattr__(board, name, value)
    players = list(copy.players)
    players[player] = board
    object.__setattr__(copy, "players", tuple(players))
    return copy
