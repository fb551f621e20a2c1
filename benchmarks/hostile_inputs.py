"""The bound on hostile input: a 1 MB document of each kind is loaded or refused in at
most 0.1 s and 50 MB, through the Python API and through each command of the command
line (called in-process: the interpreter's start is not counted).

Prints, per input: its size, the outcome, the time (best of 3) and the peak of memory
allocated while reading it (``tracemalloc``, which counts every Python allocation).

    .venv/bin/python benchmarks/hostile_inputs.py
"""

from __future__ import annotations

import contextlib
import dataclasses
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
from azul_rules.adjudication.auditing import position_from_json
from azul_rules.adjudication.claims import claim_from_json
from azul_rules.adjudication.scoresheet import scoresheet_from_json
from azul_rules.cli import main
from azul_rules.tournament import run as tournament
from azul_rules.tournament.lines import load_record, read_existing
from azul_rules.tournament.runner import _settings

MB = 1_000_000
AUDIT = "examples/audits/two-mistakes"
SHEET = "examples/audits/scoresheet-one-wrong-round"
LINEUP = ["random", "greedy"]
GAMES = 1_250
"""Games of the tournament file: about 1 MB of JSON lines."""


def _pad(prefix: str, item: str, suffix: str) -> str:
    """``prefix`` + ``item`` repeated (comma-separated) + ``suffix``, about 1 MB."""
    count = (MB - len(prefix) - len(suffix)) // (len(item) + 1)
    return prefix + ",".join([item] * count) + suffix


def _state_with(key: str, value_text: str) -> str:
    data = az.to_dict(az.new_game(4, seed=1))
    data[key] = "@"
    return json.dumps(data).replace('"@"', value_text)


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


def _tournament_file(folder: Path) -> str:
    """The JSON lines of a real tournament of :data:`GAMES` games (about 1 MB)."""
    path = folder / "tournament.jsonl"
    tournament(LINEUP, games=GAMES, out=str(path), progress=False)
    return path.read_text(encoding="utf-8")


@dataclasses.dataclass(frozen=True)
class Case:
    """One hostile input: its text, how the API reads it (given the text and the file
    it was written to) and the command line that reads it (``{path}``: that file;
    ``{companion}``: a file holding ``companion``)."""

    name: str
    text: str
    api: Callable[[str, Path], object]
    command: list[str]
    companion: str = ""


def _audit_game(text: str, path: Path) -> object:
    record = az.GameRecord.from_json(text)
    return az.audit_game(record, scoresheet_from_json((path.parent / "companion").read_text()))


def _sheet_audit(text: str, path: Path) -> object:
    record = az.GameRecord.from_json(Path(f"{SHEET}/record.json").read_text())
    return az.audit_game(record, scoresheet_from_json(text))


def _resumed(text: str, path: Path) -> object:
    settings = _settings(LINEUP, 2, 0, None, "colored", None, 100)
    return read_existing(str(path), settings, GAMES)


STATE = lambda text, path: az.from_json(text, az.GameState)  # noqa: E731
MOVE = lambda text, path: az.move_from_json(text)  # noqa: E731
RECORD = lambda text, path: az.GameRecord.from_json(text)  # noqa: E731
CLAIM = lambda text, path: claim_from_json(text)  # noqa: E731
AUDIT_POSITION = lambda text, path: position_from_json(text)  # noqa: E731
SHOW = ["show", "{path}"]
CHECK = ["check", "examples/round-2-position.json", "{path}"]
REPLAY = ["replay", "{path}"]
AUDIT_STATE = ["audit", "{path}", f"{AUDIT}/claim.json"]
AUDIT_CLAIM = ["audit", f"{AUDIT}/position.json", "{path}"]
AUDIT_GAME = ["audit-game", f"{SHEET}/record.json", "{path}"]
RESUME = ["tournament", "--bots", ",".join(LINEUP), "--games", str(GAMES), "--out", "{path}",
          "--resume", "--no-progress"]  # fmt: skip


