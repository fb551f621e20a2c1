"""The bound on hostile input: a 1 MB document of each kind is loaded or refused in at
most 0.1 s and 50 MB, through the Python API and through each command of the command
line (called in-process: the interpreter's start is not counted).

Prints, per input: its size, the outcome, the time (best of 3) and the peak of memory
allocated while reading it (``tracemalloc``, which counts every Python allocation).

    .venv/bin/python benchmarks/hostile_inputs.py
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import azul_rules as az
from azul_rules.claims import claim_from_json
from azul_rules.cli import main

MB = 1_000_000


def _pad(prefix: str, item: str, suffix: str) -> str:
    """``prefix`` + ``item`` repeated (comma-separated) + ``suffix``, about 1 MB."""
    count = (MB - len(prefix) - len(suffix)) // (len(item) + 1)
    return prefix + ",".join([item] * count) + suffix


def _state_with(key: str, value_text: str) -> str:
    data = az.to_dict(az.new_game(4, seed=1))
    data[key] = "@"
    return json.dumps(data).replace('"@"', value_text)


def inputs() -> dict[str, tuple[str, str]]:
    """name -> (kind, text); every text about 1 MB."""
    state = json.dumps(az.to_dict(az.new_game(4, seed=1)))
    take = '{"type": "take", "source": 0, "color": "blue", "line": 0}'
    table_take = '{"type": "table_take", "source": 0, "color": "red", "count": 2, "placements": {'
    record = '{"format_version": 1, "players": 2, "moves": ['
    huge_count = state.replace('"bag": {', '"bag": {"x": ' + "9" * 401 + ", ")
    return {
        "position: a centre of 200,000 tiles": (
            "state", _state_with("center", _pad("[", '"blue"', "]"))),
        "position: a bag count of 10**400": ("state", huge_count),
        "position: 1 MB of nested arrays": ("state", "[" * (MB // 2) + "]" * (MB // 2)),
        "position: one key 100,000 times": ("state", _pad("{", '"round": 1', "}")),
        "position: a 1 MB string": ("state", _state_with("phase", '"' + "x" * MB + '"')),
        "position: valid, padded with spaces": ("state", state + " " * (MB - len(state))),
        "move: 90,000 placements": ("move", _pad(table_take, '"1": 1', "}}")),
        "move: a 1 MB colour name": ("move", take.replace('"blue"', '"' + "b" * MB + '"')),
        "record: 170,000 moves in notation": ("record", _pad(record, '"1B1"', "]}")),
        "record: 18,000 JSON moves": ("record", _pad(record, take, "]}")),
        "record: 500,000 numbers as moves": ("record", _pad(record, "1", "]}")),
        "record: 9,999 JSON moves": ("record", record + ",".join([take] * 9_999) + "]}"),
        "record: a legal game of 10,000 moves": ("record", _endless_game()),
        "claim: 200,000 scores": ("claim", _pad('{"scores": [', "12", "]}")),
        "claim: 300 nested boards": ("claim", '{"scores": [1, 2], "boards": ['
                                     + ",".join(['{"wall": [[[["x"]]]]}'] * 300) + "]}"),
    }  # fmt: skip


def _endless_game() -> str:
    """A legal record of 10,000 moves: every tile taken goes to the floor, so no wall
    row is ever completed and the game never ends."""
    state = az.new_game(2, seed=1)
    moves = []
    for _ in range(10_000):
        move = next(m for m in state.legal_moves() if isinstance(m, az.Take) and m.line < 0)
        moves.append(move)
        state = state.apply(move)
    return az.to_json(az.GameRecord.of_game(moves, players=2, seed=1))


READERS: dict[str, Callable[[str], object]] = {
    "state": lambda text: az.from_json(text, az.GameState),
    "move": az.move_from_json,
    "record": az.GameRecord.from_json,
    "claim": claim_from_json,
}
COMMANDS = {
    "state": ["show", "{path}"],
    "move": ["check", "examples/round-2-position.json", "{path}"],
    "record": ["replay", "{path}"],
    "claim": ["audit", "examples/audits/two-mistakes/position.json", "{path}"],
}


def measure(action: Callable[[], str]) -> tuple[str, float, float]:
    """(outcome, best time in s of 3, peak MB allocated)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        outcome = action()
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    action()
    peak = tracemalloc.get_traced_memory()[1] / MB
    tracemalloc.stop()
    return outcome, best, peak


def through_api(kind: str, text: str) -> str:
    try:
        READERS[kind](text)
    except (az.FormatError, az.InvalidStateError) as error:
        return f"refused ({type(error).__name__})"
    return "loaded"


def through_cli(kind: str, path: Path) -> str:
    args = [part.format(path=path) for part in COMMANDS[kind]]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = main(args)
    return f"exit {status}"


def run() -> None:
    print("| input | size | API | time | memory | CLI | time | memory |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    worst_time = worst_memory = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for name, (kind, text) in inputs().items():
            path = Path(folder) / "input.json"
            path.write_text(text, encoding="utf-8")
            api = measure(lambda: through_api(kind, text))  # noqa: B023
            cli = measure(lambda: through_cli(kind, path))  # noqa: B023
            worst_time = max(worst_time, api[1], cli[1])
            worst_memory = max(worst_memory, api[2], cli[2])
            size = len(text.encode()) / MB
            print(f"| {name} ({COMMANDS[kind][0]}) | {size:.2f} MB | {api[0]} | "
                  f"{api[1] * 1000:.0f} ms | {api[2]:.1f} MB | {cli[0]} | "
                  f"{cli[1] * 1000:.0f} ms | {cli[2]:.1f} MB |")
    print(f"\nworst: {worst_time * 1000:.0f} ms, {worst_memory:.1f} MB "
          f"(bound: 100 ms, 50 MB)")


if __name__ == "__main__":
    run()
