"""Hostile and careless inputs for the fuzz tests (``tests/formats/test_fuzz.py``) and the long
fuzz run (``benchmarks/fuzz.py``): valid documents of every kind, mutated at random,
and the checks every accepted input must pass."""

from __future__ import annotations

import copy
import json
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import azul_rules as az
from azul_rules.adjudication.auditing import position_from_json
from azul_rules.adjudication.claims import claim_from_json
from azul_rules.adjudication.scoresheet import scoresheet_from_json
from azul_rules.core.shown import is_printable
from azul_rules.testing import tile_counts
from azul_rules.tournament import run as run_tournament

AUDIT: Final = Path(__file__).resolve().parent.parent / "examples" / "audits" / "tile-in-wrong-row"
"""An audit example: a position at the end of a factory offer and a claim giving each
board as the players left it."""
SCORESHEET: Final = Path(__file__).resolve().parent.parent / "examples" / "audits" / (
    "scoresheet-one-wrong-round"
)
__all__ = [
    "HOSTILE_TEXT",
    "KINDS",
    "MAX_LINE",
    "MAX_PLAYOUT_MOVES",
    "TOURNAMENT_BOTS",
    "TOURNAMENT_GAMES",
    "check_lines",
    "mutate",
    "mutate_text",
    "mutated_tournament_file",
    "play_out",
    "random_refill",
    "read",
    "seed_document",
    "tournament_lines",
]

MAX_PLAYOUT_MOVES: Final = 5_000
"""A random game from any position ends long before this (R7 ends dead grey games)."""

HOSTILE_TEXT: Final = "\x1b[2J\r\x07" + "x" * 3000
"""Text no message should quote whole, or raw: 3,000 characters, a terminal's escape."""

MAX_LINE: Final = 2000
"""The longest line a command may write about any input (a value is quoted cut)."""

ODD_VALUES: Final[tuple[object, ...]] = (
    None, True, False, -1, 0, 1, 2, 4, 5, 9, 20, 21, 10**8, 2**64, 10**30, 1.5, -0.0,
    "", "blue", "red", "marker", "center", "floor", "take", "grey", "refill", "٢", "02",
    [], {}, ["blue"], ["blue"] * 5, [["red"]], {"blue": 3}, {"type": "take"}, [None] * 5,
    HOSTILE_TEXT, "\u202e\u2028", 10**50, -(10**60), {HOSTILE_TEXT: 1},
)  # fmt: skip
"""Hostile values among them (issue 24): text of thousands of characters with control
characters, numbers past 40 digits, such text as a key."""


def _documents(seed: int) -> dict[str, object]:
    """One valid document of every kind, from a seeded game."""
    rng = random.Random(seed)
    variant = az.Variant.GREY if seed % 3 == 0 else az.Variant.COLORED
    players = 2 + seed % 3
    external = seed % 4 == 1
    state = az.new_game(players, seed=seed, variant=variant, external_draws=external)
    moves: list[az.Move] = []
    for _ in range(rng.randrange(0, 120)):
        if state.is_over:
            break
        move: az.Move | None = random_refill(state, rng)
        if move is None:
            move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    record = az.GameRecord(tuple(moves), players, seed, variant, external_draws=external)
    table_take = az.TableTake(0, az.Color.RED, 3, {2: 2, az.FLOOR: 1}, player=1)
    return {
        "state": az.to_dict(state),
        "move": az.to_dict(rng.choice([*_moves_of(state), table_take])),
        "record": record.to_dict(),
    }


def _moves_of(state: az.GameState) -> list[az.Move]:
    return list(state.legal_moves()) or [az.PlaceTile(0, 0)]


