"""Repeat one call of the issue-18 targets, for instruction counts (``instructions.sh``).

Usage: ``python benchmarks/per_call.py WHAT PASSES``, WHAT one of

- ``round-end``: ``apply`` of the last take of a round that is not the last (the wall
  tiling, the floor, the end check and the refill), over every such take of the
  coloured 2-player random games of seeds 0-39;
- ``take``: ``apply`` of the ordinary takes of the same games;
- ``legal-moves``: ``legal_moves()`` on the benchmark position (``workloads.py``);
- ``successor-bytes``: no repetition: prints the memory a successor of an ordinary take
  adds while its parent is kept (tracemalloc, deterministic; run without callgrind).

The script builds its calls, makes one warm-up pass over them (filling the memo tables
as a long run would), then ``PASSES`` passes, and prints ``calls N`` (the calls of the
measured passes) and a checksum of what it measured.  ``instructions.sh`` runs it under
callgrind with 0 and with ``PASSES`` passes and divides the difference by ``N``: the
figure includes the loop around each call (a few dozen instructions).
"""

from __future__ import annotations

import sys

from workloads import benchmark_position, checksum, successor_bytes, takes


def main() -> None:
    what, passes = sys.argv[1], int(sys.argv[2])
    if what == "legal-moves":
        legal_moves = benchmark_position().legal_moves
        calls = 1000
        for _ in range(calls):
            legal_moves()
        for _ in range(passes):
            for _ in range(calls):
                legal_moves()
        print(f"calls {passes * calls}")
        print(f"checksum {len(legal_moves())} legal moves")
        return
    kind = {"round-end": "round end", "take": "ordinary", "successor-bytes": "ordinary"}[what]
    pairs = takes()[kind]
    if what == "successor-bytes":
        print(f"successor bytes {successor_bytes(pairs):.1f}")
        print(f"checksum {checksum(pairs)}")
        return
    for parent, move in pairs:
        parent.apply(move)
    for _ in range(passes):
        for parent, move in pairs:
            parent.apply(move)
    print(f"calls {passes * len(pairs)}")
    print(f"checksum {checksum(pairs)}")


if __name__ == "__main__":
    main()