def cases(folder: Path) -> list[Case]:
    """Every input, each about 1 MB unless its name says otherwise."""
    state = json.dumps(az.to_dict(az.new_game(4, seed=1)))
    take = '{"type": "take", "source": 0, "color": "blue", "line": 0}'
    table_take = '{"type": "table_take", "source": 0, "color": "red", "count": 2, "placements": {'
    record = '{"format_version": 1, "players": 2, "moves": ['
    huge_count = state.replace('"bag": {', '"bag": {"x": ' + "9" * 401 + ", ")
    centre = _state_with("center", _pad("[", '"blue"', "]"))
    endless = _endless_game()
    sheet = {"rounds": [[0, 0]] * 100}  # every total right: no round needs an audit
    wrong_sheet = {"rounds": [[1, 1]] * 100}  # every total wrong: each round audited
    games = _tournament_file(folder)
    line = games.splitlines()[0]
    one_key = _pad('{"tournament": {}, ', '"game": 1', "}") + "\n"
    huge_deal = line.replace('"deal":0', '"deal":' + "9" * 4301) + "\n"
    deep_line = line[:-1] + ', "x": ' + "[" * 400_000 + "]" * 400_000 + "}\n"
    return [
        Case("position: a centre of 200,000 tiles", centre, STATE, SHOW),
        Case("position: a bag count of 10**400", huge_count, STATE, SHOW),
        Case("position: 1 MB of nested arrays", "[" * (MB // 2) + "]" * (MB // 2), STATE, SHOW),
        Case("position: one key 100,000 times", _pad("{", '"round": 1', "}"), STATE, SHOW),
        Case("position: a 1 MB string", _state_with("phase", '"' + "x" * MB + '"'), STATE, SHOW),
        Case("position: valid, padded with spaces", state + " " * (MB - len(state)), STATE,
             SHOW),
        Case("move: 90,000 placements", _pad(table_take, '"1": 1', "}}"), MOVE, CHECK),
        Case("move: a 1 MB colour name", take.replace('"blue"', '"' + "b" * MB + '"'), MOVE,
             CHECK),
        Case("record: 170,000 moves in notation", _pad(record, '"1B1"', "]}"), RECORD, REPLAY),
        Case("record: 18,000 JSON moves", _pad(record, take, "]}"), RECORD, REPLAY),
        Case("record: 500,000 numbers as moves", _pad(record, "1", "]}"), RECORD, REPLAY),
        Case("record: 9,999 JSON moves", record + ",".join([take] * 9_999) + "]}", RECORD,
             REPLAY),
        Case("record: a legal game of 10,000 moves", endless, RECORD, REPLAY),
        Case("claim: 200,000 scores", _pad('{"scores": [', "12", "]}"), CLAIM, AUDIT_CLAIM),
        Case("claim: 300 nested boards", '{"scores": [1, 2], "boards": ['
             + ",".join(['{"wall": [[[["x"]]]]}'] * 300) + "]}", CLAIM, AUDIT_CLAIM),
        Case("audit position: a centre of 200,000 tiles", centre, AUDIT_POSITION, AUDIT_STATE),
        Case("audit position: one key 100,000 times", _pad("{", '"round": 1', "}"),
             AUDIT_POSITION, AUDIT_STATE),
        Case("scoresheet: 250,000 totals", _pad('{"rounds": [', "[1, 2]", "]}"), _sheet_audit,
             AUDIT_GAME),
        Case("scoresheet: one key 100,000 times", _pad("{", '"final": [1, 2]', "}"),
             _sheet_audit, AUDIT_GAME),
        Case("record: 170,000 moves in notation, audited", _pad(record, '"1B1"', "]}"),
             _audit_game, ["audit-game", "{path}", "{companion}"], json.dumps(sheet)),
        Case("record: a legal game of 10,000 moves, 100 right rounds", endless, _audit_game,
             ["audit-game", "{path}", "{companion}"], json.dumps(sheet)),
        Case("record: a legal game of 10,000 moves, 100 wrong rounds", endless, _audit_game,
             ["audit-game", "{path}", "{companion}"], json.dumps(wrong_sheet)),
        Case(f"tournament file: {GAMES:,} games, resumed", games, _resumed, RESUME),
        Case(f"tournament file: {GAMES:,} games, the last replayed", games,
             lambda text, path: load_record(str(path), GAMES - 1),
             ["replay", "{path}", "--game", str(GAMES - 1)]),
        Case("tournament line: one key 100,000 times", one_key, _resumed, RESUME),
        Case("tournament line: one key 100,000 times, replayed", one_key,
             lambda text, path: load_record(str(path), 0), ["replay", "{path}", "--game", "0"]),
        Case("tournament line: 800,000 nested brackets", deep_line, _resumed, RESUME),
        Case("tournament line: a 4,301-digit number", huge_deal, _resumed, RESUME),
    ]  # fmt: skip


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


def through_api(case: Case, path: Path) -> str:
    try:
        case.api(case.text, path)
    except (az.FormatError, az.InvalidStateError, ValueError) as error:
        return f"refused ({type(error).__name__})"
    return "loaded"


def through_cli(case: Case, path: Path) -> str:
    companion = path.parent / "companion"
    args = [part.format(path=path, companion=companion) for part in case.command]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = main(args)
    return f"exit {status}"


def run() -> None:
    print("| input | size | API | time | memory | CLI | time | memory |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    worst_time = worst_memory = 0.0
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for case in cases(folder):
            path = folder / ("input.jsonl" if "tournament" in case.name else "input.json")
            path.write_text(case.text, encoding="utf-8")
            (folder / "companion").write_text(case.companion, encoding="utf-8")
            api = measure(lambda: through_api(case, path))  # noqa: B023
            cli = measure(lambda: through_cli(case, path))  # noqa: B023
            worst_time = max(worst_time, api[1], cli[1])
            worst_memory = max(worst_memory, api[2], cli[2])
            size = len(case.text.encode()) / MB
            print(f"| {case.name} ({case.command[0]}) | {size:.2f} MB | {api[0]} | "
                  f"{api[1] * 1000:.0f} ms | {api[2]:.1f} MB | {cli[0]} | "
                  f"{cli[1] * 1000:.0f} ms | {cli[2]:.1f} MB |")
    print(f"\nworst: {worst_time * 1000:.0f} ms, {worst_memory:.1f} MB "
          f"(bound: 100 ms, 50 MB)")


if __name__ == "__main__":
    run()
