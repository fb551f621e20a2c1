"""Small builders for hand-made positions in tests (letters B Y R K W, ``.`` empty)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import azul_rules as az
from azul_rules.core.board import Wall, pattern_line
from azul_rules.core.colors import COLORS, FloorItem

LETTERS = {
    "B": az.Color.BLUE,
    "Y": az.Color.YELLOW,
    "R": az.Color.RED,
    "K": az.Color.BLACK,
    "W": az.Color.WHITE,
}


def tiles(text: str) -> tuple[az.Color, ...]:
    """A sorted multiset from letters: ``tiles("BBY")``."""
    return tuple(sorted(LETTERS[ch] for ch in text))


def wall(rows: Sequence[str] = ()) -> Wall:
    """A wall from five strings of letters or dots (missing rows are empty)."""
    padded = [row.ljust(5, ".") for row in rows] + ["....."] * (5 - len(rows))
    return tuple(tuple(None if ch == "." else LETTERS[ch] for ch in row) for row in padded)


def colored_wall(rows: Sequence[str] = ()) -> Wall:
    """A coloured wall from five strings of ``x`` (tile) or ``.``; each tile gets the
    colour printed on its space (S5)."""
    padded = [row.ljust(5, ".") for row in rows] + ["....."] * (5 - len(rows))
    return tuple(
        tuple(az.Color((c - r) % 5) if ch == "x" else None for c, ch in enumerate(row))
        for r, row in enumerate(padded)
    )


def lines(specs: Sequence[str] = ()) -> tuple[az.PatternLine, ...]:
    """Pattern lines from strings such as ``["", "RR", "B", "", ""]``."""
    padded = list(specs) + [""] * (5 - len(specs))
    out = []
    for index, spec in enumerate(padded):
        color = LETTERS[spec[0]] if spec else None
        out.append(pattern_line(index, color, len(spec)))
    return tuple(out)


def floor(text: str = "") -> tuple[FloorItem, ...]:
    """A floor from letters, ``M`` for the starting player marker."""
    return tuple(az.MARKER if ch == "M" else LETTERS[ch] for ch in text)


def board(
    score: int = 0,
    pattern: Sequence[str] = (),
    wall_rows: Wall | None = None,
    floor_text: str = "",
) -> az.PlayerBoard:
    """A player board."""
    return az.PlayerBoard(score, lines(pattern), wall_rows or wall(), floor(floor_text))


def _board_tiles(b: az.PlayerBoard) -> list[az.Color]:
    found: list[az.Color] = [t for row in b.wall for t in row if t is not None]
    for line in b.pattern_lines:
        if line.color is not None:
            found.extend([line.color] * line.count)
    found.extend(t for t in b.floor if isinstance(t, az.Color))
    return found


def state(
    players: Sequence[az.PlayerBoard],
    factories: Sequence[str],
    center: str = "",
    *,
    current: int = 0,
    start: int | None = None,
    marker_holder: int | None = None,
    lid: str | None = "",
    bag: str | None = None,
    rng_state: int | None = 12345,
    phase: az.Phase = az.Phase.FACTORY_OFFER,
    round_number: int = 2,
    variant: az.Variant = az.Variant.COLORED,
) -> az.GameState:
    """A position.  Either the bag or the lid may be ``None``: it then holds every tile
    not placed elsewhere, so that the 100 tiles add up (S3)."""
    facs = tuple(tiles(f) for f in factories)
    used: list[az.Color] = [t for f in facs for t in f] + list(tiles(center))
    used += list(tiles(bag or "")) + list(tiles(lid or ""))
    for b in players:
        used.extend(_board_tiles(b))
    left = []
    for color in COLORS:
        n = 20 - used.count(color)
        assert n >= 0, f"more than 20 {color.name} tiles in this position"
        left.extend([color] * n)
    assert bag is None or lid is None or not left, "the 100 tiles do not add up"
    bag_tiles = tuple(left) if bag is None else tiles(bag)
    lid_tiles = tuple(left) if lid is None else tiles(lid)
    return az.GameState.make(
        players=tuple(players),
        factories=facs,
        center=tiles(center),
        bag=bag_tiles,
        lid=lid_tiles,
        current_player=current,
        start_player=current if start is None else start,
        phase=phase,
        round=round_number,
        variant=variant,
        marker_holder=marker_holder,
        rng_state=rng_state,
    )


def count_all_tiles(s: az.GameState) -> dict[az.Color, int]:
    """Every tile of a state by colour, wherever it lies (S3)."""
    found: list[az.Color] = list(s.bag) + list(s.lid) + list(s.center)
    for f in s.factories:
        found.extend(f)
    for b in s.players:
        found.extend(_board_tiles(b))
    return {c: found.count(c) for c in COLORS}


LONGEST_NUMBER = 10**4300 - 1
"""The largest number JSON text holds (4,300 digits, Python's limit)."""


def round_end_past_4300_digits(seed: int = 10) -> tuple[az.GameState, az.Move]:
    """A position of a seeded random game in round :data:`LONGEST_NUMBER`, and the move
    ending that round: the next round's number has 4,301 digits (R1).  A round has no
    bound in the rules (a table may send every tile to the floor for ever), so the
    position is possible; it and the move are written and read, the position after the
    move cannot be written as JSON text.  (A score cannot be made to grow past 4,300
    digits: no wall earns more than a few hundred points, SCORE_OUT_OF_REACH.)"""
    rnd = random.Random(seed)
    position = az.new_game(2, seed=seed)
    while True:
        longest = position.replace(round=LONGEST_NUMBER, last_scoring=None)
        for move in longest.legal_moves():
            after = longest.apply(move)
            if after.round > LONGEST_NUMBER:
                return longest, move
        position = position.apply(rnd.choice(position.legal_moves()))
