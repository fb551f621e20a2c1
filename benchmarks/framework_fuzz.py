"""The long fuzz run of two adapters (minutes, not in CI): random addresses and headers
sent to every route of the web judge (through Starlette's test client), and PettingZoo's
``render`` in every mode on random positions.  Prints what was tried, by outcome, and
every failure; exit 1 when something failed.

    .venv/bin/python benchmarks/framework_fuzz.py [--requests 5000] [--renders 1000] [--seed 0]

The web cases are ``tests/web/test_web_fuzz.py``'s ``query_case``: ``?lang=`` must be
honoured by every route (a 400 naming ``?lang`` for anything but one ``en`` or ``fr``),
and nothing may be a 500 or log an error.  The renders: each position of random games
(2-4 players, both walls, masked random actions, now and then an illegal one, a round
cap now and then) in a random mode, checked by ``tests/ai/test_pettingzoo.py``'s ``check_render``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import logging
import random
import sys
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from starlette.testclient import TestClient

import azul_rules as az
from azul_rules.ai.pettingzoo import RENDER_MODES, env
from azul_rules.web import create_app
from tests.ai.test_pettingzoo import check_render
from tests.fuzz_inputs import dumps, mutate, read, seed_document
from tests.web.test_web_fuzz import query_case


class _Errors(logging.Handler):
    """Counts the records of level WARNING and above (a logged error is a finding)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def web(requests: int, rng: random.Random, failures: list[str]) -> collections.Counter[str]:
    counts: collections.Counter[str] = collections.Counter()
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    with TestClient(create_app(), raise_server_exceptions=True) as client:
        for _ in range(requests):
            state = rng.getstate()
            try:
                method, _, status = query_case(client, rng)
                counts[f"{method} {status}"] += 1
            except Exception:
                failures.append(f"web (rng state hash {hash(state)}): {traceback.format_exc()}")
    logging.getLogger().removeHandler(errors)
    failures.extend(f"logged: {r.getMessage()}" for r in errors.records)
    return counts


def odd_position(rng: random.Random) -> az.GameState | None:
    """A position read from a mutated document of the fuzz suite, when it is accepted
    (odd scores, rounds, walls and bags the games above do not reach)."""
    document = mutate(seed_document("state", rng.randrange(200)), rng, 1)
    try:
        position = read("state", dumps(document))
    except (az.FormatError, az.InvalidStateError):
        return None
    return position if isinstance(position, az.GameState) else None


def renders(count: int, rng: random.Random, failures: list[str]) -> collections.Counter[str]:
    counts: collections.Counter[str] = collections.Counter()
    games: dict[str, dict[tuple[int, str, int], Any]] = {mode: {} for mode in RENDER_MODES}
    while True:  # a quarter of the renders in each mode, at least
        modes = [m for m in RENDER_MODES if counts[f"rendered {m}"] < count // len(RENDER_MODES)]
        if not modes:
            return counts
        players, variant = rng.choice((2, 3, 4)), rng.choice(("colored", "grey"))
        cap = rng.choice((50, 50, 1, 2))
        mode = rng.choice(modes)
        key = (players, variant, cap)
        if key not in games[mode]:
            games[mode][key] = env(players, variant, mode, max_rounds=cap)
        game = games[mode][key]
        seed = rng.randrange(2**32)
        with contextlib.redirect_stdout(io.StringIO()):
            game.reset(seed=seed)
        counts["games"] += 1
        every = 1 if mode != "rgb_array" else rng.randint(8, 30)
        for step, _agent in enumerate(game.agent_iter()):
            observation, _, terminated, truncated, _ = game.last()
            if step % every == 0:
                try:
                    check_render(game, mode)
                    counts[f"rendered {mode}"] += 1
                except Exception:
                    failures.append(
                        f"render {mode} {key} seed {seed} step {step}: {traceback.format_exc()}"
                    )
            odd = odd_position(rng) if step % every == 0 and rng.random() < 0.5 else None
            if odd is not None:
                playing, game.unwrapped.game = game.unwrapped.game, odd
                try:
                    check_render(game, mode)
                    counts[f"rendered {mode} (a position read from a mutated document)"] += 1
                except Exception:
                    failures.append(f"render {mode} of {az.to_json(odd)}: {traceback.format_exc()}")
                game.unwrapped.game = playing
            if terminated or truncated:
                action = None
                counts["ended: " + ("truncated" if truncated else "terminated")] += 1
            elif rng.random() < 0.002:
                action = int(np.flatnonzero(observation["action_mask"] == 0)[0])
                counts["illegal actions"] += 1
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            with contextlib.redirect_stdout(io.StringIO()):
                game.step(action)
        try:
            check_render(game, mode)  # after the end, agents gone
            counts[f"rendered {mode}"] += 1
        except Exception:
            failures.append(f"render {mode} {key} seed {seed} at the end: {traceback.format_exc()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--renders", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    failures: list[str] = []
    rng = random.Random(args.seed)
    for name, counts in (
        ("web addresses and headers", web(args.requests, rng, failures)),
        ("pettingzoo render", renders(args.renders, rng, failures)),
    ):
        print(f"{name}:")
        for key, value in sorted(counts.items()):
            print(f"  {key}: {value}")
    for failure in failures[:20]:
        print("FAILURE:", failure)
    print(f"failures: {len(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
