"""The long fuzz run (minutes, not in CI): positions, moves and records mutated from
valid ones or written from scratch, read through the Python API and every accepted
position played to the end; then mutated files through each command of the command
line, in-process; then hostile arguments and files (megabytes, control characters,
Unicode digits, NaN, named pipes, devices) through every command.  Prints what was
tried, refused (by kind of error), accepted and played out, and every failure.

    .venv/bin/python benchmarks/fuzz.py [--minutes 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import azul_rules as az
from azul_rules.cli import main
from tests.formats.test_fuzz import COMMANDS
from tests.fuzz_inputs import (
    HOSTILE_TEXT,
    ODD_VALUES,
    check_lines,
    dumps,
    mutate,
    mutate_text,
    play_out,
    read,
    seed_document,
)

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


# -- hostile arguments and files (issue 24) ----------------------------------------------------

HOSTILE_ARGS = (
    "x" * 100_000, "\x1b[31mred\x1b[0m", "a\nb", "a\rb", "\x00", "\u2028", "\u202e", "٣", "１０",
    "1_0", "nan", "inf", "1e308", "-1", "9" * 5000, "", " ", "-", "--", "é" * 300, "\udc80",
    "99999999999999999999", "0x10", "+3", "-0.0", HOSTILE_TEXT,
)  # fmt: skip
"""Arguments no command should take whole, or as a number: megabytes, control
characters, Unicode and underscore digits, NaN and infinity, lone surrogates."""

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
_POS, _REC = str(_EXAMPLES / "round-2-position.json"), str(_EXAMPLES / "recorded-game.json")
_AUD = _EXAMPLES / "audits" / "correct-claim"
_SH = _EXAMPLES / "audits" / "scoresheet-one-wrong-round"
_T = ["tournament", "--bots", "random,random", "--no-progress"]
_COMMANDS = ("play", "check", "show", "audit", "audit-game", "replay", "rules", "tournament",
             "differential", "serve")  # fmt: skip


def _hostile_files(folder: Path) -> list[str]:
    """Files no command should read for ever or wait on: a named pipe nobody writes or
    reads, devices that never end or are full, a directory, a missing folder."""
    fifo = folder / "fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    return [str(fifo), "/dev/zero", "/dev/urandom", "/dev/null", "/dev/full", str(folder),
            str(folder / "missing" / "x.json")]  # fmt: skip


def _argument_lines(h: str, f: str) -> list[list[str]]:
    """Command lines of every command, ``h`` a hostile argument, ``f`` a hostile file."""
    return [
        ["play", "--seed", h], ["play", "--players", h], ["play", "--variant", h],
        ["play", "--bots", h], ["play", "--lang", h], ["play", "--seed", "1", "--record", f],
        ["play", "--record", h], ["check", h, "2B3"], ["check", _POS, h], ["check", f, "2B3"],
        ["check", _POS, f], ["check", _POS, "2B3", "--svg", f], ["check", _POS, "2B3", "--svg", h],
        ["show", h], ["show", f], ["show", _POS, "--svg", f], ["show", _POS, "--svg", h],
        ["audit", h, f"{_AUD}/claim.json"], ["audit", f"{_AUD}/position.json", h],
        ["audit", f, f"{_AUD}/claim.json"], ["audit", f"{_AUD}/position.json", f],
        ["audit-game", h, f"{_SH}/scoresheet.json"], ["audit-game", f"{_SH}/record.json", h],
        ["audit-game", f, f"{_SH}/scoresheet.json"], ["audit-game", f"{_SH}/record.json", f],
        ["replay", h], ["replay", f], ["replay", _REC, "--game", h], ["replay", f, "--game", "0"],
        ["replay", _REC, "--svg-dir", h], ["replay", _REC, "--svg-dir", f], ["rules", h],
        ["rules", "--lang", h], ["tournament", "--bots", h, "--games", "1", "--no-progress"],
        [*_T, "--games", "1", "--out", h], [*_T, "--games", "1", "--out", f],
        [*_T, "--games", "1", "--out", f, "--resume"], [*_T, "--games", "1", "--time-limit", h],
        [*_T, "--games", "1", "--seed", h], [*_T, "--games", "1", "--max-rounds", h],
        [*_T, "--games", "1", "--backend", "ray", "--ray-address", h],
        ["differential", "--engine", h, "--games", "1"],
        ["differential", "--engine", "x", "--timeout", h],
        ["differential", "--engine", "x", "--time", h],
        ["differential", "--engine", "x", "--players", h],
        ["differential", "--engine", "x", "--variant", h],
        ["serve", "--port", h], ["serve", "--log-level", h], [h], ["play", h],
        ["check", _POS, "2B3", h],
    ]  # fmt: skip


def _may_start(args: list[str]) -> bool:
    """Whether the command line would start a server or a game without end (a valid
    port, millions of games): not what this fuzzes."""
    port = args[args.index("--port") + 1] if "--port" in args else ""
    games = args[args.index("--games") + 1] if "--games" in args else "1"
    return bool((re.fullmatch(r"[0-9]{1,5}", port) and int(port) <= 65535)
                or re.fullmatch(r"[0-9]{3,}", games))  # fmt: skip


def args_round(rng: random.Random, counts: collections.Counter[str], failures: list[str],
               folder: Path) -> None:  # fmt: skip
    """One command line with a hostile argument or file: exit 0, 1 or 2, never an
    internal error, each line printable and cut (``check_lines``), and no wait for ever
    (a minute at most).  Run in ``folder``: what a command writes lands there."""
    hostile = rng.choice(HOSTILE_ARGS)
    if rng.random() < 0.3:
        hostile += rng.choice(HOSTILE_ARGS)
    args = rng.choice(_argument_lines(hostile, rng.choice(_hostile_files(folder))))
    if _may_start(args):
        return
    out, err = io.StringIO(), io.StringIO()
    signal.alarm(60)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(args)
    except _Hung:
        status = -1
    finally:
        signal.alarm(0)
    command = args[0] if args[0] in _COMMANDS else "(no such command)"
    counts[f"args {command}: exit {status}"] += 1
    errors = err.getvalue()
    try:
        check_lines(args, out.getvalue(), errors)
        clean = True
    except AssertionError as error:
        clean, errors = False, f"{error}"[:400]
    if status not in (0, 1, 2) or "internal error" in errors or not clean:
        shown_args = [a if len(a) < 60 else a[:57] + "..." for a in args]
        failures.append(f"args {shown_args!r}: exit {status}: {errors[:400]!r}")


class _Hung(BaseException):
    """A command still running after a minute (not an ``Exception``: the command line
    would call it an internal error)."""


def _hung(signum: int, frame: object) -> None:
    raise _Hung


def run(minutes: float, seed: int) -> int:
    rng = random.Random(seed)
    counts: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    start = time.monotonic()
    deadline = start + 60 * minutes
    api_until, files_until = start + 36 * minutes, start + 48 * minutes
    signal.signal(signal.SIGALRM, _hung)
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        while time.monotonic() < deadline:
            if time.monotonic() < api_until:
                api_round(rng, counts, failures)
            elif time.monotonic() < files_until:
                cli_round(rng, counts, failures, Path(folder))
            else:
                os.chdir(folder)  # --record, --svg, --out of hostile names land there
                args_round(rng, counts, failures, Path(folder))
        os.chdir(here)
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
