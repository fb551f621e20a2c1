"""Fuzz the position notation (minutes, not in CI): notations of positions from random
games, mutated (characters inserted, removed, swapped, sections repeated or cut), random
texts of every alphabet, and hostile strings, through ``az.from_notation``.  Every text
must end in a position (whose notation is the same text), a ``FormatError`` or an
``InvalidStateError`` -- never another exception -- and quickly.  Prints the counts and
the slowest call.

    .venv/bin/python benchmarks/notation_fuzz.py [--seconds 60] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections
import random
import string
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import azul_rules as az

URL = string.ascii_letters + string.digits + "-._~"
HOSTILE = ["", "\x00", "c2f1.110_" * 200, "c" * 999, "c2f" + "9" * 997, "é" * 500,
           "c2f1.110_" + "b" * 990, "\u202e" * 10, "c4e" + "1" * 120]  # fmt: skip


def positions(rng: random.Random, count: int) -> list[str]:
    """Notations of positions of random games: 2-4 players, both walls, every phase."""
    found = []
    while len(found) < count:
        state = az.new_game(rng.choice((2, 3, 4)), seed=rng.randrange(2**32),
                            variant=rng.choice(("colored", "grey")))  # fmt: skip
        while not state.is_over and state.round < 30:
            if rng.random() < 0.08:
                found.append(az.to_notation(state))
            state = state.apply(rng.choice(state.legal_moves()))
        found.append(az.to_notation(state))
    return found


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(text) + 1)
        kind = rng.randrange(5)
        if kind == 0:
            text = text[:at] + rng.choice(URL) + text[at:]
        elif kind == 1 and text:
            text = text[:at] + text[at + rng.randint(1, 3):]
        elif kind == 2 and text:
            text = text[:at] + rng.choice(URL) + text[at + 1:]
        elif kind == 3:
            parts = text.split("_")
            i = rng.randrange(len(parts))
            parts.insert(i, parts[i]) if rng.random() < 0.5 else parts.pop(i)
            text = "_".join(parts)
        else:
            text = text[:at] + rng.choice("0123456789") * rng.randint(1, 30) + text[at:]
    return text


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bases = positions(rng, 400)
    for text in bases[:100]:  # warm up: the readers' first calls build their converters
        az.from_notation(text)
    counts: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    slowest = (0.0, "")
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        kind = rng.random()
        if kind < 0.75:
            text = mutate(rng, rng.choice(bases))
        elif kind < 0.95:
            alphabet = URL if rng.random() < 0.8 else string.printable + "éß€\u0300"
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 300)))
        else:
            text = rng.choice(HOSTILE)
        start = time.perf_counter()
        try:
            state = az.from_notation(text)
            counts["read"] += 1
            if az.to_notation(state) != text:
                failures.append(f"not canonical: {text!r}")
        except az.FormatError:
            counts["FormatError"] += 1
        except az.InvalidStateError:
            counts["InvalidStateError"] += 1
        except Exception as error:
            failures.append(f"{type(error).__name__}: {error} <- {text!r}")
        spent = time.perf_counter() - start
        slowest = max(slowest, (spent, text[:60]))
    total = sum(counts.values())
    print(f"{total} texts: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    print(f"slowest call: {slowest[0] * 1000:.2f} ms ({slowest[1]!r}...)")
    print(f"failures: {len(failures)}")
    for failure in failures[:20]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
