"""Random games played to their ends in C by the batch engine, for instruction counts.

Usage: ``python benchmarks/vector_playouts.py GAMES [PLAYERS [VARIANT]]``: imports the
batch engine, plays one warm-up game, then ``GAMES`` games with
``azul_rules.ai.vector.playouts(GAMES, PLAYERS, VARIANT, seed=0, threads=1)`` (one
thread: callgrind counts every thread's instructions anyway) and prints ``moves N`` and
``capped N``.  ``instructions.sh --vector`` runs it with GAMES and with 0 under callgrind
and divides the difference by GAMES.
"""

from __future__ import annotations

import sys

from azul_rules.ai import vector


def main() -> None:
    games = int(sys.argv[1])
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    variant = sys.argv[3] if len(sys.argv) > 3 else "colored"
    vector.playouts(1, players, variant, seed=1, threads=1)  # the tables, the first pages
    counted = vector.playouts(games, players, variant, seed=0, threads=1)
    print(f"moves {counted.moves}")
    print(f"capped {counted.capped}")


if __name__ == "__main__":
    main()
