"""Fuzz what the readers accept (minutes, not in CI; ``tests/core/test_impossible_fuzz.py``
runs the same for seconds):

* positions of random games, every one read back from JSON and from its notation with
  no problem (what play reaches is possible);
* impossible positions in the shapes the readers once accepted (a game over with no
  cause, a final score below its bonuses, the traces of a take while every factory is
  full, tiles from nowhere in round 1, a score no wall earns), each refused by
  ``problems()``, the JSON reader and the notation's reader with its problem;
* states changed behind the constructors (a starting player off the table, a pattern
  line of 2**31 tiles or of 5 spaces on the top row), every move answered within a
  minute and in 2 GiB of memory;
* catalogues with hostile placeholders (widths, type codes, conversions, nested
  fields), refused with their file and line, or every phrase worded briefly.

Prints what was tried and found, and every failure.

    .venv/bin/python benchmarks/impossible_fuzz.py [--minutes 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import azul_rules as az
from azul_rules.core.shown import fill
from azul_rules.text.po import CatalogueError, read_catalogue
from tests.impossible_inputs import FAMILIES, hostile_catalogue, impossible, reachable, tampered

MEMORY: int = 2 * 2**30
"""The most memory the run may take (a tiling of 2**31 tiles would take 16 GB)."""


class _Hung(BaseException):
    """A call still running after a minute."""


def _hung(*_: object) -> None:
    raise _Hung


def possible_round(rng: random.Random, counts: collections.Counter[str]) -> None:
    state = reachable(rng)
    assert state.problems() == (), az.to_json(state)
    assert az.from_json(az.to_json(state), az.GameState) == state
    assert az.from_notation(az.to_notation(state)) == state
    counts[f"possible: {state.phase.value}, read back"] += 1


def impossible_round(rng: random.Random, counts: collections.Counter[str]) -> None:
    family = rng.choice(list(FAMILIES))
    state, code = impossible(rng, family)
    assert code in [p.code for p in state.problems()], az.to_json(state)

    def from_json() -> az.GameState:
        return az.from_json(az.to_json(state), az.GameState)

    def from_notation() -> az.GameState:
        return az.from_notation(az.to_notation(state))

    for name, read in (("JSON", from_json), ("notation", from_notation)):
        try:
            read()
        except az.InvalidStateError as error:
            assert code in [p.code for p in error.problems], (name, az.to_json(state))
        else:
            raise AssertionError(f"{name} read an impossible position: {az.to_json(state)}")
    counts[f"impossible: {family}, refused ({code.value})"] += 1


def tampered_round(rng: random.Random, counts: collections.Counter[str]) -> None:
    state, moves = tampered(rng)
    for move in moves[:8]:
        signal.alarm(60)
        try:
            state.apply(move)
            counts["tampered: a state"] += 1
        except az.IllegalMoveError:
            counts["tampered: a verdict"] += 1
        except az.InvalidStateError:
            counts["tampered: InvalidStateError"] += 1
        except (TypeError, ValueError, IndexError, KeyError, AttributeError) as error:
            counts[f"tampered: {type(error).__name__}"] += 1
        finally:
            signal.alarm(0)


def catalogue_round(rng: random.Random, counts: collections.Counter[str], folder: Path,
                    source: object) -> None:  # fmt: skip
    path = hostile_catalogue(rng, folder)
    try:
        catalogue = read_catalogue(str(path), source)  # type: ignore[arg-type]
    except CatalogueError as error:
        assert error.line >= 1
        counts["catalogue: refused at its line"] += 1
        return
    from string import Formatter

    for text in catalogue.texts.values():
        figures = {name: 10**5000 if name == "count" else 1.5 if name == "seconds" else 3
                   for _, name, _, _ in Formatter().parse(text) if name}  # fmt: skip
        assert len(fill(text, "en", **figures)) < 5_000
    counts["catalogue: accepted, every phrase worded"] += 1


def run(minutes: float, seed: int) -> int:
    rng = random.Random(seed)
    counts: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    signal.signal(signal.SIGALRM, _hung)
    source = read_catalogue(str(Path(az.__file__).parent / "text" / "en.po"))
    deadline = time.monotonic() + 60 * minutes
    with tempfile.TemporaryDirectory() as folder:
        while time.monotonic() < deadline:
            kind = rng.choice(("possible", "impossible", "impossible", "tampered", "catalogue"))
            try:
                if kind == "possible":
                    possible_round(rng, counts)
                elif kind == "impossible":
                    impossible_round(rng, counts)
                elif kind == "tampered":
                    tampered_round(rng, counts)
                else:
                    catalogue_round(rng, counts, Path(folder), source)
            except (Exception, _Hung):
                failures.append(f"{kind}: {traceback.format_exc(limit=4)}"[:2000])
    for key in sorted(counts):
        print(f"{counts[key]:>9,}  {key}")
    print(f"{len(failures):>9,}  failures")
    for failure in failures[:20]:
        print("\n" + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    sys.exit(run(options.minutes, options.seed))
