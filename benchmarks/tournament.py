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


def measure(
    bots: list[str], games: int, backend: str, batch: int, repeat: int
) -> tuple[float, float]:
    """The best games/s of ``repeat`` runs, and the least CPU time per game (ms) of this
    process and its finished children (the process backend's workers; not Ray's)."""
    best, cpu = 0.0, float("inf")
    for attempt in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            out = os.path.join(folder, "games.jsonl")
            before = os.times()
            start = time.perf_counter()
            results = run(bots, games=games, seed=attempt, backend=backend, batch=batch,
                          out=out, progress=False)  # fmt: skip
            elapsed = time.perf_counter() - start
            after = os.times()
        assert results.played == games and not results.lost
        best = max(best, games / elapsed)
        spent = sum(after[:4]) - sum(before[:4])
        cpu = min(cpu, 1000 * spent / games)
    return best, cpu


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
    cpu_rows = []
    for backend in backends:
        ray = start_ray() if backend == "ray" else None
        figures = [measure(bots, args.games, backend, b, args.repeat) for b in batches]
        print(f"| {backend} | " + " | ".join(f"{g:,.0f}" for g, _ in figures) + " |",
              flush=True)  # fmt: skip
        if ray is None:
            cpu_rows.append(f"| {backend} | " + " | ".join(f"{c:.2f}" for _, c in figures) + " |")
        else:
            ray.shutdown()
    print("\nCPU ms a game (this process and its pool's workers; Ray's workers are not "
          "counted)\n")  # fmt: skip
    print("| backend | " + " | ".join(f"batch {b:,}" for b in batches) + " |")
    print("| --- |" + " ---: |" * len(batches))
    print("\n".join(cpu_rows))
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


def start_ray() -> Any:
    """A local Ray cluster over this machine's cores; its start-up time on stderr."""
    import ray

    start = time.perf_counter()
    ray.init(address="local", include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False)  # fmt: skip
    print(f"ray.init(): {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return ray


if __name__ == "__main__":
    main()
