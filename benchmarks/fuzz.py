"""The long fuzz run (minutes, not in CI): positions, moves and records mutated from
valid ones or written from scratch, read through the Python API and every accepted
position played to the end; then mutated files through each command of the command
line, in-process.  Prints what was tried, refused (by kind of error), accepted and
played out, and every failure.

    .venv/bin/python benchmarks/fuzz.py [--minutes 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import azul_rules as az
from azul_rules.cli import main
from tests.fuzz_inputs import (
    ODD_VALUES,
    check_lines,
    dumps,
    mutate,
    mutate_text,
    play_out,
    read,
    seed_document,
)
from tests.test_fuzz import COMMANDS

KINDS = ("state", "move", "record", "claim", "audit_position", "scoresheet")


def scratch(rng: random.Random, depth: int = 0) -> object:
    """A random JSON value, nested a little."""
    roll = rng.random()
    if depth > 3 or roll < 0.5:
        return rng.choice(ODD_VALUES)
    if roll < 0.75:
        return [scratch(rng, depth + 1) for _ in range(rng.randrange(6))]
    keys = ("type", "players", "score", "wall", "moves", "bag", "round", "phase", "x")
    return {rng.choice(keys): scratch(rng, depth + 1) for _ in range(rng.randrange(6))}


def one_input(rng: random.Random) -> tuple[str, str, str]:
    """(kind, how it was made, text)."""
    kind = rng.choice(KINDS)
    roll = rng.random()
    if roll < 0.1:
        return kind, "from scratch", json.dumps(scratch(rng))
    document = seed_document(kind, rng.randrange(200))
    text = dumps(mutate(document, rng, rng.randrange(1, 5)))
    if roll < 0.3:
        return kind, "text mutated", mutate_text(text, rng)
    return kind, "mutated", text


def api_round(rng: random.Random, counts: collections.Counter[str], failures: list[str]) -> None:
    kind, how, text = one_input(rng)
    counts[f"tried: {kind}, {how}"] += 1
    try:
        value = read(kind, text)
    except az.FormatError:
        counts[f"refused: {kind}: FormatError"] += 1
        return
    except az.InvalidStateError:
        counts[f"refused: {kind}: InvalidStateError"] += 1
        return
    except Exception:
        failures.append(f"{kind} ({how}): {traceback.format_exc(limit=3)}\n{text[:400]}")
        return
    counts[f"accepted: {kind}"] += 1
    try:
        if isinstance(value, az.GameState):
            assert value.problems() == ()
            play_out(value, rng)
            counts["played out to the end"] += 1
        elif isinstance(value, az.GameRecord):
            value.replay()
            counts["records replayed"] += 1
    except Exception:
        failures.append(f"playing {kind} ({how}): {traceback.format_exc(limit=3)}\n{text[:400]}")


def cli_round(rng: random.Random, counts: collections.Counter[str], failures: list[str],
              folder: Path) -> None:  # fmt: skip
    kind, _, text = one_input(rng)
    path = folder / "input.json"
    path.write_text(text, encoding="utf-8")
    for template in COMMANDS[kind]:
        args = [part.format(path=path) for part in template]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(args)
        counts[f"cli {args[0]}: exit {status}"] += 1
        errors = err.getvalue()
        clean = all(line.startswith("azul-rules: ") for line in errors.splitlines())
        try:
            check_lines(args, out.getvalue(), errors)
        except AssertionError as error:
            clean = False
            errors = f"{error}"[:400]
        if status not in (0, 1, 2) or "internal error" in errors or not clean:
            failures.append(f"cli {args}: exit {status}: {errors[:400]}\n{text[:400]}")


def run(minutes: float, seed: int) -> int:
    rng = random.Random(seed)
    counts: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    deadline = time.monotonic() + 60 * minutes
    api_until = time.monotonic() + 45 * minutes
    with tempfile.TemporaryDirectory() as folder:
        while time.monotonic() < deadline:
            if time.monotonic() < api_until:
                api_round(rng, counts, failures)
            else:
                cli_round(rng, counts, failures, Path(folder))
    for key in sorted(counts):
        print(f"{counts[key]:>9,}  {key}")
    print(f"{len(failures):>9,}  failures")
    for failure in failures[:20]:
        print("\n" + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    sys.exit(run(options.minutes, options.seed))
