"""Games per second of `azul_rules.tournament.run` on each backend and batch size.

    .venv/bin/python benchmarks/tournament.py [--games N] [--bots A,B] [--repeat R]
        [--backends local,process,ray] [--batches 1,10,100,1000]

Each figure is the best of ``--repeat`` runs (the machine is shared and noisy: the best
run is the one least disturbed), timed around ``run`` as a user calls it: games
refereed, lines written to a file in a temporary folder, results tallied.  The process
backend's pool starts inside the timing (``run`` starts it).  Ray's local cluster is
started once before its row, as ``ray.init()`` is in a long-lived program, and its
start-up time is printed apart (it is stopped before any other row is measured).
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from typing import Any

from azul_rules.tournament import run
from azul_rules.tournament.backends import cpu_count


def measure(bots: list[str], games: int, backend: str, batch: int, repeat: int) -> float:
    """The best games/s of ``repeat`` runs."""
    best = 0.0
    for attempt in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "games.jsonl")
            start = time.perf_counter()
            results = run(bots, games=games, seed=attempt, backend=backend, batch=batch,
                          out=out, progress=False)  # fmt: skip
            elapsed = time.perf_counter() - start
        assert results.played == games and not results.lost
        best = max(best, games / elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--bots", default="random,random")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", default="local,process,ray")
    parser.add_argument("--batches", default="1,10,100,1000")
    args = parser.parse_args()
    bots = args.bots.split(",")
    backends = args.backends.split(",")
    batches = [int(b) for b in args.batches.split(",")]
    print(f"{args.games} games of {args.bots}, {cpu_count()} cores, "
          f"best of {args.repeat}; games/s\n")  # fmt: skip
    print("| backend | " + " | ".join(f"batch {b:,}" for b in batches) + " |")
    print("| --- |" + " ---: |" * len(batches))
    for backend in backends:
        ray = start_ray() if backend == "ray" else None
        cells = [f"{measure(bots, args.games, backend, b, args.repeat):,.0f}" for b in batches]
        print(f"| {backend} | " + " | ".join(cells) + " |", flush=True)
        if ray is not None:
            ray.shutdown()


def start_ray() -> Any:
    """A local Ray cluster over this machine's cores; its start-up time on stderr."""
    import ray

    start = time.perf_counter()
    ray.init(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    print(f"ray.init(): {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return ray


if __name__ == "__main__":
    main()
