"""How many games of ``azul-rules differential`` reach their end, per player count and
wall: the search against the reference engine, each game classed as ended (the referee's
``state.is_over``), cut at ``MAX_MOVES``, or abandoned by Hypothesis before its end (an
overrun: the choices Hypothesis had for it ran out), with how many of the ended games
were finished by the seeded generator (past ``CHOICES``) and the choices that decided
something in each (its padding left out).

    .venv/bin/python benchmarks/differential_endings.py [--games 100] [--seeds 1,2,3]

It watches ``_Search`` from outside (wrappers around ``_play`` and ``_compare``), so it
measures the same way whatever the search counts itself, before and after the change
that made every game make the same number of choices.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from typing import Any

from hypothesis.errors import StopTest

import azul_rules as az
from azul_rules.testing import differential

REFERENCE = [sys.executable, "-m", "azul_rules.engine"]


def watch() -> tuple[Counter[tuple[int, str, str]], dict[tuple[int, str], list[int]]]:
    """Wrap ``_Search._play`` and ``_Search._compare``: every game's outcome, and the
    choices made by every game that ended, its padding left out."""
    outcomes: Counter[tuple[int, str, str]] = Counter()
    sizes: dict[tuple[int, str], list[int]] = defaultdict(list)
    search = differential.search._Search
    play, compare = search._play, search._compare
    seeded = _watch_seeds()

    def compare_and_remember(self: Any, step: Any, *args: Any) -> None:
        self._last_state = step.after
        compare(self, step, *args)

    def classify(self: Any, data: Any) -> None:
        self._last_state = None
        try:
            play(self, data)
        except StopTest:
            state = self._last_state
            if state is not None:
                outcomes[len(state.players), state.variant.value, "abandoned"] += 1
            raise
        state = self._last_state
        if state is None:
            return
        key = len(state.players), state.variant.value
        how = "ended" if state.is_over else "cut"
        outcomes[(*key, how)] += 1
        if how == "ended":
            choices = seeded[-1] if seeded else None
            padding = getattr(choices, "padded", 0)
            sizes[key].append(len(data.conjecture_data.nodes) - padding)
            if choices is not None and choices.rng is not None:
                outcomes[(*key, "seeded")] += 1

    search._play, search._compare = classify, compare_and_remember  # type: ignore[method-assign]
    return outcomes, sizes


def _watch_seeds() -> list[Any]:
    """The choices of each game, where the search has them (``_Choices``), each with
    the padding it drew (``padded``)."""
    made: list[Any] = []
    kind = getattr(differential.search, "_Choices", None)
    if kind is not None:
        init, pad = kind.__init__, kind.pad

        def remember(self: Any, *args: Any) -> None:
            init(self, *args)
            made.append(self)

        def count_padding(self: Any) -> None:
            self.padded = self.left
            pad(self)

        kind.__init__, kind.pad = remember, count_padding
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seeds", default="1,2,3")
    options = parser.parse_args()
    outcomes, sizes = watch()
    begun = time.monotonic()
    reported: Counter[tuple[int, str]] = Counter()
    compared = 0
    for seed in (int(s) for s in options.seeds.split(",")):
        for variant in (az.Variant.COLORED, az.Variant.GREY):
            report = differential.run(REFERENCE, variants=[variant], games=options.games,
                                      seed=seed, timeout=30)  # fmt: skip
            assert report.status == 0, differential.report_text(report)
            compared += report.moves
            for players, wall, count in report.played:
                reported[players, wall.value] += count
    seconds = time.monotonic() - begun
    print(f"{options.games} games a run, seeds {options.seeds}, both walls: {seconds:.0f} s, "
          f"{compared:,} moves compared ({compared / seconds:.0f} a second)")  # fmt: skip
    print(
        "| wall | players | reported played | started | ended | of them finished by the seed "
        "| cut at MAX_MOVES | abandoned | choices deciding an ended game: median / max |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for wall in ("colored", "grey"):
        for players in (2, 3, 4):
            ended, cut, lost = (outcomes[players, wall, how]
                                for how in ("ended", "cut", "abandoned"))  # fmt: skip
            used = sizes[players, wall] or [0]
            print(
                f"| {wall} | {players} | {reported[players, wall]} | {ended + cut + lost} | "
                f"{ended} | {outcomes[players, wall, 'seeded']} | {cut} | "
                f"{lost} ({100 * lost / max(1, ended + cut + lost):.0f} %) "
                f"| {statistics.median(used):g} / {max(used)} |"
            )


if __name__ == "__main__":
    main()