def seed_document(kind: str, seed: int) -> object:
    """A valid document of ``kind``: ``state``, ``move``, ``record``, ``claim`` (of an
    audit example), ``audit_position`` (its position) or ``scoresheet``."""
    if kind in ("claim", "audit_position"):
        name = "claim.json" if kind == "claim" else "position.json"
        return json.loads((AUDIT / name).read_text())
    if kind == "scoresheet":
        return json.loads((SCORESHEET / "scoresheet.json").read_text())
    return copy.deepcopy(_CACHE.setdefault(seed, _documents(seed))[kind])


_CACHE: dict[int, dict[str, object]] = {}


def _nodes(data: object) -> list[tuple[Any, Any]]:
    """Every (container, key) pair of a document."""
    found: list[tuple[Any, Any]] = []
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                found.append((value, key))
                stack.append(item)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                found.append((value, index))
                stack.append(item)
    return found


def mutate(data: object, rng: random.Random, steps: int = 2) -> object:
    """``data`` with a few random changes: a value replaced (by an odd value, a nearby
    number or another part of the document), a key or entry removed or repeated."""
    for _ in range(steps):
        nodes = _nodes(data)
        if not nodes:
            return copy.deepcopy(rng.choice(ODD_VALUES))
        container, key = rng.choice(nodes)
        action = rng.randrange(6)
        value = container[key]
        if action == 0:
            container[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif action == 1 and isinstance(value, int) and not isinstance(value, bool):
            container[key] = value + rng.choice((-1, 1, -value - 1, 5, 10**6))
        elif action == 2:
            del container[key]
        elif action == 3 and isinstance(container, list):
            container.insert(key, copy.deepcopy(value))
        elif action == 4:
            other_container, other_key = rng.choice(nodes)
            container[key] = copy.deepcopy(other_container[other_key])
        elif isinstance(container, dict):
            key = rng.choice(("extra", "round", "phase", "type", "z", HOSTILE_TEXT))
            container[key] = copy.deepcopy(rng.choice(ODD_VALUES))
    return data


def mutate_text(text: str, rng: random.Random) -> str:
    """JSON text cut, with characters inserted or removed, a key of its top-level object
    given twice, or a byte order mark in front."""
    action = rng.randrange(6)
    at = rng.randrange(len(text) + 1)
    if action == 0:
        return text[:at]
    if action == 1:
        odd = ['"', "{", "]", ",", "\\", "\ufeff", "\r", "\x00", "\u2028", "9" * 50]
        return text[:at] + rng.choice(odd) + text[at:]
    if action == 2:
        return text[:at] + text[at + rng.randrange(1, 8) :]
    if action == 3 and text.startswith("{"):
        return '{"round": 2, ' + text[1:]
    if action == 4 and text.startswith("{"):
        return repeat_key(text, rng)
    return "\ufeff" + text


def repeat_key(text: str, rng: random.Random) -> str:
    """``text`` (a JSON object) with one of its top-level keys given a second time, in
    front, with its own value or an odd one."""
    try:
        doc = json.loads(text)
    except ValueError:
        return text
    if not isinstance(doc, dict) or not doc:
        return text
    key = rng.choice(list(doc))
    value = doc[key] if rng.random() < 0.5 else rng.choice(ODD_VALUES)
    return "{" + json.dumps(key) + ": " + json.dumps(value) + ", " + text[1:]


TOURNAMENT_BOTS: Final = ("random", "greedy")
TOURNAMENT_GAMES: Final = 3
"""The small tournament whose JSON-lines file is fuzzed (``--resume``, ``--game N``)."""
_LINES: list[str] = []


def tournament_lines() -> list[str]:
    """The lines of a real tournament's file (played once)."""
    if not _LINES:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "games.jsonl"
            run_tournament(list(TOURNAMENT_BOTS), games=TOURNAMENT_GAMES, out=str(path),
                           progress=False)  # fmt: skip
            _LINES.extend(path.read_text(encoding="utf-8").splitlines())
    return list(_LINES)


def mutated_tournament_file(rng: random.Random) -> str:
    """A tournament's JSON-lines file with one line mutated (its values, or its text) or
    the whole text mutated (cut, a byte order mark...)."""
    lines = tournament_lines()
    index = rng.randrange(len(lines))
    action = rng.randrange(3)
    if action == 0:
        lines[index] = dumps(mutate(json.loads(lines[index]), rng, rng.randint(1, 3)))
    elif action == 1:
        lines[index] = mutate_text(lines[index], rng)
    text = "\n".join(lines) + "\n"
    return mutate_text(text, rng) if action == 2 else text


def random_refill(state: az.GameState, rng: random.Random) -> az.Refill | None:
    """R2: the factories a real draw could give (the bag, then the lid poured in), for a
    game waiting for the table's draws; ``None`` otherwise."""
    if state.phase is not az.Phase.REFILL:
        return None
    pool = list(state.bag)
    spare = list(state.lid)
    factories = []
    for _ in state.factories:
        drawn: list[az.Color] = []
        while len(drawn) < 4:
            if not pool:
                if not spare:
                    break
                pool, spare = spare, []
            drawn.append(pool.pop(rng.randrange(len(pool))))
        factories.append(tuple(drawn))
    return az.Refill(tuple(factories))


def play_out(state: az.GameState, rng: random.Random) -> int:
    """Play random legal moves to the end, checking after every move that every tile is
    accounted for (S3) and that the position can exist; returns the moves played."""
    for played in range(MAX_PLAYOUT_MOVES):
        if state.is_over:
            return played
        move: az.Move | None = random_refill(state, rng)
        if move is None:
            moves = state.legal_moves()
            assert moves, f"no legal move and not over:\n{az.to_json(state)}"
            move = rng.choice(moves)
        state = state.apply(move)
        assert tile_counts(state) == dict.fromkeys(az.Color, 20)
        problems = state.problems()
        assert not problems, f"{problems} after {move}"
    raise AssertionError(f"not over after {MAX_PLAYOUT_MOVES} random moves")


def _read_state(text: str | bytes) -> object:
    return az.from_json(text, az.GameState)


def _audit_claim(text: str | bytes) -> object:
    """A claim, judged against the audit example's position."""
    position = position_from_json((AUDIT / "position.json").read_text())
    return az.audit(position, claim_from_json(text))


def _audit_position(text: str | bytes) -> object:
    """An offer-end position, judged with the audit example's claim."""
    claim = claim_from_json((AUDIT / "claim.json").read_text())
    return az.audit(position_from_json(text), claim)


def _audit_sheet(text: str | bytes) -> object:
    record = az.GameRecord.from_json((SCORESHEET / "record.json").read_text())
    return az.audit_game(record, scoresheet_from_json(text))


KINDS: Final[dict[str, Callable[[str | bytes], object]]] = {
    "state": _read_state,
    "move": az.move_from_json,
    "record": az.GameRecord.from_json,
    "claim": _audit_claim,
    "audit_position": _audit_position,
    "scoresheet": _audit_sheet,
}
"""How each kind of document is read through the Python API."""


def read(kind: str, text: str | bytes) -> object:
    """Read ``text`` as a ``kind``; only the documented exceptions may escape."""
    return KINDS[kind](text)


def dumps(data: object) -> str:
    """JSON text of any document, mutated ones included."""
    return json.dumps(data, ensure_ascii=False)


def check_lines(args: list[str], out: str, err: str) -> None:
    """What a command wrote about hostile input: every line printable (no control
    character reaches the terminal; the no-break spaces of French typography are none:
    :func:`azul_rules.core.shown.is_printable`) and at most :data:`MAX_LINE` characters
    (values are quoted cut); standard output too, unless it is ``--json`` (JSON escapes
    them)."""
    lines = err.splitlines() + ([] if "--json" in args else out.splitlines())
    for line in lines:
        assert is_printable(line), (args, line[:300])
        assert len(line) <= MAX_LINE, (args, len(line), line[:300])
